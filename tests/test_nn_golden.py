"""``trellax.nn`` against Flax 0.12 + JAX 0.10: every case of ``tests/nn_cases.py``.

The golden file holds Flax's variables, so modules are applied to exactly Flax's parameters;
``init`` with the same key must also give them (dtypes, shapes and values: trellax derives
module keys as Flax does). Output dtypes must match exactly, values within a tolerance set by
the dtype. Cases where trellax departs from Flax on purpose (``decision=True``: BatchNorm's
running-statistics dtype, complex attention) have their own tests below.
"""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ml_dtypes
import nn_cases
import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as tnp
from trellax._src.nn import normalization

GOLDEN = json.loads((Path(__file__).parent / "golden" / "nn.json").read_text())["cases"]
HAS_RANDOM = importlib.util.find_spec("trellax.random") is not None
CASES = [c for c in nn_cases.CASES if not c.decision]
BY_NAME = {c.name: c for c in nn_cases.CASES}


def _np_dtype(name: str) -> Any:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def decode(enc: dict[str, Any]) -> np.ndarray:
    d = _np_dtype(enc["dtype"])
    if d.kind == "c":
        vals = np.array([complex(re_, im) for re_, im in enc["values"]], d)
    else:
        vals = np.array(enc["values"], np.float64).astype(d)
    return vals.reshape(enc["shape"])


def make_ns() -> SimpleNamespace:
    key = importlib.import_module("trellax.random").PRNGKey(0) if HAS_RANDOM else None
    return SimpleNamespace(
        nn=nn,
        jnn=nn,
        jnp=tnp,
        lax=trellax.lax,
        norm=normalization,
        key=key,
        vmap=trellax.vmap,
        grad=trellax.grad,
        x=lambda shape, dtype, seed=0: tnp.asarray(nn_cases.data(shape, dtype, seed), dtype),
    )


_TOL = {"bfloat16": 2e-2, "float16": 2e-3, "float32": 2e-5, "float64": 1e-12}


def check_tree(actual: Any, golden: dict[str, Any], values: bool = True) -> None:
    flat = nn_cases.flatten(actual)
    assert sorted(flat) == sorted(golden), f"paths differ: {sorted(flat)} vs {sorted(golden)}"
    for path, enc in golden.items():
        a = flat[path]
        assert str(a.dtype) == enc["dtype"], f"{path}: dtype {a.dtype} != {enc['dtype']}"
        assert list(a.shape) == enc["shape"], f"{path}: shape {a.shape} != {enc['shape']}"
        if not values:
            continue
        want = decode(enc)
        got = np.asarray(a)
        real = enc["dtype"].replace("complex64", "float32").replace("complex128", "float64")
        tol = _TOL.get(real, 0.0)
        g64 = got.astype(np.complex128 if got.dtype.kind == "c" else np.float64)
        w64 = want.astype(g64.dtype)
        finite = np.isfinite(w64)
        np.testing.assert_array_equal(np.isfinite(g64), finite, err_msg=path)
        np.testing.assert_array_equal(g64[~finite], w64[~finite], err_msg=path)
        scale = max(1.0, float(np.max(np.abs(w64[finite]), initial=0.0)))
        np.testing.assert_allclose(
            g64[finite], w64[finite], rtol=tol, atol=tol * scale, err_msg=path
        )


def _message(m: str) -> str:
    # the goldens drop the link to Flax's error page that Flax's (and trellax's) messages end with
    m = re.sub(r"\s*\(https://flax\.readthedocs\.io[^)]*\)", "", m)
    return re.sub(r"<class '(?:jax\.numpy|numpy)\.(\w+)'>", r"\1", m)


def check_error(e: BaseException, golden: dict[str, Any]) -> None:
    assert type(e).__name__ == golden["type"], f"{type(e).__name__}: {e}"
    if golden["type"] != "IndexError":  # JAX's is Python's bare "tuple index out of range"
        assert _message(str(e)) == _message(golden["message"])


def golden_variables(case: nn_cases.Case, golden: dict[str, Any]) -> dict[str, Any]:
    flat = {k: tnp.asarray(decode(v)) for k, v in golden["variables"].items()}
    variables = nn_cases.unflatten(flat)
    if case.cast_params:
        variables["params"] = trellax.tree_util.tree_map(
            lambda a: a.astype(case.cast_params), variables["params"]
        )
    return variables


