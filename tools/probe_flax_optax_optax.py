"""Programs of ``tools/probe_flax_optax.py``: optax optimizers, schedules, losses, tree helpers and Flax's utilities."""

from __future__ import annotations

from collections.abc import Callable

Add = Callable[[str, str], None]

# --------------------------------------------------------------------------------------------
# optax
OPTS = [
    "adabelief(0.1)",
    "adadelta()",
    "adadelta(1.0)",
    "adafactor()",
    "adafactor(0.1)",
    "adagrad(0.1)",
    "adam(0.1)",
    "adam(0.1, nesterov=True)",
    "adamax(0.1)",
    "adamaxw(0.1)",
    "adamw(0.1)",
    "adamw(0.1, mask=lambda p: {'b': False, 'w': True})",
    "adan(0.1)",
    "amsgrad(0.1)",
    "fromage(0.1)",
    "lamb(0.1)",
    "lars(0.1)",
    "lion(0.1)",
    "noisy_sgd(0.1)",
    "novograd(0.1)",
    "optimistic_gradient_descent(0.1)",
    "optimistic_adam(0.1)",
    "optimistic_adam_v2(0.1)",
    "polyak_sgd()",
    "radam(0.1)",
    "rmsprop(0.1)",
    "rmsprop(0.1, centered=True, momentum=0.9)",
    "rmsprop(0.1, nesterov=True, momentum=0.5)",
    "rprop(0.1)",
    "sgd(0.1)",
    "sgd(0.1, momentum=0.9)",
    "sgd(0.1, momentum=0.9, nesterov=True)",
    "sign_sgd(0.1)",
    "signum(0.1)",
    "sm3(0.1)",
    "yogi(0.1)",
    "nadam(0.1)",
    "nadamw(0.1)",
    "lbfgs()",
    "adam(optax.linear_schedule(0.1, 0.0, 5))",
    "adamw(optax.cosine_decay_schedule(0.1, 5))",
    "sgd(0.1, momentum=0.9, accumulator_dtype=jnp.bfloat16)",
    "adam(0.1, mu_dtype=jnp.bfloat16)",
    "adafactor(0.1, momentum=0.9)",
    "adafactor(0.1, multiply_by_parameter_scale=False, clipping_threshold=None)",
    "adam(0.1, eps_root=1e-8)",
    "radam(0.1, threshold=2.0)",
    "lion(0.1, weight_decay=0.1)",
    "scale_by_adam()",
    "scale_by_rms()",
    "scale_by_stddev()",
    "scale_by_trust_ratio()",
    "scale_by_param_block_norm()",
    "scale_by_param_block_rms()",
    "scale_by_belief()",
    "scale_by_yogi()",
    "scale_by_radam()",
    "scale_by_rss()",
    "scale_by_sign()",
    "scale_by_sm3()",
    "scale_by_amsgrad()",
    "scale_by_novograd()",
    "scale_by_lion()",
    "scale_by_adan()",
    "scale_by_adadelta()",
    "scale_by_adamax()",
    "scale_by_factored_rms()",
    "scale_by_distance_over_gradients()",
    "scale_by_optimistic_gradient()",
    "scale_by_learning_rate(0.1)",
    "scale_by_learning_rate(0.1, flip_sign=False)",
    "scale_by_schedule(lambda c: 0.5 ** c)",
    "scale(0.3)",
    "trace(0.9)",
    "trace(0.9, nesterov=True)",
    "ema(0.9)",
    "ema(0.9, debias=False)",
    "add_decayed_weights(0.1)",
    "centralize()",
    "clip(0.05)",
    "clip_by_block_rms(0.1)",
    "clip_by_global_norm(0.1)",
    "adaptive_grad_clip(0.1)",
    "keep_params_nonnegative()",
    "zero_nans()",
    "identity()",
    "set_to_zero()",
    "normalize_by_update_norm()",
    "add_noise(0.1, 0.5, 0)",
    "apply_every(2)",
    "chain(clip_by_global_norm(1.0), adam(0.1))",
    "chain(scale_by_adam(), add_decayed_weights(1e-2), scale_by_learning_rate(0.1))",
    "named_chain(('clip', clip(0.1)), ('sgd', sgd(0.1)))",
    "multi_transform({'a': optax.adam(0.1), 'b': optax.sgd(0.1)}, {'w': 'a', 'b': 'b'})",
    "multi_transform({'a': optax.adam(0.1), 'z': optax.set_to_zero()}, lambda p: {'w': 'a', 'b': 'z'})",
    "masked(optax.adam(0.1), {'w': True, 'b': False})",
    "masked(optax.sgd(0.1, momentum=0.9), lambda p: {'w': False, 'b': True})",
    "inject_hyperparams(optax.adam)(learning_rate=0.1)",
    "inject_hyperparams(optax.adam)(learning_rate=optax.linear_schedule(0.1, 0.01, 3), b1=0.8)",
    "inject_hyperparams(optax.sgd, hyperparam_dtype=jnp.float16)(learning_rate=0.1)",
    "inject_hyperparams(optax.adamw, static_args=('mask',))(learning_rate=0.1, mask=None)",
    "MultiSteps(optax.adam(0.1), every_k_schedule=2)",
    "MultiSteps(optax.sgd(0.1), every_k_schedule=3, use_grad_mean=False)",
    "apply_if_finite(optax.adam(0.1), 2)",
    "lookahead(optax.adam(0.1), 2, 0.5)",
    "flatten(optax.adam(0.1))",
    "freeze({'w': True, 'b': False})",
    "partition({'a': optax.adam(0.1), 'b': optax.sgd(0.1)}, {'w': 'a', 'b': 'b'})",
    "conditionally_mask(optax.sgd(0.1), lambda step: step % 2 == 0)",
    "conditionally_transform(optax.sgd(0.1), lambda step: step > 0)",
    "adamw(0.1, weight_decay=0.5, b1=0.5, b2=0.9, eps=1e-3)",
    "sgd(optax.exponential_decay(0.1, 2, 0.5, staircase=True))",
    "chain(optax.scale_by_adam(), optax.scale_by_schedule(optax.piecewise_constant_schedule(0.1, {2: 0.5})))",
]


