"""The programs of the batch-3 differential probe (``tests/test_probe_batch3.py``).

Each program is Python source that uses only the names of :func:`names` (``jax``, ``jnp``,
``optax``, ``nn`` for ``flax.linen``, ``serialization``, ...) and leaves its answer in ``out``.
``tools/gen_golden_probe_batch3.py`` runs every program with JAX 0.10.2, Flax 0.12.8 and optax
0.2.8 bound to those names and stores :func:`encode` of the answer in
``tests/golden/probe_batch3.json``; the test binds the same names to trellax (``optax`` is
``trellax.optim``) and compares. Only the bindings differ, as a program's imports would.

The areas are the ones around the core: optax's API (transformations at NaN/inf/-0.0/huge/tiny
gradients, low-precision and integer parameters, empty and ``None``-holding pytrees, losses and
schedules at edge inputs), Flax's ``serialization`` (every dtype, 0-d, empty, nested containers),
``struct`` and ``train_state``, Flax's lifted transforms, ``jax.example_libraries``, the one-device
sharding names, dlpack and the ``tree_util``/``flatten_util`` extras.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

# --------------------------------------------------------------------------------------------
# encoding an answer


def _array_entry(x: Any, kind: str) -> list[Any]:
    a = np.asarray(x)
    raw = a.tobytes()
    vals: list[str] | None = None
    if (a.size <= 24 and a.dtype.kind in "fcV") or a.dtype.name in ("bfloat16",):
        vals = [repr(complex(v)) if a.dtype.kind == "c" else repr(float(v)) for v in a.ravel()]
    elif a.size <= 24:
        try:
            vals = [repr(float(v)) for v in a.ravel()]
        except (TypeError, ValueError):
            vals = None
    digest = raw.hex() if len(raw) <= 64 else hashlib.sha256(raw).hexdigest()[:32]
    weak = getattr(x, "weak_type", None)
    return [kind, a.dtype.name, list(a.shape), None if weak is None else bool(weak), digest, vals]


def encode(x: Any, depth: int = 0) -> Any:
    """A JSON description of ``x``: containers by kind, arrays by dtype/shape/weak flag/bits."""
    if depth > 12:
        return ["deep"]
    if x is None:
        return ["None"]
    if isinstance(x, (bool, int, float, complex, str)):
        return ["py", type(x).__name__, repr(x)]
    if isinstance(x, bytes):
        return ["bytes", len(x), hashlib.sha256(x).hexdigest()[:32]]
    if isinstance(x, (np.ndarray, np.generic)):
        return _array_entry(x, "np")
    if hasattr(x, "dtype") and hasattr(x, "shape") and hasattr(x, "__array__"):
        return _array_entry(x, "arr")
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return ["nt", type(x).__name__, [[f, encode(v, depth + 1)] for f, v in zip(x._fields, x)]]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [encode(v, depth + 1) for v in x]]
    if isinstance(x, Mapping):
        kind = "dict" if isinstance(x, dict) else "map"
        return [kind, [[repr(k), encode(v, depth + 1)] for k, v in x.items()]]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = [f.name for f in dataclasses.fields(x)]
        return ["dc", type(x).__name__, [[f, encode(getattr(x, f), depth + 1)] for f in fields]]
    if callable(x):
        return ["callable"]
    return ["obj", type(x).__name__]


def run(src: str, env: dict[str, Any]) -> Any:
    """Runs one program; its encoded ``out`` or ``["error", class name, [base names]]``."""
    ns = dict(env)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(src, ns)
            return encode(ns["out"])
        except Exception as e:
            return ["error", type(e).__name__, [c.__name__ for c in type(e).__mro__]]


# --------------------------------------------------------------------------------------------
# the programs

PROGRAMS: dict[str, str] = {}


def _add(name: str, src: str) -> None:
    assert name not in PROGRAMS, name
    PROGRAMS[name] = src


# ---- optax transformations at edge gradients and parameters

TRANSFORMS = {
    "sgd": "optax.sgd(0.1)",
    "sgd_mom": "optax.sgd(0.1, momentum=0.9)",
    "sgd_nest": "optax.sgd(0.1, momentum=0.9, nesterov=True)",
    "adam": "optax.adam(1e-2)",
    "adam_root": "optax.adam(1e-2, eps_root=1e-8)",
    "adam_nest": "optax.adam(1e-2, nesterov=True)",
    "adam_mu16": "optax.adam(1e-2, mu_dtype=jnp.bfloat16)",
    "adamw": "optax.adamw(1e-2, weight_decay=0.1)",
    "rmsprop": "optax.rmsprop(1e-2)",
    "rmsprop_c": "optax.rmsprop(1e-2, centered=True, momentum=0.9)",
    "adagrad": "optax.adagrad(1e-1)",
    "lion": "optax.lion(1e-3)",
    "clip_gn": "optax.clip_by_global_norm(1.0)",
    "clip_gn0": "optax.clip_by_global_norm(0.0)",
    "chain_clip_adam": "optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2))",
    "decay": "optax.add_decayed_weights(0.1)",
    "trace": "optax.trace(0.9)",
    "scale": "optax.scale(-0.5)",
    "identity": "optax.identity()",
    "rss": "optax.scale_by_rss()",
    "stddev": "optax.scale_by_stddev()",
    "sched": "optax.scale_by_schedule(optax.exponential_decay(1.0, 2, 0.5))",
    "lr_sched": "optax.scale_by_learning_rate(optax.linear_schedule(1.0, 0.0, 4))",
    # optax names real programs use that go beyond the list above
    "masked": "optax.masked(optax.scale(-1.0), lambda p: jax.tree.map(lambda _: True, p))",
    "multi": "optax.multi_transform({'a': optax.sgd(0.1), 'b': optax.adam(0.1)}, "
    "lambda p: jax.tree.map(lambda _: 'a', p))",
    "inject": "optax.inject_hyperparams(optax.adam)(learning_rate=0.1)",
    "clip": "optax.clip(1.0)",
    "zero_nans": "optax.zero_nans()",
    "if_finite": "optax.apply_if_finite(optax.sgd(0.1), 2)",
    "adamax": "optax.adamax(1e-2)",
    "amsgrad": "optax.amsgrad(1e-2)",
    "lamb": "optax.lamb(1e-2)",
    "nonneg": "optax.keep_params_nonnegative()",
    "set_zero": "optax.set_to_zero()",
}

PARAMS = {
    "f32": ("{'w': jnp.array([1.0, -2.0, 0.5]), 'b': jnp.array(0.25)}", None),
    "bf16": ("{'w': jnp.array([1.0, -2.0, 0.5], jnp.bfloat16)}", None),
    "f16": ("{'w': jnp.array([1.0, -2.0, 0.5], jnp.float16)}", None),
    "empty": ("{}", None),
    "none": ("{'w': jnp.array([1.0, 2.0]), 'n': None}", None),
    "size0": ("{'w': jnp.zeros((0, 3))}", None),
    "scalar": ("jnp.array(3.0)", None),
    "list": ("[jnp.array([1.0]), (jnp.array(2.0), jnp.array([[3.0]]))]", None),
}

GRADS = {
    "ones": "jax.tree.map(lambda p: jnp.ones_like(p) * 0.75, params)",
    "nan": "jax.tree.map(lambda p: jnp.full_like(p, jnp.nan), params)",
    "inf": "jax.tree.map(lambda p: jnp.full_like(p, jnp.inf), params)",
    "ninf": "jax.tree.map(lambda p: jnp.full_like(p, -jnp.inf), params)",
    "negzero": "jax.tree.map(lambda p: jnp.full_like(p, -0.0), params)",
    "huge": "jax.tree.map(lambda p: jnp.full_like(p, jnp.finfo(p.dtype).max), params)",
    "tiny": "jax.tree.map(lambda p: jnp.full_like(p, jnp.finfo(p.dtype).smallest_subnormal), "
    "params)",
}

_STEP = """
params = {params}
grads = {grads}
tx = {tx}
st = tx.init(params)
u1, st = tx.update(grads, st, params)
u2, st = tx.update(grads, st, params)
out = (u1, u2, st, optax.apply_updates(params, u2))
"""

for _t, _tx in TRANSFORMS.items():
    for _p in ("f32", "bf16", "f16"):
        for _g in GRADS:
            _add(
                f"optax/{_t}/{_p}/{_g}", _STEP.format(params=PARAMS[_p][0], grads=GRADS[_g], tx=_tx)
            )
    for _p in ("empty", "none", "size0", "scalar", "list"):
        _add(f"optax/{_t}/{_p}", _STEP.format(params=PARAMS[_p][0], grads=GRADS["ones"], tx=_tx))
    # integer parameters and gradients (optax does not refuse them)
    _add(
        f"optax/{_t}/int",
        _STEP.format(
            params="{'w': jnp.array([1, 2, 3])}", grads="{'w': jnp.array([1, 0, -1])}", tx=_tx
        ),
    )
    # gradients in another dtype than the parameters
    _add(
        f"optax/{_t}/mixed",
        _STEP.format(
            params="{'w': jnp.array([1.0, 2.0], jnp.bfloat16)}",
            grads="{'w': jnp.array([0.1, -0.3], jnp.float32)}",
            tx=_tx,
        ),
    )

# apply_updates, global_norm and the tree helpers optax exports
_APPLY = {
    "apply_bf16_f32": "optax.apply_updates({'w': jnp.array([1.0], jnp.bfloat16)}, "
    "{'w': jnp.array([1e-3], jnp.float32)})",
    "apply_f32_bf16": "optax.apply_updates({'w': jnp.array([1.0])}, {'w': jnp.array([1e-3], jnp.bfloat16)})",
    "apply_int_f32": "optax.apply_updates({'w': jnp.array([1, 2])}, {'w': jnp.array([0.6, -0.6])})",
    "apply_none": "optax.apply_updates({'w': jnp.array([1.0]), 'n': None}, {'w': jnp.array([1.0]), 'n': None})",
    "apply_weak": "optax.apply_updates({'w': jnp.array(1.0)}, {'w': 0.5})",
    "apply_py": "optax.apply_updates({'w': 1.0}, {'w': 0.5})",
    "apply_mismatch": "optax.apply_updates({'w': jnp.array([1.0])}, {'v': jnp.array([1.0])})",
    "gn_f16_big": "optax.global_norm({'a': jnp.array([300.0, 300.0], jnp.float16)})",
    "gn_bf16": "optax.global_norm({'a': jnp.array([3.0, 4.0], jnp.bfloat16)})",
    "gn_empty": "optax.global_norm({})",
    "gn_nan": "optax.global_norm([jnp.array([jnp.nan]), jnp.array([1.0])])",
    "gn_inf": "optax.global_norm([jnp.array([jnp.inf]), jnp.array([-jnp.inf])])",
    "gn_int": "optax.global_norm([jnp.array([3, 4])])",
    "gn_complex": "optax.global_norm([jnp.array([3 + 4j])])",
    "gn_mixed": "optax.global_norm([jnp.array([3.0], jnp.bfloat16), jnp.array([4.0])])",
    "gn_py": "optax.global_norm([3.0, 4.0])",
}
for _k, _e in _APPLY.items():
    _add(f"optax_tree/{_k}", f"out = {_e}")

# losses at edge inputs
_LOSS_ARGS = {
    "plain": ("jnp.array([[0.5, -1.0, 2.0]])", "jnp.array([[0.2, 0.3, 0.5]])"),
    "ninf_logit": ("jnp.array([[-jnp.inf, 0.0, 1.0]])", "jnp.array([[0.0, 0.5, 0.5]])"),
    "inf_logit": ("jnp.array([[jnp.inf, 0.0, 1.0]])", "jnp.array([[1.0, 0.0, 0.0]])"),
    "nan": ("jnp.array([[jnp.nan, 0.0, 1.0]])", "jnp.array([[0.2, 0.3, 0.5]])"),
    "bf16": (
        "jnp.array([[0.5, -1.0, 2.0]], jnp.bfloat16)",
        "jnp.array([[0.2, 0.3, 0.5]], jnp.bfloat16)",
    ),
    "f16_big": (
        "jnp.array([[6e4, -6e4, 1.0]], jnp.float16)",
        "jnp.array([[0.0, 0.0, 1.0]], jnp.float16)",
    ),
    "empty": ("jnp.zeros((0, 3))", "jnp.zeros((0, 3))"),
    "zero_classes": ("jnp.zeros((2, 0))", "jnp.zeros((2, 0))"),
    "scalar": ("jnp.array(0.5)", "jnp.array(1.0)"),
    "int_labels": ("jnp.array([[0.5, -1.0, 2.0]])", "jnp.array([[0, 0, 1]])"),
    "negzero": ("jnp.array([[-0.0, 0.0, -0.0]])", "jnp.array([[0.0, 1.0, 0.0]])"),
}
_LOSSES = {
    "softmax_ce": "optax.softmax_cross_entropy({a}, {b})",
    "safe_softmax_ce": "optax.safe_softmax_cross_entropy({a}, {b})",
    "sigmoid_bce": "optax.sigmoid_binary_cross_entropy({a}, {b})",
    "l2": "optax.l2_loss({a}, {b})",
    "l2_one": "optax.l2_loss({a})",
    "squared": "optax.squared_error({a}, {b})",
    "huber": "optax.huber_loss({a}, {b}, delta=0.5)",
    "log_cosh": "optax.log_cosh({a}, {b})",
    "cosine_sim": "optax.cosine_similarity({a}, {b})",
    "cosine_dist": "optax.cosine_distance({a}, {b})",
    "kl": "optax.kl_divergence(jax.nn.log_softmax({a}), {b})",
    "convex_kl": "optax.convex_kl_divergence(jax.nn.log_softmax({a}), {b})",
    "hinge": "optax.hinge_loss({a}, {b})",
    "focal": "optax.sigmoid_focal_loss({a}, {b})",
    "smooth": "optax.smooth_labels({b}, 0.1)",
    "grad_softmax_ce": "jax.grad(lambda x: optax.softmax_cross_entropy(x, {b}).sum())({a})",
    "grad_sigmoid_bce": "jax.grad(lambda x: optax.sigmoid_binary_cross_entropy(x, {b}).sum())({a})",
}
for _l, _le in _LOSSES.items():
    for _k, (_a, _b) in _LOSS_ARGS.items():
        _add(f"loss/{_l}/{_k}", "out = " + _le.format(a=_a, b=_b))
for _k, _lab in {
    "plain": "jnp.array([2])",
    "oob": "jnp.array([3])",
    "neg": "jnp.array([-1])",
    "ninf_at_label": "jnp.array([0])",
}.items():
    _logits = (
        "jnp.array([[-jnp.inf, 0.0, 1.0]])"
        if _k == "ninf_at_label"
        else "jnp.array([[0.5, -1.0, 2.0]])"
    )
    _add(
        f"loss/ce_int/{_k}",
        f"out = optax.softmax_cross_entropy_with_integer_labels({_logits}, {_lab})",
    )

# schedules at steps the trajectory golden does not cover (float, array, bool)
_SCHEDULES = {
    "exp": "optax.exponential_decay(1.0, 10, 0.5)",
    "exp_stair": "optax.exponential_decay(1.0, 10, 0.5, staircase=True)",
    "exp_end": "optax.exponential_decay(1.0, 10, 0.5, end_value=0.3)",
    "exp_grow": "optax.exponential_decay(1.0, 10, 2.0, end_value=3.0)",
    "linear": "optax.linear_schedule(1.0, 0.0, 10)",
    "poly": "optax.polynomial_schedule(1.0, 0.0, 2, 10)",
    "cosine": "optax.cosine_decay_schedule(1.0, 10, alpha=0.1)",
    "cosine_exp": "optax.cosine_decay_schedule(1.0, 10, exponent=2.0)",
    "wcos": "optax.warmup_cosine_decay_schedule(0.0, 1.0, 3, 10)",
    "pconst": "optax.piecewise_constant_schedule(1.0, {3: 0.5, 6: 0.1})",
    "join": "optax.join_schedules([optax.constant_schedule(1.0), optax.linear_schedule(1.0, 0.0, 5)], [3])",
    "sgdr": "optax.sgdr_schedule([dict(init_value=0.0, peak_value=1.0, warmup_steps=2, decay_steps=5)])",
    "const": "optax.constant_schedule(0.5)",
}
_STEPS = {
    "f2.5": "2.5",
    "fneg": "-1.5",
    "arr_i32": "jnp.array(4)",
    "arr_f32": "jnp.array(4.5)",
    "arr_vec": "jnp.array([0, 4, 20])",
    "bool": "True",
    "nan": "float('nan')",
    "inf": "float('inf')",
    "u8": "jnp.array(7, jnp.uint8)",
}
for _s, _se in _SCHEDULES.items():
    for _k, _st in _STEPS.items():
        _add(f"sched/{_s}/{_k}", f"out = {_se}({_st})")

# ---- Flax serialization

SER_DTYPES = (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "float16", "bfloat16",
    "float32", "complex64", "float8_e4m3fn", "float8_e5m2", "int4", "uint4",
)  # fmt: skip

_MAKE = (
    "import ml_dtypes\n"
    "_dt = np.dtype(getattr(ml_dtypes, {d!r}, None) or {d!r})\n"
    "_v = np.array([float(v) for v in {vals!r}], np.float64)\n"
    "if _dt.kind == 'b':\n    _v = _v != 0\n"
    "elif _dt.kind in 'iu' or _dt.name in ('int4', 'uint4'):\n"
    "    _v = np.clip(np.nan_to_num(_v), 0 if _dt.name.startswith('u') else -7, 7).astype(np.int64)\n"
    "x_np = _v.astype(_dt).reshape({shape!r})\n"
)
_SER_VALUES = {
    "scalar": ([-0.0], ()),
    "empty": ([], (0,)),
    "empty2": ([], (2, 0)),
    "mat": ([1.5, -0.0, float("nan"), float("inf"), -float("inf"), 3.0], (2, 3)),
}
_SER_OPS = {
    "bytes": "out = serialization.to_bytes({'a': x})",
    "restore_none": "out = serialization.from_bytes(None, serialization.to_bytes({'a': x}))",
    "restore_target": "out = serialization.from_bytes({'a': jnp.zeros_like(x)}, serialization.to_bytes({'a': x}))",
    "msgpack": "out = serialization.msgpack_restore(serialization.msgpack_serialize({'a': x, 'l': [x, (x,)]}))",
    "state_dict": "out = serialization.to_state_dict({'a': x, 'l': [x, None]})",
}
for _d in SER_DTYPES:
    for _vk, (_vals, _shape) in _SER_VALUES.items():
        for _src in ("jnp", "np"):
            _xs = "x = jnp.asarray(x_np)\n" if _src == "jnp" else "x = x_np\n"
            for _ok, _op in _SER_OPS.items():
                if _src == "np" and _ok == "state_dict":
                    continue
                _add(
                    f"ser/{_d}/{_vk}/{_src}/{_ok}",
                    _MAKE.format(d=_d, vals=[repr(v) for v in _vals], shape=_shape) + _xs + _op,
                )

_SER_MISC = {
    "py_scalars": "out = serialization.msgpack_restore(serialization.msgpack_serialize("
    "{'i': 3, 'f': -0.0, 'b': True, 's': 'x', 'c': 1+2j, 'n': None}))",
    "big_int": "out = serialization.msgpack_restore(serialization.msgpack_serialize({'i': 2**70}))",
    "np_scalar": "out = serialization.msgpack_restore(serialization.msgpack_serialize({'a': np.float32(1.5), "
    "'b': np.int64(-3), 'c': np.bool_(True)}))",
    "np_scalar_bytes": "out = serialization.to_bytes({'a': np.float32(1.5), 'b': np.int64(-3)})",
    "nested": "out = serialization.from_bytes(None, serialization.to_bytes("
    "{'a': [1, (jnp.array(2.0), None)], 'b': {'c': {}, 'd': []}}))",
    "tuple_target": "t = {'a': (jnp.zeros(2), jnp.zeros(()))}\n"
    "out = serialization.from_bytes(t, serialization.to_bytes({'a': (jnp.ones(2), jnp.array(5.0))}))",
    "list_state": "out = serialization.to_state_dict([jnp.ones(2), None, (1, 2)])",
    "from_state_list": "out = serialization.from_state_dict([0, 0, (0, 0)], {'0': 5, '1': 6, '2': {'0': 7, '1': 8}})",
    "from_state_missing": "out = serialization.from_state_dict({'a': 1, 'b': 2}, {'a': 5})",
    "from_state_extra": "out = serialization.from_state_dict({'a': 1}, {'a': 5, 'z': 3})",
    "shape_mismatch": "out = serialization.from_bytes({'a': jnp.zeros(3)}, serialization.to_bytes({'a': jnp.ones(2)}))",
    "dtype_mismatch": "out = serialization.from_bytes({'a': jnp.zeros(2, jnp.int32)}, "
    "serialization.to_bytes({'a': jnp.ones(2)}))",
    "key_mismatch": "out = serialization.from_bytes({'b': jnp.zeros(2)}, serialization.to_bytes({'a': jnp.ones(2)}))",
    "garbage": "out = serialization.from_bytes(None, b'\\xc1\\xc1')",
    "frozen": "freeze = flax.core.freeze\n"
    "out = serialization.from_bytes(freeze({'a': jnp.zeros(2)}), serialization.to_bytes(freeze({'a': jnp.ones(2)})))",
    "int_keys": "out = serialization.to_state_dict({1: jnp.ones(1), 'x': 2})",
    "bytes_int_keys": "out = serialization.to_bytes({1: jnp.ones(1)})",
    "big_array": "out = serialization.from_bytes(None, serialization.to_bytes({'a': jnp.arange(70000.0)}))",
    "noncontig": "out = serialization.msgpack_restore(serialization.msgpack_serialize({'a': np.arange(12.0).reshape(3, 4).T}))",
    "key_array": "out = serialization.to_bytes({'k': jax.random.key_data(jax.random.key(3))})",
    "f64_np": "out = serialization.msgpack_restore(serialization.msgpack_serialize({'a': np.array([1.0, -0.0])}))",
    "i64_np": "out = serialization.to_bytes({'a': np.array([2**40])})",
}
for _k, _src in _SER_MISC.items():
    _add(f"ser_misc/{_k}", _src)

# ---- Flax struct and train_state

_STRUCT = """
@struct.dataclass
class P:
    a: Any
    b: Any = struct.field(pytree_node=False, default=3)
