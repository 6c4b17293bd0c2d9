"""Fused regions inside control-flow bodies (``cond``/``switch``, ``while_loop``/``fori_loop``,
``scan``): bit-identical to the unfused program, with the region's call inside the loop or
branch and its chunk function at the top of the generated module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters.fusion_runtime import fusion_options


def fused_and_unfused(f: Callable[..., Any], *args: Any) -> tuple[list[Any], list[Any], str]:
    with fusion_options(chunk=7, min_elements=0):
        lowered = trellax.jit(f).lower(*args)
        fused, text = lowered.compile(), lowered.as_text()
    with fusion_options(enabled=False):
        unfused = trellax.jit(f).lower(*args).compile()
    got = trellax.tree_util.tree_leaves(fused(*args))
    want = trellax.tree_util.tree_leaves(unfused(*args))
    return got, want, text


def assert_identical(got: list[Any], want: list[Any]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.dtype, g.weak_type, g.shape) == (w.dtype, w.weak_type, w.shape)
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes()


def chain(x: Any) -> Any:
    return ((x * 0.75 + 0.25) ** 2 - tnp.sin(x)) * 0.5


PROGRAMS: dict[str, Callable[[Any], Any]] = {
    "fori_loop": lambda x: lax.fori_loop(0, 3, lambda i, x: chain(x), x),
    # the index (a NumPy scalar inside the loop) broadcast into the region
    "fori_index": lambda x: lax.fori_loop(0, 3, lambda i, x: chain(x) * i + i, x),
    "while_loop": lambda x: lax.while_loop(
        lambda c: c[0] < 3, lambda c: (c[0] + 1, chain(c[1]), c[2] + c[1].sum()), (0, x, 0.0)
    )[1:],
    "cond": lambda x: lax.cond(x[1, 3] > 0, chain, lambda x: x * 2 - 1, x),
    "cond_false": lambda x: lax.cond(x[1, 3] > 100, lambda x: x * 2 - 1, chain, x),
    "switch": lambda x: lax.switch(1, [lambda x: x + 1, chain, lambda x: x], x),
    "scan": lambda x: lax.scan(
        lambda c, r: (c + chain(r), (r * 3) ** 2), tnp.zeros(x.shape[1], x.dtype), x
    ),
    "nested": lambda x: lax.fori_loop(
        0, 2, lambda i, x: lax.cond(i > 0, chain, lambda y: y - 1, x), x
    ),
    "row_sums_in_loop": lambda x: lax.fori_loop(
        0, 2, lambda i, x: x - tnp.mean(x * x, axis=-1, keepdims=True), x
    ),
}


def special(dtype: Any) -> Any:
    d = np.dtype(dtype)
    rng = np.random.default_rng(3)
    vals = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-40, 1.0, -1.0]
    body = rng.standard_normal(6 * 15 - len(vals))
    return tnp.asarray(np.concatenate([vals, body]).astype(d).reshape(6, 15))


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_bodies_are_fused_and_bit_identical(name: str, dtype: str) -> None:
    x = special(getattr(ml_dtypes, dtype, dtype))
    got, want, text = fused_and_unfused(PROGRAMS[name], x)
    assert_identical(got, want)
    assert "# fused region" in text
    run = text[text.index("def run(") :]
    # the region is called from inside the body (indented deeper than run's own statements)
    assert any(
        line.startswith("        ") and "_run_region(" in line for line in run.splitlines()
    ), run


def test_body_regions_with_excess_precision() -> None:
    x = special(ml_dtypes.bfloat16)
    f = PROGRAMS["fori_loop"]
    with trellax.fused_excess_precision():
        got, _, text = fused_and_unfused(f, x)
    assert "excess precision" in text
    # each iteration's region rounds its output (the carry) once
    y = np.asarray(x).astype(np.float32)
    with np.errstate(all="ignore"):
        for _ in range(3):
            y = ((y * 0.75 + 0.25) ** 2 - np.sin(y)) * 0.5
            y = y.astype(ml_dtypes.bfloat16).astype(np.float32)
    g = np.asarray(got[0]).astype(np.float32)
    assert np.array_equal(g, y, equal_nan=True)


def test_eager_control_flow_is_fused_too() -> None:
    """Eager ``fori_loop`` runs a compiled program; its body is planned like under ``jit``."""
    x = tnp.asarray(np.linspace(-2, 2, 300_000, dtype=np.float32))
    body = lambda i, x: chain(x)  # noqa: E731
    want = x
    for _ in range(2):
        want = chain(want)
    got = lax.fori_loop(0, 2, body, x)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
