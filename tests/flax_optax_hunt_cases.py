"""Programs pinning what ``tools/probe_flax_optax.py`` (the Flax/optax differential probe) found.

Each program uses the names of ``probe_batch3_cases.names`` plus ``jax_utils`` and leaves its
answer in ``out``; ``tools/gen_golden_flax_optax_hunt.py`` runs them with JAX 0.10.2 / Flax
0.12.8 / optax 0.2.8 into ``tests/golden/flax_optax_hunt.json`` and
``tests/test_flax_optax_hunt.py`` replays them on trellax with ``probe_batch3_cases.classify``.
"""

from __future__ import annotations

import importlib
from typing import Any

from probe_batch3_cases import names

PROGRAMS: dict[str, str] = {}


def _add(name: str, src: str) -> None:
    assert name not in PROGRAMS, name
    PROGRAMS[name] = src


def env(jax: Any, optax: Any, flax: Any) -> dict[str, Any]:
    """``probe_batch3_cases.names`` and Flax's ``jax_utils`` and ``traverse_util``."""
    out = names(jax, optax, flax)
    out["jax_utils"] = importlib.import_module(f"{flax.__name__}.jax_utils")
    out["traverse_util"] = importlib.import_module(f"{flax.__name__}.traverse_util")
    return out


# ---- flax.jax_utils.replicate: leaves become strongly typed arrays of canonical dtype
_add(
    "replicate/leaf_kinds",
    "out = jax_utils.replicate({'f': 2.0, 'np64': np.float64(1.5), 'i': 3, 'b': True, "
    "'arr64': np.arange(2.0), 'j': jnp.ones(2), 'w': jnp.asarray(1.0)})",
)
_add(
    "replicate/roundtrip", "out = jax_utils.unreplicate(jax_utils.replicate({'a': 2.0, 'n': [1]}))"
)

# ---- MultiHeadDotProductAttention: heads that do not divide the features
_add(
    "mha/heads_not_dividing",
    "m = nn.MultiHeadDotProductAttention(num_heads=3)\n"
    "out = m.init(jax.random.key(0), jnp.ones((2, 3, 4)))",
)