p = P(jnp.array([1.0, 2.0]))
"""
_STRUCT_OPS = {
    "leaves": "out = jax.tree.leaves(p)",
    "map": "out = jax.tree.map(lambda x: x * 2, p)",
    "replace": "out = p.replace(a=5, b=7)",
    "frozen": "p.a = 1\nout = p",
    "ser": "out = serialization.to_state_dict(p)",
    "roundtrip": "out = serialization.from_state_dict(p, {'a': jnp.zeros(2)})",
    "bytes": "out = serialization.from_bytes(p, serialization.to_bytes(P(jnp.array([7.0, 8.0]), 9)))",
    "eq": "out = (p == P(jnp.array([1.0, 2.0])), P(1) == P(1), P(1, 2) == P(1, 3))",
    "flatten_path": "out = [jax.tree_util.keystr(k) for k, _ in jax.tree_util.tree_flatten_with_path(p)[0]]",
    "vmap": "out = jax.vmap(lambda q: q.a * q.b)(P(jnp.arange(3.0), 2))",
    "jit": "out = jax.jit(lambda q: q.replace(a=q.a + q.b))(p)",
    "grad": "out = jax.grad(lambda q: (q.a ** 2).sum())(p)",
    "pytreenode": "class Q(struct.PyTreeNode):\n    x: Any\n    y: int = struct.field(pytree_node=False, default=1)\n"
    "out = (jax.tree.leaves(Q(jnp.ones(2))), Q(1).replace(y=4))",
}
for _k, _src in _STRUCT_OPS.items():
    _add(f"struct/{_k}", "from typing import Any\n" + _STRUCT + _src)

_TS = """
def apply_fn(p, x):
    return x * p['w']
