"""L-BFGS: ``scale_by_lbfgs`` (the two-loop recursion over a ring buffer of parameter and
gradient differences) and the ``lbfgs`` alias, which chains it with a step size (a linesearch by
default). The state layout is optax 0.2.8's ``ScaleByLBFGSState``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim import tree_math as tm
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    Params,
    Updates,
    chain,
    safe_increment,
    with_extra_args_support,
)
from trellax._src.optim.linesearch import scale_by_zoom_linesearch
from trellax._src.optim.transforms import identity, scale, scale_by_learning_rate
from trellax.tree_util import tree_map


class ScaleByLBFGSState(NamedTuple):
    """The L-BFGS memory: the step count, the last parameters and updates, and
    ``memory_size`` stacked differences of parameters and of updates with their weights
    ``1 / <dw, du>``."""

    count: Any
    params: Any
    updates: Any
    diff_params_memory: Any
    diff_updates_memory: Any
    weights_memory: Any


def _slot(tree: Any, idx: Any) -> Any:
    return tree_map(lambda m: m[idx], tree)


def _inverse_hessian_product(
    updates: Updates,
    dw_memory: Any,
    du_memory: Any,
    rhos: Any,
    gamma: Any,
    newest: Any,
) -> Updates:
    """``P u`` by the two-loop recursion: the slots are visited from the newest difference to
    the oldest (``newest`` is the slot after the newest one, modulo the memory size), the
    initial matrix is ``gamma * I``, then back from the oldest to the newest."""
    size = rhos.shape[0]
    order = [(newest + k) % size for k in range(size)]
    vec = updates
    alphas: list[Any] = []
    for idx in reversed(order):
        dw, du = _slot(dw_memory, idx), _slot(du_memory, idx)
        alpha = rhos[idx] * tm.real(tm.vdot(dw, vec))
        vec = tm.cast_like(tm.add_scale(vec, -alpha, du), vec)
        alphas.append(alpha)
    alphas.reverse()
    vec = tm.scale(gamma, vec)
    for idx, alpha in zip(order, alphas, strict=True):
        dw, du = _slot(dw_memory, idx), _slot(du_memory, idx)
        beta = rhos[idx] * tm.real(tm.vdot(du, vec))
        vec = tm.cast_like(tm.add_scale(vec, alpha - beta, dw), vec)
    return vec


def scale_by_lbfgs(
    memory_size: int = 10, scale_init_precond: bool = True
) -> GradientTransformation:
    """The L-BFGS direction ``P_k u_k``: ``P_k`` approximates the inverse Hessian from the
    last ``memory_size`` differences of parameters and updates (Nocedal and Wright's
    Algorithm 7.4). With ``scale_init_precond`` the initial matrix is ``gamma * I`` with
    ``gamma = <dw, du> / <du, du>`` of the newest pair, and ``min(1, 1 / ||u||)`` at the first
    step; otherwise the identity. Chain it with a step size, e.g. a linesearch."""
    if memory_size < 1:
        raise ValueError("memory_size must be >= 1")

    def init_fn(params: Params) -> ScaleByLBFGSState:
        stacked = tree_map(
            lambda p: jnp.zeros((memory_size, *jnp.shape(p)), jnp.result_type(p)), params
        )
        return ScaleByLBFGSState(
            count=jnp.asarray(0, dtype=jnp.int32),
            params=tm.zeros_like(params),
            updates=tm.zeros_like(params),
            diff_params_memory=stacked,
            diff_updates_memory=stacked,
            weights_memory=jnp.zeros(memory_size),
        )

    def update_fn(
        updates: Updates, state: ScaleByLBFGSState, params: Params = None
    ) -> tuple[Updates, ScaleByLBFGSState]:
        count = state.count
        started = count > 0
        dw = tm.sub(params, state.params)
        du = tm.sub(updates, state.updates)
        curvature = tm.real(tm.vdot(du, dw))
        rho = jnp.where(curvature == 0.0, 0.0, 1.0 / curvature)
        # no difference exists before the second step: the slot written then holds zeros
        dw, du, rho = tree_map(lambda x: jnp.where(started, x, jnp.zeros_like(x)), (dw, du, rho))
        slot = (count - 1) % memory_size
        dw_mem, du_mem, rhos = tree_map(
            lambda m, x: m.at[slot].set(x),
            (state.diff_params_memory, state.diff_updates_memory, state.weights_memory),
            (dw, du, rho),
        )
        gamma: Any = 1.0
        if scale_init_precond:
            du_sq = tm.norm(du, squared=True)
            ratio = jnp.where(du_sq > 0.0, tm.real(tm.vdot(du, dw)) / du_sq, 1.0)
            first = jnp.minimum(1.0, 1.0 / tm.norm(lax.stop_gradient(updates)))
            gamma = jnp.where(started, ratio, first)
        direction = _inverse_hessian_product(
            updates, dw_mem, du_mem, rhos, gamma, count % memory_size
        )
        new_state = ScaleByLBFGSState(
            count=safe_increment(count),
            params=params,
            updates=updates,
            diff_params_memory=dw_mem,
            diff_updates_memory=du_mem,
            weights_memory=rhos,
        )
        return direction, new_state

    return GradientTransformation(init_fn, update_fn)


#: optax's default linesearch of ``lbfgs``
_ZOOM = scale_by_zoom_linesearch(max_linesearch_steps=20, initial_guess_strategy="one")


def lbfgs(
    learning_rate: Any = None,
    memory_size: int = 10,
    scale_init_precond: bool = True,
    linesearch: GradientTransformation | None = _ZOOM,
) -> GradientTransformationExtraArgs:
    """L-BFGS: :func:`scale_by_lbfgs`, then ``-learning_rate`` (``-1`` when ``None``), then
    ``linesearch`` (optax's default: a zoom linesearch of at most 20 steps starting each round
    from a step of 1). Its ``update`` takes ``value``, ``grad`` and ``value_fn`` keywords for
    the linesearch; pair it with :func:`value_and_grad_from_state`."""
    step = scale(-1.0) if learning_rate is None else scale_by_learning_rate(learning_rate)
    out = chain(
        scale_by_lbfgs(memory_size=memory_size, scale_init_precond=scale_init_precond),
        step,
        identity() if linesearch is None else linesearch,
    )
    if isinstance(out, GradientTransformationExtraArgs):
        return out
    return with_extra_args_support(out)
