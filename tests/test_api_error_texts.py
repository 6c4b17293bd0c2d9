"""JAX's words for mistakes around vmap/pmap arguments and tracer attributes."""

from __future__ import annotations

import unittest.mock
import weakref
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp


def test_vmap_docstring_and_empty_arguments() -> None:
    def superfun(a: Any) -> Any:
        """Does things with stuff."""
        return a

    doc = trellax.vmap(superfun).__doc__
    assert doc is not None and doc.startswith("Vectorized version of superfun.")
    assert doc.endswith("\n\nOriginal documentation:\n\nDoes things with stuff.")
    with pytest.raises(ValueError, match=r"got empty \*args=\(\{\},\) and \*\*kwargs=\{\}"):
        trellax.vmap(lambda x: x)({})
    with pytest.raises(ValueError, match=r"vmap has mapped output \(axis_name=foo\)"):
        trellax.vmap(lambda x: x, out_axes=None, axis_name="foo")(jnp.ones(2))


def test_pmap_arguments() -> None:
    with pytest.raises(ValueError, match="pmap requires at least one argument with a mapped axis"):
        trellax.pmap(lambda x: x)({})
    g = trellax.pmap(lambda a, b: a + b, static_broadcasted_argnums=(1,))
    with pytest.raises(
        ValueError,
        match=r"static_broadcasted_argnums=\(1,\) but was called with "
        r"only 1 positional argument",
    ):
        g(jnp.ones((1, 1)), b=1)
    np.testing.assert_array_equal(np.asarray(g(jnp.ones((1, 2)), 2)), [[3.0, 3.0]])


def test_tracer_sharding_points_to_typeof() -> None:
    @trellax.jit
    def f(x: Any) -> Any:
        with pytest.raises(AttributeError, match="typeof"):
            _ = x.sharding
        return x

    f(jnp.arange(2.0))


# -- values that are not arrays: JAX's classes and words (observed on JAX 0.10.2) ------------------


def test_traced_function_returning_a_non_array() -> None:
    def f(x: Any) -> Any:
        return (2.0, f)

    where = r"function f at .*test_api_error_texts.py:\d+ traced for jit returned a value of type "
    for run in (trellax.jit(f), lambda x: trellax.eval_shape(f, x), trellax.make_jaxpr(f)):
        with pytest.raises(TypeError, match=where + r".*output component \[1\], which is not a"):
            run(1)
    with pytest.raises(TypeError, match=r"of type <class 'str'>, which is not a valid JAX type"):
        trellax.jit(lambda x: "s")(1)


def test_arguments_of_invalid_dtypes() -> None:
    with pytest.raises(TypeError, match=r"Argument '\[1 2 3\]' .* is not a valid JAX type"):
        trellax.grad(lambda x: x)(np.array([1, 2, 3], dtype=object))
    with pytest.raises(TypeError, match=r"Error interpreting argument to .* at path x"):
        trellax.jit(lambda x: x)(np.array(["a"]))
    for op, args, pos in (
        (trellax.lax.add, (jnp.array(7), np.array("hello")), 1),
        (trellax.lax.add, (object(), jnp.array(7)), 0),
        (trellax.lax.sin, (object(),), 0),
    ):
        with pytest.raises(
            TypeError,
            match=rf"Error interpreting argument to \w+ as a JAX value.*"
            rf"position {pos}",
        ):
            op(*args)
    with pytest.raises(TypeError, match="add requires ndarray or scalar arguments"):
        jnp.add(jnp.array(7), object())


