"""Packaging: the engines are compiled extensions, the CLI and the data files are reachable."""

import importlib
import importlib.machinery
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from solver.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
ENGINES = sorted(p.stem for p in (ROOT / "ext").glob("*.pyx"))


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_is_a_compiled_extension(name):
    module = importlib.import_module(f"solver._ext.{name}")
    assert isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader), (
        f"solver._ext.{name} is not a compiled extension: build it with `pip install -e .`"
    )
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_cli_lists_one_group_per_game():
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for group in ("blokus", "puzzle", "thegame", "clovece", "squid"):
        assert f"  {group} " in result.output


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and solver.__version__ in result.output
