"""trellax.random: threefry vectors, keys, errors, dtype rules and sampler statistics."""

from __future__ import annotations

import copy
import math
import pickle
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.random as tr
from trellax._src.random.threefry import threefry2x32


@pytest.mark.parametrize(
    ("key", "count", "out"),
    [
        ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
        ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
        ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
        ((0, 42), (0, 1), (0x03D7B32D, 0xADD083F4)),
    ],
)
def test_threefry_known_answers(key: Any, count: Any, out: Any) -> None:
    y0, y1 = threefry2x32(*key, *count)
    assert (int(y0), int(y1)) == out


def test_threefry_vectorized_matches_scalar_calls_and_chunks() -> None:
    rng = np.random.default_rng(0)
    k0, k1, x0, x1 = (rng.integers(0, 2**32, 70_000, dtype=np.uint32) for _ in range(4))
    y0, y1 = threefry2x32(k0, k1, x0, x1)  # several chunks, per-element keys
    for i in (0, 1, 65_535, 65_536, 69_999):
        s0, s1 = threefry2x32(k0[i], k1[i], x0[i], x1[i])
        assert (int(s0), int(s1)) == (int(y0[i]), int(y1[i]))


# -- seeds and keys ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "x32", "x64"),
    [
        (0, [0, 0], [0, 0]),
        (-1, [0, 0xFFFFFFFF], [0xFFFFFFFF, 0xFFFFFFFF]),
        (2**32 + 5, [0, 5], [1, 5]),
        (2**40 + 7, [0, 7], [0x100, 7]),
        (-(2**31), [0, 0x80000000], [0xFFFFFFFF, 0x80000000]),
        (2**63 - 1, [0, 0xFFFFFFFF], [0x7FFFFFFF, 0xFFFFFFFF]),
        (np.int32(-1), [0, 0xFFFFFFFF], [0, 0xFFFFFFFF]),
        (np.uint8(200), [0, 200], [0, 200]),
        (True, [0, 1], [0, 1]),
    ],
)
def test_seed_to_key_data(seed: Any, x32: list[int], x64: list[int]) -> None:
    assert tr.PRNGKey(seed).tolist() == x32
    with trellax.enable_x64():
        assert tr.key_data(tr.key(seed)).tolist() == x64


def test_seed_errors() -> None:
    with pytest.raises(OverflowError):
        tr.key(2**63)
    with pytest.raises(TypeError, match="must be an integer"):
        tr.key(1.5)
    with pytest.raises(TypeError, match=r"scalar seed, but was given an array of shape \(2,\)"):
        tr.key(np.array([1, 2]))
    with pytest.raises(TypeError, match="PRNGKey accepts a scalar seed, but was given a PRNG key"):
        tr.PRNGKey(tr.key(0))


def test_typed_key_object() -> None:
    k = tr.key(0)
    assert k.shape == () and k.ndim == 0 and str(k.dtype) == "key<fry>" and not k.weak_type
    assert k.dtype.itemsize == 8 and tr.key_impl(k) == "threefry2x32"
    assert isinstance(k, trellax.Array)
    assert repr(k) == "Array((), dtype=key<fry>) overlaying:\n[0 0]"
    ks = tr.split(k, 4)
    assert ks.shape == (4,) and len(ks) == 4
    assert tr.key_data(ks[3]).tolist() == [0x9312778B, 0xE4E8DFBE]
    assert tr.key_data(ks[-1]).tolist() == tr.key_data(list(ks)[3]).tolist()
    grid = ks.reshape(2, 2)
    assert grid.shape == (2, 2) and grid.T.shape == (2, 2)
    assert tr.key_data(grid.T[0, 1]).tolist() == tr.key_data(ks[2]).tolist()
    assert tr.key_data(ks[None]).shape == (1, 4, 2)
    assert tr.key_data(ks[..., 1:]).shape == (3, 2)
    assert (ks == ks).tolist() == [True] * 4
    assert (ks[0] != ks[1]).item() is True
    assert copy.deepcopy(k) is k
    assert tr.key_data(pickle.loads(pickle.dumps(ks))).tolist() == tr.key_data(ks).tolist()


