"""Golden answers of JAX on 8 emulated CPU devices for ``tests/multidevice_cases.py``.

Writes ``tests/golden/multidevice.json``.

    python tools/gen_golden_multidevice.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import os
import pathlib
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "multidevice.json"
sys.path.insert(0, str(OUT.parent.parent))
import multidevice_cases as cases  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {
        "environment": cases.environment(jax),
        "layouts": [cases.layout(jax, i) for i in range(len(cases.LAYOUTS))],
        "programs": {name: cases.program(jax, name) for name in cases.PROGRAMS},
        "errors": {name: cases.error(jax, name) for name in cases.ERRORS},
    }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
