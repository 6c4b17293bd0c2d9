"""JAX API behaviour that JAX's own ``api_test``/``batching_test`` rely on (issue 22):
``register_vmappable``, collectives over several axis names, ``pargmax``/``pargmin``,
the transpose of ``all_gather``, ``checkpoint_name``, duck-typed abstract arguments, and the
words of tracer errors. Expected values are computed with NumPy (the layouts were checked
against JAX 0.10.2 by hand where the docs say so)."""

from __future__ import annotations

import operator
import types
from functools import partial

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.compat.jax_src.lax.parallel import pargmax, pargmin
from trellax._src.core import errors
from trellax._src.interpreters import batching as batching_internal
from trellax.interpreters import batching


def test_lax_exports_primitives_under_jax_names():
    assert lax.sin_p.name == "sin"
    assert lax.scatter_add_p.name == "scatter-add"
    jaxpr = trellax.make_jaxpr(lambda x: lax.sin(x))(1.0)
    assert jaxpr.jaxpr.eqns[0].primitive is lax.sin_p


class _Boxed:
    """A value vmap maps through register_vmappable (not a pytree)."""

    def __init__(self, data):
        self.data = data


def test_register_vmappable_maps_a_non_pytree_type():
    def to_elt(cont, size, val, spec):
        return _Boxed(cont(val.data, spec))

    def from_elt(cont, size, elt, spec):
        return _Boxed(cont(size, elt.data * 10, spec))

    batching.register_vmappable(_Boxed, int, int, to_elt, from_elt, None)
    try:
        x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
        out = trellax.vmap(lambda b: _Boxed(b.data + 1), in_axes=1, out_axes=0, axis_size=3)(
            _Boxed(x)
        )
        np.testing.assert_allclose(out.data, (x.T + 1) * 10)
        # under jit, the boxed value is made inside (jit takes pytrees of arrays)
        mapped = trellax.vmap(lambda b: _Boxed(b.data), axis_size=2)
        out = trellax.jit(lambda a: mapped(_Boxed(a)).data)(x)
        np.testing.assert_allclose(out, x * 10)
    finally:
        batching.unregister_vmappable(_Boxed)
    assert int not in batching_internal.spec_types
    assert not batching_internal.is_vmappable(_Boxed(x))


def test_axis_index_of_several_names_is_row_major():
    f = trellax.vmap(
        trellax.vmap(lambda x: lax.axis_index(("i", "j")), axis_name="j"), axis_name="i"
    )
    assert f(tnp.zeros((2, 3))).tolist() == [[0, 1, 2], [3, 4, 5]]
    g = trellax.vmap(
        trellax.vmap(lambda x: lax.axis_index(("j", "i")), axis_name="j"), axis_name="i"
    )
    assert g(tnp.zeros((2, 3))).tolist() == [[0, 2, 4], [1, 3, 5]]


@pytest.mark.parametrize("tiled", [False, True])
def test_all_gather_over_several_names(tiled):
    x = np.arange(12.0, dtype=np.float32).reshape(2, 3, 2)
    f = trellax.vmap(
        trellax.vmap(lambda v: lax.all_gather(v, ("i", "j"), tiled=tiled), axis_name="j"),
        axis_name="i",
    )
    out = np.asarray(f(x))
    want = x.reshape(6, 2).reshape(-1) if tiled else x.reshape(6, 2)
    for i in range(2):
        for j in range(3):
            np.testing.assert_array_equal(out[i, j], want)


@pytest.mark.parametrize("split_axis, concat_axis, vmap_axis", [(0, 0, 0), (1, 0, 2), (0, 1, 1)])
def test_all_to_all_over_two_names(split_axis, concat_axis, vmap_axis):
    x = np.arange(64).reshape(4, 4, 4)

    @partial(trellax.vmap, in_axes=vmap_axis, axis_name="i")
    @partial(trellax.vmap, in_axes=vmap_axis, axis_name="j")
    def f(v):
        return lax.all_to_all(v, ("i", "j"), split_axis, concat_axis)

    shape = list(x.shape)
    shape[vmap_axis : vmap_axis + 1] = (2, 2)
    y = np.asarray(f(x.reshape(shape))).reshape(x.shape)
    split = split_axis + 1 if vmap_axis <= split_axis else split_axis
    np.testing.assert_array_equal(y, np.moveaxis(x, (vmap_axis, split), (concat_axis + 1, 0)))


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("axis", [0, 1])
def test_pargmax_pargmin_match_argmax_argmin(dtype, axis):
    x = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3], [9, 0, 6, 7, 3]], dtype=dtype)
    for collective, bulk in [(pargmax, np.argmax), (pargmin, np.argmin)]:
        ans = trellax.vmap(
            lambda v, c=collective: c(v, "i"), in_axes=axis, out_axes=None, axis_name="i"
        )(x)
        assert ans.dtype == np.int32
        np.testing.assert_array_equal(ans, bulk(x, axis=axis))


