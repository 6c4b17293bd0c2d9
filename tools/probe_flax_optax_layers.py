"""Programs of ``tools/probe_flax_optax.py``: Flax layers (dense, conv, embed, norms, dropout, attention, pooling, recurrent cells)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

Add = Callable[[str, str], None]

# --------------------------------------------------------------------------------------------
# layers
DT = ["None", "jnp.float32", "jnp.bfloat16", "jnp.float16"]
PDT = ["jnp.float32", "jnp.bfloat16", "jnp.float16"]


def gen_layers(add: Add) -> None:
    for dt, pdt in itertools.product(DT, PDT):
        for prec in ["None", "'highest'"]:
            add(
                f"dense/{dt}/{pdt}/{prec}",
                f"""
m = nn.Dense(5, dtype={dt}, param_dtype={pdt}, precision={prec})
x = X(3, 4)
v = m.init(K, x)
y = m.apply(v, x)
g = jax.grad(lambda v: m.apply(v, x).astype(jnp.float32).sum())(v)
result = (v, y, g)
""",
            )
    for dt in ["jnp.int32", "jnp.bfloat16"]:
        add(
            f"dense/intinput/{dt}",
            f"""
m = nn.Dense(3)
x = jnp.arange(8).reshape(2, 4).astype({dt})
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
        )
    for feats, axis, bd in [
        ("3", "-1", "()"),
        ("(2, 3)", "-1", "()"),
        ("(2, 3)", "(1, 2)", "()"),
        ("4", "(-2, -1)", "()"),
        ("(2,)", "-1", "(0,)"),
        ("(3, 2)", "(2,)", "(0,)"),
        ("5", "1", "(0,)"),
        ("(2, 2)", "(-1,)", "(0, 1)"),
    ]:
        for dt in ["None", "jnp.bfloat16"]:
            add(
                f"densegeneral/{feats}/{axis}/{bd}/{dt}",
                f"""
m = nn.DenseGeneral({feats}, axis={axis}, batch_dims={bd}, dtype={dt})
x = X(2, 3, 4)
v, y = m.init_with_output(K, x)
g = jax.grad(lambda v: m.apply(v, x).astype(jnp.float32).sum())(v)
result = (v, y, g)
""",
            )
    # convolutions
    pads = [
        "'SAME'",
        "'VALID'",
        "'CIRCULAR'",
        "'CAUSAL'",
        "1",
        "(1, 2)",
        "((1, 0),)",
        "[(2, 1)]",
        "'REFLECT'",
    ]
    for pad, stride, dil, grp in itertools.product(pads, [1, 2], [1, 2], [1, 2]):
        add(
            f"conv1d/{pad}/s{stride}/d{dil}/g{grp}",
            f"""
m = nn.Conv(4, (3,), strides={stride}, kernel_dilation={dil}, feature_group_count={grp}, padding={pad})
x = X(2, 9, 4)
v, y = m.init_with_output(K, x)
g = jax.grad(lambda v: m.apply(v, x).sum())(v)
result = (v, y, g)
""",
        )
    for pad in [
        "'SAME'",
        "'VALID'",
        "'CIRCULAR'",
        "1",
        "(1, 2)",
        "((1, 0), (0, 2))",
        "((1, 1),) * 2",
    ]:
        for stride, dil, ind in [
            ("1", "1", "1"),
            ("(2, 1)", "1", "1"),
            ("1", "(1, 2)", "1"),
            ("2", "1", "2"),
        ]:
            add(
                f"conv2d/{pad}/s{stride}/d{dil}/i{ind}",
                f"""
m = nn.Conv(3, (3, 2), strides={stride}, kernel_dilation={dil}, input_dilation={ind}, padding={pad})
x = X(2, 7, 6, 2)
v, y = m.init_with_output(K, x)
result = (v, y)
""",
            )
    for dt, pdt in itertools.product(DT, PDT[:2]):
        add(
            f"conv3d/{dt}/{pdt}",
            f"""
m = nn.Conv(2, (2, 2, 2), dtype={dt}, param_dtype={pdt}, padding='SAME', use_bias=False)
x = X(1, 4, 5, 3, 2)
v, y = m.init_with_output(K, x)
result = (v, y)
""",
        )
    add(
        "conv/unbatched",
        """
m = nn.Conv(2, (3,))
x = X(5, 3)
result = m.init_with_output(K, x)
""",
    )
    add(
        "conv/multibatch",
        """
m = nn.Conv(2, (3,))
x = X(2, 2, 5, 3)
result = m.init_with_output(K, x)
""",
    )
    add(
        "conv/int_kernel_size",
        """
m = nn.Conv(2, 3)
x = X(2, 5, 3)
result = m.init_with_output(K, x)
""",
    )
    add(
        "convlocal/basic",
        """
m = nn.ConvLocal(2, (3,), padding='SAME')
x = X(2, 5, 3)
result = m.init_with_output(K, x)
""",
    )
    for pad, stride, tk in itertools.product(
        ["'SAME'", "'VALID'", "'CIRCULAR'", "1", "((1, 2),)", "(0, 1)"], [1, 2], [False, True]
    ):
        add(
            f"convT1d/{pad}/s{stride}/tk{tk}",
            f"""
m = nn.ConvTranspose(3, (3,), strides=({stride},), padding={pad}, transpose_kernel={tk})
x = X(2, 5, 2)
v, y = m.init_with_output(K, x)
g = jax.grad(lambda v: m.apply(v, x).sum())(v)
result = (v, y, g)
""",
        )
    for pad, stride, dil in itertools.product(
        ["'SAME'", "'VALID'", "'CIRCULAR'"], ["(2, 1)", "(1, 1)"], ["1", "(2, 1)"]
    ):
        add(
            f"convT2d/{pad}/s{stride}/d{dil}",
            f"""
m = nn.ConvTranspose(2, (3, 2), strides={stride}, kernel_dilation={dil}, padding={pad})
x = X(1, 4, 3, 2)
result = m.init_with_output(K, x)
""",
        )
    # embed
    for dt, pdt in itertools.product(DT, PDT):
        add(
            f"embed/{dt}/{pdt}",
            f"""
m = nn.Embed(7, 4, dtype={dt}, param_dtype={pdt})
ids = jnp.array([[0, 3, 6], [1, 1, 2]])
v, y = m.init_with_output(K, ids)
q = X(2, 4).astype({pdt})
a = m.apply(v, q, method=m.attend)
result = (v, y, a)
""",
        )
    add(
        "embed/float_ids",
        """
m = nn.Embed(7, 4)
result = m.init_with_output(K, jnp.array([1.0, 2.0]))
""",
    )
    add(
        "embed/oob",
        """
m = nn.Embed(3, 2)
v = m.init(K, jnp.array([0]))
result = m.apply(v, jnp.array([5, -1, 2]))
""",
    )
    # norms
    for kw in [
        "",
        "epsilon=1e-3",
        "use_bias=False",
        "use_scale=False",
        "reduction_axes=(-2, -1)",
        "reduction_axes=(1, 2), feature_axes=(-2, -1)",
        "use_fast_variance=False",
        "dtype=jnp.bfloat16",
        "param_dtype=jnp.bfloat16",
        "dtype=jnp.float16, param_dtype=jnp.float16",
        "feature_axes=1, reduction_axes=1",
    ]:
        for big in [False, True]:
            add(
                f"layernorm/{kw}/{big}",
                f"""
m = nn.LayerNorm({kw})
x = X(2, 3, 4) {"+ 1000.0" if big else ""}
v, y = m.init_with_output(K, x)
g = jax.grad(lambda x: m.apply(v, x).astype(jnp.float32).sum() ** 2)(x)
result = (v, y, g)
""",
            )
    for kw in [
        "",
        "epsilon=1e-3",
        "use_scale=False",
        "reduction_axes=(-2, -1)",
        "dtype=jnp.bfloat16",
        "param_dtype=jnp.float16",
        "feature_axes=(-2, -1), reduction_axes=(-2, -1)",
    ]:
        add(
            f"rmsnorm/{kw}",
            f"""
m = nn.RMSNorm({kw})
x = X(2, 3, 4)
v, y = m.init_with_output(K, x)
g = jax.grad(lambda x: m.apply(v, x).astype(jnp.float32).sum() ** 2)(x)
result = (v, y, g)
""",
        )
    for kw in [
        "num_groups=2",
        "num_groups=None, group_size=2",
        "num_groups=1",
        "num_groups=4, use_bias=False",
        "num_groups=2, reduction_axes=(1, 2, 3)",
        "num_groups=2, dtype=jnp.bfloat16",
        "num_groups=3",
        "num_groups=2, use_fast_variance=False",
        "num_groups=2, epsilon=0.1",
    ]:
        add(
            f"groupnorm/{kw}",
            f"""
m = nn.GroupNorm({kw})
x = X(2, 3, 2, 4) + 3.0
v, y = m.init_with_output(K, x)
g = jax.grad(lambda x: m.apply(v, x).astype(jnp.float32).sum() ** 2)(x)
result = (v, y, g)
""",
        )
    add(
        "groupnorm/unbatched_noaxes",
        """
m = nn.GroupNorm(num_groups=2)
x = X(4)
result = m.init_with_output(K, x)
""",
    )
    for kw in [
        "",
        "momentum=0.5",
        "epsilon=1e-2",
        "axis=1",
        "axis=(1, 2)",
        "use_bias=False, use_scale=False",
        "dtype=jnp.bfloat16",
        "param_dtype=jnp.float16",
        "use_fast_variance=False",
        "reduction_axes=(0,)" if False else "momentum=0.0",
    ]:
        add(
            f"batchnorm/{kw}",
            f"""
m = nn.BatchNorm(use_running_average=False, {kw})
x = X(4, 3, 5) * 2 + 1
v = m.init(K, x)
y, upd = m.apply(v, x, mutable=['batch_stats'])
v2 = {{**v, **upd}}
y2, upd2 = m.apply(v2, x * 3, mutable=['batch_stats'])
y3 = m.apply({{**v, **upd2}}, x, use_running_average=True)
result = (v, y, upd, y2, upd2, y3)
""",
        )
    add(
        "batchnorm/running_avg_no_mutable",
        """
m = nn.BatchNorm(use_running_average=True)
x = X(4, 3)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "batchnorm/missing_flag",
        """
m = nn.BatchNorm()
x = X(4, 3)
v = m.init(K, x)
result = v
""",
    )
    add(
        "batchnorm/not_mutable",
        """
m = nn.BatchNorm(use_running_average=False)
x = X(4, 3)
v = m.init(K, x)
result = m.apply(v, x)
""",
    )
    add(
        "instancenorm/basic",
        """
m = nn.InstanceNorm()
x = X(2, 5, 3) + 2
result = m.init_with_output(K, x)
""",
    )
    add(
        "spectralnorm/basic",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        return nn.SpectralNorm(nn.Dense(3))(x, update_stats=train)
m = M()
x = X(2, 4)
v = m.init(K, x, train=True)
y, u = m.apply(v, x, train=True, mutable=['batch_stats'])
result = (v, y, u)
""",
    )
    add(
        "weightnorm/basic",
        """
m = nn.WeightNorm(nn.Dense(3))
x = X(2, 4)
result = m.init_with_output(K, x)
""",
    )
    # dropout
    for rate, bd, det in itertools.product(
        ["0.0", "0.5", "1.0", "0.3"], ["()", "(0,)", "(1, 2)", "(-1,)"], ["False", "True"]
    ):
        add(
            f"dropout/{rate}/{bd}/{det}",
            f"""
m = nn.Dropout({rate}, broadcast_dims={bd})
x = X(3, 4, 5)
y = m.apply({{}}, x, deterministic={det}, rngs={{'dropout': jax.random.key(7)}})
g = jax.grad(lambda x: m.apply({{}}, x, deterministic={det}, rngs={{'dropout': jax.random.key(7)}}).sum())(x)
result = (y, g)
""",
        )
    add(
        "dropout/no_rng",
        """
m = nn.Dropout(0.5)
result = m.apply({}, X(3), deterministic=False)
""",
    )
    add(
        "dropout/no_deterministic",
        """
m = nn.Dropout(0.5)
result = m.apply({}, X(3), rngs={'dropout': K})
""",
    )
    add(
        "dropout/custom_collection",
        """
m = nn.Dropout(0.5, rng_collection='noise')
result = m.apply({}, X(8), deterministic=False, rngs={'noise': K})
""",
    )
    add(
        "dropout/in_module",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(6)(x)
        x = nn.Dropout(0.4, deterministic=not train)(x)
        return nn.Dense(2)(nn.Dropout(0.2)(x, deterministic=not train))
m = M()
x = X(3, 4)
v = m.init({'params': K, 'dropout': K}, x, train=True)
result = (v, m.apply(v, x, train=True, rngs={'dropout': jax.random.key(3)}), m.apply(v, x, train=False))
""",
    )


def gen_attention(add: Add) -> None:
    for nh, qf, of, dt in itertools.product(
        [1, 2], ["None", "8"], ["None", "3"], ["None", "jnp.bfloat16"]
    ):
        add(
            f"mha/{nh}/{qf}/{of}/{dt}",
            f"""
m = nn.MultiHeadDotProductAttention(num_heads={nh}, qkv_features={qf}, out_features={of}, dtype={dt})
q = X(2, 3, 4); kv = X(2, 5, 4, seed=2)
v, y = m.init_with_output(K, q, kv)
result = (v, y)
""",
        )
    for kw in [
        "",
        "normalize_qk=True",
        "use_bias=False",
        "broadcast_dropout=False, dropout_rate=0.5",
        "dropout_rate=0.5",
        "out_kernel_init=nn.initializers.ones",
        "qkv_dot_general=None",
    ]:
        add(
            f"mha/kw/{kw}",
            f"""
m = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4, {kw})
q = X(2, 3, 4)
mask = nn.make_causal_mask(jnp.ones((2, 3)))
v = m.init({{'params': K, 'dropout': K}}, q, q, mask=mask, deterministic=False)
y = m.apply(v, q, q, mask=mask, deterministic=False, rngs={{'dropout': jax.random.key(4)}})
y2 = m.apply(v, q, mask=mask, deterministic=True)
result = (v, y, y2)
""",
        )
    add(
        "mha/padding_mask",
        """
