"""Runs the batch-3 probe on trellax and prints the differences from JAX's golden outcomes.

    .venv/bin/python tools/probe_batch3.py [PREFIX] [--list]

Counts programs, differences by class (worst first: value, dtype, weak, shape, structure, crash,
accepts, error_class) and by area; ``--list`` prints every differing program with its class.
"""

from __future__ import annotations

import collections
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from probe_batch3_cases import CLASSES, PROGRAMS, classify, names, run  # noqa: E402

import trellax  # noqa: E402
import trellax.flax  # noqa: E402
import trellax.optim  # noqa: E402


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    prefix = args[0] if args else ""
    golden = json.loads((ROOT / "tests" / "golden" / "probe_batch3.json").read_text())
    env = names(trellax, trellax.optim, trellax.flax)
    by_class: collections.Counter[str] = collections.Counter()
    by_area: collections.Counter[tuple[str, str]] = collections.Counter()
    n = 0
    for name, src in PROGRAMS.items():
        if not name.startswith(prefix):
            continue
        n += 1
        cls = classify(run(src, env), golden[name])
        if cls is not None:
            by_class[cls] += 1
            by_area[(name.split("/")[0], cls)] += 1
            if "--list" in sys.argv:
                print(f"{cls:12} {name}")
    print(f"{n} programs, {sum(by_class.values())} differ")
    for c in CLASSES:
        if by_class[c]:
            print(f"  {c:12} {by_class[c]}")
    for (area, c), k in sorted(by_area.items()):
        print(f"  {area:12} {c:12} {k}")


if __name__ == "__main__":
    main()
