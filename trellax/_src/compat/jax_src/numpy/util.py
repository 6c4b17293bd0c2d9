"""``jax._src.numpy.util``: the dtype-promotion helpers JAX's test files call, on trellax's
promotion (the arguments converted to their join; shapes are left alone)."""

from __future__ import annotations

from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.numpy.util import (
    promote_args_complex,
    promote_args_inexact_keep_shapes,
    promote_args_keep_shapes,
)


def promote_dtypes(*args: Any) -> list[Array]:
    """The arguments converted to their promoted dtype."""
    return promote_args_keep_shapes("promote_dtypes", *args)


def promote_dtypes_inexact(*args: Any) -> list[Array]:
    """The arguments converted to their promoted dtype, made inexact."""
    return promote_args_inexact_keep_shapes("promote_dtypes_inexact", *args)


def promote_dtypes_complex(*args: Any) -> list[Array]:
    """The arguments converted to their promoted dtype, made complex."""
    return promote_args_complex("promote_dtypes_complex", *args)
