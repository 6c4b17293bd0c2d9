"""``enable_x64``/``disable_x64`` (removed from ``jax.experimental`` in JAX 0.9, still imported by
older programs) and ``io_callback``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.callbacks.callbacks import IO, ORDERED_IO, pure_callback
from trellax._src.config import settings as config


def enable_x64(new_val: bool = True) -> Any:
    """A context manager (or decorator) with 64-bit types on: ``trellax.enable_x64(new_val)``."""
    return config.enable_x64(new_val)


def disable_x64() -> Any:
    """A context manager (or decorator) with 64-bit types off: ``trellax.enable_x64(False)``."""
    return config.enable_x64(False)


def io_callback(
    callback: Callable[..., Any],
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any:
    """Calls ``callback(*args, **kwargs)`` for its effect and result, also inside ``jit`` (each
    time the program runs); under ``vmap`` once per element. Calls run in program order (trellax
    computes sequentially); with ``ordered=True`` ``vmap`` refuses the callback, as JAX's does.
    Not differentiable, as in JAX."""
    return pure_callback(
        callback,
        result_shape_dtypes,
        *args,
        sharding=sharding,
        vmap_method=ORDERED_IO if ordered else IO,
        **kwargs,
    )