params = {params}
state = train_state.TrainState.create(apply_fn=apply_fn, params=params, tx={tx})
"""
_TS_OPS = {
    "create": "out = state",
    "step": "g = jax.tree.map(jnp.ones_like, state.params)\nout = state.apply_gradients(grads=g)",
    "step3": "g = jax.tree.map(jnp.ones_like, state.params)\n"
    "for _ in range(3):\n    state = state.apply_gradients(grads=g)\nout = (state.step, state.params, state.opt_state)",
    "grad_loop": "loss = lambda p: (state.apply_fn(p, jnp.array([1.0, 2.0])) ** 2).sum()\n"
    "for _ in range(2):\n    state = state.apply_gradients(grads=jax.grad(loss)(state.params))\nout = state.params",
    "jit_step": "g = jax.tree.map(jnp.ones_like, state.params)\n"
    "out = jax.jit(lambda s, g: s.apply_gradients(grads=g))(state, g)",
    "ser": "out = serialization.to_state_dict(state)",
    "bytes_rt": "g = jax.tree.map(jnp.ones_like, state.params)\ns2 = state.apply_gradients(grads=g)\n"
    "out = serialization.from_bytes(state, serialization.to_bytes(s2))",
    "replace": "out = state.replace(step=10).step",
}
for _pk, _pp in {
    "f32": "{'w': jnp.array([0.5, -1.0])}",
    "bf16": "{'w': jnp.array([0.5, -1.0], jnp.bfloat16)}",
}.items():
    for _tk, _tt in {"sgd": "optax.sgd(0.1, momentum=0.9)", "adam": "optax.adam(0.1)"}.items():
        for _k, _src in _TS_OPS.items():
            _add(f"train_state/{_pk}/{_tk}/{_k}", _TS.format(params=_pp, tx=_tt) + _src)

# ---- Flax lifted transforms

_LIFT = {
    "scan": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(2)(jnp.concatenate([c, x], -1))
        return h, h * 2
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, in_axes=0, out_axes=0)
xs = jnp.arange(12.0).reshape(3, 2, 2) / 7
c0 = jnp.zeros((2, 2))
v = S().init(jax.random.key(0), c0, xs)
out = (v, S().apply(v, c0, xs))
""",
    "scan_reverse_len": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        w = self.param('w', nn.initializers.ones, ())
        return c * w + x, c
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False}, reverse=True)
xs = jnp.arange(4.0)
v = S().init(jax.random.key(0), jnp.array(1.0), xs)
out = S().apply(v, jnp.array(1.0), xs)
""",
    "scan_carry_vars": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        cnt = self.variable('counter', 'n', lambda: jnp.zeros((), jnp.int32))
        cnt.value += 1
        return c + x, cnt.value
S = nn.scan(Cell, variable_carry='counter', split_rngs={'params': False})
xs = jnp.arange(3.0)
v = S().init(jax.random.key(0), jnp.array(0.0), xs)
out = (v, S().apply(v, jnp.array(0.0), xs, mutable=['counter']))
""",
    "scan_split_rngs": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c + nn.Dense(1)(x), None
