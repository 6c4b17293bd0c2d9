"""optax's gradient accumulation (``MultiSteps`` and its skip functions) and the Lookahead
wrapper, with optax 0.2.8's state layouts and arithmetic."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as jnp
from trellax import dtypes, lax
from trellax._src.api.api import eval_shape
from trellax._src.core.core import Tracer
from trellax._src.optim.base import (
    GradientTransformation,
    GradientTransformationExtraArgs,
    Params,
    Updates,
    cast_tree_like,
    safe_increment,
    with_extra_args_support,
    zero_count,
    zeros_like_tree,
)
from trellax._src.optim.fma import fma
from trellax._src.optim.reduce_order import ordered_sum
from trellax.tree_util import tree_leaves, tree_map

_log = logging.getLogger(__name__)

#: ``(updates, gradient_step, params) -> (should_skip, skip_state)``
ShouldSkipUpdateFunction = Callable[[Any, Any, Any], tuple[Any, Any]]


def skip_not_finite(updates: Updates, gradient_step: Any, params: Params) -> tuple[Any, Any]:
    """Skips a step whose updates hold a NaN or an infinity; the state counts them."""
    del gradient_step, params
    counts = [jnp.sum(jnp.logical_not(jnp.isfinite(u))) for u in tree_leaves(updates)]
    num_not_finite = jnp.sum(jnp.array(counts))
    should_skip = num_not_finite > 0
    return should_skip, {"should_skip": should_skip, "num_not_finite": num_not_finite}


def skip_large_updates(
    updates: Updates, gradient_step: Any, params: Params, max_squared_norm: float
) -> tuple[Any, Any]:
    """Skips a step whose updates' squared norm is not below ``max_squared_norm`` (NaN
    included); bind ``max_squared_norm`` with ``functools.partial``."""
    del gradient_step, params
    norm_sq = ordered_sum(jnp.array([ordered_sum(u**2) for u in tree_leaves(updates)]))
    should_skip = jnp.logical_not(norm_sq < max_squared_norm)
    return should_skip, {"should_skip": should_skip, "norm_squared": norm_sq}


def _bool_times(pred: Any, x: Any) -> Any:
    """``pred * x`` for a 0-d bool ``pred`` as JAX computes it: XLA's simplifier turns the
    product of a converted bool and a float16/float32/float64 array of the same shape into a
    select (so a false ``pred`` gives +0.0 even for a NaN or negative ``x``); a broadcast
    product, and bfloat16's, stay IEEE products."""
    x = jnp.asarray(x)
    if x.ndim == 0 and x.dtype in (np.float16, np.float32, np.float64):
        return jnp.where(pred, x, jnp.zeros_like(x))
    return pred * x


def _check_branch_types(new: Any, old: Any) -> None:
    """The check ``lax.cond`` makes of its two branches, made on the eager path too: the state
    an applied step returns must have the kept state's dtypes and shapes (a float
    ``every_k_schedule`` makes ``mini_step`` a float: optax's ``cond`` raises TypeError)."""
    for a, b in zip(tree_leaves(new), tree_leaves(old)):
        x, y = jnp.asarray(a), jnp.asarray(b)
        if (x.shape, x.dtype) != (y.shape, y.dtype):
            raise TypeError(
                "cond branches must have equal output types but they differ: the updated "
                f"MultiSteps state has a {x.dtype}{list(x.shape)} leaf where the skipped step "
                f"keeps {y.dtype}{list(y.shape)}"
            )


class MultiStepsState(NamedTuple):
    """The position inside the current accumulation (``mini_step``), the number of inner
    steps taken, the inner optimizer's state, the accumulated gradients and the skip state."""

    mini_step: Any
    gradient_step: Any
    inner_opt_state: Any
    acc_grads: Any
    skip_state: Any = ()


