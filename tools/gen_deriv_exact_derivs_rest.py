"""Exact values of the exponentially scaled Bessel functions ``i0e`` and ``i1e`` on a grid
(issue 24: their derivative rules ``i1e - sign(x) i0e`` and ``i0e - i1e (sign(x) + 1/x)``
cancel near -2.5, so the kernels' own errors are magnified there).

The grid is -40 to 40 in steps of 0.1 (rounded to float64), with the points of the derivative
cases and a few beyond the power series' range (|x| up to 700). mpmath's ``besseli`` at 40
digits times ``exp(-|x|)``, rounded to float64. Writes
``tests/golden/deriv_exact_derivs_rest.json``; ``tests/test_deriv_exact_derivs_rest.py``
compares trellax's float64 kernels against it. Also the pieces of ``beta``'s derivatives at
(2.0, 0.7) (``beta_pieces``).

    python tools/gen_deriv_exact_derivs_rest.py   # needs mpmath and numpy (no jax)
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import mpmath as mp
import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden"


def main() -> None:
    mp.mp.dps = 40
    extra = [-2.5, -0.7, 0.3, 1.4, 1e-3, 1e-8, 29.9, 30.1, 100.0, 500.0, 700.0, -700.0]
    xs = [float(v) for v in np.linspace(-40.0, 40.0, 801)] + extra
    data: dict[str, Any] = {"x": xs}
    for order in (0, 1):
        data[f"i{order}e"] = [
            float(mp.besseli(order, mp.mpf(x)) * mp.exp(-abs(mp.mpf(x)))) for x in xs
        ]
    # the pieces of beta's derivatives at (2.0, 0.7) (the entry sp_beta/ordinary|float64)
    a, b = mp.mpf(2.0), mp.mpf(0.7)
    data["beta_pieces"] = {
        "digamma(a)": float(mp.digamma(a)),
        "digamma(b)": float(mp.digamma(b)),
        "digamma(a+b)": float(mp.digamma(a + b)),
        "gammaln(b)": float(mp.loggamma(b)),
        "gammaln(a+b)": float(mp.loggamma(a + b)),
        "betaln(a,b)": float(mp.log(mp.beta(a, b))),
        "beta(a,b)": float(mp.beta(a, b)),
    }
    (OUT / "deriv_exact_derivs_rest.json").write_text(json.dumps(data) + "\n")


if __name__ == "__main__":
    main()