def test_pargmax_nan_wins_like_argmax():
    x = np.array([1.0, np.nan, 3.0, np.nan], np.float32)
    ans = trellax.vmap(lambda v: pargmax(v, "i"), out_axes=None, axis_name="i")(x)
    assert int(ans) == int(np.argmax(x)) == 1


@pytest.mark.parametrize("tiled", [False, True])
def test_all_gather_vjp_sums_shares(tiled):
    rng = np.random.RandomState(0)
    x = rng.randn(3, 4).astype(np.float32)
    y_bar = rng.randn(3, 12 if tiled else 3, *(() if tiled else (4,))).astype(np.float32)

    def f(v):
        return lax.all_gather(v, "i", tiled=tiled)

    (x_bar,) = trellax.vmap(lambda v, c: trellax.vjp(f, v)[1](c), axis_name="i")(x, y_bar)
    want = y_bar.reshape(3, 3, 4).sum(0)
    np.testing.assert_allclose(x_bar, np.broadcast_to(want, (3, 3, 4))[0], rtol=1e-5)


def test_checkpoint_name_is_the_identity_with_a_name():
    from trellax.ad_checkpoint import checkpoint_name

    def f(x):
        return tnp.sin(checkpoint_name(tnp.sin(x), "a"))

    text = str(trellax.make_jaxpr(f)(1.0))
    assert "name[name=a]" in text
    want = np.cos(np.sin(1.0)) * np.cos(1.0)
    np.testing.assert_allclose(trellax.grad(f)(1.0), want, rtol=1e-6)
    np.testing.assert_allclose(trellax.jit(trellax.grad(trellax.checkpoint(f)))(1.0), want, 1e-6)
    np.testing.assert_allclose(trellax.vmap(trellax.grad(f))(tnp.ones(2)), [want] * 2, 1e-6)
    tree = checkpoint_name({"a": tnp.ones(2), "b": 1.0}, "t")
    assert tree["b"].weak_type and tree["a"].shape == (2,)


def test_duck_typed_abstract_arguments():
    spec = types.SimpleNamespace(shape=(3, 4), dtype=np.dtype("float64"))
    out = trellax.eval_shape(lambda a: a.sum(0), spec)
    assert out.shape == (4,) and out.dtype == np.float32  # canonicalized, x64 off
    jaxpr = trellax.make_jaxpr(lambda x: x + 2.0)(types.SimpleNamespace(shape=(), dtype="int32"))
    assert jaxpr.in_avals[0].dtype == np.int32
    (z,) = trellax.linear_transpose(lambda x: 2 * x, spec)(tnp.ones((3, 4)))
    np.testing.assert_allclose(z, 2 * np.ones((3, 4)))
    with pytest.raises(TypeError, match="passed to the function at path x"):
        trellax.jit(lambda x: x)(spec)


def test_tracer_errors_use_jax_phrases():
    with pytest.raises(errors.TracerIntegerConversionError, match=r"__index__\(\) method was "):
        trellax.jit(lambda x: operator.index(x))(1)
    with pytest.raises(errors.ConcretizationTypeError, match=r"x\.astype\(int\)"):
        trellax.jit(lambda x: int(x))(1)
    with pytest.raises(errors.ConcretizationTypeError, match=r"x\.astype\(float\)"):
        trellax.jit(lambda x: float(x))(1.0)
    with pytest.raises(errors.TracerBoolConversionError, match=r"with shape bool\[\]\.[^.]"):
        trellax.jit(lambda x: 1 if x > 0 else 0)(0)


