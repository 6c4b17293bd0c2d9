"""Differential probe of trellax's Flax/optax layer against real Flax 0.12.8 and optax 0.2.8.

    python tools/probe_flax_optax.py [--ref-python P] [--trellax-python P] [--list] [PREFIX]

Generates several hundred small programs written against ``jax``, ``flax`` and ``optax`` (layers
of every dtype, convolutions with every padding form, normalisations, attention, recurrent cells,
lifted transforms, every optimizer with its defaults, schedules, losses, train_state, struct,
serialization, traverse_util). Each program runs twice in a subprocess per side: once under the
reference Python (real JAX/Flax/optax) and once under trellax's Python with
``trellax.compat.install()`` in force, so the same text imports trellax. Each program leaves a
pytree in ``result``; the two trees are compared by key path, dtype, shape, weak type and values
(float32: rtol 1e-5 / atol 1e-6, 16-bit floats: rtol 2e-2), and a raised error by its class.

The test suite never runs this script (it needs the reference Python); the divergences it found
are pinned by tests with golden data (tools/gen_golden_flax_optax_hunt.py).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import pathlib
import pickle
import signal
import subprocess
import sys
import traceback
import warnings
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent

PRELUDE = """
import functools
import numpy as np
import jax
import jax.numpy as jnp
import flax
import flax.linen as nn
import optax
from flax import serialization, struct, traverse_util
from flax.training import train_state
from flax import jax_utils
K = jax.random.key(0)
def X(*shape, seed=1, dtype=jnp.float32):
    return jax.random.normal(jax.random.key(seed), shape, dtype)
"""

P: dict[str, str] = {}


def add(name: str, src: str) -> None:
    assert name not in P, name
    P[name] = src


# --------------------------------------------------------------------------------------------
# layers
DT = ["None", "jnp.float32", "jnp.bfloat16", "jnp.float16"]
PDT = ["jnp.float32", "jnp.bfloat16", "jnp.float16"]


def gen_layers() -> None:
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


def gen_attention() -> None:
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


def gen_pool() -> None:
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


def gen_rnn() -> None:
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


def gen_module() -> None:
    add(
        "mod/setup_vs_compact",
        """
class A(nn.Module):
    def setup(self):
        self.d1 = nn.Dense(3)
        self.d2 = [nn.Dense(2), nn.Dense(2)]
        self.w = self.param('w', nn.initializers.normal(0.1), (3,))
    def __call__(self, x):
        return self.d2[1](self.d2[0](self.d1(x) * self.w))
class B(nn.Module):
    @nn.compact
    def __call__(self, x):
        w = self.param('w', nn.initializers.normal(0.1), (3,))
        x = nn.Dense(3, name='d1')(x) * w
        return nn.Dense(2)(nn.Dense(2)(x))
x = X(2, 4)
result = (A().init_with_output(K, x), B().init_with_output(K, x))
""",
    )
    add(
        "mod/variable_counter",
        """
class C(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        s = self.variable('stats', 'sum', jnp.zeros, x.shape[1:])
        if not self.is_initializing():
            c.value += 1
            s.value = s.value + x.sum(0)
        return x * c.value
m = C()
x = X(2, 3)
v = m.init(K, x)
y, u = m.apply(v, x, mutable=True)
y2, u2 = m.apply(u, x, mutable=['counter'])
result = (v, y, u, y2, u2)
""",
    )
    add(
        "mod/immutable_error",
        """
class C(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable('counter', 'n', lambda: jnp.zeros(()))
        c.value += 1
        return x
m = C()
v = m.init(K, X(2))
result = m.apply(v, X(2))
""",
    )
    add(
        "mod/method",
        """
class M(nn.Module):
    def setup(self):
        self.enc = nn.Dense(3)
        self.dec = nn.Dense(4)
    def encode(self, x):
        return self.enc(x)
    def decode(self, z):
        return self.dec(z)
    def __call__(self, x):
        return self.decode(self.encode(x))
m = M()
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x, method=m.encode), m.apply(v, X(2, 3), method='decode'),
          m.apply(v, x, method=lambda mod, x: mod.dec(mod.enc(x)) * 2))
""",
    )
    add(
        "mod/init_method",
        """
class M(nn.Module):
    def setup(self):
        self.enc = nn.Dense(3)
    def encode(self, x):
        return self.enc(x)
    def __call__(self, x):
        return x
