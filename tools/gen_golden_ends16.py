"""JAX 0.10.2's values for three loose ends of issue 24 (``tests/golden/ends16.json``):
``fft.fftfreq``/``fft.rfftfreq`` over dtypes, sizes and spacings (signs of zeros, bfloat16 and
float16 rounding of the signed indices, complex quotients); ``jnp.gradient`` with a scalar
spacing, eagerly, under ``jit`` with the spacing a constant and with it an argument (real and
complex input with infinities and NaNs); products by constants under ``jit`` (XLA folds
``(x * c1) * c2`` into ``x * (c1 * c2)`` and drops a product with 1).

The inputs are ``tests/ends16_cases.py``'s; each result is stored as ``record`` there makes it
(SHA-256 of its bits, and bit patterns). ``tests/test_ends16.py`` compares trellax with them.

    python tools/gen_golden_ends16.py       # needs jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import sys

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "ends16.json"
sys.path.insert(0, str(OUT.parent.parent))
import ends16_cases as cases  # noqa: E402


def freqs() -> list[dict[str, object]]:
    out = []
    for name in ("fftfreq", "rfftfreq"):
        fn = getattr(jnp.fft, name)
        for dt in cases.FREQ_DTYPES:
            for n in cases.FREQ_SIZES:
                for label, d in cases.FREQ_SPACINGS.items():
                    case = {"fn": name, "dtype": dt, "n": n, "d": label}
                    out.append(case | cases.record(fn(n, d, dtype=dt)))
    return out


def gradients() -> list[dict[str, object]]:
    out = []
    for x in cases.specials():
        for label, h in cases.GRAD_SPACINGS.items():
            for mode in cases.GRAD_MODES:
                got = cases.gradient(jnp, jax.jit, x, h, mode)
                case = {"input": str(x.dtype), "h": label, "mode": mode}
                out.append(case | cases.record(got, nan=True))
    return out


def products() -> list[dict[str, object]]:
    out = []
    for dt, x in cases.product_inputs().items():
        for name in cases.PRODUCTS:
            got = cases.product(jnp, jax.jit, name, x)
            out.append({"dtype": dt, "form": name} | cases.record(got, nan=True))
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2"
    out = {
        "jax": jax.__version__,
        "freqs": freqs(),
        "gradients": gradients(),
        "products": products(),
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