class _Standin:
    """Not a pytree: an object that only knows the array it stands for."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __jax_array__(self) -> Any:
        return self.value


@trellax.tree_util.register_pytree_node_class
class _TreeStandin(_Standin):
    """The same, registered as a pytree node (JAX then converts it inside functions)."""

    def tree_flatten(self) -> tuple[tuple[Any], None]:
        return (self.value,), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: Any) -> _TreeStandin:
        return cls(*children)


def test_jax_array_protocol_explicit_conversions() -> None:
    """``asarray``/``array``/``stack``/``concatenate`` take any such object; the result of
    ``asarray`` and ``array`` is strongly typed, as in JAX."""
    for cls in (_Standin, _TreeStandin):
        one = cls(1.0)
        for convert in (jnp.asarray, jnp.array):
            out = convert(one)
            assert out.dtype == np.float32 and not out.weak_type
        assert jnp.asarray(cls(1.0), jnp.int16).dtype == np.int16
        stacked = jnp.stack([cls(jnp.arange(3, dtype=jnp.int8))])
        assert stacked.shape == (1, 3) and stacked.dtype == np.int8
        nested = jnp.array(((cls(1), cls(1)), [cls(1), cls(1)]))
        np.testing.assert_array_equal(np.asarray(nested), np.ones((2, 2)))
        assert jnp.shape(cls([1, 2])) == (2,) and jnp.size(cls(np.zeros(3))) == 3
        assert jnp.isscalar(cls(np.float32(1))) and not jnp.isscalar(cls(np.zeros(2)))


def test_jax_array_protocol_in_functions() -> None:
    """Promoting functions convert a registered pytree node; anything else is refused with
    JAX's ValueError, and lax and jit arguments never convert."""
    x = jnp.arange(3.0)
    np.testing.assert_array_equal(np.asarray(jnp.sin(_TreeStandin(x))), np.asarray(jnp.sin(x)))
    assert jnp.add(_TreeStandin(x), 1.0).dtype == np.float32
    assert jnp.sin(_TreeStandin(1.0)).weak_type
    g = trellax.grad(trellax.jit(lambda t: jnp.sin(t).sum()))(_TreeStandin(x))
    assert isinstance(g, _TreeStandin)
    np.testing.assert_allclose(np.asarray(g.value), np.cos(np.arange(3.0)), rtol=1e-6)
    refused = "Triggering __jax_array__\\(\\) during abstractification is no longer supported"
    for call in (
        lambda: jnp.sin(_Standin(x)),
        lambda: jnp.sum(_Standin(x)),
        lambda: trellax.lax.add(_TreeStandin(x), _TreeStandin(x)),
        lambda: trellax.jit(lambda v: v)(_Standin(x)),
        lambda: trellax.device_put(_Standin(x)),
    ):
        with pytest.raises(ValueError, match=refused):
            call()


def test_an_object_with_a_dtype_has_that_dtype() -> None:
    class WithDtype:
        dtype = np.dtype("int16")

    assert jnp.result_type(WithDtype()) == np.int16
    with pytest.raises(TypeError, match="Cannot determine dtype"):
        jnp.result_type(_Standin(1))


def test_copy_to_host_async_and_weak_references() -> None:
    x = trellax.device_put(1.0)
    assert trellax.copy_to_host_async(x) is x
    mock = unittest.mock.Mock()
    tree = [object(), 1, mock]
    assert trellax.copy_to_host_async(tree) is tree
    mock.copy_to_host_async.assert_called_once()
    failing = unittest.mock.Mock()
    failing.copy_to_host_async.side_effect = AttributeError("foo")
    with pytest.raises(AttributeError, match="foo"):
        trellax.copy_to_host_async(failing)
    ref = weakref.ref(x)
    del x
    assert ref() is None  # each conversion of a scalar is a new array object
    assert jnp.asarray(2.0) is not jnp.asarray(2.0)


def test_primitive_missing_rules_and_wrong_abstract_results() -> None:
    from trellax._src.core import core

    foo_p = core.Primitive("test_only_foo_without_rules")
    with pytest.raises(
        NotImplementedError, match="Evaluation rule for 'test_only_foo_without_rules'"
    ):
        foo_p.bind(1.0)
    with pytest.raises(
        NotImplementedError, match="Abstract evaluation for 'test_only_foo_without_rules'"
    ):
        trellax.jit(foo_p.bind)(1.0)
    foo_p.def_abstract_eval(lambda x: x)
    with pytest.raises(
        NotImplementedError, match="rule for primitive 'test_only_foo_without_rules' not"
    ):
        trellax.jit(foo_p.bind)(1.0)
    bar_p = core.Primitive("test_only_bar_returns_list")
    bar_p.def_abstract_eval(lambda x: [x])
    bar_p.def_impl(lambda x: x)
    with pytest.raises(
        ValueError, match=r"test_only_bar_returns_list\.abstract_eval\(\) method should"
    ):
        trellax.jit(bar_p.bind)(1.0)


def test_make_jaxpr_names_and_device_put_without_copies() -> None:
    def foo(x: Any) -> Any:
        return x

    made = trellax.make_jaxpr(foo)
    assert made.__name__ == "make_jaxpr(foo)" and made.__qualname__.startswith("make_jaxpr(")
    sharding = trellax.sharding.SingleDeviceSharding(trellax.devices()[0])
    y = trellax.device_put(jnp.arange(3), sharding)
    assert trellax.device_put(y, sharding) is y and trellax.device_put(y) is y


def test_linearize_refuses_tangents_of_other_types() -> None:
    _, f_jvp = trellax.linearize(lambda x: x, 1.0)
    assert float(f_jvp(np.float32(2.0))) == 2.0
    with pytest.raises(ValueError, match=r"Got tangent aval ~int32\[\] for primal aval ~float32"):
        f_jvp(1)
    _, f_int = trellax.linearize(lambda x: x, np.ones(2, np.int32))
    f_int(np.zeros(2, trellax.dtypes.float0))
    with pytest.raises(ValueError, match=r"int32\[2\] but expected float0\[2\]"):
        f_int(np.ones(2, np.int32))
