"""Cases of ``trellax.nn`` checked against Flax: built by the same code on both sides.

``tools/gen_golden_nn.py`` runs every case with ``flax.linen``/``jax.numpy`` and writes
``tests/golden/nn.json``; ``tests/test_nn_golden.py`` runs it with ``trellax.nn``/
``trellax.numpy``. A case's ``build(ns)`` receives a namespace ``ns`` whose attributes name the
library's pieces (``ns.nn``, ``ns.jnn`` (``jax.nn``), ``ns.jnp``, ``ns.lax``, ``ns.norm`` the
private normalization module with ``_compute_stats``, ``ns.vmap``, ``ns.grad``) and
``ns.x(shape, dtype)``, deterministic data from NumPy (identical on both sides). This module
imports only NumPy.

Kinds of case:

- ``module``: ``build`` returns ``(module, args)``; the generator records ``init``'s variables
  and ``apply(variables, *args, **apply_kw)`` (``mutable`` gives ``(out, updated)``). The test
  applies trellax's module to the recorded variables (so no random numbers are needed) and, when
  ``trellax.random`` exists, also checks ``init``'s variable dtypes and shapes.
- ``fn``: ``build`` returns ``(function, args)``; the output of ``function(*args)`` is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Case:
    name: str
    kind: str  # "module" or "fn"
    build: Callable[[Any], tuple[Any, list[Any]]]
    apply_kw: dict[str, Any] = field(default_factory=dict)
    x64: bool = False
    cast_params: str | None = None  # cast every parameter to this dtype after init
    values: bool = True  # compare numeric values (False when they depend on random streams)
    step: int | None = None  # decode: apply once more on args[0][:, step:step+1], mutable cache
    decision: bool = False  # trellax departs from Flax here on purpose (own tests)


def data(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    """Deterministic inputs: integers in [-3, 3] for int/bool dtypes, else normal values."""
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.startswith(("int", "uint")):
        lo = 0 if dtype.startswith("uint") else -3
        return rng.integers(lo, 4, shape).astype(dtype)
    if dtype.startswith("complex"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(np.float64)


BF16, F16, F32, I32 = "bfloat16", "float16", "float32", "int32"
CASES: list[Case] = []


def case(name: str, kind: str = "module", **kw: Any) -> Callable[[Any], Any]:
    def deco(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
        CASES.append(Case(name, kind, build, **kw))
        return build

    return deco


# -- the spec's 41 acceptance cases (section 4) --------------------------------------------------

for dt in (F32, BF16, F16, I32, "int8", "bool", "complex64"):
    case(f"1-3,9,11 Dense(4) {dt}")(lambda ns, dt=dt: (ns.nn.Dense(4), [ns.x((2, 3), dt)]))
case("4 Dense(dtype=bf16) bf16")(lambda ns: (ns.nn.Dense(4, dtype=BF16), [ns.x((2, 3), BF16)]))
case("5 Dense(dtype=bf16) f32")(lambda ns: (ns.nn.Dense(4, dtype=BF16), [ns.x((2, 3), F32)]))
for dt in (BF16, F16, I32):
    case(f"6-8 Dense(param_dtype=bf16) {dt}")(
        lambda ns, dt=dt: (ns.nn.Dense(4, param_dtype=BF16), [ns.x((2, 3), dt)])
    )
case("10 Dense(dtype=int32)")(lambda ns: (ns.nn.Dense(4, dtype=I32), [ns.x((2, 3), I32)]))
case("12 Dense(param_dtype=c64) f32", values=False)(
    lambda ns: (ns.nn.Dense(4, param_dtype="complex64"), [ns.x((2, 3), F32)])
)
case("13 Dense(dtype=f32) c64")(lambda ns: (ns.nn.Dense(4, dtype=F32), [ns.x((2, 3), "complex64")]))
for dt in (BF16, F32):
    case(f"14 Dense params cast to bf16, {dt} input", cast_params=BF16)(
        lambda ns, dt=dt: (ns.nn.Dense(4), [ns.x((2, 3), dt)])
    )
for dt in ("float64", "complex128", "int64"):
    case(f"15 x64 Dense(4) {dt}", x64=True)(lambda ns, dt=dt: (ns.nn.Dense(4), [ns.x((2, 3), dt)]))
for dt in (BF16, "complex64", I32):
    case(f"16 Conv(4,(3,3)) {dt}")(
        lambda ns, dt=dt: (ns.nn.Conv(4, (3, 3)), [ns.x((1, 5, 5, 2), dt)])
    )
case("16 ConvTranspose bf16")(
    lambda ns: (ns.nn.ConvTranspose(4, (3, 3), strides=(2, 2)), [ns.x((1, 4, 4, 2), BF16)])
)
case("16 DenseGeneral((2,2)) bf16")(lambda ns: (ns.nn.DenseGeneral((2, 2)), [ns.x((2, 3), BF16)]))
case("16 Einsum bf16")(lambda ns: (ns.nn.Einsum((3, 4), "ab,bc->ac"), [ns.x((2, 3), BF16)]))
for dt in (I32, "uint8", "int8"):
    case(f"17 Embed(5,3) {dt}")(
        lambda ns, dt=dt: (ns.nn.Embed(5, 3), [ns.jnp.asarray([0, 4, 2], dt)])
    )
case("18 Embed(dtype=bf16)")(
    lambda ns: (ns.nn.Embed(5, 3, dtype=BF16), [ns.jnp.asarray([1, 3], I32)])
)
case("18 Embed(param_dtype=bf16)")(
    lambda ns: (ns.nn.Embed(5, 3, param_dtype=BF16), [ns.jnp.asarray([1, 3], I32)])
)
for dt in (F32, "bool"):
    case(f"19 Embed {dt} indices")(lambda ns, dt=dt: (ns.nn.Embed(5, 3), [ns.x((2,), dt)]))
case("20 Embed(param_dtype=int32)")(
    lambda ns: (
        ns.nn.Embed(5, 3, param_dtype=I32, embedding_init=ns.nn.initializers.zeros),
        [ns.jnp.asarray([1, 3], I32)],
    )
)
case("17b Embed negative and out-of-range indices")(
    lambda ns: (ns.nn.Embed(5, 3), [ns.jnp.asarray([-1, 4, 5, 99], I32)])
)
for dt in (BF16, I32, "complex64"):
    case(f"21 Embed.attend {dt}", apply_kw={"method": "attend"})(
        lambda ns, dt=dt: (ns.nn.Embed(5, 3), [ns.x((2, 3), dt)])
    )
for layer in ("LayerNorm", "RMSNorm", "GroupNorm", "InstanceNorm"):
    for dt in (F16, BF16):
        case(f"22 {layer} {dt}")(
            lambda ns, layer=layer, dt=dt: (
                getattr(ns.nn, layer)(**({"num_groups": 2} if layer == "GroupNorm" else {})),
                [ns.x((2, 3, 4), dt)],
            )
        )
case("23 LayerNorm no scale/bias bf16")(
    lambda ns: (ns.nn.LayerNorm(use_scale=False, use_bias=False), [ns.x((2, 4), BF16)])
)
case("23 RMSNorm no scale bf16")(lambda ns: (ns.nn.RMSNorm(use_scale=False), [ns.x((2, 4), BF16)]))
for dt in (F32, F16, I32):
    case(f"24 LayerNorm(dtype=bf16) {dt}")(
        lambda ns, dt=dt: (ns.nn.LayerNorm(dtype=BF16), [ns.x((2, 4), dt)])
    )
for dt in (BF16, F16):
    case(f"25 LayerNorm(param_dtype=bf16) {dt}")(
        lambda ns, dt=dt: (ns.nn.LayerNorm(param_dtype=BF16), [ns.x((2, 4), dt)])
    )
case("26 LayerNorm int32")(lambda ns: (ns.nn.LayerNorm(), [ns.x((2, 4), I32)]))
case("26 LayerNorm no scale/bias int32")(
    lambda ns: (ns.nn.LayerNorm(use_scale=False, use_bias=False), [ns.x((2, 4), I32)])
)
case("27 LayerNorm complex64")(
    lambda ns: (
        ns.nn.LayerNorm(use_scale=False, use_bias=False, epsilon=0.0),
        [ns.x((2, 6), "complex64")],
    )
)
for dt, d in ((F16, F16), (BF16, BF16), (F32, BF16)):
    case(f"28 _compute_stats {dt} dtype={d}", kind="fn")(
        lambda ns, dt=dt, d=d: (
            lambda x: ns.norm._compute_stats(x, (1,), ns.jnp.dtype(d)),
            [ns.x((2, 5), dt)],
        )
    )
for dt in ("float64", "complex128"):
    case(f"28 x64 _compute_stats {dt}", kind="fn", x64=True)(
        lambda ns, dt=dt: (lambda x: ns.norm._compute_stats(x, (1,), None), [ns.x((2, 5), dt)])
    )
for dt in (F16, BF16):
    case(f"29 BatchNorm train {dt}", apply_kw={"mutable": ["batch_stats"]})(
        lambda ns, dt=dt: (ns.nn.BatchNorm(use_running_average=False), [ns.x((4, 3), dt)])
    )
case("30 BatchNorm(dtype=bf16) train f32", apply_kw={"mutable": ["batch_stats"]})(
    lambda ns: (ns.nn.BatchNorm(use_running_average=False, dtype=BF16), [ns.x((4, 3), F32)])
)
case("31 BatchNorm train without mutable")(
    lambda ns: (ns.nn.BatchNorm(use_running_average=False), [ns.x((4, 3), F32)])
)
case("32 BatchNorm complex64 train", apply_kw={"mutable": ["batch_stats"]}, decision=True)(
    lambda ns: (ns.nn.BatchNorm(use_running_average=False), [ns.x((4, 3), "complex64")])
)
case(
    "32b x64 BatchNorm float64 train",
    apply_kw={"mutable": ["batch_stats"]},
    x64=True,
    decision=True,
)(lambda ns: (ns.nn.BatchNorm(use_running_average=False), [ns.x((4, 3), "float64")]))
for dts in ((BF16, BF16, BF16), (BF16, F32, F16), (I32, I32, I32)):
    case(f"33 dot_product_attention {dts}", kind="fn")(
        lambda ns, dts=dts: (
            ns.nn.dot_product_attention,
            [ns.x((1, 3, 2, 4), d, seed=i) for i, d in enumerate(dts)],
        )
    )
case("34 dot_product_attention force_fp32_for_softmax", kind="fn")(
    lambda ns: (
        lambda q, k, v: ns.nn.dot_product_attention(q, k, v, force_fp32_for_softmax=True),
        [ns.x((1, 3, 2, 4), BF16, seed=i) for i in range(3)],
    )
)
case("35 dot_product_attention f32 bias", kind="fn")(
    lambda ns: (
        lambda q, k, v: ns.nn.dot_product_attention(q, k, v, bias=ns.jnp.zeros((1, 2, 3, 3), F32)),
        [ns.x((1, 3, 2, 4), BF16, seed=i) for i in range(3)],
    )
)
case("35 dot_product_attention bool mask", kind="fn")(
    lambda ns: (
        lambda q, k, v: ns.nn.dot_product_attention(
            q, k, v, mask=ns.nn.make_causal_mask(ns.jnp.ones((1, 3)), dtype=bool)
        ),
        [ns.x((1, 3, 2, 4), BF16, seed=i) for i in range(3)],
    )
)
case("36 MHA(num_heads=2) bf16")(
    lambda ns: (ns.nn.MultiHeadDotProductAttention(num_heads=2), [ns.x((2, 5, 8), BF16)])
)
case("37 MHA(dtype=bf16) bf16")(
    lambda ns: (
        ns.nn.MultiHeadDotProductAttention(num_heads=2, dtype=BF16),
        [ns.x((2, 5, 8), BF16)],
    )
)
case("37 MHA(param_dtype=bf16) bf16")(
    lambda ns: (
        ns.nn.MultiHeadDotProductAttention(num_heads=2, param_dtype=BF16),
        [ns.x((2, 5, 8), BF16)],
    )
)
for kw, dt in (
    ({}, BF16),
    ({"dtype": BF16}, F32),
    ({"param_dtype": BF16}, BF16),
    ({"param_dtype": F16}, F16),
):
    case(f"38-39 MHA decode {kw} {dt}", step=0)(
        lambda ns, kw=kw, dt=dt: (
            ns.nn.MultiHeadDotProductAttention(num_heads=2, decode=True, **kw),
            [ns.x((2, 5, 8), dt)],
        )
    )
case("40 dot_product_attention complex64", kind="fn", decision=True)(
    lambda ns: (
        ns.nn.dot_product_attention,
        [ns.x((1, 3, 2, 4), "complex64", seed=i) for i in range(3)],
    )
)
case("41 PReLU bf16")(lambda ns: (ns.nn.PReLU(), [ns.x((2, 4), BF16)]))
case("41 Dropout bf16", apply_kw={"rngs": "dropout"}, values=False)(
    lambda ns: (ns.nn.Dropout(0.5, deterministic=False), [ns.x((2, 4), BF16)])
)
for fn in ("relu", "gelu"):
    case(f"41 {fn} bf16", kind="fn")(lambda ns, fn=fn: (getattr(ns.nn, fn), [ns.x((2, 4), BF16)]))
case("41 avg_pool int32", kind="fn")(
    lambda ns: (lambda x: ns.nn.avg_pool(x, (2, 2)), [ns.x((1, 4, 4, 1), I32)])
)

# -- every layer x input dtype x (dtype, param_dtype) -------------------------------------------

LAYERS: dict[str, Callable[[Any, dict[str, Any]], Any]] = {
    "Dense": lambda nn, kw: nn.Dense(3, **kw),
    "DenseGeneral": lambda nn, kw: nn.DenseGeneral((2, 3), axis=(-2, -1), **kw),
    "Einsum": lambda nn, kw: nn.Einsum((4, 3, 2), "...b,bcd->...dc", **kw),
    "Conv": lambda nn, kw: nn.Conv(3, (2, 2), strides=(2, 1), padding="VALID", **kw),
    "ConvTranspose": lambda nn, kw: nn.ConvTranspose(3, (3, 2), strides=(2, 2), **kw),
    "LayerNorm": lambda nn, kw: nn.LayerNorm(**kw),
    "RMSNorm": lambda nn, kw: nn.RMSNorm(**kw),
    "GroupNorm": lambda nn, kw: nn.GroupNorm(num_groups=2, **kw),
    "InstanceNorm": lambda nn, kw: nn.InstanceNorm(**kw),
    "BatchNorm": lambda nn, kw: nn.BatchNorm(use_running_average=True, **kw),
    "MultiHeadDotProductAttention": lambda nn, kw: nn.MultiHeadDotProductAttention(
        num_heads=2, **kw
    ),
}
for layer in LAYERS:
    for dt in (F32, BF16, F16, I32):
        for kw in ({}, {"dtype": BF16}, {"param_dtype": BF16}, {"dtype": F16, "param_dtype": BF16}):
            if layer == "MultiHeadDotProductAttention" and dt == I32:
                continue
            case(f"matrix {layer} {dt} {kw}")(
                lambda ns, layer=layer, dt=dt, kw=kw: (
                    LAYERS[layer](ns.nn, kw),
                    [ns.x((2, 3, 4, 4) if "Conv" in layer else (2, 3, 4), dt)],
                )
            )

# -- more layer behaviour: padding modes, strides, dilation, groups, pooling, recurrences ------

CONVS = {
    "SAME stride 2": dict(padding="SAME", strides=2),
    "VALID dilated": dict(padding="VALID", kernel_dilation=2),
    "CIRCULAR": dict(padding="CIRCULAR"),
    "explicit pads": dict(padding=((1, 0), (2, 1))),
    "int pad": dict(padding=1),
    "input dilation": dict(input_dilation=(2, 1)),
    "groups": dict(feature_group_count=2),
    "no bias": dict(use_bias=False),
}
for nm, kw in CONVS.items():
    case(f"Conv2d {nm}")(lambda ns, kw=kw: (ns.nn.Conv(4, (3, 2), **kw), [ns.x((2, 6, 5, 4), F32)]))
case("Conv1d CAUSAL")(
    lambda ns: (ns.nn.Conv(2, (3,), padding="CAUSAL", kernel_dilation=2), [ns.x((2, 7, 3), F32)])
)
case("Conv1d unbatched")(lambda ns: (ns.nn.Conv(2, (3,)), [ns.x((7, 3), F32)]))
case("Conv3d extra batch axes")(
    lambda ns: (ns.nn.Conv(2, (2, 2, 2), strides=(1, 2, 1)), [ns.x((2, 2, 4, 5, 3, 2), F32)])
)
case("Conv kernel_size int")(lambda ns: (ns.nn.Conv(2, 3), [ns.x((1, 5, 2), F32)]))
for nm, kw in {
    "SAME": dict(strides=(2, 2)),
    "VALID": dict(strides=(2, 1), padding="VALID"),
    "CIRCULAR": dict(strides=(2, 2), padding="CIRCULAR"),
    "explicit": dict(strides=(1, 2), padding=((1, 2), (0, 1))),
    "dilated": dict(kernel_dilation=(2, 1)),
    "transpose_kernel": dict(strides=(2, 2), transpose_kernel=True),
}.items():
    case(f"ConvTranspose {nm}")(
        lambda ns, kw=kw: (ns.nn.ConvTranspose(3, (3, 2), **kw), [ns.x((2, 5, 4, 2), F32)])
    )
for nm, call in {
    "max_pool SAME": lambda nn, x: nn.max_pool(x, (3, 2), strides=(2, 2), padding="SAME"),
    "max_pool VALID": lambda nn, x: nn.max_pool(x, (2, 2)),
    "avg_pool SAME": lambda nn, x: nn.avg_pool(x, (3, 3), strides=(2, 1), padding="SAME"),
    "avg_pool no pad count": lambda nn, x: nn.avg_pool(
        x, (3, 3), padding="SAME", count_include_pad=False
    ),
    "avg_pool explicit": lambda nn, x: nn.avg_pool(x, (2, 2), padding=((1, 0), (0, 1))),
    "max_pool unbatched 1d": lambda nn, x: nn.max_pool(x[0], (2,), strides=(1,)),
}.items():
    case(f"pool {nm}", kind="fn")(
        lambda ns, call=call: (lambda x: call(ns.nn, x), [ns.x((2, 5, 6, 3), F32)])
    )
case("LayerNorm reduction_axes=(1,2) feature_axes=-1")(
    lambda ns: (ns.nn.LayerNorm(reduction_axes=(1, 2)), [ns.x((2, 3, 4), F32)])
)
case("LayerNorm slow variance")(
    lambda ns: (ns.nn.LayerNorm(use_fast_variance=False), [ns.x((2, 5), F32)])
)
case("GroupNorm group_size")(
    lambda ns: (ns.nn.GroupNorm(num_groups=None, group_size=2), [ns.x((2, 3, 6), F32)])
)
case("GroupNorm bad groups")(lambda ns: (ns.nn.GroupNorm(num_groups=4), [ns.x((2, 3, 6), F32)]))
case("BatchNorm eval axis=1")(
    lambda ns: (ns.nn.BatchNorm(use_running_average=True, axis=1), [ns.x((4, 3, 2), F32)])
)
case("BatchNorm train momentum", apply_kw={"mutable": ["batch_stats"]})(
    lambda ns: (ns.nn.BatchNorm(use_running_average=False, momentum=0.5), [ns.x((6, 2), F32)])
)
case("BatchNorm merge_param missing")(lambda ns: (ns.nn.BatchNorm(), [ns.x((4, 3), F32)]))
case("Dropout merge_param both", apply_kw={"deterministic": True})(
    lambda ns: (ns.nn.Dropout(0.5, deterministic=True), [ns.x((4, 3), F32)])
)
case("Dropout deterministic")(
    lambda ns: (ns.nn.Dropout(0.5, deterministic=True), [ns.x((4, 3), F32)])
)
case("Dropout rate 1", apply_kw={"rngs": "dropout"})(
    lambda ns: (ns.nn.Dropout(1.0, deterministic=False), [ns.x((4, 3), F32)])
)
for cell in ("LSTMCell", "GRUCell", "SimpleCell"):
    case(f"RNN {cell}")(
        lambda ns, cell=cell: (ns.nn.RNN(getattr(ns.nn, cell)(5)), [ns.x((2, 4, 3), F32)])
    )
case("RNN LSTM return_carry reverse keep_order")(
    lambda ns: (
        ns.nn.RNN(ns.nn.LSTMCell(4), return_carry=True, reverse=True, keep_order=True),
        [ns.x((2, 4, 3), F32)],
    )
)
case("RNN GRU seq_lengths", apply_kw={"seq_lengths": "lengths"})(
    lambda ns: (ns.nn.RNN(ns.nn.GRUCell(3), return_carry=True), [ns.x((2, 5, 3), F32)])
)
case("RNN time_major")(
    lambda ns: (ns.nn.RNN(ns.nn.SimpleCell(3), time_major=True), [ns.x((4, 2, 3), F32)])
)
case("MHA cross attention qkv_features out_features mask")(
    lambda ns: (
        ns.nn.MultiHeadDotProductAttention(num_heads=2, qkv_features=6, out_features=5),
        [ns.x((2, 3, 4), F32), ns.x((2, 5, 4), F32, seed=1)],
    )
)
case("MHA normalize_qk")(
    lambda ns: (
        ns.nn.MultiHeadDotProductAttention(num_heads=2, normalize_qk=True),
        [ns.x((2, 3, 4), F32)],
    )
)
case("SelfAttention causal mask", apply_kw={"mask": "causal"})(
    lambda ns: (ns.nn.SelfAttention(num_heads=2), [ns.x((2, 3, 4), F32)])
)
case("MHA decode wrong query shape", step=-1)(
    lambda ns: (
        ns.nn.MultiHeadDotProductAttention(num_heads=2, decode=True),
        [ns.x((2, 5, 8), F32)],
    )
)
case("Sequential")(
    lambda ns: (
        ns.nn.Sequential([ns.nn.Dense(3), ns.nn.relu, ns.nn.Dense(2)]),
        [ns.x((2, 4), F32)],
    )
)
case("DenseGeneral batch_dims")(
    lambda ns: (ns.nn.DenseGeneral(3, axis=-1, batch_dims=(0,)), [ns.x((2, 3, 4), F32)])
)
case("Einsum bad string")(lambda ns: (ns.nn.Einsum((3, 4), "ab,bc"), [ns.x((2, 3), F32)]))

# -- cross-device statistics: axis_name under vmap (each mapped element is a "device") ---------


def _mapped_norm(ns: Any, module: Any, train: bool, x: Any, mask: Any = None) -> Any:
    """``(y, updated, variables)`` of ``module`` inited and applied on every element of ``x``'s
    leading axis under ``vmap(axis_name="batch")`` (BatchNorm's stats updated when ``train``)."""

    def one(x: Any, mask: Any) -> Any:
        kw = {} if mask is None else {"mask": mask}
        variables = module.init(ns.key, x, **kw)
        if train:
            y, upd = module.apply(variables, x, mutable=["batch_stats"], **kw)
            return y, upd, variables
        return module.apply(variables, x, **kw), variables

    return ns.vmap(one, axis_name="batch")(x, mask)


AXIS_NAME = {
    "BatchNorm train": (lambda nn: nn.BatchNorm(False, momentum=0.9, axis_name="batch"), True),
    "BatchNorm train slow variance": (
        lambda nn: nn.BatchNorm(False, axis_name="batch", use_fast_variance=False),
        True,
    ),
    "BatchNorm train axis=1 dtype=bf16": (
        lambda nn: nn.BatchNorm(False, axis=1, dtype=BF16, axis_name="batch"),
        True,
    ),
    "BatchNorm eval": (lambda nn: nn.BatchNorm(True, axis_name="batch"), False),
    "LayerNorm": (lambda nn: nn.LayerNorm(axis_name="batch"), False),
    "LayerNorm reduction_axes=(1,2)": (
        lambda nn: nn.LayerNorm(reduction_axes=(1, 2), axis_name="batch"),
        False,
    ),
    "RMSNorm": (lambda nn: nn.RMSNorm(axis_name="batch"), False),
    "GroupNorm": (lambda nn: nn.GroupNorm(num_groups=2, axis_name="batch"), False),
    "InstanceNorm": (lambda nn: nn.InstanceNorm(axis_name="batch"), False),
}
for nm, (make, train) in AXIS_NAME.items():
    for dt in (F32, BF16):
        case(f"axis_name {nm} {dt}", kind="fn")(
            lambda ns, make=make, train=train, dt=dt: (
                lambda x: _mapped_norm(ns, make(ns.nn), train, x),
                [ns.x((3, 4, 2, 4), dt)],
            )
        )
case("axis_name BatchNorm train mask", kind="fn")(
    lambda ns: (
        lambda x, m: _mapped_norm(ns, ns.nn.BatchNorm(False, axis_name="batch"), True, x, m),
        [ns.x((3, 5, 2), F32), ns.x((3, 5, 2), F32, seed=4) > -0.5],
    )
)
case("axis_name _compute_stats", kind="fn")(
    lambda ns: (
        ns.vmap(lambda x: ns.norm._compute_stats(x, (0,), None, "batch"), axis_name="batch"),
        [ns.x((3, 4, 2), BF16)],
    )
)
case("axis_name BatchNorm grad", kind="fn")(
    lambda ns: (
        ns.vmap(
            ns.grad(
                lambda x: (
                    ns.jnp.sum(
                        ns.nn.BatchNorm(True, axis_name="batch").apply(
                            {
                                "params": {"scale": ns.jnp.arange(2.0) + 1, "bias": ns.jnp.ones(2)},
                                "batch_stats": {"mean": ns.jnp.ones(2), "var": ns.jnp.ones(2)},
                            },
                            x,
                        )
                        ** 2
                    )
                    + ns.jnp.sum(
                        ns.nn.LayerNorm(axis_name="batch", use_scale=False, use_bias=False).apply(
                            {}, x
                        )
                        * x
                    )
                )
            ),
            axis_name="batch",
        ),
        [ns.x((3, 4, 2), F32)],
    )
)
case("axis_name axis_index_groups", kind="fn")(
    lambda ns: (
        ns.vmap(
            lambda x: ns.nn.LayerNorm(axis_name="b", axis_index_groups=[[0, 1], [2]]).init(
                ns.key, x
            ),
            axis_name="b",
        ),
        [ns.x((3, 4, 2), F32)],
    )
)

# -- functions -----------------------------------------------------------------------------------

ACTIVATIONS = [
    "relu", "relu6", "sigmoid", "softplus", "log_sigmoid", "silu", "swish", "gelu",
    "leaky_relu", "elu", "celu", "selu", "glu", "hard_tanh", "hard_sigmoid", "hard_silu",
    "mish", "tanh", "softmax", "log_softmax", "standardize", "logsumexp",
    "soft_sign", "squareplus", "sparse_plus", "sparse_sigmoid", "identity", "log1mexp",
    "logmeanexp",
]  # fmt: skip
SPECIALS = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-30, -5.5, 3.25, 40.0, -40.0])
for fn in ACTIVATIONS:
    for dt in (F32, BF16, F16, I32):
        case(f"act {fn} {dt}", kind="fn")(
            lambda ns, fn=fn, dt=dt: (getattr(ns.jnn, fn), [ns.x((3, 4), dt)])
        )
    case(f"act {fn} specials", kind="fn")(
        lambda ns, fn=fn: (getattr(ns.jnn, fn), [ns.jnp.asarray(SPECIALS, F32)])
    )