m = M()
result = m.init(K, X(2, 4), method=m.encode)
""",
    )
    add(
        "mod/tabulate",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(4)(x)
        x = nn.BatchNorm(use_running_average=True)(x)
        return nn.Dense(2)(x)
s = M().tabulate(K, X(2, 3))
s2 = M().tabulate(K, X(2, 3), depth=1, compute_flops=True)
result = (isinstance(s, str), len(s) > 0, isinstance(s2, str))
""",
    )
    add(
        "mod/share_scope",
        """
class Inner(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3, name='shared')(x)
class Outer(nn.Module):
    def setup(self):
        self.inner = Inner()
        nn.share_scope(self, self.inner)
    @nn.compact
    def __call__(self, x):
        y = self.inner(x)
        return nn.Dense(2, name='other')(y)
result = Outer().init_with_output(K, X(2, 4))
""",
    )
    add(
        "mod/capture_intermediates",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(3)(x)
        x = nn.relu(x)
        return nn.Dense(2)(x)
m = M()
x = X(2, 4)
v = m.init(K, x)
y, st = m.apply(v, x, capture_intermediates=True, mutable=['intermediates'])
y2, st2 = m.apply(v, x, capture_intermediates=lambda mdl, name: isinstance(mdl, nn.Dense), mutable=['intermediates'])
result = (y, st, st2)
""",
    )
    add(
        "mod/sow",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x * 2)
        self.sow('intermediates', 'h', x * 3)
        self.sow('stats', 's', x.sum(), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        self.sow('stats', 's', x.mean(), reduce_fn=lambda a, b: a + b, init_fn=lambda: 0.0)
        return x
m = M()
y, st = m.apply({}, X(3), mutable=['intermediates', 'stats'])
y2 = m.apply({}, X(3))
result = (y, st, y2)
""",
    )
    add(
        "mod/perturb",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(3)(x)
        h = self.perturb('h', h)
        return (h ** 2).sum()
m = M()
x = X(2, 4)
v = m.init(K, x)
g = jax.grad(lambda v: m.apply(v, x))(v)
result = (v, g)
""",
    )
    add(
        "mod/sequential",
        """
m = nn.Sequential([nn.Dense(4), nn.relu, nn.Dense(2), lambda x: x * 2])
x = X(3, 5)
result = m.init_with_output(K, x)
""",
    )
    add(
        "mod/sequential_tuple",
        """
class Two(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x, x * 2
m = nn.Sequential([Two(), lambda a, b: a + b, nn.Dense(2)])
result = m.init_with_output(K, X(3, 5))
""",
    )
    add(
        "mod/sequential_empty",
        """
m = nn.Sequential([])
result = m.init_with_output(K, X(3))
""",
    )
    add(
        "mod/param_shape_mismatch",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
v = M().init(K, X(2, 4))
result = M().apply(v, X(2, 5))
""",
    )
    add(
        "mod/missing_param",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
result = M().apply({'params': {}}, X(2, 4))
""",
    )
    add(
        "mod/rng_streams",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        a = self.make_rng('params')
        b = self.make_rng('noise')
        c = self.make_rng('noise')
        p = self.param('p', lambda k, s: jax.random.uniform(k, s), (2,))
        return p, jax.random.normal(b, (2,)), jax.random.normal(c, (2,)), jax.random.key_data(a)
m = M()
v, out = m.init_with_output({'params': K, 'noise': jax.random.key(5)}, X(2))
out2 = m.apply(v, X(2), rngs={'noise': jax.random.key(5), 'params': K})
result = (v, out, out2)
""",
    )
    add(
        "mod/param_names",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        for i in range(3):
            x = nn.Dense(2)(x)
        x = nn.Conv(2, (1,))(x)
        x = nn.LayerNorm()(x)
        return nn.Dense(1, name='head')(x)
result = jax.tree_util.tree_map(jnp.shape, M().init(K, X(2, 3)))
""",
    )
    add(
        "mod/module_attrs_dataclass",
        """
class M(nn.Module):
    features: int = 3
    act: callable = nn.relu
    @nn.compact
    def __call__(self, x):
        return self.act(nn.Dense(self.features)(x))
m = M(features=4)
m2 = m.clone(features=2)
result = (m.init_with_output(K, X(1, 3)), m2.init_with_output(K, X(1, 3)), m2.features)
""",
    )
    add(
        "mod/bind",
        """
m = nn.Dense(3)
v = m.init(K, X(1, 2))
b = m.bind(v)
result = (b(X(1, 2)), b.variables)
""",
    )
    add(
        "mod/unbind",
        """
class M(nn.Module):
    def setup(self):
        self.d = nn.Dense(2)
    def __call__(self, x):
        return self.d(x)
m = M()
v = m.init(K, X(1, 3))
mod, vars_ = m.bind(v).unbind()
result = vars_
""",
    )
    add(
        "mod/init_twice_names",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(2)
        return d(x) + d(x)
result = M().init_with_output(K, X(1, 2))
""",
    )
    add(
        "mod/dup_name",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2, name='a')(x) + nn.Dense(2, name='a')(x)
result = M().init(K, X(1, 2))
""",
    )
    add(
        "mod/intermediates_get",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        y = nn.Dense(2)(x)
        self.sow('intermediates', 'y', y)
        return y
m = M()
v = m.init(K, X(1, 2))
_, st = m.apply(v, X(1, 2), mutable='intermediates')
result = st
""",
    )
    # lifted transforms
    add(
        "lift/scan_layers",
        """
class Block(nn.Module):
    @nn.compact
    def __call__(self, c, _):
        return nn.tanh(nn.Dense(4)(c)), c.sum()
Stack = nn.scan(Block, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
m = Stack()
x = X(2, 4)
v = m.init(K, x, None)
out = m.apply(v, x, None)
g = jax.grad(lambda v: m.apply(v, x, None)[0].sum())(v)
result = (v, out, g)
""",
    )
    add(
        "lift/scan_inputs",
        """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(3)(jnp.concatenate([c, x], -1))
        return h, h * 2
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=1, out_axes=1)
c0 = jnp.zeros((2, 3))
xs = X(2, 5, 2)
v = S().init(K, c0, xs)
result = (v, S().apply(v, c0, xs))
""",
    )
    add(
        "lift/scan_reverse_unroll",
        """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(3)(c) + x
        return h, h
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, reverse=True, unroll=2)
c0 = jnp.ones((3,))
xs = X(4, 3)
v = S().init(K, c0, xs)
result = (v, S().apply(v, c0, xs))
""",
    )
    add(
        "lift/vmap",
        """
V = nn.vmap(nn.Dense, in_axes=0, out_axes=0, variable_axes={'params': 0}, split_rngs={'params': True})
m = V(3)
x = X(4, 2, 5)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/vmap_broadcast",
        """
V = nn.vmap(nn.Dense, in_axes=1, out_axes=1, variable_axes={'params': None}, split_rngs={'params': False})
m = V(3)
x = X(2, 4, 5)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/remat",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.remat(nn.Dense)(4)(x)
        return nn.checkpoint(nn.Dense)(2)(nn.relu(x))
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x), jax.grad(lambda v: m.apply(v, x).sum())(v))
""",
    )
    add(
        "lift/remat_static",
        """
