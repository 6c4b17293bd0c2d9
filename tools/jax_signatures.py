"""Lists the functions of ``jax.numpy``, ``jax.lax``, ``jax.random``, ``jax.nn`` and the top level
whose keyword parameters JAX 0.10.2 accepts but trellax's counterpart does not.

Run with JAX and trellax importable (e.g. JAX's virtual environment with the repository on
``PYTHONPATH``)::

    PYTHONPATH=. /path/to/jax-venv/bin/python tools/jax_signatures.py [--json out.json]

A parameter counts as accepted when trellax's function has a parameter of that name or takes
``**kwargs``. Positional-only differences and defaults are not compared.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
from typing import Any

MODULES = ("", ".numpy", ".lax", ".random", ".nn", ".numpy.linalg", ".scipy.special")


def parameters(fn: Any) -> tuple[set[str], bool] | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    names = {
        p.name
        for p in sig.parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY)
    }
    var_kw = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
    return names, var_kw


def mismatches() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for suffix in MODULES:
        jmod = importlib.import_module("jax" + suffix)
        tmod = importlib.import_module("trellax" + suffix)
        for name in sorted(dir(jmod)):
            if name.startswith("_"):
                continue
            jfn, tfn = getattr(jmod, name), getattr(tmod, name, None)
            if not callable(jfn) or tfn is None or inspect.isclass(jfn):
                continue
            jp, tp = parameters(jfn), parameters(tfn)
            if jp is None or tp is None or tp[1]:
                continue
            missing = sorted(jp[0] - tp[0])
            if missing:
                out[f"jax{suffix}.{name}"] = missing
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="write the mismatches here")
    args = parser.parse_args()
    found = mismatches()
    for name, missing in found.items():
        print(f"{name}: trellax lacks {', '.join(missing)}")
    print(f"{len(found)} functions with keyword parameters trellax lacks")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(found, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
