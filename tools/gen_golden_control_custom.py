"""Golden values for ``tests/control_custom_cases.py`` from JAX: every case's value, JVP,
gradient, JVP of the JVP and JVP of the gradient. Writes ``tests/golden/control_custom.json``
(read by ``tests/test_control_custom.py``, which never imports JAX).

    python tools/gen_golden_control_custom.py   # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "control_custom.json"
sys.path.insert(0, str(OUT.parent.parent))
import control_custom_cases as cc  # noqa: E402


def main() -> None:
    data = {
        "jax_version": jax.__version__,
        "cases": {name: cc.measure(jax, name) for name in sorted(cc.CASES)},
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
