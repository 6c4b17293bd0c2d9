"""Golden answers of JAX 0.10.2 for ``tests/sharding_types_cases.py`` (shardings in types).

Runs every case on 8 emulated CPU devices and writes ``tests/golden/sharding_types.json``: each
case's result types (``str(jax.typeof(r))``), concrete specs and committedness, or its error.

    python tools/gen_golden_sharding_types.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import os
import pathlib
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "sharding_types.json"
sys.path.insert(0, str(OUT.parent.parent))
import sharding_types_cases as cases  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {name: cases.observe(jax, name) for name in cases.names(jax)}
    OUT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({len(out)} cases)")


if __name__ == "__main__":
    main()
