"""User-defined primitives and JAX's interfaces for them (``trellax.extend``,
``trellax.interpreters``), jaxpr introspection, and ``trellax.ad_checkpoint``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.ad_checkpoint import checkpoint_name, print_saved_residuals, saved_residuals
from trellax.core import ShapedArray
from trellax.extend import core as xcore
from trellax.interpreters import ad, batching, mlir


def _fma_primitive(*, lowering: bool = True) -> Any:
    """JAX's documented example: ``multiply_add(x, y, z) = x * y + z``, with every rule."""
    p = xcore.Primitive("multiply_add")
    calls: list[tuple[Any, ...]] = []

    def impl(x: Any, y: Any, z: Any) -> Any:
        calls.append((x, y, z))
        return np.add(np.multiply(x, y), z)

    p.def_impl(impl)
    p.def_abstract_eval(lambda x, y, z: ShapedArray(x.shape, x.dtype))
    if lowering:
        mlir.register_lowering(p, lambda ctx, *args: None, platform="cpu")

    def fma(x: Any, y: Any, z: Any) -> Any:
        return p.bind(x, y, z)

    def jvp(primals: Any, tangents: Any) -> Any:
        x, y, z = primals
        xt, yt, zt = tangents

        def zero(t: Any) -> Any:
            return lax.full_like(x, 0) if type(t) is ad.Zero else t

        return fma(x, y, z), fma(zero(xt), y, fma(x, zero(yt), zero(zt)))

    def transpose(ct: Any, x: Any, y: Any, z: Any) -> Any:
        if not ad.is_undefined_primal(x):
            return None, fma(x, ct, lax.full_like(x, 0)), ct
        return fma(ct, y, lax.full_like(y, 0)), None, ct

    ad.primitive_jvps[p] = jvp
    ad.primitive_transposes[p] = transpose
    batching.primitive_batchers[p] = lambda args, dims: (fma(*args), dims[0])
    return calls, fma


def test_eager_bind_calls_the_impl_with_the_arguments_as_given() -> None:
    calls, fma = _fma_primitive()
    out = fma(2.0, 3.0, 1.0)
    assert calls == [(2.0, 3.0, 1.0)]
    assert out == 7.0 and isinstance(out, np.floating)  # the impl's value, untouched (as JAX)


def test_jit_grad_jvp_vmap_of_a_user_primitive() -> None:
    _, fma = _fma_primitive()

    def sq_add(x: Any, y: Any) -> Any:
        return fma(x, x, y)

    out = trellax.jit(sq_add)(2.0, 10.0)
    assert out.dtype == np.float32 and float(out) == 14.0 and not out.weak_type
    primal, tangent = trellax.jvp(sq_add, (2.0, 10.0), (1.0, 1.0))
    assert (float(primal), float(tangent)) == (14.0, 5.0)
    assert float(trellax.grad(sq_add)(2.0, 10.0)) == 4.0
    assert float(trellax.jit(trellax.grad(sq_add))(2.0, 10.0)) == 4.0
    x = np.array([2.0, 3.0], np.float32)
    y = np.array([10.0, 20.0], np.float32)
    np.testing.assert_array_equal(trellax.vmap(sq_add)(x, y), [14.0, 29.0])
    np.testing.assert_array_equal(trellax.jit(trellax.vmap(sq_add))(x, y), [14.0, 29.0])
    text = str(trellax.make_jaxpr(sq_add)(2.0, 10.0))
    assert "multiply_add a a b" in text


def test_missing_rules_raise_jax_errors() -> None:
    p = xcore.Primitive("bare")
    with pytest.raises(NotImplementedError, match="Evaluation rule for 'bare' not implemented"):
        p.bind(1.0)
    p.def_impl(lambda x: x)
    with pytest.raises(NotImplementedError, match="Abstract evaluation for 'bare'"):
        trellax.jit(lambda x: p.bind(x))(1.0)
    p.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    with pytest.raises(NotImplementedError, match="MLIR translation rule for primitive 'bare'"):
        trellax.jit(lambda x: p.bind(x))(1.0)
    assert "bare" in str(trellax.make_jaxpr(lambda x: p.bind(x))(1.0))  # tracing needs none
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'bare'"):
        trellax.grad(lambda x: p.bind(x))(1.0)
    with pytest.raises(NotImplementedError, match="Batching rule for 'bare'"):
        trellax.vmap(lambda x: p.bind(x))(tnp.ones(2))


