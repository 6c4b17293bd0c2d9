"""Compiled loops as shared libraries (``interpreters/loop_native.py``): built once per host and
kernel, loaded by a later process without Numba, and giving the Python loop's bits.

No timing is asserted. Each test uses its own cache directory (``TRELLAX_CACHE_DIR``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.interpreters import fusion_runtime, loop_compiled, loop_native

if loop_native._host_key() is None:  # pragma: no cover - depends on the host
    pytest.skip("shared loop libraries need Linux and a C compiler", allow_module_level=True)

W = np.asarray(np.random.default_rng(5).standard_normal((12, 12)) / 3, np.float32)

PROGRAMS = """
import numpy as np
import trellax
import trellax.numpy as jnp
from trellax import lax

W = np.asarray(np.random.default_rng(5).standard_normal((12, 12)) / 3, np.float32)


def programs():
    w = jnp.asarray(W)

    def scan_grad(h):
        def loss(h):
            def body(h, _):
                h = jnp.tanh(w @ h + 0.1)
                return h, h.sum()

            return lax.scan(body, h, None, length=40)[1].sum()

        return trellax.grad(loss)(h)

    def fori(h):
        return lax.fori_loop(0, 40, lambda i, h: jnp.tanh(h @ w - 0.2), h)

    def while_(h):
        def body(c):
            return c[0] + 1, c[1] * 0.99 + jnp.sin(c[1])

        return lax.while_loop(lambda c: c[0] < 40, body, (0, h))[1]

    return {"scan_grad": scan_grad, "fori": fori, "while": while_}


def inputs():
    x = np.random.default_rng(7).standard_normal(12).astype(np.float32)
    x[3] = -0.0
    x[5] = 1e-40  # subnormal
    return x
