"""Golden keyword parameters of JAX 0.10.2's public functions (run with JAX installed).

For every callable (not a class) of ``jax``, ``jax.numpy``, ``jax.lax``, ``jax.random``,
``jax.nn``, ``jax.numpy.linalg`` and ``jax.scipy.special`` whose signature can be read, records
the names a caller may pass by keyword. ``tests/test_jax_params.py`` checks that trellax's
function of the same name accepts each of them.

    python tools/gen_golden_jax_params.py      # needs jax==0.10.2
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import sys

import jax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from jax_signatures import MODULES, parameters  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jax_params.json"


def main() -> None:
    found: dict[str, list[str]] = {}
    for suffix in MODULES:
        module = importlib.import_module("jax" + suffix)
        for name in sorted(dir(module)):
            fn = getattr(module, name)
            if name.startswith("_") or not callable(fn) or inspect.isclass(fn):
                continue
            params = parameters(fn)
            if params is not None and params[0]:
                found[f"{suffix}:{name}"] = sorted(params[0])
    OUT.write_text(json.dumps({"jax": jax.__version__, "params": found}, indent=0, sort_keys=True))
    print(f"{len(found)} functions -> {OUT}")


if __name__ == "__main__":
    main()
