"""Issue 23's kernel goals side by side: convolutions and their gradients, training steps, large
elementwise programs under ``jit``, each as trellax's time over the best peer's.

Peers: ``jax.jit`` (JAX 0.10.2 CPU, results blocked on) and PyTorch (eager, CPU), whichever are
importable -- neither is in the project's venv, so run with a Python that has them and the
repository on the path to see the ratios::

    PYTHONPATH=. /path/to/peer-venv/bin/python benchmarks/run.py kernels

NumPy is shown where the case has a natural NumPy form. The libraries are timed *interleaved*
(one batch of each in turn, best of the rounds), so that a load spike on a shared machine hits
every column alike. Goals (issue 23): convolutions <= 1.5x PyTorch's ``conv2d``; the CNN steps
<= 1.5x and the MLP steps <= 1.2x the best peer; elementwise programs <= 1.5x ``jax.jit``.

On a shared, loaded machine wall times swing by 2-10x (other processes, and peers' own BLAS or
Eigen threads spinning); ``BENCH_CPU=1`` measures process CPU time instead, with every library
held to one thread (``TRELLAX_THREADS=1``, ``torch.set_num_threads(1)``, XLA's Eigen pool off):
the work each library does per call, the fairest comparison a busy machine allows.

``python benchmarks/bench_kernels.py --busy`` repeats a few cases with a spinning process taking
one core (issue 23: no case more than 2x slower than idle).
"""

# ruff: noqa: E402 (BENCH_CPU must set the peers' thread variables before they are imported)
from __future__ import annotations

import os

CPU_MODE = os.environ.get("BENCH_CPU", "") == "1"
if CPU_MODE:  # before any library starts its threads
    os.environ["TRELLAX_THREADS"] = "1"
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )
    os.environ["OMP_NUM_THREADS"] = "1"

import itertools
import math
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import optional_import

import trellax
import trellax.lax as tlax
import trellax.nn as tnn
import trellax.numpy as tnp
import trellax.optim as toptim
import trellax.random as trandom

jax = optional_import("jax")
jnp = optional_import("jax.numpy")
jlax = optional_import("jax.lax")
flax_nn = optional_import("flax.linen")
optax = optional_import("optax")
torch = optional_import("torch")
if torch is not None and CPU_MODE:
    torch.set_num_threads(1)
CLOCK = time.process_time if CPU_MODE else time.perf_counter

Fn = Callable[[], object]
RNG = np.random.default_rng(0)


def _jax_block(f: Callable[..., Any], *args: Any) -> Fn:
    assert jax is not None
    return lambda: jax.block_until_ready(f(*args))


def interleaved(
    fns: dict[str, Fn | None], rounds: int = 5, budget: float = 0.15
) -> dict[str, float]:
    """Best per-call wall time of each function, timed in turn (batches of ~``budget`` s)."""
    live = {k: f for k, f in fns.items() if f is not None}
    number: dict[str, int] = {}
    for k, f in live.items():
        f()
        t = CLOCK()
        f()
        one = max(CLOCK() - t, 1e-6)
        number[k] = max(1, int(budget / one))
    best = {k: float("inf") for k in live}
    for _ in range(rounds):
        for k, f in live.items():
            n = number[k]
            t = CLOCK()
            for _ in range(n):
                f()
            best[k] = min(best[k], (CLOCK() - t) / n)
    return best


# -- convolutions ---------------------------------------------------------------------------------

CONV_CASES = [
    # name, NCHW input shape, OIHW kernel shape, strides, rhs dilation, groups
    ("3x3 s1 64x16x32x32->32", (64, 16, 32, 32), (32, 16, 3, 3), (1, 1), (1, 1), 1),
    ("3x3 s2 32x32x32x32->64", (32, 32, 32, 32), (64, 32, 3, 3), (2, 2), (1, 1), 1),
    ("3x3 dil2 16x32x32x32->32", (16, 32, 32, 32), (32, 32, 3, 3), (1, 1), (2, 2), 1),
    ("3x3 g4 32x32x32x32->64", (32, 32, 32, 32), (64, 8, 3, 3), (1, 1), (1, 1), 4),
]


