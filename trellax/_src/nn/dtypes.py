"""The default-dtype rule of Flax's FLIP #1777: a layer computes in the promoted dtype of its
inputs and its parameters *as stored*, with a float32 floor for all-integer/bool arguments.

>>> import trellax.numpy as tnp
>>> from trellax.nn import dtypes
>>> dtypes.canonicalize_dtype(tnp.ones(2, "int8"))
dtype('float32')
>>> dtypes.canonicalize_dtype(tnp.ones(2, "int32"), tnp.ones(2, "bfloat16"))
dtype(bfloat16)
"""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes

Dtype = Any


def _inexact(d: Any) -> bool:
    return bool(dtypes.issubdtype(d, np.inexact))


def canonicalize_dtype(*args: Any, dtype: Dtype | None = None, inexact: bool = True) -> Any:
    """The computation dtype of ``args`` (Nones are skipped) or the explicit ``dtype``.

    Inferred: ``result_type`` of the args (weak Python scalars respected); with ``inexact`` a
    bool/integer result becomes ``promote_types(float32, d)``, i.e. float32. An explicit dtype
    is used as given (downcasts included) but must be inexact when ``inexact`` is set.
    """
    if dtype is None:
        arrs = [jnp.asarray(a) for a in args if a is not None]
        d = dtypes.result_type(*arrs)
        if inexact and not _inexact(d):
            d = dtypes.promote_types(np.float32, d)
        return d
    d = jnp.dtype(dtype)
    if inexact and not _inexact(d):
        raise ValueError(f"Dtype must be inexact: {d}")
    return d


def promote_dtype(*args: Any, dtype: Dtype | None = None, inexact: bool = True) -> list[Any]:
    """``args`` cast to :func:`canonicalize_dtype` (a list; None stays None)."""
    d = canonicalize_dtype(*args, dtype=dtype, inexact=inexact)
    return [None if a is None else jnp.asarray(a, d) for a in args]