# derivatives at the kinks and specials (relu/relu6 are custom_jvp in JAX: 0 at their kinks).
GRAD_ACTIVATIONS = [
    "relu", "relu6", "sigmoid", "silu", "gelu", "leaky_relu", "elu", "celu", "selu",
    "softplus", "log_sigmoid",
    "hard_tanh", "hard_sigmoid", "hard_silu", "mish", "tanh",
    "soft_sign", "squareplus", "sparse_plus", "sparse_sigmoid", "log1mexp",
]  # fmt: skip
KINKS = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-30, -1.0, 1.0, -3.0, 3.0, 6.0, 40.0])
for fn in GRAD_ACTIVATIONS:
    case(f"act grad {fn} kinks", kind="fn")(
        lambda ns, fn=fn: (
            ns.vmap(ns.grad(getattr(ns.jnn, fn))),
            [ns.jnp.asarray(KINKS, F32)],
        )
    )
case("act gelu exact", kind="fn")(
    lambda ns: (lambda x: ns.jnn.gelu(x, approximate=False), [ns.x((3, 4), F32)])
)
case("act softmax where axis=0", kind="fn")(
    lambda ns: (
        lambda x: ns.jnn.softmax(x, axis=0, where=x > -0.5),
        [ns.x((3, 4), F32)],
    )
)
case("act logsumexp b return_sign", kind="fn")(
    lambda ns: (
        lambda x: ns.jnn.logsumexp(
            x, axis=1, b=ns.jnp.asarray([1.0, -2.0, 0.5, 1.0]), return_sign=True
        ),
        [ns.x((3, 4), F32)],
    )
)
case("act logsumexp b negative total", kind="fn")(
    lambda ns: (
        lambda x: ns.jnn.logsumexp(x, b=ns.jnp.asarray([1.0, -2.0])),
        [ns.jnp.asarray([0.0, 0.0], F32)],
    )
)
case("act logmeanexp axis where keepdims", kind="fn")(
    lambda ns: (
        lambda x: ns.jnn.logmeanexp(x, axis=1, where=x > -0.5, keepdims=True),
        [ns.x((3, 4), F32)],
    )
)
case("act squareplus b", kind="fn")(
    lambda ns: (lambda x: ns.jnn.squareplus(x, 0.5), [ns.x((3, 4), BF16)])
)
case("act one_hot", kind="fn")(
    lambda ns: (lambda x: ns.jnn.one_hot(x, 4), [ns.jnp.asarray([0, 3, -1, 4, 2], I32)])
)
case("act one_hot axis=0 bf16", kind="fn")(
    lambda ns: (
        lambda x: ns.jnn.one_hot(x, 3, dtype=ns.jnp.bfloat16, axis=0),
        [ns.jnp.asarray([[0, 1], [2, 5]], "uint8")],
    )
)
case("act leaky_relu slope", kind="fn")(
    lambda ns: (lambda x: ns.jnn.leaky_relu(x, 0.2), [ns.x((5,), BF16)])
)
case("mask make_attention_mask", kind="fn")(
    lambda ns: (
        lambda a, b: ns.nn.make_attention_mask(a > 0, b > 0),
        [ns.x((2, 3), F32), ns.x((2, 4), F32, seed=3)],
    )
)
case("mask make_causal_mask", kind="fn")(
    lambda ns: (lambda a: ns.nn.make_causal_mask(a, extra_batch_dims=1), [ns.x((2, 3), F32)])
)

