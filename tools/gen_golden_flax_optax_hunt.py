"""Golden outcomes of the programs pinning the Flax/optax probe's findings.

Runs every program of ``tests/flax_optax_hunt_cases.py`` with ``jax`` 0.10.2, ``flax`` 0.12.8 and
``optax`` 0.2.8 bound to its names and writes ``tests/golden/flax_optax_hunt.json`` (program name
-> encoded answer or error class); ``tests/test_flax_optax_hunt.py`` replays them on trellax.

    python tools/gen_golden_flax_optax_hunt.py    # needs jax==0.10.2, flax==0.12.8, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys

import flax
import jax
import optax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "flax_optax_hunt.json"
sys.path.insert(0, str(OUT.parent.parent))
from flax_optax_hunt_cases import PROGRAMS, env  # noqa: E402  (shared with the test)
from probe_batch3_cases import run  # noqa: E402


def main() -> None:
    names = env(jax, optax, flax)
    golden = {name: run(src, names) for name, src in PROGRAMS.items()}
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    errors = sum(1 for v in golden.values() if v[0] == "error")
    print(f"{len(golden)} programs, {errors} end in an error under JAX")


if __name__ == "__main__":
    main()