# ---- optax.tree / optax.tree_utils
_TREES = """
T1 = {'a': jnp.array([1.0, -2.0]), 'b': {'c': jnp.array([[0.5, 3.0]])}}
T2 = {'a': jnp.array([0.5, 4.0]), 'b': {'c': jnp.array([[2.0, -1.0]])}}
TI = {'a': jnp.arange(3), 'b': jnp.ones((2, 2), jnp.int32)}
TB = {'a': jnp.array([1.0, 2.0], jnp.bfloat16), 'e': jnp.zeros((0,))}
TC = {'z': jnp.array([3.0 + 4.0j, -1.0j], jnp.complex64)}
"""
_TREE_CALLS = {
    "add": "optax.tree.add(T1, T2, T1)",
    "sub": "optax.tree.sub(T1, T2)",
    "mul": "optax.tree.mul(T1, T2)",
    "div": "optax.tree.div(T1, T2)",
    "scale": "(optax.tree.scale(0.5, T1), optax.tree.scale(2, TB))",
    "add_scale": "(optax.tree.add_scale(T1, 2.0, T2), optax.tree.add_scale(TB, 3, TB))",
    "vdot": "(optax.tree.vdot(T1, T2), optax.tree.vdot(TI, TI), optax.tree.vdot(TC, TC), "
    "optax.tree.vdot({}, {}))",
    "sum": "(optax.tree.sum(T1), optax.tree.sum(TI), optax.tree.sum({}), optax.tree.sum(TB))",
    "max_min": "(optax.tree.max(T1), optax.tree.min(T1), optax.tree.max(TI), optax.tree.max(TB), "
    "optax.tree.min({'e': jnp.zeros(0)}))",
    "size": "(optax.tree.size(T1), optax.tree.size(TB), optax.tree.size({'s': 1.0}))",
    "conj_real": "(optax.tree.conj(TC), optax.tree.real(TC))",
    "norm": "(optax.tree.norm(T1), optax.tree.norm(T1, squared=True), optax.tree.norm(T1, ord=1), "
    "optax.tree.norm(T1, ord='inf'), optax.tree.norm(T1, ord=jnp.inf, squared=True), "
    "optax.tree.norm(TI), optax.tree.norm(TC), optax.tree.norm(TC, ord=1, squared=True))",
    "norm_bad_ord": "optax.tree.norm(T1, ord=3)",
    "like": "(optax.tree.zeros_like(T1), optax.tree.ones_like(TI, dtype=jnp.float16), "
    "optax.tree.full_like(TB, 7), optax.tree.full_like(T1, 2, dtype=jnp.int32))",
    "clip": "(optax.tree.clip(T1, -0.5, 0.5), optax.tree.clip(TI, None, 1), optax.tree.clip(T1, 0.0))",
    "moments": "(optax.tree.update_moment(T1, T2, 0.9, 2), "
    "optax.tree.update_infinity_moment(T1, T2, 0.9, 1e-8), "
    "optax.tree.update_moment_per_elem_norm(TC, optax.tree.real(TC), 0.5, 2), "
    "optax.tree.bias_correction(T1, 0.9, jnp.array(3)), optax.tree.bias_correction(TB, 0.9, 2))",
    "where": "(optax.tree.where(True, T1, T2), optax.tree.where(jnp.array([True, False]), "
    "{'x': jnp.ones(2)}, {'x': jnp.zeros(2)}))",
    "where_tree_condition": "optax.tree.where({'a': True}, {'a': jnp.ones(2)}, {'a': jnp.zeros(2)})",
    "allclose": "(optax.tree.allclose(T1, T1), optax.tree.allclose(T1, T2), optax.tree.allclose({}, {}), "
    "optax.tree.allclose(T1, optax.tree.add(T1, optax.tree.full_like(T1, 1e-3)), atol=1e-2))",
    "cast": "(optax.tree.cast(T1, jnp.bfloat16), optax.tree.cast(T1, None), "
    "optax.tree.cast_like(TI, optax.tree.cast(TI, jnp.float16)))",
    "dtype": "(optax.tree.dtype(T1), optax.tree.dtype({}), optax.tree.dtype({'a': 1.0}), "
    "optax.tree.dtype({'a': jnp.ones(1), 'b': jnp.ones(1, jnp.float16)}, 'highest'), "
    "optax.tree.dtype({'a': jnp.ones(1), 'b': jnp.ones(1, jnp.float16)}, 'lowest'), "
    "optax.tree.dtype({'a': jnp.ones(1, jnp.bfloat16), 'b': jnp.ones(1, jnp.float16)}, 'promote'))",
    "dtype_mixed": "optax.tree.dtype({'a': jnp.ones(1), 'b': jnp.ones(1, jnp.int32)})",
    "dtype_incomparable": "optax.tree.dtype({'a': jnp.ones(1, jnp.bfloat16), "
    "'b': jnp.ones(1, jnp.float16)}, 'highest')",
    "random_like": "optax.tree.random_like(jax.random.key(3), {'a': jnp.ones(2), "
    "'b': jnp.ones((2, 2), jnp.bfloat16)})",
    "random_like_uniform": "optax.tree.random_like(jax.random.key(3), T1, "
    "sampler=jax.random.uniform, dtype=jnp.float16)",
    "split_key_like": "jax.tree_util.tree_map(jax.random.key_data, "
    "optax.tree.split_key_like(jax.random.key(5), T1), "
    "is_leaf=lambda x: hasattr(x, 'dtype') and 'key' in str(x.dtype))",
    "batch_shape": "optax.tree.batch_shape(T1, (3,))",
    "tree_utils_names": "(optax.tree_utils.tree_add(T1, T2), optax.tree_utils.tree_l2_norm(T1), "
    "optax.tree_utils.tree_scalar_mul(2.0, T1), optax.tree_utils.tree_add_scalar_mul(T1, 2.0, T2), "
    "optax.tree_utils.tree_l1_norm(T1), optax.tree_utils.tree_norm(T1))",
}
for _name, _call in _TREE_CALLS.items():
    _add(f"tree/{_name}", _TREES + f"out = {_call}\n")

# ---- schedules that interpolate, and optax.schedules
_SCHED = """
s = optax.{call}
out = ([s(i) for i in range(14)], s(jnp.array(4)), s(jnp.array(4.5, jnp.float32)), s(2.5))
"""
for _call in (
    "cosine_onecycle_schedule(10, 1.0)",
    "cosine_onecycle_schedule(12, 2.0, pct_start=0.5, div_factor=10.0, final_div_factor=100.0)",
    "linear_onecycle_schedule(10, 1.0)",
    "linear_onecycle_schedule(9, 0.5, pct_start=0.2, pct_final=0.6)",
    "piecewise_interpolate_schedule('linear', 1.0, {2: 0.5, 5: 0.1})",
    "piecewise_interpolate_schedule('cosine', 1.0, {5: 0.1, 2: 0.5})",
    "piecewise_interpolate_schedule('linear', 2.0)",
    "piecewise_interpolate_schedule('cosine', 1.0, {3: 2.0, 3: 0.5, 0: 3.0})",
    "schedules.cosine_onecycle_schedule(8, 1.0)",
    "schedules.warmup_cosine_decay_schedule(0.0, 1.0, 2, 8)",
):
    _add(f"sched/{_call}", _SCHED.format(call=_call))
