"""``scan`` over a body that closes over array references: the references become extra carries.

JAX threads the references a loop body closes over through the loop (its guide's ``foreach``
recipe accumulates into one). trellax learns which ones by tracing: the body's first touch of a
reference made outside raises :class:`~trellax._src.api.ref_frames.ClosedRefInBody`, and the scan
is traced again with that reference's value added to the carry; inside, a
:class:`~trellax._src.api.ref_frames.ThreadFrame` makes the reference read and write the carry.
After the loop the final values are stored back. The references a function needs are remembered
per function, so later calls go straight to the threaded scan (whose program is cached like any
other).
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable
from typing import Any

from trellax._src.api import ref_frames
from trellax._src.api.ref_frames import ClosedRefInBody, RefBase, ThreadFrame
from trellax._src.core import core

ScanFn = Callable[..., tuple[Any, Any]]

#: body function -> (the references it closes over, the threaded body made for them)
_KNOWN: weakref.WeakKeyDictionary[Any, tuple[list[RefBase], Callable[..., Any]]] = (
    weakref.WeakKeyDictionary()
)


def _threaded(f: Callable[..., Any], refs: list[RefBase]) -> Callable[..., Any]:
    name = getattr(f, "__name__", "body")
    code = getattr(f, "__code__", None)
    where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "<unknown>"

    def body(carry: Any, x: Any) -> Any:
        c, values = carry
        trace = core.current_trace()
        fr = ThreadFrame(trace, name, where)  # type: ignore[arg-type]
        fr.pairs = [(r, ref_frames.make_ref(v, trace)) for r, v in zip(refs, values)]
        with ref_frames.frame(fr):
            c, y = f(c, x)
        return (c, [inner._held for _, inner in fr.pairs]), y

    return body


def known_refs(f: Callable[..., Any]) -> tuple[list[RefBase], Callable[..., Any]] | None:
    """The references ``f`` was found to close over, and its threaded body (or None)."""
    try:
        return _KNOWN.get(f)
    except TypeError:  # not weakly referenceable
        return None


def scan_with_refs(
    scan_fn: ScanFn,
    f: Callable[..., Any],
    init: Any,
    xs: Any,
    length: int | None,
    reverse: bool,
    unroll: Any,
    first: RefBase | None = None,
) -> tuple[Any, Any]:
    """``scan_fn(f, init, xs, ...)`` with the references ``f`` closes over as extra carries."""
    known = known_refs(f)
    refs = list(known[0]) if known is not None else []
    if first is not None and not any(r is first for r in refs):
        refs.append(first)
    body = known[1] if known is not None and len(known[0]) == len(refs) else _threaded(f, refs)
    while True:
        values = [ref_frames.resolve(r)._held for r in refs]
        try:
            (carry, finals), ys = scan_fn(body, (init, values), xs, length, reverse, unroll)
        except ClosedRefInBody as e:
            if any(r is e.ref for r in refs):
                raise
            refs.append(e.ref)
            body = _threaded(f, refs)
            continue
        break
    with contextlib.suppress(TypeError):  # a callable that cannot be weakly referenced
        _KNOWN[f] = (refs, body)
    for r, v in zip(refs, finals):
        ref_frames.store(r, v)
    return carry, ys