def test_vmap_size_error_lists_the_most_common_size_first():
    x, u = np.zeros((10, 4), np.float32), np.zeros((10, 2), np.float32)
    with pytest.raises(ValueError) as info:
        trellax.vmap(lambda a, b, c: None, in_axes=(0, 1, 0))(x, u, x)
    lines = str(info.value).splitlines()
    assert lines[1].startswith("  * most axes (2 of them) had size 10, e.g. axis 0 of argument a")
    with pytest.raises(ValueError, match=r"axis 0 of kwargs\['y'\] of type int32\[2\]"):
        trellax.vmap(lambda x, y: x + y)(tnp.ones(1, "int32"), y=tnp.ones(2, "int32"))


def test_linear_functions_cross_jit_boundaries():
    def f(x):
        return 2.0 * tnp.sin(x)

    @partial(trellax.jit, static_argnums=0)
    def make(kind, x):
        if kind == "vjp":
            return trellax.vjp(f, x)[1]
        if kind == "linearize":
            return trellax.linearize(f, x)[1]
        return trellax.linear_transpose(lambda t: 2.0 * t, x)

    call = trellax.jit(lambda fn, v: fn(v))
    want = 2.0 * np.cos(1.0) * 3.0
    np.testing.assert_allclose(call(make("vjp", 1.0), 3.0)[0], want, rtol=1e-6)
    np.testing.assert_allclose(call(make("linearize", 1.0), 3.0), want, rtol=1e-6)
    assert call(make("transpose", 1.0), 3.0)[0] == 6.0
    # under jit the residual (cos x) is a leaf of the linearized function
    n_leaves = trellax.jit(lambda x: len(trellax.tree_util.tree_leaves(make("linearize", x))))
    assert n_leaves(1.0) >= 1


def test_linearized_checkpoint_recomputes_only_what_tangents_use():
    body = trellax.checkpoint(lambda x: lax.sin(lax.sin(x)))
    _, f_lin = trellax.linearize(body, 2.0)
    calls = []
    sin_impl = lax.sin_p.impl
    lax.sin_p.def_impl(lambda x, **kw: calls.append(1) or sin_impl(x, **kw))
    try:
        out = f_lin(3.0)
    finally:
        lax.sin_p.def_impl(sin_impl)
    np.testing.assert_allclose(out, np.cos(np.sin(2.0)) * np.cos(2.0) * 3.0, rtol=1e-6)
    assert len(calls) == 1  # sin(x) for cos(sin(x)); the primal output is not recomputed


def test_jit_refuses_what_jax_refuses():
    with pytest.raises(ValueError, match="numpy masked arrays are not supported"):
        trellax.jit(lambda x: x)(np.ma.array([1, 2, 3], mask=[True, False, True]))

    def gen(x):
        yield x

    with pytest.raises(TypeError, match="Expected a function, got a generator function"):
        trellax.jit(gen)
    with pytest.raises(TypeError, match="staticmethod arguments are not supported"):
        trellax.jit(staticmethod(lambda x: x))
    with pytest.raises(ValueError, match="Received invalid value"):
        trellax.device_put(tnp.arange(3), "cpu")

    def h(a, /, b, c, *args, **kwargs):
        return a

    trellax.jit(h, static_argnames=("b", "not_defined"))  # **kwargs: any keyword is fine
    for names in [("a",), ("args",)]:
        with pytest.raises(ValueError, match="invalid argnames"):
            trellax.jit(h, static_argnames=names)


def test_make_jaxpr_axis_env_and_return_shape():
    jaxpr, shapes = trellax.make_jaxpr(
        lambda x: (x - lax.psum(x, "i"), tnp.zeros(2)), axis_env=[("i", 4)], return_shape=True
    )(tnp.float32(1))
    assert "psum" in str(jaxpr)
    assert shapes == (
        trellax.ShapeDtypeStruct((), np.float32),
        trellax.ShapeDtypeStruct((2,), np.float32),
    )
    with pytest.raises(ValueError, match="dtype must be specified"):
        trellax.ShapeDtypeStruct((), None)


