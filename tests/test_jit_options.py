"""``jit``'s JAX options (issue 14 §2): donation, ``keep_unused``, ``inline``, the checks of
``static_argnums``, ``.trace``/``.eval_shape``, and ``make_jaxpr(static_argnums=)``.

Expected error texts are the ones JAX 0.10.2 raises for the same calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import ShapeDtypeStruct
from trellax._src.api.jit_options import Traced
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr


def f(x: Any, y: Any = 1.0, *, z: Any = 2.0) -> Any:
    return x + y


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"static_argnums": 2}, "Jitted function has static_argnums=(2,), but only accepts 2 "),
        ({"static_argnums": (0, 5)}, "has static_argnums=(0, 5), but only accepts 2 positional"),
        ({"static_argnums": -3}, "Jitted function has static_argnums=(-3,), but only accepts 2"),
        ({"donate_argnums": 5}, "Jitted function has donate_argnums=(5,), but only accepts 2 "),
        (
            {"static_argnums": 0, "donate_argnums": 0},
            "static_argnames and donate_argnames cannot intersect. Argument names {'x'} appear "
            "in both static_argnames and donate_argnames",
        ),
        (
            {"static_argnames": "y", "donate_argnums": 1},
            "Argument names {'y'} appear in both",
        ),
    ],
)
def test_option_errors_match_jax(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        trellax.jit(f, **kwargs)
    assert message in str(info.value)


def test_static_argnums_in_range_and_varargs_are_accepted() -> None:
    assert trellax.jit(f, static_argnums=-1)(1.0, 2.0) == 3.0
    assert trellax.jit(f, static_argnums=1)(1.0, 2.0) == 3.0
    assert trellax.jit(lambda *args: args[0], static_argnums=3)(1.0) == 1.0
    assert trellax.jit(f, static_argnums=None)(1.0) == 2.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"donate_argnums": 0},
        {"donate_argnums": (0, 1)},
        {"donate_argnames": "z"},
        {"donate_argnames": ("x", "y")},
        {"keep_unused": True},
        {"inline": True},
        {"donate_argnums": None, "donate_argnames": None, "keep_unused": False, "inline": False},
    ],
)
def test_no_op_options_change_nothing(kwargs: dict[str, Any]) -> None:
    x = tnp.asarray(np.array([1.0, -0.0, np.nan], np.float32))
    g = trellax.jit(f, **kwargs)
    for _ in range(2):
        out = g(x, 2.0)
        assert (out.dtype, out.weak_type) == (np.dtype("float32"), False)
        assert np.array_equal(out._value, np.array([3.0, 2.0, np.nan], np.float32), equal_nan=True)
    # the donated argument is untouched and still usable
    assert np.array_equal(x._value, np.array([1.0, -0.0, np.nan], np.float32), equal_nan=True)
    assert (x + 1).dtype == np.dtype("float32")


def test_options_usable_as_decorator_arguments() -> None:
    @trellax.jit(donate_argnums=0, inline=True, static_argnames="n")
    def g(x: Any, n: int) -> Any:
        return x * n

    assert g(tnp.ones(2, "int8"), n=3)._value.tolist() == [3, 3]
    assert g.options.donate_argnums == (0,) and g.options.inline


def test_trace_gives_jaxpr_and_avals() -> None:
    j = trellax.jit(f)
    t = j.trace(tnp.ones(3, "int8"))
    assert isinstance(t, Traced) and isinstance(t.jaxpr, ClosedJaxpr)
    assert t.fun_name == "f"
    assert str(t.jaxpr) == str(trellax.make_jaxpr(f)(tnp.ones(3, "int8")))
    assert t.in_avals == ((ShapedArray((3,), "int8"),), {})
    assert t.out_avals == ShapedArray((3,), "float32", weak_type=True)
    assert t.out_info == ShapeDtypeStruct((3,), "float32", weak_type=True)
    assert str(t.in_tree) == str(trellax.tree_util.tree_structure(((0,), {})))
    assert t.out_tree.num_leaves == 1
    assert t.donate_argnums == ()
    assert j.trace_count == 1
    j(tnp.ones(3, "int8"))  # the call reuses the trace
    assert j.trace_count == 1


def test_trace_and_eval_shape_with_static_arguments_and_pytrees() -> None:
    g = trellax.jit(lambda x, n: {"a": x * n, "b": (x, n + 1)}, static_argnums=1)
    t = g.trace(tnp.ones(2, "float16"), 3)
    assert t.in_avals == ((ShapedArray((2,), "float16"),), {})
    shapes = g.eval_shape(tnp.ones(2, "float16"), 3)
    assert shapes["a"] == ShapeDtypeStruct((2,), "float16")
    assert shapes["b"][0] == ShapeDtypeStruct((2,), "float16")
    assert shapes["b"][1] == ShapeDtypeStruct((), "int32", weak_type=True)
    assert trellax.jit(f).eval_shape(2.0) == ShapeDtypeStruct((), "float32", weak_type=True)
    with trellax.enable_x64(True):
        assert trellax.jit(f).eval_shape(2.0) == ShapeDtypeStruct((), "float64", weak_type=True)


def test_trace_lower_matches_jit_lower() -> None:
    j = trellax.jit(f)
    x = tnp.ones(3, "int8")
    assert str(j.trace(x).lower()) == str(j.lower(x))


def test_make_jaxpr_static_argnums() -> None:
    def mul(x: Any, n: int) -> Any:
        return x * n

    expected = "{ lambda ; a:f32[2]. let\n    b:f32[2] = mul a 3.0:f32[]\n  in (b,) }"
    assert str(trellax.make_jaxpr(mul, static_argnums=(1,))(tnp.ones(2), 3)) == expected
    assert str(trellax.make_jaxpr(mul, static_argnums=-1)(tnp.ones(2), 3)) == expected
    assert str(trellax.make_jaxpr(mul, static_argnums=1)(tnp.ones(2), n=3)).count("mul") == 1
    # the static value steers Python control flow
    g = trellax.make_jaxpr(lambda x, flag: x + 1 if flag else x - 1, static_argnums=1)
    assert "add" in str(g(1.0, True)) and "sub" in str(g(1.0, False))


def test_make_jaxpr_static_argnums_errors() -> None:
    m = trellax.make_jaxpr(f, static_argnums=5)  # checked at call time, as in JAX
    with pytest.raises(ValueError, match=r"has static_argnums=\(5,\), but only accepts 2"):
        m(1.0)
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        trellax.make_jaxpr(lambda x, n: x, static_argnums=1)(1.0, [3])
