"""optax 0.2.8's ``contrib`` optimizers that ``trellax.optim.contrib`` gained in session 15, as
100-step trajectories: each case is an expression of ``o`` (optax or ``trellax.optim``) and
``jnp`` giving a gradient transformation, run by :func:`trajectory` with the case's options.

Shared by ``tools/gen_golden_optim_contrib.py`` (run with optax) and
``tests/test_optim_contrib.py``. The parameters after every step and the final state are
recorded; a case is compared bit for bit unless ``ULPS`` bounds it, in units in the last place
of the largest magnitude of the expected leaf (the leaf's dtype).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: name -> (transformation expression, parameter dtype, trajectory kind)
#: kinds: "plain" (grads only), "value" (update(..., value=loss)), "obj" (obj_fn=loss),
#: "batch" (per-example gradients with a leading axis of 3), "matrix" (the 3x4 matrix alone)
CASES: dict[str, tuple[str, str, str]] = {
    "acprop": ("o.contrib.acprop(1e-2)", "float32", "plain"),
    "acprop_options": (
        "o.contrib.acprop(3e-2, b1=0.8, b2=0.99, eps=1e-8, weight_decay=1e-2)",
        "float32",
        "plain",
    ),
    "acprop_bf16": ("o.contrib.acprop(1e-2)", "bfloat16", "plain"),
    "ademamix": ("o.contrib.ademamix(1e-2)", "float32", "plain"),
    "ademamix_options": (
        "o.contrib.ademamix(3e-2, b1=0.8, b3=o.linear_schedule(0.9, 0.999, 50), "
        "alpha=o.linear_schedule(0.0, 5.0, 50), eps_root=1e-8, weight_decay=1e-2)",
        "float32",
        "plain",
    ),
    "ademamix_bf16": ("o.contrib.ademamix(1e-2)", "bfloat16", "plain"),
    "ademamix_mu_dtype": (
        "o.contrib.ademamix(1e-2, mu_dtype=jnp.float32)",
        "bfloat16",
        "plain",
    ),
    "simplified_ademamix": ("o.contrib.simplified_ademamix(1e-2)", "float32", "plain"),
    "simplified_ademamix_options": (
        "o.contrib.simplified_ademamix(1e-3, b1=0.9, b2=0.99, alpha=2.0, weight_decay=1e-2)",
        "float32",
        "plain",
    ),
    "simplified_ademamix_bf16": ("o.contrib.simplified_ademamix(1e-2)", "bfloat16", "plain"),
    "cocob": ("o.contrib.cocob()", "float32", "plain"),
    "cocob_options": ("o.contrib.cocob(0.5, alpha=10.0, weight_decay=1e-2)", "float32", "plain"),
    "cocob_bf16": ("o.contrib.cocob()", "bfloat16", "plain"),
    "dog": ("o.contrib.dog()", "float32", "plain"),
    "dog_distance": ("o.contrib.dog(init_step=('distance', 0.1))", "float32", "plain"),
    "dog_lr": (
        "o.contrib.dog(0.5, init_step=('learning_rate', 1e-2), weight_decay=1e-3)",
        "float32",
        "plain",
    ),
    "dog_bf16": ("o.contrib.dog()", "bfloat16", "plain"),
    "dowg": ("o.contrib.dowg()", "float32", "plain"),
    "dowg_options": (
        "o.contrib.dowg(0.5, init_estim_sq_dist=1e-2, weight_decay=1e-3)",
        "float32",
        "plain",
    ),
    "dowg_bf16": ("o.contrib.dowg()", "bfloat16", "plain"),
    "momo": ("o.contrib.momo(0.1)", "float32", "value"),
    "momo_options": (
        "o.contrib.momo(0.5, beta=0.8, lower_bound=0.1, weight_decay=1e-2, adapt_lower_bound=True)",
        "float32",
        "value",
    ),
    "momo_bf16": ("o.contrib.momo(0.1)", "bfloat16", "value"),
    "momo_adam": ("o.contrib.momo_adam(0.1)", "float32", "value"),
    "momo_adam_options": (
        "o.contrib.momo_adam(0.3, b1=0.8, b2=0.99, weight_decay=1e-2, adapt_lower_bound=True)",
        "float32",
        "value",
    ),
    "momo_adam_bf16": ("o.contrib.momo_adam(0.1)", "bfloat16", "value"),
    "mechanize_sgd": ("o.contrib.mechanize(o.sgd(1e-2))", "float32", "plain"),
    "mechanize_adam": (
        "o.contrib.mechanize(o.adam(1e-2), weight_decay=1e-3, num_betas=4)",
        "float32",
        "plain",
    ),
    "mechanize_bf16": ("o.contrib.mechanize(o.sgd(1e-2))", "bfloat16", "plain"),
    "split_adam": ("o.contrib.split_real_and_imaginary(o.adam(1e-2))", "complex64", "plain"),
    "split_sgd_real": ("o.contrib.split_real_and_imaginary(o.sgd(1e-2))", "float32", "plain"),
    "dp_aggregate": (
        "o.contrib.differentially_private_aggregate(0.5, 0.1, jax.random.key(3))",
        "float32",
        "batch",
    ),
    "dp_aggregate_seed": (
        "o.contrib.differentially_private_aggregate(0.5, 0.1, 7)",
        "float32",
        "batch",
    ),
    "dpsgd": ("o.contrib.dpsgd(1e-2, 1.0, 0.1, seed=5, momentum=0.9)", "float32", "batch"),
    "dpsgd_bf16": ("o.contrib.dpsgd(1e-2, 1.0, 0.1, seed=5)", "bfloat16", "batch"),
    "sophia": ("o.contrib.sophia(1e-2)", "float32", "obj"),
    "sophia_options": (
        "o.contrib.sophia(3e-2, b1=0.9, gamma=0.05, clip_threshold=0.5, update_interval=3, "
        "hessian_diagonal_fn=o.contrib.hutchinson_estimator_diag_hessian(jax.random.key(4)), "
        "mu_dtype=jnp.float32)",
        "float32",
        "obj",
    ),
    "muon": ("o.contrib.muon(1e-2)", "float32", "plain"),
    "muon_options": (
        "o.contrib.muon(3e-2, ns_coeffs='dion', beta=0.9, weight_decay=1e-2, nesterov=False, "
        "adaptive=True, adam_learning_rate=1e-2)",
        "float32",
        "plain",
    ),
    "muon_spectral": (
        "o.contrib.muon(1e-2, preconditioning='spectral', consistent_rms=0.2)",
        "float32",
        "plain",
    ),
    "muon_aol": ("o.contrib.muon(1e-2, preconditioning='aol')", "float32", "plain"),
    "muon_schatten": ("o.contrib.muon(1e-2, preconditioning='schatten')", "float32", "plain"),
    "muon_dims": (
        "o.contrib.muon(1e-2, muon_weight_dimension_numbers={'w': "
        "o.contrib.MuonDimensionNumbers(1, 0), 'b': None})",
        "float32",
        "plain",
    ),
    "muon_bf16": ("o.contrib.muon(1e-2, mu_dtype=jnp.float32)", "bfloat16", "plain"),
    "scale_by_muon_no_dims": ("o.contrib.scale_by_muon(ns_steps=3)", "float32", "matrix"),
    "scale_by_muon_alone": (
        "o.contrib.scale_by_muon(ns_steps=3, weight_dimension_numbers="
        "{'w': o.contrib.MuonDimensionNumbers()})",
        "float32",
        "matrix",
    ),
    "galore": ("o.contrib.galore(1e-2, rank=2, update_proj_gap=10)", "float32", "plain"),
    "galore_options": (
        "o.contrib.galore(1e-2, rank=1, update_proj_gap=7, scale=0.5, base_optimizer=o.sgd(1.0, "
        "momentum=0.9), weight_decay=1e-3, weight_dimension_numbers="
        "o.contrib.GaLoreDimensionNumbers(1, 0))",
        "float32",
        "plain",
    ),
    "galore_bf16": ("o.contrib.galore(1e-2, rank=2, update_proj_gap=10)", "bfloat16", "plain"),
    "scale_by_acprop": ("o.contrib.scale_by_acprop(b1=0.7)", "float32", "plain"),
    "scale_by_ademamix": ("o.contrib.scale_by_ademamix(alpha=2.0)", "float32", "plain"),
    "scale_by_adopt": ("o.contrib.scale_by_adopt(nesterov=True)", "float32", "plain"),
    "scale_by_cocob": ("o.contrib.scale_by_cocob(alpha=50.0)", "float32", "plain"),
    "scale_by_galore": (
        "o.contrib.scale_by_galore(rank=2, update_proj_gap=5, base_optimizer=o.sgd(0.05))",
        "float32",
        "plain",
    ),
    "scale_by_madgrad": ("o.contrib.scale_by_madgrad(1e-2)", "float32", "plain"),
    "scale_by_simplified_ademamix": (
        "o.contrib.scale_by_simplified_ademamix(alpha=1.0)",
        "float32",
        "plain",
    ),
    "sophia_bf16": ("o.contrib.sophia(1e-2, mu_dtype=jnp.float32)", "bfloat16", "obj"),
}


#: ``optax.microbatching``: expressions of ``o``, ``jnp``, ``M`` (``o.microbatching``), ``X``
#: (a 12x3 float32 batch) and ``W`` (3 weights), compared like the trajectories
MICRO: dict[str, str] = {
    "mb_sum": "M.microbatch(lambda x: jnp.sum(x ** 2, axis=0), 0, 4)(X)",
    "mb_mean": "M.microbatch(lambda x: jnp.mean(x, axis=0), 0, 3, M.AccumulationType.MEAN)(X)",
    "mb_running_mean": "M.microbatch(lambda x: jnp.mean(x, axis=0), 0, 6, "
    "M.AccumulationType.RUNNING_MEAN)(X)",
    "mb_concat": "M.microbatch(lambda x: x * 2 + 1, 0, 4, M.AccumulationType.CONCAT)(X)",
    "mb_tree": "M.microbatch(lambda x, w: {'s': jnp.sum(x @ w), 'c': x @ w}, 0, 4, "
    "{'s': M.AccumulationType.SUM, 'c': M.AccumulationType.CONCAT})(X, W)",
    "mb_kwargs": "M.microbatch(lambda w, *, x: jnp.sum(x * w), (), 2, argnames='x')(W, x=X)",
    "mb_axis1": "M.microbatch(lambda x: jnp.sum(x, axis=1), 0, 4, M.AccumulationType.CONCAT, "
    "in_axes=1)(X.T)",
    "mb_early_stop": "M.microbatch(lambda x: jnp.sum(x, axis=0), 0, 3, num_real_microbatches=2)(X)",
    "mb_none": "M.microbatch(lambda x: x + 1, 0, None)(X)",
    "mb_bad_size": "M.microbatch(lambda x: x, 0, 5)(X)",
    "mb_int_mean": "M.microbatch(lambda x: x, 0, 4, M.AccumulationType.MEAN)(jnp.ones((8, 2), "
    "jnp.int32))",
    "mb_reshape": "M.reshape_batch_axis({'a': X, 'b': X[:, 0]}, 4)",
    "micro_vmap": "M.micro_vmap(lambda x, w: jnp.tanh(x @ w), in_axes=(0, None), "
    "microbatch_size=3)(X, W)",
    "micro_vmap_sum": "M.micro_vmap(lambda x: x * x, microbatch_size=4, "
    "accumulator=M.AccumulationType.SUM)(X)",
    "micro_grad": "M.micro_grad(lambda w, x: jnp.sum(jnp.tanh(x @ w) ** 2), microbatch_size=4)"
    "(W, X)",
    "micro_grad_mean_aux": "M.micro_grad(lambda w, x: (jnp.sum((x @ w) ** 2), x[0]), "
    "has_aux=True, microbatch_size=6, accumulator=M.AccumulationType.MEAN, "
    "metrics_fn=lambda g: jnp.sum(g ** 2), keep_batch_dim=False)(W, X[:, None, :])",
    "micro_grad_clip": "M.micro_grad(lambda w, x: jnp.sum(jnp.sin(x @ w)), microbatch_size=3, "
    "transform_fn=lambda g: g / jnp.maximum(1.0, jnp.linalg.norm(g)))(W, X)",
    "top_level_microbatch": "o.microbatch(lambda x: jnp.max(x, axis=0), 0, 2)(X)",
    # optax.experimental.aggregating (A): AGG runs 6 steps of per-element gradients
    "agg_mean_variance": "AGG(A.add_mean_variance_to_opt(o.sgd(0.1), ema_decay=0.8))",
    "agg_mean_variance_accumulate": "AGG(A.add_mean_variance_to_opt(o.adam(0.1), "
    "accumulation_steps=3))",
    "agg_incremental": "AGG(A.process(o.identity(), A.average_incrementally_updates(0, 2), "
    "o.sgd(0.1)))",
    "agg_accumulate_plain": "AGG(A.process(o.clip(0.5), A.average_incrementally_updates(None, "
    "3), o.sgd(0.1)))",
    "agg_unbiased": "A.get_unbiased_mean_and_variance_ema(AGG(A.add_mean_variance_to_opt("
    "o.sgd(0.1)))[1])",
    "agg_batch_size": "A.get_batch_size_from_per_elt_updates({'a': X, 'b': X[:, :2]}, 0)",
    "agg_batch_size_bad": "A.get_batch_size_from_per_elt_updates({'a': X, 'b': X.T}, 0)",
}


def aggregate_run(o: Any, jnp: Any, opt: Any, x: Any, steps: int = 6) -> Any:
    """``(params, state)`` after ``steps`` updates of ``opt`` given per-element gradients: the
    12 rows of ``x`` times the parameters ``w`` (3 weights, from 1)."""
    w = jnp.ones(3, jnp.float32)
    state = opt.init(w)
    for k in range(steps):
        per_elt = x * w + 0.1 * k
        updates, state = opt.update(per_elt, state, w)
        w = o.apply_updates(w, updates)
    return w, state


def micro_inputs(jnp: Any) -> dict[str, Any]:
    """``X`` and ``W`` of :data:`MICRO`."""
    rng = np.random.default_rng(15)
    return {
        "X": jnp.asarray(rng.normal(size=(12, 3)).astype(np.float32)),
        "W": jnp.asarray(np.array([0.5, -1.0, 0.25], np.float32)),
    }


def params_of(jnp: Any, dtype: str) -> dict[str, Any]:
    """The starting parameters: a 3x4 matrix ``w`` and a vector ``b`` of 2."""
    w = np.array(
        [[0.3, -1.2, 2.5, 0.01], [1.1, 0.2, -0.7, 0.45], [-0.3, 0.9, 1.7, -2.2]], np.float32
    )
    b = np.array([1.5, -0.25], np.float32)
    if dtype == "complex64":
        return {"w": jnp.asarray(w + 0.5j * w[::-1], dtype), "b": jnp.asarray(b - 0.3j, dtype)}
    return {"w": jnp.asarray(w, dtype), "b": jnp.asarray(b, dtype)}


def loss_of(jnp: Any) -> Any:
    """``sum(c (w - 0.5)**2) + sum(b**4) / 4`` with per-row weights ``c`` (1, 2, 0.5)."""

    def loss(p: dict[str, Any]) -> Any:
        c = jnp.asarray([[1.0], [2.0], [0.5]], p["w"].dtype)
        return jnp.sum(c * (p["w"] - 0.5) ** 2) + jnp.sum(p["b"] ** 4) / 4

    return loss


def grads_of(jnp: Any, p: dict[str, Any], batch: bool) -> dict[str, Any]:
    """The loss's gradient, written out (the same operations in both libraries); ``batch``
    stacks it three times with the factors 1, 2 and 0.5 (per-example gradients)."""
    c = jnp.asarray([[1.0], [2.0], [0.5]], p["w"].dtype)
    g = {"w": 2 * c * (p["w"] - 0.5)}
    if "b" in p:
        g["b"] = p["b"] ** 3
    if not batch:
        return g
    return {k: jnp.stack([v, 2 * v, 0.5 * v]) for k, v in g.items()}


def trajectory(o: Any, jnp: Any, opt: Any, dtype: str, kind: str, steps: int = 100) -> Any:
    """``(params after each step, final state)`` of ``steps`` updates of ``opt``."""
    params = params_of(jnp, dtype)
    if kind == "matrix":  # the matrix alone
        params = {"w": params["w"]}
    loss = loss_of(jnp)
    state = opt.init(params)
    out = []
    for _ in range(steps):
        grads = grads_of(jnp, params, kind == "batch")
        if kind == "value":
            updates, state = opt.update(grads, state, params, value=loss(params))
        elif kind == "obj":
            updates, state = opt.update(grads, state, params, obj_fn=loss)
        else:
            updates, state = opt.update(grads, state, params)
        params = o.apply_updates(params, updates)
        out.append(params)
    return out, state


#: bound per case in ulps of the largest expected magnitude of each leaf (default: bit for bit),
#: measured on this host: the Gaussian noise of the DP cases (2), the Hessian-vector products of
#: jvp(grad) feeding Sophia's estimate (1 and 5), MoMo's adapted lower bound (1, the final state)
#: Muon's and GaLore's matrix products (NumPy's order, not XLA's dot emitter's) and GaLore's SVD
#: put them within 2-10 ulps; muon_options' bound is its final momentum's (entries at most
#: 0.0098 that inherit the parameters' differences of 6.6e-7, 11 ulps of their 0.56). Since
#: ``jnp.sum`` takes XLA's order (backend/sum_order.py) the (3, 4) norms' sums round otherwise
#: than jitted optax's fused squares: muon_options 700 -> 1207.5, scale_by_muon_alone 4.5 -> 5
ULPS: dict[str, float] = {
    "muon": 3.0,
    "muon_options": 1207.5,
    "muon_spectral": 2.0,
    "muon_aol": 4.0,
    "muon_schatten": 2.0,
    "muon_dims": 2.0,
    "scale_by_muon_alone": 5.0,
    "galore": 6.0,
    "galore_options": 10.0,
    "scale_by_galore": 4.0,
    # madgrad's cube root and weighted sums (its aliases in tests/test_optim_missing.py: 1e-6)
    "scale_by_madgrad": 5.0,
    "dp_aggregate": 2.0,
    "dp_aggregate_seed": 2.0,
    "momo_options": 1.0,
    "sophia": 1.0,
    "sophia_options": 5.0,
}


def record(value: Any, leaves_of: Any, treedef_of: Any, key_data: Any) -> dict[str, Any]:
    """A JSON record of a value: its tree structure's text and its leaves (dtype, shape,
    float64 values; complex leaves as real and imaginary parts; typed keys as their
    ``key_data``)."""
    out = []
    for leaf in leaves_of(value):
        name = str(getattr(leaf, "dtype", ""))
        kind = "|weak" if getattr(leaf, "weak_type", False) else ""
        if name.startswith("key"):
            a = np.asarray(key_data(leaf))
            out.append([name, list(a.shape), np.asarray(a, np.float64).ravel().tolist()])
            continue
        a = np.asarray(leaf)
        if np.iscomplexobj(a):
            flat = np.concatenate([a.real.ravel(), a.imag.ravel()]).astype(np.float64)
        else:
            flat = np.asarray(a, np.float64).ravel()
        out.append([str(a.dtype) + kind, list(a.shape), flat.tolist()])
    return {"tree": str(treedef_of(value)), "leaves": out}
