"""Generate golden data for ``trellax.nn`` from real Flax + JAX.

Run from the repository root in a virtual environment with ``flax`` (0.12.x), ``jax`` and
``numpy``::

    python tools/gen_golden_nn.py

Writes ``tests/golden/nn.json``; ``tests/test_nn_golden.py`` reads it and never imports JAX or
Flax. The cases live in ``tests/nn_cases.py`` and are built by the same code on both sides.
This script must not import trellax.

Layout: ``{"meta": {...versions...}, "cases": {name: result}}``. A result is one of

- ``{"error": {"stage", "type", "message"}}``: ``stage`` is ``init``, ``apply`` or ``step``;
  ``type`` the exception class name; ``message`` its text (Flax's documentation link removed);
- ``{"variables": {path: array}, "out": {path: array}, "step": {...}}`` for module cases
  (``out`` holds the output, or ``out/0`` the output and ``out/1/...`` the updated collections
  when ``mutable`` is given; ``step`` the decode step's output and cache);
- ``{"out": {path: array}}`` for function cases.

An array is ``{"dtype", "shape", "values"}``; ``values`` is the flat float list (``[re, im]``
pairs for complex), with NaN and infinities as JSON's ``NaN``/``Infinity``.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flax
import flax.linen as nn
import flax.linen.normalization as norm
import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import nn_cases  # noqa: E402


def encode(a: Any) -> dict[str, Any]:
    a = np.asarray(a)
    if a.dtype.kind == "c":
        values: list[Any] = [[float(v.real), float(v.imag)] for v in a.ravel()]
    else:
        values = [float(v) for v in a.astype(np.float64).ravel()]
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": values}


def encode_tree(tree: Any) -> dict[str, Any]:
    return {k: encode(v) for k, v in nn_cases.flatten(tree).items()}


def error(stage: str, e: Exception) -> dict[str, Any]:
    msg = re.sub(r"\s*\(https://flax\.readthedocs\.io[^)]*\)", "", str(e))
    return {"error": {"stage": stage, "type": type(e).__name__, "message": msg}}


def run(case: nn_cases.Case) -> dict[str, Any]:
    key = jax.random.PRNGKey(0)
    ns = SimpleNamespace(
        nn=nn,
        jnn=jax.nn,
        jnp=jnp,
        lax=jax.lax,
        norm=norm,
        key=key,
        vmap=jax.vmap,
        grad=jax.grad,
        x=lambda shape, dtype, seed=0: jnp.asarray(nn_cases.data(shape, dtype, seed), dtype),
    )
    try:
        built, args = case.build(ns)
    except Exception as e:
        return error("build", e)
    if case.kind == "fn":
        try:
            return {"out": encode_tree(built(*args))}
        except Exception as e:
            return error("apply", e)
    try:
        variables = built.init({"params": key, "dropout": key}, *args)
    except Exception as e:
        return error("init", e)
    variables = jax.tree_util.tree_map(np.asarray, variables)
    result: dict[str, Any] = {"variables": encode_tree(variables)}
    if case.cast_params:
        variables = dict(variables)
        variables["params"] = jax.tree_util.tree_map(
            lambda a: np.asarray(a).astype(jnp.dtype(case.cast_params)), variables["params"]
        )
    kw = nn_cases.resolve_apply_kw(ns, case.apply_kw)
    try:
        out = built.apply(variables, *args, **kw)
    except Exception as e:
        result.update(error("apply", e))
        return result
    result["out"] = encode_tree(out)
    if case.step is not None:
        x = args[0]
        xs = x[:, :2] if case.step < 0 else x[:, case.step : case.step + 1]
        try:
            y, cache = built.apply(variables, xs, mutable=["cache"])
            result["step"] = encode_tree([y, cache])
        except Exception as e:
            result.update(error("step", e))
    return result


def main() -> None:
    warnings.simplefilter("ignore")
    cases: dict[str, Any] = {}
    for case in nn_cases.CASES:
        jax.config.update("jax_enable_x64", case.x64)
        try:
            cases[case.name] = run(case)
        finally:
            jax.config.update("jax_enable_x64", False)
    out = {
        "meta": {
            "flax": flax.__version__,
            "jax": jax.__version__,
            "numpy": np.__version__,
            "cases": len(cases),
        },
        "cases": cases,
    }
    path = ROOT / "tests" / "golden" / "nn.json"
    with path.open("w") as f:
        f.write('{"meta": ' + json.dumps(out["meta"], sort_keys=True) + ', "cases": {\n')
        f.write(
            ",\n".join(
                json.dumps(k) + ": " + json.dumps(v, sort_keys=True) for k, v in cases.items()
            )
        )
        f.write("\n}}\n")
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