class B(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        return nn.Dropout(0.5, deterministic=not train)(nn.Dense(3)(x))
R = nn.remat(B, static_argnums=(2,))
m = R()
x = X(2, 3)
v = m.init(K, x, False)
result = (v, m.apply(v, x, True, rngs={'dropout': K}))
""",
    )
    add(
        "lift/jit",
        """
J = nn.jit(nn.Dense)
m = J(3)
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/jit_method",
        """
class M(nn.Module):
    @nn.jit
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)
m = M()
x = X(2, 4)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/grad",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(1)
        def f(mdl, x):
            return mdl(x).sum()
        g = nn.grad(f, d)(x)
        return g
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/value_and_grad",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(1)
        def f(mdl, x):
            return mdl(x).sum()
        val, (gp, gx) = nn.value_and_grad(f, d, x, reduce_axes=())  if False else (None, (None, None))
        y, g = nn.value_and_grad(f, d, x)
        return y, g
m = M()
x = X(2, 3)
v = m.init(K, x)
result = (v, m.apply(v, x))
""",
    )
    add(
        "lift/while_loop",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        d = nn.Dense(2)
        def cond(mdl, c):
            return c[0] < 3
        def body(mdl, c):
            return (c[0] + 1, mdl(c[1]))
        return nn.while_loop(cond, body, self, (0, x), carry_variables='params') if False else d(x)
result = M().init_with_output(K, X(1, 2))
""",
    )
    add(
        "lift/map_variables",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        D = nn.map_variables(nn.Dense, 'params', lambda p: jax.tree_util.tree_map(lambda a: a * 0.5, p), init=True)
        return D(3)(x)
result = M().init_with_output(K, X(2, 2))
""",
    )
    add(
        "lift/cond",
        """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, pred):
        a = nn.Dense(2, name='a')
        b = nn.Dense(2, name='b')
        if self.is_initializing():
            a(x); b(x)
        return nn.cond(pred, lambda m, x: a(x), lambda m, x: b(x), self, x)
m = M()
x = X(1, 3)
v = m.init(K, x, True)
result = (v, m.apply(v, x, True), m.apply(v, x, False))
""",
    )


