"""``trellax.debug``: ``print``, ``callback`` and ``breakpoint`` that work inside ``jit`` and
``vmap`` (JAX's ``jax.debug``)."""

from __future__ import annotations

import sys
from typing import Any

from trellax._src.callbacks.callbacks import debug_callback


def debug_print(fmt: str, *args: Any, ordered: bool = False, **kwargs: Any) -> None:
    """Prints ``fmt.format(*args, **kwargs)`` with the arrays' values: at once eagerly, when the
    compiled program runs under ``jit``, once per batch element under ``vmap``.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.jit(lambda x: trellax.debug.print("x={x}", x=x))(tnp.arange(3))
    x=[0 1 2]
    """
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print's format must be a string, got {type(fmt).__name__}")

    def show(*a: Any, **k: Any) -> None:
        sys.stdout.write(fmt.format(*a, **k) + "\n")

    debug_callback(show, *args, ordered=ordered, **kwargs)


def debug_breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
) -> Any:
    """Enters Python's debugger (``sys.breakpointhook``) where the program reaches this call:
    at once eagerly, when the compiled program runs under ``jit``. Local traced values are not
    shown with their run-time values (JAX's debugger shows them); ``kwargs`` are passed to the
    callback as arrays to inspect."""

    def stop(**k: Any) -> None:
        sys.breakpointhook()

    debug_callback(stop, ordered=ordered, **kwargs)
    return token
