"""``trellax.nn.fp8_ops`` (Flax's fp8 delayed-scaling layers) against Flax 0.12.8: the golden
values of ``tests/golden/nn_fp8.json`` come from ``tools/gen_golden_nn_fp8.py``."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
import trellax.random as random
from trellax import lax
from trellax.nn import fp8_ops

GOLDEN = json.loads((Path(__file__).parent / "golden" / "nn_fp8.json").read_text())["cases"]
COL = fp8_ops.OVERWRITE_WITH_GRADIENT


def arr(leaf: dict[str, Any]) -> np.ndarray:
    return np.asarray(leaf["values"], np.float64).reshape(leaf["shape"]).astype(leaf["dtype"])


@pytest.mark.parametrize(
    "q", ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]
)
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_qdq_is_flax_bit_for_bit(q: str, scale: float) -> None:
    case = GOLDEN["qdq"]
    x = tnp.asarray(arr(case["x"]))
    y = fp8_ops.qdq(x, tnp.dtype(q), tnp.full((1,), scale), tnp.float32)
    assert y.dtype == tnp.float32
    np.testing.assert_array_equal(np.asarray(y), arr(case[f"{q}_{scale}"]))


def test_update_fp8_meta() -> None:
    case = GOLDEN["meta"]
    new_scale, new_history = fp8_ops.update_fp8_meta(
        tnp.asarray(arr(case["x"])),
        tnp.float8_e4m3fn,
        tnp.asarray(arr(case["scale"])),
        tnp.asarray(arr(case["history"])),
    )
    np.testing.assert_allclose(np.asarray(new_scale), arr(case["new_scale"]), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(new_history), arr(case["new_history"]))


def test_compute_scale_keeps_the_old_scale_for_zero_or_inf_amax() -> None:
    old = tnp.asarray([0.5], tnp.float32)
    for amax in (0.0, float("inf"), float("nan")):
        got = fp8_ops.compute_scale(tnp.asarray(amax, tnp.float32), old, 448.0)
        np.testing.assert_allclose(np.asarray(got), [0.5])
    got = fp8_ops.compute_scale(tnp.asarray(4.0, tnp.float32), old, 448.0)
    np.testing.assert_allclose(np.asarray(got), [4.0 / 448.0], rtol=1e-6)


LAYERS = {
    "Fp8DirectDotGeneralOp": nn.Fp8DirectDotGeneralOp,
    "NANOOFp8DotGeneralOp": nn.NANOOFp8DotGeneralOp,
    "Fp8DotGeneralOp": nn.Fp8DotGeneralOp,
}


@pytest.mark.filterwarnings("ignore:The Fp8DotGeneralOp is deprecated")
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_dense_general_training_matches_flax(name: str) -> None:
    case = GOLDEN[f"train_{name}"]
    dense = nn.DenseGeneral(
        features=6,
        dot_general_cls=functools.partial(LAYERS[name], amax_history_length=16),
    )
    variables = dense.init(random.key(0), tnp.ones((4, 5)))
    assert set(variables[COL]) == {f"{name}_0"}
    assert {k: v.shape for k, v in variables[COL][f"{name}_0"].items()} == {
        "input_amax_history": (16,),
        "kernel_amax_history": (16,),
        "output_grad_amax_history": (16,),
        "input_scale": (1,),
        "kernel_scale": (1,),
        "output_grad_scale": (1,),
    }
    variables["params"] = {k: tnp.asarray(arr(v)) for k, v in case["start"].items()}

    def loss(v: Any, x: Any, dy: Any) -> Any:
        return tnp.sum(dense.apply(v, x) * dy)

    step = trellax.jit(trellax.value_and_grad(loss, argnums=(0, 1)))
    for want in case["steps"]:
        x, dy = tnp.asarray(arr(want["x"])), tnp.asarray(arr(want["dy"]))
        y = dense.apply(variables, x)
        np.testing.assert_allclose(np.asarray(y), arr(want["y"]), rtol=1e-5, atol=1e-5)
        _, (g, gx) = step(variables, x, dy)
        np.testing.assert_allclose(
            np.asarray(g["params"]["kernel"]), arr(want["grad_kernel"]), rtol=1e-5, atol=1e-5
        )
        np.testing.assert_allclose(np.asarray(gx), arr(want["grad_x"]), rtol=1e-5, atol=1e-5)
        meta = g[COL][f"{name}_0"]
        for key, value in want["meta"].items():
            np.testing.assert_allclose(np.asarray(meta[key]), arr(value), rtol=1e-6, err_msg=key)
        variables = {
            "params": trellax.tree_util.tree_map(
                lambda p, d: p - 0.1 * d, variables["params"], g["params"]
            ),
            COL: g[COL],
        }


@pytest.mark.parametrize("which", ["einsum_0", "einsum_1"])
def test_fp8_einsum_matches_flax(which: str) -> None:
    case = GOLDEN[which]
    eqn = case["eqn"]
    x, y, g = (tnp.asarray(arr(case[k])) for k in ("x", "y", "g"))
    layer = nn.Fp8Einsum(amax_history_length=16)
    variables = layer.init(random.key(0), eqn, x, y)

    def loss(v: Any, a: Any, b: Any) -> Any:
        return tnp.sum(layer.apply(v, eqn, a, b) * g)

    out = layer.apply(variables, eqn, x, y)
    np.testing.assert_allclose(np.asarray(out), arr(case["out"]), rtol=1e-5, atol=1e-5)
    _, (gv, ga, gb) = trellax.value_and_grad(loss, argnums=(0, 1, 2))(variables, x, y)
    np.testing.assert_allclose(np.asarray(ga), arr(case["grad_x"]), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(gb), arr(case["grad_y"]), rtol=1e-5, atol=1e-5)
    for key, value in case["meta"].items():
        np.testing.assert_allclose(np.asarray(gv[COL][key]), arr(value), rtol=1e-6, err_msg=key)


@pytest.mark.parametrize("q_dtype, top", [("float8_e4m3fn", 448.0), ("float8_e4m3fnuz", 240.0)])
@pytest.mark.parametrize("use_jit", [True, False])
def test_fp32_max_grad_meta_dtype_takes_the_max_of_updates(
    q_dtype: str, top: float, use_jit: bool
) -> None:
    """Flax's meta dtype: a history and scale used in three steps of a scan get the largest of
    the three updates as gradient (with float32 they would get the sum)."""
    assert fp8_ops.CAN_USE_EARRAY is True
    assert fp8_ops.fm32 is fp8_ops.fp32_max_grad and repr(fp8_ops.fm32) == "fp8_meta32"
    meta, f32 = fp8_ops.fp32_max_grad, tnp.dtype("float32")

    def outer(x: Any, history: Any, scale: Any) -> Any:
        h, s = lax.convert_element_type(history, meta), lax.convert_element_type(scale, meta)

        def body(c: Any, _: Any) -> tuple[Any, None]:
            return fp8_ops.in_qdq(f32, tnp.dtype(q_dtype), c, s, h), None

        out, _ = lax.scan(body, tnp.array([x], f32), None, length=3)
        return out[0]

    step = trellax.grad(outer, (0, 1, 2))
    if use_jit:
        step = trellax.jit(step)
    history, scale = tnp.zeros(3, f32), tnp.ones(1, f32)
    expected = [
        ([2.0, 0.0, 0.0], [1.0]),
        ([3.0, 0.0, 2.0], [2.0 / top]),
        ([4.0, 2.0, 3.0], [3.0 / top]),
    ]
    for x, (want_h, want_s) in zip((2.0, 3.0, 4.0), expected):
        _, history, scale = step(x, history, scale)
        assert history.dtype == f32 and scale.dtype == f32
        np.testing.assert_allclose(np.asarray(history), want_h)
        np.testing.assert_allclose(np.asarray(scale), want_s, rtol=1e-6)


def test_fp8_ops_unknown_name() -> None:
    with pytest.raises(AttributeError):
        _ = fp8_ops.no_such_name  # type: ignore[attr-defined]


def test_get_fp8_max_rejects_other_dtypes() -> None:
    assert float(fp8_ops.get_fp8_max(tnp.float8_e4m3fn, tnp.float32)) == 448.0
    assert float(fp8_ops.get_fp8_max(tnp.float8_e4m3fnuz, tnp.float32)) == 240.0
    with pytest.raises(ValueError, match="float8"):
        fp8_ops.get_fp8_max(tnp.float16, tnp.float32)


def test_deprecated_op_warns() -> None:
    with pytest.warns(DeprecationWarning, match="deprecated"):
        nn.Fp8DotGeneralOp()
