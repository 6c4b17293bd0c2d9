"""optax 0.2.8 names ``trellax.optim`` gained in session 14 (``tree.get``/``set``,
``second_order``, ``projections``, the linear algebra helpers, ``multi_normal``, ``ctc_loss``,
``assignment``, ``microbatch``, ...), as expressions of ``o`` (optax or ``trellax.optim``),
``jnp``, ``jax`` (``jax`` or ``trellax``), ``keystr`` and the inputs of :func:`inputs`.

Shared by ``tools/gen_golden_optim_missing.py`` (run with optax) and
``tests/test_optim_missing.py``. A value is compared leaf by leaf (dtype, shape, values within the
case's relative tolerance, ``RTOL``; 0 means bit for bit); an expression that raises records the
error's class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: an optimizer state with several fields named ``count`` (an injected Adam after a decay)
STATE = (
    "o.chain(o.add_decayed_weights(0.1), o.inject_hyperparams(o.adam)(learning_rate=0.1))"
    ".init({'a': x[0, :2], 'count': x[1, :1]})"
)


#: a least-squares loss ``loss(params, inputs, targets)`` with a sine (a non-constant Hessian)
LOSS = "(lambda p, i, t: jnp.sum((jnp.sin(i @ p['w']) + p['b'] - t) ** 2))"

#: a one-hot argmax of every leaf (piecewise constant: only perturbations make it smooth)
ARGMAX = "(lambda t: jax.tree.map(lambda z: jax.nn.one_hot(jnp.argmax(z), z.shape[-1]), t))"

#: index arrays as plain int32 arrays
STRONG = "(lambda t: tuple(jnp.asarray(a, jnp.int32) for a in t))"

#: CTC arguments: logits, their paddings, labels, their paddings
CTC = "L, LP, LB, LBP"


def _paths(expr: str) -> str:
    return f"[(keystr(p), v) for p, v in {expr}]"


CASES: dict[str, str] = {
    # optax.tree lookups
    "tree_get_all_count": _paths(f"o.tree.get_all_with_path({STATE}, 'count')"),
    "tree_get_all_lr": _paths(f"o.tree.get_all_with_path({STATE}, 'learning_rate')"),
    "tree_get_all_class": _paths(f"o.tree.get_all_with_path({STATE}, 'ScaleByAdamState')"),
    "tree_get_all_mu": _paths(f"o.tree.get_all_with_path({STATE}, 'mu')"),
    "tree_get_all_nested": _paths("o.tree.get_all_with_path({'x': {'x': x[0, 0]}}, 'x')"),
    "tree_get_all_order": _paths(
        "o.tree.get_all_with_path({'a': {'count': x[0, 0]}, 'b': [{'count': x[0, 1]}], "
        "'count': x[0, 2]}, 'count')"
    ),
    "tree_get_all_none": _paths("o.tree.get_all_with_path({'a': None, 'b': (None,)}, 'a')"),
    "tree_get_all_index": _paths("o.tree.get_all_with_path((x[0, 0], x[0, 1]), 0)"),
    "tree_get_all_filtered": _paths(
        f"o.tree.get_all_with_path({STATE}, 'count', "
        "lambda p, v: isinstance(p[-1], o.tree_utils.NamedTupleKey) "
        "and p[-1].tuple_name == 'ScaleByAdamState')"
    ),
    "tree_get_lr": f"o.tree.get({STATE}, 'learning_rate')",
    "tree_get_default": f"o.tree.get({STATE}, 'nope', 'absent')",
    "tree_get_multiple": f"o.tree.get({STATE}, 'count')",
    "tree_get_filtered": f"o.tree.get({STATE}, 'count', None, "
    "lambda p, v: keystr(p).endswith('ScaleByAdamState.count'))",
    "tree_set_lr": f"o.tree.set({STATE}, learning_rate=jnp.asarray(3.0))",
    "tree_set_class": f"o.tree.set({STATE}, ScaleByAdamState=jnp.asarray(1.0))",
    "tree_set_missing": f"o.tree.set({STATE}, nope=1.0)",
    "tree_set_subtree": "o.tree.set({'x': {'y': x[0, 0], 'z': x[0, 1]}, 'w': x[0, 2]}, x=x[1, 1])",
    "tree_set_filtered_missing": f"o.tree.set({STATE}, lambda p, v: False, count=1.0)",
    "tree_utils_get": f"o.tree_utils.tree_get({STATE}, 'eps')",
    "tree_utils_set": f"o.tree_utils.tree_set({STATE}, eps=jnp.asarray(0.5))",
    "tree_map_params": "o.tree.map_params(o.adam(1e-2), lambda p: p + 1, "
    "o.adam(1e-2).init({'a': x}), transform_non_params=lambda v: v - 1)",
    "named_tuple_key": "str(o.tree_utils.NamedTupleKey('A', 'b'))",
    # optax.projections (T: a tree of three leaves)
    "proj_non_negative": "o.projections.projection_non_negative(T)",
    "proj_box": "o.projections.projection_box(T, -0.5, 0.5)",
    "proj_box_leaf": "o.projections.projection_box(x, -0.5, 0.5)",
    "proj_box_tree": "o.projections.projection_box(x, x * 0 - 0.2, y * 0 + 0.3)",
    "proj_box_int": "o.projections.projection_box(1, 0.0, 1)",
    "proj_hypercube": "o.projections.projection_hypercube(T, 0.7)",
    "proj_hypercube_leaf": "o.projections.projection_hypercube(x, 0.7)",
    "proj_simplex": "o.projections.projection_simplex(T)",
    "proj_simplex_2d": "o.projections.projection_simplex(x, 2.0)",
    "proj_simplex_vector": "o.projections.projection_simplex(x[0])",
    "proj_l1_sphere": "o.projections.projection_l1_sphere(T, 1.5)",
    "proj_l1_ball_out": "o.projections.projection_l1_ball(T, 0.5)",
    "proj_l1_ball_in": "o.projections.projection_l1_ball(T, 100.0)",
    "proj_l2_sphere": "o.projections.projection_l2_sphere(T, 2.0)",
    "proj_l2_sphere_float": "o.projections.projection_l2_sphere({'a': x[0], 'b': 1.0}, 2.0)",
    "proj_l2_ball_out": "o.projections.projection_l2_ball(T, 0.5)",
    "proj_l2_ball_in": "o.projections.projection_l2_ball(T, 100.0)",
    "proj_linf_ball": "o.projections.projection_linf_ball(T, 0.4)",
    "proj_hyperplane": "o.projections.projection_hyperplane(T, U, 0.3)",
    "proj_halfspace_out": "o.projections.projection_halfspace(T, U, -5.0)",
    "proj_halfspace_in": "o.projections.projection_halfspace(T, U, 50.0)",
    "proj_vector": "o.projections.projection_vector(T, U)",
    # optax.second_order (a least-squares loss of a two-leaf model)
    "second_order_hvp": f"o.second_order.hvp({LOSS}, y[0, :4], {{'w': x[0, :3], 'b': x[1, 0]}}, "
    "x[2:, :3], y[2:, 0])",
    "second_order_hessian_diag": f"o.second_order.hessian_diag({LOSS}, "
    "{'w': x[0, :3], 'b': x[1, 0]}, x[2:, :3], y[2:, 0])",
    "second_order_fisher_diag": f"o.second_order.fisher_diag({LOSS}, "
    "{'w': x[0, :3], 'b': x[1, 0]}, x[2:, :3], y[2:, 0])",
    # linear algebra
    "power_iteration": "o.power_iteration(S)",
    "power_iteration_v0": "o.power_iteration(S, v0=jnp.ones(5), num_iters=3)",
    "power_iteration_key": "o.power_iteration(S, key=jax.random.PRNGKey(3), error_tolerance=1e-3)",
    "power_iteration_tree": "o.power_iteration(lambda t: {'a': S[:2, :2] @ t['a']}, "
    "v0={'a': jnp.ones(2)})",
    "power_iteration_callable_no_v0": "o.power_iteration(lambda v: S @ v)",
    "matrix_inverse_pth_root_2": "o.matrix_inverse_pth_root(S, 2)",
    "matrix_inverse_pth_root_4": "o.matrix_inverse_pth_root(S, 4)",
    "matrix_inverse_pth_root_1": "o.matrix_inverse_pth_root(S, 1, ridge_epsilon=0.0)",
    "matrix_inverse_pth_root_1x1": "o.matrix_inverse_pth_root(S[:1, :1], 2)",
    "nnls": "o.nnls(x, y[:, 0], 2000)",
    "nnls_matrix": "o.nnls(x, y[:, :2], 2000)",
    "nnls_doc": "o.nnls(jnp.array([[1., 2.], [3., 4.]]), jnp.array([5., 6.]), 1000)",
    # multi_normal
    "multi_normal_sample": "o.multi_normal(x[0], x[1] * 0.1).sample((3,), jax.random.PRNGKey(0))",
    "multi_normal_log_prob": "o.multi_normal(x[0], x[1] * 0.1).log_prob(y[:2])",
    "multi_normal_params": "o.multi_normal(x[0], x[1] * 0.1).params",
    "multi_normal_log_scale": "o.multi_normal(x[0, 0], x[1] * 0.1).log_scale",
    # CTC (L: logits (2, 6, 4); label 2 repeated in the first row; padded frames and labels)
    "ctc_loss": f"o.ctc_loss({CTC})",
    "ctc_loss_blank2": f"o.ctc_loss({CTC}, blank_id=2)",
    "ctc_loss_losses": f"o.losses.ctc_loss({CTC}, log_epsilon=-1e4)",
    "ctc_forward_probs": f"o.ctc_loss_with_forward_probs({CTC})",
    "ctc_grad": f"jax.grad(lambda L: o.ctc_loss({CTC}).sum())(L)",
    "ctc_bad_rank": "o.ctc_loss(L[0], LP, LB, LBP)",
    # optax.perturbations (an argmax smoothed; its value, Jacobian and a loss's gradient)
    "pert_argmax": f"o.perturbations.make_perturbed_fun({ARGMAX}, 64, 0.5)"
    "(jax.random.PRNGKey(1), x[0])",
    "pert_argmax_normal": f"o.perturbations.make_perturbed_fun({ARGMAX}, 64, 0.5, "
    "o.perturbations.Normal())(jax.random.PRNGKey(1), x[0])",
    "pert_no_baseline": f"o.perturbations.make_perturbed_fun({ARGMAX}, 32, 1.0, "
    "use_baseline=False)(jax.random.PRNGKey(2), {'a': x[0], 'b': x[1, :3]})",
    "pert_jacobian": f"jax.jacobian(o.perturbations.make_perturbed_fun({ARGMAX}, 64, 0.5), "
    "argnums=1)(jax.random.PRNGKey(1), x[0])",
    "pert_grad_tree": "jax.grad(lambda v: o.tree.vdot(o.perturbations.make_perturbed_fun("
    f"{ARGMAX}, 32, 0.5)(jax.random.PRNGKey(3), v), {{'a': y[0], 'b': y[1, :3]}}))"
    "({'a': x[0], 'b': x[1, :3]})",
    "pert_log_probs": "(o.perturbations.Normal().log_prob(x), o.perturbations.Gumbel().log_prob(x))",
    # optax.assignment (index arrays taken as int32 arrays: optax's weak flags vary)
    "assign_square": f"{STRONG}(o.assignment.hungarian_algorithm(x[:, :4]))",
    "assign_wide": f"{STRONG}(o.assignment.hungarian_algorithm(x))",
    "assign_tall": f"{STRONG}(o.assignment.hungarian_algorithm(x.T))",
    "assign_ties": f"{STRONG}(o.assignment.hungarian_algorithm(jnp.round(x[:, :4])))",
    "assign_empty": f"{STRONG}(o.assignment.hungarian_algorithm(x[:0]))",
    "assign_jit": f"{STRONG}(jax.jit(o.assignment.hungarian_algorithm)(y))",
    "assign_vmap": f"{STRONG}(jax.vmap(o.assignment.hungarian_algorithm)(L))",
    "assign_base_square": f"{STRONG}(o.assignment.base_hungarian_algorithm(x[:, :4]))",
    "assign_base_wide": f"{STRONG}(o.assignment.base_hungarian_algorithm(x))",
    "assign_base_tall": f"{STRONG}(o.assignment.base_hungarian_algorithm(x.T))",
    # optax.contrib.reduce_on_plateau (the states and updates of 14 steps; PLATEAU values)
    "plateau_default": "PT(o, jnp, {}, PLATEAU, 'float32')",
    "plateau_patience": "PT(o, jnp, {'patience': 2, 'factor': 0.5}, PLATEAU, 'float32')",
    "plateau_cooldown": "PT(o, jnp, {'patience': 1, 'cooldown': 2, 'factor': 0.5, 'min_scale': 0.2}, "
    "PLATEAU, 'float32')",
    "plateau_accumulate": "PT(o, jnp, {'patience': 1, 'accumulation_size': 3, 'atol': 0.01, "
    "'rtol': 0.0}, PLATEAU, 'float32')",
    "plateau_bf16": "PT(o, jnp, {'patience': 2, 'factor': 0.3}, PLATEAU, 'bfloat16')",
    "plateau_jit": "PT(o, jnp, {'patience': 2, 'factor': 0.5}, PLATEAU, 'float32', jax.jit)",
    "plateau_bad_factor": "o.contrib.reduce_on_plateau(factor=1.5)",
    "plateau_bad_tol": "o.contrib.reduce_on_plateau(rtol=0.0, atol=0.0)",
    # optax.contrib's schedule-free family (10 steps on a quadratic; TR records params and state)
    "sf_adamw": "TR(o, jnp, o.contrib.schedule_free_adamw(1e-2), 'float32')",
    "sf_adamw_options": "TR(o, jnp, o.contrib.schedule_free_adamw(3e-2, warmup_steps=4, b1=0.8, "
    "weight_decay=1e-2), 'float32')",
    "sf_adamw_bf16": "TR(o, jnp, o.contrib.schedule_free_adamw(1e-2), 'bfloat16')",
    "sf_adamw_state_dtype": "TR(o, jnp, o.contrib.schedule_free_adamw(1e-2, "
    "state_dtype=jnp.float32), 'bfloat16')",
    "sf_sgd": "TR(o, jnp, o.contrib.schedule_free_sgd(0.1), 'float32')",
    "sf_sgd_decay": "TR(o, jnp, o.contrib.schedule_free_sgd(0.1, warmup_steps=3, "
    "weight_decay=1e-3), 'float32')",
    "sf_wrap_adam": "TR(o, jnp, o.contrib.schedule_free(o.adam(1e-2), 1e-2, b1=0.95), 'float32')",
    "sf_jit": "TR(o, jnp, o.contrib.schedule_free_adamw(1e-2), 'float32', jax.jit)",
    "sf_eval_params": "(lambda t: o.contrib.schedule_free_eval_params(t[-1][1], t[-1][0]))"
    "(TR(o, jnp, o.contrib.schedule_free_adamw(1e-2), 'float32'))",
    "sf_eval_params_bad": "o.contrib.schedule_free_eval_params(o.adam(1e-2).init(x), x)",
    # optax.contrib.adopt (10 steps, TR)
    "adopt": "TR(o, jnp, o.contrib.adopt(1e-2), 'float32')",
    "adopt_options": "TR(o, jnp, o.contrib.adopt(3e-2, b1=0.8, b2=0.99, nesterov=True), 'float32')",
    "adopt_no_clip": "TR(o, jnp, o.contrib.adopt(1e-2, use_clipping=False), 'float32')",
    "adopt_bf16": "TR(o, jnp, o.contrib.adopt(1e-2, mu_dtype=jnp.float32), 'bfloat16')",
    "adopt_schedule": "TR(o, jnp, o.contrib.adopt(o.linear_schedule(1e-2, 1e-3, 8), "
    "clip_value_fn=lambda c: 0.5 + c * 0.1), 'float32')",
    # optax.contrib.madgrad (10 steps, TR)
    "madgrad": "TR(o, jnp, o.contrib.madgrad(1e-2), 'float32')",
    "madgrad_options": "TR(o, jnp, o.contrib.madgrad(3e-2, momentum=0.5, weight_decay=1e-2), "
    "'float32')",
    "madgrad_schedule": "TR(o, jnp, o.contrib.madgrad(o.linear_schedule(1e-2, 1e-3, 8)), "
    "'float32')",
    "madgrad_bf16": "TR(o, jnp, o.contrib.madgrad(1e-2), 'bfloat16')",
    # optax.contrib.sam and normalize (10 steps, TR; opaque mode with the loss's gradient)
    "normalize": "o.contrib.normalize().update({'a': x, 'b': y}, o.contrib.normalize().init(x))",
    "sam": "TR(o, jnp, o.contrib.sam(o.sgd(0.1), o.chain(o.contrib.normalize(), o.sgd(0.05))), "
    "'float32')",
    "sam_period3": "TR(o, jnp, o.contrib.sam(o.adam(0.05), o.sgd(0.02), sync_period=3, "
    "reset_state=False), 'float32')",
    "sam_adam_adv": "TR(o, jnp, o.contrib.sam(o.sgd(0.1, momentum=0.9), o.adam(0.01)), 'float32')",
    "sam_opaque": "TR(o, jnp, o.contrib.sam(o.sgd(0.1), o.chain(o.contrib.normalize(), "
    "o.sgd(0.05)), sync_period=3, opaque_mode=True), 'float32', lambda u: (lambda g, s, p: "
    "u(g, s, p, grad_fn=lambda q, i: {'w': 2 * (q['w'] - 0.5), 'b': 2 * q['b']})))",
    "sam_bad_period": "o.contrib.sam(o.sgd(0.1), o.sgd(0.1), sync_period=0)",
    # optax.contrib.prodigy (10 steps, TR)
    "prodigy": "TR(o, jnp, o.contrib.prodigy(), 'float32')",
    "prodigy_options": "TR(o, jnp, o.contrib.prodigy(0.5, betas=(0.8, 0.99), weight_decay=1e-2, "
    "estim_lr0=1e-3), 'float32')",
    "prodigy_safeguard": "TR(o, jnp, o.contrib.prodigy(safeguard_warmup=True, beta3=0.9), "
    "'float32')",
    "prodigy_bf16": "TR(o, jnp, o.contrib.prodigy(), 'bfloat16')",
    # optax.contrib.dadapt_adamw (10 steps, TR)
    "dadapt": "TR(o, jnp, o.contrib.dadapt_adamw(), 'float32')",
    "dadapt_options": "TR(o, jnp, o.contrib.dadapt_adamw(0.5, betas=(0.8, 0.99), "
    "weight_decay=1e-2, estim_lr0=1e-3), 'float32')",
    "dadapt_bf16": "TR(o, jnp, o.contrib.dadapt_adamw(), 'bfloat16')",
    # optax.transforms' own names
    "transforms_unitwise_norm": "o.transforms.unitwise_norm(x)",
    "transforms_unitwise_clip": "o.transforms.unitwise_clip(x * 0 + 2.0, x * 0 + 1.0, y)",
    "transforms_chain": "(lambda t: t.update({'a': x}, t.init({'a': x}))[0])"
    "(o.transforms.chain(o.transforms.clip(0.1), o.sgd(1.0)))",
}

#: tolerance per case, relative to the largest magnitude of the expected leaf (the default is bit
#: for bit): sums in another order (vdots, the CTC recursion's log-adds), ``x * s + m`` that XLA
#: contracts to one rounding, and iterative solvers (measured at most 8.2e-7 on this host)
RTOL: dict[str, float] = {
    "ctc_forward_probs": 1e-6,
    "ctc_grad": 1e-6,
    "ctc_loss_blank2": 1e-6,
    "matrix_inverse_pth_root_1": 1e-6,
    "matrix_inverse_pth_root_2": 1e-6,
    "matrix_inverse_pth_root_4": 1e-6,
    "multi_normal_log_prob": 1e-6,
    "multi_normal_sample": 1e-6,
    "nnls": 1e-6,
    "nnls_matrix": 1e-6,
    "pert_grad_tree": 1e-6,
    "pert_jacobian": 1e-6,
    "pert_log_probs": 1e-6,
    "power_iteration": 1e-6,
    "power_iteration_key": 1e-6,
    "power_iteration_tree": 1e-6,
    "power_iteration_v0": 1e-6,
    "proj_halfspace_out": 1e-6,
    "proj_hyperplane": 1e-6,
    "proj_l1_sphere": 1e-6,
    "proj_vector": 1e-6,
    "second_order_hessian_diag": 1e-6,
    "second_order_hvp": 1e-6,
    "sf_jit": 1e-6,
    "madgrad": 1e-6,
    "madgrad_options": 1e-6,
    "dadapt": 1e-6,
}


#: the losses fed to reduce_on_plateau: a fall, a plateau, a small dip, another plateau
PLATEAU = [5.0, 4.0, 3.9, 3.9, 3.95, 3.9, 3.9, 3.5, 3.5, 3.5, 3.5, 3.6, 3.5, 3.5]


def plateau_trajectory(
    o: Any, jnp: Any, kwargs: dict[str, Any], values: list[float], dtype: str, wrap: Any = None
) -> list[Any]:
    """``(updates, state)`` after each value of ``values`` fed to ``o.contrib.reduce_on_plateau``
    (``wrap``, e.g. ``jit``, applied to its update)."""
    opt = o.contrib.reduce_on_plateau(**kwargs)
    params = {"w": jnp.ones(3, dtype)}
    state = opt.init(params)
    update = opt.update if wrap is None else wrap(opt.update)
    out = []
    for v in values:
        updates, state = update(params, state, value=jnp.asarray(v))
        out.append((updates, state))
    return out


def trajectory(
    o: Any, jnp: Any, opt: Any, dtype: str, wrap: Any = None, steps: int = 10
) -> list[Any]:
    """``(params, state)`` after each of ``steps`` updates of ``opt`` on the loss
    ``sum((w - 0.5)**2) + sum(b**2)`` from fixed starting parameters of ``dtype``."""
    params = {
        "w": jnp.asarray([0.3, -1.2, 2.5, 0.01], dtype),
        "b": jnp.asarray([1.5, -0.25], dtype),
    }
    state = opt.init(params)
    update = opt.update if wrap is None else wrap(opt.update)
    out = []
    for _ in range(steps):
        grads = {"w": 2 * (params["w"] - 0.5), "b": 2 * params["b"]}
        updates, state = update(grads, state, params)
        params = o.apply_updates(params, updates)
        out.append((params, state))
    return out


def inputs() -> dict[str, Any]:
    """The arrays the expressions use (NumPy; converted with ``jnp.asarray``)."""
    rng = np.random.default_rng(14)
    x = rng.normal(size=(4, 5)).astype(np.float32)
    return {
        "x": x,
        "T": {"a": x[0], "b": x[1, :2] * 0.3, "c": x[2:, :2]},
        "U": {"a": x[3], "b": x[2, :2], "c": x[:2, 3:]},
        "L": rng.normal(size=(2, 6, 4)).astype(np.float32),
        "LP": np.array([[0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0]], np.float32),
        "LB": np.array([[1, 2, 2], [3, 1, 0]], np.int32),
        "LBP": np.array([[0, 0, 0], [0, 0, 1]], np.float32),
        "y": rng.normal(size=(4, 5)).astype(np.float32),
        "S": (lambda a: (a @ a.T + 5 * np.eye(5)).astype(np.float32))(rng.normal(size=(5, 5))),
    }


def record(value: Any, leaves_of: Any, treedef_of: Any) -> dict[str, Any]:
    """A JSON record of a value: its tree structure's text and its leaves (dtype, shape,
    float64 values); strings and other non-array leaves by ``repr``."""
    out = []
    for leaf in leaves_of(value):
        if isinstance(leaf, str):
            out.append(["str", [], leaf])
            continue
        a = np.asarray(leaf)
        kind = "weak" if getattr(leaf, "weak_type", False) else ""
        if isinstance(leaf, (bool, int, float)):
            kind = type(leaf).__name__
        out.append(
            [
                str(a.dtype) + (f"|{kind}" if kind else ""),
                list(a.shape),
                np.asarray(a, np.float64).ravel().tolist(),
            ]
        )
    return {"tree": str(treedef_of(value)), "leaves": out}
