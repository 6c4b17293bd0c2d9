"""trellax.numpy from a user's point of view: ArrayLike in, Array out."""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import assert_type

import trellax.numpy as tnp
from trellax import Array
from trellax.typing import ArrayLike, DTypeLike

x = tnp.asarray([1, 2])
assert_type(x, Array)
assert_type(tnp.asarray(1.5), Array)
assert_type(tnp.asarray(np.arange(3)), Array)
assert_type(tnp.asarray([1, 2], dtype="int8"), Array)
assert_type(tnp.array([[1, 2], [3, 4]], dtype=tnp.float32), Array)

# ufuncs: hand-written ones and the ones built by factories look the same
assert_type(tnp.add(x, 1), Array)
assert_type(tnp.multiply(2.5, x), Array)
assert_type(tnp.subtract(x, np.int8(3)), Array)
assert_type(tnp.maximum(x, np.ones(2)), Array)
assert_type(tnp.equal(x, x), Array)
assert_type(tnp.arctan2(x, 1.0), Array)
assert_type(tnp.sqrt(x), Array)
assert_type(tnp.exp(2.0), Array)
assert_type(tnp.floor(x), Array)
assert_type(tnp.bitwise_not(x), Array)
assert_type(tnp.logical_and(x, True), Array)
assert_type(tnp.power(x, 2), Array)
assert_type(tnp.round(x, 2), Array)
assert_type(tnp.divmod(x, 2), tuple[Array, Array])
assert_type(tnp.frexp(x), tuple[Array, Array])
assert_type(tnp.subtract.__name__, str)

# creation
assert_type(tnp.zeros(3), Array)
assert_type(tnp.zeros((2, 3), dtype=tnp.float32), Array)
assert_type(tnp.ones([2, 3], "int8"), Array)
assert_type(tnp.empty(np.int64(2)), Array)
assert_type(tnp.full((2,), 2.0), Array)
assert_type(tnp.full_like(x, 7, dtype=np.uint8), Array)
assert_type(tnp.zeros_like(x), Array)
assert_type(tnp.arange(5, dtype="int8"), Array)
assert_type(tnp.arange(0.0, 1.0, 0.25), Array)
assert_type(tnp.linspace(0, 1, 5), Array)
assert_type(tnp.linspace(0, 1, 5, retstep=True), tuple[Array, Array])
assert_type(tnp.eye(3, dtype=np.float16), Array)
assert_type(tnp.diag(x), Array)
assert_type(tnp.meshgrid(x, x), list[Array])
assert_type(tnp.copy(x), Array)

# selection and products
assert_type(tnp.where(x > 1, x, 0), Array)
assert_type(tnp.where(x > 1), tuple[Array, ...])
assert_type(tnp.clip(x, 0, 1), Array)
assert_type(tnp.isclose(x, 1.0), Array)
assert_type(tnp.allclose(x, x), Array)
assert_type(tnp.nan_to_num(x, nan=0.0), Array)
assert_type(tnp.matmul(x, x), Array)
assert_type(tnp.dot(x, x, preferred_element_type="float32"), Array)
assert_type(tnp.outer(x, x), Array)

# scalar types are dtypes (with .dtype) and constructors of strong 0-d arrays
assert_type(tnp.float32(1), Array)
assert_type(tnp.int8(x), Array)
assert_type(tnp.float32.dtype, np.dtype[Any])
assert_type(tnp.result_type(x, 1.0), np.dtype[Any])
assert_type(tnp.promote_types("int8", tnp.uint8), np.dtype[Any])
assert_type(tnp.can_cast(x, "float32"), bool)
assert_type(isinstance(np.float32(1), tnp.float32), bool)


# functions annotated the way the typing roadmap recommends
def double(v: ArrayLike) -> Array:
    return tnp.multiply(v, 2)


def cast(v: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    return tnp.asarray(v, dtype=dtype)


assert_type(double(x), Array)
assert_type(double(3), Array)
assert_type(double(True), Array)
assert_type(double(np.float32(1)), Array)
assert_type(double(np.zeros((2, 2))), Array)
assert_type(cast(x, "float16"), Array)
assert_type(cast(x, tnp.bfloat16), Array)
assert_type(cast(x, np.int8), Array)
assert_type(cast(x, np.dtype("int16")), Array)
assert_type(cast(x, float), Array)
assert_type(cast(x), Array)


def narrow(v: object) -> Array | None:
    if isinstance(v, Array):
        assert_type(v, Array)
        return v
    return None


# Each line below must be an error for both checkers: mypy runs with --warn-unused-ignores and
# pyright with reportUnnecessaryTypeIgnoreComment, so an ignore that isn't needed fails the check.
def errors(x: Array) -> None:
    tnp.add(x, "1")  # type: ignore[arg-type]
    tnp.add("1", x)  # type: ignore[arg-type]
    tnp.sqrt("2")  # type: ignore[arg-type]
    tnp.subtract(x, None)  # type: ignore[arg-type]
    tnp.add(x, [1, 2])  # type: ignore[arg-type]  # lists are not ArrayLike (a TypeError at run time)
    tnp.add(x)  # type: ignore[call-arg]
    tnp.exp(x, x)  # type: ignore[call-arg]
    tnp.zeros(3, dtype=3)  # type: ignore[arg-type]
    tnp.zeros("3")  # type: ignore[arg-type]
    tnp.ones((2, 3), dtype=[1])  # type: ignore[arg-type]
    tnp.full((2,), "a")  # type: ignore[arg-type]
    tnp.where(x, "a", x)  # type: ignore[call-overload]
    tnp.clip(x, "0")  # type: ignore[arg-type]
    double("x")  # type: ignore[arg-type]
    cast(x, 3)  # type: ignore[arg-type]
