"""Exact values (mpmath, 40 digits) of ``hyp2f1(a, b, c, x)`` where its series converges slowly:
``x`` in ``[0.9, 1)`` and large negative ``x`` (which Pfaff's transformation takes close to 1),
for random non-integer parameters; written to ``tests/golden/hyp2f1_exact.json`` for
``tests/test_hyp2f1_near_one.py``. The points are float64 numbers, recorded exactly (as
``float.hex``). Run with the reference venv: ``/tmp/jaxref/bin/python tools/gen_exact_hyp2f1.py``.
"""

from __future__ import annotations

import json
import pathlib

import mpmath as mp
import numpy as np

mp.mp.dps = 40
OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "hyp2f1_exact.json"


def points(rng: np.random.Generator, n: int) -> list[tuple[float, float, float, float]]:
    out = []
    while len(out) < n:
        a, b = rng.uniform(-3.5, 5.0, 2)
        c = rng.uniform(0.1, 7.0)
        if min(abs(p - round(p)) for p in (a, b, c)) < 0.02:
            continue  # integers: terminating series and poles, tested elsewhere
        if len(out) % 2:
            x = 1.0 - 10.0 ** rng.uniform(-4.0, -1.0)
        else:
            x = -(10.0 ** rng.uniform(1.0, 4.0))
        out.append((float(a), float(b), float(c), float(x)))
    return out


def near_integer_s() -> list[tuple[float, float, float, float]]:
    """``c - a - b`` close to an integer, where the connection formula cancels."""
    out = []
    for d in (0.006, 0.01, 0.02, 0.04):
        for x in (0.9, 0.93, 0.96, 0.99, 0.995):
            for a, b in ((0.3, 1.7), (1.2, -0.4), (2.5, 2.1)):
                out += [(a, b, a + b + 1 + d, x), (a, b, a + b - 2 - d, x)]
    return out


def main() -> None:
    rng = np.random.default_rng(20261128)
    cases = []
    for a, b, c, x in points(rng, 240) + near_integer_s():
        v = mp.hyp2f1(mp.mpf(a), mp.mpf(b), mp.mpf(c), mp.mpf(x))
        if mp.im(v) != 0 or not mp.isfinite(v):
            continue
        cases.append({"args": [p.hex() for p in (a, b, c, x)], "exact": mp.nstr(mp.re(v), 30)})
    OUT.write_text(json.dumps({"mpmath_dps": 40, "cases": cases}, indent=0) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