_add("sched/onecycle_vector_step", "out = optax.cosine_onecycle_schedule(10, 1.0)(jnp.arange(4))")
_add("sched/onecycle_zero_steps", "out = optax.linear_onecycle_schedule(0, 1.0)")
_add("sched/interp_bad_type", "out = optax.piecewise_interpolate_schedule('quadratic', 1.0)")
_add(
    "sched/interp_negative", "out = optax.piecewise_interpolate_schedule('linear', 1.0, {2: -1.0})"
)

# ---- optimizers optax has and trellax lacked
_STEP = """
params = {{'w': jnp.array([[1.0, -2.0], [0.5, 3.0]], {dt}), 'b': jnp.array([0.1, -0.2, 0.0], {dt})}}
def loss(p):
    w = p['w'].astype(jnp.float32)
    b = p['b'].astype(jnp.float32)
    return (w ** 2).sum() + (jnp.sin(b) * 3).sum() + w[0, 0] * b[0]
tx = optax.{opt}
state = tx.init(params)
trace = []
for _ in range(4):
    g = jax.grad(loss)(params)
    u, state = tx.update(g, state, params)
    params = optax.apply_updates(params, u)
    trace.append(u)
out = (params, state, trace)
"""
for _opt in (
    "nadam(0.1)",
    "nadam(0.1, 0.8, 0.99, 1e-6)",
    "nadamw(0.1)",
    "nadamw(0.1, weight_decay=0.3)",
    "sign_sgd(0.1)",
    "signum(0.1)",
    "signum(0.1, beta=0.5)",
    "scale_by_sign()",
    "adamaxw(0.1)",
    "adamaxw(0.1, weight_decay=0.5, mask={'w': True, 'b': False})",
    "apply_every(2)",
    "apply_every(3)",
    "chain(optax.apply_every(2), optax.sgd(0.1))",
    "conditionally_transform(optax.sgd(0.1, momentum=0.9), lambda step: step % 2 == 0)",
    "conditionally_mask(optax.adam(0.1), lambda step: step > 0)",
    "normalize_by_update_norm()",
    "normalize_by_update_norm(2.0, eps=0.5)",
    "chain(optax.normalize_by_update_norm(), optax.sgd(0.1))",
    "adadelta()",
    "adadelta(1.0, rho=0.5, eps=1e-3)",
    "adadelta(optax.linear_schedule(1.0, 0.1, 3), weight_decay=0.1)",
    "scale_by_adadelta()",
    "lars(0.1)",
    "lars(0.1, weight_decay=0.1, momentum=0.5, nesterov=True)",
    "lars(0.1, trust_ratio_mask={'w': True, 'b': False}, trust_coefficient=0.1, eps=1e-3)",
    "scale_by_learning_rate(None)",
    "adaptive_grad_clip(0.1)",
    "adaptive_grad_clip(0.5, eps=0.1)",
    "adaptive_grad_clip(0.01)",
    "flatten(optax.adam(0.1))",
    "optimistic_gradient_descent(0.1)",
    "optimistic_gradient_descent(0.1, alpha=0.5, beta=0.3)",
    "flatten(optax.chain(optax.clip_by_global_norm(0.5), optax.sgd(0.1, momentum=0.9)))",
):
    for _dt in ("jnp.float32", "jnp.bfloat16"):
        _add(f"opt/{_opt}/{_dt}", _STEP.format(opt=_opt, dt=_dt))