def _never_skip(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
    del args, kwargs
    return jnp.array(False, dtype=jnp.bool_), ()


class MultiSteps:
    """Accumulates the gradients of ``every_k_schedule`` steps (their mean, or their sum with
    ``use_grad_mean=False``) and applies the inner optimizer once per ``k`` steps; the other
    steps return zero updates. A step ``should_skip_update_fn`` flags leaves everything as
    it was (and returns zeros)."""

    def __init__(
        self,
        opt: GradientTransformation,
        every_k_schedule: int | Callable[[Any], Any],
        use_grad_mean: bool = True,
        should_skip_update_fn: ShouldSkipUpdateFunction | None = None,
        accumulator_dtype: Any = jnp.float32,
    ) -> None:
        self._opt = with_extra_args_support(opt)
        if isinstance(every_k_schedule, int):
            k = every_k_schedule
            self._every_k_schedule: Callable[[Any], Any] = lambda step: k
        else:
            self._every_k_schedule = every_k_schedule
        self._use_grad_mean = use_grad_mean
        self._accumulator_dtype = (
            None if accumulator_dtype is None else dtypes.canonicalize_dtype(accumulator_dtype)
        )
        self._should_skip_update_fn = should_skip_update_fn or _never_skip

    @property
    def inner_opt(self) -> GradientTransformationExtraArgs:
        """The wrapped optimizer (taking extra keyword arguments)."""
        return self._opt

    def _accumulate(self, grad: Any, acc: Any, n_acc: Any) -> Any:
        if not self._use_grad_mean:
            return grad + acc
        diff = grad - acc
        if jnp.result_type(diff, acc) != np.float32:
            return acc + diff / (n_acc + 1)
        # optax runs this inside lax.cond, compiled, where XLA turns the running mean into
        # fma(g - acc, 1 / (n + 1), acc): the reciprocal rounded, then one rounding
        reciprocal = jnp.float32(1) / (n_acc + 1).astype(jnp.float32)
        return fma(diff, reciprocal, acc)

    def init(self, params: Params) -> MultiStepsState:
        """The state before the first step."""
        gradient_step = zero_count()
        _, skip_state = self._should_skip_update_fn(zeros_like_tree(params), gradient_step, params)
        return MultiStepsState(
            mini_step=zero_count(),
            gradient_step=gradient_step,
            inner_opt_state=self._opt.init(params),
            acc_grads=zeros_like_tree(params, self._accumulator_dtype),
            skip_state=skip_state,
        )

    def update(
        self, updates: Updates, state: MultiStepsState, params: Params = None, **extra_args: Any
    ) -> tuple[Updates, MultiStepsState]:
        """Accumulates ``updates``; on the ``k``-th step, the inner optimizer's updates."""
        k_steps = self._every_k_schedule(state.gradient_step)
        skip, skip_state = self._should_skip_update_fn(updates, state.gradient_step, params)
        skip_arr = jnp.asarray(skip)
        if (skip_arr.dtype, skip_arr.shape) != (np.dtype(np.bool_), ()):
            raise ValueError(
                "The `should_skip_update_fn` function should return a boolean scalar array, "
                f"but it returned an array of dtype {skip_arr.dtype} and shape {skip_arr.shape}"
            )
        acc_dtype = self._accumulator_dtype

        def do_update(updates: Any, state: MultiStepsState, params: Any) -> Any:
            acc = tree_map(
                lambda u, a: self._accumulate(u, a, state.mini_step), updates, state.acc_grads
            )
            final, inner = self._opt.update(
                cast_tree_like(acc, updates), state.inner_opt_state, params=params, **extra_args
            )
            emit = state.mini_step == (k_steps - 1)
            new_state = MultiStepsState(
                mini_step=safe_increment(state.mini_step) % k_steps,
                gradient_step=emit * safe_increment(state.gradient_step)
                + (1 - emit) * state.gradient_step,
                inner_opt_state=tree_map(
                    lambda old, new: jnp.asarray(jnp.where(emit, new, old)).astype(old.dtype),
                    state.inner_opt_state,
                    inner,
                ),
                acc_grads=tree_map(lambda a: ((1 - emit) * a).astype(acc_dtype), acc),
                skip_state=skip_state,
            )
            return tree_map(lambda u: _bool_times(emit, u), final), new_state

        def skip_update(updates: Any, state: MultiStepsState, params: Any) -> Any:
            acc = cast_tree_like(state.acc_grads, updates)
            shapes, _ = eval_shape(
                lambda a, s, p: self._opt.update(a, s, params=p, **extra_args),
                acc,
                state.inner_opt_state,
                params,
            )
            zeros = tree_map(lambda s: jnp.zeros(s.shape, s.dtype), shapes)
            return zeros, state._replace(skip_state=skip_state)

        if not isinstance(skip_arr, Tracer):
            # a concrete flag (an eager step): run the one branch lax.cond would select,
            # without tracing both (the same values, a fraction of the time)
            if bool(skip_arr):
                return skip_update(updates, state, params)  # type: ignore[no-any-return]
            out_eager = do_update(updates, state, params)
            _check_branch_types(out_eager[1], state._replace(skip_state=out_eager[1].skip_state))
            return out_eager  # type: ignore[no-any-return]
        out: tuple[Updates, MultiStepsState] = lax.cond(
            skip_arr, skip_update, do_update, updates, state, params
        )
        return out

    def has_updated(self, state: Any) -> Any:
        """Whether the last step applied the inner optimizer."""
        return jnp.logical_and(state.mini_step == 0, state.gradient_step > 0)

    def gradient_transformation(self) -> GradientTransformation:
        """The ``(init, update)`` pair of this accumulator."""
        return GradientTransformation(init=self.init, update=self.update)


# ---- Lookahead


class LookaheadState(NamedTuple):
    """The fast optimizer's state and the steps since the last synchronization."""

    fast_state: Any
    steps_since_sync: Any


class LookaheadParams(NamedTuple):
    """The fast parameters (the ones the inner optimizer moves) and the slow ones."""

    fast: Any
    slow: Any

    @classmethod
    def init_synced(cls, params: Params) -> LookaheadParams:
        """Fast and slow parameters both equal to ``params``."""
        return cls(slow=params, fast=params)


def lookahead(
    fast_optimizer: GradientTransformation,
    sync_period: int,
    slow_step_size: float,
    reset_state: bool = False,
) -> GradientTransformation:
    """Lookahead: the fast optimizer steps ``sync_period`` times, then the slow parameters
    move ``slow_step_size`` of the way toward the fast ones and the fast ones jump there.
    ``update`` takes and returns ``LookaheadParams``."""
    if sync_period < 1:
        raise ValueError("Synchronization period must be >= 1.")

    def init_fn(params: Params) -> LookaheadState:
        fast = getattr(params, "fast", None)
        if fast is None:
            _log.warning(
                "`params` has no attribute `fast`. Continuing by assuming that only fast "
                "parameters were passed to lookahead init."
            )
            fast = params
        return LookaheadState(fast_optimizer.init(fast), jnp.zeros(shape=(), dtype=jnp.int32))

    def update_fn(updates: Updates, state: LookaheadState, params: LookaheadParams) -> Any:
        updates, fast_state = fast_optimizer.update(updates, state.fast_state, params.fast)
        sync_next = state.steps_since_sync == (sync_period - 1)
        diff = tree_map(lambda f, u, s: f + u - s, params.fast, updates, params.slow)
        out = LookaheadParams(
            fast=tree_map(lambda u, d: u - sync_next * (1 - slow_step_size) * d, updates, diff),
            slow=tree_map(lambda d: slow_step_size * sync_next * d, diff),
        )
        if reset_state:
            fresh = fast_optimizer.init(params.fast)
            fast_state = tree_map(
                lambda cur, new: (1 - sync_next) * cur + sync_next * new, fast_state, fresh
            )
        steps = (state.steps_since_sync + 1) % sync_period
        return out, LookaheadState(fast_state, steps)

    return GradientTransformation(init_fn, update_fn)