"""
_ns: dict[str, Any] = {}
exec(PROGRAMS, _ns)


@pytest.fixture
def cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("TRELLAX_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(loop_native, "enabled", True)
    with fusion_runtime.fusion_options(compiled_loop_min=None):
        yield str(tmp_path)


def _kernels(fn: Callable[[Any], Any], x: Any) -> tuple[list[loop_compiled.LoopKernel], Any]:
    made: list[loop_compiled.LoopKernel] = []
    init = loop_compiled.LoopKernel.__init__

    def recorded(self: loop_compiled.LoopKernel, *a: Any, **k: Any) -> None:
        init(self, *a, **k)
        made.append(self)

    loop_compiled.LoopKernel.__init__ = recorded  # type: ignore[method-assign]
    try:
        f = trellax.jit(lambda h: fn(h))  # a new function: a program of its own
        f(x)
    finally:
        loop_compiled.LoopKernel.__init__ = init  # type: ignore[method-assign]
    return made, f


def _python_loop(fn: Callable[[Any], Any], x: Any) -> bytes:
    loop_compiled.enabled = False
    try:
        return np.asarray(trellax.jit(lambda h: fn(h))(x)).tobytes()
    finally:
        loop_compiled.enabled = True


def test_built_library_gives_the_python_loops_bits_here_and_in_a_fresh_process(
    cache: str,
) -> None:
    x = _ns["inputs"]()
    expected = {}
    for name, fn in _ns["programs"]().items():
        expected[name] = _python_loop(fn, x).hex()
        kernels, f = _kernels(fn, x)
        assert kernels, name
        for k in kernels:
            assert k.native is not None and k.native.fn is None  # not on disk yet
            k.native.build()
            assert k.native.error is None, k.native.error
            assert k.native.fn is not None and k.native.on_disk()
        answered: list[bool] = []
        call = loop_compiled.LoopKernel.__call__

        def recorded(
            self: loop_compiled.LoopKernel, *a: Any, call: Any = call, answered: Any = answered
        ) -> Any:
            out = call(self, *a)
            answered.append(out is not None)
            return out

        loop_compiled.LoopKernel.__call__ = recorded  # type: ignore[method-assign]
        try:
            got = np.asarray(f(x)).tobytes()
        finally:
            loop_compiled.LoopKernel.__call__ = call  # type: ignore[method-assign]
        assert answered and all(answered), name  # the library ran every loop
        assert got.hex() == expected[name], name
        # threads calling the same loop at once (each thread has its own scratch block)
        with ThreadPoolExecutor(4) as pool:
            outs = list(pool.map(lambda _, f=f: np.asarray(f(x)).tobytes(), range(64)))
        assert all(o.hex() == expected[name] for o in outs), name
    script = PROGRAMS + textwrap.dedent(
        """
        import json, sys
        from trellax._src.interpreters import loop_compiled
        answered = []
        call = loop_compiled.LoopKernel.__call__
        def recorded(self, *a):
            out = call(self, *a)
            answered.append(out is not None)
            return out
        loop_compiled.LoopKernel.__call__ = recorded
        out = {n: np.asarray(trellax.jit(f)(inputs())).tobytes().hex()
               for n, f in programs().items()}
        print(json.dumps([out, answered, "numba" in sys.modules, "llvmlite" in sys.modules]))
        """
    )
    env = dict(os.environ, TRELLAX_CACHE_DIR=cache, TRELLAX_COMPILED_LOOP_MIN="")
    env.pop("TRELLAX_COMPILED_LOOP_MIN")
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    import json

    out, answered, numba_loaded, llvmlite_loaded = json.loads(r.stdout.strip().splitlines()[-1])
    assert out == expected
    assert answered and all(answered)  # the first call of each loop already ran the library
    assert not numba_loaded and not llvmlite_loaded


def test_a_strided_matrix_falls_back(cache: str) -> None:
    w = jnp.asarray(W)

    def fori(h: Any) -> Any:
        return lax.fori_loop(0, 5, lambda i, h: jnp.tanh(w @ h), h)

    kernels, _ = _kernels(fori, np.ones(12, np.float32))
    native = kernels[0].native
    assert native is not None and native.load() is False  # nothing on disk
    full: list[Any] = [5, kernels[0].pointers]
    for ndim, dtype in native.kinds:
        full.append(np.ones((12,) * max(ndim, 0), dtype))
    assert native.arguments(full) is not None
    matrices = [i for i, a in enumerate(full) if isinstance(a, np.ndarray) and a.ndim == 2]
    assert matrices  # the weight matrix is a parameter of the kernel
    full[matrices[0]] = np.asfortranarray(full[matrices[0]][:, ::-1])
    assert native.arguments(full) is None


def test_a_broken_library_keeps_the_python_loop(cache: str) -> None:
    fn = _ns["programs"]()["while"]
    x = _ns["inputs"]()
    kernels, _ = _kernels(fn, x)
    native = kernels[0].native
    assert native is not None and native.path is not None
    with open(native.path + ".so", "wb") as f:
        f.write(b"not a library")
    with open(native.path + ".txt", "w") as f:
        f.write("entry 64\n")
    kernels2, f2 = _kernels(fn, x)
    n2 = kernels2[0].native
    assert n2 is not None and n2.failed and n2.fn is None and n2.error is not None
    assert np.asarray(f2(x)).tobytes() == _python_loop(fn, x)


def test_switches_and_kinds(cache: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert loop_native.kinds_of([3, np.zeros(2, np.uintp), np.zeros((2, 2))]) == [(2, "float64")]
    assert loop_native.kinds_of([3, None, np.float32(1)]) == [(-1, "float32")]
    assert loop_native.kinds_of([3, None, np.zeros(())]) is None  # a 0-d array operand
    assert loop_native.source("no kernel here", []) is None
    fn = _ns["programs"]()["fori"]
    monkeypatch.setattr(loop_native, "enabled", False)
    kernels, _ = _kernels(fn, _ns["inputs"]())
    assert kernels and all(k.native is None for k in kernels)
    monkeypatch.setattr(loop_native, "enabled", True)
    with fusion_runtime.fusion_options(compiled="off"):
        kernels, _ = _kernels(fn, _ns["inputs"]())
    assert all(k.native is None for k in kernels)


def test_a_loop_compiled_by_the_measured_rule_builds_its_library(
    cache: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = iter(range(10**6))
    monkeypatch.setattr(loop_compiled, "clock", lambda: float(next(ticks)))  # 1 s a loop
    monkeypatch.setattr(loop_compiled, "compile_cost", lambda kernel: 2.5)
    fn, x = _ns["programs"]()["while"], _ns["inputs"]()
    expected = _python_loop(fn, x)
    with fusion_runtime.fusion_options(compiled_wait=True):
        kernels, f = _kernels(fn, x)
        (k,) = kernels
        assert k.native is not None
        for _ in range(3):
            assert np.asarray(f(x)).tobytes() == expected
        assert k.ready is not None and k.ready.done  # due after 3 s of Python loop
        assert k.native.future is not None  # the library is queued for the next processes
        k.native.future.result()
        assert k.native.error is None and k.native.fn is not None and k.native.on_disk()
        assert np.asarray(f(x)).tobytes() == expected
    # the step-count setting (tests, benchmarks) compiles without building a library
    with fusion_runtime.fusion_options(compiled_loop_min=0, compiled_wait=True):
        kernels, f = _kernels(_ns["programs"]()["fori"], x)
    assert kernels and all(k.ready is not None for k in kernels)
    assert all(k.native is not None and k.native.future is None for k in kernels)
