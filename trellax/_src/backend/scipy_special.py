"""``scipy.special`` as an optional fast path of trellax's own special-function kernels.

trellax computes its special functions itself (``special*.py``, the ``lgamma``/``digamma``/...
of ``numpy.py``): in float64 by series and continued fractions over whole arrays, rounded once
to the operand dtype. SciPy's compiled ufuncs compute the same functions in float64 several to
a hundred times faster. Where SciPy's float64 value, rounded once to a dtype, gives the same bits
as trellax's own kernel on the survey sample (``tools/scipy_special_survey.py``: NaN, ±inf, ±0,
subnormals, poles, huge and tiny magnitudes, 20,000 values per operand) that dtype uses SciPy;
every other dtype (float16, bfloat16, and each dtype where the bits differ) keeps the own code.
``tests/test_special_scipy.py`` checks the agreement, bit for bit, on the same kind of sample.

The operands where JAX's values are a matter of convention rather than of the function (NaN and
``±inf`` operands, and each entry's ``own_where`` domain edges: poles, the boundaries of the
domain, quirks of JAX's that trellax copies) are always computed by the own kernel, so the edge
values do not depend on SciPy's conventions.

SciPy is optional (``pip install 'trellax[special]'``), imported on first use; set
``TRELLAX_SCIPY=0`` to use the own code even where SciPy is installed.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Kernel = Callable[..., Any]
#: ``(scipy.special, float64 operands) -> float64 values``
Via = Callable[..., Any]
#: ``(float64 operands) -> bool mask`` of the operands the own kernel computes anyway
Where = Callable[..., Any]

_UNSET = object()
_module: Any = _UNSET


def scipy_special_module() -> types.ModuleType | None:
    """``scipy.special``, or None if SciPy is not installed or ``TRELLAX_SCIPY=0``."""
    global _module
    if _module is _UNSET:
        if os.environ.get("TRELLAX_SCIPY", "").strip() in ("0", "false", "False", "no", "off"):
            _module = None
        else:
            try:
                # Imported here, not at the top: SciPy is an optional dependency, and importing
                # scipy.special costs ~0.1 s that programs without special functions don't pay.
                import scipy.special as special_module  # type: ignore[import-untyped]
            except ImportError:
                special_module = None
            _module = special_module
    out: types.ModuleType | None = _module
    return out


def reset_scipy_special_module(module: types.ModuleType | object | None = _UNSET) -> None:
    """Forget the looked-up module (tests: pass None to simulate SciPy's absence)."""
    global _module
    _module = module


@dataclass(frozen=True)
class Accelerated:
    """An elementwise kernel with SciPy as its fast path for the dtypes in ``fast_dtypes``."""

    name: str
    own: Kernel
    via: Via
    nargs: int
    fast_dtypes: tuple[Any, ...]
    own_where: Where | None = None
    #: Smaller calls run the own code: its cost per call is below the fast path's (~15 µs).
    min_size: int = 0

    def __call__(self, *args: np.ndarray) -> Any:
        dtype = np.result_type(*args)
        if dtype in self.fast_dtypes and max(np.size(v) for v in args) >= self.min_size:
            module = scipy_special_module()
            if module is not None:
                return self.fast(module, *args)
        return self.own(*args)

    def fast(self, module: types.ModuleType, *args: np.ndarray) -> Any:
        """SciPy's values (float64, rounded once), the edge operands by the own kernel."""
        dtype = np.result_type(*args)
        wide: list[np.ndarray] = [np.asarray(v, np.float64) for v in args]
        if len(wide) > 1:
            wide = list(np.broadcast_arrays(*wide))
        with np.errstate(all="ignore"):
            result: np.ndarray = np.asarray(self.via(module, *wide), np.float64).astype(dtype)
            edge = ~np.isfinite(wide[0])
            for v in wide[1:]:
                edge |= ~np.isfinite(v)
            if self.own_where is not None:
                edge |= self.own_where(*wide)
        if edge.any():
            picked = [np.asarray(v, dtype)[edge] for v in wide]
            result[edge] = self.own(*picked)
        return result


TABLE: dict[str, Accelerated] = {}


def accelerated(
    name: str,
    own: Kernel,
    via: Via,
    *,
    nargs: int = 1,
    fast_dtypes: tuple[Any, ...] = (),
    own_where: Where | None = None,
    min_size: int = 0,
) -> Accelerated:
    """Registers (in :data:`TABLE`) and returns the kernel ``name`` with SciPy's fast path."""
    dtypes = tuple(np.dtype(d) for d in fast_dtypes)
    kernel = Accelerated(name, own, via, nargs, dtypes, own_where, min_size)
    TABLE[name] = kernel
    return kernel


def fast_value(name: str, *args: np.ndarray) -> Any:
    """SciPy's value of ``TABLE[name]`` whatever the dtype (the survey and the tests)."""
    module = scipy_special_module()
    if module is None:
        raise RuntimeError("scipy.special is not available (not installed or TRELLAX_SCIPY=0)")
    return TABLE[name].fast(module, *args)
