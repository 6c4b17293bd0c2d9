"""Generate golden data for ``trellax.nn``'s lifted transforms, extra layers and module API from
real Flax 0.12.8 + JAX.

Run from the repository root in a virtual environment with ``flax``, ``jax`` and ``numpy``
(``/tmp/jaxref/bin/python tools/gen_golden_linen.py [case ...]``). Writes
``tests/golden/linen.json``: ``{"meta": {...}, "cases": {name: {path: leaf} | {"error": ...}}}``
where an array leaf is ``{"dtype", "shape", "values"}`` and other leaves are kept as they are,
and ``tests/golden/linen_names.json``: the public names of ``flax.linen``.
The cases live in ``tests/linen_cases.py``. This script must not import trellax.
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
import jax
import jax.numpy as jnp
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import linen_cases  # noqa: E402

OUT = ROOT / "tests" / "golden" / "linen.json"
NAMES = ROOT / "tests" / "golden" / "linen_names.json"


def encode(leaf: Any) -> Any:
    if isinstance(leaf, np.ndarray):
        d = str(leaf.dtype)
        vals = (
            leaf.astype(np.float64).ravel().tolist()
            if leaf.dtype.kind != "c"
            else [[float(z.real), float(z.imag)] for z in leaf.ravel()]
        )
        return {"dtype": d, "shape": list(leaf.shape), "values": vals}
    return leaf


def main(names: list[str]) -> None:
    jax.config.update("jax_platforms", "cpu")
    warnings.simplefilter("ignore")
    ns = SimpleNamespace(
        nn=nn,
        jnp=jnp,
        jax=jax,
        random=jax.random,
        x=lambda s, seed=0: jnp.asarray(linen_cases.data(s, seed)),
    )
    old = json.loads(OUT.read_text())["cases"] if OUT.exists() and names else {}
    cases = dict(old)
    for name, build in linen_cases.CASES.items():
        if names and name not in names:
            continue
        try:
            tree = linen_cases.flatten(build(ns))
            cases[name] = {k: encode(v) for k, v in tree.items()}
        except Exception as e:  # recorded: trellax must raise the same error
            msg = re.sub(r" \(https://flax[^)]*\)", "", str(e))
            cases[name] = {"error": {"type": type(e).__name__, "message": msg}}
        print(name, "error" if "error" in cases[name] else len(cases[name]))
    meta = {"flax": flax.__version__, "jax": jax.__version__, "numpy": np.__version__}
    OUT.write_text(json.dumps({"meta": meta, "cases": cases}, indent=0, sort_keys=True) + "\n")
    public = sorted(n for n in dir(nn) if not n.startswith("_"))
    NAMES.write_text(json.dumps({"meta": meta, "flax.linen": public}, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
