"""The transformations of ``trellax.optim`` added for optax's remaining public names
(``stateless``, ``stateless_with_tree_map``, ``freeze``, ``selective_transform``, ...), run
through ``optim_rest_cases.replay`` like ``tests/optim_more_cases.py``; and the small helpers
(``HELPERS``: an expression of ``o``, ``jnp`` and the inputs ``x``/``y``, evaluated in each of
``HELPER_DTYPES``).

Shared by ``tools/gen_golden_optim_names.py`` (run with optax) and ``tests/test_optim_names.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: a transformation that needs the loss as ``value`` (Polyak's step), given ``b[0]**2 + 1``
POLYAK = (
    "(lambda t: o.GradientTransformation(t.init, lambda u, s, p: "
    "t.update(u, s, p, value=p['b'][0] ** 2 + 1)))({})"
)

CASES = (
    "o.chain(o.stateless(lambda u, p: {k: v * 0.5 for k, v in u.items()}), o.sgd(0.1))",
    "o.chain(o.stateless_with_tree_map(lambda u, p: u - 0.01 * p), o.sgd(0.1))",
    "o.chain(o.freeze({'b': True, 'w': False}), o.adam(1e-2))",
    "o.selective_transform(o.adam(1e-2), freeze_mask={'b': False, 'w': True})",
    "o.adan(1e-2)",
    "o.adan(1e-2, weight_decay=1e-3)",
    "o.chain(o.scale_by_adan(b1=0.9, eps_root=1e-8), o.scale(-1e-2))",
    "o.optimistic_adam(1e-2)",
    "o.optimistic_adam(1e-2, optimism=5e-3, nesterov=False)",
    "o.optimistic_adam_v2(1e-2, alpha=1.0, beta=0.5)",
    "o.optimistic_adam_v2(o.linear_schedule(1e-2, 1e-3, 50))",
    POLYAK.format("o.polyak_sgd(0.5)"),
    POLYAK.format("o.chain(o.scale_by_polyak(variant='sps+', eps=1e-3), o.scale(-0.1))"),
    "o.chain(o.scale_by_distance_over_gradients(), o.scale(-1.0))",
    "o.chain(o.scale_by_distance_over_gradients(reps_rel=1e-4, global_scale=0.5), o.scale(-1.0))",
    "o.chain(o.snapshot('norm', o.global_norm), o.sgd(0.1))",
    "o.chain(o.monitor({'norm': o.global_norm, 'adam': o.scale_by_adam()}), o.sgd(0.1))",
    "o.chain(o.measure_with_ema(lambda u: {k: v * 2 for k, v in u.items()}, 0.9), o.scale(-0.01))",
    "o.chain(o.measure_with_ema(lambda u: u, 0.8, debias=False), o.scale(-0.01))",
)

HELPER_DTYPES = ("float32", "bfloat16", "float16")

#: name -> expression; x is a (4, 5) array spread over a few binades, y another, z zeros, T a
#: (2, 2, 5) array of 0/1 targets
HELPERS = {
    "safe_norm": "o.safe_norm(x, 0.5)",
    "safe_norm_small": "o.safe_norm(z, 0.5)",
    "safe_norm_axis": "o.safe_norm(x, 0.5, axis=1)",
    "safe_norm_axis_keepdims": "o.safe_norm(x, 3.0, axis=0, keepdims=True)",
    "safe_norm_ord1": "o.safe_norm(x, 0.5, ord=1, axis=1)",
    "safe_rms": "o.safe_root_mean_squares(x, 0.5)",
    "safe_rms_small": "o.safe_root_mean_squares(z, 0.5)",
    "safe_increment": "o.safe_increment(jnp.asarray(5, jnp.int32))",
    "safe_increment_top": "o.safe_increment(jnp.asarray(2147483647, jnp.int32))",
    "safe_int32_increment": "o.safe_int32_increment(jnp.asarray(7, jnp.int32))",
    "safe_increment_float": "o.safe_increment(jnp.asarray(2.0, jnp.float32))",
    "update_moment": "o.update_moment({'a': x}, {'a': y}, 0.9, 2)",
    "update_infinity_moment": "o.update_infinity_moment({'a': x}, {'a': y}, 0.9, 1e-3)",
    "update_moment_per_elem_norm": "o.update_moment_per_elem_norm({'a': x}, {'a': y}, 0.9, 2)",
    "bias_correction": "o.bias_correction({'a': x}, 0.9, jnp.asarray(3, jnp.int32))",
    "bias_correction_two": "o.bias_correction({'a': x, 'b': y}, 0.99, jnp.asarray(10, jnp.int32))",
    "incremental_update": "o.incremental_update({'a': x}, {'a': y}, 0.1)",
    "periodic_update_on": "o.periodic_update({'a': x}, {'a': y}, 6, 3)",
    "periodic_update_off": "o.periodic_update({'a': x}, {'a': y}, 7, 3)",
    "init_empty_state": "o.init_empty_state({'a': x})",
    "tree_map_params": "o.tree_map_params(o.adam(1e-2), lambda p: p * 2, "
    "o.adam(1e-2).init({'a': x}), transform_non_params=lambda v: v + 1)",
    "tree_map_params_rest": "o.tree_map_params(o.sgd(0.1, momentum=0.9).init, "
    "lambda p, q: p + q, o.sgd(0.1, momentum=0.9).init({'a': x}), {'a': y})",
    "per_example_global_norm_clip": "o.per_example_global_norm_clip({'a': x, 'b': y}, 1.0)",
    "per_example_global_norm_clip_tall": "o.per_example_global_norm_clip("
    "{'a': jnp.tile(x, (10, 1)) * jnp.arange(1, 41, dtype=x.dtype)[:, None]}, 3.0)",
    "per_example_global_norm_clip_big": "o.per_example_global_norm_clip({'a': x}, 100.0)",
    "per_example_layer_norm_clip": "o.per_example_layer_norm_clip({'a': x, 'b': y[:, :2]}, 1.0)",
    "per_example_layer_norm_clip_sized": "o.per_example_layer_norm_clip({'a': x, 'b': y[:, :2]}, "
    "1.0, uniform=False)",
    "ntxent": "o.losses.ntxent(x, jnp.array([0, 1, 0, 1]))",
    "ntxent_top": "o.ntxent(x, jnp.array([0, 0, 1, 2]), 0.5)",
    "dice": "o.losses.dice_loss(x.reshape(2, 2, 5), T)",
    "dice_options": "o.losses.dice_loss(x.reshape(2, 2, 5), T, class_weights=jnp.arange(5.0)"
    ".astype(x.dtype), alpha=0.3, beta=0.7, reduction='sum', ignore_background=True)",
    "dice_none": "o.losses.dice_loss(x.reshape(2, 2, 5), T, reduction='none', axis=1, smooth=0.1)",
    "dice_probabilities": "o.losses.dice_loss(jnp.full((2, 2, 4), 0.25, x.dtype), T[..., :4], "
    "apply_softmax=False)",
    "dice_not_probabilities": "o.losses.dice_loss(x.reshape(2, 2, 5), T, apply_softmax=False)",
    "dice_bad_reduction": "o.losses.dice_loss(x.reshape(2, 2, 5), T, reduction='max')",
    "dice_one_class": "o.losses.dice_loss(x[:, :3], T.reshape(4, 5)[:, :3])",
    "binary_dice": "o.losses.binary_dice_loss(x, T.reshape(4, 5))",
    "binary_dice_probabilities": "o.losses.binary_dice_loss(y / 3, T.reshape(4, 5), "
    "apply_sigmoid=False, smooth=0.5)",
    "generalized_dice": "o.losses.multiclass_generalized_dice_loss(x.reshape(2, 2, 5), T)",
    "generalized_dice_background": "o.losses.multiclass_generalized_dice_loss("
    "x.reshape(2, 2, 5), T, ignore_background=True, smooth=0.0)",
    "ranking": "o.losses.ranking_softmax_loss(x, y)",
    "ranking_where": "o.losses.ranking_softmax_loss(x, y, where=y > 0.5, weights=y, "
    "reduce_fn=jnp.sum)",
    "ranking_per_list": "o.losses.ranking_softmax_loss(x, y, where=y > 0.5, reduce_fn=None)",
    "ranking_empty_list": "o.losses.ranking_softmax_loss(x, y, "
    "where=jnp.arange(20).reshape(4, 5) > 7)",
    "grad_ntxent": "G(lambda v: o.losses.ntxent(v, jnp.array([0, 1, 0, 1])), x)",
    "grad_dice": "G(lambda v: o.losses.dice_loss(v.reshape(2, 2, 5), T).sum(), x)",
    "grad_ranking": "G(lambda v: o.losses.ranking_softmax_loss(v, y), x)",
    "grad_safe_norm_small": "G(lambda v: o.safe_norm(v, 0.5), z)",
    "grad_safe_norm": "G(lambda v: o.safe_norm(v, 0.5), x)",
    "grad_safe_rms_small": "G(lambda v: o.safe_root_mean_squares(v, 0.5), z)",
    "grad_scale_gradient": "G(lambda v: (o.scale_gradient(v, 3.0) * y).sum(), x)",
    "grad_scale_gradient_zero": "G(lambda v: (o.scale_gradient(v, 0.0) * y).sum() + v.sum(), x)",
    "grad_scale_gradient_tree": "G(lambda v: (o.scale_gradient({'a': v, 'b': v}, -0.5)['b'] * y)"
    ".sum(), x)",
}


def helper_inputs(dtype: str) -> dict[str, np.ndarray]:
    """x, y (float64 values, rounded to ``dtype`` by the caller) and z (zeros)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 5)) * np.exp2(rng.integers(-3, 4, (4, 5)))
    y = np.abs(rng.standard_normal((4, 5)))
    return {"x": x, "y": y, "z": np.zeros((4, 5)), "T": (y > 0.8).reshape(2, 2, 5) * 1.0}


