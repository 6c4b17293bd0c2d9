"""Golden data for ``jax.nn.dot_product_attention`` (and ``variance_scaling``'s ``fan_geo_avg``)
from real JAX.

Run from the repository root with JAX 0.10.2 installed (``/tmp/jaxref/bin/python
tools/gen_golden_jax_attention.py``). Writes ``tests/golden/jax_attention.json``, which
``tests/test_jax_attention.py`` reads (the test suite never imports JAX). The inputs are drawn
with NumPy from fixed seeds on both sides (``CASES`` below is read by the test too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

#: name -> (B, T, S, N, K, H, options); options are keyword arguments, plus "bias" (heads of
#: the bias, 1 or N), "mask" (a custom lower-triangular mask) and "seq" (padding lengths).
CASES: dict[str, tuple[int, int, int, int, int, int, dict[str, Any]]] = {
    "plain": (2, 5, 6, 4, 4, 8, {}),
    "grouped": (2, 5, 6, 4, 2, 8, {}),
    "grouped_xla_residual": (2, 5, 6, 6, 3, 8, {"implementation": "xla", "return_residual": True}),
    "causal": (1, 6, 6, 2, 2, 4, {"is_causal": True}),
    "bias_heads": (2, 4, 5, 4, 2, 4, {"bias": 4}),
    "bias_one_head_scale": (2, 4, 5, 4, 4, 4, {"bias": 1, "scale": 0.3}),
    "mask_padding": (2, 6, 7, 2, 1, 4, {"mask": True, "seq": True}),
    "causal_window": (1, 7, 7, 2, 2, 4, {"is_causal": True, "local_window_size": (2, 1)}),
    "window_int": (1, 7, 7, 2, 2, 4, {"local_window_size": 1}),
    "no_batch": (0, 5, 6, 4, 2, 8, {}),
}


def inputs(name: str) -> tuple[list[np.ndarray], dict[str, Any]]:
    """The arrays (query, key, value, bias, mask) and keyword arguments of a case."""
    b, t, s, n, k, h, opts = CASES[name]
    rng = np.random.RandomState(sum(map(ord, name)))
    lead = (b,) if b else ()
    q = rng.normal(size=(*lead, t, n, h)).astype(np.float32)
    kk = rng.normal(size=(*lead, s, k, h)).astype(np.float32)
    v = rng.normal(size=(*lead, s, k, h)).astype(np.float32)
    kw = {key: val for key, val in opts.items() if key not in ("bias", "mask", "seq")}
    bias = mask = None
    if "bias" in opts:
        bias = rng.normal(size=(b, opts["bias"], t, s)).astype(np.float32)
    if opts.get("mask"):
        mask = np.tril(np.ones((t, s), bool))[None, None]
    if opts.get("seq"):
        kw["query_seq_lengths"] = np.array([t // 2, t], np.int32)
        kw["key_value_seq_lengths"] = np.array([s, s // 2], np.int32)
    return [q, kk, v, bias, mask], kw


def encode(x: Any) -> Any:
    return {"shape": list(np.shape(x)), "values": np.asarray(x, np.float64).ravel().tolist()}


def main() -> None:
    import jax
    import jax.numpy as jnp

    out: dict[str, Any] = {"meta": {"jax": jax.__version__}, "cases": {}}
    for name in CASES:
        (q, k, v, bias, mask), kw = inputs(name)

        def f(q: Any, k: Any, v: Any, bias: Any = bias, mask: Any = mask, kw: Any = kw) -> Any:
            return jax.nn.dot_product_attention(q, k, v, bias, mask, **kw)

        res = f(q, k, v)
        primal = res[0] if isinstance(res, tuple) else res
        ct = np.cos(np.arange(primal.size, dtype=np.float32)).reshape(primal.shape)

        def loss(q: Any, k: Any, v: Any, f: Any = f, ct: Any = ct) -> Any:
            r = f(q, k, v)
            return jnp.sum((r[0] if isinstance(r, tuple) else r) * ct)

        grads = jax.grad(loss, argnums=(0, 1, 2))(q, k, v)
        case = {"out": encode(primal), "grads": [encode(g) for g in grads]}
        if isinstance(res, tuple):
            case["residual"] = encode(res[1])
        out["cases"][name] = case
    key = jax.random.key(0)
    geo = jax.nn.initializers.variance_scaling(1.0, "fan_geo_avg", "normal")(key, (3, 12))
    out["fan_geo_avg"] = encode(geo)
    path = ROOT / "tests" / "golden" / "jax_attention.json"
    path.write_text(json.dumps(out) + "\n")
    print(f"wrote {path} ({len(out['cases'])} cases)")


if __name__ == "__main__":
    main()