S = nn.scan(Cell, variable_axes={'params': 0}, split_rngs={'params': True}, length=3)
xs = jnp.ones((3, 2))
v = S().init(jax.random.key(1), jnp.zeros(1), xs)
out = jax.tree.map(jnp.shape, v)
""",
    "vmap": """
V = nn.vmap(nn.Dense, variable_axes={'params': 0}, split_rngs={'params': True}, in_axes=0)
x = jnp.ones((3, 2))
v = V(4).init(jax.random.key(0), x)
out = (jax.tree.map(jnp.shape, v), V(4).apply(v, x).shape)
""",
    "vmap_bcast": """
V = nn.vmap(nn.Dense, variable_axes={'params': None}, split_rngs={'params': False}, in_axes=0)
x = jnp.arange(6.0).reshape(3, 2)
v = V(2, kernel_init=nn.initializers.ones).init(jax.random.key(0), x)
out = V(2, kernel_init=nn.initializers.ones).apply(v, x)
""",
    "vmap_dropout": """
class D(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5, deterministic=False)(x)
V = nn.vmap(D, variable_axes={}, split_rngs={'dropout': True})
out = V().apply({}, jnp.ones((3, 4)), rngs={'dropout': jax.random.key(2)})
""",
    "remat": """
R = nn.remat(nn.Dense)
x = jnp.ones((2, 3))
v = R(2, kernel_init=nn.initializers.ones).init(jax.random.key(0), x)
out = jax.grad(lambda v: R(2, kernel_init=nn.initializers.ones).apply(v, x).sum())(v)
""",
    "remat_static": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, n):
        return x * n
R = nn.remat(M, static_argnums=(2,))
out = R().apply({}, jnp.ones(2), 3)
""",
    "jit": """
J = nn.jit(nn.Dense)
x = jnp.ones((2, 3))
v = J(2, kernel_init=nn.initializers.ones).init(jax.random.key(0), x)
out = J(2, kernel_init=nn.initializers.ones).apply(v, x)
""",
    "cond": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, pred):
        d = nn.Dense(2, kernel_init=nn.initializers.ones)
        return nn.cond(pred, lambda m, x: m(x), lambda m, x: -m(x), d, x)
x = jnp.ones((1, 2))
v = M().init(jax.random.key(0), x, True)
out = (M().apply(v, x, True), M().apply(v, x, False))
""",
    "while": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.variable('state', 'acc', lambda: jnp.array(0.0))
        def cond_fn(mdl, c):
            return c < 5
        def body_fn(mdl, c):
            mdl.variables['state']['acc'] += 1.0
            mdl.put_variable('state', 'acc', mdl.get_variable('state', 'acc') + 1.0)
            return c + 1
        return nn.while_loop(cond_fn, body_fn, self, x, carry_variables='state')
v = M().init(jax.random.key(0), jnp.array(0))
out = M().apply(v, jnp.array(0), mutable=['state'])
""",
    "while_simple": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        acc = self.variable('state', 'acc', lambda: jnp.array(0.0))
        def cond_fn(mdl, c):
            return c < 3
        def body_fn(mdl, c):
            mdl.put_variable('state', 'acc', mdl.get_variable('state', 'acc') + 2.0)
            return c + 1
        return nn.while_loop(cond_fn, body_fn, self, x, carry_variables='state')
v = M().init(jax.random.key(0), jnp.array(0))
out = M().apply(v, jnp.array(0), mutable=['state'])
""",
    "switch": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x, i):
        d = nn.Dense(2, kernel_init=nn.initializers.ones)
        return nn.switch(i, [lambda m, x: m(x), lambda m, x: 2 * m(x), lambda m, x: x[:, :1] * 0 + 5],
                         d, x)
x = jnp.ones((1, 2))
v = M().init(jax.random.key(0), x, 0)
out = [M().apply(v, x, i) for i in (0, 1, 2, 7, -1)]
""",
    "map_variables": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        D = nn.map_variables(nn.Dense, 'params', lambda v: jax.tree.map(lambda a: a * 2, v),
                             init=True)
        return D(2, kernel_init=nn.initializers.ones)(x)
x = jnp.ones((1, 2))
v = M().init(jax.random.key(0), x)
out = (v, M().apply(v, x))
""",
    "grad_lift": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        def f(mdl, x):
            return mdl(x).sum()
        d = nn.Dense(1, kernel_init=nn.initializers.ones)
        y, g = nn.value_and_grad(f, d, x)
        return y, g
x = jnp.ones((1, 2))
v = M().init(jax.random.key(0), x)
out = M().apply(v, x)
""",
    "scan_bf16": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        h = nn.Dense(2, dtype=jnp.bfloat16, kernel_init=nn.initializers.ones)(c + x)
        return h, h
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False})
xs = jnp.ones((3, 2), jnp.bfloat16) / 3
v = S().init(jax.random.key(0), jnp.zeros(2), xs)
out = S().apply(v, jnp.zeros(2), xs)
""",
    "scan_length0": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c + x, x
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False})
out = S().apply({}, jnp.array(1.0), jnp.zeros((0,)))
""",
    "intermediates": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.sow('intermediates', 'h', x * 2)
        self.sow('intermediates', 'h', x * 3)
        return x
out = M().apply({}, jnp.ones(2), mutable=['intermediates'])
""",
    "rng_streams": """
class M(nn.Module):
    @nn.compact
    def __call__(self):
        return self.make_rng('a'), self.make_rng('a'), self.make_rng('b')
r = M().apply({}, rngs={'a': jax.random.key(0), 'b': jax.random.key(1)})
out = [jax.random.key_data(k) for k in r]
""",
    "rng_in_scan": """
class Cell(nn.Module):
    @nn.compact
    def __call__(self, c, x):
        return c, jax.random.key_data(self.make_rng('noise'))
