"""User-defined extended dtypes (``dtypes/extended.py``, ``lax/extended_dtypes.py``): arrays of a
dtype a library defines with rules, through conversion, ``jit``, ``vmap`` and differentiation,
with cotangents accumulated by the dtype's own ``add`` (a running maximum here)."""

from __future__ import annotations

import dataclasses
import json
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.backend.array import EArray
from trellax._src.core.core import ShapedArray, physical_aval
from trellax._src.dtypes.dtypes import extended, issubdtype
from trellax._src.dtypes.extended import ExtendedDType, primal_tangent_dtype
from trellax._src.random.keys import KEY_DTYPE
from trellax.nn import fp8_ops

F32 = np.dtype(np.float32)


class running_max(extended):
    """The scalar type of :class:`MaxTy`."""


class MaxRules:
    """float32 values whose cotangents combine with ``max`` from ``-inf``."""

    allow_conversion = True

    @staticmethod
    def physical_element_aval(dt: Any) -> ShapedArray:
        return ShapedArray((), dt.float_dtype)

    @staticmethod
    def add(dt: Any, x: Any, y: Any) -> Any:
        f = dt.float_dtype
        both = lax.max(lax.convert_element_type(x, f), lax.convert_element_type(y, f))
        return lax.convert_element_type(both, dt)

    @staticmethod
    def zero(dt: Any) -> Any:
        return lax.convert_element_type(np.array(-np.inf, dt.float_dtype), dt)

    @staticmethod
    def tangent_dtype(dt: Any) -> Any:
        return dt


@dataclasses.dataclass(frozen=True)
class MaxTy(ExtendedDType):
    float_dtype: Any
    name: str = "maxf32"
    type: Any = running_max
    _rules: Any = MaxRules


MAX = MaxTy(F32)


def to_max(x: Any) -> Any:
    return lax.convert_element_type(x, MAX)


def to_f32(x: Any) -> Any:
    return lax.convert_element_type(x, F32)


# -- arrays of an extended dtype ---------------------------------------------------------------


def test_conversion_makes_an_array_of_the_extended_dtype() -> None:
    e = to_max(jnp.arange(3.0))
    assert isinstance(e, EArray) and isinstance(e, trellax.Array)
    assert e.dtype == MAX and e.shape == (3,) and e.ndim == 1 and e.size == 3
    assert repr(e) == "EArray([0., 1., 2.], dtype=float32)"  # JAX prints the physical array
    back = to_f32(e)
    assert back.dtype == F32
    np.testing.assert_array_equal(np.asarray(back), [0.0, 1.0, 2.0])
    assert trellax.typeof(e) == ShapedArray((3,), MAX)
    assert trellax.tree_util.tree_leaves(e) == [e]  # a leaf, as JAX's EArray


def test_an_extended_array_has_no_numpy_value_and_no_arithmetic() -> None:
    e = to_max(jnp.ones(2))
    with pytest.raises(TypeError, match="extended dtype maxf32 has no NumPy value"):
        np.asarray(e)
    with pytest.raises(TypeError, match="add does not accept dtype maxf32"):
        lax.add(e, e)


def test_issubdtype_of_extended_dtypes() -> None:
    assert issubdtype(MAX, running_max) and issubdtype(MAX, extended)
    assert not issubdtype(MAX, np.floating)
    assert isinstance(KEY_DTYPE, ExtendedDType)  # the built-in one shares the base class


def test_jit_takes_and_returns_extended_arrays() -> None:
    e = trellax.jit(to_max)(jnp.arange(3.0))
    assert isinstance(e, EArray) and e.dtype == MAX
    same = trellax.jit(lambda a: a)(e)
    assert isinstance(same, EArray) and same.dtype == MAX
    np.testing.assert_array_equal(np.asarray(to_f32(same)), [0.0, 1.0, 2.0])
    jaxpr = str(trellax.make_jaxpr(lambda a: to_f32(to_max(a)))(jnp.ones(2)))
    assert "maxf32[2] = to_edtype" in jaxpr and "f32[2] = from_edtype" in jaxpr


def test_vmap_over_extended_arrays() -> None:
    e = to_max(jnp.arange(4.0).reshape(2, 2))
    out = trellax.vmap(to_f32, in_axes=1)(e)
    np.testing.assert_array_equal(np.asarray(out), [[0.0, 2.0], [1.0, 3.0]])
    kept = trellax.vmap(lambda a: a)(e)
    assert kept.dtype == MAX and kept.shape == (2, 2)


def _triple() -> ExtendedDType:
    class triple(extended): ...

    @dataclasses.dataclass(frozen=True)
    class Triple(ExtendedDType):
        name: str = "triple"
        type: Any = triple
        _rules = types.SimpleNamespace(
            physical_element_aval=lambda _: types.SimpleNamespace(shape=(3,), dtype="int32"),
            allow_conversion=True,
        )

    return Triple()


