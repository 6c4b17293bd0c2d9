"""``trellax.Array``: attributes, operators, indexing, ``.at`` and methods have precise types."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from typing_extensions import assert_type

import trellax
import trellax.numpy as tnp
from trellax import Array

x = tnp.ones((2, 3), "int32")

# attributes
assert_type(x.dtype, np.dtype[Any])
assert_type(x.shape, tuple[int, ...])
assert_type(x.weak_type, bool)
assert_type(x.ndim, int)
assert_type(x.size, int)
assert_type(x.T, Array)
assert_type(x.mT, Array)
assert_type(x.real, Array)
assert_type(x.imag, Array)

# operators, both ways round, with Python scalars, NumPy values and arrays
assert_type(x + 1, Array)
assert_type(1 + x, Array)
assert_type(x * 2.5, Array)
assert_type(x / x, Array)
assert_type(x // 2, Array)
assert_type(x % 2, Array)
assert_type(x**2, Array)
assert_type(2**x, Array)
assert_type(x @ x.T, Array)
assert_type(x - np.ones(3), Array)
assert_type(x & 1, Array)
assert_type(x << 1, Array)
assert_type(-x, Array)
assert_type(~x, Array)
assert_type(abs(x), Array)
assert_type(x == 1, Array)
assert_type(x != x, Array)
assert_type(x < 2, Array)
assert_type(x >= x, Array)
assert_type(divmod(x, 2), tuple[Array, Array])

# indexing and functional updates
assert_type(x[0], Array)
assert_type(x[0, 1], Array)
assert_type(x[1:], Array)
assert_type(x[None, ..., 0], Array)
assert_type(x[tnp.asarray([0, 1])], Array)
assert_type(x.at[0].set(1), Array)
assert_type(x.at[0, 1].add(1), Array)
assert_type(x.at[:, 0].multiply(x[:, 1]), Array)
assert_type(x.at[1:].get(), Array)
assert_type(x.at[0].max(np.int32(5)), Array)

# methods
assert_type(x.astype("float16"), Array)
assert_type(x.astype(tnp.float32), Array)
assert_type(x.astype(np.int8), Array)
assert_type(x.astype(float), Array)
assert_type(x.view("uint32"), Array)
assert_type(x.copy(), Array)
assert_type(x.conj(), Array)

# Python protocols
assert_type(len(x), int)
assert_type(iter(x), Iterator[Array])
assert_type(list(x), list[Array])
assert_type(int(x[0, 0]), int)
assert_type(float(x[0, 0]), float)
assert_type(complex(x[0, 0]), complex)
assert_type(bool(x[0, 0]), bool)
assert_type(range(10)[x[0, 0]], int)
assert_type(tnp.ndarray, type[Array])


def errors(x: Array) -> None:
    x + "a"  # type: ignore[operator]
    x + [1, 2]  # type: ignore[operator]  # noqa: RUF005  (x * [1, 2] passes: list repetition)
    x.astype(3)  # type: ignore[arg-type]
    x.at[0].set("a")  # type: ignore[arg-type]
    x.at[0].sett(1)  # type: ignore[attr-defined]
    x.shape = (3,)  # type: ignore[misc]
    _ = x.no_such_attribute  # type: ignore[attr-defined]
    trellax.Array()  # type: ignore[abstract]
