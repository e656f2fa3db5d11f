# permuzzle.cube: the Rubik's cube (a submodule of the compiled permuzzle._native).
from collections.abc import Callable
from typing import Any

def solve(
    facelets: str | None = None,
    *,
    progress: Callable[[dict[str, Any]], object] | None = None,
    **params: Any,
) -> dict[str, Any]: ...
