"""Large arrays under ``jit``: fused chunk loops vs eager NumPy vs jax.jit vs eager PyTorch.

Cases (issue 15): the 25M-element chain ``((x * 2 + 1) ** 2).sum()`` (float32), a softmax over the
last axis of a (4096, 4096) float32 array, and a bfloat16 (and a float16) layer-norm-like chain
over (8192, 1024), the narrow ones also under ``trellax.fused_excess_precision`` (column "jit
excess"); then the peak memory of the 25M chain (each variant in a fresh subprocess: the
growth of the peak RSS over the process's RSS with the input allocated). Targets: the chain and
softmax >= 2x faster than eager NumPy and within 2x of jax.jit; the bf16 chain >= 2x faster than
eager. Run alone with ``python benchmarks/run.py fusion``; with JAX installed (e.g.
``PYTHONPATH=. /work/jaxvenv/bin/python benchmarks/run.py fusion``) its columns are filled.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.numpy as tnp
from trellax._src.interpreters import fusion_runtime


def chain(ns: Any) -> Callable[[Any], Any]:
    return lambda x: ((x * 2 + 1) ** 2).sum()


def softmax(ns: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        e = ns.exp(x - ns.max(x, axis=-1, keepdims=True))
        return e / ns.sum(e, axis=-1, keepdims=True)

    return f


def layer_norm(ns: Any) -> Callable[[Any, Any, Any], Any]:
    """Mean and variance over the last axis (accumulated in float32, as ``jnp.mean`` of
    bfloat16 does), then scale and shift in bfloat16."""

    def f(x: Any, g: Any, b: Any) -> Any:
        mu = ns.mean(x.astype("float32"), axis=-1, keepdims=True).astype(x.dtype)
        xc = x - mu
        var = ns.mean((xc * xc).astype("float32"), axis=-1, keepdims=True).astype(x.dtype)
        return xc / ns.sqrt(var + 1e-5) * g + b

    return f


def fori_chain(ns: Any) -> Callable[[Any], Any]:
    """20 iterations of an elementwise chain in a ``fori_loop`` body (a Python loop for NumPy):
    the body's region is fused inside the loop."""

    def body(i: Any, x: Any) -> Any:
        return ((x * 0.999 + 0.001) ** 2 - x * 0.5) * 0.75

    if ns is np:

        def f(x: Any) -> Any:
            for i in range(20):
                x = body(i, x)
            return x

        return f
    lax = optional_import("jax.lax") if ns.__name__.startswith("jax") else trellax.lax
    assert lax is not None
    return lambda x: lax.fori_loop(0, 20, body, x)


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()  # warm: traces/compiles once, outside the timing
    return best_time(fn, min_time=0.3, repeat=5)


def _torch_fn(torch: Any, name: str) -> Callable[..., Any]:
    if name == "chain":
        return lambda x: ((x * 2 + 1) ** 2).sum()
    if name == "softmax":
        return lambda x: torch.softmax(x, dim=-1)
    if name == "fori":
        return fori_chain(np)

    def ln(x: Any, g: Any, b: Any) -> Any:
        mu = x.float().mean(-1, keepdim=True).to(x.dtype)
        xc = x - mu
        var = (xc * xc).float().mean(-1, keepdim=True).to(x.dtype)
        return xc / torch.sqrt(var + 1e-5) * g + b

    return ln


def cases() -> list[tuple[str, str, Callable[[Any], Callable[..., Any]], list[np.ndarray]]]:
    rng = np.random.default_rng(0)
    bf16 = ml_dtypes.bfloat16
    return [
        ("chain", "((x*2+1)**2).sum() [f32, 25M]", chain, [rng.random(25_000_000, np.float32)]),
        (
            "fori",
            "fori_loop(0, 20, chain) [f32, 1M]",
            fori_chain,
            [rng.random(1_000_000, np.float32)],
        ),
        (
            "softmax",
            "softmax(x, axis=-1) [f32, 4096x4096]",
            softmax,
            [rng.standard_normal((4096, 4096), np.float32)],
        ),
        *[
            (
                "layer_norm",
                f"layer-norm chain [{np.dtype(d).name}, 8192x1024]",
                layer_norm,
                [
                    rng.standard_normal((8192, 1024), np.float32).astype(d),
                    rng.standard_normal(1024, np.float32).astype(d),
                    rng.standard_normal(1024, np.float32).astype(d),
                ],
            )
            for d in (bf16, np.float16)
        ],
    ]