def test_key_operations_refused() -> None:
    k = tr.key(0)
    with pytest.raises(TypeError, match=r"add does not accept dtypes key<fry>, int"):
        k + 1
    with pytest.raises(TypeError, match="cannot be converted to a NumPy array"):
        np.asarray(k)
    with pytest.raises(NotImplementedError):
        k.astype(np.uint32)


def test_wrap_and_key_data() -> None:
    data = np.array([[1, 2], [3, 4]], np.uint32)
    k = tr.wrap_key_data(data)
    assert k.shape == (2,) and tr.key_data(k).tolist() == data.tolist()
    legacy = tr.PRNGKey(7)
    assert tr.key_data(legacy) is legacy
    with pytest.raises(TypeError, match=r"shape to end with \(2,\); got shape=\(3,\)"):
        tr.wrap_key_data(np.zeros(3, np.uint32))
    with pytest.raises(TypeError, match=r"expected key_data\.dtype = uint32; got dtype=int32"):
        tr.wrap_key_data(np.zeros(2, np.int32))


def test_legacy_keys_give_raw_arrays() -> None:
    k = tr.PRNGKey(0)
    s = tr.split(k)
    assert s.dtype == np.uint32 and s.shape == (2, 2)
    assert tr.uniform(s[1]).tolist() == tr.uniform(tr.split(tr.key(0))[1]).tolist()


def test_split_fold_in_clone() -> None:
    k = tr.key(0)
    assert tr.split(k, 0).shape == (0,)
    assert tr.split(k, (2, 3)).shape == (2, 3)
    assert tr.key_data(tr.fold_in(k, 1)).tolist() == tr.key_data(tr.split(k)[1]).tolist()
    assert tr.key_data(tr.fold_in(k, 1.5)).tolist() == tr.key_data(tr.fold_in(k, 1)).tolist()
    assert tr.clone(k) is k
    with pytest.raises(OverflowError, match="-1 out of bounds for uint32"):
        tr.fold_in(k, -1)
    with pytest.raises(TypeError, match="ofshape"):
        tr.fold_in(k, np.arange(2))
    with pytest.raises(ValueError, match=r"split accepts a single key, but was given a key array"):
        tr.split(tr.split(k))
    with pytest.raises(ValueError, match="uniform accepts a single key"):
        tr.uniform(tr.split(k))


@pytest.mark.parametrize("bad", [0, 1.0])
def test_invalid_key_objects(bad: Any) -> None:
    with pytest.raises(TypeError, match="invalid PRNG key data"):
        tr.uniform(bad)


@pytest.mark.parametrize("bad", [[0, 0], None])
def test_unexpected_key_types(bad: Any) -> None:
    with pytest.raises(TypeError, match="unexpected PRNG key type"):
        tr.uniform(bad)


def test_keys_through_jit_and_pytrees() -> None:
    k = tr.key(3)
    f = trellax.jit(lambda k: (tr.split(k), tr.normal(k, (2,))))
    ks, x = f(k)
    assert isinstance(ks, tr.PRNGKeyArray) and ks.shape == (2,)
    assert tr.key_data(ks).tolist() == tr.key_data(tr.split(k)).tolist()
    assert x.tolist() == tr.normal(k, (2,)).tolist()
    g = trellax.jit(lambda k: [tr.uniform(kk) for kk in tr.split(k, 3)])
    assert [v.item() for v in g(k)] == [tr.uniform(kk).item() for kk in tr.split(k, 3)]
    tree = {"rng": k, "w": tnp.ones(2)}
    out = trellax.tree_util.tree_map(lambda x: x, tree)
    assert isinstance(out["rng"], tr.PRNGKeyArray)
    assert trellax.jit(lambda s: tr.key(s))(5).shape == ()


# -- dtype and shape rules -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_uniform_dtypes_are_strong(dtype: str) -> None:
    x = tr.uniform(tr.key(0), (3,), dtype, 0, 1)
    assert str(x.dtype) == dtype and x.weak_type is False


