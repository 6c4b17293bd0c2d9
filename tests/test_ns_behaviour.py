"""Behaviour of the names added by issue 14 that golden dtype data cannot show: errors for bad
input, tracing under ``jit`` (same result as eager), NaN/inf/-0.0 edges, and the NumPy-backed
helpers (printing, files, devices)."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

import trellax
import trellax.image as image
import trellax.lax as lax
import trellax.numpy as jnp
import trellax.ops as ops
import trellax.scipy.linalg as sla
import trellax.scipy.special as special
import trellax.scipy.stats as stats
from trellax.errors import ConcretizationTypeError, JAXTypeError


def _same(a: object, b: object) -> None:
    x = np.asarray(a)
    y = np.asarray(b) if isinstance(b, (trellax.Array, np.ndarray)) else np.asarray(b, x.dtype)
    assert x.dtype == y.dtype and x.shape == y.shape
    np.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-6)


X = jnp.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]])


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: special.logsumexp(x, axis=1),
        lambda x: special.erfinv(jnp.tanh(x)),
        lambda x: special.ndtri(special.expit(x)),
        lambda x: special.log_ndtr(x),
        lambda x: special.gamma(x),
        lambda x: stats.norm.logpdf(x, 1.0, 2.0),
        lambda x: stats.cauchy.cdf(x),
        lambda x: jnp.select([x > 0, x < -0.75], [x, -x], 7.0),
        lambda x: jnp.piecewise(x, [x > 1], [lambda v: v * 2, lambda v: v - 1]),
        lambda x: jnp.interp(x, jnp.array([0.0, 1.0, 2.0]), jnp.array([1.0, 3.0, 2.0])),
        lambda x: jnp.convolve(x[0], x[1], mode="same"),
        lambda x: jnp.cov(x),
        lambda x: jnp.unwrap(x * 4, axis=1),
        lambda x: jnp.gradient(x, axis=1),
        lambda x: jnp.polyval(x[0], x[1]),
        lambda x: jnp.append(x, 1.0),
        lambda x: jnp.insert(x, 1, 9.0, axis=1),
        lambda x: jnp.delete(x, 0, axis=0),
        lambda x: jnp.block([[x, x]]),
        lambda x: jnp.apply_along_axis(jnp.sum, 1, x),
        lambda x: jnp.vectorize(lambda v: v * 2)(x),
        lambda x: ops.segment_sum(x, jnp.array([1, 0]), 2),
        lambda x: lax.top_k(x, 2)[0],
        lambda x: lax.cumlogsumexp(x, axis=1),
        lambda x: lax.dynamic_slice_in_dim(x, -2, 2, axis=1),
        lambda x: image.resize(x, (4, 5), "cubic"),
        lambda x: sla.expm(x[:, :2]),
        lambda x: sla.lu(x[:, :2] + 2 * jnp.eye(2))[2],
        lambda x: jnp.histogram2d(x[0], x[1], bins=2)[0],
        lambda x: jnp.unravel_index(jnp.array([0, 4]), (2, 3))[1],
    ],
)
def test_jit_matches_eager(fn: object) -> None:
    eager = fn(X)  # type: ignore[operator]
    traced = trellax.jit(fn)(X)  # type: ignore[arg-type]
    _same(eager, traced)


def test_special_edges() -> None:
    _same(special.xlogy(jnp.array([0.0, 0.0, 2.0]), jnp.array([0.0, -1.0, 1.0])), [0.0, 0.0, 0.0])
    assert np.isnan(np.asarray(special.xlogy(1.0, -1.0)))
    _same(special.entr(jnp.array([0.0, -1.0, 1.0])), jnp.array([0.0, -np.inf, -0.0]))
    _same(special.logit(jnp.array([0.0, 1.0, 0.5])), jnp.array([-np.inf, np.inf, 0.0]))
    _same(
        special.erfinv(jnp.array([-1.0, 1.0, 2.0, -0.0])),
        jnp.array([-np.inf, np.inf, np.nan, -0.0]),
    )
    assert math.copysign(1, float(special.erfinv(-0.0))) == -1.0
    _same(
        special.ndtri(jnp.array([0.0, 1.0, -0.5, np.nan])),
        jnp.array([-np.inf, np.inf, np.nan, np.nan]),
    )
    _same(
        special.gamma(jnp.array([-0.0, 0.0, -1.0, -np.inf])),
        jnp.array([-np.inf, np.inf, np.nan, np.nan]),
    )
    _same(special.logsumexp(jnp.array([np.inf, 1.0])), jnp.array(np.inf, np.float32))
    _same(special.logsumexp(jnp.array([np.nan, 1.0])), jnp.array(np.nan, np.float32))
    finfo = np.finfo(np.float32)
    # log(2 exp(max)) = max + log(2), which rounds to max: no overflow on the way
    _same(special.logsumexp(jnp.array([finfo.max, finfo.max])), jnp.array(finfo.max))


def test_special_errors() -> None:
    with pytest.raises(TypeError, match="not supported"):
        special.ndtr(jnp.array([1, 2], dtype="int8"))
    with pytest.raises(TypeError, match="complex"):
        special.erf(1j)
    with pytest.raises(TypeError, match="requires ndarray or scalar"):
        special.gammaln([1.0, 2.0])
    with pytest.raises(ValueError, match="series_order"):
        special.log_ndtr(1.0, series_order=-1)
    with pytest.raises(ValueError, match="non-negative"):
        special.bernoulli(-1)


def test_numpy_errors() -> None:
    with pytest.raises(ValueError, match="condlist"):
        jnp.select([jnp.array([True])], [], 0)
    # a non-boolean condition is true where nonzero, as in JAX 0.10.2
    assert jnp.select([jnp.array([1, 0])], [jnp.array([2, 3])], 7).tolist() == [2, 7]
    with pytest.raises(NotImplementedError, match="inplace=False"):
        jnp.fill_diagonal(jnp.zeros((2, 2)), 1.0)
    with pytest.raises(ValueError, match="inplace=False"):
        jnp.put(jnp.zeros(3), 0, 1.0)
    with pytest.raises(ValueError, match="invalid entry"):
        jnp.ravel_multi_index((jnp.array([2]), jnp.array([0])), (2, 3))
    with pytest.raises(ValueError, match="invalid entry"):
        jnp.choose(jnp.array([3]), [jnp.zeros(1), jnp.ones(1)])
    with pytest.raises(ConcretizationTypeError):
        trellax.jit(lambda i: jnp.delete(jnp.arange(3), i))(1)
    with pytest.raises(ValueError, match="List depths are mismatched"):
        jnp.block([[jnp.ones(1)], jnp.ones(1)])
    with pytest.raises(ValueError, match="one-dimensional"):
        jnp.interp(1.0, jnp.zeros((2, 2)), jnp.zeros(2))
    with pytest.raises(ValueError, match="mode"):
        jnp.convolve(jnp.ones(2), jnp.ones(2), mode="nope")
    with pytest.raises(TypeError, match="unsigned byte"):
        jnp.unpackbits(jnp.array([1], dtype="int8"))
    with pytest.raises(ValueError, match="product of the first"):
        jnp.linalg.tensorinv(jnp.ones((2, 3)), 1)
    with pytest.raises(NotImplementedError, match="Boolean"):
        jnp.ix_(jnp.array([True, False]))
    with pytest.raises(ValueError, match="'little' or 'big'"):
        jnp.packbits(jnp.array([1]), bitorder="middle")


def test_lax_errors() -> None:
    with pytest.raises(TypeError, match="reps length"):
        lax.tile(jnp.arange(2), (2, 2))
    with pytest.raises(ValueError, match="Sum of sizes"):
        lax.split(jnp.arange(3), (1, 1))
    with pytest.raises(ValueError, match="k argument"):
        lax.top_k(jnp.arange(3), 4)
    with pytest.raises(TypeError, match="scalar fill_value"):
        lax.full((2,), jnp.ones(2))
    with pytest.raises(IndexError):
        lax.index_in_dim(jnp.arange(3), 3)
    with pytest.raises(TypeError, match="erf_inv does not accept dtype int32"):
        lax.erf_inv(jnp.arange(3))


def test_top_k_orders_nan_and_ties() -> None:
    values, indices = lax.top_k(jnp.array([1.0, 3.0, 3.0, -np.inf, 2.0]), 4)
    _same(values, jnp.array([3.0, 3.0, 2.0, 1.0]))
    _same(indices, jnp.array([1, 2, 4, 0], dtype="int32"))
    values, _ = lax.top_k(jnp.array([-128, 127, 0], dtype="int8"), 3)
    _same(values, jnp.array([127, 0, -128], dtype="int8"))


def test_segment_ops_drop_out_of_range_and_need_static_size_under_jit() -> None:
    _same(ops.segment_sum(jnp.ones(3), jnp.array([0, -1, 5]), 2), jnp.array([1.0, 0.0]))
    _same(ops.segment_sum(jnp.ones(3), jnp.array([0, -1, 5]), 2, mode="clip"), [2.0, 1.0])
    _same(ops.segment_sum(jnp.ones(2), jnp.array([-1, 1], dtype="int8"), 200)[199], 0.0)
    with pytest.raises(ConcretizationTypeError, match="num_segments"):
        trellax.jit(lambda ids: ops.segment_sum(jnp.ones(3), ids))(jnp.array([0, 1, 1]))
    _same(
        trellax.jit(lambda ids: ops.segment_max(jnp.arange(3.0), ids, 3))(jnp.array([0, 0, 2])),
        jnp.array([1.0, -np.inf, 2.0]),
    )


def test_scipy_linalg_values() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 4))
    spd = a @ a.T + 4 * np.eye(4)
    b = rng.normal(size=4)
    with trellax.enable_x64():
        _same(
            sla.cho_solve(sla.cho_factor(jnp.asarray(spd)), jnp.asarray(b)), np.linalg.solve(spd, b)
        )
        lu_, piv = sla.lu_factor(jnp.asarray(a))
        _same(sla.lu_solve((lu_, piv), jnp.asarray(b)), np.linalg.solve(a, b))
        _same(sla.lu_solve((lu_, piv), jnp.asarray(b), trans=1), np.linalg.solve(a.T, b))
        p, lower, upper = sla.lu(jnp.asarray(a))
        _same(np.asarray(p) @ np.asarray(lower) @ np.asarray(upper), a)
        w, v = np.linalg.eig(a)
        _same(sla.expm(jnp.asarray(a)), (v @ np.diag(np.exp(w)) @ np.linalg.inv(v)).real)
        u, pos = sla.polar(jnp.asarray(a))
        _same(np.asarray(u) @ np.asarray(pos), a)
        _same(sla.invhilbert(4) @ sla.hilbert(4), np.eye(4))


def test_image_resize_errors_and_identity() -> None:
    x = jnp.arange(6.0).reshape(2, 3)
    _same(image.resize(x, (2, 3), "linear"), x)
    with pytest.raises(ValueError, match="length equal"):
        image.resize(x, (6,), "linear")
    with pytest.raises(ValueError, match="Unknown resize method"):
        image.resize(x, (2, 2), "quadratic")
    assert image.ResizeMethod.from_string("bilinear") is image.ResizeMethod.LINEAR


def test_printing_and_files(tmp_path: object) -> None:
    x = jnp.arange(3, dtype="int8")
    assert jnp.array_repr(x) == repr(x)
    assert jnp.array_str(x) == "[0 1 2]"
    with jnp.printoptions(precision=2):
        assert jnp.array_str(jnp.array([1 / 3])) == "[0.33]"
    buffer = io.BytesIO()
    jnp.save(buffer, x)
    buffer.seek(0)
    loaded = jnp.load(buffer)
    assert isinstance(loaded, trellax.Array) and loaded.dtype == np.int8
    _same(jnp.fromstring("1 2 3", dtype=np.int32, sep=" "), np.array([1, 2, 3], np.int32))
    _same(jnp.fromiter(iter([1.5, 2.5]), dtype=np.float32), np.array([1.5, 2.5], np.float32))


def test_runtime_helpers() -> None:
    assert trellax.devices() == [trellax.Device(0)] and trellax.device_count() == 1
    assert trellax.default_backend() == "cpu"
    with pytest.raises(RuntimeError, match="Unknown backend"):
        trellax.devices("gpu")
    out = trellax.device_put({"a": np.ones(2), "b": 1.0})
    assert out["a"].dtype == np.float32 and out["b"].weak_type
    assert isinstance(trellax.device_get(jnp.ones(2)), np.ndarray)
    assert trellax.block_until_ready(out) is out
    assert str(trellax.typeof(2.0)) == "~float32[]"
    assert "numpy" in str(trellax.print_environment_info(return_string=True))
    with pytest.raises(TypeError, match="string"), trellax.named_scope(3):  # type: ignore[arg-type]
        pass
    assert trellax.named_call(lambda v: v + 1, name="inc")(1) == 2


def test_type_hierarchy() -> None:
    assert jnp.issubdtype(jnp.bfloat16, jnp.floating)
    assert jnp.issubdtype(jnp.int4, jnp.signedinteger)
    assert not jnp.issubdtype(jnp.uint8, jnp.signedinteger)
    assert jnp.single is jnp.float32 and jnp.cdouble is jnp.complex128
    assert issubclass(jnp.ComplexWarning, Warning)
    assert issubclass(JAXTypeError, TypeError)


def test_scatter_sub_index_take_fft_under_transformations() -> None:
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    idx = jnp.array([[1], [1], [7]])

    def f(u: object) -> object:
        return lax.scatter_sub(jnp.zeros(3), idx, u, dn).sum()

    # repeated windows subtract repeatedly; the out-of-bounds one is dropped (no gradient)
    _same(trellax.grad(f)(jnp.array([2.0, 3.0, 4.0])), [-1.0, -1.0, 0.0])
    x = jnp.arange(12.0).reshape(3, 4)
    take = trellax.jit(lambda v: lax.index_take(v, (jnp.array([2, 0]),), (1,)))
    _same(take(x), np.arange(12.0, dtype=np.float32).reshape(3, 4)[:, [2, 0]].T)
    g = trellax.grad(lambda v: lax.index_take(v, (jnp.array([0, 0]),), (0,)).sum())(x)
    _same(g, np.array([[2.0] * 4, [0.0] * 4, [0.0] * 4], np.float32))
    with pytest.raises(TypeError, match="must not repeat"):  # JAX's classes (gather's)
        lax.index_take(x, (jnp.array([0]), jnp.array([0])), (1, 1))
    with pytest.raises(ValueError, match="integers"):
        lax.index_take(x, (jnp.array([0.5]),), (0,))
    assert lax.fft(jnp.ones(4, jnp.complex64), lax.FftType.FFT, (4,)).dtype == jnp.complex64
    with pytest.raises(ValueError, match="Unknown FFT type 'DCT'"):  # JAX's words
        lax.fft(jnp.ones(4, jnp.complex64), "DCT", (4,))


def test_lax_map_batch_size_matches_unbatched() -> None:
    xs = (jnp.arange(7.0), jnp.arange(7) * 2)

    def f(t: tuple[object, object]) -> object:
        a, b = t
        return jnp.sin(a) * b, a + 1  # type: ignore[operator]

    want = lax.map(f, xs)
    for size in (1, 2, 3, 7, 100):
        got = lax.map(f, xs, batch_size=size)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
    jitted = trellax.jit(lambda v: lax.map(f, v, batch_size=3))(xs)
    _same(jitted[0], want[0])


def test_at_apply_and_config_names() -> None:
    x = jnp.array([1.0, -2.0, 3.0])
    _same(x.at[jnp.array([0, 0, 2])].apply(jnp.negative), [1.0, -2.0, -3.0])
    _same(x.at[5].apply(jnp.negative), x)  # dropped
    _same(x.at[5].apply(jnp.negative, mode="clip"), [1.0, -2.0, -3.0])
    assert trellax.config.jax_enable_x64 is trellax.config.enable_x64
    assert trellax.config.read("jax_numpy_dtype_promotion") == "standard"
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_nope"):
        trellax.config.update("jax_nope", True)
