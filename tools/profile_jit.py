"""Where the time of a ``jit`` program goes, per primitive: each equation's impl run alone
(unfused, nested calls inlined) on the real values, its thread CPU time summed per primitive.

usage: python tools/profile_jit.py {cnn,mnist,mlp,mlp784} [rounds]

The cases are those of ``benchmarks/bench_kernels.py``. Thread CPU time (not wall time) keeps
other processes on a shared machine out of the numbers; kernels that run on the worker pool
report only the calling thread's share, so the total is also given as wall time.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_kernels

import trellax
from trellax._src.backend import fp_errors
from trellax._src.core.jaxpr import Literal
from trellax._src.interpreters import tracing


def _shape(x: Any) -> str:
    return "x".join(map(str, np.shape(x))) or "()"


def profile(fn: Any, args: tuple[Any, ...], rounds: int) -> None:
    closed = trellax.make_jaxpr(fn)(*args)
    jaxpr, consts = tracing.inline_calls(closed.jaxpr, closed.consts)
    flat = trellax.tree_util.tree_leaves(args)
    per_prim: dict[str, float] = defaultdict(float)
    per_eqn: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    total_wall = 0.0
    token = fp_errors.enter()
    try:
        for r in range(rounds):
            env: dict[int, Any] = {}
            for v, c in zip(jaxpr.constvars, consts):
                env[id(v)] = np.asarray(c)
            for v, a in zip(jaxpr.invars, flat):
                env[id(v)] = np.asarray(a)
            w0 = time.perf_counter()
            for e in jaxpr.eqns:
                ins = [
                    np.asarray(a.value) if isinstance(a, Literal) else env[id(a)] for a in e.invars
                ]
                assert e.primitive.impl is not None, e.primitive.name
                t = time.thread_time()
                out = e.primitive.impl(*ins, **e.params)
                dt = time.thread_time() - t
                outs = out if e.primitive.multiple_results else (out,)
                for v, o in zip(e.outvars, outs):
                    env[id(v)] = o
                if r:
                    name = e.primitive.name
                    per_prim[name] += dt
                    count[name] += 1
                    per_eqn[f"{name} {' '.join(_shape(i) for i in ins)}"] += dt
            if r:
                total_wall += time.perf_counter() - w0
    finally:
        fp_errors.leave(token)
    n = rounds - 1
    total = sum(per_prim.values())
    print(f"{len(jaxpr.eqns)} equations; per call: wall {total_wall / n * 1e3:.2f} ms, "
          f"thread CPU in impls {total / n * 1e3:.2f} ms")  # fmt: skip
    print("primitive | calls | ms per call of the program | share")
    for name, t in sorted(per_prim.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{name} | {count[name] // n} | {t / n * 1e3:.3f} | {t / total:.0%}")
    print("\nheaviest equations (primitive, operand shapes) | ms")
    for key, t in sorted(per_eqn.items(), key=lambda kv: -kv[1])[:12]:
        print(f"{key} | {t / n * 1e3:.3f}")


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "cnn"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    fns = {
        "cnn": lambda: bench_kernels.traceable_cnn_step(8, 1, 64, (32, 64), 128),
        "mnist": lambda: bench_kernels.traceable_cnn_step(28, 1, 128, (32, 64), 256),
        "mlp": lambda: bench_kernels.traceable_mlp_step([64, 256, 256, 10], 256),
        "mlp784": lambda: bench_kernels.traceable_mlp_step([784, 1024, 1024, 10], 128),
    }
    fn, args = fns[which]()
    profile(fn, args, rounds)


if __name__ == "__main__":
    main()
