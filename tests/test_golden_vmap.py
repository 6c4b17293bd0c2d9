"""vmap against golden data from real JAX 0.10.2 (``tools/gen_golden_vmap.py``).

The sources the generator evaluated with ``jax`` are evaluated here with trellax: every output
leaf's shape, dtype, weak flag and values (in_axes/out_axes of every form, dtypes, the op
catalogue, nesting with jit and autodiff, batched control flow, collectives), and the error
classes and texts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.tree_util import tree_leaves

GOLDEN = json.loads((Path(__file__).parent / "golden" / "vmap.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}

#: Error texts of which only the start is compared, with the reason (docs/vmap.md lists them).
_PROMOTION = (
    "Input dtypes (",
    "the promotion layer orders the dtypes and names the option its own way (as without vmap)",
)
MESSAGE_PREFIX_ONLY: dict[str, tuple[str, str]] = {
    "strict_mixed_error": _PROMOTION,
    "strict_f16_error": _PROMOTION,
    "strict_unbatched_mixed": _PROMOTION,
    "unbound_name": (
        "Found an unbound axis name: j.",
        "JAX's hint names jax.shard_map, which trellax does not have",
    ),
    "in_axes_not_prefix": (
        "vmap in_axes specification must be a tree prefix of the corresponding value; \n"
        "  Mismatch details",
        "the mismatch details come from the pytree library's own message",
    ),
}


#: Output leaves whose zeros may differ in sign from JAX's, with the reason. None comes from
#: batching: each case gives the same sign without vmap.
SIGN_OF_ZERO_DIFFERS: dict[str, str] = {
    "grad_vmap": "prod's derivative at a zero factor: XLA and NumPy multiply in another order",
}


def _env() -> dict[str, Any]:
    env: dict[str, Any] = {
        "vmap": trellax.vmap,
        "jit": trellax.jit,
        "grad": trellax.grad,
        "value_and_grad": trellax.value_and_grad,
        "jvp": trellax.jvp,
        "custom_jvp": trellax.custom_jvp,
        "custom_vjp": trellax.custom_vjp,
        "lax": lax,
        "xnp": tnp,
        "np": np,
    }
    for name, a in GOLDEN["arrays"].items():
        env[name] = tnp.asarray(np.array(a["values"]), dtype=a["dtype"])
    return env


def _tolerance(dtype: str) -> tuple[float, float]:
    if dtype in ("float16", "bfloat16"):
        return 1e-2, 1e-2
    return 2e-5, 1e-6


def _compare_leaf(got: Any, want: dict[str, Any], where: str, zero_signs: bool) -> None:
    kind = {"dtype": str(np.dtype(got.dtype).name), "weak_type": bool(got.weak_type)}
    assert kind == {"dtype": want["dtype"], "weak_type": want["weak_type"]}, where
    assert list(got.shape) == want["shape"], where
    dtype = want["dtype"]
    g = np.asarray(got)
    if g.dtype.kind == "c":
        g = np.stack([g.real, g.imag])
        w = np.array(want["values"], np.float64)
    elif dtype == "bool" or g.dtype.kind in "iu":
        np.testing.assert_array_equal(g, np.array(want["values"], dtype), err_msg=where)
        return
    else:
        g = g.astype(np.float64)
        w = np.array(want["values"], np.float64)
    rtol, atol = _tolerance(dtype)
    np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=where)
    zeros = (w == 0) & (g == 0)
    assert not zero_signs or (np.signbit(g[zeros]) == np.signbit(w[zeros])).all(), (
        f"{where}: sign of zero"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_golden(name: str) -> None:
    case = CASES[name]
    want = case["result"]
    src = case["src"]
    config = case.get("config", {"x64": False, "promotion": "standard"})
    with trellax.enable_x64(config["x64"]), trellax.numpy_dtype_promotion(config["promotion"]):
        _check_case(name, src, want)


def _check_case(name: str, src: str, want: dict[str, Any]) -> None:
    if "error" in want:
        with pytest.raises(Exception) as info:
            eval(src, _env())
        got = info.value
        assert type(got).__name__ == want["error"], f"{src}: {got!r}"
        prefix = MESSAGE_PREFIX_ONLY.get(name)
        if prefix is not None:
            assert want["message"].startswith(prefix[0])
            assert str(got).startswith(prefix[0]), f"{src}: {got}"
        else:
            assert str(got) == want["message"], src
        return
    out = eval(src, _env())
    leaves = tree_leaves(out)
    assert len(leaves) == len(want["outputs"]), src
    for i, (leaf, w) in enumerate(zip(leaves, want["outputs"])):
        if not isinstance(leaf, trellax.Array):
            leaf = tnp.asarray(leaf)
        _compare_leaf(leaf, w, f"{src} [output {i}]", name not in SIGN_OF_ZERO_DIFFERS)


def test_golden_covers_the_issue_catalogue() -> None:
    groups = {c["group"] for c in GOLDEN["cases"]}
    assert groups == {
        "axes",
        "dtypes",
        "ops",
        "nest",
        "custom",
        "control",
        "collective",
        "errors",
        "x64",
        "strict",
    }
    assert GOLDEN["meta"]["jax"] == "0.10.2"
