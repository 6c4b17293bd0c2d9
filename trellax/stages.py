"""``trellax.stages``: the ahead-of-time stages of ``jit`` under JAX's names (``jax.stages``):
``Wrapped`` (what ``jit`` returns), ``Traced`` (``jit(f).trace(...)``), ``Lowered``
(``.lower(...)``), ``Compiled`` (``.compile()``), ``ArgInfo`` and ``CompilerOptions``."""

from __future__ import annotations

import dataclasses
from typing import Any, Protocol, runtime_checkable

from trellax._src.api.jit_options import Traced as Traced
from trellax._src.api.stages import Compiled as Compiled
from trellax._src.api.stages import Lowered as Lowered

#: compiler options ``Lowered.compile(compiler_options=...)`` takes in JAX (accepted, unused here)
CompilerOptions = dict[str, str | bool]


@runtime_checkable
class Wrapped(Protocol):
    """A function that can be called, traced, lowered and compiled (what ``jit`` returns)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

    def trace(self, *args: Any, **kwargs: Any) -> Traced: ...

    def lower(self, *args: Any, **kwargs: Any) -> Lowered: ...


@dataclasses.dataclass(frozen=True)
class ArgInfo:
    """An argument's abstract value and whether it is donated."""

    _aval: Any
    donated: bool

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._aval.shape)

    @property
    def dtype(self) -> Any:
        return self._aval.dtype


__all__ = ["ArgInfo", "Compiled", "CompilerOptions", "Lowered", "Traced", "Wrapped"]
