"""XLA:CPU's float32 ``log`` and ``log1p`` (``jit(jnp.log)``, ``jit(jnp.log1p)`` of JAX 0.10.2)
at hard inputs and on a strided sweep of all float32 bit patterns (``tests/golden/xla_log.json``).

The hard inputs' results are stored bit pattern by bit pattern; the sweep (every 65521st bit
pattern) as the SHA-256 of the results' bits. ``tests/test_xla_log.py`` checks
``backend/xla_log.py`` against both. The exhaustive comparison over all 2**32 inputs is
``tools/check_xla_log.py``.

    python tools/gen_golden_xla_log.py       # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "xla_log.json"
sys.path.insert(0, str(OUT.parent.parent))
from xla_log_cases import hard_inputs, sweep_inputs  # noqa: E402


def main() -> None:
    assert jax.__version__ == "0.10.2"
    hard, sweep = hard_inputs(), sweep_inputs()
    out: dict[str, object] = {"jax": jax.__version__}
    for name, fn in (("log", jnp.log), ("log1p", jnp.log1p)):
        f = jax.jit(fn)
        got = np.asarray(f(hard)).view(np.uint32)
        swept = np.asarray(f(sweep)).view(np.uint32)
        out[name] = {
            "hard": {
                format(int(b), "08x"): format(int(r), "08x")
                for b, r in zip(hard.view(np.uint32), got, strict=True)
            },
            "sweep_n": int(sweep.size),
            "sweep_sha256": hashlib.sha256(swept.tobytes()).hexdigest(),
        }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
