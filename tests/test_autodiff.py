"""Automatic differentiation: values, dtypes and weak flags, errors, nesting, custom rules.

Expected values, dtypes, weak flags and error texts are JAX 0.10.2's
(shared/reference/jax_transforms_spec.md §1); derivatives are checked against finite differences
in float64.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.scipy.special as sp
from trellax import lax
from trellax._src.core import core
from trellax._src.lax import ad_util
from trellax._src.lax.fft import fft as _lax_fft
from trellax.test_util import check_grads

F = tnp.float32


def _v(x: Any) -> Any:
    return np.asarray(x)


# -- finite differences (float64, x64 on) ---------------------------------------------------------

_X = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
_POS = np.abs(_X) + 0.5

FUNCTIONS: dict[str, tuple[Callable[..., Any], np.ndarray]] = {
    "sin*x": (lambda a: tnp.sin(a) * a, _X),
    "cos": (tnp.cos, _X),
    "tan": (lambda a: tnp.tan(a * 0.3), _X),
    "exp": (tnp.exp, _X),
    "exp2": (tnp.exp2, _X),
    "expm1": (tnp.expm1, _X),
    "log": (tnp.log, _POS),
    "log1p": (tnp.log1p, _POS),
    "sqrt": (tnp.sqrt, _POS),
    "rsqrt": (lambda a: lax.rsqrt(a), _POS),
    "cbrt": (tnp.cbrt, _POS),
    "tanh": (tnp.tanh, _X),
    "logistic": (lambda a: lax.logistic(a), _X),
    "arcsin": (lambda a: tnp.arcsin(a * 0.3), _X),
    "arccos": (lambda a: tnp.arccos(a * 0.3), _X),
    "arctan": (tnp.arctan, _X),
    "sinh": (tnp.sinh, _X),
    "cosh": (tnp.cosh, _X),
    "arcsinh": (tnp.arcsinh, _X),
    "arccosh": (lambda a: tnp.arccosh(a + 1.5), _POS),
    "arctanh": (lambda a: tnp.arctanh(a * 0.3), _X),
    "erf": (lambda a: lax.erf(a), _X),
    "erfc": (lambda a: lax.erfc(a), _X),
    "lgamma": (lambda a: lax.lgamma(a), _POS),
    "digamma": (lambda a: lax.digamma(a), _POS),
    "digamma_negative": (lambda a: lax.digamma(a * 0.3 - 0.5), _X),
    "polygamma": (lambda a: lax.polygamma(tnp.full_like(a, 2.0), a), _POS),
    "igamma_x": (lambda a: lax.igamma(tnp.full_like(a, 1.7), a * 3), _POS),
    "betainc_x": (lambda a: lax.betainc(tnp.full_like(a, 1.7), tnp.full_like(a, 2.5), a / 4), _POS),
    "erfcx": (sp.erfcx, _X),
    "dawsn": (sp.dawsn, _X),
    "exp1": (sp.exp1, _POS),
    "expi": (sp.expi, _X),
    "expn": (lambda a: sp.expn(tnp.full_like(a, 3.0), a), _POS),
    "spence": (sp.spence, _POS),
    "sici": (lambda a: tnp.stack(sp.sici(a * 3)), _POS),
    "fresnel": (lambda a: tnp.stack(sp.fresnel(a)), _X),
    "owens_t": (lambda a: sp.owens_t(a, a * 0.7 - 0.2), _X),
    "hyp1f1_x": (lambda a: sp.hyp1f1(tnp.full_like(a, 0.5), tnp.full_like(a, 1.5), a), _X),
    "bessel_jn": (lambda a: sp.bessel_jn(a * 3, v=3), _X),
    "hyp2f1_x": (
        lambda a: sp.hyp2f1(
            tnp.full_like(a, 0.5), tnp.full_like(a, 1.5), tnp.full_like(a, 2.5), a * 0.3
        ),
        _X,
    ),
    "igammac_x": (lambda a: lax.igammac(tnp.full_like(a, 0.6), a), _POS),
    "i0": (tnp.i0, _X),
    "bessel_i0e": (lambda a: lax.bessel_i0e(a * 20.0), _X),
    "bessel_i1e": (lambda a: lax.bessel_i1e(a * 20.0), _X),
    "erf_inv": (lambda a: lax.erf_inv(a * 0.3), _X),
    "abs": (tnp.abs, _X),
    "square": (tnp.square, _X),
    "integer_pow3": (lambda a: a**3, _X),
    "pow": (lambda a: a**1.7, _POS),
    "pow_xy": (lambda a: tnp.power(a, a), _POS),
    "arctan2": (lambda a: tnp.arctan2(a, a * a + 1), _X),
    "div": (lambda a: 1.0 / (1.0 + a * a), _X),
    "sub": (lambda a: a - 2 * a * a, _X),
    "maximum": (lambda a: tnp.maximum(a, 0.5), _X),
    "minimum": (lambda a: tnp.minimum(a, a * a), _X),
    "remainder": (lambda a: tnp.fmod(a, 0.65), _X),
    "where": (lambda a: tnp.where(a > 0, a, 2 * a), _X),
    "clip": (lambda a: tnp.clip(a, -1.0, 1.0), _X),
    "clamp": (lambda a: lax.clamp(-1.0, a, 1.0), _X),
    "sum": (lambda a: tnp.sum(a * a, axis=0), _X),
    "mean": (lambda a: tnp.mean(a, axis=1), _X),
    "prod": (lambda a: tnp.prod(a, axis=1), _X),
    "max": (lambda a: tnp.max(a, axis=0), _X),
    "min": (lambda a: tnp.min(a), _X),
    "var": (tnp.var, _X),
    "std": (tnp.std, _X),
    "logsumexp": (lambda a: tnp.log(tnp.sum(tnp.exp(a))), _X),
    "cumsum": (lambda a: tnp.cumsum(a, axis=1), _X),
    "cumprod": (lambda a: tnp.cumprod(a, axis=1), _X),
    "cummax": (lambda a: lax.cummax(a, axis=1), _X),
    "cummin_rev": (lambda a: lax.cummin(a, axis=1, reverse=True), _X),
    "matmul": (lambda a: a @ a.T, _X),
    "einsum": (lambda a: tnp.einsum("ij,kj->ik", a, a * a), _X),
    "dot_general_batch": (
        lambda a: lax.dot_general(a, a, (((1,), (1,)), ((0,), (0,)))),
        _X,
    ),
    "transpose": (lambda a: a.T * tnp.arange(2.0), _X),
    "reshape": (lambda a: tnp.reshape(a, (3, 2)) * tnp.arange(2.0), _X),
    "concatenate": (lambda a: tnp.concatenate([a, a * a], axis=0), _X),
    "pad": (lambda a: tnp.pad(a * a, ((1, 0), (0, 2))), _X),
    "lax_pad_interior": (lambda a: lax.pad(a, 0.5, ((1, -1, 1), (0, 1, 0))), _X),
    "lax_slice": (lambda a: lax.slice(a * a, (0, 0), (2, 3), (1, 2)), _X),
    "dynamic_slice": (lambda a: lax.dynamic_slice(a * a, (1, 1), (1, 2)), _X),
    "dynamic_update_slice": (
        lambda a: lax.dynamic_update_slice(a, lax.slice(a, (0, 0), (1, 2)) * 3.0, (1, 0)),
        _X,
    ),
    "flip": (lambda a: tnp.flip(a * a, 1), _X),
    "broadcast_to": (lambda a: tnp.broadcast_to(a, (4, 2, 3)), _X),
    "expand_squeeze": (lambda a: tnp.squeeze(tnp.expand_dims(a * a, 0), 0), _X),
    "sort": (lambda a: tnp.sort(a * a, axis=1), _X),
    "take": (lambda a: tnp.take(a, tnp.array([2, 0, 2]), axis=1) ** 2, _X),
    # check_grads passes NumPy arrays to f for its finite differences (as JAX's does)
    "at_set": (
        lambda a: tnp.asarray(a).at[0, tnp.array([1, 1])].set(a[1, :2] * a[1, :2]),
        _X,
    ),
    "convert": (lambda a: a.astype(tnp.float32).astype(tnp.float64) * 1.0, _X),
    "norm": (lambda a: tnp.linalg.norm(a), _X),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_check_grads_against_finite_differences(name: str) -> None:
    f, x = FUNCTIONS[name]
    with trellax.enable_x64():
        tol = 1e-2 if name == "convert" else None
        check_grads(f, (tnp.asarray(x),), order=2, atol=tol, rtol=tol)


#: first order only: their derivatives' derivatives raise, as JAX's (igamma_grad_a has no rule)
FIRST_ORDER: dict[str, tuple[Callable[..., Any], np.ndarray]] = {
    "igamma_a": (lambda a: lax.igamma(a * 3, tnp.full_like(a, 2.5)), _POS),
    "igammac_a": (lambda a: lax.igammac(a, tnp.full_like(a, 0.8)), _POS),
    "igamma_a_fraction": (lambda a: lax.igamma(a, tnp.full_like(a, 9.0)), _POS),
    "hyp1f1_a": (lambda a: sp.hyp1f1(a, tnp.full_like(a, 1.5), tnp.full_like(a, -2.0)), _POS),
    "hyp2f1_a": (
        lambda a: sp.hyp2f1(
            a, tnp.full_like(a, 1.5), tnp.full_like(a, 2.5), tnp.full_like(a, -0.6)
        ),
        _POS,
    ),
    "hyp2f1_b": (
        lambda a: sp.hyp2f1(tnp.full_like(a, 0.5), a, tnp.full_like(a, 2.5), tnp.full_like(a, 0.6)),
        _POS,
    ),
    "hyp2f1_c": (
        lambda a: sp.hyp2f1(
            tnp.full_like(a, 0.5), tnp.full_like(a, 1.5), a + 1, tnp.full_like(a, -2.0)
        ),
        _POS,
    ),
    "hyp1f1_b": (lambda a: sp.hyp1f1(tnp.full_like(a, 0.5), a + 1, tnp.full_like(a, 3.0)), _POS),
}


@pytest.mark.parametrize("name", sorted(FIRST_ORDER))
def test_first_order_grads_against_finite_differences(name: str) -> None:
    f, x = FIRST_ORDER[name]
    with trellax.enable_x64():
        check_grads(f, (tnp.asarray(x),), order=1)
    with pytest.raises(NotImplementedError, match=r"_grad_[abc]"):
        trellax.grad(trellax.grad(lambda a: f(a).sum()))(tnp.asarray(x[0, 0]))


@pytest.mark.parametrize("name", ["sin*x", "prod", "matmul", "sort", "pad", "cumprod", "max"])
def test_jit_of_grad_equals_grad(name: str) -> None:
    f, x = FUNCTIONS[name]
    with trellax.enable_x64():

        def loss(a: Any) -> Any:
            return tnp.sum(f(a) * tnp.arange(1.0, 1.0 + f(a).size).reshape(f(a).shape))

        g = trellax.grad(loss)(tnp.asarray(x))
        gj = trellax.jit(trellax.grad(loss))(tnp.asarray(x))
        np.testing.assert_allclose(_v(gj), _v(g), rtol=1e-12)
        gg = trellax.grad(trellax.jit(loss))(tnp.asarray(x))
        np.testing.assert_allclose(_v(gg), _v(g), rtol=1e-12)


def test_hessian_equals_jacfwd_of_jacrev() -> None:
    with trellax.enable_x64():

        def f(a: Any) -> Any:
            return tnp.sum(tnp.sin(a) * tnp.flip(a) ** 2)

        x = tnp.asarray([0.3, -1.2, 2.0])
        h = trellax.hessian(f)(x)
        assert h.shape == (3, 3)
        np.testing.assert_allclose(_v(h), _v(trellax.jacfwd(trellax.jacrev(f))(x)), rtol=1e-12)
        np.testing.assert_allclose(_v(h), _v(trellax.jacrev(trellax.jacfwd(f))(x)), rtol=1e-12)
        np.testing.assert_allclose(_v(h), _v(h).T, rtol=1e-12)


def test_jacobian_shapes_and_pytrees() -> None:
    def f(d: Any) -> Any:
        return {"y": d["a"] * lax.reshape(lax.slice(d["b"], (0,), (1,)), ()), "z": d["a"].sum()}

    x = {"a": tnp.ones(3), "b": tnp.ones(2) * 2}
    for jac in (trellax.jacfwd, trellax.jacrev, trellax.jacobian):
        j = jac(f)(x)
        assert j["y"]["a"].shape == (3, 3) and j["y"]["b"].shape == (3, 2)
        assert j["z"]["a"].shape == (3,) and j["z"]["b"].shape == (2,)
        np.testing.assert_allclose(_v(j["y"]["a"]), 2 * np.eye(3))
        np.testing.assert_allclose(_v(j["y"]["b"]), [[1, 0]] * 3)
    assert trellax.jacobian is not trellax.jacrev
    assert trellax.hessian(lambda x: x**3)(tnp.ones(2)).shape == (2, 2, 2)


# -- the adjoint identity for every linear primitive's transpose ---------------------------------

_RNG = np.random.RandomState(0)


def _r(*shape: int) -> Any:
    return _RNG.randn(*shape)  # NumPy float64: becomes float64 under enable_x64


_C23, _C3, _C34, _C523, _C25, _C33 = _r(2, 3), _r(3), _r(3, 4), _r(5, 2, 3), _r(2, 5), _r(3, 3)

LINEAR: dict[str, tuple[Callable[[Any], Any], Any]] = {
    "add": (lambda t: lax.add(t, t), _r(2, 3)),
    "sub": (lambda t: lax.sub(_C23, t), _r(2, 3)),
    "neg": (lax.neg, _r(3)),
    "mul": (lambda t: lax.mul(t, _C23), _r(2, 3)),
    "div": (lambda t: lax.div(t, _C3 + 3.0), _r(3)),
    "add_any": (lambda t: ad_util.add_any_p.bind(t, t), _r(3)),
    "convert_element_type": (lambda t: lax.convert_element_type(t, tnp.float32), _r(3)),
    "reduce_sum": (lambda t: lax.reduce_sum(t, (0, 2)), _r(2, 3, 4)),
    "cumsum": (lambda t: lax.cumsum(t, axis=1, reverse=True), _r(2, 3)),
    "broadcast_in_dim": (lambda t: lax.broadcast_in_dim(t, (4, 2, 3), (1, 2)), _r(1, 3)),
    "reshape": (lambda t: lax.reshape(t, (3, 2)), _r(2, 3)),
    "squeeze": (lambda t: lax.squeeze(t, (1,)), _r(2, 1, 3)),
    "expand_dims": (lambda t: lax.expand_dims(t, (0, 2)), _r(2, 3)),
    "transpose": (lambda t: lax.transpose(t, (2, 0, 1)), _r(2, 3, 4)),
    "rev": (lambda t: lax.rev(t, (0,)), _r(2, 3)),
    "concatenate": (lambda t: lax.concatenate([t, t * 2.0], 1), _r(2, 3)),
    "pad": (lambda t: lax.pad(t, 0.0, ((1, -1, 2), (0, 2, 0))), _r(3, 2)),
    "slice": (lambda t: lax.slice(t, (0, 1), (3, 5), (2, 2)), _r(3, 5)),
    "dynamic_slice": (lambda t: lax.dynamic_slice(t, (1, 2), (2, 2)), _r(3, 4)),
    "dynamic_update_slice": (
        lambda t: lax.dynamic_update_slice(t, lax.slice(t, (0, 0), (1, 2)) * 2.0, (1, 0)),
        _r(3, 2),
    ),
    "select_n": (lambda t: lax.select_n(tnp.asarray(_C23 > 0), t, t * 3.0), _r(2, 3)),
    "dot_general": (lambda t: lax.dot_general(t, _C34, (((1,), (0,)), ((), ()))), _r(2, 3)),
    "dot_general_rhs": (
        lambda t: lax.dot_general(_C523, t, (((2,), (1,)), ((0,), (0,)))),
        _r(5, 3, 4),
    ),
    "sort": (lambda t: lax.sort((_C25, t), num_keys=1)[1], _r(2, 5)),
    "real": (lax.real, _RNG.randn(3) + 1j * _RNG.randn(3)),
    "imag": (lax.imag, _RNG.randn(3) + 1j * _RNG.randn(3)),
    "conj": (lax.conj, _RNG.randn(3) + 1j * _RNG.randn(3)),
    "complex": (lambda t: lax.complex(t, t * 2.0), _r(3)),
    "fft": (lambda t: _lax_fft(t, "FFT", (2, 3)), _r(2, 3) + 1j * _r(2, 3)),
    "fft_ifft": (lambda t: _lax_fft(t, "IFFT", (3,)), _r(2, 3) + 1j * _r(2, 3)),
    "fft_rfft": (lambda t: _lax_fft(t, "RFFT", (5,)), _r(2, 5)),
    "fft_irfft": (lambda t: _lax_fft(t, "IRFFT", (6,)), _r(4) + 1j * _r(4)),
    "gather": (lambda t: t.at[tnp.array([2, 0, 2, 7])].get(mode="fill"), _r(3, 2)),
    "scatter-add": (lambda t: t.at[tnp.array([1, 1, 5])].add(_C3), _r(4)),
    "scatter-add_rhs": (lambda t: tnp.asarray(_C3).at[tnp.array([1, 1, 0, 3])].add(t), _r(4)),
    "solve": (lambda t: lax.linalg.solve(_C33 + 3.0 * np.eye(3), t), _r(3, 2)),
    "triangular_solve": (
        lambda t: lax.linalg.triangular_solve(_C33 + 3.0 * np.eye(3), t, lower=True),
        _r(2, 3),
    ),
}


@pytest.mark.parametrize("name", sorted(LINEAR))
def test_adjoint_identity(name: str) -> None:
    f, x = LINEAR[name]
    with trellax.enable_x64():
        x = tnp.asarray(x)
        y, f_vjp = trellax.vjp(f, x)
        rng = np.random.RandomState(1)
        t = tnp.asarray(rng.randn(*x.shape).astype(x.dtype))
        ct = tnp.asarray(rng.randn(*y.shape).astype(y.dtype))
        _, jt = trellax.jvp(f, (x,), (t,))
        (vct,) = f_vjp(ct)
        lhs = np.real(np.sum(_v(vct) * _v(t)))
        rhs = np.real(np.sum(_v(ct) * _v(jt)))
        np.testing.assert_allclose(lhs, rhs, rtol=1e-5, atol=1e-5)
        assert vct.shape == x.shape and vct.dtype == x.dtype


# -- rule coverage --------------------------------------------------------------------------------

#: Primitives without a JVP rule, and why (the coverage test fails when a rule appears or goes).
NO_JVP_YET: dict[str, str] = {}


def test_every_primitive_has_a_jvp_rule_or_a_reason() -> None:
    missing = []
    for name, p in sorted(core.primitives().items()):
        if name.startswith("test_only"):
            continue
        if p.jvp_rule is None and name not in NO_JVP_YET and name not in _no_jvp_documented():
            missing.append(name)
    assert missing == []
    for name in [*NO_JVP_YET, *_no_jvp_documented()]:
        assert core.primitives()[name].jvp_rule is None, f"{name} has a rule now: drop it here"


def _no_jvp_documented() -> dict[str, str]:
    from trellax._src.interpreters.ad import NOT_DIFFERENTIABLE_YET

    return NOT_DIFFERENTIABLE_YET


def test_linear_primitives_have_transposes() -> None:
    for name in LINEAR:
        prim = name.removesuffix("_rhs").split("_")[0] if name.startswith("fft") else name
        prim = prim.removesuffix("_rhs")
        assert core.primitives()[prim].transpose_rule is not None, prim


def test_zero_tangent_primitives_are_listed_with_reasons() -> None:
    assert {"eq", "sign", "floor", "argmax", "and", "iota"} <= set(ad_util.ZERO_TANGENT)
    assert all(ad_util.ZERO_TANGENT.values())


# -- linear algebra and FFT -----------------------------------------------------------------------

_LRNG = np.random.RandomState(3)
_A = _LRNG.randn(3, 3) + 3 * np.eye(3)
_SPD = (lambda m: m @ m.T + 3 * np.eye(3))(_LRNG.randn(3, 3))
_B = _LRNG.randn(3, 2)
_C = _LRNG.randn(4, 3)
_Z = _LRNG.randn(4) + 1j * _LRNG.randn(4)


def _abs_uv(out: Any) -> Any:
    u, s, vt = out
    return tnp.abs(u), s, tnp.abs(vt)  # singular vectors are defined up to sign


LINALG: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
    "inv": (tnp.linalg.inv, (_A,)),
    "det": (tnp.linalg.det, (_A,)),
    "slogdet": (lambda a: tnp.linalg.slogdet(a)[1], (_A,)),
    "solve": (tnp.linalg.solve, (_A, _B)),
    "triangular_solve": (
        lambda a, b: lax.linalg.triangular_solve(a, b, left_side=True, lower=True),
        (_A, _B),
    ),
    "cholesky": (tnp.linalg.cholesky, (_SPD,)),
    # symmetric functions of the eigenvalues (independent of their order)
    "eigvals": (lambda a: (tnp.linalg.eigvals(a) ** 2).sum() + tnp.linalg.eigvals(a).prod(), (_A,)),
    "eigh_w": (lambda s: tnp.linalg.eigh(s)[0], (_SPD,)),
    "eigh_v": (lambda s: tnp.abs(tnp.linalg.eigh(s)[1]), (_SPD,)),
    "svd_s": (lambda a: tnp.linalg.svd(a, compute_uv=False), (_C,)),
    "svd_uv_tall": (lambda a: _abs_uv(tnp.linalg.svd(a, full_matrices=False)), (_C,)),
    "svd_uv_wide": (lambda a: _abs_uv(tnp.linalg.svd(a, full_matrices=False)), (_C.T,)),
    "qr": (lambda a: tnp.linalg.qr(a, mode="reduced"), (_C,)),
    "norm_2": (lambda a: tnp.linalg.norm(a, 2), (_A,)),
    "pinv": (tnp.linalg.pinv, (_A,)),
    "lstsq": (lambda a, b: tnp.linalg.lstsq(a, b)[0], (_A, _B)),
    "fft": (tnp.fft.fft, (_Z,)),
    "ifft2": (tnp.fft.ifft2, (_Z.reshape(2, 2),)),
    "rfft": (tnp.fft.rfft, (_Z.real,)),
    "rfft2": (tnp.fft.rfft2, (_C,)),
    "irfft": (tnp.fft.irfft, (_Z,)),
    "irfft_odd": (lambda x: tnp.fft.irfft(x, n=7), (_Z,)),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_and_fft_grads(name: str) -> None:
    f, args = LINALG[name]
    with trellax.enable_x64():
        order = 2 if name in ("inv", "solve", "fft", "rfft") else 1
        check_grads(f, tuple(tnp.asarray(a) for a in args), order=order)


def test_linalg_rules_refuse_unimplemented_cases() -> None:
    with pytest.raises(NotImplementedError, match="full matrices"):
        trellax.jvp(lambda a: tnp.linalg.svd(a)[0], (tnp.ones((3, 2)),), (tnp.ones((3, 2)),))
    with pytest.raises(NotImplementedError, match="Derivatives of non-symmetric eigenvectors"):
        trellax.grad(lambda a: tnp.real(tnp.linalg.eig(a)[0]).sum())(tnp.eye(2))