def run_case(case: nn_cases.Case) -> None:
    golden = GOLDEN[case.name]
    ns = make_ns()
    err = golden.get("error")
    if case.kind == "fn":
        fn, args = case.build(ns)
        if err:
            with pytest.raises(Exception) as info:
                fn(*args)
            check_error(info.value, err)
            return
        check_tree(fn(*args), golden["out"], case.values)
        return
    if err and err["stage"] in ("init", "build"):
        if not HAS_RANDOM:
            pytest.skip("init needs trellax.random")
        with pytest.raises(Exception) as info:
            module, args = case.build(ns)
            module.init({"params": ns.key, "dropout": ns.key}, *args)
        check_error(info.value, err)
        return
    module, args = case.build(ns)
    if HAS_RANDOM:
        variables = module.init({"params": ns.key, "dropout": ns.key}, *args)
        check_tree(variables, golden["variables"], values=True)
    variables = golden_variables(case, golden)
    kw = nn_cases.resolve_apply_kw(ns, case.apply_kw)
    if "rngs" in kw and not HAS_RANDOM:
        pytest.skip("needs trellax.random")
    if err and err["stage"] == "apply":
        with pytest.raises(Exception) as info:
            module.apply(variables, *args, **kw)
        check_error(info.value, err)
        return
    check_tree(module.apply(variables, *args, **kw), golden["out"], case.values)
    if case.step is not None:
        x = args[0]
        xs = x[:, :2] if case.step < 0 else x[:, case.step : case.step + 1]
        if err:
            with pytest.raises(Exception) as info:
                module.apply(variables, xs, mutable=["cache"])
            check_error(info.value, err)
        else:
            check_tree(module.apply(variables, xs, mutable=["cache"]), golden["step"])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_against_flax(case: nn_cases.Case) -> None:
    with trellax.enable_x64(case.x64):
        run_case(case)


# -- our two decisions (docs/semantics.md) --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "x64", "mean_dtype", "var_dtype"),
    [
        ("32 BatchNorm complex64 train", False, "complex64", "float32"),
        ("32b x64 BatchNorm float64 train", True, "float64", "float64"),
    ],
)
def test_batchnorm_running_stats_keep_their_dtype(
    name: str, x64: bool, mean_dtype: str, var_dtype: str
) -> None:
    # Flax creates float32 statistics that turn complex64/float64 on the first update; trellax
    # creates them in promote_types(x.dtype, float32) (var real) and keeps that dtype.
    case, golden = BY_NAME[name], GOLDEN[name]
    with trellax.enable_x64(x64):
        module, args = case.build(make_ns())
        variables = golden_variables(case, golden)
        if HAS_RANDOM:
            made = module.init(make_ns().key, *args)
            assert str(made["batch_stats"]["mean"].dtype) == mean_dtype
            assert str(made["batch_stats"]["var"].dtype) == var_dtype
        stats = variables["batch_stats"]
        stats["mean"] = stats["mean"].astype(mean_dtype)
        stats["var"] = stats["var"].astype(var_dtype)
        y, upd = module.apply(variables, *args, mutable=["batch_stats"])
        check_tree(y, {"": golden["out"]["0"]})
        new = upd["batch_stats"]
        assert str(new["mean"].dtype) == mean_dtype and str(new["var"].dtype) == var_dtype
        assert golden["out"]["1/batch_stats/mean"]["dtype"] == mean_dtype  # Flax agrees after
        # Flax's var passes through a float32 intermediate (float32 ones * momentum): 1e-8 apart
        for k in ("mean", "var"):
            want = decode(golden["out"][f"1/batch_stats/{k}"])
            np.testing.assert_allclose(np.asarray(new[k]), want, rtol=1e-7)
        _, upd2 = module.apply({**variables, "batch_stats": new}, *args, mutable=["batch_stats"])
        assert upd2["batch_stats"]["mean"].dtype == new["mean"].dtype


def test_complex_attention_raises() -> None:
    # Flax returns complex64; the FLIP (and trellax) refuse: softmax of complex logits is undefined.
    q = tnp.ones((1, 3, 2, 4), "complex64")
    with pytest.raises(ValueError, match="complex"):
        nn.dot_product_attention(q, q, q)
    with pytest.raises(ValueError, match="complex"):
        nn.dot_product_attention_weights(q, tnp.ones((1, 3, 2, 4)))
    # an explicit real dtype opts in to truncation
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        out = nn.dot_product_attention(q, q, q, dtype="float32")
    assert out.dtype == np.float32
    assert "40 dot_product_attention complex64" in GOLDEN


@pytest.mark.parametrize("shape", [(3, 4, 5), (6, 2)])
def test_orthogonal_initializer_in_bfloat16(shape: tuple[int, ...]) -> None:
    # JAX's QR refuses bfloat16 (NotImplementedError); trellax computes it. Same check as JAX's
    # float32 result: the columns (or rows) are orthonormal.
    q = nn.initializers.orthogonal()(make_ns().key, shape, "bfloat16")
    assert q.dtype == np.dtype("bfloat16") and q.shape == shape
    m = np.asarray(q, np.float32).reshape(-1, shape[-1])
    gram = m.T @ m if m.shape[0] >= m.shape[1] else m @ m.T
    np.testing.assert_allclose(gram, np.eye(len(gram)), atol=3e-2)
