"""Golden keyword parameters of JAX 0.10.2's, Flax 0.12.8's and optax 0.2.8's public functions.

For every callable (not a class) of ``jax``, ``jax.numpy``, ``jax.lax``, ``jax.random``,
``jax.nn``, ``jax.numpy.linalg``, ``jax.scipy.special``, ``optax``, ``optax.losses`` and
``optax.schedules``, every class and function of ``flax.linen`` (a Module's fields are its
constructor's parameters) and every method of ``jax.Array``, whose signature can be read, records
the names a caller may pass by keyword, the order of those that can be passed by position and
the plain-value defaults (a different order or default is a silently different result). ``tests/test_jax_params.py`` checks that trellax's counterpart (``trellax.nn`` for
``flax.linen``, ``trellax.optim`` for ``optax``) accepts each of them.

    python tools/gen_golden_jax_params.py      # needs jax==0.10.2, flax==0.12.8, optax==0.2.8
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import sys
from typing import Any

import jax

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from jax_signatures import MODULES, parameters

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jax_params.json"


#: (module, key prefix, whether classes count)
SOURCES = [
    *[("jax" + suffix, suffix, False) for suffix in MODULES],
    ("flax.linen", "flax.linen", True),
    ("optax", "optax", False),
    ("optax.losses", "optax.losses", False),
    ("optax.schedules", "optax.schedules", False),
    *[(m, m, False) for m in ("jax.tree_util", "jax.tree", "jax.scipy.linalg", "jax.image")],
    *[(m, m, False) for m in ("jax.scipy.signal", "jax.numpy.fft", "jax.nn.initializers")],
    *[(m, m, False) for m in ("jax.example_libraries.stax", "jax.example_libraries.optimizers")],
    *[(m, m, False) for m in ("jax.flatten_util", "jax.dtypes", "jax.ad_checkpoint")],
    *[(f"flax.{m}", f"flax.{m}", True) for m in ("core", "struct", "serialization")],
    *[(f"flax.{m}", f"flax.{m}", True) for m in ("traverse_util", "jax_utils")],
    *[(f"flax.training.{m}", f"flax.training.{m}", True) for m in ("train_state", "common_utils")],
]


_SIMPLE = (bool, int, float, str, type(None))


def defaults(fn: Any) -> dict[str, Any]:
    """The parameters whose default is a plain value (a bool, number, string, None or a tuple of
    them), as JSON values (a tuple as a list); other defaults are left out."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    out: dict[str, Any] = {}
    for p in sig.parameters.values():
        d = p.default
        if d is inspect.Parameter.empty:
            continue
        if type(d) in _SIMPLE or (type(d) is tuple and all(type(v) in _SIMPLE for v in d)):
            out[p.name] = list(d) if type(d) is tuple else d
    return out


def positional(fn: Any) -> list[str]:
    """The names that can be passed by position, in order (``""`` for a positional-only one,
    whose name a caller never sees), up to a ``*args``."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    out = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        out.append("" if p.kind == p.POSITIONAL_ONLY else p.name)
    return out


def main() -> None:
    found: dict[str, list[str]] = {}
    found_defaults: dict[str, dict[str, Any]] = {}
    found_positional: dict[str, list[str]] = {}
    for module_name, prefix, classes in SOURCES:
        module = importlib.import_module(module_name)
        for name in sorted(dir(module)):
            fn = getattr(module, name)
            if name.startswith("_") or not callable(fn) or (inspect.isclass(fn) and not classes):
                continue
            params = parameters(fn)
            if params is not None and params[0]:
                found[f"{prefix}:{name}"] = sorted(params[0])
                found_defaults[f"{prefix}:{name}"] = defaults(fn)
                found_positional[f"{prefix}:{name}"] = positional(fn)
    array = jax.numpy.ones(2)
    for name in sorted(dir(array)):
        if name.startswith("_"):
            continue
        try:
            method = getattr(array, name)
        except Exception:  # a property that refuses (flat, ...), or one only some arrays have
            continue
        params = parameters(method) if callable(method) else None
        if params is not None and params[0]:
            found[f".Array:{name}"] = sorted(params[0])
            found_defaults[f".Array:{name}"] = defaults(method)
            found_positional[f".Array:{name}"] = positional(method)
    data = {
        "jax": jax.__version__,
        "params": found,
        "defaults": found_defaults,
        "positional": found_positional,
    }
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True))
    print(f"{len(found)} functions -> {OUT}")


if __name__ == "__main__":
    main()
