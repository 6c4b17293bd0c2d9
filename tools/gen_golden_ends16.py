"""JAX 0.10.2's values for three loose ends of issue 24 (``tests/golden/ends16.json``):
``fft.fftfreq``/``fft.rfftfreq`` over dtypes, sizes and spacings (signs of zeros, bfloat16 and
float16 rounding of the signed indices, complex quotients).

Each result is stored as the SHA-256 of its elements' bytes (a complex result as its real
parts, then its imaginary parts), and for up to 16 elements as their bit patterns too. ``tests/test_ends16.py`` compares trellax with them.

    python tools/gen_golden_ends16.py       # needs jax==0.10.2
"""

from __future__ import annotations

import hashlib
import json
import pathlib

import jax
import numpy as np

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "ends16.json"

FREQ_DTYPES = ("bfloat16", "float16", "float32", "float64", "complex64", "complex128", "int32")
FREQ_SIZES = (0, 1, 2, 5, 6, 255, 256, 257, 300, 301, 2049, 5001)
FREQ_SPACINGS: tuple[tuple[str, object], ...] = (
    ("1.0", 1.0),
    ("-0.3", -0.3),
    ("2", 2),
    ("-1", -1),
    ("0.0", 0.0),
    ("f32:-0.7", np.float32(-0.7)),
)


def record(a: object) -> dict[str, object]:
    """The result's dtype, shape, SHA-256 and (up to 16 elements) bit patterns."""
    x = np.asarray(a)
    rec: dict[str, object] = {"out": str(x.dtype), "shape": list(x.shape)}
    if x.dtype.kind == "c":
        x = np.concatenate([x.real.ravel(), x.imag.ravel()])
    x = np.ascontiguousarray(x).ravel()
    rec["sha256"] = hashlib.sha256(x.tobytes()).hexdigest()
    if x.size <= 16:
        rec["bits"] = [format(int(v), "x") for v in x.view(f"uint{8 * x.dtype.itemsize}")]
    return rec


def freqs() -> list[dict[str, object]]:
    cases = []
    for name in ("fftfreq", "rfftfreq"):
        fn = getattr(jnp.fft, name)
        for dt in FREQ_DTYPES:
            for n in FREQ_SIZES:
                for label, d in FREQ_SPACINGS:
                    out = fn(n, d, dtype=dt)
                    case = {"fn": name, "dtype": dt, "n": n, "d": label}
                    cases.append(case | record(out))
    return cases


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {"jax": jax.__version__, "freqs": freqs()}
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
