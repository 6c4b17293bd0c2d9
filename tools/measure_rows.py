"""A/B of the row kernels (``interpreters/fusion_rows.py``) in one process, process CPU time.

Each program (softmax, layer norm, log-softmax on 4096x1024 float32) is compiled twice, with
``compiled_rows`` off and on (kernels compiled before timing); calls alternate, best of 7 rounds
of 3 calls. Usage: ``python tools/measure_rows.py [auto|exact] [threads (0: the default pool)]``.
Prints whether both give the same bytes and the CPU time of each (docs/performance.md, "Row
kernels"). Needs the ``compiled`` extra.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

import trellax
import trellax.numpy as tnp
from trellax._src.interpreters import fusion_runtime as rt


def softmax(x: Any) -> Any:
    e = tnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x: Any, g: Any, b: Any) -> Any:
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * trellax.lax.rsqrt(v + 1e-5) * g + b


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "auto"
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rng = np.random.default_rng(0)
    x = tnp.asarray(rng.standard_normal((4096, 1024), dtype=np.float32))
    g = tnp.asarray(rng.standard_normal(1024, dtype=np.float32))
    b = tnp.asarray(rng.standard_normal(1024, dtype=np.float32))
    cases = {
        "softmax": (softmax, (x,)),
        "layer norm": (layer_norm, (x, g, b)),
        "log_softmax": (trellax.nn.log_softmax, (x,)),
    }
    for name, (f, args) in cases.items():
        progs = {}
        for rows in (False, True):
            with rt.fusion_options(
                compiled_wait=True, compiled_rows=rows, compiled=mode, threads=threads
            ):
                progs[rows] = trellax.jit(f).lower(*args).compile()
        outs = {k: np.asarray(p(*args)) for k, p in progs.items()}
        same = outs[False].tobytes() == outs[True].tobytes()
        best = {False: 1e9, True: 1e9}
        for _ in range(7):
            for k, p in progs.items():
                with rt.fusion_options(threads=threads):
                    t = time.process_time()
                    for _ in range(3):
                        p(*args)
                    best[k] = min(best[k], (time.process_time() - t) / 3)
        print(
            f"{name}: same={same} rows off {best[False] * 1e3:.2f} ms, "
            f"row kernels {best[True] * 1e3:.2f} ms CPU"
        )


if __name__ == "__main__":
    main()