def test_elements_stored_as_rows() -> None:
    """An element stored as an int32[3]: the physical array has one more axis."""
    t = _triple()
    x = jnp.arange(6, dtype=jnp.int32).reshape(2, 3)
    for f in (
        lambda a: lax.convert_element_type(a, t),
        trellax.jit(lambda a: lax.convert_element_type(a, t)),
    ):
        e = f(x)
        assert e.dtype == t and e.shape == (2,)
        assert physical_aval(trellax.typeof(e)) == ShapedArray((2, 3), np.int32)
        back = lax.convert_element_type(e, jnp.int32)
        assert back.shape == (2, 3)
        np.testing.assert_array_equal(np.asarray(back), np.arange(6).reshape(2, 3))


def test_conversion_errors() -> None:
    x = jnp.zeros(3, jnp.float32)
    with pytest.raises(ValueError, match="can only convert to an extended dtype from its repr"):
        to_max(x.astype(jnp.int32))
    other = MaxTy(F32, name="other")
    with pytest.raises(ValueError, match="cannot directly convert between extended dtypes"):
        lax.convert_element_type(to_max(x), other)
    with pytest.raises(ValueError, match="can only convert from an extended dtype to its repr"):
        lax.convert_element_type(to_max(x), jnp.int32)
    assert lax.convert_element_type(to_max(x), MAX).dtype == MAX  # to its own dtype: kept


# -- differentiation -------------------------------------------------------------------------------


def test_cotangents_accumulate_with_the_rules_add() -> None:
    """``s`` is used twice, with cotangents 1 and 2: its cotangent is their max, not their sum."""

    def f(a: Any) -> Any:
        s = to_max(a)
        return to_f32(s).sum() + (to_f32(s) * 2.0).sum()

    for g in (trellax.grad(f), trellax.jit(trellax.grad(f))):
        np.testing.assert_array_equal(np.asarray(g(jnp.arange(3.0))), [2.0, 2.0, 2.0])
    # for comparison: the same function on float32 adds them
    plain = trellax.grad(lambda a: a.sum() + (a * 2.0).sum())(jnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(plain), [3.0, 3.0, 3.0])


def _with_update(scale: Any, x: Any) -> Any:
    return x


@trellax.custom_vjp
def observe(scale: Any, x: Any) -> Any:
    """``x`` unchanged; the "gradient" of ``scale`` is the step's ``max |x|`` (a meta update)."""
    return x


def _observe_fwd(scale: Any, x: Any) -> tuple[Any, Any]:
    return x, jnp.max(jnp.abs(x))


def _observe_bwd(amax: Any, g: Any) -> tuple[Any, Any]:
    return to_max(jnp.reshape(amax, (1,))), g


observe.defvjp(_observe_fwd, _observe_bwd)


def test_scan_constants_accumulate_with_the_rules_add() -> None:
    """A constant of the loop used in every step: its cotangent is the max of the steps'."""

    def outer(x: Any, scale_f32: Any) -> Any:
        scale = to_max(scale_f32)

        def body(c: Any, _: Any) -> tuple[Any, None]:
            return observe(scale, c) * 2.0, None

        out, _ = lax.scan(body, x, None, length=3)
        return out.sum()

    x = jnp.array([1.5, -0.5], jnp.float32)
    for g in (trellax.grad(outer, (0, 1)), trellax.jit(trellax.grad(outer, (0, 1)))):
        gx, gs = g(x, jnp.zeros(1, jnp.float32))
        np.testing.assert_array_equal(np.asarray(gx), [8.0, 8.0])
        # the steps see max|x| = 1.5, 3, 6: the largest, not 10.5
        np.testing.assert_array_equal(np.asarray(gs), [6.0])


def test_rules_without_add_sum_the_physical_arrays() -> None:
    class plain(extended): ...

    @dataclasses.dataclass(frozen=True)
    class Plain(ExtendedDType):
        name: str = "plain"
        type: Any = plain
        _rules = types.SimpleNamespace(
            physical_element_aval=lambda _: ShapedArray((), F32),
            allow_conversion=True,
            tangent_dtype=lambda d: d,
        )

    p = Plain()

    def f(a: Any) -> Any:
        s = lax.convert_element_type(a, p)
        return to_f32(s).sum() + (to_f32(s) * 2.0).sum()

    np.testing.assert_array_equal(np.asarray(trellax.grad(f)(jnp.ones(2))), [3.0, 3.0])


