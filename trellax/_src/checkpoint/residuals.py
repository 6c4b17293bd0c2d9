"""Which values reverse mode keeps for the backward pass (JAX's
``jax.ad_checkpoint.saved_residuals`` and ``print_saved_residuals``).

``f`` is linearized under a jaxpr trace, as ``trellax.linearize`` would run it: the primal
computation is recorded with the user's source lines, and the values its linear part closes
over are the residuals. Each is reported with where it comes from, in JAX's order and words:
literals, constants, then arguments (by name and pytree path: ``the argument params[0]``), then
the outputs of equations in program order (``output of cos from file:line (fun)``; a value named
by ``checkpoint_name`` as ``named 'a' from ...``).

Under ``trellax.checkpoint`` the residuals are the checkpointed function's inputs and the values
its ``policy`` keeps (``partial_eval.py``): the rest of its body is recomputed in the backward pass.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from trellax._src.checkpoint.naming import name_p
from trellax._src.core import core
from trellax._src.core.core import ShapedArray, short_dtype_name
from trellax._src.core.jaxpr import ClosedJaxpr, Literal, Var
from trellax._src.interpreters import ad, tracing
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import differentiable
from trellax._src.tree.keys import keystr
from trellax._src.tree.tree_util import tree_flatten_with_path, tree_unflatten


def _aval_str(aval: ShapedArray) -> str:
    return f"{short_dtype_name(aval.dtype)}[{','.join(map(str, aval.shape))}]"


def _arg_names(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
    """``the argument <name><path>`` for every leaf of ``(args, kwargs)``."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [
        p.name
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    var_args = next((p.name for p in params if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
    names: list[str] = []
    for i, a in enumerate(args):
        if i < len(positional):
            base = positional[i]
        elif var_args is not None:
            base = f"{var_args}[{i - len(positional)}]"
        else:
            base = f"args[{i}]"
        names.extend(f"the argument {base}{keystr(path)}" for path, _ in _paths(a))
    for k, v in kwargs.items():
        names.extend(f"the argument {k}{keystr(path)}" for path, _ in _paths(v))
    return names


def _paths(tree: Any) -> list[tuple[Any, Any]]:
    return tree_flatten_with_path(tree)[0]


def _held_arrays(closed: ClosedJaxpr) -> list[Any]:
    """The concrete arrays a linear jaxpr holds: its constants and those of the ``jit``
    equations in it (JAX's partial evaluation of ``jit`` makes them residuals), each once."""
    found: dict[int, Any] = {}
    todo = [closed]
    while todo:
        c = todo.pop()
        found.update((id(x), x) for x in c.consts if not isinstance(x, core.Tracer))
        todo.extend(e.params["jaxpr"] for e in c.jaxpr.eqns if e.primitive.name == "jit")
    return list(found.values())


def saved_residuals(f: Callable[..., Any], *args: Any, **kwargs: Any) -> list[tuple[Any, str]]:
    """``(abstract value, where it comes from)`` for every value reverse mode saves when
    differentiating ``f`` at ``args`` (in its inexact inputs).

    >>> import trellax.numpy as tnp
    >>> [(str(a), s) for a, s in saved_residuals(lambda x: tnp.sin(x) * 2.0, 1.0)][0][1][:13]
    'output of cos'
    """
    leaves_paths, treedef = tree_flatten_with_path((args, kwargs))
    leaves = [asarray(leaf) for _, leaf in leaves_paths]
    names = _arg_names(f, args, kwargs)
    diff = [differentiable(x.dtype) for x in leaves]
    n_out: list[int] = []
    concrete: list[Any] = []

    def run(*xs: Any) -> list[Any]:
        def flat(*ys: Any) -> list[Any]:
            it = iter(ys)
            full = [next(it) if d else x for x, d in zip(xs, diff)]
            a, k = tree_unflatten(treedef, full)
            out_paths, _ = tree_flatten_with_path(f(*a, **k))
            return [asarray(o) for _, o in out_paths]

        outs, lin = ad.linearize_flat(flat, [x for x, d in zip(xs, diff) if d])
        n_out.append(len(outs))
        # concrete arrays the linear part closes over are saved too (JAX: "from a constant")
        concrete.extend(_held_arrays(lin.closed))
        return [*outs, *[c for c in lin.closed.consts if isinstance(c, core.Tracer)]]

    avals = [ShapedArray(x.shape, x.dtype, x.weak_type) for x in leaves]
    closed = tracing.trace_to_jaxpr(run, avals, getattr(f, "__name__", "fun"))
    jaxpr = closed.jaxpr
    res = jaxpr.outvars[n_out[0] :]
    res_ids = {id(v) for v in res if type(v) is Var}
    found: list[tuple[Any, str]] = []
    found.extend((a.aval, "from a literal") for a in res if type(a) is Literal)
    found.extend((core.get_aval(c), "from a constant") for c in concrete)
    found.extend((v.aval, "from a constant") for v in jaxpr.constvars if id(v) in res_ids)
    found.extend(
        (v.aval, f"from {name}") for v, name in zip(jaxpr.invars, names) if id(v) in res_ids
    )
    for eqn in jaxpr.eqns:
        where = eqn.source or "an unknown location"
        for v in eqn.outvars:
            if id(v) not in res_ids:
                continue
            if eqn.primitive is name_p:
                found.append((v.aval, f"named '{eqn.params['name']}' from {where}"))
            elif eqn.primitive.name == "jit":
                fun = eqn.params.get("name", "fun")
                found.append((v.aval, f"output of jitted function '{fun}' from {where}"))
            else:
                found.append((v.aval, f"output of {eqn.primitive.name} from {where}"))
    return found


def print_saved_residuals(f: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Prints :func:`saved_residuals`, one residual a line (``f32[5] from the argument x``)."""
    for aval, where in saved_residuals(f, *args, **kwargs):
        print(f"{_aval_str(aval)} {where}")
