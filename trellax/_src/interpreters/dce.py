"""Dead-code elimination of a jaxpr for chosen outputs (JAX's ``pe.dce_jaxpr``).

:func:`dce_jaxpr` keeps the outputs a caller uses, drops every equation that nothing kept reads
(unless it has an effect: a callback that is not a pure one, also inside a sub-jaxpr), prunes
control-flow equations from the inside with the primitives' rules (``tracing.dce_rules``:
``scan`` drops carries and stacked outputs nobody reads, ``cond`` drops branch outputs and the
operands no branch reads), and reports which inputs are still read. The compiler's own pass,
:func:`tracing.without_dead_code`, keeps every control-flow equation; this one removes them too
when none of their results is used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from trellax._src.core.core import Primitive
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing


def subjaxprs(jaxpr: Jaxpr) -> Iterator[Jaxpr]:
    """The jaxprs held in the parameters of ``jaxpr``'s equations (one level deep)."""
    for eqn in jaxpr.eqns:
        for value in eqn.params.values():
            yield from jaxprs_in(value)


def jaxprs_in(value: Any) -> Iterator[Jaxpr]:
    """The jaxprs a parameter value holds: itself, a closed jaxpr's, or those in a tuple/list."""
    if isinstance(value, ClosedJaxpr):
        yield value.jaxpr
    elif isinstance(value, Jaxpr):
        yield value
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from jaxprs_in(v)


#: Primitives that are effects whatever their name (filled by the layers that define them, e.g.
#: ``checkify``'s check): never removed as dead code.
EFFECTFUL: set[Primitive] = set()


def has_effects(eqn: JaxprEqn) -> bool:
    """Whether removing ``eqn`` would change what a program does besides its values: a
    callback other than a pure one, or an :data:`EFFECTFUL` primitive, directly or inside a
    sub-jaxpr."""
    if eqn.primitive in EFFECTFUL:
        return True
    name = eqn.primitive.name
    if "callback" in name and not (
        name == "pure_callback" and eqn.params.get("vmap_method") not in ("io", "ordered_io")
    ):
        return True
    return any(has_effects(e) for v in eqn.params.values() for j in jaxprs_in(v) for e in j.eqns)


#: ``prune(eqn, used) -> eqn``: an equation kept, rewritten to compute only its ``used`` results
Prune = Callable[[JaxprEqn, list[bool]], JaxprEqn]


def _prune_by_rule(eqn: JaxprEqn, used: list[bool]) -> JaxprEqn:
    rule = tracing.dce_rules.get(eqn.primitive)
    if rule is not None and not all(used):
        return rule(eqn, used) or eqn
    return eqn


def dce_jaxpr(
    jaxpr: Jaxpr,
    used_outputs: Sequence[bool],
    instantiate: bool | Sequence[bool] = False,
    prune: Prune = _prune_by_rule,
) -> tuple[Jaxpr, list[bool]]:
    """``jaxpr`` computing only the outputs marked in ``used_outputs`` (and reading only the
    inputs those need), with which inputs it still reads. ``instantiate`` keeps inputs: True
    for all, or a flag per input. ``prune`` rewrites each kept equation (by default the
    primitive's ``tracing.dce_rules`` rule when some of its results are unused)."""
    if len(used_outputs) != len(jaxpr.outvars):
        raise ValueError(
            f"dce_jaxpr: {len(used_outputs)} output flags for {len(jaxpr.outvars)} outputs"
        )
    outs = [o for o, u in zip(jaxpr.outvars, used_outputs) if u]
    live = {id(a) for a in outs if type(a) is Var}
    keep: list[JaxprEqn] = []
    for eqn in reversed(jaxpr.eqns):
        used = [id(v) in live for v in eqn.outvars]
        if not any(used) and not has_effects(eqn):
            continue
        eqn = prune(eqn, used)
        keep.append(eqn)
        live.update(id(a) for a in eqn.invars if type(a) is Var)
    keep.reverse()
    inst = [instantiate] * len(jaxpr.invars) if isinstance(instantiate, bool) else instantiate
    used_inputs = [id(v) in live or bool(i) for v, i in zip(jaxpr.invars, inst)]
    invars = [v for v, u in zip(jaxpr.invars, used_inputs) if u]
    return Jaxpr(jaxpr.constvars, invars, outs, keep), used_inputs


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Raises ``TypeError`` if a variable is read before it is defined or defined twice, in
    ``jaxpr`` or in a jaxpr of its equations' parameters."""
    defined = {id(v) for v in [*jaxpr.constvars, *jaxpr.invars]}
    if len(defined) != len(jaxpr.constvars) + len(jaxpr.invars):
        raise TypeError("jaxpr binds a variable twice among its inputs")
    for eqn in jaxpr.eqns:
        for a in eqn.invars:
            if type(a) is Var and id(a) not in defined:
                raise TypeError(
                    f"variable {a} is read by {eqn.primitive.name} before it is defined"
                )
        for v in eqn.outvars:
            if id(v) in defined:
                raise TypeError(f"variable {v} is defined twice")
            defined.add(id(v))
    for a in jaxpr.outvars:
        if type(a) is Var and id(a) not in defined:
            raise TypeError(f"output variable {a} is not defined")
    for sub in subjaxprs(jaxpr):
        check_jaxpr(sub)
