"""Issue 23, fixed costs: loops, per-example gradients, ``random.normal``, ``tree_flatten`` and eager
``grad``/``x + x``, each as a ratio to its goal's peer, side by side in one run.

Every library's call is timed in batches, the libraries *interleaved* (one batch of each in
turn), and the best batch of each kept, so a load spike on the shared machine hits every column
alike. Peers that are not importable (JAX, PyTorch are not in the project's venv) are shown as
n/a: run with a Python that has them and ``PYTHONPATH`` at the repository to include them, e.g.
``PYTHONPATH=. /tmp/jaxref/bin/python benchmarks/run.py overhead``.

Columns: time per call of each library, then ``trellax / peer`` for the goal's peer and the goal.
Wall-clock by default; ``BENCH_CLOCK=process`` times process CPU time instead (every thread's,
so preemption on a busy machine does not count, but parallel work counts in full).
``BENCH_ONLY=loops`` runs only the three loop rows. Their NumPy column is the same loop written
by hand in NumPy (one call per operation and step, as a compiled body runs it).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import optional_import

import trellax
import trellax.lax as tlax
import trellax.numpy as tnp
import trellax.random as trandom
import trellax.tree_util as ttu
from trellax._src.interpreters.fusion_runtime import fusion_options

Thunk = Callable[[], object]
CLOCK = time.process_time if os.environ.get("BENCH_CLOCK") == "process" else time.perf_counter
ROUNDS = 7
BATCH_SECONDS = 0.02


def _batch_size(fn: Thunk) -> int:
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 >= BATCH_SECONDS or n >= 1 << 16:
            return n
        n *= 2


def interleaved(fns: dict[str, Thunk | None]) -> dict[str, float | None]:
    """Best per-call wall time of each function, measured in interleaved batches."""
    live = {k: f for k, f in fns.items() if f is not None}
    sizes = {k: _batch_size(f) for k, f in live.items()}
    best = dict.fromkeys(live, float("inf"))
    for _ in range(ROUNDS):
        for k, f in live.items():
            n = sizes[k]
            t0 = CLOCK()
            for _ in range(n):
                f()
            best[k] = min(best[k], (CLOCK() - t0) / n)
    return {k: best.get(k) for k in fns}


def _compile_loops(f: Callable[[Any], Any], x: Any) -> None:
    """Runs ``f`` once with its loops compiled before the call (with the ``compiled`` extra:
    ``interpreters/loop_compiled.py``; by default a loop is compiled after 100,000 steps, in
    the background), so the timed calls measure the compiled loops."""
    with fusion_options(compiled_loop_min=0, compiled_wait=True):
        f(x)


def _rnn(lib: Any, lax: Any, np_: Any) -> Callable[[Any], Any]:
    w = np_.eye(16) * 0.9

    def loss(h0: Any) -> Any:
        def body(h: Any, _: Any) -> tuple[Any, Any]:
            h = np_.tanh(w @ h + 0.1)
            return h, h.sum()

        _, ys = lax.scan(body, h0, None, length=100)
        return ys.sum()

    return lib.jit(lib.grad(loss))  # type: ignore[no-any-return]


def _fori(lib: Any, lax: Any, np_: Any) -> Callable[[Any], Any]:
    w = np_.eye(16) * 0.5

    def f(x: Any) -> Any:
        return lax.fori_loop(0, 100, lambda i, h: np_.tanh(w @ h + 0.1), x)

    return lib.jit(f)  # type: ignore[no-any-return]


def _while(lib: Any, lax: Any, np_: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        def body(c: Any) -> Any:
            return c[0] + 1, c[1] * 0.99 + np_.sin(c[1])

        return lax.while_loop(lambda c: c[0] < 100, body, (0, x))[1]

    return lib.jit(f)  # type: ignore[no-any-return]


# The loops written by hand in NumPy (the same calls a compiled body makes, one per operation):
# the floor of a loop that runs one NumPy call per operation and step.
_W16 = np.eye(16, dtype=np.float32)


def numpy_rnn_grad(h0: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    w = _W16 * np.float32(0.9)
    hs = np.empty((100, 16), np.float32)
    h = h0
    for t in range(100):
        h = hs[t] = np.tanh(w @ h + np.float32(0.1))
    d = np.float32(1) - hs
    g = np.zeros(16, np.float32)
    for t in range(99, -1, -1):
        a = (g + np.float32(1)) * d[t]
        g = (a + a * hs[t]) @ w
    return g


def numpy_fori(h: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    w = _W16 * np.float32(0.5)
    for _ in range(100):
        h = np.tanh(w @ h + np.float32(0.1))
    return h


def numpy_while(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    i = 0
    while i < 100:
        i, x = i + 1, x * np.float32(0.99) + np.sin(x)
    return x


def _per_example(lib: Any, np_: Any) -> Callable[..., Any]:
    def loss(w: Any, x: Any, y: Any) -> Any:
        return ((np_.tanh(x @ w) - y) ** 2).mean()

    return lib.jit(lib.vmap(lib.grad(loss), in_axes=(None, 0, 0)))  # type: ignore[no-any-return]


def _tree(i: int) -> Any:
    return {"a": i, "b": (i, [i, None]), "c": {"d": i}}


class _Point:
    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b


def _deep(n: int) -> Any:
    t: Any = 1
    for _ in range(n):
        t = [t]
    return t


TREES: dict[str, Callable[[], Any]] = {
    "2,500 dicts of 4 leaves": lambda: [_tree(i) for i in range(2500)],
    "10,000 (int, float) tuples": lambda: [(i, float(i)) for i in range(10000)],
    "list nested 100 deep": lambda: _deep(100),
    "5,000 registered classes": lambda: [_Point(i, i) for i in range(5000)],
    "[None, 1] * 2,500": lambda: [None, 1] * 2500,
}


def _block(jax: Any) -> Callable[[Any], Any]:
    return (lambda x: jax.block_until_ready(x)) if jax is not None else (lambda x: x)


def main() -> None:
    jax = optional_import("jax")
    torch = optional_import("torch")
    jnp = jax.numpy if jax is not None else None
    block = _block(jax)
    rows: list[tuple[str, dict[str, float | None], str, str]] = []

    def row(case: str, fns: dict[str, Thunk | None], peer: str, goal: str) -> None:
        rows.append((case, interleaved(fns), peer, goal))

    # -- loops
    h0 = tnp.ones(16)
    h0_np = np.ones(16, np.float32)
    loops = (
        ("jit(grad) of 100-step scan", _rnn, numpy_rnn_grad),
        ("jit fori_loop 100", _fori, numpy_fori),
    )
    for name, make, by_hand in loops:
        tf = make(trellax, tlax, tnp)
        _compile_loops(tf, h0)
        jf = make(jax, jax.lax, jnp) if jax is not None else None
        jh = jnp.ones(16) if jax is not None else None
        row(
            name + " (16x16 tanh RNN)",
            {
                "numpy": lambda by_hand=by_hand: by_hand(h0_np),
                "trellax": lambda tf=tf: tf(h0),
                "jax": (lambda jf=jf, jh=jh: block(jf(jh))) if jf is not None else None,
            },
            "jax",
            "<= 5x",
        )
    tw = _while(trellax, tlax, tnp)
    _compile_loops(tw, tnp.ones(8))
    jw = _while(jax, jax.lax, jnp) if jax is not None else None
    x8 = tnp.ones(8)
    x8_np = np.ones(8, np.float32)
    jx8 = jnp.ones(8) if jax is not None else None
    row(
        "jit while_loop 100 (f32[8])",
        {
            "numpy": lambda: numpy_while(x8_np),
            "trellax": lambda: tw(x8),
            "jax": (lambda: block(jw(jx8))) if jw else None,
        },
        "jax",
        "<= 5x",
    )
    if os.environ.get("BENCH_ONLY") == "loops":
        _print(rows)
        return

    # -- per-example gradients
    r = np.random.default_rng(0)
    w_np = r.standard_normal((32, 16), dtype=np.float32)
    x_np = r.standard_normal((1000, 32), dtype=np.float32)
    y_np = r.standard_normal((1000, 16), dtype=np.float32)
    tp = _per_example(trellax, tnp)
    targs = [tnp.asarray(a) for a in (w_np, x_np, y_np)]
    jp = _per_example(jax, jnp) if jax is not None else None
    jargs = [jnp.asarray(a) for a in (w_np, x_np, y_np)] if jax is not None else []

    def numpy_per_example() -> object:
        d = np.tanh(x_np @ w_np) - y_np
        g = 2 * d * (1 - np.tanh(x_np @ w_np) ** 2) / 16
        return x_np[:, :, None] * g[:, None, :]

    row(
        "jit(vmap(grad)) per-example, 1000x32",
        {
            "numpy": numpy_per_example,
            "trellax": lambda: tp(*targs),
            "jax": (lambda: block(jp(*jargs))) if jp is not None else None,
        },
        "jax",
        "<= 1.5x",
    )

    # -- random.normal
    key = trandom.key(0)
    gen = np.random.default_rng(0)
    jn = jax.jit(lambda k: jax.random.normal(k, (10**6,))) if jax is not None else None
    jkey = jax.random.key(0) if jax is not None else None
    for _ in range(3):  # the first large draws compute directly, later ones use the table
        trandom.normal(key, (10**6,))
    row(
        "random.normal 10**6 f32",
        {
            "numpy": lambda: gen.standard_normal(10**6, dtype=np.float32),
            "trellax": lambda: trandom.normal(key, (10**6,)),
            "jax": (lambda: block(jn(jkey))) if jn is not None else None,
        },
        "jax",
        "<= 1.5x (and <= numpy)",
    )

    # -- tree_flatten
    jtu = jax.tree_util if jax is not None else None
    ttu.register_pytree_node(_Point, lambda p: ((p.a, p.b), None), lambda _, c: _Point(*c))
    if jtu is not None:
        jtu.register_pytree_node(_Point, lambda p: ((p.a, p.b), None), lambda _, c: _Point(*c))
    for name, make_tree in TREES.items():
        tree = make_tree()
        row(
            f"tree_flatten {name}",
            {
                "trellax": lambda tree=tree: ttu.tree_flatten(tree),
                "jax": (lambda tree=tree: jtu.tree_flatten(tree)) if jtu is not None else None,
            },
            "jax",
            "<= 1.5x",
        )

    # -- eager
    g = trellax.grad(lambda x: tnp.sin(x) * x**2)

    def torch_grad() -> object:
        assert torch is not None
        x = torch.tensor(1.5, requires_grad=True)
        y = torch.sin(x) * x**2
        y.backward()
        return x.grad

    row(
        "eager grad of sin(x) * x**2",
        {"trellax": lambda: g(1.5), "torch": torch_grad if torch is not None else None},
        "torch",
        "<= 3x",
    )
    a = tnp.ones(8, dtype=tnp.float32)
    an = np.ones(8, np.float32)
    at = torch.ones(8) if torch is not None else None
    row(
        "eager x + x, f32[8]",
        {
            "numpy": lambda: an + an,
            "trellax": lambda: a + a,
            "torch": (lambda: at + at) if at is not None else None,
        },
        "torch",
        "<= 1x",
    )

    _print(rows)


def _print(rows: list[tuple[str, dict[str, float | None], str, str]]) -> None:
    libs = ["numpy", "torch", "jax", "trellax"]
    print("\n## issue 23 overheads: time per call (us), trellax / the goal's peer")
    print(" | ".join(["case", *[f"{lib} (us)" for lib in libs], "trellax/peer", "goal"]))
    for case, times, peer, goal in rows:
        cells = [case]
        for lib in libs:
            t = times.get(lib)
            cells.append("-" if t is None else f"{t * 1e6:.1f}")
        t, p = times.get("trellax"), times.get(peer)
        cells.append(f"{t / p:.2f}x vs {peer}" if t and p else f"n/a ({peer} not installed)")
        cells.append(goal)
        print(" | ".join(cells))


if __name__ == "__main__":
    main()
