"""The eager dispatch fast paths (issue 15 §2) give exactly what the general path gives.

Every memo and shortcut is checked against the path it shortcuts: a call right after all memos
are cleared (the rules run) must agree with the same call again (the memos answer) in dtype, weak
flag, value bits and error, under x64 on and off and both promotion modes; config changes must
reach memoized decisions; and traced code (jit, grad, vmap) must still see the rules.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import eager
from trellax._src.backend.array import ArrayImpl
from trellax._src.core import core
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import primal_tangent_dtype
from trellax._src.lax import _base, sharding_rules
from trellax._src.numpy import util as np_util

DTYPES = [
    np.dtype(d) for d in ("bool", "int8", "uint8", "int16", "int32", "uint32", "float16", "float32")
] + [np.dtype(ml_dtypes.bfloat16), np.dtype("complex64")]
X64_DTYPES = [np.dtype(d) for d in ("int64", "uint64", "float64", "complex128")]
CONFIGS = [(False, "standard"), (True, "standard"), (False, "strict"), (True, "strict")]


def clear_memos() -> None:
    """Empties every dispatch memo, so the next call takes the general path."""
    for prim in core.primitives().values():
        if prim.elementwise_dtypes is not None:
            prim.elementwise_dtypes.clear()
    eager._ABSTRACT_EVAL_MEMO.clear()
    _base._SCALAR_ARRAYS.clear()
    np_util._SCALAR_JOIN.clear()
    for memo in (
        dtypes._PAIR_PROMOTE,
        dtypes._PAIR_RESULT,
        dtypes._RESULT_TYPE_CACHE,
        dtypes._PROMOTE_CACHE,
    ):
        memo.clear()


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    """What ``fn(*args)`` gives: (dtype, weak flag, value bytes) or (error class, message), plus
    the warnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args)
        except Exception as e:
            result: tuple[Any, ...] = (type(e), str(e))
        else:
            if isinstance(out, ArrayImpl):
                value = np.asarray(out._value)
                result = (out.dtype, out.weak_type, out.shape, value.tobytes())
            else:
                result = (out,)
    return (*result, tuple((w.category, str(w.message)) for w in caught))


