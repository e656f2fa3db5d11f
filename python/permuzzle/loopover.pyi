# permuzzle.loopover: Loopover puzzles (a submodule of the compiled permuzzle._native).
from collections.abc import Callable
from typing import Any

def solve(
    position: str, *, progress: Callable[[dict[str, Any]], object] | None = None, **params: Any
) -> dict[str, Any]: ...
