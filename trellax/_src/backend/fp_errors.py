"""NumPy's floating-point error state, silenced locally while trellax computes.

NumPy reports floating-point events (``1/0``, ``log(-1)``, overflow, a NaN cast to an integer)
as ``RuntimeWarning``s, or raises under ``np.errstate(all="raise")``. JAX reports none of them,
so trellax evaluates its impl rules with NumPy's errors ignored. It does so the way
``np.errstate`` does, by setting NumPy's error-state context variable for the duration of the
call and resetting it after, so neither ``warnings.filters`` nor the caller's ``np.geterr()``
ever changes (and other threads and asyncio tasks are unaffected). Setting the variable
directly costs ~0.1 us; building an ``np.errstate`` costs ~0.7 us, so that public spelling is
only the fallback for NumPy versions without the variable.
"""

from __future__ import annotations

import contextvars
import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

try:  # NumPy >= 2.0 keeps the error state in a context variable.
    _STATE: Any = importlib.import_module("numpy._core._multiarray_umath")._extobj_contextvar
    _IGNORE_ALL: Any = importlib.import_module("numpy._core._ufunc_config")._make_extobj(
        all="ignore"
    )

    #: For hot paths that inline :func:`enter`/:func:`leave`: ``STATE.set(IGNORE_ALL)`` returns
    #: the token that ``STATE.reset`` takes.
    STATE: Any = _STATE
    IGNORE_ALL: Any = _IGNORE_ALL

    def enter() -> Any:
        """Silences NumPy's floating-point errors; returns the token for :func:`leave`."""
        return _STATE.set(_IGNORE_ALL)

    def leave(token: Any) -> None:
        """Restores the error state that :func:`enter` replaced."""
        _STATE.reset(token)

    _QUIET = contextvars.Context()
    _QUIET.run(_STATE.set, _IGNORE_ALL)

    #: ``RUN_QUIET(ufunc, *operands)`` calls a NumPy ufunc inside a context whose error state
    #: ignores everything: entering a prepared context costs ~40 ns where setting and resetting
    #: the variable costs ~200 ns (a third of a small eager operation). Only for NumPy's own
    #: ufuncs on ndarrays, which run no Python code: Python code run inside would see this
    #: context's variables (trellax's trace and configuration among them), not the caller's. A
    #: context is entered by one thread at a time and never re-entered; then ``run`` raises
    #: ``RuntimeError`` before calling, and the caller computes with :func:`call_quiet` instead.
    RUN_QUIET: Callable[..., Any] = _QUIET.run

except (ImportError, AttributeError):  # pragma: no cover - older NumPy

    def enter() -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def leave(token: Any) -> None:
        token.__exit__(None, None, None)

    class _ErrstateVar:
        """``STATE`` for NumPy without the context variable: ``set`` enters an errstate."""

        def set(self, value: Any) -> Any:
            return enter()

        def reset(self, token: Any) -> None:
            leave(token)

    STATE = _ErrstateVar()
    IGNORE_ALL = None

    def RUN_QUIET(fn: Callable[..., Any], *args: Any) -> Any:
        return call_quiet(fn, *args)


def call_quiet(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` with NumPy's floating-point errors ignored (the fallback of
    :data:`RUN_QUIET`, for a context another thread is in)."""
    token = enter()
    try:
        return fn(*args)
    finally:
        leave(token)


@contextmanager
def quiet() -> Iterator[None]:
    """``with quiet():`` computes with NumPy's floating-point errors ignored."""
    token = enter()
    try:
        yield
    finally:
        leave(token)


def quietly(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` wrapped to run with NumPy's floating-point errors ignored."""

    def run(*args: Any, **kwargs: Any) -> T:
        token = enter()
        try:
            return fn(*args, **kwargs)
        finally:
            leave(token)

    run.__doc__ = fn.__doc__
    run.__wrapped__ = fn  # type: ignore[attr-defined]
    return run
