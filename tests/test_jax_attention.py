"""``jax.nn.dot_product_attention`` (``trellax.nn.dot_product_attention`` with JAX's options or
grouped heads) against JAX 0.10.2: outputs, residuals and gradients of
``tools/gen_golden_jax_attention.py``'s cases; its errors; ``fan_geo_avg``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import nn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import gen_golden_jax_attention as gen  # noqa: E402

GOLDEN = json.loads((ROOT / "tests" / "golden" / "jax_attention.json").read_text())


def _close(actual: Any, want: dict[str, Any], tol: float = 2e-5) -> None:
    a = np.asarray(actual, np.float64)
    assert list(a.shape) == want["shape"]
    np.testing.assert_allclose(a.ravel(), want["values"], rtol=tol, atol=tol)


@pytest.mark.parametrize("name", list(gen.CASES))
def test_matches_jax(name: str) -> None:
    (q, k, v, bias, mask), kw = gen.inputs(name)
    want = GOLDEN["cases"][name]

    def f(q: Any, k: Any, v: Any) -> Any:
        return nn.dot_product_attention(q, k, v, bias, mask, **kw)

    res = f(q, k, v)
    primal = res[0] if isinstance(res, tuple) else res
    _close(primal, want["out"])
    assert primal.dtype == np.float32
    if "residual" in want:
        _close(res[1], want["residual"])
    ct = np.cos(np.arange(primal.size, dtype=np.float32)).reshape(primal.shape)

    def loss(q: Any, k: Any, v: Any) -> Any:
        r = f(q, k, v)
        return jnp.sum((r[0] if isinstance(r, tuple) else r) * ct)

    grads = trellax.grad(loss, argnums=(0, 1, 2))(q, k, v)
    for g, w in zip(grads, want["grads"]):
        _close(g, w, 1e-4)


def test_flax_signature_still_flax() -> None:
    """Without JAX's options and with equal heads, Flax's function runs (its dropout args)."""
    (q, k, v, _, _), _ = gen.inputs("plain")
    out = nn.dot_product_attention(q, k, v, dropout_rate=0.0, deterministic=True)
    _close(out, GOLDEN["cases"]["plain"]["out"])


def test_errors() -> None:
    (q, k, v, _, _), _ = gen.inputs("plain")
    with pytest.raises(ValueError, match="Unsupported implementation option"):
        nn.dot_product_attention(q, k, v, implementation="triton")
    with pytest.raises(ValueError, match="multiple of key/value heads"):
        nn.dot_product_attention(q, k[:, :, :3], v[:, :, :3], is_causal=True)
    with pytest.raises(ValueError, match="mask dtype should be bool"):
        nn.dot_product_attention(q, k, v, mask=np.ones((1, 1, 5, 6), np.float32), scale=1.0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        nn.dot_product_attention(q, k, v, causal=True)


def test_variance_scaling_fan_geo_avg() -> None:
    init = nn.initializers.variance_scaling(1.0, "fan_geo_avg", "normal")
    _close(init(trellax.random.key(0), (3, 12)), GOLDEN["fan_geo_avg"], 1e-6)