def gen_init() -> None:
    inits = [
        "nn.initializers.lecun_normal()",
        "nn.initializers.lecun_uniform()",
        "nn.initializers.glorot_normal()",
        "nn.initializers.glorot_uniform()",
        "nn.initializers.he_normal()",
        "nn.initializers.he_uniform()",
        "nn.initializers.xavier_uniform()",
        "nn.initializers.kaiming_normal()",
        "nn.initializers.normal(0.5)",
        "nn.initializers.truncated_normal(0.3)",
        "nn.initializers.uniform(2.0)",
        "nn.initializers.orthogonal()",
        "nn.initializers.orthogonal(2.0, column_axis=0)",
        "nn.initializers.delta_orthogonal()",
        "nn.initializers.zeros",
        "nn.initializers.ones",
        "nn.initializers.zeros_init()",
        "nn.initializers.ones_init()",
        "nn.initializers.constant(3.0)",
        "nn.initializers.variance_scaling(2.0, 'fan_avg', 'uniform')",
        "nn.initializers.variance_scaling(1.0, 'fan_in', 'truncated_normal', in_axis=0, out_axis=(1, 2))",
        "nn.initializers.variance_scaling(1.0, 'fan_out', 'normal', batch_axis=0)",
        "nn.initializers.normal()",
    ]
    for i, init in enumerate(inits):
        for shape, dt in [
            ("(3, 4)", "jnp.float32"),
            ("(3, 3, 2, 4)", "jnp.float32"),
            ("(5, 2)", "jnp.bfloat16"),
            ("(4,)", "jnp.float16"),
            ("(2, 3)", "jnp.complex64"),
        ]:
            add(
                f"init/{i}/{init}/{shape}/{dt}",
                f"""
f = {init}
result = f(jax.random.key(3), {shape}, {dt})
""",
            )
    add(
        "init/default_kernel",
        "result = nn.Dense(3, kernel_init=nn.linear.default_kernel_init).init(K, X(1, 2))",
    )


def gen_acts() -> None:
    acts = [
        "relu",
        "relu6",
        "sigmoid",
        "softplus",
        "soft_sign",
        "silu",
        "swish",
        "log_sigmoid",
        "leaky_relu",
        "hard_sigmoid",
        "hard_silu",
        "hard_swish",
        "hard_tanh",
        "elu",
        "celu",
        "selu",
        "gelu",
        "glu",
        "log_softmax",
        "softmax",
        "standardize",
        "one_hot",
        "logsumexp",
        "tanh",
        "sparse_plus",
        "sparse_sigmoid",
        "squareplus",
        "mish",
        "identity",
    ]
    for a in acts:
        for dt in ["jnp.float32", "jnp.bfloat16"]:
            if a == "one_hot":
                src = f"result = nn.one_hot(jnp.array([0, 2, -1, 5]), 4, dtype={dt})"
            else:
                src = f"""
x = jnp.array([[-3.0, -0.5, 0.0, 0.5, 2.0, 10.0]], {dt})
f = getattr(nn, '{a}', None)
y = f(x)
g = jax.grad(lambda x: f(x).astype(jnp.float32).sum())(x) if '{a}' not in ('standardize',) else None
result = (y, g)
"""
            add(f"act/{a}/{dt}", src)
    add("act/gelu_exact", "result = nn.gelu(X(5), approximate=False)")
    add("act/softmax_where", "result = nn.softmax(X(2, 3), where=jnp.array([[True, False, True]]))")
    add("act/PReLU", "m = nn.PReLU()\nresult = m.init_with_output(K, X(2, 3))")


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


def gen_optax() -> None:
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
def gen_flaxutil() -> None:
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


