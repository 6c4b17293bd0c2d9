"""XLA:CPU's float32 ``exp``, ``tan`` and ``pow`` (``jit(jnp.exp)``, ``jit(jnp.tan)``,
``jit(jnp.power)`` of JAX 0.10.2) at hard inputs, on a strided sweep of all float32 bit patterns
(``exp``, ``tan``) and on seeded random pairs (``pow``): ``tests/golden/xla_elementary.json``.

Hard inputs' results are stored bit pattern by bit pattern, the rest as the SHA-256 of the
results' bits. ``tests/test_xla_elementary.py`` checks ``backend/xla_exp.py`` and
``backend/libm_f32.py`` against them; the exhaustive comparison of ``exp`` over all 2**32 inputs
is ``tools/check_xla_exp.py``.

    python tools/gen_golden_xla_elementary.py       # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "xla_elementary.json"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from host_simd import host_simd  # noqa: E402
from xla_elementary_cases import (  # noqa: E402
    SAMPLER_DRAWS,
    exp_hard,
    pow_hard,
    pow_pairs,
    sweep_inputs,
    tan_hard,
)


def _hex(a: np.ndarray) -> list[str]:
    return [format(int(b), "08x") for b in np.asarray(a, np.float32).view(np.uint32)]


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.asarray(a, np.float32).view(np.uint32).tobytes()).hexdigest()


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out: dict[str, object] = {"jax": jax.__version__, "host": host_simd()}
    sweep = sweep_inputs()
    for name, fn, hard in (("exp", jnp.exp, exp_hard()), ("tan", jnp.tan, tan_hard())):
        f = jax.jit(fn)
        out[name] = {
            "hard": dict(zip(_hex(hard), _hex(np.asarray(f(hard))), strict=True)),
            "sweep_n": int(sweep.size),
            "sweep_sha256": _sha(np.asarray(f(sweep))),
        }
    p = jax.jit(jnp.power)
    hx, hy = pow_hard()
    rx, ry = pow_pairs()
    out["pow"] = {
        "hard": [[a, b, r] for a, b, r in zip(_hex(hx), _hex(hy), _hex(np.asarray(p(hx, hy))))],
        "pairs_n": int(rx.size),
        "pairs_sha256": _sha(np.asarray(p(rx, ry))),
    }
    key = jax.random.key(7)
    out["samplers"] = {
        e: _sha(np.asarray(eval(e, {"r": jax.random, "k": key, "jnp": jnp}))) for e in SAMPLER_DRAWS
    }
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