def test_float64_request_is_truncated_with_warning() -> None:
    with pytest.warns(UserWarning, match="float64"):
        x = tr.normal(tr.key(0), (2,), np.float64)
    assert x.dtype == np.float32
    with pytest.warns(UserWarning, match="int64"), pytest.raises(ValueError, match="got int32"):
        tr.uniform(tr.key(0), dtype=np.int64)
    with trellax.enable_x64():
        assert tr.uniform(tr.key(0)).dtype == np.float64
        assert tr.bits(tr.key(0)).dtype == np.uint64
        assert tr.randint(tr.key(0), (2,), 0, 3).dtype == np.int64


@pytest.mark.parametrize(
    ("call", "err", "text"),
    [
        (lambda k: tr.uniform(k, dtype=np.int32), ValueError, "`uniform` must be a float dtype"),
        (lambda k: tr.normal(k, dtype=np.int32), ValueError, "float or complex dtype, got int32"),
        (lambda k: tr.gamma(k, 1.0, dtype=np.int32), ValueError, "`gamma` must be a float"),
        (lambda k: tr.bits(k, dtype=np.int32), ValueError, "unsigned int dtype, got int32"),
        (lambda k: tr.randint(k, (2,), 0, 3, np.float32), TypeError, "integer dtypes"),
        (lambda k: tr.bernoulli(k, 1), TypeError, "floating dtype, got int32"),
        (lambda k: tr.poisson(k, 1.0, dtype=np.float32), ValueError, "Invalid integer data type"),
        (lambda k: tr.uniform(k, (2.0,)), TypeError, "Shapes must be 1D sequences"),
        (lambda k: tr.normal(k, None), TypeError, "not iterable"),
        (lambda k: tr.randint(k, (3,), np.zeros((2, 3)), 5), ValueError, "result (2, 3)"),
        (lambda k: tr.beta(k, np.ones(2), np.ones(3)), ValueError, "Incompatible shapes"),
        (lambda k: tr.permutation(k, 1.5), TypeError, "at least 1-dimensional"),
        (lambda k: tr.choice(k, 5, 3), TypeError, "must be a sequence, got 3"),
        (lambda k: tr.choice(k, 5, (6,), replace=False), ValueError, "larger sample (size 6)"),
        (lambda k: tr.choice(k, 5, (2,), p=tnp.ones(4)), ValueError, "p has shape (4,)"),
        (lambda k: tr.gumbel(k, mode="x"), ValueError, "valid mode for gumbel"),
        (lambda k: tr.dirichlet(k, 1.0), ValueError, "alpha.ndim >= 1"),
        (lambda k: tr.multivariate_normal(k, 0.0, tnp.eye(2)), ValueError, "mean.ndim >= 1"),
        (
            lambda k: tr.multivariate_normal(k, tnp.zeros(2), tnp.eye(3)),
            ValueError,
            "cov.shape == (3, 3)",
        ),
        (lambda k: tr.poisson(k, tnp.ones((2, 3)), (3,)), ValueError, "fewer dimensions"),
        (lambda k: tr.categorical(k, tnp.zeros(5), shape=(6,), replace=False), ValueError, "(6)"),
    ],
)
def test_errors(call: Any, err: type[Exception], text: str) -> None:
    with pytest.raises(err, match=__import__("re").escape(text)):
        call(tr.key(0))


def test_randint_clipping_and_bounds() -> None:
    k = tr.key(1)
    x = tr.randint(k, (1000,), -1000, 1000, np.int8)
    assert x.dtype == np.int8 and int(x.min()) >= -128
    assert tr.randint(k, (5,), 7, 7).tolist() == [7] * 5
    assert tr.randint(k, (5,), 9, 2).tolist() == [9] * 5
    full = tr.randint(k, (2000,), 0, 256, np.uint8)
    assert int(full.max()) > 250 and int(full.min()) < 5


