"""``jit``'s JAX options that change nothing here but are checked as JAX checks them, and the
``Traced`` object of ``jit(f).trace(...)``.

Kept apart from ``api.py``: the checks are about a function's signature, not about tracing.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.tree.tree_util import PyTreeDef

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def as_tuple(value: Any, kind: type) -> tuple[Any, ...]:
    """An ``int``/``str`` or a sequence of them (or None) as a tuple, as jit's options take."""
    if value is None:
        return ()
    if isinstance(value, kind):
        return (value,)
    return tuple(value)


def _positional_count(sig: inspect.Signature | None) -> int | None:
    """How many positional arguments a function with ``sig`` takes (None: any number)."""
    if sig is None:
        return None
    kinds = [p.kind for p in sig.parameters.values()]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return sum(k in _POSITIONAL for k in kinds)


def check_argnums(sig: inspect.Signature | None, what: str, nums: tuple[int, ...]) -> None:
    """JAX's ValueError for argument numbers beyond the function's positional parameters."""
    n = _positional_count(sig)
    if n is not None and any(not -n <= i < n for i in nums):
        raise ValueError(
            f"Jitted function has {what}={nums}, but only accepts {n} positional arguments."
        )


class JitOptions:
    """``jit``'s options that JAX has and that change nothing here, checked as JAX checks them.

    * ``donate_argnums``/``donate_argnames``: JAX may reuse a donated argument's device buffer
      for an output. trellax arrays are immutable NumPy buffers and a compiled program never
      writes into its inputs, so there is nothing to donate: a documented no-op (JAX on CPU
      warns that the donated buffers were not usable; trellax does not warn).
    * ``keep_unused``: JAX prunes unused arguments from the compiled program unless it is set;
      pruning is invisible here (a compiled program ignores arguments it does not read).
    * ``inline``: a jitted function called inside another trace is always inlined here.
    """

    __slots__ = ("donate_argnames", "donate_argnums", "inline", "keep_unused")

    def __init__(
        self,
        donate_argnums: tuple[int, ...] = (),
        donate_argnames: tuple[str, ...] = (),
        keep_unused: bool = False,
        inline: bool = False,
    ) -> None:
        self.donate_argnums = donate_argnums
        self.donate_argnames = donate_argnames
        self.keep_unused = bool(keep_unused)
        self.inline = bool(inline)

    def check(self, sig: inspect.Signature | None, static_argnames: frozenset[str]) -> None:
        """JAX's errors: donated numbers beyond the signature, and an argument both static and
        donated (``static_argnames`` already holds the names of the static positions)."""
        check_argnums(sig, "donate_argnums", self.donate_argnums)
        names = set(self.donate_argnames)
        if sig is not None:
            params = [p for p in sig.parameters.values() if p.kind in _POSITIONAL]
            names |= {
                params[n].name
                for n in self.donate_argnums
                if 0 <= n < len(params) and params[n].kind is not inspect.Parameter.POSITIONAL_ONLY
            }
        both = names & static_argnames
        if both:
            raise ValueError(
                "static_argnames and donate_argnames cannot intersect. Argument names "
                f"{set(sorted(both))} appear in both static_argnames and donate_argnames"
            )


class Traced:
    """A function traced for particular arguments (``jit(f).trace(*args)``, as JAX's
    ``Traced``): ``jaxpr`` (a :class:`ClosedJaxpr`), ``in_avals``/``in_tree`` (the traced, not
    static, arguments as ``(args, kwargs)``), ``out_avals``/``out_info``/``out_tree`` (the
    results as abstract values and as ``ShapeDtypeStruct``), ``fun_name``, ``donate_argnums``,
    and ``lower()`` (``jit(f).lower`` of the same arguments)."""

    def __init__(
        self,
        *,
        jaxpr: ClosedJaxpr,
        fun_name: str,
        in_tree: PyTreeDef,
        in_avals: Any,
        out_tree: PyTreeDef,
        out_avals: Any,
        out_info: Any,
        donate_argnums: tuple[int, ...],
        lower: Callable[[], Any],
    ) -> None:
        self.jaxpr = jaxpr
        self.fun_name = fun_name
        self.in_tree = in_tree
        self.in_avals = in_avals
        self.out_tree = out_tree
        self.out_avals = out_avals
        self.out_info = out_info
        self.donate_argnums = donate_argnums
        self._lower = lower

    def lower(self) -> Any:
        """``jit(f).lower`` of the arguments this was traced with."""
        return self._lower()

    def __repr__(self) -> str:
        return f"Traced<{self.fun_name}>"