#: transformations whose state holds a typed PRNG key (replayed by ``noise_replay``)
NOISE_CASES = (
    "o.chain(o.add_noise(0.01, 0.55, 0), o.scale(-0.1))",
    "o.noisy_sgd(0.1, key=3)",
    "o.noisy_sgd(0.05, eta=0.1, gamma=0.3, key=o.tree_utils.tree_split_key_like(KEY, [0])[0])",
)


def noise_replay(o: Any, jnp: Any, random: Any, leaves: Any, expr: str, dtype: str) -> Any:
    """``expr`` run 100 steps on the plain gradients of ``dtype``: the bits of the parameters
    and of the state (typed keys as their key data) at the recorded steps. ``KEY`` in ``expr``
    is ``random.key(11)``."""
    from optim_cases import STEPS, bits, gradients, initial_params
    from optim_rest_cases import RECORD_STEPS

    tx = eval(expr, {"o": o, "jnp": jnp, "KEY": random.key(11)})
    params = {k: jnp.asarray(v) for k, v in initial_params(dtype).items()}
    state = tx.init(params)
    out: dict[str, Any] = {}
    for t in range(1, STEPS + 1):
        g = {k: jnp.asarray(v) for k, v in gradients(dtype, t).items()}
        updates, state = tx.update(g, state, params)
        params = o.apply_updates(params, updates)
        if t in RECORD_STEPS:
            plain = o.tree_utils.tree_unwrap_random_key_data(state)
            out[str(t)] = [bits(v) for v in [*leaves(params), *leaves(plain)]]
    return out