def test_abstract_rule_result_is_checked() -> None:
    p = xcore.Primitive("wrong")
    p.def_abstract_eval(lambda x: (1, 2))
    with pytest.raises(TypeError, match="must return a ShapedArray"):
        trellax.make_jaxpr(lambda x: p.bind(x))(1.0)


def test_compiled_program_casts_to_the_abstract_dtype_and_asks_the_rule_once() -> None:
    p = xcore.Primitive("halve")
    asked: list[int] = []

    def rule(x: ShapedArray) -> ShapedArray:
        asked.append(1)
        return ShapedArray(x.shape, np.float32)

    p.def_impl(lambda x: np.asarray(x, np.float64) / 2)  # computes in float64
    p.def_abstract_eval(rule)
    mlir.register_lowering(p, lambda ctx, x: None)
    f = trellax.jit(lambda x: p.bind(x) + 1)
    out = f(np.arange(3, dtype=np.float32))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [1.0, 1.5, 2.0])
    f(np.arange(3, dtype=np.float32))
    assert len(asked) == 1  # at trace time only, as JAX


def test_lower_fun_runs_in_place_of_a_missing_impl() -> None:
    p = xcore.Primitive("softsign")
    p.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(p, mlir.lower_fun(lambda x: x / (1 + tnp.abs(x)), False))
    x = np.array([-2.0, 0.0, 3.0], np.float32)
    want = x / (1 + np.abs(x))
    np.testing.assert_allclose(trellax.jit(lambda v: p.bind(v))(x), want, rtol=1e-7)
    np.testing.assert_allclose(np.asarray(p.bind(x)), want, rtol=1e-7)


def test_multiple_results() -> None:
    p = xcore.Primitive("split_sign")
    p.multiple_results = True
    p.def_impl(lambda x: (np.maximum(x, 0), np.minimum(x, 0)))
    p.def_abstract_eval(lambda x: (ShapedArray(x.shape, x.dtype), ShapedArray(x.shape, x.dtype)))
    mlir.register_lowering(p, lambda ctx, x: None)
    x = np.array([-1.0, 2.0], np.float32)
    pos, neg = trellax.jit(lambda v: p.bind(v))(x)
    np.testing.assert_array_equal(pos, [0.0, 2.0])
    np.testing.assert_array_equal(neg, [-1.0, 0.0])


def test_defjvp_deflinear_defvectorized_defbroadcasting() -> None:
    sq = xcore.Primitive("my_square")
    sq.def_impl(lambda x: np.multiply(x, x))
    sq.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(sq, lambda ctx, x: None)
    ad.defjvp(sq, lambda t, x: 2 * x * t)
    batching.defvectorized(sq)
    assert float(trellax.grad(lambda x: sq.bind(x))(3.0)) == 6.0
    np.testing.assert_array_equal(trellax.vmap(lambda x: sq.bind(x))(tnp.arange(3.0)), [0, 1, 4])
    assert sq in ad.primitive_jvps and sq in batching.primitive_batchers

    scale = xcore.Primitive("scale3")
    scale.def_impl(lambda x: np.multiply(x, 3))
    scale.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(scale, lambda ctx, x: None)
    ad.deflinear(scale, lambda ct: [scale.bind(ct)])
    assert float(trellax.grad(lambda x: scale.bind(x))(1.0)) == 3.0
    assert float(trellax.jit(trellax.grad(lambda x: scale.bind(x) * x))(2.0)) == 12.0

    add = xcore.Primitive("my_add")
    add.def_impl(np.add)
    add.def_abstract_eval(lambda x, y: ShapedArray(np.broadcast_shapes(x.shape, y.shape), x.dtype))
    batching.defbroadcasting(add)
    out = trellax.vmap(lambda a, b: add.bind(a, b), in_axes=(0, None))(
        tnp.ones((3, 2)), tnp.ones(2)
    )
    assert out.shape == (3, 2)
    np.testing.assert_array_equal(out, np.full((3, 2), 2.0))


