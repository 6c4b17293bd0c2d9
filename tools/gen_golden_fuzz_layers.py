"""Golden outcomes of the layer and optimizer fuzzer (``tools/fuzz_layers.py``) under Flax 0.12.8,
optax 0.2.8 and JAX 0.10.2 (32-bit mode).

Writes ``tests/golden/fuzz_layers.json``: seed -> ``[sha of the program's JSON, outcome]``, the
outcome as :func:`fuzz_layers.run` encodes it. ``tests/test_fuzz_layers.py`` replays every
program on trellax.

    /tmp/jaxref/bin/python tools/gen_golden_fuzz_layers.py [--n N] [--start S] [--out FILE] [--resume]
    /tmp/jaxref/bin/python tools/gen_golden_fuzz_layers.py --merge A.json B.json   # into one
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
N = 2400


def main() -> None:
    jax.config.update("jax_platforms", "cpu")
    n = int(sys.argv[sys.argv.index("--n") + 1]) if "--n" in sys.argv else N
    out = ROOT / "tests" / "golden" / "fuzz_layers.json"
    if "--out" in sys.argv:
        out = pathlib.Path(sys.argv[sys.argv.index("--out") + 1])
    golden: dict[str, object] = {}
    if "--merge" in sys.argv:  # parts written by runs with --start/--n/--out, side by side
        for part in sys.argv[sys.argv.index("--merge") + 1 :]:
            golden.update(json.loads(pathlib.Path(part).read_text())["programs"])
        n = len(golden)
    start = int(sys.argv[sys.argv.index("--start") + 1]) if "--start" in sys.argv else 0
    if "--resume" in sys.argv and out.exists():
        golden = json.loads(out.read_text())["programs"]

    def write() -> None:
        meta = {"jax": jax.__version__, "optax": optax.__version__, "flax": flax.__version__}
        text = json.dumps({"meta": meta, "programs": golden}, sort_keys=True, separators=(",", ":"))
        out.write_text(text + "\n")

    for seed in range(start, n) if "--merge" not in sys.argv else ():
        if str(seed) in golden:
            continue
        prog = fuzz_layers.generate(seed)
        golden[str(seed)] = [program_sha(prog), fuzz_layers.run(prog, LIB)]
        if seed % 25 == 24:  # an interrupted run keeps what it did (--resume goes on)
            write()
        if seed % 100 == 99:
            jax.clear_caches()
            print(seed + 1, flush=True)
    write()


if __name__ == "__main__":
    main()
