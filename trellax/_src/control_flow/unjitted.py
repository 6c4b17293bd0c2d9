"""Control flow under ``disable_jit``: the Python loops and branches themselves, as JAX runs
them then (so ``print`` in a body runs per iteration and sees concrete values).

Each function returns :data:`NOT_HANDLED` when its condition does not hold (``disable_jit`` off,
or a traced predicate or bound), and the caller then stages the primitive as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.interpreters.op_by_op import jit_disabled
from trellax._src.lax._base import asarray
from trellax._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten

NOT_HANDLED: Any = object()

#: Stacks the per-iteration outputs of an eager ``scan``: ``trellax.numpy.stack`` (with its dtype
#: promotion, as JAX's unjitted scan stacks them). Control flow sits below the numpy layer, so
#: ``numpy/joining.py`` sets this when it is imported (with ``import trellax``).
stack_outputs: Callable[[list[Any]], Any] | None = None


def switch(index: Any, branches: Sequence[Callable[..., Any]], operands: Sequence[Any]) -> Any:
    if not jit_disabled() or not core.is_concrete(index):
        return NOT_HANDLED
    i = min(max(int(index), 0), len(branches) - 1)
    return branches[i](*operands)


def cond(pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], ops: Any) -> Any:
    if not jit_disabled() or not core.is_concrete(pred):
        return NOT_HANDLED
    return true_fun(*ops) if bool(pred) else false_fun(*ops)


def while_loop(cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any], init: Any) -> Any:
    if not jit_disabled() or not all(core.is_concrete(x) for x in tree_flatten(init)[0]):
        return NOT_HANDLED
    val = tree_map(asarray, init)
    while bool(cond_fun(val)):
        val = body_fun(val)
    return val


def fori_loop(lower: Any, upper: Any, body_fun: Callable[[Any, Any], Any], init: Any) -> Any:
    if not jit_disabled() or not (core.is_concrete(lower) and core.is_concrete(upper)):
        return NOT_HANDLED
    val = init
    for i in range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any,
    length: int | None,
    reverse: bool,
) -> Any:
    if not jit_disabled():
        return NOT_HANDLED
    stack = stack_outputs
    assert stack is not None, "trellax.numpy is not imported"
    leaves, tree = tree_flatten(xs)
    n = int(length) if length is not None else (leaves[0].shape[0] if leaves else 0)
    if n == 0:
        # as in JAX: nothing runs, so nothing tells the outputs' types
        raise ValueError(
            "zero-length scan is not supported in disable_jit() mode because the output type "
            "is unknown."
        )
    carry, ys = init, []
    for i in reversed(range(n)) if reverse else range(n):
        carry, y = f(carry, tree_unflatten(tree, [x[i] for x in leaves]))
        ys.append(y)
    if reverse:
        ys.reverse()
    y_leaves, y_tree = tree_flatten(ys[0])
    stacked = [stack([tree_flatten(y)[0][k] for y in ys]) for k in range(len(y_leaves))]
    return carry, tree_unflatten(y_tree, stacked)
