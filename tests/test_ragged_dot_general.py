"""``lax.ragged_dot_general`` in its three modes (the lhs ragged dimension non-contracting,
contracting or batch), against a loop over the groups written with NumPy, and JAX's checks of
the dimension numbers and of ``group_sizes``'s shape (``TypeError``, JAX's words).

Before branch ``jt15`` only ``ragged_dot``'s layout was accepted (``NotImplementedError``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax

R = lax.RaggedDotDimensionNumbers


def _groups(sizes: Sequence[int], n: int) -> np.ndarray:
    """group[r] for each of ``n`` positions (-1 past the last group)."""
    out = np.full(n, -1)
    start = 0
    for i, s in enumerate(sizes):
        out[start : start + s] = i
        start += s
    return out


def _noncontracting_reference(a: np.ndarray, b: np.ndarray, gs: np.ndarray) -> np.ndarray:
    # a [B, M, K] ragged along M with sizes gs [B, G]; b [G, B, K, N] grouped along axis 0
    bsz, m, _ = a.shape
    out = np.zeros((bsz, m, b.shape[-1]))
    for i in range(bsz):
        group = _groups(gs[i], m)
        for r in range(m):
            if group[r] >= 0:
                out[i, r] = a[i, r].astype(np.float64) @ b[group[r], i].astype(np.float64)
    return out


def _contracting_reference(a: np.ndarray, b: np.ndarray, gs: np.ndarray) -> np.ndarray:
    # a [B, M, K] ragged along K with sizes gs [B, G]; b [B, K, N]; out [G, B, M, N]
    bsz, m, k = a.shape
    g = gs.shape[-1]
    out = np.zeros((g, bsz, m, b.shape[-1]))
    for i in range(bsz):
        group = _groups(gs[i], k)
        for j in range(g):
            sel = group == j
            out[j, i] = a[i][:, sel].astype(np.float64) @ b[i][sel].astype(np.float64)
    return out


@pytest.mark.parametrize("sizes", [[[2, 1, 3], [1, 4, 1]], [[1, 1, 1], [0, 2, 1]]])
def test_noncontracting_with_a_batch_prefix(sizes: list[list[int]]) -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 6, 5)).astype(np.float32)
    b = rng.standard_normal((3, 2, 5, 7)).astype(np.float32)
    gs = np.array(sizes, np.int32)
    dn = R(
        dot_dimension_numbers=(([2], [2]), ([0], [1])),
        lhs_ragged_dimensions=[1],
        rhs_group_dimensions=[0],
    )
    out = lax.ragged_dot_general(a, b, gs, dn)
    assert out.shape == (2, 6, 7)
    np.testing.assert_allclose(out, _noncontracting_reference(a, b, gs), rtol=1e-5, atol=1e-5)
    jitted = trellax.jit(lambda a, b, g: lax.ragged_dot_general(a, b, g, dn))(a, b, gs)
    np.testing.assert_allclose(jitted, out, rtol=1e-6, atol=1e-6)


def test_contracting_with_a_batch_prefix() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 11, 5)).astype(np.float32)
    b = rng.standard_normal((2, 5, 7)).astype(np.float32)
    gs = np.array([[2, 1, 2], [0, 3, 1]], np.int32)  # the second leaves one position out
    dn = R(
        dot_dimension_numbers=(([2], [1]), ([0], [0])),
        lhs_ragged_dimensions=[2],
        rhs_group_dimensions=[],
    )
    out = lax.ragged_dot_general(a, b, gs, dn)
    assert out.shape == (3, 2, 11, 7)
    np.testing.assert_allclose(out, _contracting_reference(a, b, gs), rtol=1e-5, atol=1e-5)


def test_contracting_one_dimensional_group_sizes() -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((11, 5)).astype(np.float32)
    b = rng.standard_normal((5, 7)).astype(np.float32)
    dn = R(
        dot_dimension_numbers=(([1], [0]), ([], [])),
        lhs_ragged_dimensions=[1],
        rhs_group_dimensions=[],
    )
    out = lax.ragged_dot_general(a, b, np.array([2, 1, 1], np.int32), dn)
    expected = _contracting_reference(a[None], b[None], np.array([[2, 1, 1]]))[:, 0]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_ragged_batch_is_a_dot_general() -> None:
    # JAX's values: the groups drop nothing, even positions past the last group
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 11, 5)).astype(np.float32)
    b = rng.standard_normal((4, 5, 7)).astype(np.float32)
    dn = R(
        dot_dimension_numbers=(([2], [1]), ([0], [0])),
        lhs_ragged_dimensions=[0],
        rhs_group_dimensions=[],
    )
    out = lax.ragged_dot_general(a, b, np.array([1, 2], np.int32), dn)
    np.testing.assert_allclose(out, np.einsum("bmk,bkn->bmn", a, b), rtol=1e-5, atol=1e-5)


def test_shapes_under_eval_shape_and_rank_promotion_raise() -> None:
    dn = R(
        dot_dimension_numbers=(([2], [1]), ([0], [0])),
        lhs_ragged_dimensions=[2],
        rhs_group_dimensions=[],
    )
    with trellax.numpy_rank_promotion("raise"):
        out = trellax.eval_shape(
            lambda a, b, g: lax.ragged_dot_general(a, b, g, dn),
            tnp.ones((2, 11, 5)),
            tnp.ones((2, 5, 7)),
            tnp.ones((2, 3), tnp.int32),
        )
    assert out.shape == (3, 2, 11, 7)


@pytest.mark.parametrize(
    ("lhs", "rhs", "gs", "dn", "message"),
    [
        (
            (11, 5),
            (3, 5, 7),
            (3,),
            R((([1], [1]), ([], [])), [0, 1], [0]),
            "exactly one lhs ragged",
        ),
        (
            (11, 5),
            (3, 5, 7),
            (3,),
            R((([1], [1]), ([], [])), [2], [0]),
            "lhs ragged dimension numbers",
        ),
        (
            (11, 5),
            (3, 5, 7),
            (2, 3),
            R((([1], [1]), ([], [])), [0], [0]),
            r"shape \(3,\), got \(2, 3\)",
        ),
        (
            (19, 17, 11, 5),
            (3, 19, 5, 7),
            (19, 11, 3),
            R((([3], [2]), ([0], [1])), [2], [0]),
            r"shape \(19, 17, 3\), got \(19, 11, 3\)",
        ),
        (
            (19, 11, 17, 5),
            (19, 17, 5, 7),
            (19, 11, 3),
            R((([2, 3], [1, 2]), ([0], [0])), [3], []),
            r"shape \(19, 17, 3\), got \(19, 11, 3\)",
        ),
        (
            (17, 19, 11, 5),
            (17, 19, 5, 7),
            (19, 3),
            R((([3], [2]), ([0, 1], [0, 1])), [1], []),
            r"shape \(17, 3\), got \(19, 3\)",
        ),
        (
            (11, 3),
            (3, 3, 7),
            (3,),
            R((([1], [1]), ([], [])), [0], [1]),
            "distinct from contracting",
        ),
        ((11, 5), (3, 5, 7), (2,), R((([1], [1]), ([], [])), [0], [0]), "size to be 2, got 3"),
        ((11, 5), (3, 5, 7), (3,), R((([1], [1]), ([], [])), [1], [0]), "zero group dimensions"),
        ((11, 5), (5, 7), (3,), R((([1], [0]), ([], [])), [0], []), "exactly one rhs group"),
    ],
)
def test_layout_errors(
    lhs: tuple[int, ...], rhs: tuple[int, ...], gs: tuple[int, ...], dn: object, message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        lax.ragged_dot_general(tnp.ones(lhs), tnp.ones(rhs), tnp.ones(gs, tnp.int32), dn)  # type: ignore[arg-type]