def main() -> None:
    jax = optional_import("jax")
    jnp = optional_import("jax.numpy")
    torch = optional_import("torch")
    rows: list[Row] = []
    for key, title, make, arrays in cases():
        targs = [tnp.asarray(a) for a in arrays]
        t_f = make(tnp)
        t_jit = trellax.jit(t_f)
        with fusion_runtime.fusion_options(enabled=False):
            unfused = trellax.jit(make(tnp)).lower(*targs).compile()
        excess = None
        if arrays[0].dtype in (ml_dtypes.bfloat16, np.float16):
            with trellax.fused_excess_precision():
                excess = trellax.jit(make(tnp)).lower(*targs).compile()
        np_f = make(np)
        fns: dict[str, Callable[[], object] | None] = {
            "numpy": lambda f=np_f, a=arrays: f(*a),
            "trellax.jit": lambda f=t_jit, a=targs: f(*a),
            "jit unfused": lambda f=unfused, a=targs: f(*a),
            "jit excess": None if excess is None else lambda f=excess, a=targs: f(*a),
            "trellax eager": lambda f=t_f, a=targs: f(*a),
            "jax.jit": None,
            "torch": None,
        }
        if jax is not None and jnp is not None:
            j_jit = jax.jit(make(jnp))
            jargs = [jnp.asarray(a) for a in arrays]
            fns["jax.jit"] = lambda f=j_jit, a=jargs: f(*a).block_until_ready()
        if torch is not None:
            tf = _torch_fn(torch, key)
            targs_t = [
                torch.from_numpy(a.astype(np.float32)).to(torch.bfloat16)
                if a.dtype == ml_dtypes.bfloat16
                else torch.from_numpy(a)
                for a in arrays
            ]
            fns["torch"] = lambda f=tf, a=targs_t: f(*a)
        rows.append(Row(title, {k: _time(f) for k, f in fns.items()}))
        del targs, arrays
    print_table("fusion: large arrays under jit", rows)
    print(
        f"threads: {fusion_runtime.thread_count()} (os.cpu_count() = {_cpus()}); "
        f"chunk: {fusion_runtime.options().chunk} elements"
    )
    if jnp is None:
        print("jax: not installed (its column is n/a)")
    if torch is None:
        print("torch: not installed (its column is n/a)")
    print("\ntargets: chain, softmax: trellax.jit/numpy <= 0.5x and <= 2x jax.jit; bf16: <= 0.5x")
    print("(jit excess: compiled under trellax.fused_excess_precision(), see docs/performance.md)")
    print("\n## peak memory of the 25M chain (growth of the peak RSS over the input, MiB)")
    for variant in ("numpy", "trellax.jit", "jit unfused"):
        print(f"{variant}: {_peak_rss(variant):.1f} MiB")


def _cpus() -> int | None:
    import os

    return os.cpu_count()


_PEAK_SCRIPT = """
import sys
import numpy as np
import trellax, trellax.numpy as tnp
from trellax._src.interpreters import fusion_runtime

def status(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) / 1024  # MiB

variant = sys.argv[1]
x = np.random.default_rng(0).random(25_000_000, np.float32)
f = lambda x: ((x * 2 + 1) ** 2).sum()
if variant == "numpy":
    run = lambda: f(x)
else:
    tx = tnp.asarray(x)
    with fusion_runtime.fusion_options(enabled=variant == "trellax.jit"):
        compiled = trellax.jit(f).lower(tx).compile()
    run = lambda: compiled(tx)
f(np.ones(8, np.float32))  # warm NumPy's code paths on a tiny input
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # resets the peak RSS (VmHWM) to the current RSS
base = status("VmRSS:")
run()
print(status("VmHWM:") - base)
"""


def _peak_rss(variant: str) -> float:
    """Peak-RSS growth (MiB) of one call, measured in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_PEAK_SCRIPT), variant],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
