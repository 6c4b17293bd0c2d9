"""Writes tests/golden/flax_examples.json: the numbers of Flax's examples (copied into
tests/flax_examples/upstream/) run for a few steps on synthetic data by
tests/flax_examples/run_example.py under real JAX and Flax 0.12.8 (run this script with a
Python that has jax, flax, optax and absl-py). tests/test_flax_examples.py runs the same
driver on trellax and compares.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import flax
import jax

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "tests" / "flax_examples" / "run_example.py"
OUT = ROOT / "tests" / "golden" / "flax_examples.json"
EXAMPLES = ("mnist", "vae", "seq2seq", "sst2", "resnet", "lm1b")


def main() -> None:
    data: dict[str, object] = {
        "about": f"tools/gen_golden_flax_examples.py: flax {flax.__version__}, jax {jax.__version__}"
    }
    for name in EXAMPLES:
        proc = subprocess.run(
            [sys.executable, str(DRIVER), name], capture_output=True, text=True, check=True
        )
        data[name] = json.loads(proc.stdout)
        print(name, "ok", file=sys.stderr)
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
