"""permuzzle: permutation puzzles and permutation groups, solved exactly (C++ engine).

Points are 0-based in Python (like SymPy), 1-based in GAP text such as "(1,2,3)"; p * q applies
p first. call(family, verb, **params) runs any CLI command and returns its --json result;
main(args) runs the command line itself (``python -m permuzzle ...``).
"""

import os as _os
import sys as _sys
from pathlib import Path as _Path

# An installed package carries the committed data files (Korf's instances, puzzle definitions)
# in permuzzle/data, so that it keeps working without the source tree; a build tree's module
# (PYTHONPATH=build/release/python) uses the source tree's data/ compiled into the engine.
_DATA = _Path(__file__).resolve().with_name("data")
if _DATA.is_dir():
    _os.environ.setdefault("PERMUZZLE_DATA", str(_DATA))

from permuzzle._native import (  # noqa: E402  (the data directory must be known first)
    LimitExceeded,
    Permutation,
    PermutationGroup,
    Puzzle,
    __version__,
    call,
    commands,
    cube,
    loopover,
    main,
    sliding,
    tables_dir,
)

__all__ = [
    "LimitExceeded",
    "Permutation",
    "PermutationGroup",
    "Puzzle",
    "call",
    "commands",
    "cube",
    "loopover",
    "main",
    "sliding",
    "tables_dir",
]

# The compiled names carry their public place (permuzzle.Permutation, permuzzle.sliding.Board),
# and the helper submodules import like modules: `from permuzzle.sliding import Board`.
for _name in ("LimitExceeded", "Permutation", "PermutationGroup", "Puzzle"):
    globals()[_name].__module__ = __name__
for _module in (cube, loopover, sliding):
    _public_name = __name__ + "." + _module.__name__.rpartition(".")[2]
    _module.__name__ = _public_name
    _sys.modules[_public_name] = _module
sliding.Board.__module__ = sliding.__name__
del _name, _module, _public_name
_PybindType = type(Permutation)  # named in the stubs as the compiled classes' metaclass
