"""Build the Cython engines in ext/ as extension modules of solver._ext.

Every ext/NAME.pyx becomes solver._ext.NAME.  Set SOLVER_EXT=name1,name2 to build only some
of them during development (a full build compiles every engine), SOLVER_PORTABLE=1 for a build
that runs on any x86-64 CPU (no POPCNT instruction).
"""

import os
import platform
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
only = {n for n in os.environ.get("SOLVER_EXT", "").split(",") if n}
sources = sorted(p for p in (HERE / "ext").glob("*.pyx") if not only or p.stem in only)


def _cpu_has_popcnt() -> bool:
    """Whether the building machine's x86-64 CPU has the POPCNT instruction (every x86-64 CPU since
    about 2008).  Without ``-mpopcnt`` gcc turns ``__builtin_popcountll`` into a library call, which
    cost the Blokus search 14 % of its instructions.  SOLVER_PORTABLE=1 builds without it."""
    if os.environ.get("SOLVER_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as fh:
            return any(line.startswith("flags") and " popcnt" in line for line in fh)
    except OSError:
        return False


compile_args = ["/O2"] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]
if sys.platform != "win32" and _cpu_has_popcnt():
    compile_args.append("-mpopcnt")
extensions = [
    Extension(
        f"solver._ext.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        include_dirs=[numpy.get_include(), "ext"],
        extra_compile_args=compile_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for pyx in sources
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=["ext"],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
            "nonecheck": False,
            "embedsignature": True,
        },
        quiet=True,
    ),
)
