"""Golden msgpack files written by real Flax, for tests/test_flax_serialization_golden.py.

Run from the repository root with a Python that has flax 0.12.8, jax, optax and msgpack (the
reference venv: ``/tmp/jaxref/bin/python tools/gen_golden_flax.py``). It writes
``tests/golden/flax/*.msgpack`` (the trees of tests/flax_golden_cases.py, serialized by
``flax.serialization``) and ``tests/golden/flax/manifest.json`` (versions and file sizes).

``--check DIR`` does the reverse direction: Flax restores every ``*.msgpack`` in DIR (files that
trellax wrote, e.g. by ``TRELLAX_WRITE_FLAX_FILES=DIR pytest tests/test_flax_serialization_golden.py``)
and compares them with the same trees; it prints one line per file and exits non-zero on a
difference.

The script must not import trellax. Its output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import flax_golden_cases as cases  # noqa: E402
import jax  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
from flax import serialization, struct  # noqa: E402
from flax.core import freeze  # noqa: E402
from flax.training import train_state  # noqa: E402

OUT_DIR = ROOT / "tests" / "golden" / "flax"


@struct.dataclass
class Holder:
    """A struct dataclass with a static field (not serialized)."""

    pair: Any
    params: Any
    name: str = struct.field(pytree_node=False, default="holder")


def _structured_target() -> dict[str, Any]:
    parts = cases.structured_parts()
    state = train_state.TrainState.create(
        apply_fn=None, params=freeze(parts["params"]), tx=optax.adam(1e-3)
    ).replace(step=parts["step"])
    return {
        "frozen": freeze(parts["params"]),
        "holder": Holder(pair=parts["pair"], params=parts["params"]),
        "train_state": state,
        "tuple": (1, (2.0, None), []),
    }


def trees() -> dict[str, Any]:
    """File stem -> the object Flax serializes with ``to_bytes``."""
    return {
        "dtypes": cases.dtype_tree(),
        "scalars": cases.scalar_tree(),
        "long_double": cases.long_double_tree(),
        "structured": _structured_target(),
    }


def write() -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for stem, tree in trees().items():
        data = serialization.to_bytes(tree)
        (OUT_DIR / f"{stem}.msgpack").write_bytes(data)
        sizes[f"{stem}.msgpack"] = len(data)
    old = serialization.MAX_CHUNK_SIZE
    serialization.MAX_CHUNK_SIZE = cases.SMALL_CHUNK_SIZE
    try:
        data = serialization.to_bytes(cases.chunked_tree())
    finally:
        serialization.MAX_CHUNK_SIZE = old
    (OUT_DIR / "chunked.msgpack").write_bytes(data)
    sizes["chunked.msgpack"] = len(data)
    manifest = {
        "generator": "tools/gen_golden_flax.py",
        "versions": {
            name: importlib.metadata.version(name)
            for name in ("flax", "jax", "optax", "msgpack", "numpy", "ml_dtypes")
        },
        "small_chunk_size": cases.SMALL_CHUNK_SIZE,
        "files": sizes,
    }
    (OUT_DIR / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(sizes)} files to {OUT_DIR}")


def _same(a: Any, b: Any) -> bool:
    leaves_a, tree_a = jax.tree_util.tree_flatten(a)
    leaves_b, tree_b = jax.tree_util.tree_flatten(b)
    if tree_a != tree_b:
        return False
    for x, y in zip(leaves_a, leaves_b):
        x, y = np.asarray(x), np.asarray(y)
        if x.dtype != y.dtype or x.shape != y.shape:
            return False
        if x.dtype.kind in "fc" and x.dtype.itemsize > 8:
            # long double: 10 bytes of value in 16, the padding bytes are arbitrary.
            if not np.array_equal(x, y, equal_nan=True):
                return False
        elif x.tobytes() != y.tobytes():
            return False
    return True


def check(directory: Path) -> int:
    expected = {stem: serialization.to_state_dict(tree) for stem, tree in trees().items()}
    expected["chunked"] = cases.chunked_tree()
    failures = 0
    for stem, want in expected.items():
        path = directory / f"{stem}.msgpack"
        if not path.exists():
            print(f"{stem}: missing")
            failures += 1
            continue
        got = serialization.msgpack_restore(path.read_bytes())
        ok = _same(got, want)
        if stem in trees():
            # Restoring into the Flax objects themselves must work too.
            target = trees()[stem]
            restored = serialization.from_bytes(target, path.read_bytes())
            ok = ok and _same(serialization.to_state_dict(restored), want)
        print(f"{stem}: {'ok' if ok else 'DIFFERENT'}")
        failures += not ok
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", type=Path, help="restore trellax-written files with Flax")
    args = parser.parse_args()
    if args.check is not None:
        return check(args.check)
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
