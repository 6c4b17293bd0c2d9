"""Issue 23, fused regions kept as shared libraries (interpreters/fusion_native.py).

``one CASE LIB``: in this (fresh) process, ``jit`` of CASE written for LIB (``trellax`` or
``jax``): the first call's wall time, then ``CALLS`` more calls, each timed by wall clock and by
this process's CPU time (every thread); prints one JSON line: the first call, the best and the
median of the others, and whether Numba was imported. For ``jax`` run it with the reference
venv (``/tmp/jaxref/bin/python``).

``ab``: runs ``one`` for every case in fresh processes, alternating trellax with the libraries,
trellax with ``TRELLAX_NATIVE_FUSION=0`` (the NumPy version while Numba loads, then Numba's
kernels: ``main``'s behaviour) and ``jax.jit`` (``JPY``), ``ROUNDS`` times; prints the runs.

``build``: runs every case once with the Numba kernels (``compiled_wait``) and builds the
libraries of their kernels now (as the second process to load them would, on its compile
thread), in ``TRELLAX_CACHE_DIR`` or the host's cache; prints the wall time.

Cases: ``chain`` (``((x*2+1)**2).sum()``, 25M float32), ``softmax`` (4096x1024 float32),
``layernorm`` (the same rows: mean, variance, ``(x-m)*rsqrt(v+1e-5)``), ``gelu_mlp`` (``gelu(x @
w + b)``, erf GELU, x 4096x256, w 256x1024: the product, then the fused epilogue).

    PYTHONPATH=. .venv/bin/python tools/measure_fusion_native.py build
    JPY=/tmp/jaxref/bin/python PYTHONPATH=. .venv/bin/python tools/measure_fusion_native.py ab
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

CALLS = int(os.environ.get("CALLS", "20"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
CASES = ("chain", "softmax", "layernorm", "gelu_mlp")


def case(name: str, lib: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``jit`` of case ``name`` written for ``lib``, and its arguments (of ``lib``)."""
    L: Any = __import__(lib)
    m: Any = __import__(lib + ".numpy", fromlist=["x"])
    rng = np.random.default_rng(0)
    if name == "chain":
        return L.jit(lambda x: ((x * 2 + 1) ** 2).sum()), (m.ones(25_000_000, dtype="float32"),)
    rows = m.asarray(rng.standard_normal((4096, 1024), dtype=np.float32))
    if name == "softmax":
        return L.jit(L.nn.softmax), (rows,)
    if name == "layernorm":

        def ln(x: Any) -> Any:
            mu = x.mean(-1, keepdims=True)
            v = ((x - mu) ** 2).mean(-1, keepdims=True)
            return (x - mu) * L.lax.rsqrt(v + 1e-5)

        return L.jit(ln), (rows,)
    x = m.asarray(rng.standard_normal((4096, 256), dtype=np.float32))
    w = m.asarray(rng.standard_normal((256, 1024), dtype=np.float32) / 16)
    b = m.asarray(rng.standard_normal(1024, dtype=np.float32))
    return L.jit(lambda x, w, b: L.nn.gelu(x @ w + b, approximate=False)), (x, w, b)


def one(name: str, lib: str) -> dict[str, Any]:
    f, args = case(name, lib)
    done: Callable[[Any], Any] = (
        (lambda r: r.block_until_ready()) if lib == "jax" else (lambda r: r)
    )
    t = time.perf_counter()
    done(f(*args))
    first = time.perf_counter() - t
    walls, cpus = [], []
    for _ in range(CALLS):
        t, c = time.perf_counter(), time.process_time()
        done(f(*args))
        cpus.append(time.process_time() - c)
        walls.append(time.perf_counter() - t)
    return {
        "case": name,
        "lib": lib,
        "first_ms": first * 1e3,
        "best_ms": min(walls) * 1e3,
        "median_ms": statistics.median(walls) * 1e3,
        "cpu_best_ms": min(cpus) * 1e3,
        "cpu_median_ms": statistics.median(cpus) * 1e3,
        "numba": "numba" in sys.modules,
    }


def build() -> None:
    from trellax._src.interpreters import fusion_native, fusion_runtime

    t = time.perf_counter()
    with fusion_runtime.fusion_options(compiled_wait=True):
        for name in CASES:
            f, args = case(name, "trellax")
            f(*args)
    loaded = time.perf_counter() - t
    t = time.perf_counter()
    libs = fusion_native.build_pending()
    print(
        f"{len(libs)} libraries built in {time.perf_counter() - t:.1f} s wall "
        f"(Numba kernels loaded in {loaded:.1f} s); errors: {[lib.error for lib in libs]}"
    )


def ab() -> None:
    jpy = os.environ.get("JPY", "/tmp/jaxref/bin/python")
    runs = [
        ("library", sys.executable, {}),
        ("no library", sys.executable, {"TRELLAX_NATIVE_FUSION": "0"}),
        ("jax.jit", jpy, {}),
    ]
    for r in range(ROUNDS):
        for name in CASES:
            for label, py, extra in runs:
                lib = "jax" if label == "jax.jit" else "trellax"
                env = dict(os.environ, **extra)
                out = subprocess.run(
                    [py, os.path.abspath(__file__), "one", name, lib],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=True,
                )
                res = json.loads(out.stdout.strip().splitlines()[-1])
                res["label"], res["round"] = label, r
                print(json.dumps(res), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "one":
        print(json.dumps(one(sys.argv[2], sys.argv[3])))
    elif sys.argv[1] == "build":
        build()
    else:
        ab()
