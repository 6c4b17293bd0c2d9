"""Wall and CPU time of large elementwise jit programs: trellax with compiled kernels on and off,
and jax.jit (docs/performance.md, "Compiled kernels").

usage: python tools/measure_compiled.py [--rounds N] [--cases a,b]
  TXPY: a python with trellax and numba (default: .venv/bin/python)
  JPY: a python with jax (optional; e.g. /tmp/jaxref/bin/python)
  BASE: a trellax checkout to time too, compiled (optional; e.g. /work/main)
Each (case, variant) runs in its own process; the rounds alternate the variants, so a change in
the machine's load hits all of them alike. Prints per case the best wall and CPU time (ms) of
each variant over the rounds, and the ratios to jax.jit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

CASES = [
    "chain_25m",
    "softmax_4096x1024",
    "layer_norm_4096x1024",
    "gelu_epilogue_4096x1024",
    "gelu_erf_epilogue_4096x1024",
    "gelu_grad_4096x1024",
    "gelu_erf_grad_4096x1024",
    "log_softmax_4096x1024",
    "normal_1e6",
]


def _programs(ns: Any, nn: Any, random: Any, grad: Any = None) -> dict[str, Any]:
    def chain(x: Any) -> Any:
        return ((x * 2 + 1) ** 2).sum()

    def softmax(x: Any) -> Any:
        e = ns.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def layer_norm(x: Any, g: Any, b: Any) -> Any:
        mu = x.mean(axis=-1, keepdims=True)
        xc = x - mu
        return xc / ns.sqrt((xc * xc).mean(axis=-1, keepdims=True) + 1e-5) * g + b

    def gelu_epilogue(h: Any, b: Any) -> Any:  # the bias and activation after a matmul
        return nn.gelu(h + b)

    def gelu_erf_epilogue(h: Any, b: Any) -> Any:  # the exact (erf) form
        return nn.gelu(h + b, approximate=False)

    def gelu_grads(approximate: bool) -> Any:  # an MLP layer's backward pass through its GELU
        return grad(lambda h, b: nn.gelu(h + b, approximate=approximate).sum(), argnums=(0, 1))

    return {
        "gelu_grad_4096x1024": gelu_grads(True) if grad else None,
        "gelu_erf_grad_4096x1024": gelu_grads(False) if grad else None,
        "chain_25m": chain,
        "softmax_4096x1024": softmax,
        "log_softmax_4096x1024": lambda x: nn.log_softmax(x),
        "layer_norm_4096x1024": layer_norm,
        "gelu_epilogue_4096x1024": gelu_epilogue,
        "gelu_erf_epilogue_4096x1024": gelu_erf_epilogue,
        "normal_1e6": lambda key: random.normal(key, (1_000_000,)),
    }


def _inputs(case: str) -> tuple[Any, ...]:
    import numpy as np  # here: only the child process needs it

    rng = np.random.default_rng(0)
    if case == "normal_1e6":
        return (np.array([0, 42], np.uint32),)  # the data of PRNGKey(42)
    if case == "chain_25m":
        return (np.ones(25_000_000, np.float32),)
    x = rng.standard_normal((4096, 1024), dtype=np.float32)
    row = rng.standard_normal(1024, dtype=np.float32)
    if case == "layer_norm_4096x1024":
        return (x, row, row[::-1].copy())
    if case.startswith("gelu"):
        return (x, row)
    return (x,)


def child(case: str, lib: str) -> dict[str, float]:
    """Times one case in this process: best of 7 calls after a warm-up (compilation included
    in the warm-up: TRELLAX_COMPILED_WAIT=1)."""
    if lib == "jax":
        import jax  # here: the child process imports only the library it times
        import jax.numpy as ns  # here: the child process imports only the library it times

        f = jax.jit(_programs(ns, jax.nn, jax.random, jax.grad)[case])
        args = tuple(ns.asarray(a) for a in _inputs(case))

        def call() -> None:
            jax.block_until_ready(f(*args))
    else:
        import trellax  # here: the child process imports only the library it times
        import trellax.numpy as ns  # here: the child process imports only the library it times

        f = trellax.jit(_programs(ns, trellax.nn, trellax.random, trellax.grad)[case])
        args = tuple(ns.asarray(a) for a in _inputs(case))

        def call() -> None:
            f(*args)

    call()
    call()
    walls, cpus = [], []
    for _ in range(7):
        t, c = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return {"wall": min(walls) * 1e3, "cpu": min(cpus) * 1e3}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(sys.argv[2], sys.argv[3])))
        return
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    cases = sys.argv[sys.argv.index("--cases") + 1].split(",") if "--cases" in sys.argv else CASES
    txpy = os.environ.get("TXPY", os.path.join(".venv", "bin", "python"))
    jpy = os.environ.get("JPY", "")
    variants = [
        ("compiled", txpy, "trellax", {"TRELLAX_COMPILED": "auto", "TRELLAX_COMPILED_WAIT": "1"}),
        ("numpy path", txpy, "trellax", {"TRELLAX_COMPILED": "off"}),
    ]
    base = os.environ.get("BASE", "")  # a trellax checkout to compare with (PYTHONPATH)
    if base:
        env = {"TRELLAX_COMPILED": "auto", "TRELLAX_COMPILED_WAIT": "1", "PYTHONPATH": base}
        variants.append(("base", txpy, "trellax", env))
    if jpy:
        variants.append(("jax.jit", jpy, "jax", {"JAX_PLATFORMS": "cpu"}))
    best: dict[tuple[str, str], dict[str, float]] = {}
    for _ in range(rounds):
        for case in cases:
            for name, py, lib, env in variants:
                r = subprocess.run(
                    [py, __file__, "--child", case, lib],
                    capture_output=True,
                    text=True,
                    env={**os.environ, **env, "PYTHONWARNINGS": "ignore"},
                    timeout=600,
                )
                if r.returncode != 0:
                    sys.stderr.write(f"{case}/{name}: {r.stderr[-500:]}\n")
                    continue
                got = json.loads(r.stdout.strip().splitlines()[-1])
                old = best.get((case, name))
                best[(case, name)] = {
                    k: min(got[k], old[k]) if old else got[k] for k in ("wall", "cpu")
                }
    names = [v[0] for v in variants]
    print("case | " + " | ".join(f"{n} wall / cpu ms" for n in names) + " | vs jax.jit (wall)")
    for case in cases:
        cells = []
        for n in names:
            b = best.get((case, n))
            cells.append(f"{b['wall']:.1f} / {b['cpu']:.1f}" if b else "-")
        ratios = ""
        j = best.get((case, "jax.jit"))
        if j:
            ratios = ", ".join(
                f"{n}: {best[(case, n)]['wall'] / j['wall']:.2f}x"
                for n in names
                if n != "jax.jit"
                if (case, n) in best
            )
        print(f"{case} | " + " | ".join(cells) + f" | {ratios}")


if __name__ == "__main__":
    main()
