"""Compiled programs of eager control-flow equations, reused across calls by their structure.

An eager ``scan``/``while``/``cond`` runs its equation as a compiled program
(:func:`tracing.run_equation`). Under ``grad`` the reverse-mode rules build new jaxprs for every
call (the residual scan, the linear scan, its transpose), so a cache keyed by jaxpr identity never
hits and every call paid for generating and compiling the loop (~5-10 ms). :func:`structural_key`
describes an equation by value instead: its primitive, operand types, and parameters, with every
jaxpr written out as its equations (variables numbered by first appearance, literals by their
bytes, dtype and weak flag). Two equations with equal keys compute the same function, so they
can share a program.

Only values whose equality means "the same computation" go into a key: ints, floats, bools,
strings, None, dtypes, shaped types, tuples of those, and jaxprs without constants. Anything
else (a Python function in a ``custom_jvp_call`` or a callback, a constant array) makes the
equation uncacheable, and it is compiled per call as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var


class _Uncacheable(Exception):
    pass


_SIMPLE = (int, float, bool, str, type(None), np.dtype)
_LIMIT = 256
_PROGRAMS: dict[Any, Callable[..., tuple[Any, ...]]] = {}


def _param(x: Any) -> Any:
    t = type(x)
    if t in _SIMPLE or isinstance(x, np.dtype):
        return (t, repr(x)) if t is float else (t, x)
    if t is tuple or t is list:
        return (t, tuple(_param(v) for v in x))
    if t is ShapedArray:
        return (t, x.shape, x.dtype, x.weak_type)
    if t is ClosedJaxpr:
        if x.consts:
            raise _Uncacheable
        return (t, _jaxpr(x.jaxpr))
    if t is Jaxpr:
        return (t, _jaxpr(x))
    raise _Uncacheable


def _jaxpr(j: Jaxpr) -> Any:
    if j.constvars:
        raise _Uncacheable
    names: dict[int, int] = {}

    def define(v: Var) -> Any:
        names[id(v)] = len(names)
        a = v.aval
        return (a.shape, a.dtype, a.weak_type)

    def atom(a: Any) -> Any:
        if type(a) is Literal:
            value = np.asarray(a.value)
            av = a.aval
            return ("l", value.dtype, value.shape, value.tobytes(), av.dtype, av.weak_type)
        n = names.get(id(a))
        if n is None:  # read before defined: not a well-formed jaxpr for this key
            raise _Uncacheable
        return n

    ins = tuple(define(v) for v in j.invars)
    eqns = []
    for e in j.eqns:
        args = tuple(atom(a) for a in e.invars)
        params = tuple(sorted((k, _param(v)) for k, v in e.params.items()))
        outs = tuple(define(v) for v in e.outvars)
        eqns.append((e.primitive, args, params, outs))
    return (ins, tuple(eqns), tuple(atom(a) for a in j.outvars))


def structural_key(
    prim: Primitive, in_avals: list[ShapedArray], params: dict[str, Any], context: Any
) -> Any:
    """A hashable description of the equation (with ``context``: configuration, fusion
    options), or None when it holds something compared only by identity."""
    try:
        p = tuple(sorted((k, _param(v)) for k, v in params.items()))
    except _Uncacheable:
        return None
    return (prim, tuple((a.shape, a.dtype) for a in in_avals), p, context)


def lookup(key: Any) -> Callable[..., tuple[Any, ...]] | None:
    return _PROGRAMS.get(key)


def store(key: Any, run: Callable[..., tuple[Any, ...]]) -> None:
    if len(_PROGRAMS) >= _LIMIT:
        _PROGRAMS.clear()
    _PROGRAMS[key] = run


def clear() -> None:
    """Forgets every program (``trellax.clear_caches``)."""
    _PROGRAMS.clear()