# -- lax window primitives -----------------------------------------------------------------------

LAX = {
    "conv default dn": lambda lax, x, w: lax.conv_general_dilated(x, w, (1, 2), "SAME"),
    "conv pads dilations": lambda lax, x, w: lax.conv_general_dilated(
        x, w, (2, 1), ((1, 2), (-1, 1)), lhs_dilation=(1, 2), rhs_dilation=(2, 1)
    ),
    "conv SAME_LOWER groups": lambda lax, x, w: lax.conv_general_dilated(
        x, w[:, :2], (1, 1), "SAME_LOWER", feature_group_count=2
    ),
    "conv mixed specs": lambda lax, x, w: lax.conv_general_dilated(
        x, lax.transpose(w, (2, 3, 1, 0)), (1, 1), "VALID",
        dimension_numbers=("NCHW", "HWIO", "NHWC"),
    ),
    "conv_transpose default": lambda lax, x, w: lax.conv_transpose(
        lax.transpose(x, (0, 2, 3, 1)), lax.transpose(w, (2, 3, 1, 0)), (2, 2), "SAME"
    ),
    "conv_transpose VALID transpose_kernel": lambda lax, x, w: lax.conv_transpose(
        lax.transpose(x, (0, 2, 3, 1)), lax.transpose(w, (2, 3, 0, 1))[:, :, :4, :],
        (2, 1), "VALID", transpose_kernel=True,
    ),
    "reduce_window max": lambda lax, x, w: lax.reduce_window(
        x, -float("inf"), lax.max, (1, 1, 2, 3), (1, 1, 2, 1), "SAME"
    ),
    "reduce_window add base dilation": lambda lax, x, w: lax.reduce_window(
        x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 2), ((0, 0), (1, 0), (0, 2), (0, 0)),
        base_dilation=(1, 1, 2, 1), window_dilation=(1, 1, 1, 2),
    ),
}  # fmt: skip
for nm, call in LAX.items():
    case(f"lax {nm}", kind="fn")(
        lambda ns, call=call: (
            lambda x, w: call(ns.lax, x, w),
            [ns.x((2, 4, 6, 5), F32), ns.x((3, 4, 3, 2), F32, seed=5)],
        )
    )
