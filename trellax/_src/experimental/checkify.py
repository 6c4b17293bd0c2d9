"""``checkify``: value checks that survive ``jit``, as functional error values (user checks).

``check(pred, msg, *args, **kwargs)`` raises ``JaxRuntimeError`` at once on a concrete false
predicate; inside ``checkify(f)`` it is recorded instead, and the checked function returns
``(Error, out)``. ``checkify`` traces ``f`` with ``jit`` (as JAX's transformation traces it), so
checks inside nested ``jit``/``vmap``/loops-free code are all seen. Messages are formatted with
``str.format`` on the arguments' values and end in `` (`check` failed)``, as in JAX; under ``vmap``
``Error.get()`` reports each failing element as ``at mapped index i: ...``.

Only user checks are performed: the automatic categories (``nan_checks``, ``div_checks``,
``index_checks``) are accepted and do nothing (docs/compat.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

import numpy as np

from trellax import numpy as tnp
from trellax._src.api.api import jit
from trellax._src.core.core import Tracer
from trellax._src.core.jax_errors import JaxRuntimeError
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import tree_flatten, tree_leaves, tree_unflatten

__all__ = [
    "Error",
    "ErrorCategory",
    "FailedCheckError",
    "JaxRuntimeError",
    "all_checks",
    "automatic_checks",
    "check",
    "check_error",
    "checkify",
    "debug_check",
    "div_checks",
    "float_checks",
    "index_checks",
    "init_error",
    "nan_checks",
    "user_checks",
]

_SUFFIX: Final = " (`check` failed)"


class ErrorCategory:
    """The base class of checkify's error kinds (members of the ``*_checks`` sets)."""


class FailedCheckError(ErrorCategory):
    """A user ``check`` whose predicate was false."""


class NaNError(ErrorCategory):
    """A NaN produced by an operation (automatic check; not performed by trellax)."""


class DivisionByZeroError(ErrorCategory):
    """An integer division by zero (automatic check; not performed by trellax)."""


class OOBError(ErrorCategory):
    """An out-of-bounds index (automatic check; not performed by trellax)."""


user_checks: Final[frozenset[type[ErrorCategory]]] = frozenset({FailedCheckError})
nan_checks: Final[frozenset[type[ErrorCategory]]] = frozenset({NaNError})
div_checks: Final[frozenset[type[ErrorCategory]]] = frozenset({DivisionByZeroError})
index_checks: Final[frozenset[type[ErrorCategory]]] = frozenset({OOBError})
float_checks: Final = nan_checks | div_checks
automatic_checks: Final = float_checks | index_checks
all_checks: Final = automatic_checks | user_checks


class _Message:
    """One check's message template and the tree of its formatting arguments."""

    __slots__ = ("count", "template", "tree")

    def __init__(self, template: str, tree: Any, count: int) -> None:
        self.template = template
        self.tree = tree
        self.count = count

    def _key(self) -> tuple[Any, ...]:
        return (self.template, self.tree, self.count)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Message) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def format(self, leaves: Sequence[Any]) -> str:
        args, kwargs = tree_unflatten(self.tree, list(leaves))
        return self.template.format(*args, **kwargs) + _SUFFIX


class Error:
    """The outcome of a checkified function: which check failed first, with its arguments.

    A pytree (so it can leave ``jit`` and ``vmap``): a boolean ``failed``, the int32 index of
    the first failing check, and the formatting arguments of every check.
    """

    def __init__(
        self, failed: Any, code: Any, payload: Sequence[Any], messages: tuple[_Message, ...]
    ) -> None:
        self._failed = failed
        self._code = code
        self._payload = tuple(payload)
        self._messages = messages

    def _messages_at(self, index: tuple[int, ...]) -> str | None:
        if not bool(np.asarray(self._failed)[index]):
            return None
        code = int(np.asarray(self._code)[index])
        start = sum(m.count for m in self._messages[:code])
        message = self._messages[code]
        leaves = [np.asarray(p)[index] for p in self._payload[start : start + message.count]]
        return message.format(leaves)

    def get(self) -> str | None:
        """The failure message (None when every check passed)."""
        failed = np.asarray(self._failed)
        if failed.ndim == 0:
            return self._messages_at(())
        lines = []
        for index in np.ndindex(failed.shape):
            text = self._messages_at(index)
            if text is not None:
                where = index[0] if len(index) == 1 else index
                lines.append(f"at mapped index {where}: {text}")
        return "\n".join(lines) if lines else None

    def get_exception(self) -> JaxRuntimeError | None:
        """The error to raise for this failure (None when every check passed)."""
        text = self.get()
        return None if text is None else JaxRuntimeError(text)

    def throw(self) -> None:
        """Raises ``JaxRuntimeError`` with the failure message, if a check failed."""
        exc = self.get_exception()
        if exc is not None:
            raise exc

    def __repr__(self) -> str:
        return f"Error({self.get()})"

    __str__ = __repr__


def _flatten_error(e: Error) -> tuple[list[Any], tuple[_Message, ...]]:
    return [e._failed, e._code, *e._payload], e._messages


def _unflatten_error(messages: tuple[_Message, ...], children: Any) -> Error:
    children = list(children)
    return Error(children[0], children[1], children[2:], messages)


