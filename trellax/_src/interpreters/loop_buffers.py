"""Loop bodies that write their small results into buffers allocated once per loop.

In a compiled ``scan``/``fori_loop``/``while_loop`` body on small arrays, each NumPy ufunc call
costs ~0.4-0.6 µs, of which ~0.1-0.2 µs is allocating its result. The code generator therefore
gives two kinds of values a place to be written with the ufunc's positional ``out`` argument:

* **temporaries**: results of a ufunc that only other ufuncs or matrix products of the same
  iteration read (not a body output, not read by a view-making or control-flow equation), each
  its own buffer, allocated before the loop and overwritten at every iteration (by then the
  previous iteration's value is dead: its readers made new arrays from it);
* **carries**: a new carry computed by a ufunc alternates between two buffers (the one the
  carry before last used is dead when it is overwritten, see :func:`carry_buffers`);
* **stacked outputs** of ``scan``: a ``y`` computed by a ufunc is written straight into its row
  of the ``(length, ...)`` buffer (``tanh(u, ys[t])``) instead of into a new array that is then
  copied into the row; a carry that is the same value becomes a view of that row (rows are
  written once, so it never changes).

Only vectors (1-d results) get buffers: a new ufunc result of more dimensions takes the memory
order of its operands, which a later reduction or matrix product can see (it adds in another
order), while a vector is contiguous either way. A ufunc called with ``out`` of the dtype it
computes in runs the same inner loop on the same operands: the same bits (NaN payloads, -0.0, subnormals, wrap-around), and the dtype and weak
flag of every value are the jaxpr's as before. Only ufunc equations whose loop's result dtype
(``ufunc.resolve_dtypes``) equals the equation's result dtype get an ``out`` (no cast on
writing), and not for ml_dtypes' types. ``tests/test_loop_buffers.py`` compares programs with
and without this bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import Jaxpr, JaxprEqn, Var, eqn_kernel
from trellax._src.interpreters import specialize

#: Values larger than this many elements keep fresh arrays (elementwise work on large arrays is
#: fused into chunk loops instead, and an allocation is then a small part of a call).
MAX_ELEMENTS = 65536

#: Switched off to measure the difference (the tests switch every specialization off through
#: ``specialize.enabled``, which this follows too).
enabled = True

#: Primitives (by name) whose kernels always return new arrays, never views of their operands.
_FRESH_READERS = frozenset({"dot_general"})


def active() -> bool:
    """Whether loop bodies get buffers (this module's switch and the specializations')."""
    return enabled and specialize.enabled


def writes_out(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` is a ufunc call that can write its one result into a given array of the
    result's shape and dtype with the same bits (or a small matrix-vector product that the
    compiler writes as ``np.dot``/``np.matmul`` into its ``out``: :func:`specialize.gemv_out`)."""
    impl = eqn_kernel(eqn)
    if specialize.gemv_out(eqn):
        return True
    if type(impl) is not np.ufunc or eqn.params or impl.nout != 1 or len(eqn.outvars) != 1:
        return False
    if len(eqn.invars) != impl.nin:
        return False
    out = eqn.outvars[0].aval
    # Vectors only: NumPy gives a ufunc's new result the memory order of its operands (a
    # transposed operand, a Fortran-ordered argument), and a reduction or product reading it
    # then adds in another order; a vector is contiguous whatever its operands.
    if len(out.shape) != 1 or out.dtype.kind == "V" or out.shape[0] > MAX_ELEMENTS:
        return False
    ins = [a.aval.dtype for a in eqn.invars]
    if any(d.kind == "V" for d in ins):
        return False
    try:
        resolved = impl.resolve_dtypes((*ins, None))
    except (TypeError, ValueError):  # no loop for these dtypes: the kernel is not this ufunc
        return False
    return bool(resolved[-1] == out.dtype)


def _fresh_reader(step: Any) -> bool:
    """Whether ``step`` (an equation or a fused region) makes new arrays from its operands."""
    if not isinstance(step, JaxprEqn):
        return False
    return type(eqn_kernel(step)) is np.ufunc or step.primitive.name in _FRESH_READERS


def _read_fresh_only(v: Var, steps: Sequence[Any]) -> bool:
    """Whether every step that reads ``v`` makes new arrays from it (so no view of it, or the
    value itself, outlives those steps)."""
    for step in steps:
        ins = step.invars if isinstance(step, JaxprEqn) else getattr(step, "externals", [])
        if any(a is v for a in ins) and not _fresh_reader(step):
            return False
    return True


def carry_buffers(
    jaxpr: Jaxpr, first: int, n_carry: int, steps: Sequence[Any], skip: Sequence[Var] = ()
) -> list[Var]:
    """The new carries (outputs ``0..n_carry-1``) of a loop body that can alternate between two
    buffers allocated before the loop: each is computed by a ufunc into the buffer the carry
    before last used. That one is dead: the carry (input ``first + i``) and the new value are
    read in the body only by steps making new arrays, and neither is passed on as another
    output, so nothing else refers to the buffer after the iteration that read it."""
    defined = {e.outvars[0]: e for e in steps if isinstance(e, JaxprEqn) and len(e.outvars) == 1}
    outs = list(jaxpr.outvars)
    found: list[Var] = []
    for i in range(n_carry):
        v, c = outs[i], jaxpr.invars[first + i]
        if type(v) is not Var or v in skip or v not in defined or not writes_out(defined[v]):
            continue
        if outs.count(v) != 1 or any(a is c for a in outs):
            continue
        if _read_fresh_only(v, steps) and _read_fresh_only(c, steps):
            found.append(v)
    return found


def temporaries(jaxpr: Jaxpr, steps: Sequence[Any]) -> list[Var]:
    """The values of a loop body (``steps``: its equations and fused regions, in order) that can
    live in a buffer reused at every iteration (see the module docstring)."""
    outputs = {a for a in jaxpr.outvars if type(a) is Var}
    candidates: dict[Var, bool] = {}
    for step in steps:
        if isinstance(step, JaxprEqn) and writes_out(step) and step.outvars[0] not in outputs:
            candidates[step.outvars[0]] = False  # not read yet
    for step in steps:
        ins = step.invars if isinstance(step, JaxprEqn) else getattr(step, "externals", [])
        fresh = _fresh_reader(step)
        for a in ins:
            if type(a) is Var and a in candidates:
                if fresh:
                    candidates[a] = True
                else:
                    del candidates[a]
    return [v for v, read in candidates.items() if read]


def allocation(name: str, v: Var, bind: Any) -> str:
    """The statement allocating ``v``'s buffer as ``name`` (without indentation)."""
    shape, dtype = bind(tuple(v.aval.shape), "s"), bind(v.aval.dtype, "d")
    return f"{name} = {bind(np.empty, 'f')}({shape}, {dtype})"