case("lax reduce_window max int32", kind="fn")(
    lambda ns: (
        lambda x: ns.lax.reduce_window(x, -ns.jnp.inf, ns.lax.max, (2, 2), (1, 1), "SAME"),
        [ns.x((3, 4), I32)],
    )
)
case("lax conv bf16", kind="fn")(
    lambda ns: (
        lambda x, w: ns.lax.conv_general_dilated(x, w, (1, 1), "SAME"),
        [ns.x((1, 2, 4, 4), BF16), ns.x((3, 2, 2, 2), BF16, seed=1)],
    )
)


def resolve_apply_kw(ns: Any, kw: dict[str, Any]) -> dict[str, Any]:
    """Symbolic apply arguments made concrete with the library in ``ns``."""
    out = dict(kw)
    if out.get("rngs") == "dropout":
        out["rngs"] = {"dropout": ns.key}
    if out.get("seq_lengths") == "lengths":
        out["seq_lengths"] = ns.jnp.asarray([3, 5], I32)
    if out.get("mask") == "causal":
        out["mask"] = ns.nn.make_causal_mask(ns.jnp.ones((2, 3)))
    return out


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a/b/0": leaf}`` for nested dicts, tuples and lists (dict keys sorted)."""
    if isinstance(tree, dict):
        items: list[tuple[str, Any]] = [(str(k), tree[k]) for k in sorted(tree)]
    elif isinstance(tree, tuple | list):
        items = [(str(i), v) for i, v in enumerate(tree)]
    else:
        return {prefix: tree}
    out: dict[str, Any] = {}
    for k, v in items:
        out.update(flatten(v, f"{prefix}/{k}" if prefix else k))
    return out


