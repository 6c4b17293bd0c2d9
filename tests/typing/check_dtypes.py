"""``trellax.dtypes``: dtype results are ``np.dtype``; the weak flag comes back when asked for."""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import assert_type

import trellax
import trellax.dtypes as tdt
import trellax.numpy as tnp

x = tnp.arange(3, dtype="int8")
flag = bool(x.weak_type)

assert_type(tdt.result_type("int8", 1.0), np.dtype[Any])
assert_type(tdt.result_type(x, 1), np.dtype[Any])
assert_type(tdt.result_type(x, 1, return_weak_type_flag=False), np.dtype[Any])
assert_type(tdt.result_type(x, 1, return_weak_type_flag=True), tuple[np.dtype[Any], bool])
assert_type(
    tdt.result_type(x, return_weak_type_flag=flag), np.dtype[Any] | tuple[np.dtype[Any], bool]
)
dtype, weak = tdt.result_type(x, 1.0, return_weak_type_flag=True)
assert_type(dtype, np.dtype[Any])
assert_type(weak, bool)

assert_type(tdt.promote_types("int8", np.uint8), np.dtype[Any])
assert_type(tdt.canonicalize_dtype("float64"), np.dtype[Any])
assert_type(tdt.is_weakly_typed(x), bool)
assert_type(tdt.issubdtype(x.dtype, np.floating), bool)
assert_type(tdt.isdtype(x.dtype, "integral"), bool)
assert_type(tdt.default_float_dtype(), np.dtype[Any])

with trellax.enable_x64():
    assert_type(tdt.result_type(1.0), np.dtype[Any])


def errors() -> None:
    tdt.result_type(x, return_weak_type_flag="yes")  # type: ignore[call-overload]
    _: np.dtype[Any] = tdt.result_type(x, return_weak_type_flag=True)  # type: ignore[assignment]
