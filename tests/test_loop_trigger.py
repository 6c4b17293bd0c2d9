"""When a loop is compiled (``LoopKernel.due`` in ``interpreters/loop_compiled.py``): once its
Python loop has cost the estimated compile time, or after ``compiled_loop_min`` steps when set.

No timing is asserted: the trigger's clock and cost estimate are replaced by fakes, so each test
decides exactly which call compiles; results are compared bit for bit with the Python loop's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime, loop_compiled, loop_native

W = np.asarray(np.random.default_rng(3).standard_normal((8, 8)) / 3, np.float32)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Any, bool]]]:
    """Each call of a loop kernel: (the kernel, whether the compiled loop answered); a fake
    clock advancing 1 s per reading; measured trigger (no step count), waiting compiles. The
    shared libraries of ``loop_native`` are off: a host that has one loads it at the first
    call (``tests/test_loop_native.py``)."""
    calls: list[tuple[Any, bool]] = []
    call = loop_compiled.LoopKernel.__call__

    def recorded(self: loop_compiled.LoopKernel, *args: Any) -> Any:
        out = call(self, *args)
        calls.append((self, out is not None))
        return out

    ticks = iter(range(10**6))
    monkeypatch.setattr(loop_compiled.LoopKernel, "__call__", recorded)
    monkeypatch.setattr(loop_compiled, "clock", lambda: float(next(ticks)))
    monkeypatch.setattr(loop_native, "enabled", False)
    with fusion_runtime.fusion_options(compiled_loop_min=None, compiled_wait=True):
        yield calls


def _programs() -> dict[str, Callable[[Any], Any]]:
    w = jnp.asarray(W)

    def scan_grad(h: Any) -> Any:
        def loss(h: Any) -> Any:
            def body(h: Any, _: Any) -> Any:
                h = jnp.tanh(w @ h + 0.1)
                return h, h.sum()

            return lax.scan(body, h, None, length=30)[1].sum()

        return trellax.grad(loss)(h)

    def fori(h: Any) -> Any:
        return lax.fori_loop(0, 30, lambda i, h: jnp.tanh(w @ h + 0.2), h)

    def while_(h: Any) -> Any:
        def body(c: Any) -> Any:
            return c[0] + 1, c[1] * 0.99 + jnp.sin(c[1])

        return lax.while_loop(lambda c: c[0] < 30, body, (0, h))[1]

    return {"scan_grad": scan_grad, "fori": fori, "while": while_}


def _reference(fn: Callable[[Any], Any], x: Any) -> bytes:
    loop_compiled.enabled = False
    try:
        return np.asarray(trellax.jit(lambda h: fn(h))(x)).tobytes()
    finally:
        loop_compiled.enabled = True


@pytest.mark.parametrize("name", ["scan_grad", "fori", "while"])
def test_compiles_once_the_loop_cost_its_compile_time(
    seen: list[tuple[Any, bool]], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # each Python loop costs 1 fake second; compiling is estimated at 2.5 s: calls 1-3 run the
    # Python loop (0, 1, 2 s spent before them), the fourth compiles and runs the kernel
    monkeypatch.setattr(loop_compiled, "compile_cost", lambda kernel: 2.5)
    fn = _programs()[name]
    x = jnp.asarray(np.linspace(-1, 1, 8, dtype=np.float32))
    want = _reference(fn, x)
    f = trellax.jit(lambda h: fn(h))
    for k in range(6):
        assert np.asarray(f(x)).tobytes() == want
        kernels = {id(kern) for kern, _ in seen}
        answered = [ok for _, ok in seen]
        per_call = len(answered) // (k + 1)
        assert per_call == len(kernels) >= 1
        assert not any(answered[: 3 * per_call])
        assert all(answered[3 * per_call :])
    assert all(kern.spent == 3.0 for kern, _ in seen)


def test_step_count_setting_replaces_the_measured_rule(seen: list[tuple[Any, bool]]) -> None:
    fn = _programs()["fori"]
    x = jnp.ones(8)
    f = trellax.jit(lambda h: fn(h))
    with fusion_runtime.fusion_options(compiled_loop_min=60):  # 30 steps a call: the 2nd call
        outs = [np.asarray(f(x)).tobytes() for _ in range(3)]
    assert [ok for _, ok in seen] == [False, True, True]
    assert len(set(outs)) == 1 and outs[0] == _reference(fn, x)


def test_compile_cost_estimate() -> None:
    k = compiled.kernel(f"@_kernel\ndef kernel(n):\n    return n + {np.random.randint(1 << 30)}\n")
    assert not compiled.compiled_in_process(k)
    first = 0.0 if compiled.used() else loop_compiled.FIRST_USE
    if compiled.on_disk(k):
        assert loop_compiled.compile_cost(k) == first + loop_compiled.LOAD
    else:
        cold = 0.0 if loop_compiled._compiled_cold else loop_compiled.FIRST_COMPILE
        assert loop_compiled.compile_cost(k) == first + loop_compiled.COMPILE + cold
    assert k.load()(1) >= 1
    assert compiled.used() and compiled.compiled_in_process(k)
    assert loop_compiled.compile_cost(k) == 0.0  # another jit of the same loop: at once


def test_second_jit_of_a_compiled_loop_compiles_at_its_first_call(
    seen: list[tuple[Any, bool]],
) -> None:
    fn = _programs()["fori"]
    x = jnp.ones(8)
    with fusion_runtime.fusion_options(compiled_loop_min=0):
        trellax.jit(lambda h: fn(h))(x)  # compiled in this process
    g = trellax.jit(lambda h: fn(h))
    assert np.asarray(g(x)).tobytes() == _reference(fn, x)
    assert [ok for _, ok in seen] == [True, True]


@pytest.mark.parametrize("background", [False, True])
def test_compile_failure_keeps_the_python_loop(
    seen: list[tuple[Any, bool]], monkeypatch: pytest.MonkeyPatch, background: bool
) -> None:
    def failing(warmups: Any, wait: bool) -> compiled.Ready:
        if not background:
            raise RuntimeError("no compiler today")
        ready = compiled.Ready()
        ready.error = RuntimeError("no compiler today")  # as the background thread leaves it
        return ready

    monkeypatch.setattr(compiled, "prepare", failing)
    fn = _programs()["scan_grad"]
    x = jnp.asarray(np.linspace(-1, 1, 8, dtype=np.float32))
    f = trellax.jit(lambda h: fn(h))
    with fusion_runtime.fusion_options(compiled_loop_min=0):
        for _ in range(3):
            assert np.asarray(f(x)).tobytes() == _reference(fn, x)
    assert seen and not any(ok for _, ok in seen)
    assert all(kern.failed and isinstance(kern.error, RuntimeError) for kern, _ in seen)


def test_environment_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRELLAX_COMPILED_LOOP_MIN", raising=False)
    assert fusion_runtime._from_env().compiled_loop_min is None
    monkeypatch.setenv("TRELLAX_COMPILED_LOOP_MIN", "0")
    assert fusion_runtime._from_env().compiled_loop_min == 0
    monkeypatch.setenv("TRELLAX_COMPILED_LOOP_MIN", "-3")
    with pytest.raises(ValueError, match="TRELLAX_COMPILED_LOOP_MIN"):
        fusion_runtime._from_env()
    options = fusion_runtime.fusion_options(compiled_loop_min=-1)
    with pytest.raises(ValueError, match="compiled_loop_min"), options:
        pass
