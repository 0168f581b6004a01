"""Build the Cython engines in ext/ as extension modules of solver._ext.

Every ext/NAME.pyx becomes solver._ext.NAME.  Set SOLVER_EXT=name1,name2 to build only some
of them during development (a full build compiles every engine), SOLVER_PORTABLE=1 for a build
that runs on any x86-64 CPU (no POPCNT, BMI or AVX2 instructions).
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


#: gcc options for integer instructions, by the /proc/cpuinfo flag that says the CPU has them.
#: Without -mpopcnt gcc turns ``__builtin_popcountll`` into a library call (14 % of the Blokus
#: search's instructions); BMI1/BMI2/LZCNT give ``tzcnt`` and shifts by a variable count without
#: the ``cl`` register (``shlx``/``shrx``), about 8 % more Blokus simulations per second (session
#: 24); AVX2 makes the move listing's four-word vectors (``ext/lanes.h``) one register, not two.
#: Floating-point results are the same with or without (no FMA: gcc does not contract a * b + c
#: into one rounding unless -mfma is given).
CPU_OPTIONS: dict[str, str] = {"popcnt": "-mpopcnt", "bmi1": "-mbmi", "bmi2": "-mbmi2", "abm": "-mlzcnt",
                               "avx2": "-mavx2"}


def _cpu_options() -> list[str]:
    """The ``CPU_OPTIONS`` the building machine's x86-64 CPU supports (every x86-64 CPU since
    about 2008 has POPCNT, since about 2013 the rest); none with SOLVER_PORTABLE=1 or on another
    architecture, so such a build runs on any x86-64 CPU."""
    if os.environ.get("SOLVER_PORTABLE") or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        with open("/proc/cpuinfo") as fh:
            flags = next((set(line.split(":", 1)[1].split()) for line in fh if line.startswith("flags")), set())
    except OSError:
        return []
    return [option for flag, option in CPU_OPTIONS.items() if flag in flags]


compile_args = ["/O2"] if sys.platform == "win32" else ["-O3", "-fno-strict-aliasing"]
if sys.platform != "win32":
    compile_args += _cpu_options()
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
