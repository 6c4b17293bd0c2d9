"""Scatters with unique indices against JAX (golden data ``tests/golden/scatter_unique.json`` from
``tools/gen_golden_scatter_unique.py``, cases in ``tests/scatter_unique_cases.py``).

An ``.at[...]`` update through integers, slices, None and ``...`` promises unique (and sorted)
indices, as JAX's does; the promise makes ``.at[].multiply``/``.divide`` differentiable in their
values and gives ``scatter`` (set) a transpose. Values and first and second derivatives are
compared bit for bit (NaN where JAX has NaN), at finite points and with zeros of both signs,
infinities and NaN in the operand and the updates.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
import scatter_unique_cases as sc

import trellax
import trellax.numpy as tnp
from trellax import lax

GOLDEN: dict[str, Any] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "scatter_unique.json").read_text()
)


def _same(got: list[str], want: list[str], ulps: int = 0) -> bool:
    """Equal as float32 (NaN matches NaN, -0.0 only -0.0), or within ``ulps`` float32 ulps."""
    if len(got) != len(want):
        return False
    g = np.asarray([float(v) for v in got], np.float32)
    w = np.asarray([float(v) for v in want], np.float32)
    nan = np.isnan(w)
    if not np.array_equal(np.isnan(g), nan):
        return False
    g, w = g[~nan], w[~nan]
    if np.array_equal(g, w) and np.array_equal(np.signbit(g), np.signbit(w)):
        return True
    finite = np.isfinite(w)
    return (
        ulps > 0
        and np.array_equal(g[~finite], w[~finite])
        and bool(np.all(np.abs(g[finite] - w[finite]) <= ulps * np.spacing(np.abs(w[finite]))))
    )


def _compare(got: Any, want: Any, where: str, ulps: int) -> None:
    if isinstance(want, list) and want and isinstance(want[0], list):
        assert len(got) == len(want), where
        for k, (g, w) in enumerate(zip(got, want)):
            _compare(g, w, f"{where}[{k}]", ulps)
        return
    assert _same(got, want, ulps), f"{where}: trellax {got}, JAX {want}"


@pytest.mark.parametrize("name", sorted(sc.CASES))
@pytest.mark.parametrize("point", range(len(sc.POINTS)))
def test_values_and_derivatives(name: str, point: int) -> None:
    want = GOLDEN["cases"][name][point]
    x, y = sc.POINTS[point]
    got = sc.measure(sc.build(sc.CASES[name], trellax), x, y, trellax)
    assert set(got) == set(want)
    for key in sorted(want):
        _compare(got[key], want[key], f"{name} {key}", sc.ULPS.get(name, 0))


@pytest.mark.parametrize("index", sc.FLAGS)
@pytest.mark.parametrize("vmapped", [False, True])
def test_flags_set_by_the_index(index: str, vmapped: bool) -> None:
    """``unique_indices``/``indices_are_sorted`` of ``x.at[index].multiply(y)``: True for
    integers (static, NumPy or traced 0-d), slices, None and ``...``; False once an index array
    or a boolean (``True`` included) appears."""
    key = "flags_vmap" if vmapped else "flags"
    assert sc.flags_of(index, trellax, vmapped) == GOLDEN[key][index]


@pytest.mark.parametrize("name", sorted(sc.ERRORS))
def test_errors_without_the_promise(name: str) -> None:
    """Without unique indices, a derivative of ``scatter_mul`` in its updates and the transpose
    of ``scatter`` raise JAX's NotImplementedError and text."""
    assert sc.error_of(sc.ERRORS[name], trellax) == GOLDEN["errors"][name]


def test_promises_printed_in_the_jaxpr() -> None:
    x = tnp.ones((3, 4), tnp.float32)
    text = str(trellax.make_jaxpr(lambda x, y: x.at[1].multiply(y))(x, 2.0))
    assert "indices_are_sorted=True" in text and "unique_indices=True" in text
    text = str(trellax.make_jaxpr(lambda x, y: x.at[tnp.array([0, 0])].set(y))(x, 2.0))
    assert "indices_are_sorted=False" in text and "unique_indices=False" in text


def test_caller_promises_are_added() -> None:
    """The caller's flags join the index's own: a promise on an index array is kept, a
    ``False`` on integers does not withdraw theirs (as in JAX)."""
    x = tnp.ones((5,), tnp.float32)
    idx = tnp.array([3, 0])
    j = trellax.make_jaxpr(lambda x: x.at[idx].set(1.0, indices_are_sorted=True))(x)
    assert sc.scatter_flags(j) == [["scatter", False, True]]
    j = trellax.make_jaxpr(lambda x: x.at[2].set(1.0, unique_indices=False))(x)
    assert sc.scatter_flags(j) == [["scatter", True, True]]
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    f = lambda x: lax.scatter_add(x, idx[:, None], tnp.ones(2), dn, unique_indices=True)  # noqa: E731
    assert sc.scatter_flags(trellax.make_jaxpr(f)(x)) == [["scatter-add", True, False]]


def test_unique_scatter_gradients_keep_their_flags() -> None:
    """The tangent of a scatter with unique indices is a scatter with the same promise (the
    transpose sets the overwritten cotangents to zero with one more), and the tangent in the
    updates of ``scatter_mul`` is a ``scatter-add`` promising the same."""
    x = tnp.arange(5.0)
    g = trellax.make_jaxpr(trellax.grad(lambda x, y: x.at[1:4].set(y).sum(), argnums=(0, 1)))
    assert ["scatter", True, True] in sc.scatter_flags(g(x, tnp.ones(3)))

    def tangent(y: Any, t: Any) -> Any:
        return trellax.jvp(lambda y: x.at[1:4].multiply(y), (y,), (t,))[1]

    flags = sc.scatter_flags(trellax.make_jaxpr(tangent)(tnp.ones(3), tnp.ones(3)))
    assert ["scatter-add", True, True] in flags


def test_vmap_keeps_the_promise() -> None:
    """Batching a unique scatter gives a unique scatter (each batch element writes its own
    slice), and its gradient under ``vmap`` is the per-element gradient."""
    x = tnp.asarray(np.arange(10.0, dtype=np.float32).reshape(2, 5))
    y = tnp.asarray(np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], np.float32))
    f = lambda x, y: x.at[1:4].multiply(y).sum()  # noqa: E731
    batched = trellax.vmap(trellax.grad(f, argnums=1))(x, y)
    rows = [trellax.grad(f, argnums=1)(x[i], y[i]) for i in range(2)]
    np.testing.assert_array_equal(np.asarray(batched), np.stack([np.asarray(r) for r in rows]))
    j = trellax.make_jaxpr(trellax.vmap(lambda x, y: x.at[1:4].multiply(y)))(x, y)
    assert sc.scatter_flags(j) == [["scatter-mul", True, True]]