S = nn.scan(Cell, variable_broadcast='params', split_rngs={'params': False, 'noise': True}, length=3)
out = S().apply({}, jnp.zeros(()), None, rngs={'noise': jax.random.key(5)})
""",
}
for _k, _src in _LIFT.items():
    _add(f"lift/{_k}", _src)

# ---- jax.example_libraries

_OPT_INIT = "params = {{'w': jnp.array([1.0, -2.0, 0.5]), 'b': (jnp.array(0.25), None)}}\n"
_EXOPT = {
    "sgd": "optimizers.sgd(0.1)",
    "momentum": "optimizers.momentum(0.1, 0.9)",
    "nesterov": "optimizers.nesterov(0.1, 0.9)",
    "adagrad": "optimizers.adagrad(0.1)",
    "rmsprop": "optimizers.rmsprop(0.1)",
    "rmsprop_mom": "optimizers.rmsprop_momentum(0.1)",
    "adam": "optimizers.adam(0.1)",
    "adamax": "optimizers.adamax(0.1)",
    "sm3": "optimizers.sm3(0.1)",
    "sched": "optimizers.sgd(optimizers.exponential_decay(0.1, 2, 0.5))",
}
_EXGRADS = {
    "ones": "jax.tree.map(lambda p: jnp.ones_like(p) * 0.75, params)",
    "nan": "jax.tree.map(lambda p: jnp.full_like(p, jnp.nan), params)",
    "inf": "jax.tree.map(lambda p: jnp.full_like(p, jnp.inf), params)",
    "zero": "jax.tree.map(lambda p: jnp.zeros_like(p), params)",
}
for _k, _oe in _EXOPT.items():
    for _gk, _ge in _EXGRADS.items():
        _add(
            f"exopt/{_k}/{_gk}",
            _OPT_INIT.format() + f"init, update, get = {_oe}\ns = init(params)\ng = {_ge}\n"
            "for i in range(3):\n    s = update(i, g, s)\n"
            "out = (get(s), optimizers.unpack_optimizer_state(s))",
        )
    _add(
        f"exopt/{_k}/bf16",
        f"params = jnp.array([1.0, -2.0], jnp.bfloat16)\ninit, update, get = {_oe}\n"
        "s = update(0, params * 0.5, init(params))\nout = get(s)",
    )
_EXSCHED = {
    "constant": "optimizers.constant(0.5)",
    "exp": "optimizers.exponential_decay(1.0, 2, 0.5)",
    "inv": "optimizers.inverse_time_decay(1.0, 2, 0.5)",
    "inv_stair": "optimizers.inverse_time_decay(1.0, 2, 0.5, staircase=True)",
    "poly": "optimizers.polynomial_decay(1.0, 4, 0.1, 2.0)",
    "pconst": "optimizers.piecewise_constant([2, 4], [1.0, 0.5, 0.1])",
}
for _k, _se in _EXSCHED.items():
    for _sk, _sv in {"0": "0", "3": "3", "10": "10", "neg": "-2", "arr": "jnp.array(3)"}.items():
        _add(f"exsched/{_k}/{_sk}", f"out = {_se}({_sv})")
_EXMISC = {
    "l2_norm": "out = optimizers.l2_norm({'a': jnp.array([3.0]), 'b': [jnp.array([4.0])]})",
    "l2_norm_empty": "out = optimizers.l2_norm({})",
    "clip": "out = optimizers.clip_grads({'a': jnp.array([3.0, 4.0])}, 1.0)",
    "clip_inf": "out = optimizers.clip_grads({'a': jnp.array([jnp.inf, 4.0])}, 1.0)",
    "clip_zero": "out = optimizers.clip_grads({'a': jnp.zeros(2)}, 1.0)",
    "pack_rt": "init, update, get = optimizers.adam(0.1)\ns = init({'a': jnp.ones(2)})\n"
    "out = get(optimizers.pack_optimizer_state(optimizers.unpack_optimizer_state(s)))",
    "pconst_bad": "out = optimizers.piecewise_constant([2, 4], [1.0, 0.5])",
}
for _k, _src in _EXMISC.items():
    _add(f"exopt_misc/{_k}", _src)

_STAX = {
    "dense": "init, apply = stax.Dense(3)\nshape, p = init(jax.random.key(0), (2, 4))\n"
    "out = (shape, p, apply(p, jnp.ones((2, 4))))",
    "serial": "init, apply = stax.serial(stax.Dense(4), stax.Relu, stax.Dense(2), stax.LogSoftmax)\n"
    "shape, p = init(jax.random.key(1), (-1, 3))\nout = (shape, apply(p, jnp.arange(6.0).reshape(2, 3)))",
    "conv": "init, apply = stax.Conv(2, (3, 3), padding='SAME')\n"
    "shape, p = init(jax.random.key(0), (1, 5, 5, 1))\nout = (shape, apply(p, jnp.ones((1, 5, 5, 1))).shape)",
    "batchnorm": "init, apply = stax.BatchNorm()\nshape, p = init(jax.random.key(0), (4, 3))\n"
    "out = (shape, p, apply(p, jnp.arange(12.0).reshape(4, 3)))",
    "dropout": "init, apply = stax.Dropout(0.5)\nshape, p = init(jax.random.key(0), (4,))\n"
    "out = apply(p, jnp.ones(8), rng=jax.random.key(3))",
    "dropout_test": "init, apply = stax.Dropout(0.5, mode='test')\nshape, p = init(jax.random.key(0), (4,))\n"
    "out = apply(p, jnp.ones(4))",
    "parallel": "init, apply = stax.parallel(stax.Dense(2), stax.Identity)\n"
    "shape, p = init(jax.random.key(0), ((1, 3), (1, 2)))\nout = (shape, apply(p, (jnp.ones((1, 3)), jnp.ones((1, 2)))))",
    "fanout": "init, apply = stax.serial(stax.FanOut(2), stax.parallel(stax.Tanh, stax.Sigmoid), stax.FanInSum)\n"
    "shape, p = init(jax.random.key(0), (2,))\nout = (shape, apply(p, jnp.array([-1.0, 2.0])))",
    "fanconcat": "init, apply = stax.serial(stax.FanOut(2), stax.FanInConcat(-1))\n"
    "shape, p = init(jax.random.key(0), (2, 3))\nout = (shape, apply(p, jnp.ones((2, 3))))",
    "pool": "init, apply = stax.MaxPool((2, 2))\nshape, p = init(jax.random.key(0), (1, 4, 4, 1))\n"
    "out = (shape, apply(p, jnp.arange(16.0).reshape(1, 4, 4, 1)))",
    "avgpool": "init, apply = stax.AvgPool((2, 2), padding='SAME')\nshape, p = init(jax.random.key(0), (1, 3, 3, 1))\n"
    "out = (shape, apply(p, jnp.arange(9.0).reshape(1, 3, 3, 1)))",
    "flatten": "init, apply = stax.Flatten\nshape, p = init(jax.random.key(0), (2, 3, 4))\n"
    "out = (shape, apply(p, jnp.ones((2, 3, 4))).shape)",
    "elementwise": "init, apply = stax.elementwise(jnp.sin)\nout = apply((), jnp.array([0.5, -0.0]))",
    "softplus": "out = stax.Softplus[1]((), jnp.array([-100.0, 0.0, 100.0]))",
    "gelu": "out = stax.Gelu[1]((), jnp.array([-1.0, 0.0, 1.0]))",
    "shape_dependent": "init, apply = stax.shape_dependent(lambda s: stax.Dense(s[-1]))\n"
    "shape, p = init(jax.random.key(0), (1, 3))\nout = shape",
}
for _k, _src in _STAX.items():
    _add(f"stax/{_k}", _src)

# ---- one-device sharding, device_put, dlpack

_SHARD = {
    "put_weak": "out = jax.device_put(jnp.array(2.0) + 1)",
    "put_py": "out = jax.device_put(3)",
    "put_pyf": "out = jax.device_put(3.5)",
    "put_np": "out = jax.device_put(np.arange(3, dtype=np.int64))",
    "put_np_f64": "out = jax.device_put(np.array([1.0, -0.0]))",
    "put_tree": "out = jax.device_put({'a': 1, 'b': (np.float32(2), None)})",
    "put_bf16": "out = jax.device_put(np.array([1.5], jnp.bfloat16))",
    "put_dev": "out = jax.device_put(jnp.ones(2), jax.devices()[0])",
    "put_single": "out = jax.device_put(jnp.ones(2), jax.sharding.SingleDeviceSharding(jax.devices()[0]))",
    "put_named": "mesh = jax.sharding.Mesh(np.array(jax.devices()), ('x',))\n"
    "out = jax.device_put(jnp.arange(4.0), jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('x')))",
    "put_named_bad": "mesh = jax.sharding.Mesh(np.array(jax.devices()), ('x',))\n"
    "out = jax.device_put(jnp.arange(4.0), jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec('y')))",
    "get": "out = jax.device_get({'a': jnp.array([1.0]), 'b': 2})",
    "get_weak": "out = jax.device_get(jnp.array(2.0) + 1)",
    "block": "out = jax.block_until_ready({'a': jnp.ones(1), 'b': None})",
    "n_devices": "out = (jax.device_count(), jax.local_device_count(), len(jax.devices()), jax.process_index())",
    "spec": "P = jax.sharding.PartitionSpec\nout = (P('x', None) == P('x', None), tuple(P('x', None)), len(P()))",
    "shard_map": "shard_map = jax.experimental.shard_map.shard_map\n"
    "mesh = jax.sharding.Mesh(np.array(jax.devices()), ('x',))\nP = jax.sharding.PartitionSpec\n"
    "f = shard_map(lambda a: jax.lax.psum(a, 'x') * 2, mesh=mesh, in_specs=P('x'), out_specs=P())\n"
    "out = f(jnp.arange(4.0))",
    "jax_shard_map": "mesh = jax.sharding.Mesh(np.array(jax.devices()), ('x',))\nP = jax.sharding.PartitionSpec\n"
    "f = jax.shard_map(lambda a: a + jax.lax.axis_index('x'), mesh=mesh, in_specs=P('x'), out_specs=P('x'))\n"
    "out = f(jnp.arange(4.0))",
    "copy_to_host": "x = jnp.arange(3.0)\nx.copy_to_host_async()\nout = np.asarray(x)",
    "is_fully": "out = (jnp.ones(2).is_fully_addressable, jnp.ones(2).is_fully_replicated)",
    "addressable": "out = [s.data for s in jnp.arange(3.0).addressable_shards]",
    "sharding_shape": "x = jnp.ones((4, 2))\nout = x.sharding.shard_shape(x.shape)",
}
for _k, _src in _SHARD.items():
    _add(f"shard/{_k}", _src)

DLPACK_DTYPES = (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16", "float32",
    "float64", "complex64", "complex128", "bfloat16",
)  # fmt: skip
for _d in DLPACK_DTYPES:
    _mk = (
        "import ml_dtypes\n"
        f"_dt = np.dtype(getattr(ml_dtypes, {_d!r}, None) or {_d!r})\n"
        "a = np.array([[1, 0, 3], [4, 5, 6]]).astype(_dt)\n"
    )
    _add(f"dlpack/{_d}/from_np", _mk + "out = jax.dlpack.from_dlpack(a)")
    _add(
        f"dlpack/{_d}/from_np_T",
        _mk + "out = jax.dlpack.from_dlpack(np.ascontiguousarray(a.T)[::1])",
    )
    _add(f"dlpack/{_d}/to_np", _mk + "out = np.from_dlpack(jnp.asarray(a))")
    _add(f"dlpack/{_d}/0d", _mk + "out = jax.dlpack.from_dlpack(a[0, 0].copy().reshape(()))")
    _add(f"dlpack/{_d}/empty", _mk + "out = jax.dlpack.from_dlpack(a[:0])")
_add(
    "dlpack/strided",
    "a = np.arange(12.0, dtype=np.float32).reshape(3, 4)[:, ::2]\nout = jax.dlpack.from_dlpack(a)",
)
_add("dlpack/jnp_from", "out = jnp.from_dlpack(np.arange(3, dtype=np.int16))")
_add("dlpack/roundtrip", "out = jax.dlpack.from_dlpack(jnp.array([1.0, -0.0, jnp.nan]))")
_add("dlpack/weak", "out = jax.dlpack.from_dlpack(jnp.array(2.0) + 1)")
_add(
    "dlpack/copy_flag",
    "a = np.arange(3.0, dtype=np.float32)\nb = jax.dlpack.from_dlpack(a, copy=True)\na[0] = 9\nout = b",
)
_add("dlpack/capsule_bad", "out = jax.dlpack.from_dlpack(3)")

# ---- tree_util and flatten_util extras

_TREE = {
    "map_none": "out = jax.tree.map(lambda x: x * 2, {'a': 1, 'b': None})",
    "map_none_leaf": "out = jax.tree.map(lambda x: x, {'a': None}, is_leaf=lambda x: x is None)",
    "map_two_none": "out = jax.tree.map(lambda x, y: (x, y), {'a': None, 'b': 1}, {'a': 3, 'b': 2})",
    "map_mismatch": "out = jax.tree.map(lambda x, y: x + y, [1, 2], [1, 2, 3])",
    "map_dict_order": "out = jax.tree.map(lambda x, y: x - y, {'b': 1, 'a': 2}, {'a': 10, 'b': 20})",
    "leaves_order": "out = jax.tree.leaves({'b': 1, 'a': 2, 'c': {'z': 3, 'y': 4}})",
    "with_path": "out = [(jax.tree_util.keystr(k), v) for k, v in jax.tree_util.tree_leaves_with_path("
    "{'a': [1, (2, 3)], 'b': {'c': 4}})]",
    "keystr_simple": "out = [jax.tree_util.keystr(k, simple=True, separator='/') for k, _ in "
    "jax.tree_util.tree_leaves_with_path({'a': [1, {'b': 2}]})]",
    "map_with_path": "out = jax.tree_util.tree_map_with_path(lambda p, x: len(p) * x, {'a': [1, 2], 'b': 3})",
    "transpose": "out = jax.tree.transpose(jax.tree.structure([0, 0]), jax.tree.structure((0, 0, 0)), "
    "[(1, 2, 3), (4, 5, 6)])",
    "reduce": "out = jax.tree.reduce(lambda a, b: a * 10 + b, [1, (2, 3), {'x': 4}])",
    "reduce_init": "out = jax.tree.reduce(lambda a, b: a + b, [], 7)",
    "reduce_empty": "out = jax.tree.reduce(lambda a, b: a + b, [])",
    "all": "out = (jax.tree.all([True, (1, 2)]), jax.tree.all([True, 0]), jax.tree.all([]))",
    "structure_eq": "out = (jax.tree.structure({'a': 1, 'b': 2}) == jax.tree.structure({'b': 0, 'a': 0}), "
    "jax.tree.structure([1]) == jax.tree.structure((1,)), jax.tree.structure(None).num_leaves, "
    "jax.tree.structure({'a': [1, None]}).num_nodes)",
    "unflatten_bad": "out = jax.tree.unflatten(jax.tree.structure([1, 2]), [1])",
    "flatten_up_to": "out = jax.tree.structure([0, 0]).flatten_up_to([[1, 2], {'a': 3}])",
    "partial": "p = jax.tree_util.Partial(lambda a, b: a - b, jnp.array(5.0))\n"
    "out = (jax.tree.leaves(p), p(2.0), jax.jit(lambda q: q(1.0))(p))",
    "register_class": "@jax.tree_util.register_pytree_node_class\nclass C:\n"
    "    def __init__(self, a, b):\n        self.a, self.b = a, b\n"
    "    def tree_flatten(self):\n        return (self.a,), self.b\n"
    "    @classmethod\n    def tree_unflatten(cls, aux, ch):\n        return cls(ch[0], aux)\n"
    "c = jax.tree.map(lambda x: x + 1, C(1, 'k'))\nout = (c.a, c.b, jax.tree.leaves([C(2, 0), C(None, 0)]))",
    "register_dataclass": "import dataclasses\n@dataclasses.dataclass\nclass D:\n    x: Any\n    y: Any\n    s: int\n"
    "jax.tree_util.register_dataclass(D, data_fields=['x', 'y'], meta_fields=['s'])\n"
    "out = jax.tree.leaves(jax.tree.map(lambda v: v * 2, D(1, jnp.array(2.0), 3)))",
    "namedtuple": "import collections\nNT = collections.namedtuple('NT', 'a b')\n"
    "out = [jax.tree_util.keystr(k) for k, _ in jax.tree_util.tree_leaves_with_path(NT(1, [2]))]",
    "ordered_dict": "import collections\nout = jax.tree.leaves(collections.OrderedDict([('b', 1), ('a', 2)]))",
    "default_dict": "import collections\nd = collections.defaultdict(int, {'b': 1, 'a': 2})\n"
    "out = (jax.tree.leaves(d), type(jax.tree.map(lambda x: x, d)).__name__)",
    "ravel": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree({'a': jnp.array([1.0, 2.0]), 'b': jnp.array(3.0)})\nout = (flat, un(flat * 2))",
    "ravel_mixed": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree({'a': jnp.array([1.5], jnp.bfloat16), 'b': jnp.array([2], jnp.int32)})\n"
    "out = (flat, un(flat + 0.25))",
    "ravel_f16_f32": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree([jnp.array([1.0], jnp.float16), jnp.array([1e-5])])\nout = (flat, un(flat))",
    "ravel_empty": "ravel_pytree = jax.flatten_util.ravel_pytree\nflat, un = ravel_pytree({})\nout = (flat, un(flat))",
    "ravel_py": "ravel_pytree = jax.flatten_util.ravel_pytree\nflat, un = ravel_pytree([1, 2.5, True])\nout = (flat, un(flat))",
    "ravel_bool_int": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree([jnp.array([True]), jnp.array([3], jnp.uint8)])\nout = (flat, un(flat))",
    "ravel_complex": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree([jnp.array([1 + 1j]), jnp.array([2.0])])\nout = (flat, un(flat))",
    "ravel_unravel_bad": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree([jnp.zeros(2)])\nout = un(jnp.zeros(3))",
    "ravel_unravel_dtype": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree([jnp.zeros(2)])\nout = un(jnp.array([1, 2]))",
    "ravel_grad": "ravel_pytree = jax.flatten_util.ravel_pytree\n"
    "flat, un = ravel_pytree({'a': jnp.array([1.0], jnp.bfloat16), 'b': jnp.array([2.0])})\n"
    "out = jax.grad(lambda f: (un(f)['a'].astype(jnp.float32) * 3 + un(f)['b']).sum())(flat)",
    "tree_util_all_leaves": "out = (jax.tree_util.all_leaves([1, 2]), jax.tree_util.all_leaves([[1]]))",
    "broadcast": "out = jax.tree.broadcast([1, {'a': 2}], [(5, 6), {'a': (7, 8)}])",
    "flatten_none_leaf": "out = jax.tree.flatten({'a': None, 'b': 1}, is_leaf=lambda x: x is None)[0]",
    "map_list_is_leaf": "out = jax.tree.map(lambda x: len(x), [[1, 2], [3]], is_leaf=lambda x: isinstance(x, list) "
    "and all(isinstance(v, int) for v in x))",
    "keys": "tu = jax.tree_util\nout = [type(k[0]).__name__ for k, _ in tu.tree_leaves_with_path([{'a': 1}, (2,)])]",
}
for _k, _src in _TREE.items():
    _add(f"tree/{_k}", "from typing import Any\n" + _src)


# ---- second wave: optax programs with schedules, masks and several steps

TRANSFORMS2 = {
    "decay_sched": "optax.add_decayed_weights(optax.linear_schedule(0.1, 0.0, 4))",
    "adamw_maskfn": "optax.adamw(0.1, weight_decay=0.5, mask=lambda p: jax.tree.map(lambda x: x.ndim > 0, p))",
    "adam_sched": "optax.adam(optax.exponential_decay(0.1, 2, 0.5))",
    "sgd_sched": "optax.sgd(optax.cosine_decay_schedule(0.1, 4))",
    "sgd_wcos": "optax.sgd(optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 6))",
    "inject_sched": "optax.inject_hyperparams(optax.sgd)(learning_rate=optax.linear_schedule(0.1, 0.0, 4))",
    "inject_bf16": "optax.inject_hyperparams(optax.adam, hyperparam_dtype=jnp.bfloat16)(learning_rate=0.1)",
    "inject_static": "optax.inject_hyperparams(optax.sgd, static_args='nesterov')(0.1, momentum=0.9, nesterov=True)",
    "inject_mom": "optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.9)",
    "masked_prefix": "optax.masked(optax.sgd(0.1, momentum=0.5), {'w': True, 'b': False})",
    "masked_false": "optax.masked(optax.adam(0.1), jax.tree.map(lambda _: False, params))",
    "multi_two": "optax.multi_transform({'x': optax.adam(0.1), 'y': optax.set_to_zero()}, "
    "jax.tree.map(lambda p: 'x' if p.ndim else 'y', params))",
    "multi_missing": "optax.multi_transform({'x': optax.adam(0.1)}, jax.tree.map(lambda p: 'z', params))",
    "chain_all": "optax.chain(optax.zero_nans(), optax.clip(0.5), optax.clip_by_global_norm(1.0), "
    "optax.scale_by_adam(), optax.add_decayed_weights(0.01), optax.scale_by_learning_rate(0.1), "
    "optax.keep_params_nonnegative())",
    "if_finite_adam": "optax.apply_if_finite(optax.adam(0.1), 1)",
    "clip_arr": "optax.clip(jnp.array(0.5, jnp.bfloat16))",
    "amsgrad_mu": "optax.amsgrad(0.1, mu_dtype=jnp.bfloat16)",
    "lamb_wd": "optax.lamb(0.1, weight_decay=0.1)",
    "trace_nest": "optax.trace(0.9, nesterov=True)",
    "rms_nest": "optax.rmsprop(0.1, momentum=0.5, nesterov=True, centered=True)",
}
GRAD_SEQ = {
    "seq": "[jax.tree.map(lambda p: jnp.full_like(p, v), params) for v in (0.5, jnp.nan, -0.25, jnp.inf, 2.0)]",
}
_STEPS5 = """
params = {params}
tx = {tx}
st = tx.init(params)
outs = []
for g in {grads}:
    u, st = tx.update(g, st, params)
    params = optax.apply_updates(params, u)
    outs.append((u, params))
