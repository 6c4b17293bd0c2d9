"""Op-by-op evaluation: ``disable_jit``, ``debug_nans``/``debug_infs`` and
``ensure_compile_time_eval``.

While ``disable_jit``, ``debug_nans`` or ``debug_infs`` is on, or a mesh is set (``set_mesh``:
each result is placed on it, ``sharding_rules.context_placement``), the bottom trace of the
context is :data:`op_by_op_trace` instead of the evaluation trace. It evaluates each primitive as the
evaluation trace does, then checks its floating-point results for NaNs / infinities. Because it
is not *the* evaluation trace, every shortcut that is only taken eagerly steps aside (the eager
operator shortcuts go through ``bind``, control flow runs as one primitive evaluated here), and
a ``jit`` function called under it goes to :func:`call_jitted`: under ``disable_jit`` its Python
body runs op by op; under ``debug_nans`` it runs compiled, and only when an output is invalid
is the body re-run op by op to name the operation, as JAX does.

``ensure_compile_time_eval`` installs, inside a trace, a :class:`CompileTimeEvalTrace` that
evaluates operations whose operands are all concrete at once and hands the others to the trace
it sits on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from trellax._src.config import jax_flags
from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive, Trace
from trellax._src.lax import sharding_rules
from trellax._src.tree.tree_util import tree_leaves, tree_map


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
    bad = _invalid(out, nans, infs)
    if bad is not None:
        raise FloatingPointError(f"invalid value ({bad}) encountered in {name}")


def _invalid(out: Any, nans: bool, infs: bool) -> str | None:
    """``"nan"`` or ``"inf"`` when the concrete array ``out`` holds one that is checked for."""
    value = getattr(out, "_value", None)
    if not isinstance(value, np.ndarray | np.generic) or value.dtype.kind not in "fcV":
        return None
    try:
        if nans and np.isnan(value).any():
            return "nan"
        if infs and np.isinf(value).any():
            return "inf"
    except TypeError:  # a structured dtype with no isnan (float0, PRNG keys)
        return None
    return None


def call_jitted(jitted: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A ``jit`` function called under the op-by-op trace. Under ``disable_jit`` its Python body
    runs op by op. Under ``debug_nans``/``debug_infs`` (as in JAX) the compiled program runs and
    only its outputs are checked; if one holds an invalid value, the body runs again op by op
    ("de-optimized") to name the operation that made it."""
    if jit_disabled():
        return jitted.fun(*args, **kwargs)
    with core.using_trace(core.eval_trace):
        out = jitted(*args, **kwargs)
    if sharding_rules.context_placement[0] is not None:  # made under a mesh: placed on it
        out = tree_map(sharding_rules.on_context_mesh, out)

    nans, infs = jax_flags.debug_nans.value, jax_flags.debug_infs.value
    bad = next((b for b in (_invalid(o, nans, infs) for o in tree_leaves(out)) if b), None)
    if bad is None:
        return out
    print(
        "Invalid nan value encountered in the output of a trellax.jit function. Calling the "
        "de-optimized version."
    )
    jitted.fun(*args, **kwargs)  # raises FloatingPointError at the operation, op by op
    name = getattr(jitted.fun, "__name__", "fun")
    raise FloatingPointError(
        f"invalid value ({bad}) encountered in jit({name}). Running the function without "
        "jit, op by op, produced no invalid value: the compiled program computed differently "
        "(or a nan/inf constant is an input or output)."
    )


op_by_op_trace = OpByOpTrace()


def _sync() -> None:
    """Makes the bottom trace of this context match the flags (called when one changes)."""
    want = (
        jax_flags._disable_jit.value
        or jax_flags.debug_nans.value
        or jax_flags.debug_infs.value
        # under a mesh (``set_mesh``) every result is placed on it: no eager shortcut
        or sharding_rules.context_placement[0] is not None
    )
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