def test_parameter_broadcasting() -> None:
    k = tr.key(0)
    assert tr.beta(k, tnp.ones(3), tnp.ones((2, 1))).shape == (2, 3)
    assert tr.truncated_normal(k, tnp.zeros(3), 1.0).shape == (3,)
    assert tr.bernoulli(k, tnp.full((2, 2), 0.5)).shape == (2, 2)
    assert tr.dirichlet(k, tnp.ones((2, 4))).shape == (2, 4)
    assert tr.multivariate_normal(k, tnp.zeros(3), tnp.eye(3), (5,)).shape == (5, 3)
    assert tr.orthogonal(k, 3, (2,), m=5).shape == (2, 3, 5)
    assert tr.categorical(k, tnp.zeros((4, 3)), shape=(2, 4)).shape == (2, 4)
    assert tr.ball(k, 3, shape=(4,)).shape == (4, 3)
    assert tr.multinomial(k, 10.0, tnp.array([0.2, 0.8])).shape == (2,)
    assert tr.rademacher(k, (3,), bool).tolist() == [True] * 3


def test_edge_values() -> None:
    k = tr.key(0)
    assert tr.gamma(k, tnp.array([0.0, -1.0])).tolist()[0] == 0.0
    assert np.isnan(tr.gamma(k, tnp.array([0.0, -1.0])).tolist()[1])
    assert tr.poisson(k, tnp.array([0.0, -1.0, np.nan])).tolist() == [0, -1, -1]
    assert tr.uniform(k, (3,), minval=1.0, maxval=0.0).tolist() == [1.0] * 3
    assert (
        tr.truncated_normal(k, 1.0, -1.0, (2,)).tolist()
        == [np.nextafter(-1, 0, dtype=np.float32) * 0 + np.float32(-1.0000001)] * 2
    )
    b = tr.binomial(k, tnp.array([-1.0, 5.0]), tnp.array([0.5, 1.5]))
    assert np.isnan(np.asarray(b)).all()


# -- statistics ----------------------------------------------------------------------------------

N = 20_000
STATS = [
    (lambda k: tr.uniform(k, (N,)), 0.5, 1 / 12),
    (lambda k: tr.normal(k, (N,)), 0.0, 1.0),
    (lambda k: tr.exponential(k, (N,)), 1.0, 1.0),
    (lambda k: tr.gumbel(k, (N,)), 0.5772, np.pi**2 / 6),
    (lambda k: tr.laplace(k, (N,)), 0.0, 2.0),
    (lambda k: tr.logistic(k, (N,)), 0.0, np.pi**2 / 3),
    (lambda k: tr.gamma(k, 3.0, (N,)), 3.0, 3.0),
    (lambda k: tr.gamma(k, 0.5, (N,)), 0.5, 0.5),
    (lambda k: tr.beta(k, 2.0, 3.0, (N,)), 0.4, 0.04),
    (lambda k: tr.t(k, 5.0, (N,)), 0.0, 5 / 3),
    (lambda k: tr.chisquare(k, 4.0, (N,)), 4.0, 8.0),
    (lambda k: tr.f(k, 5.0, 10.0, (N,)), 1.25, 1.354),
    (lambda k: tr.poisson(k, 4.0, (N,)), 4.0, 4.0),
    (lambda k: tr.poisson(k, 50.0, (N,)), 50.0, 50.0),
    (lambda k: tr.binomial(k, 20.0, 0.3, (N,)), 6.0, 4.2),
    (lambda k: tr.binomial(k, 500.0, 0.4, (N,)), 200.0, 120.0),
    (lambda k: tr.binomial(k, 500.0, 0.9, (N,)), 450.0, 45.0),
    (lambda k: tr.geometric(k, 0.25, (N,)), 4.0, 12.0),
    (lambda k: tr.lognormal(k, 0.5, (N,)), np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25)),
    (lambda k: tr.pareto(k, 5.0, (N,)), 1.25, 5 / 48),
    (lambda k: tr.weibull_min(k, 1.0, 2.0, (N,)), 0.8862, 0.2146),
    (lambda k: tr.rayleigh(k, 1.0, (N,)), 1.2533, 0.4292),
    (lambda k: tr.maxwell(k, (N,)), 1.5958, 0.4535),
    (lambda k: tr.double_sided_maxwell(k, 0.0, 1.0, (N,)), 0.0, 3.0),
    (lambda k: tr.triangular(k, 0.0, 1.0, 3.0, (N,)), 4 / 3, 7 / 18),
    (lambda k: tr.wald(k, 2.0, (N,)), 2.0, 8.0),
    (lambda k: tr.generalized_normal(k, 2.0, (N,)), 0.0, 0.5),
    (lambda k: tr.truncated_normal(k, -1.0, 1.0, (N,)), 0.0, 0.2911),
    (lambda k: tr.rademacher(k, (N,)), 0.0, 1.0),
    (lambda k: tr.bernoulli(k, 0.3, (N,)), 0.3, 0.21),
    (lambda k: tr.randint(k, (N,), 0, 10), 4.5, 8.25),
    (lambda k: tr.categorical(k, tnp.log(tnp.array([0.2, 0.3, 0.5])), shape=(N,)), 1.3, 0.61),
    (lambda k: tr.choice(k, 3, (N,), p=tnp.array([0.2, 0.3, 0.5])), 1.3, 0.61),
    (lambda k: tr.multinomial(k, 10.0, tnp.array([0.2, 0.8]), shape=(N, 2))[:, 0], 2.0, 1.6),
    (lambda k: tr.dirichlet(k, tnp.array([1.0, 3.0]), (N,))[:, 0], 0.25, 0.0375),
]