out = (outs, st)
"""
for _t, _tx in TRANSFORMS2.items():
    for _p in ("f32", "bf16", "f16", "empty", "list"):
        _add(
            f"optax2/{_t}/{_p}", _STEPS5.format(params=PARAMS[_p][0], grads=GRAD_SEQ["seq"], tx=_tx)
        )
    _add(
        f"optax2/{_t}/jit",
        _STEPS5.format(params=PARAMS["f32"][0], grads=GRAD_SEQ["seq"], tx=_tx).replace(
            "u, st = tx.update(g, st, params)", "u, st = jax.jit(tx.update)(g, st, params)"
        ),
    )
for _p in ("f32", "bf16", "f16"):
    _add(
        f"optax2/train_step_jit/{_p}",
        f"""
params = {PARAMS[_p][0]}
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 8), weight_decay=0.01))
st = tx.init(params)
def loss(p):
    return sum(jnp.sum((x.astype(jnp.float32) - 3.0) ** 2) for x in jax.tree.leaves(p))
@jax.jit
def step(p, s):
    l, g = jax.value_and_grad(loss)(p)
    u, s = tx.update(g, s, p)
    return optax.apply_updates(p, u), s, l
hist = []
for _ in range(6):
    params, st, l = step(params, st)
    hist.append(l)