def test_tangent_dtype_of_the_rules() -> None:
    class lowp(extended): ...

    @dataclasses.dataclass(frozen=True)
    class LowP(ExtendedDType):
        name: str = "lowp"
        type: Any = lowp
        _rules = types.SimpleNamespace(
            physical_element_aval=lambda _: ShapedArray((), F32),
            allow_conversion=True,
            tangent_dtype=lambda _: np.dtype("bfloat16"),
        )

    d = LowP()
    seen: list[Any] = []

    @trellax.custom_jvp
    def ident(x: Any) -> Any:
        return x

    @ident.defjvp
    def _ident_jvp(primals: Any, tangents: Any) -> Any:
        seen.append((primals[0].dtype, tangents[0].dtype, tangents[0].shape))
        return primals[0], tangents[0]

    def f(x: Any) -> Any:
        return to_f32(ident(lax.convert_element_type(x, d))).sum()

    g = trellax.grad(f)(jnp.ones(4, jnp.float32))
    assert seen == [(d, np.dtype("bfloat16"), (4,))]
    assert g.dtype == F32
    np.testing.assert_array_equal(np.asarray(g), np.ones(4))


def test_primal_tangent_dtype() -> None:
    dt = primal_tangent_dtype(jnp.int8, jnp.bfloat16)
    assert repr(dt) == "PrimalTangentDType{i8/bf16}" and dt.name == repr(dt)
    assert dt == primal_tangent_dtype(jnp.int8, jnp.bfloat16)
    assert issubdtype(dt, extended)
    x = jnp.array([1, 2, 3], jnp.int8)
    g = jnp.array([0.5, 1.0, 2.0], jnp.bfloat16)

    @trellax.custom_vjp
    def f(v: Any) -> Any:
        return v.astype(jnp.int8).astype(jnp.bfloat16) * 2

    f.defvjp(lambda v: (f(v), None), lambda _, ct: (ct * 2,))
    out, bwd = trellax.vjp(f, x.astype(dt))
    (ct,) = bwd(g)
    assert out.dtype == jnp.bfloat16 and ct.dtype == jnp.bfloat16
    np.testing.assert_array_equal(np.asarray(ct, np.float32), [1.0, 2.0, 4.0])


def test_result_handlers_are_never_called() -> None:
    """trellax builds extended arrays from their physical buffers: the rules' result handler and
    the compat module's table of handlers are never consulted."""
    from trellax._src.compat.jax_src.interpreters import pxla

    class handled(extended): ...

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a result handler was called")

    @dataclasses.dataclass(frozen=True)
    class Handled(ExtendedDType):
        name: str = "handled"
        type: Any = handled
        _rules = types.SimpleNamespace(
            physical_element_aval=lambda _: ShapedArray((), F32),
            allow_conversion=True,
            global_sharded_result_handler=refuse,
        )

    saved = dict(pxla.global_result_handlers)
    pxla.global_result_handlers.clear()
    try:
        h = Handled()
        for f in (
            lambda a: lax.convert_element_type(a, h),
            trellax.jit(lambda a: lax.convert_element_type(a, h)),
        ):
            e = f(jnp.ones(2))
            assert e.dtype == h
            assert trellax.jit(lambda a: a)(e).dtype == h
    finally:
        pxla.global_result_handlers.update(saved)


def test_numpy_functions_that_move_elements() -> None:
    """stack/concatenate/where/broadcast_to/reshape/expand_dims and the fills work on arrays
    whose element is stored as a scalar, eagerly and under jit, as in JAX."""
    e = to_max(jnp.arange(3.0))

    def check(out: Any, shape: tuple[int, ...], values: Any) -> None:
        assert isinstance(out, EArray) and out.dtype == MAX and out.shape == shape
        np.testing.assert_array_equal(np.asarray(to_f32(out)), values)

    for run in (lambda f, *a: f(*a), lambda f, *a: trellax.jit(f)(*a)):
        check(run(lambda a: jnp.stack([a, a]), e), (2, 3), [[0, 1, 2]] * 2)
        check(run(lambda a: jnp.concatenate([a, a]), e), (6,), [0, 1, 2] * 2)
        check(
            run(lambda a: jnp.where(jnp.array([True, False, True]), a, a[::-1]), e), (3,), [0, 1, 2]
        )
        check(run(lambda a: jnp.broadcast_to(a, (2, 3)), e), (2, 3), [[0, 1, 2]] * 2)
        check(run(lambda a: jnp.reshape(a, (3, 1)), e), (3, 1), [[0], [1], [2]])
        check(run(lambda a: jnp.expand_dims(a, 0), e), (1, 3), [[0, 1, 2]])
    check(jnp.zeros(2, MAX), (2,), [0, 0])
    check(jnp.full((2,), 5.0, MAX), (2,), [5, 5])
    check(jnp.zeros_like(e), (3,), [0, 0, 0])
    with pytest.raises(TypeError, match="cannot be mixed with arrays of float32"):
        jnp.stack([e, jnp.ones(3)])
    with pytest.raises(TypeError, match="eq does not accept dtype maxf32"):
        _ = e == e
    with pytest.raises(TypeError, match="extended dtype maxf32 has no numeric kind"):
        jnp.sum(e)


