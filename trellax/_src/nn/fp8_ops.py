"""Flax's fp8 layers (``Fp8DotGeneralOp``, ``Fp8DirectDotGeneralOp``, ``NANOOFp8DotGeneralOp``,
``Fp8DotGeneral``, ``Fp8Einsum``) are not provided: they scale operands into float8 with an
amax history kept in the ``_overwrite_with_gradient`` collection and rely on XLA's fused fp8
matrix products; trellax computes with NumPy, where float8 products are emulated element by
element and no faster than float32. The names exist so that code naming them fails with a clear
``NotImplementedError`` when it builds one."""

from __future__ import annotations

from typing import Any

from trellax._src.nn.module import Module

_MESSAGE = (
    "{name}: trellax does not implement Flax's fp8 quantized matrix products (float8 scaling "
    "with amax histories needs XLA's fp8 kernels; NumPy would emulate them at float32 cost). "
    "Use the default dot_general."
)


class _Fp8Refused(Module):
    def __post_init__(self) -> None:
        raise NotImplementedError(_MESSAGE.format(name=type(self).__name__))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(_MESSAGE.format(name=type(self).__name__))


class Fp8DotGeneralOp(_Fp8Refused):
    """Not provided (see the module docstring): raises ``NotImplementedError``."""


class Fp8DirectDotGeneralOp(_Fp8Refused):
    """Not provided (see the module docstring): raises ``NotImplementedError``."""


class NANOOFp8DotGeneralOp(_Fp8Refused):
    """Not provided (see the module docstring): raises ``NotImplementedError``."""


class Fp8DotGeneral(_Fp8Refused):
    """Not provided (see the module docstring): raises ``NotImplementedError``."""


class Fp8Einsum(_Fp8Refused):
    """Not provided (see the module docstring): raises ``NotImplementedError``."""