out = (params, st, hist)
""",
    )

# ---- second wave: Flax programs

_FLAX2 = {
    "vmap_axis_size": """
class M(nn.Module):
    @nn.compact
    def __call__(self):
        return self.param('p', nn.initializers.normal(1.0), (2,))
V = nn.vmap(M, variable_axes={'params': 0}, split_rngs={'params': True}, axis_size=3)
out = V().init(jax.random.key(4))
""",
    "jit_mutable": """
class M(nn.Module):
    @nn.compact
    def __call__(self, x):
        c = self.variable('batch_stats', 'n', lambda: jnp.zeros((), jnp.int32))
        c.value += 1
        return x * c.value
J = nn.jit(M)
v = J().init(jax.random.key(0), jnp.ones(2))
y, upd = J().apply(v, jnp.ones(2), mutable=['batch_stats'])
y2, upd2 = J().apply(upd, jnp.ones(2), mutable=['batch_stats'])
out = (v, y, upd, y2, upd2)
""",
    "batchnorm_train": """
m = nn.BatchNorm(use_running_average=False, momentum=0.5)
x = jnp.array([[1.0, -2.0], [3.0, 0.5], [-1.0, 4.0]])
v = m.init(jax.random.key(0), x)
y, upd = m.apply(v, x, mutable=['batch_stats'])
out = (v, y, upd)
""",
    "batchnorm_bf16": """
m = nn.BatchNorm(use_running_average=False, dtype=jnp.bfloat16)
x = jnp.array([[1.0, -2.0], [3.0, 0.5], [-1.0, 4.0]], jnp.bfloat16)
v = m.init(jax.random.key(0), x)
out = m.apply(v, x, mutable=['batch_stats'])
""",
    "dropout_rng": """
m = nn.Dropout(0.3, deterministic=False)
out = m.apply({}, jnp.ones((2, 5)), rngs={'dropout': jax.random.key(7)})
""",
    "dropout_rate1": """
m = nn.Dropout(1.0, deterministic=False)
out = m.apply({}, jnp.ones((3,)), rngs={'dropout': jax.random.key(7)})
""",
    "ser_frozen_nested": """
f = flax.core.freeze({'a': {'b': jnp.ones(2)}, 'c': [1, 2]})
out = (serialization.to_state_dict(f), serialization.from_bytes(f, serialization.to_bytes(f)))
""",
    "ser_struct_in_list": """
@struct.dataclass
class S:
    x: Any
    y: Any = None
t = [S(jnp.ones(2)), {'s': S(jnp.zeros(1), 3)}]
out = (serialization.to_state_dict(t), serialization.from_bytes(t, serialization.to_bytes(t)))
""",
    "ser_opt_state": """
params = {'w': jnp.ones(2), 'b': jnp.zeros(())}
tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1))
st = tx.init(params)
u, st = tx.update(params, st, params)
out = serialization.from_bytes(tx.init(params), serialization.to_bytes(st))
""",
    "ser_opt_state_dict": """
params = {'w': jnp.ones(2)}
tx = optax.sgd(0.1, momentum=0.9)
out = serialization.to_state_dict(tx.init(params))
""",
    "ser_masked_state": """
params = {'w': jnp.ones(2), 'b': jnp.zeros(())}
tx = optax.masked(optax.adam(0.1), {'w': True, 'b': False})
out = serialization.to_state_dict(tx.init(params))
""",
    "dense_int_input": """
