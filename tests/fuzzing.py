"""Helpers of the fuzz suite: run the CLI in-process and judge the outcome, mutate input files.

The contract every input must keep (README, "Bad input"): exit status 0, or 1 where the command
documents it, or 2 with exactly one stderr line starting ``solver: error:`` — never a traceback.
Running ``solver.cli.main.main`` in this process (not one subprocess per input) keeps a few
thousand inputs fast enough for CI.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from solver.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Outcome:
    argv: list[str]
    code: int
    out: str
    err: str


def run_cli(argv: Sequence[str]) -> Outcome:
    """Run ``solver ARGV`` in this process; an exception escaping ``main`` fails the test as it is."""
    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return Outcome(list(argv), code if isinstance(code, int) else 1, out.getvalue(), err.getvalue())


def check_outcome(outcome: Outcome, ok_codes: Sequence[int] = (0,), label: str = "") -> None:
    """Exit 0 (or a documented code in ``ok_codes``) or 2 with exactly one ``solver: error:`` line."""
    where = f"{label} {outcome.argv!r}"
    assert "Traceback" not in outcome.err, f"{where}: traceback\n{outcome.err[-2000:]}"
    if outcome.code == 2:
        lines = outcome.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("solver: error: "), f"{where}: stderr {outcome.err[:2000]!r}"
    else:
        assert outcome.code in ok_codes, f"{where}: exit {outcome.code}, stderr {outcome.err[-2000:]!r}"


def run_checked(argv: Sequence[str], ok_codes: Sequence[int] = (0,), label: str = "") -> Outcome:
    outcome = run_cli(argv)
    check_outcome(outcome, ok_codes, label)
    return outcome


# --------------------------------------------------------------------------------------------------
# Mutations

#: Values that broke, or could break, a reader: huge and boundary integers, non-finite numbers,
#: wrong types, deep nesting, odd strings (newlines, U+2028, NUL, BOM, bidi), empty containers.
NASTY_JSON: list[object] = [
    0, -1, 1, 2, 3, 6, 99, 100, 255, 256, 2**31, 2**63, -(2**63), 10**30, 1000000000,
    0.5, -0.0, 1e308, 1e-300, "", "x", "a\nb", "a\u2028b", "\x00", "\ufeff", "\u202e", "é" * 50,
    "L1", "all", "standard", "drink", "advance", "red", "blue", None, True, False, [], {}, [[]], [0, 0],
    [0.5, 0], [-1, 0], ["L1"], ["standard"], {"a": 1}, [[0, 0], [0, 0]],
]
#: Raw tokens spliced into text (not valid JSON/TOML values on their own, some on purpose).
NASTY_TOKENS: list[str] = [
    "9" * 5000, "[" * 3000, "{" * 3000, "Infinity", "NaN", "-Infinity", "1e999", "inf", "nan",
    "\n", "\r\n", "\u2028", "\x00", "\ufeff", "\\", '"', "'", ",", ",,", "]", "}", "=", "#", "[[",
    "0x10", "1_000", "9223372036854775808", "-9223372036854775809", "true", "null", "'''", '"""',
]
NASTY_BYTES: list[bytes] = [b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\x00", b"\r", b"\xe2\x80\xa8"]


def _nodes(value, path=()):
    """Every (path, value) in a parsed JSON document."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, (*path, i))


def _replace(doc, path, new):
    if not path:
        return new
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return doc


def mutate_json_doc(doc, rnd: random.Random):
    """A structural mutation: one node replaced, removed, duplicated, or a key added/renamed."""
    doc = json.loads(json.dumps(doc))
    nodes = list(_nodes(doc))
    path, value = rnd.choice(nodes)
    op = rnd.randrange(5)
    if op == 0 or not path:
        return _replace(doc, path, json.loads(json.dumps(rnd.choice(NASTY_JSON))))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if op == 1:  # remove
        del parent[last]
    elif op == 2 and isinstance(parent, list):  # duplicate a list entry many times or once
        parent.insert(last, json.loads(json.dumps(value)))
    elif op == 3 and isinstance(parent, dict):  # rename the key
        parent[rnd.choice(["", "n", "count", "next", "cards", "fields", "typo", last + "s"])] = parent.pop(last)
    else:  # a numeric nudge or a type swap
        if isinstance(value, int) and not isinstance(value, bool):
            parent[last] = value + rnd.choice([-1, 1, -value - 1, 2**63, 10**9])
        elif isinstance(value, str):
            parent[last] = value + rnd.choice(["", "x", "\n", "\u2028", " "]) if rnd.random() < 0.5 else [value]
        else:
            parent[last] = rnd.choice(NASTY_JSON)
    return doc


def mutate_text(text: str, rnd: random.Random) -> str:
    """A textual mutation: a token spliced in, a span deleted or duplicated, or a value replaced."""
    if not text:
        return rnd.choice(NASTY_TOKENS)
    op = rnd.randrange(4)
    i = rnd.randrange(len(text) + 1)
    if op == 0:
        return text[:i] + rnd.choice(NASTY_TOKENS) + text[i:]
    if op == 1:
        j = min(len(text), i + rnd.randrange(1, 40))
        return text[:i] + text[j:]
    if op == 2:
        j = min(len(text), i + rnd.randrange(1, 40))
        return text[:j] + text[i:j] + text[j:]
    values = list(re.finditer(r"(?<== )[^\n#]+", text))  # TOML-style "key = value"
    if not values:
        return text[:i] + rnd.choice(NASTY_TOKENS) + text[i:]
    m = rnd.choice(values)
    new = rnd.choice(NASTY_TOKENS + [json.dumps(v) for v in NASTY_JSON if v is not None and not isinstance(v, dict)])
    return text[:m.start()] + new + text[m.end():]


def mutate_bytes(data: bytes, rnd: random.Random) -> bytes:
    """A byte-level mutation: a bad byte sequence inserted, or a BOM prepended."""
    if rnd.random() < 0.3:
        return b"\xef\xbb\xbf" + data
    i = rnd.randrange(len(data) + 1)
    return data[:i] + rnd.choice(NASTY_BYTES) + data[i:]


def mutants(seed_texts: Sequence[str], count: int, seed: int, json_docs: bool = False) -> list[bytes]:
    """``count`` mutated inputs from the seed files: structural (JSON), textual and byte-level."""
    rnd = random.Random(seed)
    out: list[bytes] = []
    for _ in range(count):
        text = rnd.choice(seed_texts)
        for _ in range(rnd.choice([1, 1, 1, 2, 3])):
            r = rnd.random()
            if json_docs and r < 0.5:
                try:
                    text = json.dumps(mutate_json_doc(json.loads(text), rnd), ensure_ascii=rnd.random() < 0.5)
                except (ValueError, RecursionError):
                    text = mutate_text(text, rnd)
            else:
                text = mutate_text(text, rnd)
        data = text.encode("utf-8", "surrogatepass")
        if rnd.random() < 0.15:
            data = mutate_bytes(data, rnd)
        out.append(data)
    return out


def jsonl_mutants(seed_texts: Sequence[str], count: int, seed: int) -> list[bytes]:
    """Mutated JSON Lines logs: one line mutated structurally or as text, lines dropped or repeated."""
    rnd = random.Random(seed)
    out: list[bytes] = []
    for _ in range(count):
        lines = rnd.choice(seed_texts).split("\n")
        k = rnd.randrange(len(lines))
        r = rnd.random()
        if r < 0.5:
            try:
                lines[k] = json.dumps(mutate_json_doc(json.loads(lines[k]), rnd), ensure_ascii=rnd.random() < 0.5)
            except (ValueError, RecursionError):
                lines[k] = mutate_text(lines[k], rnd)
        elif r < 0.8:
            lines[k] = mutate_text(lines[k], rnd)
        elif r < 0.9:
            del lines[k]
        else:
            lines.insert(k, lines[rnd.randrange(len(lines))])
        data = "\n".join(lines).encode("utf-8", "surrogatepass")
        if rnd.random() < 0.1:
            data = mutate_bytes(data, rnd)
        out.append(data)
    return out