def test_numpy_functions_refuse_elements_stored_as_rows() -> None:
    t = _triple()
    e = lax.convert_element_type(jnp.zeros((2, 3), jnp.int32), t)
    for f in (lambda: jnp.stack([e, e]), lambda: jnp.reshape(e, (2, 1))):
        with pytest.raises(TypeError, match=r"each element stored as \[3\]"):
            f()


# -- against JAX 0.10.2 with Flax's meta dtype (tools/gen_golden_extended_dtypes.py) ------------

GOLDEN = json.loads(
    (Path(__file__).parent / "golden" / "extended_dtypes.json").read_text(encoding="utf-8")
)["cases"]
META = fp8_ops.fp32_max_grad


def test_repr_as_jax() -> None:
    e = lax.convert_element_type(jnp.arange(3.0), META)
    assert repr(e) == GOLDEN["repr"]["array"] and repr(META) == GOLDEN["repr"]["dtype"]


def test_joins_as_jax() -> None:
    e = lax.convert_element_type(jnp.arange(3.0), META)
    other = lax.convert_element_type(-jnp.ones(3), META)
    got = {
        "stack": jnp.stack([e, e]),
        "concatenate": jnp.concatenate([e, e]),
        "where": jnp.where(jnp.array([True, False, True]), e, other),
        "broadcast_to": jnp.broadcast_to(e, (2, 3)),
    }
    for name, out in got.items():
        np.testing.assert_array_equal(np.asarray(to_f32(out)), GOLDEN["joins"][name], err_msg=name)


def _meta_observe() -> Any:
    @trellax.custom_vjp
    def obs(scale: Any, x: Any) -> Any:
        return x

    def fwd(scale: Any, x: Any) -> tuple[Any, Any]:
        return x, jnp.max(jnp.abs(x))

    def bwd(amax: Any, g: Any) -> tuple[Any, Any]:
        return lax.convert_element_type(jnp.reshape(amax, (1,)), META), g

    obs.defvjp(fwd, bwd)
    return obs


def test_scan_constant_of_the_meta_dtype_as_jax() -> None:
    obs = _meta_observe()

    def outer(x: Any, scale_f32: Any) -> Any:
        scale = lax.convert_element_type(scale_f32, META)

        def body(c: Any, _: Any) -> tuple[Any, None]:
            return obs(scale, c) * 2.0, None

        out, _ = lax.scan(body, x, None, length=3)
        return out.sum()

    case = GOLDEN["scan_max"]
    x = jnp.array(case["x"], jnp.float32)
    for name, g in (
        ("eager", trellax.grad(outer, (0, 1))),
        ("jit", trellax.jit(trellax.grad(outer, (0, 1)))),
    ):
        gx, gs = g(x, jnp.zeros(1, jnp.float32))
        np.testing.assert_array_equal(np.asarray(gx), case[name]["grad_x"])
        np.testing.assert_array_equal(np.asarray(gs), case[name]["grad_scale"])
        assert str(gs.dtype) == case[name]["dtype"]


def test_vjp_with_two_uses_as_jax() -> None:
    e = lax.convert_element_type(jnp.arange(3.0), META)
    _, bwd = trellax.vjp(
        lambda a: (lax.convert_element_type(a, META), lax.convert_element_type(a * 2.0, META)),
        jnp.arange(3.0),
    )
    (ct,) = bwd((e, e))
    np.testing.assert_array_equal(np.asarray(ct), GOLDEN["vjp_two_uses"]["ct"])
    assert str(ct.dtype) == GOLDEN["vjp_two_uses"]["dtype"]


def test_primal_tangent_dtype_as_jax() -> None:
    case = GOLDEN["primal_tangent"]
    dt = primal_tangent_dtype(jnp.int8, jnp.bfloat16)
    assert repr(dt) == case["repr"]

    @trellax.custom_vjp
    def f(v: Any) -> Any:
        return v.astype(jnp.int8).astype(jnp.bfloat16) * 2

    f.defvjp(lambda v: (f(v), None), lambda _, c: (c * 2,))

    def run() -> Any:
        out, back = trellax.vjp(f, jnp.array([1, 2, 3], jnp.int8).astype(dt))
        return out, back(jnp.array([0.5, 1.0, 2.0], jnp.bfloat16))[0]

    for r in (run, trellax.jit(run)):
        out, ct = r()
        np.testing.assert_array_equal(np.asarray(out, np.float64), case["out"])
        np.testing.assert_array_equal(np.asarray(ct, np.float64), case["ct"])
        assert (str(out.dtype), str(ct.dtype)) == (case["out_dtype"], case["ct_dtype"])