def build() -> dict[str, str]:
    if not P:
        gen_layers()
        gen_attention()
        gen_pool()
        gen_rnn()
        gen_module()
        gen_init()
        gen_acts()
        gen_optax()
        gen_flaxutil()
    return P


# --------------------------------------------------------------------------------------------
# running one side
def _describe(x: Any) -> Any:
    import jax
    import numpy as np

    if hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, type):
        dt = str(x.dtype)
        weak = getattr(x, "weak_type", None)
        if "key<" in dt:
            data = np.asarray(jax.random.key_data(x))
            return ("key", dt, tuple(x.shape), None, data)
        arr = np.asarray(x)
        if (
            arr.dtype.kind == "V"
            or dt in ("bfloat16", "float8_e4m3fn", "float8_e5m2")
            or (arr.dtype.kind == "f" and arr.dtype.itemsize < 8)
        ):
            arr = arr.astype(np.float64)
        return ("arr", dt, tuple(arr.shape), weak, arr)
    if isinstance(x, (bool, int, float, complex, str, type(None))):
        return ("py", type(x).__name__, None, None, x)
    return ("obj", type(x).__name__, None, None, None)


def normalize(result: Any) -> Any:
    import jax

    def leaf(v: Any) -> bool:
        # trellax's key arrays are pytree nodes (docs/compat.md): compare them as JAX's leaves
        return v is None or "key<" in str(getattr(v, "dtype", ""))

    leaves = jax.tree_util.tree_flatten_with_path(result, is_leaf=leaf)[0]
    return [(jax.tree_util.keystr(p), _describe(v)) for p, v in leaves]


class _Timeout(Exception):
    pass


def run_side(names: list[str], out: str) -> None:
    if os.environ.get("PROBE_TRELLAX"):
        import trellax.compat

        trellax.compat.install()
    progs = build()
    results: dict[str, Any] = {}

    def alarm(*_: Any) -> None:
        raise _Timeout()

    signal.signal(signal.SIGALRM, alarm)
    for name in names:
        ns: dict[str, Any] = {}
        signal.alarm(60)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(PRELUDE + progs[name], name, "exec"), ns)
                results[name] = ("ok", normalize(ns["result"]))
        except _Timeout:
            results[name] = ("timeout", "")
        except Exception as e:
            tb = traceback.format_exc().splitlines()[-3:]
            results[name] = ("err", type(e).__name__, str(e)[:300], tb)
        finally:
            signal.alarm(0)
    with open(out, "wb") as f:
        pickle.dump(results, f)


# --------------------------------------------------------------------------------------------
# comparing
CLASSES = [
    "value",
    "dtype",
    "weak",
    "shape",
    "structure",
    "crash",
    "accepts",
    "error_class",
    "timeout",
]


def _close(a: Any, b: Any, dt: str) -> bool:
    import numpy as np

    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        if dt in ("bfloat16", "float16"):
            rtol, atol = 2e-2, 2e-2
        elif dt in ("float64", "complex128"):
            rtol, atol = 1e-10, 1e-12
        else:
            rtol, atol = 1e-5, 1e-6
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(a, b))