m = nn.MultiHeadDotProductAttention(num_heads=2)
q = X(2, 4, 6)
pad = jnp.array([[1, 1, 1, 0], [1, 1, 0, 0]])
mask = nn.make_attention_mask(pad, pad)
v = m.init(K, q, mask=mask)
result = (v, m.apply(v, q, mask=mask), mask, nn.combine_masks(mask, nn.make_causal_mask(pad)))
""",
    )
    add(
        "mha/all_masked",
        """
m = nn.MultiHeadDotProductAttention(num_heads=1)
q = X(1, 2, 2)
mask = jnp.zeros((1, 1, 2, 2), bool)
v = m.init(K, q, mask=mask)
result = m.apply(v, q, mask=mask)
""",
    )
    add(
        "mha/sow_weights",
        """
m = nn.MultiHeadDotProductAttention(num_heads=2)
q = X(2, 3, 4)
v = m.init(K, q)
y, st = m.apply(v, q, sow_weights=True, mutable=['intermediates'])
result = (y, st)
""",
    )
    add(
        "mha/decode",
        """
m = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4, decode=True)
x = X(2, 4, 4)
v = m.init(K, x)
cache = v['cache']
params = {'params': v['params']}
outs = []
for i in range(4):
    y, mv = m.apply({**params, 'cache': cache}, x[:, i:i+1], mutable=['cache'])
    cache = mv['cache']
    outs.append(y)
full = nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=4).apply(params, x, mask=nn.make_causal_mask(jnp.ones((2, 4))))
result = (v, outs, cache, full)
""",
    )
    add(
        "selfattention/basic",
        """
m = nn.SelfAttention(num_heads=2)
x = X(2, 3, 4)
result = m.init_with_output(K, x)
""",
    )
    add(
        "mha/bad_heads",
        """
m = nn.MultiHeadDotProductAttention(num_heads=3)
result = m.init(K, X(2, 3, 4))
""",
    )
    add(
        "dpa/fn",
        """
q = X(2, 3, 2, 4); k = X(2, 5, 2, 4, seed=2); vv = X(2, 5, 2, 4, seed=3)
bias = X(2, 2, 3, 5, seed=4)
w = nn.dot_product_attention_weights(q, k, bias=bias)
o = nn.dot_product_attention(q, k, vv, bias=bias, dropout_rng=K, dropout_rate=0.3, deterministic=False)
result = (w, o)
""",
    )


def gen_pool(add: Add) -> None:
    for fn in ["avg_pool", "max_pool", "min_pool"]:
        for pad in ["'VALID'", "'SAME'", "((1, 1), (0, 1))", "((2, 0), (1, 1))"]:
            for strides in ["None", "(2, 2)", "(1, 2)"]:
                extra = ["", ", count_include_pad=False"] if fn == "avg_pool" else [""]
                for e in extra:
                    add(
                        f"pool/{fn}/{pad}/{strides}/{e}",
                        f"""
