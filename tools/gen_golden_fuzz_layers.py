"""Golden outcomes of the layer and optimizer fuzzer (``tools/fuzz_layers.py``) under Flax 0.12.8,
optax 0.2.8 and JAX 0.10.2 (32-bit mode).

Writes ``tests/golden/fuzz_layers.json``: seed -> ``[sha of the program's JSON, outcome]``, the
outcome as :func:`fuzz_layers.run` encodes it. ``tests/test_fuzz_layers.py`` replays every
program on trellax.

    /tmp/jaxref/bin/python tools/gen_golden_fuzz_layers.py [--seeds A-B,C-D] [--out FILE] [--resume]
    /tmp/jaxref/bin/python tools/gen_golden_fuzz_layers.py --merge A.json B.json   # parts into one
"""

from __future__ import annotations

import json
import pathlib
import sys
from types import SimpleNamespace

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import fuzz_layers  # noqa: E402
from fuzz_programs import program_sha  # noqa: E402

LIB = SimpleNamespace(nn=nn, o=optax, jnp=jnp, jax=jax)
#: the committed seeds (inclusive ranges; two runs of 1,000 side by side took 40 minutes here)
SEEDS = "0-1999"


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    """``--seeds A-B,C-D`` (default :data:`SEEDS`); ``--out FILE`` writes elsewhere than the
    golden file; ``--resume`` keeps the programs the output file holds; ``--merge FILE ...``
    joins the programs of partial runs (of other ``--seeds``) into the output. The file is
    rewritten every 25 programs, so an interrupted run keeps what it did."""
    jax.config.update("jax_platforms", "cpu")
    arg = sys.argv.index
    seeds = _seeds(sys.argv[arg("--seeds") + 1] if "--seeds" in sys.argv else SEEDS)
    out = ROOT / "tests" / "golden" / "fuzz_layers.json"
    if "--out" in sys.argv:
        out = pathlib.Path(sys.argv[arg("--out") + 1])
    golden: dict[str, object] = {}
    if "--resume" in sys.argv and out.exists():
        golden = json.loads(out.read_text())["programs"]
    if "--merge" in sys.argv:
        for part in sys.argv[arg("--merge") + 1 :]:
            golden.update(json.loads(pathlib.Path(part).read_text())["programs"])
        golden = {s: v for s, v in golden.items() if int(s) in set(seeds)}
        seeds = []

    def write() -> None:
        meta = {"jax": jax.__version__, "optax": optax.__version__, "flax": flax.__version__}
        text = json.dumps({"meta": meta, "programs": golden}, sort_keys=True, separators=(",", ":"))
        out.write_text(text + "\n")

    for i, seed in enumerate(seeds):
        if str(seed) in golden:
            continue
        prog = fuzz_layers.generate(seed)
        golden[str(seed)] = [program_sha(prog), fuzz_layers.run(prog, LIB)]
        if i % 25 == 24:
            write()
            print(seed, flush=True)
    write()


if __name__ == "__main__":
    main()
