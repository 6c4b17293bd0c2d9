"""Array references across transformations: who owns a ``Ref``, and how ``jit`` threads them.

A :class:`RefBase` (``trellax.Ref``; indexing lives in ``numpy/refs.py``) is a mutable box
holding an immutable array, owned by the trace that was current when it was made. trellax keeps
arrays immutable and threads references functionally:

- ``jit`` opens a :class:`Frame` while tracing. A reference passed as an argument becomes, inside,
  a reference of the frame's trace holding an input tracer; a reference created outside and only
  *closed over* is lifted the first time the function touches it (a new input of the jaxpr). The
  final value of every such reference is an extra output of the program, written back to the
  caller's reference after each call, so a cached program never bakes in a stale value.
- ``vmap`` maps a reference argument like an array: inside it holds the batched value, which is
  moved back to the argument's axis and stored when the function returns (``api/vmap.py``).
- ``scan`` threads the references its body closes over as extra carries (it learns which by
  tracing: :class:`ClosedRefInBody` names one, and it traces again with it; see
  ``control_flow/scan.py``).
- Anywhere else a reference is used directly, under two rules that make misuse an error rather
  than a silently wrong value: a write must not store a tracer of a transformation the reference
  was made outside of (JAX's errors for ``vmap``/``grad``), and a body traced into a jaxpr that
  threads nothing (``cond``, ``while_loop``, ``checkpoint`` bodies) may not close over a
  reference at all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import ShapedArray, Trace
from trellax._src.interpreters.ad import JVPTracer, _LinearDispatch
from trellax._src.interpreters.batching import BatchTracer
from trellax._src.interpreters.tracing import JaxprTrace


class RefBase:
    """A mutable reference to an array value (``trellax.Ref``); see the module docstring."""

    __slots__ = ("_held", "_owner", "_written", "aval")

    def __init__(self, value: Any, owner: Trace) -> None:
        self._held = value
        self._owner = owner
        #: written since made (JAX's repr then no longer shows a weak type)
        self._written = False
        aval = core.get_aval(value)
        self.aval = ShapedArray(aval.shape, aval.dtype, aval.weak_type)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.aval.shape

    @property
    def dtype(self) -> Any:
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.aval.shape:
            n *= s
        return n

    def type_str(self) -> str:
        return f"Ref{{{self.aval}}}".replace("~", "")


class AbstractRef:
    """The abstract value of an array reference (what ``typeof(ref)`` gives): the held array's
    abstract value, ``inner_aval``, and its ``shape``/``dtype``; printed ``Ref{float32[3]}``."""

    __slots__ = ("inner_aval",)

    def __init__(self, inner_aval: ShapedArray) -> None:
        self.inner_aval = inner_aval

    @property
    def shape(self) -> tuple[int, ...]:
        return self.inner_aval.shape

    @property
    def dtype(self) -> Any:
        return self.inner_aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.inner_aval.shape)

    @property
    def weak_type(self) -> bool:
        return self.inner_aval.weak_type

    @property
    def sharding(self) -> Any:
        return self.inner_aval.sharding

    def __repr__(self) -> str:
        return f"Ref{{{self.inner_aval}}}".replace("~", "")

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractRef) and self.inner_aval == other.inner_aval

    def __hash__(self) -> int:
        return hash(("AbstractRef", self.inner_aval))


#: Makes a reference of the array class (set by ``numpy/refs.py``, which adds indexing).
make_ref: Callable[[Any, Trace], RefBase] = RefBase


def _ancestors(t: Trace | None) -> Iterator[Trace]:
    while t is not None:
        yield t
        t = t.parent


def is_ancestor(a: Trace, b: Trace) -> bool:
    """Whether trace ``a`` is ``b`` or encloses it."""
    return any(t is a for t in _ancestors(b))


class Frame:
    """The references a ``jit`` trace threads: ``pairs`` of (caller's reference, the reference
    inside), arguments first, then the closed-over ones in the order they were touched."""

    def __init__(self, trace: JaxprTrace, name: str, where: str) -> None:
        self.trace = trace
        self.name = name
        self.where = where
        self.pairs: list[tuple[RefBase, RefBase]] = []
        self.arg_names: dict[int, str] = {}  # id(caller's reference) -> argument name
        self.closed: list[RefBase] = []

    def owns(self, ref: RefBase) -> bool:
        return is_ancestor(self.trace, ref._owner)

    def add_argument(self, ref: RefBase, tracer: Any, name: str) -> RefBase:
        if id(ref) in self.arg_names:
            raise ValueError(
                "only one reference to a mutable array may be passed as an argument to a "
                f"function, but when tracing {self.name} at {self.where} for jit the mutable "
                f"array reference of type {ref.type_str()} appeared at both "
                f"{self.arg_names[id(ref)]} and {name}."
            )
        inner = make_ref(tracer, self.trace)
        self.arg_names[id(ref)] = name
        self.pairs.append((ref, inner))
        return inner

    def lift(self, ref: RefBase) -> RefBase:
        for outer, inner in self.pairs:
            if outer is ref:
                if id(ref) in self.arg_names and ref not in self.closed:
                    raise ValueError(
                        f"when tracing {self.name} at {self.where} for jit, a mutable array "
                        f"reference of type {ref.type_str()} was both closed over and passed as "
                        f"the argument {self.arg_names[id(ref)]}"
                    )
                return inner
        inner = make_ref(self.trace.new_arg(ref.aval), self.trace)
        self.pairs.append((ref, inner))
        self.closed.append(ref)
        return inner

    def check_outputs(self, outs: Sequence[Any]) -> None:
        for o in outs:
            if isinstance(o, RefBase):
                origin = next((outer for outer, inner in self.pairs if inner is o), None)
                detail = ""
                if origin is not None and id(origin) in self.arg_names:
                    detail = (
                        "\n\nThe returned mutable array was passed in as the argument "
                        f"{self.arg_names[id(origin)]}."
                    )
                raise ValueError(
                    f"function {self.name} at {self.where} traced for jit returned a mutable "
                    f"array reference of type {o.type_str()}, but mutable array references "
                    f"cannot be returned.{detail}"
                )


class ClosedRefInBody(NotImplementedError):
    """A body traced into a jaxpr touched ``ref``, made outside it (a loop primitive that threads
    references catches this, adds ``ref`` to its carries and traces again)."""

    def __init__(self, ref: RefBase) -> None:
        super().__init__(
            f"an array reference of type {ref.type_str()} is used inside a function traced into "
            "a jaxpr (a cond, while_loop or checkpoint body) that it was created outside of: "
            "trellax threads references through jit, vmap and scan only; pass its value in "
            "and out instead"
        )
        self.ref = ref


class ThreadFrame(Frame):
    """The references a loop body threads as carries: ``pairs`` are given; touching any other
    reference made outside raises :class:`ClosedRefInBody`."""

    def lift(self, ref: RefBase) -> RefBase:
        for outer, inner in self.pairs:
            if outer is ref:
                return inner
        raise ClosedRefInBody(ref)


_FRAMES: ContextVar[tuple[Frame, ...]] = ContextVar("trellax_ref_frames", default=())


@contextlib.contextmanager
def frame(fr: Frame) -> Iterator[Frame]:
    token = _FRAMES.set((*_FRAMES.get(), fr))
    try:
        yield fr
    finally:
        _FRAMES.reset(token)


def resolve(ref: RefBase) -> RefBase:
    """The reference to read or write for ``ref`` in the current context (a ``jit`` being traced
    lifts a reference made outside it), after checking that the context may use it."""
    current = core.current_trace()
    for fr in reversed(_FRAMES.get()):
        if fr.owns(ref):
            break
        if is_ancestor(fr.trace, current):
            ref = fr.lift(ref)
            break
    for t in _ancestors(current):
        if t is ref._owner:
            return ref
        if isinstance(t, JaxprTrace):
            raise ClosedRefInBody(ref)
    raise ValueError(
        f"an array reference of type {ref.type_str()} is used outside the transformation "
        "that created it (it cannot escape the function it was created in)"
    )


def check_storable(ref: RefBase, value: Any) -> None:
    """Refuses to store a value of a transformation ``ref`` was made outside of."""
    if not isinstance(value, core.Tracer):
        return
    owner = ref._owner
    if is_ancestor(value._trace, owner):
        return
    if isinstance(value, BatchTracer):
        raise ValueError(
            "performing a set/swap operation with vmapped value on an unbatched array reference "
            f"of type {ref.type_str()}. Move the array reference to be an argument to the "
            "vmapped function?"
        )
    if isinstance(value, JVPTracer) or isinstance(value._trace, _LinearDispatch):
        raise ValueError(
            "performing a set/swap operation with a differentiated value on a non-differentiated "
            f"array reference of type {ref.type_str()}. Move the array reference to be an "
            "argument of the differentiated function?"
        )
    raise ValueError(
        f"storing a traced value in an array reference of type {ref.type_str()} created "
        "outside the transformation that traced it"
    )


def store(ref: RefBase, value: Any) -> None:
    """Replaces ``ref``'s whole value (already of its type), in the current context."""
    target = resolve(ref)
    check_storable(target, value)
    target._held = value
    target._written = ref._written = True
