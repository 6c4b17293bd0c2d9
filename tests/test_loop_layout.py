"""Loop bodies with their products' layout settled when the program is generated and small
matrix-vector products written into loop buffers (``specialize.known_layout``,
``specialize.dot_out``; issue 23). Programs generated with both switches on, with both off, and
without any specialization must give the same bytes: random RNN sizes and dtypes under
``jit(grad)`` of ``scan``, ``fori_loop`` and ``while_loop``, carries that start strided, and a
carry that is not contiguous at every step (its check stays in the loop)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters import fusion_runtime, specialize, tracing

SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 1e-40, 3e38, -3e38]


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    yield
    specialize.enabled = True
    specialize.known_layout = True
    specialize.dot_out = True


def _programs(f: Callable[..., Any], *args: Any) -> tuple[list[Callable[..., Any]], str]:
    """``f`` compiled without specializations, with them but without this change, and with
    everything on (compiled loops never due); the last one's source."""
    closed = trellax.jit(f).lower(*args).jaxpr
    progs = []
    with fusion_runtime.fusion_options(compiled_loop_min=10**12):
        for spec, new in ((False, False), (True, False), (True, True)):
            specialize.enabled = spec
            specialize.known_layout = specialize.dot_out = new
            progs.append(tracing.compile_jaxpr(closed))
    specialize.enabled = specialize.known_layout = specialize.dot_out = True
    return progs, progs[-1].__doc__ or ""


def _bytes(outs: Any) -> bytes:
    return b"".join(np.asarray(o).tobytes() + str(np.asarray(o).dtype).encode() for o in outs)


def _same(f: Callable[..., Any], *args: Any) -> str:
    progs, text = _programs(f, *args)
    flat = trellax.tree_util.tree_leaves(args)
    with np.errstate(all="ignore"):
        first = [p(*flat) for p in progs]
        want = _bytes(first[0])
        for outs in first[1:]:
            assert _bytes(outs) == want
        kept = [np.asarray(o).copy() for o in first[-1]]
        progs[-1](*flat)  # a second call must not write into the first call's results
    assert _bytes(first[-1]) == _bytes(kept)
    return text[text.index("def run(") :]


def _rnn_loss(w: Any, h0: Any, xs: Any) -> Any:
    def body(h: Any, x: Any) -> tuple[Any, Any]:
        h = tnp.tanh(w @ h + x) + tnp.tanh(h @ w)
        return h, h.sum()

    return lax.scan(body, h0, xs)[1].sum()


def _loop_lines(text: str) -> list[str]:
    """The lines inside the generated Python loops (deeper than the loop statement)."""
    lines = text.splitlines()
    inside: list[str] = []
    depth: int | None = None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if depth is not None and indent > depth:
            inside.append(line)
            continue
        depth = None
        if line.lstrip().startswith(("for ", "while ")):
            depth = indent
    return inside


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scan_grad_random_sizes_same_bits(dtype: Any) -> None:
    r = np.random.default_rng(11 if dtype == np.float32 else 12)
    for n in sorted({2, 3, *r.integers(2, 48, 6).tolist(), 64}):
        length = int(r.integers(1, 9))
        w = (r.standard_normal((n, n)) * r.uniform(0.1, 2)).astype(dtype)
        h0 = r.standard_normal(n).astype(dtype)
        xs = r.standard_normal((length, n)).astype(dtype)
        if n % 3 == 0:
            h0[r.integers(0, n)] = r.choice(SPECIAL)
            w.flat[r.integers(0, n * n)] = r.choice(SPECIAL)
        with trellax.enable_x64(dtype == np.float64):
            text = _same(trellax.grad(_rnn_loss, argnums=(0, 1, 2)), w, h0, xs)
        body = _loop_lines(text)
        dots = [line for line in body if "# dot_general" in line]
        assert dots and all(".flags.forc" not in line for line in dots), text
        assert any("out=" in line for line in dots), text


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fori_and_while_random_sizes_same_bits(dtype: Any) -> None:
    r = np.random.default_rng(21)
    for n in (2, 5, 16, 31):
        w = (r.standard_normal((n, n)) * 0.7).astype(dtype)  # a NumPy constant of its dtype
        h0 = r.standard_normal(n).astype(dtype)

        def fori(h: Any, w: Any = w) -> Any:
            return lax.fori_loop(0, 6, lambda i, h: tnp.tanh(w @ h + 0.1) * 0.5 + h @ w, h)

        def while_(h: Any, w: Any = w) -> Any:
            def step(c: Any, w: Any = w) -> Any:
                return c[0] + 1, tnp.sin(c[1] @ w) + c[1] * 0.25

            return lax.while_loop(lambda c: c[0] < 5, step, (0, h))[1]

        with trellax.enable_x64(dtype == np.float64):
            for f in (fori, while_):
                text = _same(f, h0)
                body = _loop_lines(text)
                assert not any(".flags.forc" in line for line in body), text


def test_strided_initial_carry_keeps_matmul_bits() -> None:
    # the flag computed before the loop sends every step to matmul when the first carry is
    # strided: the same bits as the plain path (matmul of the later, contiguous carries is
    # np.dot's gemv)
    r = np.random.default_rng(3)
    w = tnp.asarray((r.standard_normal((12, 12)) * 0.5).astype(np.float32))
    f = lambda h: lax.fori_loop(0, 4, lambda i, h: tnp.tanh(w @ h) + h @ w, h)  # noqa: E731
    big = r.standard_normal(36).astype(np.float32)
    for h0 in (big[::3], big[::-3], big[:12]):
        progs, _ = _programs(f, big[:12])
        with np.errstate(all="ignore"):
            outs = [_bytes(p(h0)) for p in progs]
        assert outs[0] == outs[1] == outs[2]


def test_carry_not_always_contiguous_is_checked_every_step() -> None:
    # the new carry is a reversed view of the product: its layout is checked where it is used
    w = tnp.asarray(np.random.default_rng(4).standard_normal((9, 9)).astype(np.float32))
    f = lambda h: lax.fori_loop(0, 5, lambda i, h: tnp.flip(tnp.tanh(w @ h)), h)  # noqa: E731
    text = _same(f, np.linspace(-1, 1, 9, dtype=np.float32))
    dots = [line for line in _loop_lines(text) if "# dot_general" in line]
    assert dots and all(".flags.forc" in line for line in dots), text


def test_special_values_and_products_into_rows() -> None:
    # a stacked output that is itself the product: written into its row of ys
    w = np.eye(8, dtype=np.float32) * 0.75
    for v in SPECIAL:
        h0 = np.full(8, 0.5, np.float32)
        h0[3] = v

        def f(h: Any) -> Any:
            def body(h: Any, _: Any) -> tuple[Any, Any]:
                y = w @ h
                return tnp.tanh(y), y

            return lax.scan(body, h, None, length=4)

        text = _same(f, h0)
        assert "out=r" in text, text


def test_switches_off_give_the_old_program() -> None:
    w = tnp.eye(6) * 0.5
    f = lambda h: lax.fori_loop(0, 3, lambda i, h: tnp.tanh(w @ h), h)  # noqa: E731
    progs, _ = _programs(f, np.ones(6, np.float32))
    old = progs[1].__doc__ or ""
    assert "out=" not in old
    assert any(".flags.forc" in line for line in _loop_lines(old[old.index("def run(") :]))