def gen_optax(add: Add) -> None:
    for o in OPTS:
        for dt in ["jnp.float32", "jnp.bfloat16"]:
            add(
                f"opt/{o}/{dt}",
                f"""
params = {{'w': jnp.array([[1.0, -2.0], [0.5, 3.0]], {dt}), 'b': jnp.array([0.1, -0.2, 0.0], {dt})}}
def loss(p):
    return (p['w'].astype(jnp.float32) ** 2).sum() + (jnp.sin(p['b'].astype(jnp.float32)) * 3).sum() + p['w'].astype(jnp.float32)[0, 0] * p['b'].astype(jnp.float32)[0]
tx = optax.{o}
st = tx.init(params)
states = []
for i in range(4):
    v, g = jax.value_and_grad(loss)(params)
    if '{o}'.startswith('lbfgs'):
        u, st = tx.update(g, st, params, value=v, grad=g, value_fn=loss)
    elif '{o}'.startswith('polyak'):
        u, st = tx.update(g, st, params, value=v)
    else:
        u, st = tx.update(g, st, params)
    params = optax.apply_updates(params, u)
    states.append(u)
result = (params, st, states)
""",
            )
    add(
        "opt/jit_step",
        """
params = {'w': X(3, 2), 'b': jnp.zeros(2)}
tx = optax.adamw(optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 10))
st = tx.init(params)
@jax.jit
def step(p, s):
    g = jax.grad(lambda p: ((p['w'] @ jnp.ones(2) + p['b'].sum()) ** 2).sum())(p)
    u, s = tx.update(g, s, p)
    return optax.apply_updates(p, u), s
for _ in range(5):
    params, st = step(params, st)
result = (params, st)
""",
    )
    add(
        "opt/apply_if_finite_nan",
        """
params = {'w': jnp.ones(3)}
tx = optax.apply_if_finite(optax.sgd(0.1), 2)
st = tx.init(params)
outs = []
for g in [jnp.ones(3), jnp.array([jnp.nan, 1.0, 1.0]), jnp.array([jnp.inf, 1.0, 1.0]), jnp.ones(3), jnp.array([jnp.nan, 0, 0])]:
    u, st = tx.update({'w': g}, st, params)
    params = optax.apply_updates(params, u)
    outs.append((u, st))
result = (params, outs)
""",
    )
    add(
        "opt/multisteps_fns",
        """
params = {'w': jnp.ones(3)}
ms = optax.MultiSteps(optax.adam(0.1), every_k_schedule=2)
st = ms.init(params)
outs = []
for i in range(5):
    u, st = ms.update({'w': jnp.full(3, i + 1.0)}, st, params)
    params = optax.apply_updates(params, u)
    outs.append((u, ms.has_updated(st)))
result = (params, st, outs, ms.gradient_transformation().init(params))
""",
    )
    add(
        "opt/inject_set_hparams",
        """
params = {'w': jnp.ones(3)}
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)
st = tx.init(params)
st.hyperparams['learning_rate'] = jnp.array(0.5)
u, st = tx.update({'w': jnp.ones(3)}, st, params)
result = (u, st)
""",
    )
    add(
        "opt/clip_global_norm_values",
        """
g = {'a': jnp.array([3.0, 4.0]), 'b': jnp.array([[12.0]])}
tx = optax.clip_by_global_norm(5.0)
u, _ = tx.update(g, tx.init(g))
result = (u, optax.global_norm(g), optax.tree.norm(g), optax.tree.norm(g, ord=1), optax.tree.norm(g, ord='inf'), optax.tree.norm(g, squared=True))
""",
    )
    for f, args in [
        ("add", "T1, T2"),
        ("sub", "T1, T2"),
        ("mul", "T1, T2"),
        ("div", "T1, T2"),
        ("scale", "0.5, T1"),
        ("add_scale", "T1, 2.0, T2"),
        ("vdot", "T1, T2"),
        ("sum", "T1"),
        ("max", "T1"),
        ("min", "T1"),
        ("zeros_like", "T1"),
        ("ones_like", "T1"),
        ("full_like", "T1, 3"),
        ("clip", "T1, -0.5, 0.5"),
        ("size", "T1"),
        ("conj", "T1"),
        ("real", "T1"),
        ("cast", "T1, jnp.bfloat16"),
        ("norm", "T1"),
        ("where", "T3, T1, T2"),
        ("allclose", "T1, T1"),
        ("update_moment", "T1, T2, 0.9, 2"),
        ("update_infinity_moment", "T1, T2, 0.9, 1e-8"),
        ("bias_correction", "T1, 0.9, jnp.array(3)"),
        ("dtype", "T1"),
        ("batch_shape", "T1") if False else ("dtype", "T1, 'highest'"),
        ("get", "T1, 'a'"),
        ("set", "T1, a=jnp.zeros(2)"),
        ("random_like", "K, T1"),
        ("split_key_like", "K, T1"),
        ("cast_like", "T1, T2"),
        ("get_all_with_path", "T1, 'a'"),
    ]:
        add(
            f"tree/{f}/{args}",
            f"""
T1 = {{'a': jnp.array([1.0, -2.0]), 'b': {{'c': jnp.array([[0.5, 3.0]])}}}}
T2 = {{'a': jnp.array([0.5, 4.0]), 'b': {{'c': jnp.array([[2.0, -1.0]])}}}}
T3 = {{'a': jnp.array([True, False]), 'b': {{'c': jnp.array([[False, True]])}}}}
r = optax.tree.{f}({args})
if '{f}' in ('random_like', 'split_key_like'):
    r = jax.tree_util.tree_map(lambda a: jax.random.key_data(a) if jnp.issubdtype(a.dtype, jax.dtypes.prng_key) else a, r)
result = r
""",
        )
    for f in [
        "tree_add",
        "tree_sub",
        "tree_mul",
        "tree_div",
        "tree_vdot",
        "tree_sum",
        "tree_l2_norm",
        "tree_zeros_like",
        "tree_ones_like",
        "tree_scalar_mul",
        "tree_add_scalar_mul",
        "tree_max",
        "tree_where",
    ]:
        add(f"tree_utils/{f}", f"result = hasattr(optax.tree_utils, '{f}')")
    # schedules
    scheds = [
        "constant_schedule(0.3)",
        "linear_schedule(1.0, 0.1, 5)",
        "linear_schedule(1.0, 0.1, 5, transition_begin=2)",
        "linear_schedule(1, 0, 5)",
        "polynomial_schedule(1.0, 0.1, 2.0, 5)",
        "polynomial_schedule(1.0, 0.1, 0.5, 5, transition_begin=3)",
        "cosine_decay_schedule(1.0, 6)",
        "cosine_decay_schedule(1.0, 6, alpha=0.1, exponent=2.0)",
        "exponential_decay(1.0, 3, 0.5)",
        "exponential_decay(1.0, 3, 0.5, staircase=True, transition_begin=2, end_value=0.2)",
        "exponential_decay(1.0, 3, 2.0, end_value=3.0)",
        "piecewise_constant_schedule(1.0, {2: 0.5, 5: 0.1})",
        "piecewise_interpolate_schedule('linear', 1.0, {2: 0.5, 5: 0.1})",
        "piecewise_interpolate_schedule('cosine', 1.0, {2: 0.5, 5: 0.1})",
        "cosine_onecycle_schedule(10, 1.0)",
        "cosine_onecycle_schedule(10, 1.0, pct_start=0.5, div_factor=10.0, final_div_factor=100.0)",
        "linear_onecycle_schedule(10, 1.0)",
        "warmup_cosine_decay_schedule(0.0, 1.0, 3, 10)",
        "warmup_cosine_decay_schedule(0.0, 1.0, 3, 10, end_value=0.1, exponent=2.0)",
        "warmup_exponential_decay_schedule(0.0, 1.0, 3, 2, 0.5)",
        "warmup_constant_schedule(0.0, 1.0, 4)",
        "join_schedules([optax.constant_schedule(1.0), optax.linear_schedule(1.0, 0.0, 4)], [3])",
        "join_schedules([optax.linear_schedule(0.0, 1.0, 2), optax.cosine_decay_schedule(1.0, 4), optax.constant_schedule(0.1)], [2, 6])",
        "sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=4), dict(init_value=0.0, peak_value=0.5, warmup_steps=1, decay_steps=3)])",
        "schedules.warmup_cosine_decay_schedule(0.0, 1.0, 0, 5)",
        "cosine_decay_schedule(1.0, 0)",
        "linear_schedule(1.0, 0.0, 0)",
    ]
    for s in scheds:
        add(
            f"sched/{s}",
            f"""
s = optax.{s}
py = [s(i) for i in range(12)]
arr = s(jnp.arange(12))
i32 = [s(jnp.array(i, jnp.int32)) for i in (0, 3, 11)]
f = s(2.5)
result = (py, arr, i32, f)
""",
        )
    # losses
    losses = [
        ("softmax_cross_entropy", "LG, LBL"),
        ("softmax_cross_entropy", "LG, LBL, axis=0"),
        ("softmax_cross_entropy", "LG, LBL, where=MASK"),
        ("softmax_cross_entropy_with_integer_labels", "LG, IL"),
        ("softmax_cross_entropy_with_integer_labels", "LG, IL.astype(jnp.uint8)"),
        ("softmax_cross_entropy_with_integer_labels", "LG, IL, where=MASK[:, 0]"),
        ("softmax_cross_entropy_with_integer_labels", "LG.T, IL, axis=0"),
        ("safe_softmax_cross_entropy", "LG.at[0, 1].set(-jnp.inf), LBL"),
        ("sigmoid_binary_cross_entropy", "LG, LBL"),
        ("sigmoid_binary_cross_entropy", "LG, (LBL > 0.3).astype(jnp.int32)"),
        ("sigmoid_focal_loss", "LG, LBL"),
        ("sigmoid_focal_loss", "LG, LBL, alpha=0.25, gamma=3.0"),
        ("poly_loss_cross_entropy", "LG, LBL"),
        ("poly_loss_cross_entropy", "LG, LBL, epsilon=-0.5, where=MASK"),
        ("l2_loss", "LG, LBL"),
        ("l2_loss", "LG"),
        ("squared_error", "LG, LBL"),
        ("huber_loss", "LG, LBL, delta=0.5"),
        ("log_cosh", "LG * 50, LBL"),
        ("cosine_similarity", "LG, LBL"),
        ("cosine_distance", "LG, LBL, epsilon=0.1"),
        ("kl_divergence", "jax.nn.log_softmax(LG), LBL"),
        ("kl_divergence", "jax.nn.log_softmax(LG), LBL.at[0].set(0.0)"),
        ("kl_divergence_with_log_targets", "jax.nn.log_softmax(LG), jnp.log(LBL)"),
        ("convex_kl_divergence", "jax.nn.log_softmax(LG), LBL"),
        ("generalized_kl_divergence", "jax.nn.log_softmax(LG), LBL"),
        ("hinge_loss", "LG, jnp.sign(LBL - 0.3)"),
        ("multiclass_hinge_loss", "LG, IL"),
        ("perceptron_loss", "LG, jnp.sign(LBL - 0.3)"),
        ("multiclass_perceptron_loss", "LG, IL"),
        ("sparsemax_loss", "LG[:, 0], (LBL[:, 0] > 0.3).astype(jnp.int32)"),
        ("multiclass_sparsemax_loss", "LG, IL"),
        ("ranking_softmax_loss", "LG, LBL"),
        ("ranking_softmax_loss", "LG, LBL, where=MASK, weights=LBL"),
        ("smooth_labels", "LBL, 0.1"),
        ("ntxent", "LG, jnp.array([0, 0, 1, 1])"),
        ("triplet_margin_loss", "LG, LBL, LG * 0.5"),
        ("dice_loss", "LG, LBL"),
        ("binary_dice_loss", "LG, LBL"),
        (
            "ctc_loss",
            "CTC_LG, jnp.zeros((2, 6)), jnp.array([[1, 2, 0], [3, 3, 1]]), jnp.array([[0., 0., 1.], [0., 0., 0.]])",
        ),
    ]
    for i, (f, args) in enumerate(losses):
        add(
            f"loss/{i}/{f}",
            f"""
LG = X(4, 5) * 2
LBL = jax.nn.softmax(X(4, 5, seed=2))
IL = jnp.array([0, 4, 2, 1])
MASK = jnp.array([[True, True, False, True, True]] * 2 + [[True] * 5] * 2)
CTC_LG = X(2, 6, 5)
fn = getattr(optax.losses, '{f}')
y = fn({args})
import inspect
g = jax.grad(lambda a: fn(*(a,) + tuple(x for x in [{args}][1:2])).sum())(LG) if False else None
result = y
""",
        )
    add(
        "loss/grad_softmax_ce_int",
        """
LG = X(4, 5)
IL = jnp.array([0, 4, 2, 1])
result = jax.grad(lambda l: optax.softmax_cross_entropy_with_integer_labels(l, IL).mean())(LG)
""",
    )
    add(
        "loss/grad_sigmoid_bce",
        """
LG = X(4, 5) * 20
result = jax.grad(lambda l: optax.sigmoid_binary_cross_entropy(l, jnp.ones_like(l)).mean())(LG)
""",
    )
    add(
        "loss/ce_label_smoothing",
        """
LG = X(4, 5)
lab = optax.smooth_labels(jax.nn.one_hot(jnp.array([0, 1, 2, 3]), 5), 0.2)
result = (lab, optax.softmax_cross_entropy(LG, lab), jax.grad(lambda l: optax.softmax_cross_entropy(l, lab).sum())(LG))
""",
    )
    add(
        "loss/ce_bf16",
        """
LG = X(4, 5).astype(jnp.bfloat16)
result = (optax.softmax_cross_entropy_with_integer_labels(LG, jnp.array([0, 1, 2, 3])), optax.softmax_cross_entropy(LG, jax.nn.one_hot(jnp.array([0, 1, 2, 3]), 5)))
""",
    )
    add(
        "loss/ce_int_out_of_range",
        """
LG = X(2, 3)
result = optax.softmax_cross_entropy_with_integer_labels(LG, jnp.array([5, -1]))
""",
    )


