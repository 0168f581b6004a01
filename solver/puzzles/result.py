"""What a solver returns: status, the placements found, timing and how it was found."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = tuple[int, int]
Placement = tuple[str, str, tuple[Cell, ...]]  # (colour, piece name, cells)

SOLVED = "solved"
IMPOSSIBLE = "proven impossible"
UNKNOWN = "unknown within the limit"


@dataclass
class Result:
    """Outcome of one solve (or enumeration) of a puzzle."""

    status: str
    placements: list[Placement] = field(default_factory=list)
    seconds: float = 0.0
    method: str = ""
    count: int | None = None            # --all: distinct solutions up to board symmetry
    complete: bool = True               # --all: False if the enumeration was cut short
    solutions: list[list[Placement]] = field(default_factory=list)
    info: dict = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED


class TooLarge(Exception):
    """A puzzle whose model would exceed a documented size cap (the solvers answer "unknown")."""