def test_rule_tables_read_back_and_cover_trellax_primitives() -> None:
    assert lax.sin_p in ad.primitive_jvps
    assert callable(ad.primitive_jvps[lax.sin_p])
    assert lax.add_p in batching.primitive_batchers
    p = xcore.Primitive("unregistered")
    assert p not in ad.primitive_jvps
    with pytest.raises(KeyError):
        ad.primitive_jvps[p]


def test_lax_primitive_names_and_binding_numpy_values() -> None:
    assert lax.exp_p.name == "exp" and lax.scatter_add_p.name == "scatter-add"
    assert lax.linear_solve_p.name == "custom_linear_solve"
    with pytest.raises(AttributeError):
        lax.not_a_primitive_p
    out = lax.add_p.bind(np.ones(2, np.float32), np.float32(2))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [3.0, 3.0])
    assert float(lax.exp_p.bind(0.0)) == 1.0
    assert xcore.primitives.tanh_p is lax.tanh_p
    assert xcore.primitives.cholesky_p.name == "cholesky"


def test_a_jaxpr_interpreter_written_for_jax() -> None:
    """The loop of JAX's "Writing custom interpreters" tutorial: read literals with ``.val``,
    constants with ``.literals``, bind each equation's primitive on the values."""

    def interpret(closed: Any, *args: Any) -> Any:
        env: dict[Any, Any] = {}

        def read(v: Any) -> Any:
            return v.val if type(v) is xcore.Literal else env[v]

        for v, c in zip(closed.jaxpr.constvars, closed.literals):
            env[v] = c
        for v, a in zip(closed.jaxpr.invars, args):
            env[v] = a
        for eqn in closed.eqns:
            ins = [read(v) for v in eqn.invars]
            out = eqn.primitive.bind(*ins, **eqn.params)
            outs = out if eqn.primitive.multiple_results else [out]
            for v, o in zip(eqn.outvars, outs):
                env[v] = o
        return [read(v) for v in closed.jaxpr.outvars]

    def f(x: Any) -> Any:
        return tnp.exp(tnp.tanh(x)) * 2.0 + tnp.ones(3)

    x = np.linspace(-1, 1, 3, dtype=np.float32)
    closed = trellax.make_jaxpr(f)(x)
    (got,) = interpret(closed, x)
    np.testing.assert_array_equal(got, f(x))
    (jitted,) = trellax.jit(lambda v: interpret(closed, v))(x)
    np.testing.assert_array_equal(jitted, f(x))
    assert xcore.jaxpr_as_fun(closed)(x)[0].shape == (3,)


def test_checkpoint_name() -> None:
    text = str(trellax.make_jaxpr(lambda x: checkpoint_name(x * 2, "h"))(1.0))
    assert "name[name=h]" in text
    assert float(trellax.grad(lambda x: checkpoint_name(x * x, "h"))(3.0)) == 6.0
    out = trellax.vmap(lambda x: checkpoint_name(x, "v"))(tnp.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 1.0, 2.0])
    tree = checkpoint_name({"a": 1.0, "b": tnp.ones(2)}, "t")
    assert set(tree) == {"a", "b"}
    with pytest.raises(TypeError, match="must be a str"):
        checkpoint_name(1.0, 3)  # type: ignore[arg-type]


def test_saved_residuals(capsys: pytest.CaptureFixture[str]) -> None:
    def f(W: Any, x: Any) -> Any:
        return tnp.sin(checkpoint_name(W @ x, "a")).sum()

    found = saved_residuals(f, tnp.ones((3, 3)), tnp.ones(3))
    sources = [s for _, s in found]
    assert sources[0] == "from the argument W"
    assert sources[1] == "from the argument x"
    assert sources[2].startswith("output of cos from ")
    # JAX 0.10.2 prints the same lines (its sources add a column: "<string>:4:36")
    print_saved_residuals(lambda d, y: (d["a"] * y).sum(), {"a": tnp.ones(3)}, tnp.float32(2.0))
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["f32[3] from the argument d['a']", "f32[] from the argument y"]
    print_saved_residuals(lambda d, y: (d["a"] * y).sum(), {"a": tnp.ones(3)}, 2.0)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "f32[3] from the argument d['a']"
    assert lines[1].startswith("f32[] output of convert_element_type from ")
    # a checkpointed function keeps only its inputs
    g = trellax.checkpoint(lambda x: tnp.sin(tnp.sin(x)))
    assert [s for _, s in saved_residuals(g, 1.0)] == ["from the argument x"]


