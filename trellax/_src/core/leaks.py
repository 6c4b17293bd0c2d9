"""The tracer-leak checker behind ``trellax.checking_leaks()`` and ``check_tracer_leaks``.

A transformation's tracers are only meaningful while it runs. When the flag is on, each
transformation checks, as its trace ends (``jit``, ``vmap``, ``jvp``/``grad``/``vjp``, control
flow bodies), whether a tracer of that trace is still reachable from outside: stored in a global,
a list, an attribute or a closure. Every tracer refers to its trace, so the tracers still alive
are among the trace's referrers; a garbage collection first drops those only alive through
reference cycles that nothing outside can reach. A leak raises :class:`LeakedTracerError` (an
``Exception``, as JAX's check raises) naming the trace, each leaked tracer, the line that
created it when it is known, and a chain of references that keeps it alive.

With the flag off (the default) nothing here runs: the traces only read the flag.
"""

from __future__ import annotations

import gc
import types
from collections.abc import Sequence
from typing import Any

from trellax._src.config import jax_flags
from trellax._src.core import core, source_info


def checking() -> bool:
    """Whether leak checking is on (``trellax.checking_leaks()``, ``check_tracer_leaks``)."""
    return bool(jax_flags.check_tracer_leaks.value)


def user_source() -> str | None:
    """The user's location that is creating a tracer (``core/source_info.py``)."""
    return source_info.user_location(1)


class LeakedTracerError(Exception):
    """A tracer of a transformation outlived it (found by ``trellax.checking_leaks()``).

    Failing::

        saved = []

        @trellax.jit
        def f(x):
            saved.append(x)  # the tracer escapes into a global list
            return x

        with trellax.checking_leaks():
            f(1.0)

    Fix: return the values the caller needs instead of storing them on the side.
    """

    def __init__(self, trace: core.Trace, tracers: Sequence[core.Tracer]) -> None:
        ignore = {id(tracers)}
        parts = [f"{t!r}\n{origin(t)}{why_alive(t, ignore)}" for t in tracers]
        super().__init__(
            f"Leaked trace {trace_name(trace)}. Leaked tracer(s):\n\n" + "\n\n".join(parts) + "\n"
        )


def trace_name(trace: core.Trace) -> str:
    """The trace's name in messages: JAX's class names (``DynamicJaxprTrace``, ``BatchTrace``)."""
    return getattr(trace, "leak_name", type(trace).__name__)


def tracer_name(tracer: core.Tracer) -> str:
    """The tracer's name in messages (``DynamicJaxprTracer``, ``BatchTracer``, ``JVPTracer``)."""
    return trace_name(tracer._trace) + "r"


def created_on(tracer: core.Tracer, where: str) -> str:
    """JAX's sentence for where a tracer was created (ends in a newline)."""
    return (
        f"This {tracer_name(tracer)} with object id {id(tracer)} was created on line:\n  {where}\n"
    )


def origin(tracer: core.Tracer) -> str:
    """Where ``tracer`` was created, as lines of a message ending in a newline (or ''): the
    trace's ``tracer_origin`` says it when it knows."""
    describe = getattr(tracer._trace, "tracer_origin", None)
    where = describe(tracer) if describe is not None else None
    return "" if where is None else str(where)


def check_ended(trace: core.Trace) -> None:
    """Raises :class:`LeakedTracerError` if a tracer of ``trace`` (whose transformation has
    returned) is still reachable. Call it only when :func:`checking` is true, after dropping the
    caller's own references to the trace's tracers (input and output lists)."""
    trace.active = False
    release = getattr(trace, "release_tracers", None)
    if release is not None:
        release()
    gc.collect()
    leaked = [
        r for r in gc.get_referrers(trace) if isinstance(r, core.Tracer) and r._trace is trace
    ]
    if leaked:
        raise LeakedTracerError(trace, leaked)


# -- why is it alive: a chain of referrers ----------------------------------------------------------


# No closure may capture the object being explained (a generator expression over ``child``
# would): its cell would then be the first referrer found.


def _holders(x: Any, ignore: set[int]) -> list[Any]:
    found = []
    for r in gc.get_referrers(x):
        if id(r) not in ignore and not isinstance(r, types.FrameType):
            found.append(r)
    return found


def _key_of(items: Any, child: Any) -> Any:
    for k, v in items:
        if v is child:
            return k
    return None


def _owner_of_dict(d: dict[str, Any], ignore: set[int]) -> Any:
    """The module or object whose ``__dict__`` is ``d``, if any."""
    for r in _holders(d, ignore):
        if getattr(r, "__dict__", None) is d:
            return r
    return None


def _function_of_cell(cell: types.CellType, ignore: set[int]) -> tuple[Any, str] | None:
    """The function closing over ``cell``, and the variable's name."""
    for tup in _holders(cell, ignore):
        if not isinstance(tup, tuple):
            continue
        for fn in _holders(tup, ignore):
            if isinstance(fn, types.FunctionType) and fn.__closure__ is tup:
                return fn, fn.__code__.co_freevars[tup.index(cell)]
    return None


def _label(x: Any) -> str:
    return f"<{type(x).__name__} {id(x)}>"


def _step(child: Any, ignore: set[int]) -> tuple[Any, str] | None:
    """One referrer of ``child`` and how it refers to it (None when nothing does)."""
    holders = _holders(child, ignore)
    if not holders:
        return None
    parent = holders[0]
    inner = ignore | {id(holders)}
    if isinstance(parent, dict):
        key = _key_of(parent.items(), child)
        owner = _owner_of_dict(parent, inner)
        if isinstance(owner, types.ModuleType):
            return owner, f"{owner.__name__}.{key}"
        if owner is not None:
            return owner, f"{_label(owner)}.{key}"
        return parent, f"{_label(parent)}[{key!r}]"
    if isinstance(parent, types.CellType):
        found = _function_of_cell(parent, inner)
        if found is not None:
            fn, var = found
            return fn, f"{_label(fn)} ({fn.__name__}) closed-over variable {var}"
    if isinstance(parent, (list, tuple)):
        return parent, f"{_label(parent)}[{_key_of(enumerate(parent), child)}]"
    attrs = getattr(parent, "__dict__", None)
    if isinstance(attrs, dict):  # an instance whose attributes live inline (no dict object)
        key = _key_of(attrs.items(), child)
        if key is not None:
            return parent, f"{_label(parent)}.{key}"
    return parent, _label(parent)


def why_alive(x: Any, ignore: set[int]) -> str:
    """Lines ``<A 1> is referred to by <B 2>[0]`` from ``x`` up to a module or a root."""
    lines: list[str] = []
    seen: set[int] = set()
    child = x
    while id(child) not in seen and not isinstance(child, types.ModuleType) and len(lines) < 20:
        seen.add(id(child))
        step = _step(child, ignore)
        if step is None:
            break
        parent, how = step
        step = None  # the tuple would otherwise count as a referrer of ``parent``
        name = _label(child) if child is not x else f"<{tracer_name(x)} {id(x)}>"
        lines.append(f"{name} is referred to by {how}")
        child = parent
    return "".join(line + "\n" for line in lines)
