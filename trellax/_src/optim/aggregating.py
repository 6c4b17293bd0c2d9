"""optax 0.2.8's ``experimental.aggregating``: transformations of *per-element* gradients (a
leading axis, or several, of examples) that aggregate them into one update, optionally over
several micro-steps, and the statistics of that aggregation (the per-element mean and the sum of
squared deviations, Chan et al.'s pairwise update across micro-steps, and their EMAs).

:func:`process` chains a preprocessor of per-element gradients, an aggregator and a
postprocessor of the aggregate; the postprocessor runs only when the aggregator's state says
``ready`` (else the update is zero and its state is kept).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import trellax.numpy as jnp
from trellax import lax
from trellax._src.optim import tree_math
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    chain,
    init_empty_state,
    safe_increment,
    zero_count,
)
from trellax._src.optim.transforms import identity
from trellax._src.optim.tree_lookup import get as tree_get
from trellax.tree_util import tree_leaves, tree_map

PerElementUpdates = Any
AggregatedUpdates = Any
MaybeAxis = int | Sequence[int] | None


class AggregatorUpdateFn(Protocol):
    """``update(per_elt_updates, state, params=None, **extra) -> (aggregated, state)``."""

    def __call__(
        self, per_elt_updates: Any, state: Any, params: Any = None, **extra_args: Any
    ) -> tuple[Any, Any]: ...


class Aggregator(GradientTransformationExtraArgs):
    """A transformation whose ``update`` takes per-element updates and returns one aggregate."""

    __slots__ = ()


def process(
    preprocessor: GradientTransformation,
    aggregator: GradientTransformation,
    postprocessor: GradientTransformation,
    aggregator_has_aux: bool = False,
) -> GradientTransformation:
    """``preprocessor`` on the per-element gradients, ``aggregator`` (its auxiliary dict, with
    ``aggregator_has_aux``, added to the extra arguments), then ``postprocessor`` when the
    aggregator's state has ``ready`` true (or has no ``ready``). The state is the three
    states; the result is an :class:`Aggregator` when ``aggregator`` is one."""

    def init_fn(params: Any) -> tuple[Any, Any, Any]:
        return preprocessor.init(params), aggregator.init(params), postprocessor.init(params)

    def update_fn(per_elt: Any, states: Any, params: Any = None, **extra: Any) -> Any:
        pre_state, agg_state, post_state = states
        per_elt, pre_state = preprocessor.update(per_elt, pre_state, params, **extra)
        aggregated, agg_state = aggregator.update(per_elt, agg_state, params, **extra)
        if aggregator_has_aux:
            aggregated, aux = aggregated
            extra = extra | aux
        ready = tree_get(agg_state, "ready", True)

        def post(g: Any, s: Any, p: Any, kw: Any) -> Any:
            return postprocessor.update(g, s, p, **kw)

        def hold(g: Any, s: Any, p: Any, kw: Any) -> Any:
            del p, kw
            return tree_math.zeros_like(g), s

        updates, post_state = lax.cond(ready, post, hold, aggregated, post_state, params, extra)
        return updates, (pre_state, agg_state, post_state)

    if isinstance(aggregator, Aggregator):
        return Aggregator(init_fn, update_fn)
    return GradientTransformationExtraArgs(init_fn, update_fn)


def average_per_element_updates(per_elt_axis: int | Sequence[int] = 0) -> Aggregator:
    """The mean over the per-element axis (or axes)."""
    axis = per_elt_axis if isinstance(per_elt_axis, int) else tuple(per_elt_axis)

    def update_fn(per_elt: Any, state: Any, params: Any = None) -> Any:
        del params
        return tree_map(lambda x: jnp.mean(x, axis=axis), per_elt), state

    return Aggregator(init_empty_state, update_fn)


class AccumulateAvgUpdatesState(NamedTuple):
    """Micro-steps since the last output, whether this step gave one, and the running mean."""

    micro_step: Any
    ready: Any
    avg_grad: Any


def accumulate_avg_updates(accumulation_steps: int) -> GradientTransformation:
    """The running mean of ``accumulation_steps`` updates, given out (and reset) at every
    ``accumulation_steps``-th step; zeros in between."""
    if accumulation_steps < 1:
        raise ValueError("accumulation_steps must be larger than or equal to 1.")
    if accumulation_steps == 1:
        return identity()

    def init_fn(params: Any) -> AccumulateAvgUpdatesState:
        return AccumulateAvgUpdatesState(
            micro_step=jnp.asarray(0),
            ready=jnp.asarray(False),
            avg_grad=tree_math.zeros_like(params),
        )

    def update_fn(updates: Any, state: AccumulateAvgUpdatesState, params: Any = None) -> Any:
        del params
        step = state.micro_step + 1
        avg = tree_map(lambda u, a: a + (u - a) / step, updates, state.avg_grad)
        done = AccumulateAvgUpdatesState(
            micro_step=jnp.asarray(0), ready=jnp.asarray(True), avg_grad=tree_math.zeros_like(avg)
        )
        going = AccumulateAvgUpdatesState(micro_step=step, ready=jnp.asarray(False), avg_grad=avg)
        out: tuple[Any, Any] = tree_math.where(
            step == accumulation_steps, (avg, done), (tree_math.zeros_like(avg), going)
        )
        return out

    return GradientTransformation(init_fn, update_fn)


def average_incrementally_updates(
    per_elt_axis: MaybeAxis, accumulation_steps: int
) -> GradientTransformation:
    """:func:`accumulate_avg_updates` of the per-element means (of the updates themselves when
    ``per_elt_axis`` is ``None``)."""
    if per_elt_axis is None:
        return accumulate_avg_updates(accumulation_steps)
    both = chain(
        average_per_element_updates(per_elt_axis), accumulate_avg_updates(accumulation_steps)
    )
    return Aggregator(both.init, both.update)


def get_batch_size_from_per_elt_updates(
    per_elt_updates: Any, per_elt_axis: int | Sequence[int]
) -> int:
    """The number of elements (the product of the per-element axes' sizes), which every leaf
    must agree on."""

    def size(u: Any) -> int:
        if isinstance(per_elt_axis, int):
            return int(u.shape[per_elt_axis])
        return math.prod(u.shape[i] for i in per_elt_axis)

    sizes = [size(u) for u in tree_leaves(per_elt_updates)]
    if not all(b == sizes[0] for b in sizes):
        raise ValueError(f"Per-element updates must have the same batch size. Got: {sizes}")
    return sizes[0]


class PerElementMeanAndSumSqDiffGradsState(NamedTuple):
    """Micro-steps since the last output, whether this step gave one, the running mean and
    the running sum of squared deviations."""

    micro_step: Any
    ready: Any
    mean_grads: Any
    sum_sq_diff_grads: Any


def _batch_stats(per_elt: Any, axis: Any) -> tuple[Any, Any]:
    means = tree_map(lambda x: jnp.mean(x, axis=axis, keepdims=True), per_elt)
    squares = tree_map(lambda x, a: jnp.sum(jnp.square(x - a), axis=axis), per_elt, means)
    return tree_map(lambda x: x.squeeze(axis=axis), means), squares


def get_per_element_mean_and_sum_sq_diff_grads(
    per_elt_axis: int | Sequence[int] = 0, accumulation_steps: int = 1
) -> Aggregator:
    """The per-element mean, with the auxiliary dict ``{"sum_sq_diff_grads", "sample_size"}``;
    over ``accumulation_steps`` micro-steps the batches are merged pairwise (mean and sum of
    squared deviations), given out at every ``accumulation_steps``-th step, zeros between."""
    axis = per_elt_axis if isinstance(per_elt_axis, int) else tuple(per_elt_axis)

    def single(per_elt: Any, state: Any, params: Any = None) -> Any:
        del params
        batch = get_batch_size_from_per_elt_updates(per_elt, per_elt_axis)
        means, squares = _batch_stats(per_elt, axis)
        return (means, {"sum_sq_diff_grads": squares, "sample_size": batch}), state

    if accumulation_steps == 1:
        return Aggregator(init_empty_state, single)

    def init_fn(params: Any) -> PerElementMeanAndSumSqDiffGradsState:
        return PerElementMeanAndSumSqDiffGradsState(
            micro_step=jnp.asarray(0, dtype=jnp.int32),
            ready=jnp.asarray(False),
            mean_grads=tree_math.zeros_like(params),
            sum_sq_diff_grads=tree_math.zeros_like(params),
        )

    def update_fn(
        per_elt: Any, state: PerElementMeanAndSumSqDiffGradsState, params: Any = None
    ) -> Any:
        del params
        batch = get_batch_size_from_per_elt_updates(per_elt, per_elt_axis)
        step = state.micro_step + 1
        means, squares = _batch_stats(per_elt, axis)
        delta = tree_map(lambda u, a: u - a, means, state.mean_grads)
        mean = tree_map(lambda a, d: a + d / step, state.mean_grads, delta)
        weight = state.micro_step * batch / step
        total = tree_map(
            lambda a, s, d: a + s + d**2 * weight, state.sum_sq_diff_grads, squares, delta
        )
        outputs = (mean, {"sum_sq_diff_grads": total, "sample_size": batch * step})
        done = PerElementMeanAndSumSqDiffGradsState(
            micro_step=jnp.asarray(0, dtype=jnp.int32),
            ready=jnp.asarray(True),
            mean_grads=tree_math.zeros_like(mean),
            sum_sq_diff_grads=tree_math.zeros_like(total),
        )
        going = PerElementMeanAndSumSqDiffGradsState(
            micro_step=step, ready=jnp.asarray(False), mean_grads=mean, sum_sq_diff_grads=total
        )
        out: tuple[Any, Any] = tree_math.where(
            step == accumulation_steps, (outputs, done), (tree_math.zeros_like(outputs), going)
        )
        return out

    return Aggregator(init_fn, update_fn)


class PerElementMeanAndVarianceEMAState(NamedTuple):
    """The step, the EMA decay, and the EMAs of the mean and of the unbiased variance."""

    count: Any
    ema_decay: Any
    mean_grads_ema: Any
    variance_grads_ema: Any


def track_per_element_mean_and_variance_with_ema(
    ema_decay: Any = 0.9,
) -> GradientTransformationExtraArgs:
    """Passes the updates through, keeping EMAs of them and of the unbiased variance
    ``sum_sq_diff_grads / (sample_size - 1)`` (extra arguments of ``update``)."""

    def init_fn(params: Any) -> PerElementMeanAndVarianceEMAState:
        return PerElementMeanAndVarianceEMAState(
            count=zero_count(),
            ema_decay=jnp.asarray(ema_decay),
            mean_grads_ema=tree_math.zeros_like(params),
            variance_grads_ema=tree_math.zeros_like(params),
        )

    def update_fn(
        updates: Any,
        state: PerElementMeanAndVarianceEMAState,
        params: Any = None,
        *,
        sum_sq_diff_grads: Any,
        sample_size: Any,
    ) -> Any:
        del params

        def ema(x: Any, y: Any) -> Any:
            return (1.0 - ema_decay) * x + ema_decay * y

        means = tree_map(ema, updates, state.mean_grads_ema)
        variance = tree_math.scale(1 / (sample_size - 1), sum_sq_diff_grads)
        variances = tree_map(ema, variance, state.variance_grads_ema)
        return updates, state._replace(
            count=safe_increment(state.count), mean_grads_ema=means, variance_grads_ema=variances
        )

    return GradientTransformationExtraArgs(init_fn, update_fn)


def get_unbiased_mean_and_variance_ema(state: Any) -> tuple[Any, Any]:
    """The bias-corrected EMAs of the mean and the variance found in ``state``."""
    found = tree_get(state, "PerElementMeanAndVarianceEMAState", None)
    if found is None:
        raise ValueError(
            "State must have PerElementMeanAndVarianceEMAState to compute unbiased mean and "
            "variance EMA."
        )
    fix = 1 - found.ema_decay**found.count
    return (
        tree_map(lambda x: x / fix, found.mean_grads_ema),
        tree_map(lambda x: x / fix, found.variance_grads_ema),
    )


def add_mean_variance_to_opt(
    opt: GradientTransformation,
    ema_decay: Any = 0.9,
    per_elt_axis: int | Sequence[int] = 0,
    accumulation_steps: int = 1,
) -> GradientTransformation:
    """``opt`` on the per-element mean, with the EMAs of the gradients' mean and variance
    tracked in its state (:func:`get_unbiased_mean_and_variance_ema` reads them)."""
    return process(
        preprocessor=identity(),
        aggregator=get_per_element_mean_and_sum_sq_diff_grads(per_elt_axis, accumulation_steps),
        postprocessor=chain(track_per_element_mean_and_variance_with_ema(ema_decay), opt),
        aggregator_has_aux=True,
    )