def assert_same_slow_and_fast(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    clear_memos()
    slow = outcome(fn, *args)
    fast = outcome(fn, *args)
    assert fast == slow
    return slow


@pytest.fixture(params=CONFIGS, ids=lambda c: f"x64={c[0]}-{c[1]}")
def config(request: pytest.FixtureRequest) -> Iterator[tuple[bool, str]]:
    x64, mode = request.param
    with trellax.enable_x64(x64), trellax.numpy_dtype_promotion(mode):
        yield x64, mode


def arr(values: Any, dtype: np.dtype[Any], weak_type: bool = False) -> ArrayImpl:
    with np.errstate(invalid="ignore"):  # NaN and inf cast to integers
        value = np.asarray(values).astype(dtype)
    return ArrayImpl._new(value, dtype, weak_type)


VALUES = [0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 3.0]


def _dtypes(x64: bool) -> list[np.dtype[Any]]:
    return DTYPES + (X64_DTYPES if x64 else [])


# -- binary and unary ops ---------------------------------------------------------------------


@pytest.mark.parametrize("weak_type", [False, True])
def test_binary_ops_fast_equals_slow(config: tuple[bool, str], weak_type: bool) -> None:
    for d in _dtypes(config[0]):
        x = arr(VALUES, d, weak_type)
        y = arr(VALUES[::-1], d, weak_type)
        zero_d = arr(2.5, d, weak_type)
        for fn in BINARY:
            assert_same_slow_and_fast(fn, x, y)
            assert_same_slow_and_fast(fn, x, zero_d)
            assert_same_slow_and_fast(fn, zero_d, x)


BINARY: list[Callable[[Any, Any], Any]] = [
    lambda a, b: a + b,
    lambda a, b: a - b,
    lambda a, b: a * b,
    lambda a, b: a < b,
    tnp.maximum,
    tnp.add,
    tnp.multiply,
    lax.add,
    lax.atan2,
]


@pytest.mark.parametrize("scalar", [2, -1, 0, 2**31 - 1, 2**31, -(2**40), 0.5, -0.0, 0.0])
@pytest.mark.parametrize("scalar_last", [True, False])
def test_python_scalar_operand_fast_equals_slow(
    config: tuple[bool, str], scalar: Any, scalar_last: bool
) -> None:
    for d in _dtypes(config[0]):
        x = arr(VALUES, d)
        for fn in BINARY[:4]:
            if scalar_last:
                assert_same_slow_and_fast(fn, x, scalar)
            else:
                assert_same_slow_and_fast(fn, scalar, x)


@pytest.mark.parametrize("scalar", [np.nan, np.inf, 1e10, 1e-300, 65504.0, 3.0])
def test_float_scalars_keep_warnings_and_values(scalar: float) -> None:
    """Overflow to inf (a warning), NaN and underflow are never memoized: every call converts."""
    for d in DTYPES:
        x = arr([1.0, 2.0], d)
        slow = assert_same_slow_and_fast(BINARY[2], x, scalar)
        assert outcome(BINARY[2], x, scalar) == slow


def test_signed_zero_scalars_are_distinct() -> None:
    x = arr([1.0, -1.0], np.dtype("float32"))
    for _ in range(2):
        assert np.signbit((x * -0.0)._value).tolist() == [True, False]
        assert np.signbit((x * 0.0)._value).tolist() == [False, True]


def test_int_scalar_range_check_follows_x64() -> None:
    x = arr([1, 2], np.dtype("int64"))
    with trellax.enable_x64(True):
        assert (x + 2**40).dtype == np.dtype("int64")
        assert (x + 5)._value.tolist() == [6, 7]
    with pytest.raises(OverflowError, match="too large"):
        arr([1], np.dtype("int32")) + 2**40
    u = arr([0, 1], np.dtype("uint8"))
    for _ in range(2):
        assert (u + -1)._value.tolist() == [255, 0]


@pytest.mark.parametrize("weak_type", [False, True])
def test_unary_ops_fast_equals_slow(config: tuple[bool, str], weak_type: bool) -> None:
    for d in _dtypes(config[0]):
        x = arr(VALUES, d, weak_type)
        for fn in UNARY:
            assert_same_slow_and_fast(fn, x)


UNARY: list[Callable[[Any], Any]] = [
    tnp.sin,
    tnp.negative,
    lambda a: -a,
    tnp.exp,
    tnp.sqrt,
    tnp.abs,
    lax.sin,  # refused for integers: the error must come every time
    lax.neg,
]


def test_lax_dtype_errors_are_never_memoized() -> None:
    i = arr([1, 2], np.dtype("int32"))
    f = arr([1.0, 2.0], np.dtype("float32"))
    b = arr([True, False], np.dtype("bool"))
    clear_memos()
    lax.sin(f)
    lax.add(f, f)
    for _ in range(2):
        with pytest.raises(TypeError, match="sin"):
            lax.sin(i)
        with pytest.raises(TypeError, match="same dtypes"):
            lax.add(f, i)
        with pytest.raises(TypeError, match="add"):
            lax.add(b, b)
        with pytest.raises(TypeError, match="shapes"):
            lax.add(f, arr([1.0, 2.0, 3.0], np.dtype("float32")))


def test_elementwise_memo_matches_rule_for_every_dtype() -> None:
    """The memo holds exactly the rule's verdict (dtype), for every elementwise primitive."""
    clear_memos()
    for prim in core.primitives().values():
        memo = prim.elementwise_dtypes
        if memo is None:
            continue
        for d in DTYPES + X64_DTYPES:
            x = arr([1, 1], d)
            args = (x,) if _arity(prim) == 1 else (x, x)
            try:
                expected = prim.abstract_eval_rule(*args)  # type: ignore[misc]
            except (TypeError, ValueError):
                continue
            try:
                eager.eval_primitive(prim, args, {})
            except Exception:
                continue  # an impl that refuses these values (not a dtype question)
            assert memo[d] == expected.dtype, (prim, d)
            assert expected.weak_type is False


def _arity(prim: core.Primitive) -> int:
    x = arr([1.0], np.dtype("float32"))
    try:
        prim.abstract_eval_rule(x)  # type: ignore[misc]
    except TypeError as e:
        if "operand" in str(e) or "argument" in str(e):
            return 2
    return 1


# -- where ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("weak_type", [False, True])
def test_where_fast_equals_slow(config: tuple[bool, str], weak_type: bool) -> None:
    c = arr([True, False] * 4, np.dtype("bool"))
    for d in _dtypes(config[0]):
        x = arr(VALUES, d, weak_type)
        y = arr(VALUES[::-1], d, weak_type)
        fast = assert_same_slow_and_fast(tnp.where, c, x, y)
        # the general path: an int condition is compared with 0 first
        general = outcome(tnp.where, c.astype("int32"), x, y)
        assert fast == general


def test_where_of_weak_bools_is_a_strong_bool() -> None:
    c = arr([True, False], np.dtype("bool"))
    wb = arr([True, True], np.dtype("bool"), weak_type=True)
    out = tnp.where(c, wb, wb)
    assert (out.dtype, out.weak_type) == (np.dtype("bool"), False)


# -- parameterized primitives: the abstract-eval memo -----------------------------------------


def test_parameterized_primitives_fast_equals_slow(config: tuple[bool, str]) -> None:
    x = arr(np.arange(6.0).reshape(2, 3), np.dtype("float32"))
    for fn in (
        lambda: tnp.sum(x, axis=1),
        lambda: tnp.sum(x, axis=2),  # an error, every time
        lambda: x.astype("int8"),
        lambda: x.astype("float64"),  # truncated with x64 off (and warns each time)
        lambda: tnp.reshape(x, (3, 2)),
        lambda: tnp.transpose(x),
        lambda: tnp.broadcast_to(x, (4, 2, 3)),
        lambda: tnp.broadcast_to(x, (4, 3, 3)),
        lambda: tnp.mean(x.astype("int8")),
    ):
        assert_same_slow_and_fast(fn)


def test_abstract_eval_memo_keys_on_config() -> None:
    """A rule that reads the config (none of trellax's do today) still gets a fresh verdict
    after the config changes: the memo key holds the whole config state."""
    probe = core.Primitive("test_config_probe")
    probe.def_impl(
        lambda x, *, scale: (x * scale).astype("int64" if trellax.config.enable_x64 else "int32")
    )

    @probe.def_abstract_eval
    def _(x: Any, *, scale: int) -> core.ShapedArray:
        wide = trellax.config.enable_x64
        return core.ShapedArray(x.shape, "int64" if wide else "int32", False)

    try:
        x = arr([1, 2], np.dtype("int32"))
        assert probe.bind(x, scale=2).dtype == np.dtype("int32")
        with trellax.enable_x64(True):
            x64 = arr([1, 2], np.dtype("int64"))
            assert probe.bind(x64, scale=2).dtype == np.dtype("int64")
            assert probe.bind(x, scale=2).dtype == np.dtype("int64")
        assert probe.bind(x, scale=2).dtype == np.dtype("int32")
    finally:
        core._REGISTRY.pop("test_config_probe", None)


def test_unhashable_params_skip_the_memo() -> None:
    probe = core.Primitive("test_unhashable_probe")
    probe.def_impl(lambda x, *, extra: x)
    probe.def_abstract_eval(lambda x, *, extra: core.get_aval(x))
    try:
        x = arr([1.0], np.dtype("float32"))
        for _ in range(2):
            assert probe.bind(x, extra=[1, 2]).dtype == np.dtype("float32")
    finally:
        core._REGISTRY.pop("test_unhashable_probe", None)


# -- result_type and promote_types ----------------------------------------------------------------

DTYPE_LIKES: list[Any] = [
    *DTYPES,
    *X64_DTYPES,
    int,
    float,
    complex,
    bool,
    "int8",
    "float64",
    "bfloat16",
    np.float32,
    np.int64,
]


def test_promote_types_pairs_fast_equals_slow(config: tuple[bool, str]) -> None:
    for a in DTYPE_LIKES:
        for b in DTYPE_LIKES:
            assert_same_slow_and_fast(dtypes.promote_types, a, b)


def test_result_type_pairs_fast_equals_slow(config: tuple[bool, str]) -> None:
    for a in DTYPE_LIKES:
        for b in DTYPE_LIKES:
            slow = assert_same_slow_and_fast(dtypes.result_type, a, b)
            weak = assert_same_slow_and_fast(_result_type_and_weak_flag, a, b)
            if len(slow) == 2:  # (dtype, warnings)
                assert weak[0][0] == slow[0]


def _result_type_and_weak_flag(a: Any, b: Any) -> tuple[Any, bool]:
    return dtypes.result_type(a, b, return_weak_type_flag=True)


def test_python_types_are_not_their_numpy_dtypes() -> None:
    """``np.dtype('int64') == int`` holds, but ``int`` is the weak int: both orders, twice."""
    i8 = np.dtype("int8")
    for _ in range(2):
        assert dtypes.promote_types(int, i8) == i8
        assert dtypes.promote_types(np.dtype("int64"), i8) == np.dtype("int64")
        assert dtypes.promote_types(float, np.dtype("float16")) == np.dtype("float16")
        assert dtypes.promote_types(np.dtype("float64"), np.dtype("float16")) == np.float64
        assert dtypes.result_type(int, i8) == i8
        assert dtypes.result_type(float, i8) == np.dtype("float32")


def test_result_type_warns_every_time_for_64_bit_requests() -> None:
    for _ in range(3):
        with pytest.warns(UserWarning, match="64"):
            assert dtypes.result_type("float64", np.dtype("int8")) == np.dtype("float32")
        with pytest.warns(UserWarning, match="64"):
            assert dtypes.result_type(np.dtype("int64"), np.dtype("int8")) == np.dtype("int32")


def test_pair_memos_follow_config_changes() -> None:
    i8, f16 = np.dtype("int8"), np.dtype("float16")
    assert dtypes.result_type(i8, float) == np.dtype("float32")
    assert dtypes.promote_types(i8, f16) == f16
    with trellax.enable_x64(True):
        assert dtypes.result_type(i8, float) == np.dtype("float64")
    with trellax.numpy_dtype_promotion("strict"):
        with pytest.raises(dtypes.TypePromotionError):
            dtypes.promote_types(i8, f16)
        with pytest.raises(dtypes.TypePromotionError):
            dtypes.result_type(i8, f16)
    previous = trellax.config.enable_x64
    trellax.config.update("enable_x64", True)
    try:
        assert dtypes.result_type(i8, float) == np.dtype("float64")
    finally:
        trellax.config.update("enable_x64", previous)
    assert dtypes.result_type(i8, float) == np.dtype("float32")


def test_unhashable_and_value_arguments_still_work() -> None:
    x = arr([1, 2], np.dtype("int8"))
    for _ in range(2):
        assert dtypes.result_type(x, 1.0) == np.dtype("float32")
        assert dtypes.result_type(1, 1.0) == np.dtype("float32")
        assert dtypes.result_type(True, 1) == np.dtype("int32")
        assert dtypes.result_type(np.float64(1.0), np.dtype("int8")) == np.dtype("float32")
        with pytest.raises(TypeError):
            dtypes.promote_types(1.0, np.dtype("int8"))
        with pytest.raises(TypeError):
            dtypes.promote_types([1], np.dtype("int8"))


# -- jit's cached call ------------------------------------------------------------------------


def test_cached_jit_call_equals_first_call(config: tuple[bool, str]) -> None:
    f = trellax.jit(lambda x, y: (x * y + tnp.sin(x) - 0.5 * y).sum())
    g = trellax.jit(lambda x: x)
    for d in [np.dtype("float32"), np.dtype("float16"), np.dtype(ml_dtypes.bfloat16)]:
        for weak_type in (False, True):
            x = arr([1.0, np.nan, -0.0], d, weak_type)
            y = arr([2.0, 3.0, np.inf], d, weak_type)
            first, again = outcome(f, x, y), outcome(f, x, y)
            assert first == again
            assert first[:2] == outcome(f.fun, x, y)[:2]
            assert outcome(g, x)[:2] == (d, weak_type)


def test_cached_jit_retraces_on_config_change() -> None:
    f = trellax.jit(lambda x: x + 1.5)
    x = arr([1, 2], np.dtype("int8"))
    assert f(x).dtype == np.dtype("float32")
    with trellax.enable_x64(True):
        assert f(x).dtype == np.dtype("float64")
    assert f(x).dtype == np.dtype("float32")
    with trellax.numpy_dtype_promotion("strict"), pytest.raises(dtypes.TypePromotionError):
        f(x)
    assert f.trace_count == 3  # float32, float64, and the strict attempt


def test_cached_jit_multiple_outputs_and_nested_trace() -> None:
    f = trellax.jit(lambda x: (x, {"double": x * 2}))
    x = arr([1.0, 2.0], np.dtype("float32"))
    for _ in range(2):
        a, b = f(x)
        assert a.dtype == np.dtype("float32") and b["double"]._value.tolist() == [2.0, 4.0]
    # called inside another trace with a concrete array: still traced, not run eagerly
    jaxpr = trellax.make_jaxpr(lambda y: f(x)[1]["double"] + y)(1.0)
    assert "mul" in str(jaxpr)


# -- traced code still sees the rules ----------------------------------------------------------


def test_transformations_after_eager_warmup() -> None:
    x = arr([0.5, 1.0, 2.0], np.dtype("float32"))
    for _ in range(2):
        x + x, x * 2, tnp.sin(x), tnp.where(x > 1, x, x)
    f = lambda v: tnp.sum(tnp.where(v > 1, tnp.sin(v) * 2 + v, v * v))  # noqa: E731
    assert outcome(trellax.jit(f), x) == outcome(f, x)
    g = trellax.grad(f)(x)
    assert np.allclose(g._value, [1.0, 2.0, 2 * np.cos(2.0) + 1], rtol=1e-6)
    v = trellax.vmap(lambda r: r * 2 + r)(arr(np.ones((2, 3)), np.dtype("float32")))
    assert v._value.tolist() == [[3.0] * 3] * 2


_F16_AS_EXT = primal_tangent_dtype(np.float16, np.float16)


def test_data_movement_impls_raise_no_fp_errors() -> None:
    """Primitives run without switching NumPy's error state really cannot raise one: under the
    strictest user setting, NaN/inf data passes through them and the setting is untouched."""
    flagged = {p.name for p in core.primitives().values() if p.impl_fp_free}
    data_movement = {"select_n", "broadcast_in_dim", "reshape", "squeeze", "expand_dims"}
    data_movement |= {"transpose", "rev", "concatenate", "slice", "name"}
    data_movement |= {"to_edtype", "from_edtype"}  # extended dtypes: identity on buffers
    data_movement |= {"reshard", "sharding_constraint"}  # identities on the value
    assert flagged == data_movement  # each one is run below
    x = arr([[np.nan, np.inf], [-np.inf, -0.0]], np.dtype("float16"))
    i = arr([[0, 1], [1, 0]], np.dtype("int32"))
    with np.errstate(all="raise"):
        outs = [
            tnp.where(x > 0, x, x * 0),
            lax.select_n(i, x, x),
            lax.broadcast_in_dim(x, (3, 2, 2), (1, 2)),
            lax.reshape(x, (4,)),
            lax.squeeze(x[:1], (0,)),
            lax.expand_dims(x, (0,)),
            lax.transpose(x, (1, 0)),
            lax.rev(x, (0,)),
            lax.concatenate([x, x], 0),
            lax.slice(x, (0, 0), (2, 1)),
            trellax.ad_checkpoint.checkpoint_name(x, "x"),
            lax.convert_element_type(lax.convert_element_type(x, _F16_AS_EXT), np.float16),
            sharding_rules.reshard_p.bind(x, dst_sharding=None),
            sharding_rules.sharding_constraint_p.bind(x, sharding=None),
        ]
        assert np.geterr()["invalid"] == "raise"
    assert all(o.dtype == np.dtype("float16") for o in outs)
    assert np.isnan(outs[3]._value[0]) and np.signbit(outs[3]._value[3])


@pytest.mark.parametrize("scalar", [2.0, -0.0, np.nan, 3, True, 1 + 2j, -(2**31)])
def test_cached_jit_call_with_python_scalars(scalar: Any) -> None:
    """Python scalars take the fast path too, keyed by their type: the value of each call is
    used (never the first call's), and the weak default dtype follows x64."""
    f = trellax.jit(lambda x, s: x * s)
    x = arr([1.0, -2.0], np.dtype("float32"))
    first = outcome(f, x, scalar)
    assert outcome(f, x, scalar) == first
    assert first == outcome(f.fun, x, scalar)
    g = trellax.jit(lambda s: s)
    for _ in range(2):
        out = g(scalar)
        assert out.weak_type is (type(scalar) is not bool)
        assert np.array_equal(out._value, np.asarray(scalar), equal_nan=True)
        assert np.signbit(np.real(out._value)) == np.signbit(np.real(scalar))
    with trellax.enable_x64(True):
        wide = g(scalar)
        assert wide.dtype == dtypes.result_type(scalar)
    assert f.trace_count == 1 and g.trace_count == 2


def test_cached_jit_int_range_check_every_call() -> None:
    g = trellax.jit(lambda s: s + 1)
    assert g(5)._value == 6
    for _ in range(2):
        with pytest.raises(OverflowError, match="overflow"):
            g(2**31)
    with trellax.enable_x64(True):
        assert g(2**31).dtype == np.dtype("int64")
    assert g(-(2**31))._value == -(2**31) + 1