x = X(2, 5, 6, 3)
y = nn.{fn}(x, (2, 3), strides={strides}, padding={pad}{e})
g = jax.grad(lambda x: nn.{fn}(x, (2, 3), strides={strides}, padding={pad}{e}).sum())(x)
result = (y, g)
""",
                    )
    add("pool/unbatched", "result = nn.max_pool(X(5, 3), (2,))")
    add(
        "pool/int_input_avg",
        "result = nn.avg_pool(jnp.arange(12).reshape(1, 12, 1), (3,), strides=(3,))",
    )
    add(
        "pool/int_input_max",
        "result = nn.max_pool(jnp.arange(12).reshape(1, 12, 1), (3,), padding='SAME')",
    )
    add("pool/bad_padding", "result = nn.avg_pool(X(1, 5, 1), (2,), padding='FOO')")
    add("pool/pool_fn", "result = nn.pool(X(1, 5, 1), 0.0, jax.lax.add, (2,), (1,), 'VALID')")


def gen_rnn(add: Add) -> None:
    cells = {
        "LSTMCell": "nn.LSTMCell(5)",
        "GRUCell": "nn.GRUCell(5)",
        "SimpleCell": "nn.SimpleCell(5)",
        "OptimizedLSTMCell": "nn.OptimizedLSTMCell(5)",
        "MGUCell": "nn.MGUCell(5)",
        "SimpleCellNoBias": "nn.SimpleCell(5, residual=True)"
        if False
        else "nn.GRUCell(5, dtype=jnp.bfloat16)",
    }
    for name, ctor in cells.items():
        add(
            f"cell/{name}",
            f"""
