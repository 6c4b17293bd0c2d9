"""Golden first, second and third derivatives from JAX for every differentiable primitive.

Each function is evaluated under ``jax.jit`` (JAX's eager third derivatives take ~1 s per
function on this machine; compiling them takes minutes per case for the special functions, so
``--shard k/n`` splits the cases between processes, merged with ``--merge``). Under ``jit``
XLA's simplifier turns the ``0 * NaN`` of ``jacfwd``'s one-hot basis vectors into 0, so the
test compares the diagonal of an elementwise case's Hessian only. Writes ``tests/golden/derivs.json``: for each case of ``tests/deriv_cases.py`` and each of
float32 and float64, every quantity of ``deriv_cases.quantities`` (grad, grad-of-grad and its
mixed partials, grad-of-grad-of-grad, jvp nested 1-3 times, jacfwd-of-jacrev, grads of a
weakly typed Python float) as values, dtype, weak flag and shape, or the class of the error
JAX raises. ``tests/test_derivs.py`` computes the same quantities with trellax.

    python tools/gen_golden_derivs.py [--resume] [case names]   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
from typing import Any

import jax
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "derivs.json"
sys.path.insert(0, str(OUT.parent.parent))
import deriv_cases as dc  # noqa: E402


def record(v: Any) -> dict[str, Any]:
    """The values, dtype, weak flag and shape of one result."""
    a = np.asarray(v)
    return {
        "values": a.astype(np.float64).tolist(),
        "dtype": str(a.dtype),
        "weak_type": bool(getattr(v, "weak_type", False)),
        "shape": list(a.shape),
    }


def evaluate(
    case: dc.Case, env: dict[str, Any], dtype: Any, names: set[str] | None = None
) -> dict[str, Any]:
    """Every quantity of one case in one dtype (or those of ``names``)."""
    try:
        d = dc.Derivatives(jax, case, env, dtype)
    except Exception as e:  # the function itself fails: every quantity records the error
        return {name: {"error": type(e).__name__} for name in dc.quantities(case, len(case.args))}
    out: dict[str, Any] = {}
    for name in dc.quantities(case, d.n):
        if names is not None and name not in names:
            continue
        fn, args = d.function(name)
        try:
            out[name] = [record(leaf) for leaf in dc.leaves(jax.jit(fn)(*args))]
        except Exception as e:  # the error class is the golden value
            out[name] = {"error": type(e).__name__}
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2"
    resume = "--resume" in sys.argv  # keep the entries already written
    # --float32 / --float64: one dtype only (two processes can share the work, then --merge)
    dtypes = [d for d in ("float32", "float64") if f"--{d}" in sys.argv] or ["float32", "float64"]
    only = {a for a in sys.argv[1:] if not a.startswith("--")}
    shard = next((a.split("=")[1] for a in sys.argv if a.startswith("--shard=")), "0/1")
    k, n = (int(v) for v in shard.split("/"))
    out_path = OUT.with_suffix(f".{dtypes[0]}.json") if len(dtypes) == 1 else OUT
    if n > 1:
        out_path = OUT.with_suffix(f".shard{k}.json")
    done: dict[str, Any] = json.loads(OUT.read_text()) if resume and OUT.exists() else {}
    if "--merge" in sys.argv:  # the two halves written by --float32 and --float64
        merged: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {}
        for half in sorted(OUT.parent.glob("derivs.*.json")):
            if half.exists():
                merged.update(json.loads(half.read_text()))
                half.unlink()
        OUT.write_text(json.dumps(merged, indent=0, sort_keys=True) + "\n")
        print(f"wrote {OUT} ({len(merged)} entries)")
        return
    old = json.loads(out_path.read_text()) if (only or resume) and out_path.exists() else {}
    out: dict[str, Any] = dict(old)
    for x64, dtype in ((False, np.float32), (True, np.float64)):
        if np.dtype(dtype).name not in dtypes:
            continue
        jax.config.update("jax_enable_x64", x64)
        env = dc.namespace(jax)
        for index, case in enumerate(dc.ALL):
            key = f"{case.name}|{np.dtype(dtype).name}"
            if (only and case.name not in only) or (resume and (key in out or key in done)):
                continue
            if index % n != k:
                continue
            out[key] = evaluate(case, env, dtype)
            jax.clear_caches()
            print(key, flush=True)
            out_path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    out_path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {out_path} ({len(out)} entries)")


if __name__ == "__main__":
    main()
