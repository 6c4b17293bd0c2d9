"""Dtype functions of ``trellax.numpy``: ``result_type``, ``promote_types``, ``can_cast``..."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.devices import is_cpu
from trellax._src.core.typing import ArrayLike, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.numpy.util import ensure_array


def result_type(*args: Any) -> np.dtype[Any]:
    """The result dtype of an operation on ``args`` (``trellax.dtypes.result_type`` without the
    weak-flag option, as ``jax.numpy.result_type``)."""
    return dtypes.result_type(*args)


def can_cast(from_: ArrayLike | DTypeLike, to: DTypeLike, casting: str = "safe") -> bool:
    """NumPy's casting rules (not the promotion lattice), accepting trellax arrays and dtypes."""
    src = getattr(from_, "dtype", from_)
    if not isinstance(src, np.dtype):
        src = dtypes._to_np_dtype(src)
    return bool(np.can_cast(src, dtypes._to_np_dtype(to), casting=casting))  # type: ignore[arg-type]


def astype(x: Any, dtype: Any, /, *, copy: bool = False, device: Any = None) -> Any:
    """``x.astype(dtype)`` as a function (the Array API's ``astype``); the result is strong."""

    if not is_cpu(device):
        raise ValueError(f"trellax arrays live on the 'cpu' device only; got device={device!r}")
    return ensure_array("astype", x).astype(dtype)
