"""The napij-se card deck as a data file: card kinds, their numbers and how many of each.

A deck file is JSON ``{"name": ..., "cards": [{"card": KIND, "n": N, "count": C, "class": CLASS,
"text": ..., "why": ...}]}``; ``n`` is the number printed on advance/back/immunity/drink cards and
the optional ``class`` is how the card plays for its drawer (favourable, unfavourable, neutral,
blank: the rulebook says most cards are favourable; ``solver clovece check`` counts them).  A house deck can replace ours
with ``--deck FILE``; errors are one line naming the card entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from solver.errors import SolverError
from solver.inputs import parse_json, read_text

#: card kinds in engine order (tests/test_clovece_tables.py checks them against the C enum)
CARD_KINDS = ("blank", "advance", "back", "catch-up", "capture", "swap", "from-pub", "immunity",
              "return-to-pub", "police", "drink", "finish-glass", "fall-in", "offer-capture")
CARD_CLASSES = ("favourable", "unfavourable", "neutral", "blank")
#: kinds whose number ``n`` matters, with its allowed range
NUMBERED = {"advance": (1, 40), "back": (1, 40), "immunity": (1, 100), "drink": (1, 100)}
MAX_CARDS = 64


@dataclass(frozen=True)
class Deck:
    """A validated deck: one entry per physical card (kind index, number) plus a name."""

    name: str
    kind: tuple[int, ...]
    arg: tuple[int, ...]
    classes: tuple[str, ...] = ()   # per physical card, "" where the file does not say

    def arrays(self) -> dict[str, list[int]]:
        return {"kind": list(self.kind), "arg": list(self.arg)}

    def index_of(self, card: str, n: int = 0) -> int:
        """Index of the first physical card of that kind (and number)."""
        k = CARD_KINDS.index(card)
        for i, (kk, a) in enumerate(zip(self.kind, self.arg, strict=True)):
            if kk == k and (n == 0 or a == n):
                return i
        raise KeyError(card)


def default_deck_path() -> Path:
    return Path(str(resources.files("solver.clovece") / "napij-se.deck.json"))


def load_deck(path: str | Path | None = None, text: str | None = None) -> Deck:
    """Read and validate a deck file (default: the shipped 32-card deck) or a deck's JSON text.

    >>> d = load_deck()
    >>> len(d.kind), d.kind.count(CARD_KINDS.index("drink"))
    (32, 3)
    """
    name = "deck" if text is not None and path is None else str(path or default_deck_path())
    if text is None:
        text = read_text(name, "deck file")
    doc = parse_json(text, f"deck file {name!r}")
    return compile_deck(doc, name)


def read_deck_text(path: str | Path | None = None) -> str:
    """The text of a deck file, validated (so that it can travel to workers instead of a path)."""
    text = read_text(path, "deck file") if path is not None else default_deck_path().read_text(encoding="utf-8")
    load_deck(path or default_deck_path(), text)
    return text


def compile_deck(doc: Any, name: str = "deck") -> Deck:
    """Validate a parsed deck document."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise SolverError(f"deck {name!r}: needs a 'cards' list")
    kind: list[int] = []
    arg: list[int] = []
    classes: list[str] = []
    for i, entry in enumerate(doc["cards"]):
        where = f"deck {name!r} card entry {i + 1}"
        if not isinstance(entry, dict) or entry.get("card") not in CARD_KINDS:
            card = entry.get("card") if isinstance(entry, dict) else entry
            raise SolverError(f"{where}: unknown card {card!r} (known: {', '.join(CARD_KINDS)})")
        card = entry["card"]
        count = entry.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise SolverError(f"{where} ({card}): count must be a positive integer")
        if len(kind) + count > MAX_CARDS:  # before building: a count of 2**63 must not allocate
            raise SolverError(f"deck {name!r}: needs 1..{MAX_CARDS} cards, has more with card entry {i + 1}")
        n = entry.get("n", 1 if card in ("drink",) else 0)
        if card in NUMBERED:
            lo, hi = NUMBERED[card]
            if not isinstance(n, int) or isinstance(n, bool) or not lo <= n <= hi:
                raise SolverError(f"{where} ({card}): n must be an integer {lo}..{hi}")
        elif "n" in entry:
            raise SolverError(f"{where} ({card}): a {card} card takes no number n "
                              f"(only {', '.join(NUMBERED)} do)")
        cls = entry.get("class", "")
        if cls not in ("", *CARD_CLASSES):
            raise SolverError(f"{where} ({card}): class must be one of {', '.join(CARD_CLASSES)}")
        kind += [CARD_KINDS.index(card)] * count
        arg += [n] * count
        classes += [cls] * count
    if not 1 <= len(kind) <= MAX_CARDS:
        raise SolverError(f"deck {name!r}: needs 1..{MAX_CARDS} cards, has {len(kind)}")
    return Deck(str(doc.get("name", name)), tuple(kind), tuple(arg), tuple(classes))


def card_label(kind: int, n: int) -> str:
    """A card as a short text: ``advance 3``, ``drink 1``, ``swap``."""
    name = CARD_KINDS[kind]
    return f"{name} {n}" if name in NUMBERED else name