def compare(ref: Any, tre: Any) -> tuple[str, str] | None:
    if ref[0] == "timeout" or tre[0] == "timeout":
        return None if ref[0] == tre[0] else ("timeout", f"{ref[0]} vs {tre[0]}")
    if ref[0] == "err" and tre[0] == "err":
        if ref[1] == tre[1]:
            return None
        return ("error_class", f"{ref[1]}: {ref[2][:120]} || {tre[1]}: {tre[2][:160]}")
    if ref[0] == "err":
        return ("accepts", f"reference raised {ref[1]}: {ref[2][:160]}")
    if tre[0] == "err":
        return ("crash", f"{tre[1]}: {tre[2][:200]} @ {tre[3][0].strip()[:150]}")
    rl, tl = ref[1], tre[1]
    if [p for p, _ in rl] != [p for p, _ in tl]:
        rp = [p for p, _ in rl]
        tp = [p for p, _ in tl]
        return (
            "structure",
            f"ref {rp[:6]}... ({len(rp)}) vs {tp[:6]}... ({len(tp)}); only ref {sorted(set(rp) - set(tp))[:4]} only trellax {sorted(set(tp) - set(rp))[:4]}",
        )
    worst: tuple[str, str] | None = None
    order = {c: i for i, c in enumerate(CLASSES)}
    for (p, a), (_, b) in zip(rl, tl):
        found: tuple[str, str] | None = None
        if a[0] != b[0] or a[1] != b[1]:
            if a[0] == "arr" and b[0] == "arr":
                found = ("dtype", f"{p}: {a[1]} vs {b[1]}")
            elif (
                a[0] == "py"
                and b[0] == "py"
                and a[1] in ("int", "float")
                and b[1] in ("int", "float")
            ):
                found = ("dtype", f"{p}: py {a[1]} vs {b[1]}")
            else:
                found = ("structure", f"{p}: {a[:2]} vs {b[:2]}")
        elif a[2] != b[2]:
            found = ("shape", f"{p}: {a[2]} vs {b[2]}")
        elif a[0] == "py":
            if a[1] in ("float", "complex"):
                if not _close(a[4], b[4], "float64"):
                    found = ("value", f"{p}: {a[4]!r} vs {b[4]!r}")
            elif a[4] != b[4] and a[1] != "str":
                found = ("value", f"{p}: {a[4]!r} vs {b[4]!r}")
        elif a[0] in ("arr", "key"):
            if not _close(a[4], b[4], a[1]):
                import numpy as np

                x = np.asarray(a[4]).ravel()[:4]
                y = np.asarray(b[4]).ravel()[:4]
                found = ("value", f"{p}: {a[1]}{a[2]} ref {x} vs {y}")
            elif a[3] is not None and b[3] is not None and a[3] != b[3]:
                found = ("weak", f"{p}: weak {a[3]} vs {b[3]}")
        if found and (worst is None or order[found[0]] < order[worst[0]]):
            worst = found
    return worst


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix", nargs="?", default="", help="comma-separated name prefixes")
    ap.add_argument("--side", choices=["run"], default=None)
    ap.add_argument("--out", default="")
    ap.add_argument("--names", default="")
    ap.add_argument("--ref-python", default="/tmp/jaxref/bin/python")
    ap.add_argument("--trellax-python", default="/work/main/.venv/bin/python")
    ap.add_argument("--cache", default="/tmp/probe_flax_optax_ref.pkl")
    ap.add_argument("--fresh-ref", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.side == "run":
        run_side(pathlib.Path(args.names).read_text().split("\n"), args.out)
        return
    names = [n for n in build() if n.startswith(tuple(args.prefix.split(",")))]
    tmp = pathlib.Path("/tmp/probe_flax_optax_names.txt")
    tmp.write_text("\n".join(names))
    ref: dict[str, Any] = {}
    if os.path.exists(args.cache) and not args.fresh_ref:
        with open(args.cache, "rb") as f:
            ref = pickle.load(f)
    missing = [n for n in names if n not in ref]
    if missing:
        mtmp = pathlib.Path("/tmp/probe_flax_optax_missing.txt")
        mtmp.write_text("\n".join(missing))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["JAX_PLATFORMS"] = "cpu"
        out = "/tmp/probe_flax_optax_ref_new.pkl"
        subprocess.run(
            [args.ref_python, __file__, "--side", "run", "--names", str(mtmp), "--out", out],
            env=env,
            check=True,
        )
        with open(out, "rb") as f:
            ref.update(pickle.load(f))
        with open(args.cache, "wb") as f:
            pickle.dump(ref, f)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["PROBE_TRELLAX"] = "1"
    out = "/tmp/probe_flax_optax_trellax.pkl"
    subprocess.run(
        [args.trellax_python, __file__, "--side", "run", "--names", str(tmp), "--out", out],
        env=env,
        check=True,
    )
    with open(out, "rb") as f:
        tre = pickle.load(f)
    by_class: collections.Counter[str] = collections.Counter()
    by_area: collections.Counter[tuple[str, str]] = collections.Counter()
    for n in names:
        d = compare(ref[n], tre[n])
        if d is None:
            continue
        by_class[d[0]] += 1
        by_area[(n.split("/")[0], d[0])] += 1
        if args.list:
            print(f"{d[0]:11} {n}\n            {d[1]}")
    print(f"{len(names)} programs, {sum(by_class.values())} differ")
    for c in CLASSES:
        if by_class[c]:
            print(f"  {c:12} {by_class[c]}")
    for (area, c), k in sorted(by_area.items()):
        print(f"  {area:14} {c:12} {k}")


if __name__ == "__main__":
    sys.exit(main())