def _chain(w1: Any, w2: Any, x: Any) -> Any:
    x = tnp.sin(tnp.dot(w1, x))
    x = checkpoint_name(x, "a")
    return tnp.sin(tnp.dot(w2, x))


@pytest.mark.parametrize(
    ("policy", "want"),
    [
        # what JAX 0.10.2 prints for these policies (its "Gradient checkpointing" guide)
        (None, []),
        ("dots_saveable", ["f32[5] output of dot_general", "f32[6] output of dot_general"]),
        ("names", ["f32[5] named 'a'"]),
        (
            "everything_saveable",
            [
                "f32[5] output of cos",
                "f32[5] named 'a'",
                "f32[6] output of cos",
            ],
        ),
    ],
)
def test_remat_policies_choose_the_residuals(policy: Any, want: list[str]) -> None:
    policies = trellax.checkpoint_policies
    chosen = {
        None: None,
        "dots_saveable": policies.dots_saveable,
        "names": policies.save_only_these_names("a"),
        "everything_saveable": policies.everything_saveable,
    }[policy]
    f = trellax.checkpoint(_chain, policy=chosen)
    args = (tnp.ones((5, 4)) / 4, tnp.ones((6, 5)) / 5, tnp.ones(4))
    found = [f"{a.str_short()} {s}" for a, s in saved_residuals(f, *args)]
    inputs = ["f32[5,4] from the argument w1", "f32[6,5] from the argument w2"]
    assert found[:3] == [*inputs, "f32[4] from the argument x"]
    assert [line.split(" from <")[0].split(" from /")[0] for line in found[3:]] == want
    # values and gradients never depend on the policy
    plain = trellax.grad(lambda *a: _chain(*a).sum(), argnums=(0, 1, 2))(*args)
    for jit in (False, True):
        g = trellax.grad(lambda *a: f(*a).sum(), argnums=(0, 1, 2))
        got = (trellax.jit(g) if jit else g)(*args)
        for a, b in zip(got, plain):
            np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("table", ["fancy", "axis"])
def test_batch_rules_told_the_axis(table: str) -> None:
    """``fancy_primitive_batchers`` rules get ``axis_data`` (size, name); the older
    ``axis_primitive_batchers`` get ``(size, name, None, args, dims)``, as in JAX 0.10.2."""
    p = xcore.Primitive(f"scale_by_axis_{table}")
    p.def_impl(lambda x: x * 2)
    p.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    seen: list[tuple[int, Any]] = []

    if table == "fancy":

        def fancy(axis_data: Any, args: list[Any], dims: list[Any]) -> Any:
            seen.append((axis_data.size, axis_data.name))
            return p.bind(args[0]), dims[0]

        batching.fancy_primitive_batchers[p] = fancy
        assert batching.fancy_primitive_batchers[p] is fancy
    else:

        def older(size: int, name: Any, trace_type: Any, args: list[Any], dims: list[Any]) -> Any:
            assert trace_type is None
            seen.append((size, name))
            return p.bind(args[0]), dims[0]

        batching.axis_primitive_batchers[p] = older
    out = trellax.vmap(lambda v: p.bind(v), axis_name="i")(tnp.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    assert seen == [(3, "i")]


def test_core_helpers_libraries_use() -> None:
    aval = ShapedArray((3, 4), np.float32)
    assert xcore.mapped_aval(3, 0, aval).shape == (4,)
    assert xcore.mapped_aval(4, -1, aval).shape == (3,)
    assert xcore.mapped_aval(3, None, aval) is aval
    with pytest.raises(ValueError):
        xcore.mapped_aval(5, 0, aval)
    assert xcore.unmapped_aval(5, 1, aval).shape == (3, 5, 4)
    assert xcore.unmapped_aval(5, None, aval) is aval
    closed = trellax.make_jaxpr(lambda x: lax.cond(x > 0, lambda: x, lambda: -x))(1.0)
    inner = list(xcore.subjaxprs(closed.jaxpr))
    assert len(inner) == 2
    assert all(isinstance(j, xcore.Jaxpr) for j in inner)
    seen: list[Any] = []
    trellax.vmap(lambda x: seen.append(xcore.find_top_trace([x])) or x)(tnp.ones(2))
    assert "Batch" in type(seen[0]).__name__
