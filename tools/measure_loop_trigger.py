"""Issue 23, loops: the measured compile trigger (``LoopKernel.due``, interpreters/loop_compiled.py).

``ab``: the cost of the trigger's bookkeeping on the Python loop (the kernel's check and the two
clock readings a call), interleaved in one process against the program without compiled loops,
thread CPU time, best of ``ROUNDS`` rounds of 50 calls; the three loop cases of
``benchmarks/bench_overhead.py``.

``run CASE N``: ``N`` calls of a fresh program (its compilation by ``jit`` included) in this
(fresh) process with the default trigger, against the same calls never compiled (run first):
process CPU time of every thread (the background compile included), and the call whose loop
first ran compiled.

    .venv/bin/python tools/measure_loop_trigger.py ab
    .venv/bin/python tools/measure_loop_trigger.py run scan 2000
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from loop_bench import best_thread_times, loop_cases

import trellax
import trellax.numpy as jnp
from trellax._src.interpreters import fusion_runtime, loop_compiled

ROUNDS = int(os.environ.get("ROUNDS", "9"))


def _cases() -> dict[str, tuple[Callable[[Any], Any], int]]:
    """The shared cases under this tool's short names (its command line takes them)."""
    return dict(zip(("scan", "fori", "while"), loop_cases().values(), strict=True))


def _jit(fn: Callable[[Any], Any], compiled_loops: bool, x: Any) -> Callable[[Any], Any]:
    """A new program of ``fn``, compiled (by its first call, on ``x``) with or without compiled
    loops."""
    loop_compiled.enabled = compiled_loops
    try:
        f = trellax.jit(lambda h: fn(h))
        f(x)
        return f
    finally:
        loop_compiled.enabled = True


def ab() -> None:
    for name, (fn, n) in _cases().items():
        x = jnp.ones(n)
        with fusion_runtime.fusion_options(compiled_loop_min=10**12):  # never compiles
            plain, timed = _jit(fn, False, x), _jit(fn, True, x)
            calls = {"no kernel": functools.partial(plain, x)}
            calls["kernel + trigger"] = functools.partial(timed, x)
            best = best_thread_times(calls, ROUNDS)
        print(name, " ".join(f"{k}: {v * 1e6:.1f} us" for k, v in best.items()))


def run(name: str, calls: int) -> None:
    fn, n = _cases()[name]
    x = jnp.ones(n)
    for label, on in (("never compiled", False), ("default trigger", True)):
        t0 = time.process_time()
        f = _jit(fn, on, x)
        first = None
        seen: list[bool] = []
        call = loop_compiled.LoopKernel.__call__

        def spy(
            self: loop_compiled.LoopKernel,
            *args: Any,
            call: Callable[..., Any] = call,
            seen: list[bool] = seen,
        ) -> Any:
            out = call(self, *args)
            seen.append(out is not None)
            return out

        loop_compiled.LoopKernel.__call__ = spy  # type: ignore[method-assign]
        for k in range(1, calls):
            before = len(seen)
            f(x)
            if first is None and any(seen[before:]):
                first = k
        spent = time.process_time() - t0
        loop_compiled.LoopKernel.__call__ = call  # type: ignore[method-assign]
        print(f"{name} {calls} calls, {label}: {spent:.3f} s CPU, first compiled call: {first}")


if __name__ == "__main__":
    if sys.argv[1] == "ab":
        ab()
    else:
        run(sys.argv[2], int(sys.argv[3]))
