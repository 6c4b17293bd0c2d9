"""What the loop timing tools share: the three loop programs of issue 23's suite (a 16-unit tanh
RNN's ``scan`` under ``grad``, the same step as a ``fori_loop``, and a ``while_loop`` of
elementwise work), and the interleaved best-of-rounds timer in thread CPU time."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any


def loop_cases(lib: str = "trellax") -> dict[str, tuple[Callable[[Any], Any], int]]:
    """``name -> (function, size of its one float32 vector argument)``, written with ``lib``
    (``"trellax"`` or ``"jax"``: the same programs for both)."""
    top = importlib.import_module(lib)
    jnp = importlib.import_module(lib + ".numpy")
    lax = importlib.import_module(lib + ".lax")
    w = jnp.eye(16) * 0.9

    def scan(h0: Any) -> Any:
        def body(h: Any, _: Any) -> Any:
            h = jnp.tanh(w @ h + 0.1)
            return h, h.sum()

        return lax.scan(body, h0, None, length=100)[1].sum()

    def fori(h: Any) -> Any:
        return lax.fori_loop(0, 100, lambda i, h: jnp.tanh(w @ h + 0.1), h)

    def while_(x: Any) -> Any:
        def body(c: Any) -> Any:
            return c[0] + 1, c[1] * 0.99 + jnp.sin(c[1])

        return lax.while_loop(lambda c: c[0] < 100, body, (0, x))[1]

    return {
        "scan jit(grad)": (top.grad(scan), 16),
        "fori_loop": (fori, 16),
        "while_loop": (while_, 8),
    }


def best_thread_times(
    runs: dict[str, Callable[[], Any]], rounds: int, calls: int = 50
) -> dict[str, float]:
    """Seconds per call of each of ``runs``: the best of ``rounds`` batches of ``calls`` calls,
    the runs interleaved batch by batch (a load spike hits them alike), in thread CPU time."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for key, f in runs.items():
            t0 = time.thread_time()
            for _ in range(calls):
                f()
            best[key] = min(best[key], (time.thread_time() - t0) / calls)
    return best