def _conv_fns(
    layout: str, xs: tuple[int, ...], ws: tuple[int, ...], st: Any, rd: Any, g: int
) -> tuple[dict[str, Fn | None], dict[str, Fn | None], dict[str, Fn | None]]:
    """(forward, input gradient, kernel gradient) for trellax, jax and torch."""
    x = RNG.standard_normal(xs, dtype=np.float32)
    w = RNG.standard_normal(ws, dtype=np.float32)
    pad = [((k - 1) * d // 2, (k - 1) * d // 2) for k, d in zip(ws[2:], rd)]
    if layout == "NHWC":
        dn = ("NHWC", "HWIO", "NHWC")
        xl, wl = x.transpose(0, 2, 3, 1).copy(), w.transpose(2, 3, 1, 0).copy()
    else:
        dn = ("NCHW", "OIHW", "NCHW")
        xl, wl = x, w
    fwd: dict[str, Fn | None] = {}
    gx: dict[str, Fn | None] = {}
    gw: dict[str, Fn | None] = {}
    for name, L, lax_, np_ in (("trellax", trellax, tlax, tnp), ("jax", jax, jlax, jnp)):
        if L is None or lax_ is None or np_ is None:
            continue

        def conv(a: Any, b: Any, lax_: Any = lax_) -> Any:
            return lax_.conv_general_dilated(
                a, b, st, pad, rhs_dilation=rd, dimension_numbers=dn, feature_group_count=g
            )

        a, b = np_.asarray(xl), np_.asarray(wl)
        f = L.jit(conv)
        out = f(a, b)
        ct = np_.asarray(RNG.standard_normal(out.shape, dtype=np.float32))
        fx = L.jit(lambda c, a=a, b=b, conv=conv, L=L: L.vjp(lambda u: conv(u, b), a)[1](c)[0])
        fw = L.jit(lambda c, a=a, b=b, conv=conv, L=L: L.vjp(lambda v: conv(a, v), b)[1](c)[0])
        if name == "jax":
            fwd[name], gx[name], gw[name] = (
                _jax_block(f, a, b),
                _jax_block(fx, ct),
                _jax_block(fw, ct),
            )
        else:
            fwd[name] = lambda f=f, a=a, b=b: f(a, b)
            gx[name] = lambda fx=fx, ct=ct: fx(ct)
            gw[name] = lambda fw=fw, ct=ct: fw(ct)
    if torch is not None:
        tf = torch.nn.functional
        tx = torch.from_numpy(x)
        tw = torch.from_numpy(w)
        if layout == "NHWC":
            tx = tx.contiguous(memory_format=torch.channels_last)
        p = tuple(lo for lo, _ in pad)
        tout = tf.conv2d(tx, tw, stride=st, padding=p, dilation=rd, groups=g)
        tct = torch.randn(tout.shape)
        if layout == "NHWC":
            tct = tct.contiguous(memory_format=torch.channels_last)
        tg = torch.nn.grad
        fwd["torch"] = lambda: tf.conv2d(tx, tw, stride=st, padding=p, dilation=rd, groups=g)
        gx["torch"] = lambda: tg.conv2d_input(tx.shape, tw, tct, st, p, rd, g)
        gw["torch"] = lambda: tg.conv2d_weight(tx, tw.shape, tct, st, p, rd, g)
    return fwd, gx, gw


# -- training steps -------------------------------------------------------------------------------


def _mlp_step(sizes: list[int], batch: int) -> dict[str, Fn | None]:
    """``value_and_grad`` of a tanh MLP's squared error under ``jit`` (the shared suite's case)."""
    ws = [
        (RNG.standard_normal((a, b), dtype=np.float32) * 0.1, np.zeros(b, np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    x = RNG.standard_normal((batch, sizes[0]), dtype=np.float32)
    y = np.eye(sizes[-1], dtype=np.float32)[RNG.integers(0, sizes[-1], batch)]
    out: dict[str, Fn | None] = {}
    for name, L, m in (("trellax", trellax, tnp), ("jax", jax, jnp)):
        if L is None or m is None:
            continue

        def loss(p: Any, x: Any, y: Any, m: Any = m) -> Any:
            h = x
            for w, b in p[:-1]:
                h = m.tanh(h @ w + b)
            return ((h @ p[-1][0] + p[-1][1] - y) ** 2).mean()

        f = L.jit(L.value_and_grad(loss))
        p = [(m.asarray(w), m.asarray(b)) for w, b in ws]
        a, c = m.asarray(x), m.asarray(y)
        out[name] = (
            _jax_block(f, p, a, c) if name == "jax" else (lambda f=f, p=p, a=a, c=c: f(p, a, c))
        )
    if torch is not None:
        tp = [
            (torch.tensor(w, requires_grad=True), torch.tensor(b, requires_grad=True))
            for w, b in ws
        ]
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        flat = [t for pair in tp for t in pair]

        def step() -> object:
            h = tx
            for w, b in tp[:-1]:
                h = torch.tanh(h @ w + b)
            loss = ((h @ tp[-1][0] + tp[-1][1] - ty) ** 2).mean()
            return torch.autograd.grad(loss, flat)

        out["torch"] = step
    return out


def _cnn_step(
    image: int, channels: int, batch: int, widths: tuple[int, int], dense: int
) -> dict[str, Fn | None]:
    """Two 3x3 SAME convolutions (relu), 2x2 average pool, two dense layers, Adam, one ``jit``
    step (the shared suite's ``cnn_adam_step_jit`` for 8x8x1, batch 64)."""
    x = RNG.standard_normal((batch, image, image, channels), dtype=np.float32)
    y = RNG.integers(0, 10, batch)
    out: dict[str, Fn | None] = {}
    libs = [("trellax", trellax, tnp, tnn, toptim, trandom)]
    if jax is not None and flax_nn is not None and optax is not None:
        libs.append(("jax", jax, jnp, flax_nn, optax, optional_import("jax.random")))
    for name, L, m, nn, opt, rnd in libs:

        class CNN(nn.Module):  # type: ignore[name-defined,misc]
            @nn.compact  # type: ignore[misc]
            def __call__(self, x: Any, nn: Any = nn) -> Any:
                x = nn.relu(nn.Conv(widths[0], (3, 3))(x))
                x = nn.relu(nn.Conv(widths[1], (3, 3))(x))
                x = nn.avg_pool(x, (2, 2), (2, 2))
                x = x.reshape((x.shape[0], -1))
                return nn.Dense(10)(nn.relu(nn.Dense(dense)(x)))

        model = CNN()
        a, b = m.asarray(x), m.asarray(y)
        params = model.init(rnd.PRNGKey(0), a)
        tx = opt.adam(1e-3)
        state = tx.init(params)

        def step(params: Any, state: Any, model: Any = model, L: Any = L, m: Any = m, tx: Any = tx,
                 opt: Any = opt, a: Any = a, b: Any = b) -> Any:  # fmt: skip
            def loss(p: Any) -> Any:
                logp = L.nn.log_softmax(model.apply(p, a))
                return -m.mean(m.take_along_axis(logp, b[:, None], axis=1))

            v, grads = L.value_and_grad(loss)(params)
            updates, state = tx.update(grads, state, params)
            return opt.apply_updates(params, updates), state, v

        f = L.jit(step)
        out[name] = (
            _jax_block(f, params, state)
            if name == "jax"
            else (lambda f=f, p=params, s=state: f(p, s))
        )
    if torch is not None:
        tn = torch.nn
        side = image // 2
        net = tn.Sequential(
            tn.Conv2d(channels, widths[0], 3, padding=1), tn.ReLU(),
            tn.Conv2d(widths[0], widths[1], 3, padding=1), tn.ReLU(),
            tn.AvgPool2d(2), tn.Flatten(), tn.Linear(widths[1] * side * side, dense), tn.ReLU(),
            tn.Linear(dense, 10),
        )  # fmt: skip
        topt = torch.optim.Adam(net.parameters(), 1e-3)
        tx_ = torch.from_numpy(x.transpose(0, 3, 1, 2).copy())
        ty_ = torch.from_numpy(y)

        def tstep() -> object:
            topt.zero_grad()
            loss = tn.functional.cross_entropy(net(tx_), ty_)
            loss.backward()
            topt.step()
            return loss

        out["torch"] = tstep
    return out


def traceable_mlp_step(sizes: list[int], batch: int) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """trellax's MLP step as (un-jitted function, arguments), for ``tools/profile_jit.py``."""
    ws = [
        (RNG.standard_normal((a, b), dtype=np.float32) * 0.1, np.zeros(b, np.float32))
        for a, b in itertools.pairwise(sizes)
    ]
    x = RNG.standard_normal((batch, sizes[0]), dtype=np.float32)
    y = np.eye(sizes[-1], dtype=np.float32)[RNG.integers(0, sizes[-1], batch)]

    def loss(p: Any, x: Any, y: Any) -> Any:
        h = x
        for w, b in p[:-1]:
            h = tnp.tanh(h @ w + b)
        return ((h @ p[-1][0] + p[-1][1] - y) ** 2).mean()

    p = [(tnp.asarray(w), tnp.asarray(b)) for w, b in ws]
    return trellax.value_and_grad(loss), (p, tnp.asarray(x), tnp.asarray(y))


def traceable_cnn_step(
    image: int, channels: int, batch: int, widths: tuple[int, int], dense: int
) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """trellax's CNN step as (un-jitted function, arguments), for ``tools/profile_jit.py``."""
    x = RNG.standard_normal((batch, image, image, channels), dtype=np.float32)
    y = tnp.asarray(RNG.integers(0, 10, batch))

    class CNN(tnn.Module):
        @tnn.compact
        def __call__(self, x: Any) -> Any:
            x = tnn.relu(tnn.Conv(widths[0], (3, 3))(x))
            x = tnn.relu(tnn.Conv(widths[1], (3, 3))(x))
            x = tnn.avg_pool(x, (2, 2), (2, 2))
            x = x.reshape((x.shape[0], -1))
            return tnn.Dense(10)(tnn.relu(tnn.Dense(dense)(x)))

    model = CNN()
    a = tnp.asarray(x)
    params = model.init(trandom.PRNGKey(0), a)
    tx = toptim.adam(1e-3)

    def step(params: Any, state: Any) -> Any:
        def loss(p: Any) -> Any:
            logp = trellax.nn.log_softmax(model.apply(p, a))
            return -tnp.mean(tnp.take_along_axis(logp, y[:, None], axis=1))

        v, grads = trellax.value_and_grad(loss)(params)
        updates, state = tx.update(grads, state, params)
        return toptim.apply_updates(params, updates), state, v

    return step, (params, tx.init(params))


# -- elementwise programs under jit ---------------------------------------------------------------


def _elementwise(case: str) -> dict[str, Fn | None]:
    out: dict[str, Fn | None] = {}
    if case == "chain 25M":
        xn = np.ones(25_000_000, np.float32)

        def make(m: Any) -> Callable[[Any], Any]:
            return lambda x: ((x * 2 + 1) ** 2).sum()

    elif case == "softmax 4096x1024":
        xn = RNG.standard_normal((4096, 1024), dtype=np.float32)

        def make(m: Any) -> Callable[[Any], Any]:
            def sm(x: Any) -> Any:
                e = m.exp(x - x.max(axis=-1, keepdims=True))
                return e / e.sum(axis=-1, keepdims=True)

            return sm

    elif case == "layer norm 4096x1024":
        xn = RNG.standard_normal((4096, 1024), dtype=np.float32)

        def make(m: Any) -> Callable[[Any], Any]:
            def ln(x: Any) -> Any:
                mu = x.mean(axis=-1, keepdims=True)
                v = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
                return (x - mu) / m.sqrt(v + 1e-5) * 1.5 + 0.1

            return ln

    elif case == "log_softmax 4096x1024":
        xn = RNG.standard_normal((4096, 1024), dtype=np.float32)

        def make(m: Any) -> Callable[[Any], Any]:
            def lsm(x: Any) -> Any:
                s = x - x.max(axis=-1, keepdims=True)
                return s - m.log(m.exp(s).sum(axis=-1, keepdims=True))

            return lsm

    elif case.startswith("GELU ") and ("erf" in case or "grad" in case):  # nn.gelu, or its grad
        return _gelu(case)

    else:  # GELU epilogue: bias add and tanh-GELU of a matmul's output
        xn = RNG.standard_normal((4096, 1024), dtype=np.float32)
        bias = RNG.standard_normal(1024, dtype=np.float32)

        def make(m: Any) -> Callable[[Any], Any]:
            def gelu(x: Any) -> Any:
                h = x + bias
                return 0.5 * h * (1 + m.tanh(0.7978846 * (h + 0.044715 * h**3)))

            return gelu

    for name, L, m in (("trellax", trellax, tnp), ("jax", jax, jnp)):
        if L is None or m is None:
            continue
        f = L.jit(make(m))
        a = m.asarray(xn)
        out[name] = _jax_block(f, a) if name == "jax" else (lambda f=f, a=a: f(a))
    if torch is not None:
        t = torch.from_numpy(xn)
        torch_fns = {
            "softmax 4096x1024": lambda: torch.softmax(t, -1),
            "layer norm 4096x1024": lambda: torch.nn.functional.layer_norm(t, (1024,)) * 1.5 + 0.1,
            "log_softmax 4096x1024": lambda: torch.log_softmax(t, -1),
        }
        g = make(torch)
        out["torch"] = torch_fns.get(case, lambda: g(t))
    g_np = make(np)
    out["numpy"] = lambda: g_np(xn)
    return out


def _gelu(case: str) -> dict[str, Fn | None]:
    """``nn.gelu(h + b)`` of either form, or its gradient in ``h`` and ``b`` (an MLP layer's
    backward pass through its activation), trellax and ``jax.jit`` (and PyTorch's ``gelu``)."""
    approximate = "tanh" in case
    hn = RNG.standard_normal((4096, 1024), dtype=np.float32)
    bn = RNG.standard_normal(1024, dtype=np.float32)
    out: dict[str, Fn | None] = {}
    for name, L in (("trellax", trellax), ("jax", jax)):
        if L is None:
            continue

        def fwd(h: Any, b: Any, L: Any = L) -> Any:
            return L.nn.gelu(h + b, approximate=approximate)

        def loss(h: Any, b: Any, fwd: Any = fwd) -> Any:
            return fwd(h, b).sum()

        f = L.jit(L.grad(loss, argnums=(0, 1)) if "grad" in case else fwd)
        h, b = L.numpy.asarray(hn), L.numpy.asarray(bn)
        if name == "jax":
            out[name] = lambda f=f, h=h, b=b: jax.block_until_ready(f(h, b))
        else:
            out[name] = lambda f=f, h=h, b=b: f(h, b)
    if torch is not None:
        th = torch.from_numpy(hn).requires_grad_("grad" in case)
        tb = torch.from_numpy(bn).requires_grad_("grad" in case)
        mode = "tanh" if approximate else "none"

        def tfn() -> Any:
            y = torch.nn.functional.gelu(th + tb, approximate=mode)
            if "grad" not in case:
                return y
            return torch.autograd.grad(y.sum(), (th, tb))

        out["torch"] = tfn
    return out


# -- the table ------------------------------------------------------------------------------------


def cases() -> list[tuple[str, str, Callable[[], dict[str, Fn | None]]]]:
    """(section, case, builder of the per-library functions)."""
    out: list[tuple[str, str, Callable[[], dict[str, Fn | None]]]] = []
    for layout in ("NCHW", "NHWC"):
        for name, xs, ws, st, rd, g in CONV_CASES:

            def build(
                i: int,
                layout: str = layout,
                xs: Any = xs,
                ws: Any = ws,
                st: Any = st,
                rd: Any = rd,
                g: int = g,
            ) -> dict[str, Fn | None]:
                return _conv_fns(layout, xs, ws, st, rd, g)[i]

            for i, what in enumerate(("fwd", "d input", "d kernel")):
                out.append(("conv", f"{layout} {name} {what}", lambda b=build, i=i: b(i)))
    out.append(("step", "CNN Adam 8x8x1 b64", lambda: _cnn_step(8, 1, 64, (32, 64), 128)))
    out.append(
        ("step", "MNIST CNN Adam 28x28x1 b128", lambda: _cnn_step(28, 1, 128, (32, 64), 256))
    )
    out.append(("step", "MLP 64-256-256-10 b256", lambda: _mlp_step([64, 256, 256, 10], 256)))
    out.append(("step", "MLP 784-1024-1024-10 b128", lambda: _mlp_step([784, 1024, 1024, 10], 128)))
    for case in (
        "chain 25M",
        "softmax 4096x1024",
        "layer norm 4096x1024",
        "GELU epilogue 4096x1024",
        "log_softmax 4096x1024",
        "GELU erf 4096x1024",
        "GELU erf grad 4096x1024",
        "GELU tanh grad 4096x1024",
    ):
        out.append(("elementwise", case, lambda case=case: _elementwise(case)))
    return out


def run(selected: list[str] | None = None) -> list[tuple[str, dict[str, float]]]:
    rows = []
    print("case | trellax (ms) | jax (ms) | torch (ms) | numpy (ms) | trellax / best peer")
    for section, case, build in cases():
        if selected and not any(s in f"{section} {case}" for s in selected):
            continue
        times = interleaved(build())
        peers = [t for k, t in times.items() if k in ("jax", "torch")]
        ratio = f"{times['trellax'] / min(peers):.2f}x" if peers else "n/a"
        cells = [
            f"{times[k] * 1e3:.2f}" if k in times else "n/a"
            for k in ("trellax", "jax", "torch", "numpy")
        ]
        print(f"{section}: {case} | " + " | ".join(cells) + f" | {ratio}", flush=True)
        rows.append((case, times))
    return rows


BUSY_CASES = ["CNN Adam 8x8x1 b64", "chain 25M", "NCHW 3x3 s1 64x16x32x32->32 fwd"]


def busy(rounds: int = 4) -> None:
    """The busy-machine figure: trellax's time per call of a few cases with and without a
    process spinning on one core, the two states alternated ``rounds`` times (a load spike from
    elsewhere then hits both), best of each. Wall time, default threads."""
    fns = {case: build()["trellax"] for _, case, build in cases() if case in BUSY_CASES}
    best: dict[str, dict[str, float]] = {c: {"idle": math.inf, "busy": math.inf} for c in fns}
    for _ in range(rounds):
        for state in ("idle", "busy"):
            spinner = None
            if state == "busy":
                spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            try:
                time.sleep(0.3)
                for case, f in fns.items():
                    t = interleaved({"t": f}, rounds=3)["t"]
                    best[case][state] = min(best[case][state], t)
            finally:
                if spinner is not None:
                    spinner.kill()
                    spinner.wait()
    print("case | trellax idle (ms) | trellax busy (ms) | busy / idle")
    for case, t in best.items():
        i, b = t["idle"], t["busy"]
        print(f"{case} | {i * 1e3:.2f} | {b * 1e3:.2f} | {b / i:.2f}x", flush=True)


def main() -> None:
    args = [a for a in sys.argv[1:] if a not in ("kernels", "bench_kernels")]
    if "--busy" in args:
        busy()
        return
    run(args or None)


if __name__ == "__main__":
    main()
