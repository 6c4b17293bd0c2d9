"""Functions of a closed jaxpr that are pytrees (the functions ``linearize``, ``vjp`` and
``linear_transpose`` return).

As in JAX (whose ``Partial`` serves the same purpose), such a function's leaves are the values
its jaxpr closes over (the residuals), and everything else is static: so it can be returned from
a ``jit``-compiled function (the residuals become outputs) and passed to one (they become
traced arguments), and calling it then runs inside that trace.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.tree.registry import register_pytree_node


class ClosedFunction:
    """``call(closed, *args)`` with ``closed`` a ``ClosedJaxpr`` whose constants are the leaves.

    ``call`` must read the jaxpr's values only through its ``closed`` argument.
    """

    __slots__ = ("__name__", "_call", "_closed")

    def __init__(self, call: Callable[..., Any], closed: ClosedJaxpr, name: str) -> None:
        self._call = call
        self._closed = closed
        self.__name__ = name

    def __call__(self, *args: Any) -> Any:
        return self._call(self._closed, *args)

    def __repr__(self) -> str:
        return f"<function {self.__name__} (linear, {len(self._closed.consts)} residuals)>"

    @property
    def func(self) -> functools.partial[Any]:
        """The function with its jaxpr as first argument (``f.func.args[0]``, the jaxpr over
        the residuals and the inputs, as JAX's ``linearize`` exposes it); ``f.func(*args)`` is
        ``f(*args)``."""
        return functools.partial(_with_jaxpr, self._closed.jaxpr, self)


def _with_jaxpr(jaxpr: Jaxpr, f: ClosedFunction, *args: Any) -> Any:
    return f(*args)


def _flatten(f: ClosedFunction) -> tuple[list[Any], tuple[Any, ...]]:
    return list(f._closed.consts), (f._call, f._closed.jaxpr, f.__name__)


def _unflatten(aux: tuple[Any, ...], children: Any) -> ClosedFunction:
    call, jaxpr, name = aux
    return ClosedFunction(call, ClosedJaxpr(jaxpr, list(children)), name)


register_pytree_node(ClosedFunction, _flatten, _unflatten)