def unflatten(flat: dict[str, Any]) -> dict[str, Any]:
    """Nested dicts from ``flatten``'s paths (variables are dicts all the way down)."""
    root: dict[str, Any] = {}
    for path, leaf in flat.items():
        node = root
        *parents, last = path.split("/")
        for p in parents:
            node = node.setdefault(p, {})
        node[last] = leaf
    return root


# -- initializers (bit-identical to JAX when trellax.random is: same threefry, same formulas) ----

INITS = {
    "zeros": lambda i: i.zeros,
    "ones": lambda i: i.ones,
    "constant": lambda i: i.constant(-0.5),
    "uniform": lambda i: i.uniform(0.5),
    "normal": lambda i: i.normal(2.0),
    "truncated_normal": lambda i: i.truncated_normal(0.5, lower=-1.0, upper=3.0),
    "lecun_normal": lambda i: i.lecun_normal(),
    "lecun_uniform": lambda i: i.lecun_uniform(),
    "glorot_normal": lambda i: i.glorot_normal(),
    "xavier_uniform": lambda i: i.xavier_uniform(),
    "he_normal": lambda i: i.he_normal(),
    "kaiming_uniform": lambda i: i.kaiming_uniform(),
    "variance_scaling fan_out normal": lambda i: i.variance_scaling(0.3, "fan_out", "normal"),
    "variance_scaling fan_avg in_axis": lambda i: i.variance_scaling(
        2.0, "fan_avg", "uniform", in_axis=0, out_axis=(1, 2)
    ),
    "orthogonal": lambda i: i.orthogonal(),
    "orthogonal column_axis=0": lambda i: i.orthogonal(2.0, column_axis=0),
}
for nm, make in INITS.items():
    for shape in ((3, 4, 5), (6, 2)):
        for dt in (F32, BF16):
            # JAX's QR refuses bfloat16; trellax's orthogonal initializers accept it
            decision = nm.startswith("orthogonal") and dt == BF16
            case(f"init {nm} {shape} {dt}", kind="fn", decision=decision)(
                lambda ns, make=make, shape=shape, dt=dt: (
                    lambda: make(ns.nn.initializers)(ns.key, shape, ns.jnp.dtype(dt)),
                    [],
                )
            )
case("init lecun_normal complex64", kind="fn")(
    lambda ns: (lambda: ns.nn.initializers.lecun_normal()(ns.key, (3, 4), "complex64"), [])
)
case("init glorot_uniform complex64", kind="fn")(
    lambda ns: (lambda: ns.nn.initializers.glorot_uniform()(ns.key, (3, 4), "complex64"), [])
)
case("init delta_orthogonal", kind="fn")(
    lambda ns: (lambda: ns.nn.initializers.delta_orthogonal()(ns.key, (3, 3, 2, 4)), [])
)
case("init delta_orthogonal bad", kind="fn")(
    lambda ns: (lambda: ns.nn.initializers.delta_orthogonal()(ns.key, (3, 3, 4, 2)), [])
)
case("init variance_scaling 1d", kind="fn")(
    lambda ns: (lambda: ns.nn.initializers.lecun_normal()(ns.key, (4,)), [])
)