# ---- rprop: optax 0.2.8 returns each step's update one step late (zeros first); trellax
# returns the current step's, so trellax's update k equals JAX's update k + 1 (the test shifts)
_RPROP = """
params = {{'w': jnp.array([[1.0, -2.0], [0.5, 3.0]], {dt}), 'b': jnp.array([0.1, -0.2, 0.0], {dt})}}
def loss(p):
    return ((p['w'].astype(jnp.float32) - 0.3) ** 2).sum() + jnp.cos(p['b'].astype(jnp.float32) * 4).sum()
tx = optax.{opt}
state = tx.init(params)
ups = []
states = []
for _ in range(6):
    u, state = tx.update(jax.grad(loss)(params), state, params)
    ups.append(u)
    states.append(state)
out = (ups, states)
"""
RPROP: list[str] = []
for _opt in ("rprop(0.1)", "rprop(0.05, eta_minus=0.3, eta_plus=1.5, max_step_size=0.08)"):
    for _dt in ("jnp.float32", "jnp.bfloat16"):
        RPROP.append(f"rprop/{_opt}/{_dt}")
        _add(RPROP[-1], _RPROP.format(opt=_opt, dt=_dt))

_add(
    "opt/adaptive_grad_clip/ranks",
    """
shapes = [(3,), (1, 4), (2, 3), (2, 2, 3), (2, 2, 2, 3), (2, 1, 2, 2, 3)]
base = {str(i): np.linspace(-1.0, 1.0, int(np.prod(s))).reshape(s) for i, s in enumerate(shapes)}
params = {k: jnp.asarray(v.astype(np.float32)) for k, v in base.items()}
grads = {k: jnp.asarray((np.cos(v * 7.0) * 3).astype(np.float32)) for k, v in base.items()}
tx = optax.adaptive_grad_clip(0.05)
out = tx.update(grads, tx.init(params), params)[0]
""",
)
_add(
    "opt/adaptive_grad_clip/rank6",
    """
p = {'x': jnp.ones((1, 1, 1, 1, 2, 2))}
tx = optax.adaptive_grad_clip(0.05)
out = tx.update(p, tx.init(p), p)
""",
)
_add(
    "opt/adaptive_grad_clip/no_params",
    """
p = {'x': jnp.ones(2)}
tx = optax.adaptive_grad_clip(0.05)
out = tx.update(p, tx.init(p))
""",
)

# ---- attention: a custom attention_fn gets only the keywords it names; Flax's dot_general and
# einsum hooks
_MHA = """
x = jax.random.normal(jax.random.key(1), (2, 3, 4))
def minimal(q, k, v):
    return q * 2 + k.mean() + v.mean()
def with_mask(q, k, v, mask=None, **kw):
    w = jnp.einsum('bqhd,bkhd->bhqk', q, k)
    return jnp.einsum('bhqk,bkhd->bqhd', jax.nn.softmax(w), v)
class Dot:
    def __call__(self, *a, **k):
        return jax.lax.dot_general(*a, **k)
m = nn.MultiHeadDotProductAttention({kw})
v = m.init(jax.random.key(0), x)
out = (v, m.apply(v, x{extra}))
"""
for _name, _kw, _extra in (
    ("minimal_fn", "num_heads=2, attention_fn=minimal", ""),
    ("kwargs_fn", "num_heads=2, attention_fn=with_mask", ""),
    ("minimal_fn_sow", "num_heads=2, attention_fn=minimal", ", sow_weights=True"),
    (
        "hooks",
        "num_heads=2, qkv_dot_general=jax.lax.dot_general, out_dot_general_cls=Dot, "
        "qk_attn_weights_einsum_cls=lambda: jnp.einsum, "
        "attn_weights_value_einsum_cls=lambda: jnp.einsum",
        "",
    ),
    ("qkv_dot_general_none", "num_heads=2, qkv_dot_general=None, out_dot_general=None", ""),
):
    _add(f"mha/{_name}", _MHA.format(kw=_kw, extra=_extra))

# ---- losses
_TRIPLET = """
a = jnp.asarray(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32))
p = a + 0.1
n = a[::-1] * 0.5
out = optax.losses.triplet_margin_loss({args})
"""
for _args in (
    "a, p, n",
    "a, p, n, margin=0.2, eps=1e-3",
    "a, p, n, norm_degree=1",
    "a.T, p.T, n.T, axis=0",
    "a.astype(jnp.bfloat16), p.astype(jnp.bfloat16), n.astype(jnp.bfloat16)",
    "jnp.ones((2, 3), jnp.int32), p[:2, :3], n[:2, :3]",
):
    _add(f"loss/triplet_margin_loss/{_args}", _TRIPLET.format(args=_args))
_add(
    "opt/flatten/mixed_dtypes",
    "p = {'a': jnp.ones(2, jnp.bfloat16), 'b': jnp.ones((2, 2))}\n"
    "tx = optax.flatten(optax.sgd(0.1))\n"
    "out = tx.update(p, tx.init(p), p)",
)
