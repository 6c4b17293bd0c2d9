"""Measures ``trellax.optim`` against optax's golden trajectories (``tests/golden/optim.json``).

For every case of ``tests/optim_cases.py`` and dtype: the first step whose parameters or state
differ from optax's (0: bit-identical at all 100 steps) and the largest distance, in ulps of the
dtype, of the parameters and of the state leaves over the recorded steps. Prints a markdown
table and the ``BOUNDS`` literal of ``tests/test_optim_golden.py``.

    .venv/bin/python tools/optim_agreement.py [--only SUBSTRING] [--eager]
"""

from __future__ import annotations

import argparse
import pathlib
import sys

TESTS = pathlib.Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))
from optim_cases import DTYPES, TRANSFORM_CASES  # noqa: E402  (the shared case list)
from test_optim_golden import measure  # noqa: E402  (the test's own comparison)


def main() -> int:
    """Runs every case (or those containing ``--only``) and prints the results."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", default="")
    p.add_argument("--eager", action="store_true", help="run the steps without trellax.jit")
    args = p.parse_args()
    bounds: dict[str, tuple[int, int]] = {}
    exact = total = 0
    print("| case | dtype | first differing step | params ulps | state ulps |")
    print("|---|---|---|---|---|")
    for expr in TRANSFORM_CASES:
        if args.only not in expr:
            continue
        for dtype in DTYPES:
            try:
                first, p_ulps, s_ulps = measure(expr, dtype, jit=not args.eager)
            except AssertionError as e:
                print(f"| `{expr}` | {dtype} | FAILS: {str(e).splitlines()[0]} | | |")
                continue
            total += 1
            exact += first == 0
            if first:
                bounds[f"{expr}|{dtype}"] = (p_ulps, s_ulps)
                print(f"| `{expr}` | {dtype} | {first} | {p_ulps} | {s_ulps} |")
    print(f"\n{exact} of {total} trajectories bit-identical at every step\n")
    print("BOUNDS = {")
    for key, bound in bounds.items():
        print(f"    {key!r}: {bound},")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
