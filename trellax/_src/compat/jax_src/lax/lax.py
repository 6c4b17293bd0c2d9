"""``jax._src.lax.lax``: JAX's docs import ``lax`` from here; it is ``trellax.lax``."""

from typing import Any as _Any

import numpy as _np

from trellax import dtypes as _dtypes
from trellax.lax import *  # noqa: F403
from trellax.lax import __getattr__ as __getattr__
from trellax.lax import convert_element_type as _convert_public


def _convert_element_type(
    operand: _Any,
    new_dtype: _Any = None,
    weak_type: bool = False,
    sharding: _Any = None,
    warn_on_complex_to_real_cast: bool = True,
) -> _Any:
    """JAX's internal cast: ``new_dtype=None`` keeps the operand's (canonical) dtype, so only
    the weak flag changes."""
    if new_dtype is None:
        given = getattr(operand, "dtype", None)
        new_dtype = _dtypes.canonicalize_dtype(
            given if given is not None else _np.result_type(operand)
        )
    return _convert_public(operand, new_dtype, weak_type=weak_type)
