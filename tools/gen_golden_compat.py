"""Writes tests/golden/compat.json: JAX 0.10.2's results for ``jax.flatten_util``,
``jax.example_libraries`` (stax, optimizers) and the ``jax.experimental`` stand-ins.

The cases are expressions in tests/compat_cases.py, run here with ``M`` holding JAX's modules;
tests/test_golden_compat.py runs them with trellax's. Run with JAX installed:
``/tmp/jaxref/bin/python tools/gen_golden_compat.py``.
"""

from __future__ import annotations

import json
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import compat_cases  # noqa: E402 (the cases live with the tests)


def encode(x: Any) -> Any:
    """A JSON form of a result: arrays as value, dtype, weak flag and shape."""
    if isinstance(x, tuple | list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {str(k): encode(v) for k, v in sorted(x.items())}
    if isinstance(x, bool | str) or x is None:
        return x
    a = np.asarray(x)
    if a.dtype.kind == "c":
        value: Any = [a.real.astype(np.float64).tolist(), a.imag.astype(np.float64).tolist()]
    elif a.dtype.kind in "fiub" or a.dtype.name == "bfloat16":
        value = a.astype(np.float64).tolist()
    else:
        value = str(a)
    return {
        "value": value,
        "dtype": str(a.dtype),
        "weak": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
    }


def run(code: str, namespace: Any) -> dict[str, Any]:
    """The encoded result of one case, or its error type and first message line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(code, {"M": namespace, "np": np, "F": compat_cases})
        except Exception as e:
            return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    return {"result": encode(value)}


def jax_namespace() -> Any:
    """JAX's modules under the names the cases use."""
    import jax
    import jax.numpy as jnp
    from jax import flatten_util, random
    from jax.example_libraries import optimizers, stax
    from jax.experimental import checkify, io_callback, mesh_utils, multihost_utils
    from jax.experimental import shard_map as shard_map_module
    from jax.sharding import Mesh, PartitionSpec

    return types.SimpleNamespace(
        jax=jax,
        jnp=jnp,
        random=random,
        flatten_util=flatten_util,
        stax=stax,
        optimizers=optimizers,
        checkify=checkify,
        io_callback=io_callback,
        enable_x64=lambda: jax.enable_x64(True),
        disable_x64=lambda: jax.enable_x64(False),
        mesh_utils=mesh_utils,
        multihost_utils=multihost_utils,
        shard_map=shard_map_module,
        P=PartitionSpec,
        Mesh=Mesh,
    )


def main() -> None:
    """Writes the golden file."""
    import jax

    namespace = jax_namespace()
    cases = {
        name: {"code": code, **run(code, namespace)} for name, code in compat_cases.CASES.items()
    }
    out = ROOT / "tests" / "golden" / "compat.json"
    out.write_text(json.dumps({"jax": jax.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {out}: {len(cases)} cases")


if __name__ == "__main__":
    main()