# --------------------------------------------------------------------------------------------
# flax utilities
def gen_flaxutil(add: Add) -> None:
    add(
        "ts/basic",
        """
m = nn.Dense(2)
x = X(3, 4)
v = m.init(K, x)
st = train_state.TrainState.create(apply_fn=m.apply, params=v['params'], tx=optax.adam(0.1))
for _ in range(3):
    g = jax.grad(lambda p: (st.apply_fn({'params': p}, x) ** 2).sum())(st.params)
    st = st.apply_gradients(grads=g)
result = (st.step, st.params, st.opt_state)
""",
    )
    add(
        "ts/extra_fields",
        """
class TS(train_state.TrainState):
    batch_stats: dict
    other: int = struct.field(pytree_node=False, default=3)
m = nn.BatchNorm(use_running_average=False)
x = X(4, 3)
v = m.init(K, x)
st = TS.create(apply_fn=m.apply, params=v['params'], tx=optax.sgd(0.1, momentum=0.9), batch_stats=v['batch_stats'])
@jax.jit
def step(st):
    def loss(p):
        y, upd = st.apply_fn({'params': p, 'batch_stats': st.batch_stats}, x, mutable=['batch_stats'])
        return (y ** 2).sum(), upd
    (l, upd), g = jax.value_and_grad(loss, has_aux=True)(st.params)
    st = st.apply_gradients(grads=g, batch_stats=upd['batch_stats'])
    return st, l
for _ in range(2):
    st, l = step(st)
st2 = st.replace(step=10)
result = (st, l, st2.step, st.other, jax.tree_util.tree_structure(st).num_leaves)
""",
    )
    add(
        "ts/leaves_paths",
        """
st = train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.adam(0.1))
result = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(st)[0]]
""",
    )
    add(
        "ts/serialize",
        """
st = train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.chain(optax.clip(1.0), optax.adam(0.1)))
g = {'w': jnp.array([0.5, -1.0])}
st = st.apply_gradients(grads=g)
d = serialization.to_state_dict(st)
b = serialization.to_bytes(st)
st0 = train_state.TrainState.create(apply_fn=None, params={'w': jnp.zeros(2)}, tx=optax.chain(optax.clip(1.0), optax.adam(0.1)))
st2 = serialization.from_bytes(st0, b)
result = (d, st2.params, st2.opt_state, st2.step, serialization.msgpack_restore(b))
""",
    )
    add(
        "struct/dataclass",
        """
@struct.dataclass
class P:
    a: jax.Array
    b: int = struct.field(pytree_node=False, default=2)
    c: tuple = (1.0, 2.0)
p = P(jnp.ones(2))
q = jax.jit(lambda p: p.replace(a=p.a * p.b))(p)
leaves, td = jax.tree_util.tree_flatten(p)
r = jax.tree_util.tree_map(lambda x: x * 2, p)
result = (q.a, q.b, len(leaves), r.c, [jax.tree_util.keystr(k) for k, _ in jax.tree_util.tree_flatten_with_path(p)[0]])
""",
    )
    add(
        "struct/frozen",
        """
@struct.dataclass
class P:
    a: int
p = P(1)
p.a = 2
result = p
""",
    )
    add(
        "struct/pytreenode",
        """
class N(struct.PyTreeNode):
    w: jax.Array
    name: str = struct.field(pytree_node=False, default='n')
    def f(self, x):
        return self.w * x
n = N(jnp.arange(3.0))
g = jax.grad(lambda n: n.f(2.0).sum())(n)
result = (g.w, g.name, n.replace(name='m').name, jax.vmap(lambda n: n.w.sum())(N(jnp.ones((2, 3)))))
""",
    )
    add(
        "struct/kw_only",
        """
class N(struct.PyTreeNode, kw_only=True):
    a: int = 1
    b: int
n = N(b=2)
result = (n.a, n.b)
""",
    )
    add(
        "struct/serialize",
        """
@struct.dataclass
class P:
    a: jax.Array
    b: dict
    s: str = struct.field(pytree_node=False, default='x')
p = P(jnp.ones(2), {'k': jnp.zeros(3, jnp.int32)})
d = serialization.to_state_dict(p)
p2 = serialization.from_state_dict(p, {'a': np.array([5.0, 6.0]), 'b': {'k': np.array([1, 2, 3])}})
result = (d, p2.a, p2.b, p2.s)
""",
    )
    for dt in [
        "np.float32",
        "np.float64",
        "np.float16",
        "jnp.bfloat16",
        "np.int8",
        "np.int16",
        "np.int32",
        "np.int64",
        "np.uint8",
        "np.uint16",
        "np.uint32",
        "np.uint64",
        "np.bool_",
        "np.complex64",
        "np.complex128",
    ]:
        add(
            f"ser/leaf/{dt}",
            f"""
a = np.array([[0, 1], [3, 2]]).astype({dt})
tree = {{'np': a, 'jnp': jnp.asarray(a), 'scalar': a[0, 1], 'nested': [a[:1], (a[1],)], 'empty': np.zeros((0, 2), {dt})}}
b = serialization.to_bytes(tree)
r = serialization.msgpack_restore(b)
r2 = serialization.from_bytes(tree, b)
result = (r, r2, [type(x).__name__ for x in jax.tree_util.tree_leaves(r)], len(b))
""",
        )
    add(
        "ser/python_scalars",
        """
tree = {'i': 3, 'f': 2.5, 'b': True, 's': 'str', 'n': None, 'l': [1, 2], 't': (1.0,), 'big': 2**40, 'neg': -5}
b = serialization.msgpack_serialize(tree)
r = serialization.msgpack_restore(b)
result = (r, [type(v).__name__ for v in r.values()], serialization.to_state_dict(tree))
""",
    )
    add(
        "ser/state_dict_list",
        """
tree = [jnp.ones(2), (jnp.zeros(1), {'a': 1})]
d = serialization.to_state_dict(tree)
r = serialization.from_state_dict(tree, d)
result = (d, r)
""",
    )
    add(
        "ser/from_state_dict_mismatch",
        """
tree = {'a': jnp.ones(2)}
result = serialization.from_state_dict(tree, {'b': np.ones(2)})
""",
    )
    add(
        "ser/from_bytes_shape_mismatch",
        """
tree = {'a': jnp.ones(2)}
b = serialization.to_bytes({'a': jnp.ones(3)})
result = serialization.from_bytes(tree, b)
""",
    )
    add(
        "ser/optax_states",
        """
params = {'w': jnp.ones(2)}
out = []
for tx in [optax.adam(0.1), optax.sgd(0.1, momentum=0.9), optax.inject_hyperparams(optax.adam)(learning_rate=0.1),
           optax.MultiSteps(optax.adam(0.1), 2), optax.apply_if_finite(optax.sgd(0.1), 3),
           optax.multi_transform({'a': optax.adam(0.1)}, {'w': 'a'}), optax.masked(optax.adam(0.1), {'w': True}),
           optax.chain(optax.clip_by_global_norm(1.), optax.scale_by_adam())]:
    st = tx.init(params)
    d = serialization.to_state_dict(st)
    b = serialization.to_bytes(st)
    r = serialization.from_bytes(st, b)
    out.append((d, r))
result = out
""",
    )
    add(
        "ser/frozendict",
        """
from flax.core import FrozenDict, freeze, unfreeze
fd = freeze({'a': {'b': jnp.ones(2)}})
d = serialization.to_state_dict(fd)
r = serialization.from_bytes(fd, serialization.to_bytes(fd))
result = (d, type(r).__name__, unfreeze(r), fd.copy({'c': 1}), list(fd.keys()), fd.pop('a')[0])
""",
    )
    add(
        "ser/msgpack_large",
        """
a = np.arange(2 ** 16, dtype=np.float32)
b = serialization.to_bytes({'x': a})
result = (len(b) > 2 ** 16, serialization.msgpack_restore(b)['x'][-3:])
""",
    )
    for sep in ["None", "'/'", "'.'"]:
        add(
            f"traverse/flatten/{sep}",
            f"""
d = {{'a': {{'b': 1, 'c': {{'d': 2}}}}, 'e': 3, 'f': {{}}}}
fl = traverse_util.flatten_dict(d, sep={sep})
fl2 = traverse_util.flatten_dict(d, sep={sep}, keep_empty_nodes=True)
un = traverse_util.unflatten_dict(fl, sep={sep})
result = (sorted(fl.items(), key=str), sorted([(str(k), str(v)) for k, v in fl2.items()]), un)
""",
        )
    add(
        "traverse/is_leaf",
        """
d = {'a': {'b': 1, 'c': {'d': 2}}}
result = sorted(traverse_util.flatten_dict(d, is_leaf=lambda k, v: k == ('a', 'c')).items(), key=str)
""",
    )
    add(
        "traverse/path_aware_map",
        """
d = {'a': {'kernel': jnp.ones(2), 'bias': jnp.ones(2)}}
result = traverse_util.path_aware_map(lambda p, x: x * (2 if 'kernel' in p else 3), d)
""",
    )
    add(
        "traverse/frozendict_input",
        """
from flax.core import freeze
d = freeze({'a': {'b': 1}})
result = (traverse_util.flatten_dict(d), type(traverse_util.unflatten_dict({('x', 'y'): 1})).__name__)
""",
    )
    add(
        "jax_utils/replicate",
        """
t = {'a': jnp.ones(3), 'b': 2.0}
r = jax_utils.replicate(t)
u = jax_utils.unreplicate(r)
result = (r, u, jax.local_device_count())
""",
    )
    add(
        "jax_utils/pad_shard_unpad",
        """
f = jax_utils.pad_shard_unpad(jax.pmap(lambda x: x * 2))
result = f(jnp.arange(5.0))
"""
        if False
        else "result = jax_utils.partial_eval_by_shape if False else 1",
    )
    add(
        "core/frozen_ops",
        """
from flax.core import freeze, unfreeze, FrozenDict
from flax.core import copy as fcopy, pop as fpop, pretty_repr
d = {'a': 1, 'b': {'c': 2}}
f = freeze(d)
result = (fcopy(d, {'z': 3}), fpop(d, 'a'), unfreeze(f), f['b']['c'], hash(f) == hash(freeze(d)), len(pretty_repr(f)) > 0)
""",
    )
    add(
        "nn/meta_partitioning",
        """
m = nn.Dense(3, kernel_init=nn.with_partitioning(nn.initializers.ones, ('a', 'b')))
v = m.init(K, X(1, 2))
result = (jax.tree_util.tree_map(jnp.shape, nn.unbox(v)), jax.tree_util.tree_map(lambda b: b.names if hasattr(b, 'names') else None, v, is_leaf=lambda x: isinstance(x, nn.Partitioned)), nn.get_partition_spec(v))
""",
    )