@pytest.mark.parametrize(("draw", "mean", "var"), STATS)
def test_moments(draw: Any, mean: float, var: float) -> None:
    x = np.asarray(draw(tr.key(7)), np.float64)
    se = np.sqrt(var / x.size)
    assert abs(x.mean() - mean) < 5 * se + 1e-3
    assert abs(x.var() / var - 1) < 0.15


def test_normal_ks() -> None:
    import math

    x = np.sort(np.asarray(tr.normal(tr.key(11), (N,)), np.float64))
    cdf = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x])
    d = np.max(np.abs(cdf - np.arange(1, N + 1) / N))
    assert d < 1.36 / np.sqrt(N)


KS = [
    ("uniform", lambda k: tr.uniform(k, (N,), minval=-1.0, maxval=3.0), lambda x: (x + 1) / 4),
    ("exponential", lambda k: tr.exponential(k, (N,)), lambda x: 1 - np.exp(-x)),
    ("gumbel", lambda k: tr.gumbel(k, (N,)), lambda x: np.exp(-np.exp(-x))),
    ("laplace", lambda k: tr.laplace(k, (N,)), lambda x: np.where(x < 0, np.exp(x) / 2, 1 - np.exp(-x) / 2)),
    ("logistic", lambda k: tr.logistic(k, (N,)), lambda x: 1 / (1 + np.exp(-x))),
    ("cauchy", lambda k: tr.cauchy(k, (N,)), lambda x: 0.5 + np.arctan(x) / np.pi),
    ("rayleigh", lambda k: tr.rayleigh(k, 2.0, (N,)), lambda x: 1 - np.exp(-(x**2) / 8)),
    ("pareto", lambda k: tr.pareto(k, 3.0, (N,)), lambda x: 1 - x**-3.0),
    ("weibull", lambda k: tr.weibull_min(k, 2.0, 1.5, (N,)), lambda x: 1 - np.exp(-((x / 2) ** 1.5))),
    ("triangular", lambda k: tr.triangular(k, 0.0, 1.0, 3.0, (N,)),
     lambda x: np.where(x < 1, x**2 / 3, 1 - (3 - x) ** 2 / 6)),
    ("gamma2", lambda k: tr.gamma(k, 2.0, (N,)), lambda x: 1 - np.exp(-x) * (1 + x)),
    ("loggamma1", lambda k: tr.loggamma(k, 1.0, (N,)), lambda x: 1 - np.exp(-np.exp(x))),
    ("beta23", lambda k: tr.beta(k, 2.0, 3.0, (N,)), lambda x: x**2 * (6 - 8 * x + 3 * x**2)),
    ("chisquare2", lambda k: tr.chisquare(k, 2.0, (N,)), lambda x: 1 - np.exp(-x / 2)),
    ("maxwell", lambda k: tr.maxwell(k, (N,)),
     lambda x: np.vectorize(math.erf)(x / np.sqrt(2)) - np.sqrt(2 / np.pi) * x * np.exp(-(x**2) / 2)),
    ("t1", lambda k: tr.t(k, 1.0, (N,)), lambda x: 0.5 + np.arctan(x) / np.pi),
    ("truncated_normal", lambda k: tr.truncated_normal(k, 0.0, 10.0, (N,)),
     lambda x: np.vectorize(math.erf)(x / np.sqrt(2))),
]  # fmt: skip


