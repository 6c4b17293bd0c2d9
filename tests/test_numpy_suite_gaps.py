"""Behaviour JAX's ``lax_numpy_test`` checks that trellax got wrong (session 15, branch ``jt15``).

Each test failed before its fix: values of ``polymul`` in bfloat16 and of ``interp`` on tiny
intervals (and their NaN gradients), Python's ``round`` of an array, ``__jax_array__`` operands
of the operators, ``load`` of a bfloat16 ``.npy`` file, ``pad`` with a function, and JAX's error
classes and words for ``tensordot``, ``pad``, ``expand_dims``, ``trace``, ``split``, ``interp``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.errors import ConcretizationTypeError

BF16 = tnp.bfloat16


def test_polymul_bfloat16_sums_in_float32() -> None:
    # out[2] = 1*1 + 1*2**-8 + 1*2**-8 = 1 + 2**-7, a bfloat16; summed in bfloat16 from the
    # largest term, each 2**-8 is a tie rounded away (1.0)
    a = tnp.array([1.0, 1.0, 1.0], BF16)
    b = tnp.array([2.0**-8, 2.0**-8, 1.0], BF16)
    out = tnp.polymul(a, b)
    assert out.dtype == BF16
    # the exact sums rounded once to bfloat16: [2**-8, 2**-7, 1 + 2**-7, 1 (a tie), 1]
    exact = np.convolve(np.asarray(a, np.float64), np.asarray(b, np.float64)).astype(BF16)
    exact = exact.astype(np.float64)
    assert exact[2] == 1 + 2.0**-7
    np.testing.assert_array_equal(np.asarray(out, np.float64), exact)
    np.testing.assert_array_equal(np.asarray(trellax.jit(tnp.polymul)(a, b), np.float64), exact)


def test_polymul_float32_matches_convolve() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(7).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    np.testing.assert_allclose(tnp.polymul(a, b), np.polymul(a, b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_interp_tiny_interval_is_a_jump(dtype: type) -> None:
    # an interval no wider than spacing(eps) takes the left value, as JAX
    tiny = float(np.spacing(np.finfo(dtype).eps))
    out = tnp.interp(dtype(tiny / 2), tnp.array([0, tiny], dtype), tnp.array([0, 1], dtype))
    assert float(out) == 0.0
    wide = 1e-3 if dtype == np.float16 else 1e-12
    out = tnp.interp(dtype(wide / 2), tnp.array([0, wide], dtype), tnp.array([0, 1], dtype))
    assert float(out) == pytest.approx(0.5, rel=1e-2)


@pytest.mark.parametrize("period", [None, 0.59])
def test_interp_gradient_finite_where_points_nearly_coincide(period: float | None) -> None:
    x = np.exp(np.linspace(-90, -20, 50)).astype(np.float32)

    def f(z: trellax.Array) -> trellax.Array:
        return tnp.sum(tnp.interp(z, z, tnp.ones_like(z), period=period))

    g = trellax.grad(f)(x)
    assert np.all(np.isfinite(np.asarray(g)))


def test_interp_gradient_values() -> None:
    xp = tnp.array([0.0, 1.0, 1.0, 2.0])
    fp = tnp.array([0.0, 1.0, 3.0, 4.0])
    x = tnp.array([0.5, 1.0, 1.5])
    g_xp = trellax.grad(lambda xp: tnp.sum(tnp.interp(x, xp, fp)))(xp)
    g_fp = trellax.grad(lambda fp: tnp.sum(tnp.interp(x, xp, fp)))(fp)
    np.testing.assert_allclose(g_xp, [-0.5, -0.5, -1.5, -0.5])
    np.testing.assert_allclose(g_fp, [0.5, 0.5, 1.5, 0.5])


def test_interp_errors() -> None:
    with pytest.raises(ValueError, match="xp and fp must be one-dimensional arrays of equal size"):
        tnp.interp(0.0, tnp.ones(2), tnp.ones(3))
    with pytest.raises(IndexError):
        tnp.interp(0.0, tnp.zeros(0), tnp.zeros(0))
    # these computed something before: a complex x as if real, an unknown string as no value
    with pytest.raises(ValueError, match="complex x values not supported"):
        tnp.interp(1j, 1j * np.arange(3.0), np.arange(3.0))
    with pytest.raises(ValueError, match="the only valid string value of `left` is 'extrapolate'"):
        tnp.interp(0.0, tnp.arange(3.0), tnp.arange(3.0), left="interpolate")
    with pytest.raises(ValueError, match="the only valid string value of `right`"):
        tnp.interp(0.0, tnp.arange(3.0), tnp.arange(3.0), right="interpolate")
    with pytest.raises(ValueError, match="period must be a scalar; got"):
        tnp.interp(0.0, tnp.arange(3.0), tnp.arange(3.0), period=np.array([1.0]))
    assert float(tnp.interp(-1.0, tnp.arange(3.0), tnp.arange(3.0), left="extrapolate")) == -1.0


def test_python_round_gives_default_int_arrays() -> None:
    x = tnp.array([0.6, 1.5, 2.5, -1.6], np.float32)
    out = round(x)
    assert isinstance(out, trellax.Array) and out.dtype == np.int32 and not out.weak_type
    np.testing.assert_array_equal(out, [1, 2, 2, -2])
    scalar = round(tnp.float32(2.5))
    assert isinstance(scalar, trellax.Array) and scalar.dtype == np.int32
    assert int(scalar) == 2
    jitted = trellax.jit(round)(tnp.float32(1.234))  # no concretization error
    assert jitted.dtype == np.int32 and int(jitted) == 1
    assert round(tnp.array(3.7 + 1j, tnp.complex64)).tolist() == 4
    with_digits = round(tnp.float32(7.53), 1)
    assert with_digits.dtype == np.float32
    assert float(with_digits) == pytest.approx(7.5)


class _StandsFor:
    def __jax_array__(self) -> trellax.Array:
        return tnp.array([3.0, 4.0, 5.0])


@pytest.mark.parametrize(
    ("op", "expected", "reflected"),
    [
        (lambda a, b: a * b, [0.0, 4.0, 10.0], [0.0, 4.0, 10.0]),
        (lambda a, b: a + b, [3.0, 5.0, 7.0], [3.0, 5.0, 7.0]),
        (lambda a, b: a - b, [-3.0, -3.0, -3.0], [3.0, 3.0, 3.0]),
        (lambda a, b: a / b, [0.0, 0.25, 0.4], [np.inf, 4.0, 2.5]),
        (lambda a, b: a**b, [0.0, 1.0, 32.0], [1.0, 4.0, 25.0]),
        (lambda a, b: a < b, [True, True, True], [False, False, False]),
        (lambda a, b: a @ b, 14.0, 14.0),
    ],
)
def test_operators_take_jax_array_operands(op: object, expected: object, reflected: object) -> None:
    x = tnp.arange(3.0)
    fn = op  # type: ignore[assignment]
    np.testing.assert_allclose(fn(x, _StandsFor()), expected)  # type: ignore[operator]
    np.testing.assert_allclose(fn(_StandsFor(), x), reflected)  # type: ignore[operator]


def test_jax_array_operand_under_transformations() -> None:
    x = tnp.arange(3.0)
    np.testing.assert_allclose(trellax.jit(lambda x: x * _StandsFor())(x), [0.0, 4.0, 10.0])
    np.testing.assert_allclose(
        trellax.grad(lambda x: tnp.sum(x * _StandsFor()))(x), [3.0, 4.0, 5.0]
    )


def test_load_bfloat16_npy() -> None:
    f = io.BytesIO()
    tnp.save(f, tnp.array([1.5, 2.0, -3.25], BF16))
    f.seek(0)
    out = tnp.load(f)
    assert out.dtype == BF16
    np.testing.assert_array_equal(np.asarray(out, np.float32), [1.5, 2.0, -3.25])


def _pad_with(
    vector: trellax.Array, pad_width: tuple[int, int], iaxis: int, kwargs: dict
) -> trellax.Array:  # type: ignore[type-arg]
    value = kwargs.get("padder", 10)
    vector = vector.at[: pad_width[0]].set(value + iaxis)
    return vector.at[vector.shape[0] - pad_width[1] :].set(-value)


def _np_pad_with(vector: np.ndarray, pad_width: tuple[int, int], iaxis: int, kwargs: dict) -> None:  # type: ignore[type-arg]
    value = kwargs.get("padder", 10)
    vector[: pad_width[0]] = value + iaxis
    vector[vector.shape[0] - pad_width[1] :] = -value


@pytest.mark.parametrize(
    ("shape", "widths", "kwargs"),
    [((2, 3), 2, {}), ((2, 3, 4), ((1, 0), (0, 2), (1, 1)), {"padder": 100}), ((4,), 1, {})],
)
def test_pad_with_a_function(shape: tuple[int, ...], widths: object, kwargs: dict) -> None:  # type: ignore[type-arg]
    a = np.arange(np.prod(shape)).reshape(shape)
    expected = np.pad(a, widths, _np_pad_with, **kwargs)  # type: ignore[call-overload]
    np.testing.assert_array_equal(tnp.pad(a, widths, _pad_with, **kwargs), expected)
    jitted = trellax.jit(lambda a: tnp.pad(a, widths, _pad_with, **kwargs))(a)
    np.testing.assert_array_equal(jitted, expected)


@pytest.mark.parametrize("mode", [1, None, "foo"])
def test_pad_unknown_mode_not_implemented(mode: object) -> None:
    with pytest.raises(
        NotImplementedError, match=f"Unimplemented padding mode '{mode}' for np.pad."
    ):
        tnp.pad(tnp.arange(3), 1, mode)  # type: ignore[arg-type]


def test_tensordot_errors_are_type_errors() -> None:
    a, b = np.ones((3, 2, 2)), np.ones((2,))
    with pytest.raises(TypeError, match="tensordot requires axes lists to have equal length"):
        tnp.tensordot(a, b, axes=([0], [0, 1]))
    with pytest.raises(TypeError, match="either ints, tuples or lists"):
        tnp.tensordot(a, b, axes=("bad", "axes"))
    with pytest.raises(TypeError, match="an int, a pair of ints, or a pair of lists"):
        tnp.tensordot(a, b, axes="badaxes")


def test_shape_errors_in_jax_words() -> None:
    with pytest.raises(ValueError, match=r"repeated axis in lax\.expand_dims"):
        tnp.expand_dims(tnp.ones(3), (1, 1))
    with pytest.raises(ValueError, match=r"axis1 and axis2 can not be same\. axis1=1 and axis2=1"):
        tnp.trace(tnp.ones((3, 3)), axis1=1, axis2=1)
    with pytest.raises(ConcretizationTypeError, match="Abstract tracer value encountered"):
        trellax.jit(lambda x, i: tnp.split(x, i))(tnp.arange(4), tnp.array([2]))


@pytest.mark.parametrize("repeats", [[2], 2, [1, 3, 0, 1, 1, 2]])
@pytest.mark.parametrize("axis", [None, 0])
def test_repeat_closed_over_concrete_counts_under_jit(repeats: object, axis: int | None) -> None:
    # counts closed over by a jitted function have values: the output length is static
    counts = tnp.array(repeats)
    m = tnp.arange(6)
    out = trellax.jit(lambda a: tnp.repeat(a, counts, axis=axis))(m)
    np.testing.assert_array_equal(out, np.repeat(np.arange(6), np.asarray(repeats), axis))


def test_split_sections_known_under_jvp() -> None:
    # jvp's tracer of a concrete primal knows its value; an integral float count of sections
    (pieces, _) = trellax.jvp(lambda i: tnp.split(tnp.zeros((12, 2)), i), (2.0,), (1.0,))
    assert [p.shape for p in pieces] == [(6, 2), (6, 2)]
    assert len(tnp.split(tnp.zeros(12), 2.0)) == 2
    with pytest.raises(TypeError):
        tnp.split(tnp.zeros(12), 2.5)


def test_view_of_int4_packs_nibbles_low_first() -> None:
    x = tnp.array([1, 2, 3, 4, -1, -2, -3, -4], tnp.int4)
    np.testing.assert_array_equal(x.view(tnp.int16), np.array([0x4321, -12817], np.int16))
    np.testing.assert_array_equal(
        tnp.array([1, 2, 3, 4, 5, 6, 7, 8], tnp.int4).view(tnp.uint8), [33, 67, 101, 135]
    )
    back = tnp.array([0x4321, -2], tnp.int16).view(tnp.int4)
    np.testing.assert_array_equal(np.asarray(back, np.int8), [1, 2, 3, 4, -2, -1, -1, -1])
    assert tnp.zeros((2, 32), tnp.int4).view(tnp.int16).shape == (2, 8)
    jitted = trellax.jit(lambda v: v.view(tnp.int16))(x)
    np.testing.assert_array_equal(jitted, x.view(tnp.int16))


def test_view_of_complex_as_interleaved_parts() -> None:
    z = tnp.array([1 + 2j, 3 - 4j], tnp.complex64)
    np.testing.assert_array_equal(z.view(tnp.float32), [1.0, 2.0, 3.0, -4.0])
    np.testing.assert_array_equal(
        z.view(tnp.int32), np.array([1, 2, 3, -4], np.float32).view(np.int32)
    )
    np.testing.assert_array_equal(
        tnp.array([1.0, 2, 3, 4], tnp.float32).view(tnp.complex64), [1 + 2j, 3 + 4j]
    )
    assert z.view(tnp.bfloat16).shape == (8,)
    assert z.view(tnp.complex64) is not None
