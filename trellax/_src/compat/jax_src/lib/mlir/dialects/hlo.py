"""``jax._src.lib.mlir.dialects.hlo``: the StableHLO operations a lowering rule is written with.

trellax compiles to NumPy and never calls a lowering written in MLIR (see
``trellax.interpreters.mlir``), so a program that defines one imports this module and runs; an
operation used anyway raises ``NotImplementedError`` naming it.
"""

from __future__ import annotations

from typing import Any, NoReturn


class _Operation:
    """A StableHLO operation trellax cannot build."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<stand-in for hlo.{self.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        del args, kwargs
        raise NotImplementedError(
            f"trellax has no counterpart of jax._src.lib.mlir.dialects.hlo.{self.name}: it "
            "compiles to NumPy, not MLIR (a primitive runs its impl or mlir.lower_fun function)"
        )


def __getattr__(name: str) -> _Operation:
    if name.startswith("__"):
        raise AttributeError(name)
    return _Operation(name)