@pytest.mark.parametrize(("name", "draw", "cdf"), KS, ids=[c[0] for c in KS])
def test_ks(name: str, draw: Any, cdf: Any) -> None:
    """Kolmogorov–Smirnov against the exact CDF, at the 0.1% level."""
    x = np.sort(np.asarray(draw(tr.key(13)), np.float64))
    with np.errstate(all="ignore"):
        c = cdf(x)
    d = max(np.max(np.arange(1, x.size + 1) / x.size - c), np.max(c - np.arange(x.size) / x.size))
    assert d < 1.95 / np.sqrt(x.size), d


@pytest.mark.parametrize(("n", "p"), [(20.0, 0.3), (500.0, 0.4), (9.0, 0.95), (60.0, 0.5)])
def test_binomial_pmf(n: float, p: float) -> None:
    """Chi-square of the binomial counts (both algorithms) against the exact pmf."""
    x = np.asarray(tr.binomial(tr.key(17), n, p, (N,)), np.int64)
    k = np.arange(int(n) + 1)
    pmf = np.exp(
        [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in k]
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )
    keep = pmf * N >= 5
    obs = np.bincount(x, minlength=k.size)[keep]
    exp = pmf[keep] * N
    chi2 = np.sum((obs - exp) ** 2 / exp)
    dof = keep.sum()
    assert chi2 < dof + 5 * np.sqrt(2 * dof), (chi2, dof)


def test_multivariate_normal_and_multinomial_moments() -> None:
    cov = np.array([[2.0, 0.6], [0.6, 1.0]])
    x = np.asarray(tr.multivariate_normal(tr.key(2), tnp.array([1.0, -1.0]), tnp.array(cov), (N,)))
    np.testing.assert_allclose(x.mean(0), [1.0, -1.0], atol=0.05)
    np.testing.assert_allclose(np.cov(x.T), cov, atol=0.08)
    p = np.array([0.2, 0.3, 0.5])
    m = np.asarray(tr.multinomial(tr.key(2), 40.0, tnp.array(p), shape=(N, 3)), np.float64)
    assert (m.sum(-1) == 40).all()
    np.testing.assert_allclose(m.mean(0), 40 * p, rtol=0.02)
    np.testing.assert_allclose(np.cov(m.T), 40 * (np.diag(p) - np.outer(p, p)), atol=0.25)


def test_ball_and_orthogonal_geometry() -> None:
    b = np.asarray(tr.ball(tr.key(0), 3, 2.0, (500,)), np.float64)
    assert (np.linalg.norm(b, axis=-1) <= 1 + 1e-6).all()
    q = np.asarray(tr.orthogonal(tr.key(0), 4, (3,)), np.float64)
    np.testing.assert_allclose(
        q @ np.swapaxes(q, -1, -2), np.broadcast_to(np.eye(4), q.shape), atol=1e-5
    )


def test_permutation_is_a_permutation() -> None:
    p = np.asarray(tr.permutation(tr.key(5), 5000))
    assert sorted(p.tolist()) == list(range(5000))
    x = tnp.arange(12).reshape(3, 4)
    rows = np.asarray(tr.permutation(tr.key(5), x, axis=1, independent=True))
    assert all(sorted(r) == list(range(4 * i, 4 * i + 4)) for i, r in enumerate(rows.tolist()))
    c = np.asarray(tr.choice(tr.key(5), 50, (50,), replace=False))
    assert sorted(c.tolist()) == list(range(50))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tr.bits(tr.key(0), (2,))
