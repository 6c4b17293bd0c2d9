"""Golden data for ``checkify`` from JAX: what ``Error.get()`` says (or the error raised) for every
program of ``tests/checkify_cases.py`` (checks inside control flow, nested ``jit``, custom
derivatives, ``vmap``; which error wins). Writes ``tests/golden/checkify.json``.

    python tools/gen_golden_checkify.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys
import types

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import checkify

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "checkify.json"
sys.path.insert(0, str(OUT.parent.parent))
import checkify_cases as cc  # noqa: E402


def main() -> None:
    M = types.SimpleNamespace(jax=jax, jnp=jnp, lax=lax, checkify=checkify)
    data = {
        "jax_version": jax.__version__,
        "cases": {name: cc.outcome(name, M) for name in cc.CASES},
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
