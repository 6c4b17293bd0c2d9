"""Exact complex ``log1p`` values (mpmath, 40 digits) for ``tests/test_complex_log1p.py``.

The inputs: 200 random points at each of nine magnitudes from 1e-8 to 1e10, in complex128 and
rounded to complex64 (seeded), plus points near the cancellation of ``log(1 + z)``. Writes
``tests/golden/complex_log1p_exact.json`` (inputs and exact values as pairs of floats).

    python tools/gen_exact_complex_log1p.py      # needs mpmath
"""

from __future__ import annotations

import json
import pathlib

import mpmath
import numpy as np

OUT = (
    pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "complex_log1p_exact.json"
)


def inputs() -> np.ndarray:
    rng = np.random.default_rng(0)
    parts = [
        (rng.standard_normal(200) + 1j * rng.standard_normal(200)) * scale
        for scale in (1e-8, 1e-5, 1e-3, 0.1, 0.4, 0.9, 3.0, 100.0, 1e10)
    ]
    parts.append(np.array([1e-5 + 0j, -1e-5 + 0j, 1e-5j, -0.5 + 0.5j, -1 + 1e-5j, 0.25 - 0.3j]))
    return np.concatenate(parts)


def main() -> None:
    mpmath.mp.dps = 40
    data = {}
    for name, dtype in (("complex64", np.complex64), ("complex128", np.complex128)):
        z = inputs().astype(dtype).astype(np.complex128)
        exact = [complex(mpmath.log1p(mpmath.mpc(v.real, v.imag))) for v in z]
        data[name] = {
            "z": [[v.real, v.imag] for v in z],
            "exact": [[v.real, v.imag] for v in exact],
        }
    OUT.write_text(json.dumps(data))
    print(f"{len(data['complex64']['z'])} points per dtype -> {OUT}")


if __name__ == "__main__":
    main()
