"""Golden outcomes for ``tests/test_kw_values.py``: JAX 0.10.2 runs each program of
``tests/kw_values_cases.py`` in 32- and 64-bit mode (one process per mode, the mode set before
anything runs) and ``tests/golden/kw_values.json`` records ``{mode: {name: outcome}}``.

    python tools/gen_golden_kw_values.py          # jax==0.10.2
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "kw_values.json"


def run_mode(mode: str) -> None:
    import jax

    jax.config.update("jax_enable_x64", mode == "x64")
    sys.path.insert(0, str(ROOT / "tests"))
    from kw_values_cases import cases, outcome

    warnings.simplefilter("ignore")
    print(json.dumps({name: outcome(jax, f) for name, f in cases().items()}))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--mode":
        run_mode(sys.argv[2])
        return
    gold = {}
    for mode in ("x32", "x64"):
        res = subprocess.run(
            [sys.executable, __file__, "--mode", mode], check=True, capture_output=True, text=True
        )
        gold[mode] = json.loads(res.stdout)
    OUT.write_text(json.dumps(gold, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{sum(len(v) for v in gold.values())} outcomes")


if __name__ == "__main__":
    main()
