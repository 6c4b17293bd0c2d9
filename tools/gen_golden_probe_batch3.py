"""Golden outcomes of the batch-3 probe programs under JAX, Flax and optax.

Runs every program of ``tests/probe_batch3_cases.py`` with ``jax`` 0.10.2, ``flax`` 0.12.8 and
``optax`` 0.2.8 bound to its names and writes ``tests/golden/probe_batch3.json`` (program name ->
encoded answer or error class). ``tests/test_probe_batch3.py`` replays them on trellax.

    python tools/gen_golden_probe_batch3.py [--only PREFIX]    # needs jax==0.10.2, flax==0.12.8, optax==0.2.8
"""

from __future__ import annotations

import json
import pathlib
import sys

import flax
import jax
import optax

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "probe_batch3.json"
sys.path.insert(0, str(OUT.parent.parent))
from probe_batch3_cases import PROGRAMS, names, run  # noqa: E402  (shared with the test)


def main() -> None:
    """``--only PREFIX`` reruns the programs whose names start with PREFIX and keeps the rest."""
    env = names(jax, optax, flax)
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    golden = json.loads(OUT.read_text()) if only and OUT.exists() else {}
    golden = {k: v for k, v in golden.items() if k in PROGRAMS}
    for name, src in PROGRAMS.items():
        if only is None or name.startswith(only) or name not in golden:
            golden[name] = run(src, env)
    OUT.write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    errors = sum(1 for v in golden.values() if v[0] == "error")
    print(f"{len(golden)} programs, {errors} end in an error under JAX")


if __name__ == "__main__":
    main()
