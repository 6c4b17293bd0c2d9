"""Small matrix-vector products in generated programs call ``np.dot`` instead of ``np.matmul``
(``specialize.dot_gemv``, issue 23): the same BLAS ``gemv`` call, so the same bits. These tests
compare the two NumPy functions directly over sizes, layouts and special values, and programs
generated with and without the switch (and without any specialization)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters import specialize, tracing

SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 1e-40, 3e38, -3e38]


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    yield
    specialize.dot_gemv = True
    specialize.enabled = True


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_dot_is_matmul_for_matrix_vector(dtype: Any) -> None:
    r = np.random.default_rng(0)
    sizes = [*range(2, 40), 64, 65, 127, 257]
    for m in sizes[::3]:
        for n in sizes:
            scale = np.exp2(r.integers(-20, 20, (m, n))).astype(dtype)
            a = r.standard_normal((m, n)).astype(dtype) * scale
            if (m + n) % 3 == 0:
                a.flat[r.integers(0, m * n, 3)] = r.choice(SPECIAL, 3)
            x, y = r.standard_normal(n).astype(dtype), r.standard_normal(m).astype(dtype)
            for aa in (a, np.asfortranarray(a)):
                for p, q in ((aa, x), (x, aa.T), (aa.T, y), (y, aa)):
                    with np.errstate(all="ignore"):
                        want, got = np.matmul(p, q), np.dot(p, q)
                    assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (m, n)


def _three(f: Callable[..., Any], *args: Any) -> tuple[list[bytes], str]:
    closed = trellax.jit(f).lower(*args).jaxpr
    flat = [np.asarray(a) for a in trellax.tree_util.tree_leaves(args)]
    outs, text = [], ""
    for spec, dot in ((False, False), (True, False), (True, True)):
        specialize.enabled, specialize.dot_gemv = spec, dot
        prog = tracing.compile_jaxpr(closed)
        outs.append(b"".join(np.asarray(o).tobytes() for o in prog(*flat)))
        text = prog.__doc__ or ""
    specialize.enabled, specialize.dot_gemv = True, True
    return outs, text[text.index("def run(") :]


def _rnn(w: Any, h0: Any, xs: Any) -> Any:
    def body(h: Any, x: Any) -> tuple[Any, Any]:
        h = tnp.tanh(w @ h + x) + tnp.tanh(h @ w)
        return h, h.sum()

    return lax.scan(body, h0, xs)[1].sum()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [2, 3, 16, 33])
def test_scan_grad_same_bits(dtype: Any, n: int) -> None:
    r = np.random.default_rng(n)
    w = (r.standard_normal((n, n)) * 0.5).astype(dtype)
    h0 = r.standard_normal(n).astype(dtype)
    h0[0] = -0.0
    xs = r.standard_normal((7, n)).astype(dtype)
    with trellax.enable_x64(dtype == np.float64):
        outs, text = _three(trellax.grad(_rnn, argnums=(0, 1)), w, h0, xs)
    assert outs[0] == outs[1] == outs[2]
    assert ".flags.forc" in text  # the dot path was generated


def test_special_values_in_carry() -> None:
    w = np.eye(8, dtype=np.float32) * 0.75
    for v in SPECIAL:
        h0 = np.full(8, 0.5, np.float32)
        h0[3] = v
        f = lambda h: lax.fori_loop(0, 5, lambda i, h: tnp.tanh(w @ h + 0.1), h)  # noqa: E731
        outs, _ = _three(f, h0)
        assert outs[0] == outs[1] == outs[2]


def test_layouts_that_fall_back_to_matmul() -> None:
    # a strided matrix, a Fortran-ordered one and a reversed vector: the guard sends the
    # strided ones to matmul (its own loop, other bits than BLAS); results equal the plain path
    r = np.random.default_rng(3)
    big = r.standard_normal((12, 24)).astype(np.float32)
    f = lambda w, v: w @ v + v @ w.T  # noqa: E731
    for w in (big[:, ::2], np.asfortranarray(big[:, :12]), big[:, :12]):
        for v in (r.standard_normal(24).astype(np.float32)[::-2], np.ones(12, np.float32)):
            closed = trellax.jit(f).lower(w, v).jaxpr
            specialize.enabled = False
            want = np.asarray(tracing.compile_jaxpr(closed)(w, v)[0])
            specialize.enabled = True
            got = np.asarray(tracing.compile_jaxpr(closed)(w, v)[0])
            assert got.tobytes() == want.tobytes()


def test_shapes_left_to_matmul() -> None:
    # a side of 1, integers, matrix-matrix: np.dot would pick another routine; not generated
    for w, v in (
        (np.ones((1, 5), np.float32), np.ones(5, np.float32)),
        (np.ones((5, 5), np.int32), np.ones(5, np.int32)),
        (np.ones((5, 5), np.float32), np.ones((5, 2), np.float32)),
    ):
        outs, text = _three(lambda w, v: w @ v, w, v)
        assert outs[0] == outs[1] == outs[2]
        assert "dot(" not in text.replace("# dot_general", "")
        # float operands are checked for a layout BLAS takes; integers never reach BLAS
        assert (".flags.forc" in text) == (w.dtype.kind == "f")


def test_layouts_blas_cannot_take_give_the_bits_of_contiguous_operands() -> None:
    # NumPy's matmul sends a stride-0 or strided operand to its own loop, which sums in another
    # order than BLAS on some CPUs; the kernel and generated programs copy such operands first
    r = np.random.default_rng(7)
    w = r.standard_normal((6, 6)).astype(np.float32)
    wide = r.standard_normal((6, 12)).astype(np.float32)
    for v in (
        np.broadcast_to(np.float32(1.5), (6,)),
        wide[0, ::2],
        np.arange(6.0, dtype=np.float32),
    ):
        want = np.matmul(np.ascontiguousarray(v), w.T).tobytes()
        jitted = trellax.jit(lambda v: lax.dot_general(v, tnp.asarray(w), (((0,), (1,)), ((), ()))))
        assert np.asarray(jitted(v)).tobytes() == want
        eager = lax.dot_general(tnp.asarray(v), tnp.asarray(w), (((0,), (1,)), ((), ())))
        assert np.asarray(eager).tobytes() == want
    # a broadcast inside the program (a view in the kernel, a copy in the specialized program)
    f = trellax.grad(lambda x: (tnp.tanh(tnp.asarray(w) @ x) @ tnp.asarray(w)).sum())
    outs, _ = _three(f, np.arange(6.0, dtype=np.float32))
    assert outs[0] == outs[1] == outs[2]


def _fori_closing_over(wc: Any) -> Callable[[Any], Any]:
    return lambda h: lax.fori_loop(0, 4, lambda i, h: tnp.tanh(wc @ h) + tnp.tanh(h @ wc), h)


def test_constant_matrix_checked_when_generated() -> None:
    # a loop's weight matrix closed over: its layout is checked when the program is generated;
    # the carry's once before the loop (every later carry is a loop buffer: contiguous)
    r = np.random.default_rng(5)
    h0 = np.linspace(-2, 2, 9, dtype=np.float32)
    for w in (r.standard_normal((9, 9)).astype(np.float32), r.standard_normal((9, 18))[:, ::2]):
        outs, text = _three(_fori_closing_over(tnp.asarray(w, dtype=tnp.float32)), h0)
        assert outs[0] == outs[1] == outs[2]
        lines = [line for line in text.splitlines() if "# dot_general" in line]
        assert len(lines) == 2
        assert all(".flags.forc" not in line and " if q" in line for line in lines), lines
        assert text.count(".flags.forc") == 1, text