OUT_SHARDING_CASES = {
    "lax.broadcast": lambda s: lax.broadcast(tnp.ones(2), (3,), out_sharding=s),
    "lax.broadcast_in_dim": lambda s: lax.broadcast_in_dim(
        tnp.ones(2), (3, 2), (1,), out_sharding=s
    ),
    "lax.broadcasted_iota": lambda s: lax.broadcasted_iota("int32", (2, 3), 1, out_sharding=s),
    "lax.dot": lambda s: lax.dot(tnp.ones((2, 3)), tnp.ones(3), out_sharding=s),
    "lax.dot_general": lambda s: lax.dot_general(
        tnp.ones((2, 3)), tnp.ones(3), (((1,), (0,)), ((), ())), out_sharding=s
    ),
    "lax.empty": lambda s: lax.empty((2,), "float32", out_sharding=s),
    "lax.reduce_sum": lambda s: lax.reduce_sum(tnp.ones((2, 3)), (0,), out_sharding=s),
    "lax.reshape": lambda s: lax.reshape(tnp.ones(4), (2, 2), out_sharding=s),
    "numpy.arange": lambda s: tnp.arange(3, out_sharding=s),
    "numpy.array": lambda s: tnp.array([1, 2], out_sharding=s),
    "numpy.asarray": lambda s: tnp.asarray([1, 2], out_sharding=s),
    "numpy.broadcast_to": lambda s: tnp.broadcast_to(tnp.ones(2), (3, 2), out_sharding=s),
    "numpy.dot": lambda s: tnp.dot(tnp.ones(3), tnp.ones(3), out_sharding=s),
    "numpy.einsum": lambda s: tnp.einsum("i,i->", tnp.ones(3), tnp.ones(3), out_sharding=s),
    "numpy.full": lambda s: tnp.full((2,), 3.0, out_sharding=s),
    "numpy.matmul": lambda s: tnp.matmul(tnp.ones((2, 3)), tnp.ones(3), out_sharding=s),
    "numpy.ones_like": lambda s: tnp.ones_like(tnp.ones(2), out_sharding=s),
    "numpy.ravel": lambda s: tnp.ravel(tnp.ones((2, 2)), out_sharding=s),
    "numpy.repeat": lambda s: tnp.repeat(tnp.ones(2), 2, out_sharding=s),
    "numpy.reshape": lambda s: tnp.reshape(tnp.ones(4), (2, 2), out_sharding=s),
    "numpy.tensordot": lambda s: tnp.tensordot(tnp.ones(3), tnp.ones(3), 1, out_sharding=s),
    "numpy.zeros": lambda s: tnp.zeros((2,), out_sharding=s),
    "numpy.ones": lambda s: tnp.ones((2,), out_sharding=s),
    "numpy.empty": lambda s: tnp.empty((2,), out_sharding=s) * 0,
    "numpy.zeros_like": lambda s: tnp.zeros_like(tnp.ones(2), out_sharding=s),
    "numpy.full_like": lambda s: tnp.full_like(tnp.ones(2), 4, out_sharding=s),
    "numpy.percentile": lambda s: tnp.percentile(tnp.arange(5.0), 50, out_sharding=s),
    "numpy.bincount": lambda s: tnp.bincount(tnp.array([0, 1, 1]), length=3, out_sharding=s),
    "numpy.linalg.tensordot": lambda s: tnp.linalg.tensordot(
        tnp.ones(3), tnp.ones(3), axes=1, out_sharding=s
    ),
    "lax.reduce": lambda s: lax.reduce(tnp.ones(3), 0.0, lax.add, (0,), out_sharding=s),
    "lax.conv_general_dilated": lambda s: lax.conv_general_dilated(
        tnp.ones((1, 1, 4)), tnp.ones((1, 1, 2)), (1,), "VALID", out_sharding=s
    ),
}


@pytest.mark.parametrize("name", sorted(OUT_SHARDING_CASES))
def test_out_sharding_is_accepted_with_one_device_semantics(name):
    run = OUT_SHARDING_CASES[name]
    want = np.asarray(run(None))
    for spec in (trellax.sharding.PartitionSpec(), trellax.devices()[0]):
        got = run(spec)
        np.testing.assert_array_equal(np.asarray(got), want)
        assert got.dtype == want.dtype
    with pytest.raises(TypeError, match="out_sharding must be None, a Sharding or a PartitionSpec"):
        run(3)


def test_vmap_refuses_non_array_outputs_with_jax_words():
    with pytest.raises(TypeError, match=r"Output from batched function 'hello'.*not a valid JAX"):
        trellax.vmap(lambda x: "hello")(np.arange(5))
