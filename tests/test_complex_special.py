"""Complex operands of the elementwise special functions (issue 24): which functions accept
them (as JAX 0.10.2, tests/golden/complex_special.json from tools/gen_golden_complex_special.py)
and the values of the principal ``loggamma`` and ``gamma``, against mpmath (40 digits) and
JAX, at special points and under differentiation."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as jnp
import trellax.scipy.special as jss

GOLD = json.loads((pathlib.Path(__file__).parent / "golden" / "complex_special.json").read_text())
MODS: dict[str, Any] = {"special": jss, "lax": lax}
EPS = float(np.finfo(np.float64).eps)
#: complex operands JAX computes with that trellax refuses: JAX's owens_t of a complex operand
#: is not Owen's T continued (mpmath: T(1.5+0.5j, 1.5) = 0.02145-0.03052j, JAX 0.02830+0j;
#: T(1.5, 1.5+0.5j) = 0.03364+0.00024j, JAX 0.03152+0.01051j), see docs/semantics.md
REFUSED = {"special.owens_t": TypeError}


def dec(rows: list[Any]) -> np.ndarray:
    return np.array([complex(float(r), float(i)) for r, i in rows])


def outcome(fn: Any, args: list[Any]) -> tuple[str, str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(*args)
        if isinstance(out, tuple):
            out = out[0]
        return "ok", str(out.dtype)
    except Exception as e:
        return type(e).__name__, str(e)


@pytest.fixture(autouse=True)
def _x64() -> Any:
    with trellax.experimental.enable_x64():
        yield


@pytest.mark.parametrize("key", sorted(GOLD["survey"]))
def test_complex_operand_accepted_or_refused_as_jax(key: str) -> None:
    cls, detail = GOLD["survey"][key]
    qual, dt, pos = key.split("/")
    mod, name = qual.split(".")
    z = np.array([1.5 + 0.5j, -2.3 + 0.1j], dt)
    reals = GOLD["operands"].get(qual)
    args: list[Any] = [z]
    if reals is not None:
        real_dt = "float32" if dt == "complex64" else "float64"
        args = [np.full(2, r, real_dt) for r in reals]
        args[int(pos)] = z
    got_cls, got_detail = outcome(getattr(MODS[mod], name), args)
    if qual in REFUSED:
        assert cls == "ok" and got_cls == REFUSED[qual].__name__, (cls, got_cls)
        return
    assert got_cls == cls, (got_cls, got_detail, cls, detail)
    if cls == "ok":
        assert got_detail == detail


def _values(dt: str) -> dict[str, np.ndarray]:
    rec = GOLD["values"][dt]
    out = {k: dec(rec[k]).astype(dt) for k in ("points", "gamma", "loggamma")}
    return out


def _mp(name: str) -> tuple[np.ndarray, np.ndarray]:
    rows = GOLD["values"]["complex128"][f"mp_{name}"]
    known = np.array([r is not None for r in rows])
    ref = np.array([complex(float(r[0]), float(r[1])) if r else 0j for r in rows])
    return known, ref


def test_loggamma_against_mpmath() -> None:
    z = _values("complex128")["points"]
    got = np.asarray(jss.loggamma(z))
    known, ref = _mp("loggamma")
    err = np.abs(got[known] - ref[known]) / np.maximum(np.abs(ref[known]), 1e-300)
    # measured 5.3e-15 at most (24 ulps), median 1.2e-16 (JAX: 7.7e-8 at 1 + 1e-8, its zeros
    # at 1 and 2 keep only absolute accuracy)
    assert err.max() <= 32 * EPS, err.max()
    assert np.median(err) <= EPS


def test_gamma_against_mpmath() -> None:
    z = _values("complex128")["points"]
    got = np.asarray(jss.gamma(z))
    known, ref = _mp("gamma")
    normal = known & (np.abs(ref) > 1e-300)  # (subnormal results have fewer digits)
    _, lg = _mp("loggamma")
    err = np.abs(got[normal] - ref[normal]) / np.abs(ref[normal])
    # exp(loggamma): the error of the exponent (|loggamma| ulps) is the result's relative error
    bound = 16 * EPS * (1 + np.abs(lg[normal]))  # (measured: at most 13.6 of the 16)
    assert np.all(err <= bound), (err / bound).max()


def test_special_points_as_jax() -> None:
    for dt in ("complex64", "complex128"):
        v = _values(dt)
        z = v["points"]
        for name in ("gamma", "loggamma"):
            got = np.asarray(getattr(jss, name)(z))
            want = v[name]
            assert got.dtype == np.dtype(dt)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
            # the side of the cut: the imaginary part's sign wherever JAX's is not noise
            ok = ~np.isnan(want) & (np.abs(want.imag) > 1e-6 * np.abs(want))
            np.testing.assert_array_equal(np.sign(got.imag[ok]), np.sign(want.imag[ok]))


def test_values_close_to_jax_or_closer_to_mpmath() -> None:
    v = _values("complex128")
    z = v["points"]
    for name in ("gamma", "loggamma"):
        got = np.asarray(getattr(jss, name)(z))
        want = v[name]
        known, ref = _mp(name)
        ok = known & (np.abs(ref) > 1e-300)
        scale = np.abs(ref[ok])
        if name == "gamma":  # exp of a large exponent: the relative error grows with it
            with np.errstate(over="ignore"):
                scale = scale * (1 + np.abs(np.asarray(jss.loggamma(z)))[ok])
        ours = np.abs(got[ok] - ref[ok]) / scale
        theirs = np.abs(want[ok] - ref[ok]) / scale
        jax_right = theirs <= 1e-13
        # where JAX is right, the two agree; where it is not (loggamma near its zeros at 1 and
        # 2, gamma near the poles), trellax is closer to mpmath
        agree = np.abs(got[ok] - want[ok]) / scale
        assert agree[jax_right].max() <= 1e-13, (name, agree[jax_right].max())
        assert np.all(ours[~jax_right] < theirs[~jax_right] / 100), name
        # (measured: 15 such points for gamma, all 1e-6 from the poles -1 ... -5; 4 for
        # loggamma, 1e-7 ... 1e-9 from 1 and 2)
        assert (~jax_right).sum() <= 16, (name, z[ok][~jax_right])


def test_complex64_is_the_complex128_value_rounded() -> None:
    z64 = _values("complex64")["points"]
    for name in ("gamma", "loggamma"):
        f = getattr(jss, name)
        got = np.asarray(f(z64))
        assert got.dtype == np.complex64
        with np.errstate(over="ignore"):
            wide = np.asarray(f(z64.astype(np.complex128))).astype(np.complex64)
        np.testing.assert_array_equal(got, wide)


def test_negative_real_axis_takes_the_upper_side() -> None:
    # as JAX: a -0 imaginary part is taken as +0 (SciPy: loggamma(-2.5-0j) has +3πi)
    for imag in (0.0, -0.0):
        val = complex(jss.loggamma(complex(-2.5, imag)))
        assert val.imag == pytest.approx(-3 * np.pi, rel=1e-15)
        assert val.real == pytest.approx(-0.05624371649767405, rel=1e-14)
    # just below the axis: the conjugate
    assert complex(jss.loggamma(complex(-3.3, -1e-20))).imag == pytest.approx(4 * np.pi, 1e-15)
    assert complex(jss.gamma(complex(-2.5, 0.0))) == pytest.approx(-0.9453087204829419, 1e-15)


def test_poles_and_non_finite_are_nan() -> None:
    for v in (0j, -1 + 0j, -7 + 0j, complex(np.inf, 0), complex(0, np.inf), complex(1, np.nan)):
        for f in (jss.gamma, jss.loggamma):
            out = complex(f(v))
            assert np.isnan(out.real) and np.isnan(out.imag), (f, v, out)


def test_derivatives_as_jax() -> None:
    d = GOLD["derivs"]
    z = jnp.asarray(dec(d["points"]))
    t = jnp.full(z.shape, 1 + 2j)
    for name in ("gamma", "loggamma"):
        _, tan = trellax.jvp(getattr(jss, name), (z,), (t,))
        np.testing.assert_allclose(np.asarray(tan), dec(d[f"jvp_{name}"]), rtol=1e-13)
    g1 = trellax.grad(jss.gamma, holomorphic=True)
    np.testing.assert_allclose(np.asarray(trellax.vmap(g1)(z)), dec(d["grad_gamma"]), rtol=1e-13)
    g2 = trellax.vmap(trellax.grad(g1, holomorphic=True))(z)
    np.testing.assert_allclose(np.asarray(g2), dec(d["grad2_gamma"]), rtol=1e-12)
    # JAX's reverse mode of complex loggamma raises (its while_loop); trellax gives digamma,
    # the jvp's tangent divided by the tangent direction
    assert d["grad_loggamma_error"][0] == "ValueError"
    gl = trellax.vmap(trellax.grad(jss.loggamma, holomorphic=True))(z)
    np.testing.assert_allclose(np.asarray(gl), dec(d["jvp_loggamma"]) / (1 + 2j), rtol=1e-13)


def test_higher_derivatives_of_loggamma() -> None:
    d = GOLD["derivs"]
    z = jnp.asarray(dec(d["points"]))
    f: Any = jss.loggamma
    for n in range(1, 5):  # the n-th derivative of loggamma is ψ^(n-1)
        f = trellax.grad(f, holomorphic=True)
        if n == 1:
            continue
        got = np.asarray(trellax.vmap(f)(z))
        want = dec(d["mp_polygamma"][str(n - 1)])
        # measured: 2.2e-16 (n = 2), 8.5e-16 (3), 6.5e-16 (4); JAX's third: 2.9e-13
        np.testing.assert_allclose(got, want, rtol=1e-13)
        if n == 2:  # also loggamma'' = gamma''/gamma - (gamma'/gamma)², from JAX's derivatives
            g = np.asarray(jss.gamma(z))
            from_gamma = dec(d["grad2_gamma"]) / g - (dec(d["grad_gamma"]) / g) ** 2
            np.testing.assert_allclose(got, from_gamma, rtol=1e-12)
        if n == 3:  # JAX's third derivative by nested jvp
            np.testing.assert_allclose(got, dec(d["d3_loggamma"]), rtol=1e-12)


def test_jit_and_vmap_match_eager() -> None:
    z = _values("complex128")["points"][:64]
    for f in (jss.gamma, jss.loggamma):
        eager = np.asarray(f(z))
        np.testing.assert_array_equal(np.asarray(trellax.jit(f)(z)), eager)
        np.testing.assert_array_equal(np.asarray(trellax.vmap(f)(z)), eager)


def test_random_gamma_grad_refuses_complex() -> None:
    z = jnp.asarray(np.array([1.5 + 0.5j]))
    with pytest.raises(TypeError, match="le does not accept dtype complex128"):
        lax.random_gamma_grad(z, z)
