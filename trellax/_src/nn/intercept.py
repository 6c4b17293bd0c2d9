"""Method interceptors (``nn.intercept_methods``) and the interceptor behind
``capture_intermediates``: every call of a module method can be routed through functions
``interceptor(next_fun, args, kwargs, context)``."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trellax._src.nn.module import Module

_LOCAL = threading.local()


@dataclasses.dataclass(frozen=True)
class InterceptorContext:
    """What an interceptor sees: the module, the method's name and the bound method."""

    module: Module
    method_name: str
    orig_method: Callable[..., Any]


def _interceptors() -> list[Callable[..., Any]]:
    s: list[Callable[..., Any]] | None = getattr(_LOCAL, "interceptors", None)
    if s is None:
        s = _LOCAL.interceptors = []
    return s


def _run_interceptors(
    fn: Callable[..., Any], module: Module, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    fun: Callable[..., Any] = functools.partial(fn, module)
    context = InterceptorContext(module, getattr(fn, "__name__", "__call__"), fun)

    def wrap(interceptor: Callable[..., Any], inner: Callable[..., Any]) -> Callable[..., Any]:
        return lambda *a, **k: interceptor(inner, a, k, context)

    for interceptor in reversed(_interceptors()):  # the first registered runs outermost
        fun = wrap(interceptor, fun)
    return fun(*args, **kwargs)


@contextlib.contextmanager
def intercept_methods(interceptor: Callable[..., Any]) -> Iterator[None]:
    """Inside the ``with`` block, every call of a module method goes through
    ``interceptor(next_fun, args, kwargs, context)`` (the last one registered runs first)."""
    stack = _interceptors()
    stack.append(interceptor)
    try:
        yield
    finally:
        stack.pop()


def _capturer(capture: Any) -> Callable[..., Any]:
    """The interceptor of ``capture_intermediates``: sows the return value of every method
    call that ``capture(module, method_name)`` selects (``True``: ``__call__``)."""
    select = (lambda m, name: name == "__call__") if capture is True else capture

    def interceptor(f: Callable[..., Any], args: Any, kwargs: Any, context: Any) -> Any:
        y = f(*args, **kwargs)
        module = context.module
        if module.scope is not None and select(module, context.method_name):
            module.sow("intermediates", context.method_name, y)
        return y

    return interceptor
