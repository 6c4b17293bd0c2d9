"""Issue 23, loops: compiled loops kept as shared libraries (interpreters/loop_native.py).

``fresh``: in this (fresh) process, the three loop cases of ``tools/loop_bench.py``: the first
call of each ``jit`` program (its generation and, when the host has
the loop's library, loading it), then thread CPU time per call, best of ``ROUNDS`` interleaved
rounds of 50 calls; and whether Numba or llvmlite were imported. Run it alternately with
``TRELLAX_NATIVE_LOOPS=0`` (the Python loop; Numba's kernels are not due within the run).

``build CASE``: calls a fresh program of CASE (scan, fori, while) with the default trigger until
its loop's library is on disk (the measured rule compiles the Numba kernel, then the library is
built on the same thread): calls made, wall and process CPU seconds (every thread).

``walls LIB``: the three loop programs written for LIB (``jax`` or ``trellax``, the same code
as ``tools/loop_bench.py``'s), ``jit`` of each, wall time per call, best of 200 rounds of 20
calls (short rounds: on a loaded host longer ones are preempted), rounds interleaved, the
collector off as in ``timeit``; run it with the reference venv for ``jax`` (JAX's runtime uses
threads of its own, so only wall time compares the two).

``startup``: what a fresh process pays before its first compiled call, by path: importing Numba,
its set-up at the first kernel loaded from its disk cache, importing llvmlite, and loading a
shared library (the first loop library found on disk) with ctypes.

    TRELLAX_NATIVE_LOOPS=0 .venv/bin/python tools/measure_loop_native.py fresh
    .venv/bin/python tools/measure_loop_native.py build scan
"""

from __future__ import annotations

import ctypes
import gc
import glob
import os
import sys
import time
from typing import Any

from loop_bench import best_thread_times, loop_cases

ROUNDS = int(os.environ.get("ROUNDS", "9"))


def fresh() -> None:
    import numpy as np

    import trellax

    runs = {}
    for name, (fn, n) in loop_cases().items():
        f = trellax.jit(fn)
        x = np.linspace(-1, 1, n).astype(np.float32)
        t = time.thread_time()
        f(x)
        print(f"{name}: first call {1e3 * (time.thread_time() - t):.1f} ms (thread CPU)")
        runs[name] = lambda f=f, x=x: f(x)
    best = best_thread_times(runs, ROUNDS)
    print("per call (thread CPU, best):", {k: f"{v * 1e6:.1f} us" for k, v in best.items()})
    print("numba imported:", "numba" in sys.modules, "| llvmlite:", "llvmlite" in sys.modules)


def build(case: str) -> None:
    import numpy as np

    import trellax
    from trellax._src.interpreters import loop_compiled

    made: list[Any] = []
    init = loop_compiled.LoopKernel.__init__

    def recorded(self: Any, *a: Any, **k: Any) -> None:
        init(self, *a, **k)
        made.append(self)

    loop_compiled.LoopKernel.__init__ = recorded  # type: ignore[method-assign]
    fn, n = dict(zip(("scan", "fori", "while"), loop_cases().values(), strict=True))[case]
    f = trellax.jit(fn)
    x = np.linspace(-1, 1, n).astype(np.float32)
    w0, c0 = time.perf_counter(), time.process_time()
    calls = 0
    while calls < 200_000:
        f(x)
        calls += 1
        if made and all(k.native is not None and k.native.fn is not None for k in made):
            break
        if made and any(k.native is None or k.native.failed for k in made):
            print("no library:", [getattr(k.native, "error", None) for k in made])
            return
    print(
        f"{case}: libraries ready after {calls} calls, "
        f"{time.perf_counter() - w0:.2f} s wall, {time.process_time() - c0:.2f} s process CPU"
    )


def startup() -> None:
    from trellax._src.backend import compiled

    t = time.perf_counter()
    import llvmlite.binding  # noqa: F401

    print(f"import llvmlite.binding: {1e3 * (time.perf_counter() - t):.1f} ms")
    where = compiled._cache_dir(__import__("importlib.metadata").metadata.version("numba"))
    libs = glob.glob(os.path.join(os.path.dirname(where or "."), "*-native-*", "*.so"))
    if libs:
        t = time.perf_counter()
        ctypes.CDLL(libs[0])
        print(f"ctypes.CDLL of a loop library: {1e3 * (time.perf_counter() - t):.2f} ms")
    t = time.perf_counter()
    c = time.process_time()
    import numba  # noqa: F401

    print(f"import numba: {1e3 * (time.perf_counter() - t):.0f} ms")
    k = compiled.kernel(compiled.math_kernel_source("exp")).load()
    import numpy as np

    x = np.ones(8, np.float32)
    t = time.perf_counter()
    k(8, x, np.empty_like(x))
    print(f"first Numba kernel call (disk cache): {1e3 * (time.perf_counter() - t):.0f} ms")
    print(f"process CPU from import numba on: {time.process_time() - c:.2f} s")


def walls(lib: str) -> None:
    import importlib

    import numpy as np

    L = importlib.import_module(lib)
    jnp = importlib.import_module(lib + ".numpy")
    cases = loop_cases(lib)
    runs = {}
    for name, (fn, n) in cases.items():
        f = L.jit(fn)
        x = jnp.asarray(np.linspace(-1, 1, n).astype(np.float32))
        if lib == "jax":
            runs[name] = lambda f=f, x=x: f(x).block_until_ready()
        else:
            runs[name] = lambda f=f, x=x: f(x)
        runs[name]()
    best = dict.fromkeys(runs, float("inf"))
    gc.disable()
    for _ in range(200):
        for name, run in runs.items():
            t = time.perf_counter()
            for _ in range(20):
                run()
            best[name] = min(best[name], (time.perf_counter() - t) / 20)
    print(lib, "wall per call:", {k: f"{v * 1e6:.1f} us" for k, v in best.items()})


if __name__ == "__main__":
    modes = {"fresh": fresh, "startup": startup}
    modes |= {"build": lambda: build(sys.argv[2]), "walls": lambda: walls(sys.argv[2])}
    modes[sys.argv[1]]()
