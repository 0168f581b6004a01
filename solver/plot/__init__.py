"""Charts of the result tables and heat maps of Blokus boards (matplotlib, an optional extra).

* :mod:`~solver.plot.table` reads a table back from CSV/JSON;
* :mod:`~solver.plot.recognise` picks the chart that fits a table from its columns and draws it;
* one module per chart kind: :mod:`~solver.plot.winrate` (bars per seat with intervals and fair
  share), :mod:`~solver.plot.players` (The Game's player-count curves),
  :mod:`~solver.plot.sweep`, :mod:`~solver.plot.histogram`, :mod:`~solver.plot.matrix`,
  :mod:`~solver.plot.subgames` and :mod:`~solver.plot.heatmap` (Blokus cell coverage);
* :mod:`~solver.plot.style` holds what they share (backend, palette, titles, footer, saving).

Only the drawing imports matplotlib, so the rest of the solver works without it.
"""