m = nn.Dense(2, kernel_init=nn.initializers.ones)
v = m.init(jax.random.key(0), jnp.ones((1, 3), jnp.int32))
out = (v, m.apply(v, jnp.array([[1, 2, 3]])))
""",
    "dense_bf16_params": """
m = nn.Dense(2, param_dtype=jnp.bfloat16)
v = m.init(jax.random.key(0), jnp.ones((1, 3)))
out = (v, m.apply(v, jnp.ones((1, 3))))
""",
    "embed_oob": """
m = nn.Embed(4, 2, embedding_init=nn.initializers.ones)
v = m.init(jax.random.key(0), jnp.array([0]))
out = m.apply(v, jnp.array([0, 3, 4, -1, 100]))
""",
    "layernorm_const": """
m = nn.LayerNorm()
v = m.init(jax.random.key(0), jnp.ones((2, 3)))
out = m.apply(v, jnp.array([[5.0, 5.0, 5.0], [1e30, -1e30, 0.0]]))
""",
    "ts_none_tx_state": """
state = train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2), 'n': None}, tx=optax.adam(0.1))
out = state.apply_gradients(grads={'w': jnp.ones(2), 'n': None})
""",
    "ts_int_step": """
state = train_state.TrainState.create(apply_fn=None, params={'w': jnp.ones(2)}, tx=optax.sgd(0.1))
s = jax.jit(lambda s: s.apply_gradients(grads={'w': jnp.ones(2)}))(state)
out = (s.step, type(s.step).__name__)
""",
}
for _k, _src in _FLAX2.items():
    _add(f"flax2/{_k}", "from typing import Any\n" + _src)


# ---- third wave: optax names trellax.optim does not have yet (recorded so the gap is measured)

_MISSING_OPTAX = {
    "multisteps": "optax.MultiSteps(optax.sgd(0.1), every_k_schedule=2)",
    "lookahead": "optax.lookahead(optax.sgd(0.1), 2, 0.5)",
    "ema": "optax.ema(0.9)",
    "block_rms": "optax.clip_by_block_rms(0.5)",
    "adafactor": "optax.adafactor(0.1)",
    "adabelief": "optax.adabelief(0.1)",
    "radam": "optax.radam(0.1)",
    "yogi": "optax.yogi(0.1)",
    "novograd": "optax.novograd(0.1)",
    "sm3": "optax.sm3(0.1)",
    "centralize": "optax.centralize()",
    "fromage": "optax.fromage(0.1)",
}
for _t, _tx in _MISSING_OPTAX.items():
    _add(f"optax3/{_t}", _STEPS5.format(params=PARAMS["f32"][0], grads=GRAD_SEQ["seq"], tx=_tx))


def names(jax: Any, optax: Any, flax: Any) -> dict[str, Any]:
    """The bindings a program sees, made from the three top-level modules given."""

    def sub(mod: Any, name: str) -> Any:
        return importlib.import_module(f"{mod.__name__}.{name}")

    for extra in ("flatten_util", "dlpack", "experimental.shard_map", "tree_util"):
        sub(jax, extra)
    sub(flax, "core")
    return {
        "jax": jax,
        "jnp": sub(jax, "numpy"),
        "np": np,
        "optax": optax,
        "flax": flax,
        "nn": sub(flax, "linen"),
        "serialization": sub(flax, "serialization"),
        "struct": sub(flax, "struct"),
        "train_state": sub(flax, "training.train_state"),
        "optimizers": sub(jax, "example_libraries.optimizers"),
        "stax": sub(jax, "example_libraries.stax"),
    }


# --------------------------------------------------------------------------------------------
# comparing an answer with JAX's

#: relative tolerance by dtype for values that are not bit-identical (a few ulps of the dtype)
RTOL = {
    "float16": 2e-3, "bfloat16": 1.6e-2, "float32": 4e-6, "float64": 1e-13,
    "complex64": 4e-6, "complex128": 1e-13,
}  # fmt: skip

#: classes, worst first: silent differences, then crashes, then error-class differences
CLASSES = ("value", "dtype", "weak", "shape", "structure", "crash", "accepts", "error_class")


def _close(a: str, b: str, rtol: float, floor: float = 1e-30) -> bool:
    x, y = complex(a), complex(b)
    if x == y:
        return str(x) == str(y) or x != 0  # the sign of a zero matters
    nan_x = [v != v for v in (x.real, x.imag)]
    if any(nan_x) or any(v != v for v in (y.real, y.imag)):
        # a NaN's sign and payload are not part of JAX's contract; where it is, is
        return (
            nan_x == [v != v for v in (y.real, y.imag)]
            and (nan_x[0] or x.real == y.real)
            and (nan_x[1] or x.imag == y.imag)
        )
    return abs(x - y) <= rtol * max(abs(y), floor)


def _worst(found: list[str]) -> str | None:
    for c in CLASSES:
        if c in found:
            return c
    return None


def _diff(mine: Any, ref: Any, found: list[str], normwise: bool = False) -> None:
    if mine == ref:
        return
    if not isinstance(mine, list) or not isinstance(ref, list) or not mine or not ref:
        found.append("structure")
        return
    if ref[0] in ("np", "arr") and mine[0] in ("np", "arr"):
        _diff_array(mine, ref, found, normwise)
        return
    if mine[0] != ref[0]:
        found.append("structure")
        return
    kind = ref[0]
    if kind == "py":
        if mine[1] != ref[1]:
            found.append("dtype")
        elif not (ref[1] in ("float", "complex") and _close(mine[2], ref[2], 4e-6)):
            found.append("value")
    elif kind in ("list", "tuple"):
        if len(mine[1]) != len(ref[1]):
            found.append("structure")
        for m, r in zip(mine[1], ref[1]):
            _diff(m, r, found, normwise)
    elif kind in ("dict", "map", "nt", "dc"):
        items_m, items_r = mine[-1], ref[-1]
        if kind in ("nt", "dc") and mine[1] != ref[1]:
            found.append("structure")
        if [k for k, _ in items_m] != [k for k, _ in items_r]:
            found.append("structure")
            mine_d = dict((k, v) for k, v in items_m)
            for k, v in items_r:
                if k in mine_d:
                    _diff(mine_d[k], v, found, normwise)
            return
        for (_, m), (_, r) in zip(items_m, items_r):
            _diff(m, r, found, normwise)
    elif kind == "bytes":
        found.append("value")
    else:
        found.append("structure")


def _diff_array(mine: list[Any], ref: list[Any], found: list[str], normwise: bool) -> None:
    _, dt_m, sh_m, weak_m, bits_m, vals_m = mine
    _, dt_r, sh_r, weak_r, bits_r, vals_r = ref
    if mine[0] != ref[0]:
        found.append("structure")
    if dt_m != dt_r:
        found.append("dtype")
    if sh_m != sh_r:
        found.append("shape")
        return
    if weak_r is not None and weak_m is not None and weak_m != weak_r:
        found.append("weak")
    if bits_m == bits_r or dt_m != dt_r:
        mismatched = dt_m != dt_r and vals_m is not None and vals_r is not None
        if mismatched and any(not _close(a, b, 1.6e-2) for a, b in zip(vals_m, vals_r)):
            found.append("value")
        return
    rtol = RTOL.get(dt_r)
    floor = 1e-30
    if normwise and vals_r:  # an element's error measured against the array's largest value
        floor = max(abs(complex(v)) for v in vals_r if complex(v) == complex(v))
    if (
        rtol is None
        or vals_m is None
        or vals_r is None
        or any(not _close(a, b, rtol, floor) for a, b in zip(vals_m, vals_r))
    ):
        found.append("value")


def error_verdict(mine: Any, ref: Any) -> str | None:
    """The verdict when either side raised (an error outcome is ``["error", class name, names of
    the class and its bases]``): ``"accepts"`` when only JAX raised, ``"crash"``
    when only trellax did, ``"error_class"`` when both raised but trellax's class is not, or does
    not derive from, JAX's; ``None`` when the errors agree."""
    if ref[0] == "error":
        if mine[0] != "error":
            return "accepts"
        return None if ref[1] in mine[2] else "error_class"
    return "crash"


def classify(mine: Any, ref: Any, *, normwise: bool = False) -> str | None:
    """``None`` when ``mine`` agrees with JAX's ``ref`` (bits, or within :data:`RTOL`), else the
    worst class of difference. ``normwise`` measures each element's error against its array's
    largest magnitude rather than its own (for results of sums that cancel)."""
    if ref[0] == "error" or mine[0] == "error":
        return error_verdict(mine, ref)
    found: list[str] = []
    _diff(mine, ref, found, normwise)
    return _worst(found)
