"""Op-by-op evaluation: ``disable_jit``, ``debug_nans``/``debug_infs`` and
``ensure_compile_time_eval``.

While ``disable_jit``, ``debug_nans`` or ``debug_infs`` is on, the bottom trace of the context
is :data:`op_by_op_trace` instead of the evaluation trace. It evaluates each primitive as the
evaluation trace does, then checks its floating-point results for NaNs / infinities. Because it
is not *the* evaluation trace, every shortcut that is only taken eagerly steps aside: a ``jit``
function called under it runs its Python body with the arguments as passed (as ``jit`` inlines
into any enclosing trace), the eager operator shortcuts go through ``bind``, and control flow
runs as one primitive evaluated here. So under ``debug_nans`` a jitted function reports the very
operation that made the NaN, as JAX does after re-running the function "de-optimized".

``ensure_compile_time_eval`` installs, inside a trace, a :class:`CompileTimeEvalTrace` that
evaluates operations whose operands are all concrete at once and hands the others to the trace
it sits on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from trellax._src import core, jax_flags
from trellax._src.core import EvalTrace, Primitive, Trace


class OpByOpTrace(EvalTrace):
    """The bottom trace while ``disable_jit``/``debug_nans``/``debug_infs`` is on."""

    def __repr__(self) -> str:
        return "OpByOpTrace"

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        out = core.eval_primitive(prim, args, params)
        nans, infs = jax_flags.debug_nans.value, jax_flags.debug_infs.value
        if nans or infs:
            for o in out if prim.multiple_results else (out,):
                _check(prim.name, o, nans, infs)
        return out


def _check(name: str, out: Any, nans: bool, infs: bool) -> None:
    value = getattr(out, "_value", None)
    if not isinstance(value, np.ndarray) and not isinstance(value, np.generic):
        return
    if value.dtype.kind not in "fcV":
        return
    try:
        if nans and np.isnan(value).any():
            raise FloatingPointError(f"invalid value (nan) encountered in {name}")
        if infs and np.isinf(value).any():
            raise FloatingPointError(f"invalid value (inf) encountered in {name}")
    except TypeError:  # a structured dtype with no isnan (float0, PRNG keys)
        return


op_by_op_trace = OpByOpTrace()


def _sync() -> None:
    """Makes the bottom trace of this context match the flags (called when one changes)."""
    want = jax_flags._disable_jit.value or jax_flags.debug_nans.value or jax_flags.debug_infs.value
    current = core._current_trace.get()
    if want and current is core.eval_trace:
        core._current_trace.set(op_by_op_trace)
    elif not want and current is op_by_op_trace:
        core._current_trace.set(core.eval_trace)


for _flag in (jax_flags._disable_jit, jax_flags.debug_nans, jax_flags.debug_infs):
    _flag.on_change = _sync


def jit_disabled() -> bool:
    """Whether ``disable_jit`` is on in this context."""
    return bool(jax_flags._disable_jit.value)


# -- ensure_compile_time_eval ---------------------------------------------------------------------


class CompileTimeEvalTrace(Trace):
    """Inside a trace: operations on concrete values are evaluated now, others are traced."""

    def __init__(self, parent: Trace) -> None:
        self.parent = parent

    def __repr__(self) -> str:
        return f"CompileTimeEvalTrace({self.parent!r})"

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        if any(isinstance(a, core.Tracer) for a in args):
            assert self.parent is not None
            return self.parent.process_primitive(prim, args, params)
        return core.eval_primitive(prim, args, params)


@contextlib.contextmanager
def ensure_compile_time_eval() -> Iterator[None]:
    """Inside ``jit`` (or any trace), operations whose operands are all concrete are computed
    now, so their results are concrete arrays that Python control flow can use; operations on
    traced values are traced as usual. Outside a trace it changes nothing.

    >>> import trellax, trellax.numpy as tnp
    >>> @trellax.jit
    ... def f(x):
    ...     with trellax.ensure_compile_time_eval():
    ...         n = int(tnp.sum(tnp.arange(4)))  # concrete: 6
    ...     return x * n
    >>> f(1.0)
    Array(6., dtype=float32, weak_type=True)
    """
    current = core._current_trace.get()
    if isinstance(current, EvalTrace):
        yield
        return
    with core.using_trace(CompileTimeEvalTrace(current)):
        yield
