"""The statistics arguments NumPy 2 and JAX 0.10 have: ``var``/``std``(``mean=``), weighted
``quantile``/``percentile`` (``method='inverted_cdf'``), ``average`` with weights along several
axes, ``cov``/``corrcoef``(``dtype=``) with JAX's weight rules; checked against NumPy's values
(exact where the computation is a selection, to a float32 tolerance where it sums)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(11)


@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_var_with_a_given_mean(
    fn: str, axis: Any, keepdims: bool, rng: np.random.Generator
) -> None:
    x = rng.standard_normal((6, 5)).astype(np.float32)
    if fn.startswith("nan"):
        x[1, 2] = np.nan
    m = (np.nanmean(x, axis=axis, keepdims=True) + 0.25).astype(np.float32)
    got = np.asarray(getattr(tnp, fn)(x, axis=axis, ddof=1, keepdims=keepdims, mean=m))
    want = getattr(np, fn)(x, axis=axis, ddof=1, keepdims=keepdims, mean=m)
    assert got.shape == np.shape(want) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=2e-6)
    with pytest.raises(ValueError):
        getattr(tnp, fn)(x, axis=0, mean=np.zeros(4, np.float32))


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_inverted_cdf(
    fn: str, axis: Any, keepdims: bool, weighted: bool, rng: np.random.Generator
) -> None:
    x = rng.standard_normal((4, 3, 5)).astype(np.float32)
    if fn.startswith("nan"):
        x[rng.random(x.shape) < 0.2] = np.nan
    w = (rng.random(x.shape) + 0.1).astype(np.float32) if weighted else None
    q = np.array([0.0, 0.25, 0.5, 0.75, 1.0], np.float32) * (100 if "percentile" in fn else 1)
    kw = {"weights": w} if weighted else {}
    got = np.asarray(
        getattr(tnp, fn)(x, q, axis=axis, method="inverted_cdf", keepdims=keepdims, **kw)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, fn)(x, q, axis=axis, method="inverted_cdf", keepdims=keepdims, **kw)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_inverted_cdf_bad_weights_and_errors() -> None:
    x = np.arange(6.0, dtype=np.float32)
    w = np.array([1, -1, 2, 1, 1, 1], np.float32)
    assert np.isnan(np.asarray(tnp.quantile(x, 0.5, weights=w, method="inverted_cdf")))
    w[1] = np.nan
    assert np.isnan(np.asarray(tnp.quantile(x, 0.5, weights=w, method="inverted_cdf")))
    with pytest.raises(NotImplementedError, match="Only method 'inverted_cdf'"):
        tnp.quantile(x, 0.5, weights=np.ones(6))
    with pytest.raises(ValueError, match="complex"):
        tnp.quantile(x, 0.5, weights=np.ones(6) * 1j, method="inverted_cdf")
    m = np.ones((2, 3), np.float32)
    with pytest.raises(ValueError, match="axis is None"):
        tnp.quantile(m, 0.5, weights=np.ones(3), method="inverted_cdf")
    with pytest.raises(ValueError, match="must match reduction axes"):
        tnp.quantile(m, 0.5, axis=0, weights=np.ones(3), method="inverted_cdf")
    along = tnp.quantile(m * np.arange(3), 0.5, axis=1, weights=np.ones(3), method="inverted_cdf")
    assert np.asarray(along).tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="method can only be"):
        tnp.quantile(x, 0.5, method="weibull")
    jitted = trellax.jit(lambda a, ww: tnp.quantile(a, 0.5, weights=ww, method="inverted_cdf"))
    assert float(jitted(x, np.ones(6, np.float32))) == 2.0


@pytest.mark.parametrize(
    "shape,axis",
    [((2, 3, 4), (1, 2)), ((2, 3, 4), (2, 0)), ((2, 3, 4, 5), (3, 0, 2, 1)), ((3, 4), 1)],
)
def test_average_weights_along_axes(
    shape: tuple[int, ...], axis: Any, rng: np.random.Generator
) -> None:
    x = rng.random(shape).astype(np.float32)
    axes = axis if isinstance(axis, tuple) else (axis,)
    w = rng.random(tuple(shape[a] for a in axes)).astype(np.float32)
    got, total = tnp.average(x, axis, w, returned=True)
    want, wtotal = np.average(x, axis, w, returned=True)
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6)
    np.testing.assert_allclose(np.asarray(total), wtotal, rtol=2e-6)
    with pytest.raises(ValueError, match="consistent with shape"):
        tnp.average(x, axis, w[..., :1] if w.ndim else w)


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("shape", [(5,), (3, 5), (1, 5), (5, 1)])
def test_cov_weights(rowvar: bool, shape: tuple[int, ...], rng: np.random.Generator) -> None:
    x = rng.standard_normal(shape).astype(np.float32)
    samples = shape[-1] if rowvar or len(shape) == 1 else shape[0]
    fw = rng.integers(1, 4, samples)
    aw = rng.random(samples).astype(np.float32)
    weighted = ({"fweights": fw}, {"aweights": aw}, {"fweights": fw, "aweights": aw})
    # one observation leaves no degrees of freedom: inf or NaN by rounding, on both sides
    for kw in ({}, *(weighted if samples > 1 else ())):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.cov(x, rowvar=rowvar, **kw)
        got = np.asarray(tnp.cov(x, rowvar=rowvar, **kw))
        assert got.shape == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, equal_nan=True)
    if samples == 1:
        return
    # JAX takes the absolute value of negative weights (NumPy raises)
    neg = np.asarray(tnp.cov(x, rowvar=rowvar, aweights=-aw))
    np.testing.assert_allclose(neg, np.cov(x, rowvar=rowvar, aweights=aw), rtol=1e-5, atol=1e-6)


def test_cov_dtype_and_errors(rng: np.random.Generator) -> None:
    x = rng.standard_normal((3, 5)).astype(np.float32)
    assert tnp.cov(x, dtype=tnp.float16).dtype == np.float16
    assert tnp.corrcoef(x, dtype=tnp.float16).dtype == np.float16
    with pytest.raises(ValueError, match="must be a subclass of float or complex"):
        tnp.cov(x, dtype=tnp.int32)
    with pytest.raises(TypeError, match="fweights must be integer"):
        tnp.cov(x, fweights=np.ones(5, np.float32))
    with pytest.raises(RuntimeError, match="incompatible numbers of samples"):
        tnp.cov(x, aweights=np.ones(4, np.float32))
    with trellax.numpy_rank_promotion("raise"):
        assert tnp.cov(x, aweights=np.ones(5, np.float32)).shape == (3, 3)
    assert tnp.cov(np.zeros((0, 3), np.float32)).shape == (0, 0)
    assert np.isnan(np.asarray(tnp.cov(np.zeros((2, 0), np.float32)))).all()


def test_nan_reduction_where_messages_name_the_function() -> None:
    x = np.ones(3, np.float32)
    for fn in ("nansum", "nanmean", "nanprod", "nanmax"):
        with pytest.raises(ValueError, match=f"jnp.{fn}: where must be None"):
            getattr(tnp, fn)(x, where=np.ones(3, np.int32))
