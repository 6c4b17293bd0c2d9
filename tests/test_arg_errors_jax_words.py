"""Argument errors of ``linalg.pinv``/``matrix_rank``, ``scipy.linalg.companion``/
``convolution_matrix`` and ``lax.broadcast_shapes``: JAX's error classes and words (observed with
JAX 0.10.2; its linalg_test and lax_vmap_test match them)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax.numpy as tnp
import trellax.scipy as tsp
from trellax import lax


def test_pinv_and_matrix_rank_refuse_both_tolerances() -> None:
    x = tnp.ones((3, 3))
    with pytest.raises(ValueError, match=r"^pinv: only one of rtol and rcond may be specified\.$"):
        tnp.linalg.pinv(x, rcond=1e-2, rtol=1e-2)
    np.testing.assert_array_equal(tnp.linalg.pinv(x, rcond=1e-2), tnp.linalg.pinv(x, rtol=1e-2))
    with pytest.raises(
        ValueError, match=r"^matrix_rank: only one of tol or rtol may be specified\.$"
    ):
        tnp.linalg.matrix_rank(x, rtol=1e-2, tol=1e-2)
    assert int(tnp.linalg.matrix_rank(x, rtol=1e-2)) == int(tnp.linalg.matrix_rank(x, tol=1e-2))


@pytest.mark.parametrize(("shape", "shown"), [((1,), "(1,)"), ((0,), "(0,)"), ((), "(1,)")])
def test_companion_of_too_short_a(shape: tuple[int, ...], shown: str) -> None:
    want = f"The length of `a` along the last axis must be at least 2; got shape {shown}."
    with pytest.raises(ValueError) as e:
        tsp.linalg.companion(tnp.zeros(shape))
    assert str(e.value) == want


def test_convolution_matrix_bad_mode() -> None:
    with pytest.raises(ValueError) as e:
        tsp.linalg.convolution_matrix(tnp.array([1.0, 2.0, 3.0]), 3, mode="bad")
    assert str(e.value) == "mode must be one of 'full', 'valid', 'same'; got 'bad'."


def test_broadcast_shapes_bad_shapes() -> None:
    with pytest.raises(TypeError) as e:
        lax.broadcast_shapes((-1,))
    assert str(e.value) == (
        "Only non-negative indices are allowed when broadcasting static shapes, but got shape (-1,)."
    )
    for bad, shown in [("hello", "hello"), ((2.5,), "(2.5,)")]:
        with pytest.raises(TypeError) as e:
            lax.broadcast_shapes(bad)  # type: ignore[arg-type]
        assert str(e.value) == (
            f"Shapes must be 1D sequences of concrete values of integer type, got {shown}."
        )
    assert lax.broadcast_shapes((2, 1), (3,)) == (2, 3)
    with pytest.raises(ValueError):
        lax.broadcast_shapes((2,), (3,))


def test_convolution_matrix_argument_checks() -> None:
    a = tnp.array([1.0, 2.0, 3.0])
    for n in (0, -1):
        with pytest.raises(ValueError) as e:
            tsp.linalg.convolution_matrix(a, n)
        assert str(e.value) == f"n must be a positive integer; got {n}."
    for shape in [(0,), (2, 0)]:
        with pytest.raises(ValueError) as e:
            tsp.linalg.convolution_matrix(tnp.zeros(shape), 3)
        assert str(e.value) == f"len(a) must be at least 1; got shape {shape}."
    with pytest.raises(ValueError, match="must be at least 1-dimensional, got a scalar"):
        tsp.linalg.convolution_matrix(tnp.array(5.0), 3)


def test_convolution_matrix_batches_leading_axes() -> None:
    # JAX 0.10.2: convolution_matrix(arange(6.).reshape(2, 3) + 1, 2, "same")
    a = np.arange(6.0).reshape(2, 3) + 1
    got = np.asarray(tsp.linalg.convolution_matrix(a, 2, "same"))
    want = [[[1.0, 0.0], [2.0, 1.0], [3.0, 2.0]], [[4.0, 0.0], [5.0, 4.0], [6.0, 5.0]]]
    np.testing.assert_array_equal(got, want)
    for mode in ("full", "same", "valid"):
        for n in (1, 2, 5):
            whole = np.asarray(tsp.linalg.convolution_matrix(a, n, mode))
            rows = [np.asarray(tsp.linalg.convolution_matrix(r, n, mode)) for r in a]
            np.testing.assert_array_equal(whole, np.stack(rows))


def test_pad_errors() -> None:
    z = np.zeros(2)
    cases = [
        (
            [(0, 1, 0), (0, 1, 0)],
            "length of padding_config must equal the number of axes of operand, got "
            "padding_config ((0, 1, 0), (0, 1, 0)) for operand shape (2,)",
        ),
        (
            [(0, 1, -1)],
            "interior padding in padding_config must be nonnegative, got padding_config "
            "((0, 1, -1),)",
        ),
        (
            [(-3, 0, 0)],
            "Dimension size after padding is not at least 0, got result shape (-1,), for "
            "padding_config ((-3, 0, 0),) and operand shape (2,)",
        ),
        (
            [(-4, 0, 1)],
            "Dimension size after padding is not at least 0, got result shape (-1,), for "
            "padding_config ((-4, 0, 1),) and operand shape (2,)",
        ),
    ]
    for config, want in cases:
        with pytest.raises(ValueError) as e:
            lax.pad(z, 0.0, config)
        assert str(e.value) == want


def test_reshape_of_a_shape_that_is_not_integers() -> None:
    assert lax.reshape(np.ones((3,), np.float32), (lax.add(1, 2), 1)).shape == (3, 1)
    for bad in [(np.array([3, 1]),), (1.5, 2.0)]:
        with pytest.raises(TypeError, match=r"^Shapes must be 1D sequences of concrete values"):
            lax.reshape(np.ones(3), bad)


def test_conv_argument_errors() -> None:
    x = tnp.ones((1, 10, 10, 5), dtype=tnp.bfloat16)
    with pytest.raises(ValueError) as e:
        lax.conv_general_dilated_patches(x, (5, 5), window_strides=(1, 1), padding=(3, 3))
    assert str(e.value) == (
        "padding argument to conv_general_dilated should be a string or a sequence of (low, "
        "high) pairs, got (3, 3)"
    )
    with pytest.raises(ValueError) as e:
        lax.conv(tnp.zeros((1, 1, 3, 3)), np.zeros((1, 1, 1, 1)), [1], "SAME")
    assert str(e.value) == (
        "conv_general_dilated window and window_strides must have the same number of "
        "dimensions, but got 2 and 1"
    )
    dn = lax.ConvDimensionNumbers(lhs_spec=(0, 1, 2), rhs_spec=(0, 1, 2), out_spec=(0, 1, 2))
    with pytest.raises(ValueError) as e:
        lax.conv_general_dilated(
            np.ones((1, 1, 1)), np.ones((1, 1, 1, 1)), (1,), ((0, 0),), dimension_numbers=dn
        )
    assert str(e.value) == (
        "conv_general_dilated lhs and rhs must have the same number of dimensions, but got "
        "(1, 1, 1) and (1, 1, 1, 1)."
    )
    # without dimension numbers, JAX's TypeError of conv_dimension_numbers
    with pytest.raises(TypeError, match="ndim to be equal"):
        lax.conv_general_dilated(np.ones((1, 1, 3)), np.ones((1, 1, 1, 1)), (1,), "VALID")