cell = {ctor}
x = X(2, 3)
carry = cell.initialize_carry(jax.random.key(1), x.shape)
v = cell.init(K, carry, x)
(c2, y) = cell.apply(v, carry, x)
g = jax.grad(lambda v: jax.tree_util.tree_reduce(lambda a, b: a + b.astype(jnp.float32).sum(), cell.apply(v, carry, x), 0.0))(v)
result = (carry, v, c2, y, g)
""",
        )
        for kw in [
            "",
            "reverse=True",
            "reverse=True, keep_order=True",
            "return_carry=True",
            "time_major=True",
        ]:
            for sl in [False, True]:
                add(
                    f"rnn/{name}/{kw}/{sl}",
                    f"""
rnn = nn.RNN({ctor}, {kw})
x = X(2, 4, 3)
sl = {"jnp.array([4, 2])" if sl else "None"}
v = rnn.init(K, x, seq_lengths=sl)
y = rnn.apply(v, x, seq_lengths=sl)
result = (v, y)
""",
                )
    add(
        "cell/convlstm",
        """
cell = nn.ConvLSTMCell(3, (3, 3))
x = X(1, 4, 4, 2)
carry = cell.initialize_carry(jax.random.key(1), x.shape)
v = cell.init(K, carry, x)
result = (carry, v, cell.apply(v, carry, x))
""",
    )
    add(
        "rnn/bidirectional",
        """
b = nn.Bidirectional(nn.RNN(nn.LSTMCell(3)), nn.RNN(nn.GRUCell(3)))
x = X(2, 4, 2)
v = b.init(K, x)
result = (v, b.apply(v, x, seq_lengths=jnp.array([4, 3])))
""",
    )
    add(
        "rnn/initial_carry",
        """
rnn = nn.RNN(nn.SimpleCell(3), return_carry=True)
x = X(2, 4, 2)
c0 = jnp.ones((2, 3))
v = rnn.init(K, x, initial_carry=c0)
result = (v, rnn.apply(v, x, initial_carry=c0))
""",
    )
    add(
        "cell/num_feature_axes",
        """
cell = nn.LSTMCell(4)
result = cell.num_feature_axes
""",
    )