register_pytree_node(Error, _flatten_error, _unflatten_error)

init_error: Final = Error(np.bool_(False), np.int32(0), (), ())


class _Accumulator:
    """The checks recorded while a checkified function is traced."""

    def __init__(self) -> None:
        self.preds: list[Any] = []
        self.payload: list[Any] = []
        self.messages: list[_Message] = []

    def add(self, pred: Any, message: _Message, leaves: Sequence[Any]) -> None:
        self.preds.append(pred)
        self.messages.append(message)
        self.payload.extend(leaves)

    def error(self) -> Error:
        if not self.preds:
            return Error(tnp.asarray(False), tnp.asarray(0, dtype="int32"), (), ())
        failures = tnp.stack([tnp.logical_not(p) for p in self.preds])
        return Error(
            tnp.any(failures),
            tnp.argmax(failures).astype("int32"),
            list(self.payload),
            tuple(self.messages),
        )


_LOCAL = threading.local()


def _stack() -> list[_Accumulator]:
    stack: list[_Accumulator] | None = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


@contextmanager
def _collecting() -> Iterator[_Accumulator]:
    acc = _Accumulator()
    _stack().append(acc)
    try:
        yield acc
    finally:
        _stack().pop()


_NOT_FUNCTIONALIZED: Final = (
    "Cannot abstractly evaluate a checkify.check which was not functionalized. This probably "
    "means you tried to stage (jit/scan/pmap/...) a `check` without functionalizing it through "
    "`checkify.checkify`."
)


def _format_leaves(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], Any]:
    leaves, tree = tree_flatten((args, kwargs))
    for leaf in leaves:
        if not isinstance(leaf, (tnp.ndarray, np.ndarray, np.generic)):
            raise TypeError(
                "Formatting arguments to checkify.check need to be PyTrees of arrays, but got "
                f"{leaf!r} of type {type(leaf)}."
            )
    return [tnp.asarray(leaf) for leaf in leaves], tree


def _scalar_pred(pred: Any) -> Any:
    p = tnp.asarray(pred)
    if p.shape != () or p.dtype != np.dtype(bool):
        raise TypeError(f"check takes a scalar boolean pred as argument, got {p.dtype}{p.shape}")
    return p


def check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """Checks that the scalar boolean ``pred`` holds; ``msg.format(*fmt_args, **fmt_kwargs)``
    describes a failure. Eagerly a false ``pred`` raises ``JaxRuntimeError``; under
    ``checkify`` it is recorded in the returned ``Error``; under ``jit`` alone it is an error."""
    p = _scalar_pred(pred)
    leaves, tree = _format_leaves(fmt_args, fmt_kwargs)
    message = _Message(msg, tree, len(leaves))
    stack = _stack()
    if stack:
        stack[-1].add(p, message, leaves)
        return
    if isinstance(p, Tracer) or any(isinstance(leaf, Tracer) for leaf in leaves):
        raise ValueError(_NOT_FUNCTIONALIZED)
    if not bool(p):
        raise JaxRuntimeError(message.format([np.asarray(leaf) for leaf in leaves]))


def debug_check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """``check`` inside ``checkify``; does nothing elsewhere."""
    if _stack():
        check(pred, msg, *fmt_args, **fmt_kwargs)


def check_error(error: Error) -> None:
    """Raises ``error``'s failure (eagerly), or adds it to the enclosing ``checkify``."""
    stack = _stack()
    if stack:
        acc = stack[-1]
        start = 0
        failed_code = tnp.asarray(error._code)
        for k, message in enumerate(error._messages):
            hit = tnp.logical_and(tnp.asarray(error._failed), failed_code == k)
            acc.add(tnp.logical_not(hit), message, error._payload[start : start + message.count])
            start += message.count
        return
    if any(isinstance(leaf, Tracer) for leaf in tree_leaves(error)):
        raise ValueError(_NOT_FUNCTIONALIZED)
    error.throw()


def checkify(
    f: Callable[..., Any], errors: frozenset[type[ErrorCategory]] = user_checks
) -> Callable[..., tuple[Error, Any]]:
    """``f`` made to return ``(Error, out)`` instead of raising on a failed ``check``.

    ``errors`` selects the categories; only user checks (``check``, ``check_error``) are
    performed by trellax.
    """
    if not isinstance(errors, (set, frozenset)) or not all(
        isinstance(e, type) and issubclass(e, ErrorCategory) for e in errors
    ):
        raise TypeError(f"checkify's errors must be a set of ErrorCategory classes, got {errors!r}")
    enabled = FailedCheckError in errors

    def traced(tree: Any, *leaves: Any) -> tuple[Error, Any]:
        args, kwargs = tree_unflatten(tree, list(leaves))
        with _collecting() as acc:
            out = f(*args, **kwargs)
        if not enabled:
            acc = _Accumulator()
        return acc.error(), out

    compiled = jit(traced, static_argnums=0)

    def checked(*args: Any, **kwargs: Any) -> tuple[Error, Any]:
        leaves, tree = tree_flatten((args, kwargs))
        result: tuple[Error, Any] = compiled(tree, *leaves)
        return result

    checked.__name__ = getattr(f, "__name__", "checked")
    checked.__doc__ = getattr(f, "__doc__", None)
    return checked
