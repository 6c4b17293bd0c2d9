"""``jit`` as a call primitive (issue 21 goal 5) and jit's JAX behaviours (issue 22 section 2).

Golden data from JAX 0.10.2: ``tests/golden/jit_call.json`` (``tools/gen_golden_jit_call.py``).
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.interpreters.jit_call import jit_p
from trellax.sharding import NamedSharding, PartitionSpec, SingleDeviceSharding

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "jit_call.json").read_text())

S = np.float32(1.0)
V = np.ones(3, np.float32)


def foo(x: Any) -> Any:
    return tnp.sin(x) * x


def f(x: Any) -> Any:
    return tnp.sin(x) * x


def two(x: Any, y: Any) -> Any:
    return tnp.sin(x) * y


_C = np.arange(3.0, dtype=np.float32)


def closes(x: Any) -> Any:
    return x + _C


def a(y: Any) -> Any:
    return y * 3


def g2(y: Any) -> Any:
    return trellax.jit(a)(y) + trellax.jit(a)(y)


_lam = lambda y: y * 2  # noqa: E731 (a lambda: its name prints as <lambda>)


def outer(x: Any) -> Any:
    return trellax.jit(foo)(x) + trellax.jit(tnp.cos)(x)


JAXPR_CASES: dict[str, Any] = {
    "jit_scalar": lambda: trellax.make_jaxpr(trellax.jit(f))(S),
    "jit_vector": lambda: trellax.make_jaxpr(trellax.jit(f))(V),
    "grad_jit": lambda: trellax.make_jaxpr(trellax.grad(trellax.jit(f)))(S),
    "jit_grad_jit": lambda: trellax.make_jaxpr(trellax.jit(trellax.grad(trellax.jit(tnp.sin))))(S),
    "closure_const": lambda: trellax.make_jaxpr(trellax.jit(closes))(V),
    "vmap_jit": lambda: trellax.make_jaxpr(trellax.vmap(trellax.jit(f)))(V),
    "shared_body": lambda: trellax.make_jaxpr(lambda x: trellax.jit(foo)(trellax.jit(foo)(x)))(S),
    "pair_out": lambda: trellax.make_jaxpr(trellax.jit(lambda x, y: (x * y, x)))(S, np.int32(2)),
    "nested": lambda: trellax.make_jaxpr(trellax.jit(outer))(V),
    "shared_lambda": lambda: trellax.make_jaxpr(lambda x: trellax.jit(_lam)(trellax.jit(_lam)(x)))(
        S
    ),
    "shared_nested": lambda: trellax.make_jaxpr(lambda x: trellax.jit(g2)(x) * trellax.jit(g2)(x))(
        S
    ),
    "flags": lambda: trellax.make_jaxpr(
        lambda x: trellax.jit(two, donate_argnums=0, keep_unused=True)(x, x)
    )(S),
    "jvp_jit": lambda: trellax.make_jaxpr(lambda x: trellax.jvp(trellax.jit(f), (x,), (x,)))(V),
    "vmap_jit_in_axes": lambda: trellax.make_jaxpr(
        trellax.vmap(trellax.jit(two), in_axes=(0, None))
    )(np.ones((2, 3), np.float32), V),
}

#: Cases whose text differs from JAX's for a reason outside the call primitive.
JAXPR_DIFFERENT = {
    "pair_out": "JAX's jaxpr of `x * y` (f32, i32 strong) converts with weak_type=True",
    "vmap_jit_in_axes": "JAX prints broadcast_dimensions as (np.int64(1),)",
}


@pytest.mark.parametrize("case", sorted(JAXPR_CASES))
def test_jaxpr_text_matches_jax(case: str) -> None:
    text = str(JAXPR_CASES[case]())
    want = GOLDEN["jaxprs"][case]
    if case in JAXPR_DIFFERENT:
        assert text.count("jit[") == want.count("jit[")
        return
    assert text == want


def _counted() -> tuple[list[int], Any]:
    n = [0]

    def g(x: Any) -> Any:
        n[0] += 1
        return tnp.sin(x) * x

    return n, g


def test_trace_counts_match_jax() -> None:
    t = GOLDEN["traces"]
    n, g = _counted()
    jg = trellax.grad(trellax.jit(g))
    jg(S)
    jg(np.float32(2.0))
    assert n[0] == t["grad_jit_twice"] == 1
    n, g = _counted()
    trellax.jit(trellax.grad(trellax.jit(g)))(S)
    trellax.jit(trellax.grad(trellax.jit(g)))(np.float32(2.0))
    assert n[0] == t["jit_grad_jit_twice"]
    n, g = _counted()
    trellax.vmap(trellax.jit(g))(V)
    trellax.vmap(trellax.jit(g))(V + 1)
    assert n[0] == t["vmap_jit_twice"]
    n, g = _counted()
    trellax.jit(trellax.vmap(trellax.jit(g)))(V)
    trellax.jit(trellax.vmap(trellax.jit(g)))(V + 1)
    assert n[0] == t["jit_vmap_jit_twice"]
    n, g = _counted()
    trellax.jit(g)(S)
    trellax.jit(g)(np.float32(3.0))
    assert n[0] == t["new_wrapper_twice"]
    n, g = _counted()
    trellax.jit(g)(S)
    trellax.jit(g)(V)
    assert n[0] == t["new_signature"]


def test_common_gotchas_global_is_captured_by_the_first_trace() -> None:
    g = 0.0

    def impure_uses_globals(x: Any) -> Any:
        return x + g

    first = float(trellax.jit(impure_uses_globals)(4.0))
    g = 10.0
    second = float(trellax.jit(impure_uses_globals)(5.0))
    assert [first, second] == GOLDEN["gotcha"] == [4.0, 5.0]


def test_new_wrapper_with_other_options_traces_again() -> None:
    n, g = _counted()
    trellax.jit(g)(S)
    trellax.jit(g, keep_unused=True)(S)
    assert n[0] == 2


# -- values through every rule -----------------------------------------------------------------


def test_values_of_transformed_calls() -> None:
    x = np.linspace(-1.0, 2.0, 5).astype(np.float32)
    jf = trellax.jit(f)
    want_grad = np.cos(x) * x + np.sin(x)
    np.testing.assert_allclose(trellax.vmap(trellax.grad(jf))(x), want_grad, rtol=1e-6)
    np.testing.assert_allclose(trellax.jit(trellax.vmap(trellax.grad(jf)))(x), want_grad, rtol=1e-6)
    second = 2 * np.cos(x) - np.sin(x) * x
    np.testing.assert_allclose(trellax.vmap(trellax.grad(trellax.grad(jf)))(x), second, rtol=1e-5)
    _, t = trellax.jvp(jf, (x,), (np.ones_like(x),))
    np.testing.assert_allclose(t, want_grad, rtol=1e-6)
    jac = trellax.jacrev(jf)(x)
    np.testing.assert_allclose(jac, np.diag(want_grad), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(trellax.jacfwd(jf)(x), np.diag(want_grad), rtol=1e-6, atol=1e-7)
    out, lin = trellax.linearize(jf, x)
    np.testing.assert_allclose(lin(np.ones_like(x)), want_grad, rtol=1e-6)
    np.testing.assert_allclose(out, np.sin(x) * x, rtol=1e-6)


def test_closure_over_an_outer_tracer_is_an_operand() -> None:
    def h(y: Any) -> Any:
        return trellax.jit(lambda x: x * y)(2.0)

    assert float(trellax.grad(h)(3.0)) == 2.0
    assert np.allclose(trellax.vmap(h)(tnp.arange(3.0)), [0.0, 2.0, 4.0])
    text = str(trellax.make_jaxpr(trellax.grad(h))(S))
    assert "jit[" in text


def test_integer_and_multiple_outputs() -> None:
    def g(x: Any, n: Any) -> Any:
        return x * n, n + 1, {"s": tnp.sum(x)}

    jg = trellax.jit(g)
    grads = trellax.grad(lambda x: jg(x, 3)[0].sum() + jg(x, 3)[2]["s"])(V)
    np.testing.assert_allclose(grads, np.full(3, 4.0))
    out = trellax.vmap(jg, in_axes=(0, None))(np.ones((2, 3), np.float32), 2)
    assert out[1].dtype == np.int32 and out[0].shape == (2, 3)


def test_value_and_grad_with_aux_and_static_args() -> None:
    jf = trellax.jit(lambda x, k: (tnp.sum(x**k), k), static_argnums=1)
    (v, aux), g = trellax.value_and_grad(jf, has_aux=True)(V * 2, 3)
    assert float(v) == 24.0 and aux == 3
    np.testing.assert_allclose(g, np.full(3, 12.0))


def test_grad_through_control_flow_inside_jit() -> None:
    @trellax.jit
    def g(x: Any) -> Any:
        y = lax.fori_loop(0, 3, lambda i, c: c * x, tnp.ones_like(x))
        return lax.cond(x > 0, lambda v: v, lambda v: -v, y)

    assert math.isclose(float(trellax.grad(g)(np.float32(2.0))), 12.0, rel_tol=1e-6)


def test_collective_inside_jit_under_named_vmap() -> None:
    g = trellax.jit(lambda x: x / lax.psum(x, "i"))
    out = trellax.vmap(g, axis_name="i")(tnp.arange(1.0, 4.0))
    np.testing.assert_allclose(out, np.arange(1.0, 4.0) / 6.0, rtol=1e-6)


def test_compiled_enclosing_program_inlines_the_body() -> None:
    lowered = trellax.jit(trellax.grad(trellax.jit(f))).lower(S)
    program = lowered.compile()
    assert math.isclose(float(program(S)), math.cos(1.0) + math.sin(1.0), rel_tol=1e-6)
    text = lowered.as_text()
    assert "sin" in text and "# jit" not in text  # the generated code calls no jit impl


def test_eager_jit_primitive_runs_the_compiled_program() -> None:
    closed = trellax.jit(f).trace(V).jaxpr
    (out,) = jit_p.bind_multi(
        tnp.asarray(V),
        jaxpr=closed,
        name="f",
        donated_invars=(False,),
        inline=False,
        keep_unused=False,
    )
    np.testing.assert_allclose(out, np.sin(V) * V)
    with pytest.raises(TypeError, match="takes 1 operands, got 2"):
        jit_p.bind_multi(tnp.asarray(V), tnp.asarray(V), jaxpr=closed, name="f")


def test_inline_true_joins_the_enclosing_trace() -> None:
    text = str(trellax.make_jaxpr(lambda x: trellax.jit(f, inline=True)(x))(S))
    assert "jit[" not in text and "sin" in text


# -- jit options (issue 22 section 2) ------------------------------------------------------------


def _h(x: Any) -> Any:
    return x * 2


def _option_cases() -> dict[str, Any]:
    one = SingleDeviceSharding(trellax.devices()[0])
    mesh = trellax.make_mesh((1,), ("x",))
    d = trellax.devices()[0]
    return {
        "in_shardings_none": lambda: trellax.jit(_h, in_shardings=None),
        "in_shardings_single": lambda: trellax.jit(_h, in_shardings=one),
        "in_shardings_tuple": lambda: trellax.jit(_h, in_shardings=(one,)),
        "in_shardings_named": lambda: trellax.jit(
            _h, in_shardings=NamedSharding(mesh, PartitionSpec())
        ),
        "in_shardings_spec_no_mesh": lambda: trellax.jit(_h, in_shardings=PartitionSpec()),
        "in_shardings_wrong_length": lambda: trellax.jit(_h, in_shardings=(one, one)),
        "out_shardings_single": lambda: trellax.jit(_h, out_shardings=one),
        "device": lambda: trellax.jit(_h, device=d),
        "backend_cpu": lambda: trellax.jit(_h, backend="cpu"),
        "backend_gpu": lambda: trellax.jit(_h, backend="gpu"),
        "device_and_backend": lambda: trellax.jit(_h, device=d, backend="cpu"),
        "device_and_in_shardings": lambda: trellax.jit(_h, device=d, in_shardings=one),
        "compiler_options": lambda: trellax.jit(
            _h, compiler_options={"xla_cpu_enable_fast_math": False}
        ),
        "donate_argnames": lambda: trellax.jit(_h, donate_argnames="x"),
        "donate_argnames_unknown": lambda: trellax.jit(_h, donate_argnames="y"),
        "keep_unused": lambda: trellax.jit(_h, keep_unused=True),
        "inline": lambda: trellax.jit(_h, inline=True),
        "abstracted_axes": lambda: trellax.jit(_h, abstracted_axes=({0: "n"},)),  # type: ignore[call-overload]
    }


@pytest.mark.parametrize("case", sorted(GOLDEN["options"]))
def test_jit_options_behave_as_in_jax(case: str) -> None:
    want = GOLDEN["options"][case]
    make = _option_cases()[case]
    if want["stage"] == "ok":
        assert float(make()(np.float32(1.0))) == 2.0
        return
    err = getattr(__builtins__, want["error"], None) if isinstance(__builtins__, dict) else None
    cls = (
        err
        or {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError}[
            want["error"]
        ]
    )
    with pytest.raises(cls) as info:
        if want["stage"] == "jit":
            make()
        else:
            wrapped = make()
            wrapped(np.float32(1.0))
    assert str(info.value)[:60] == want["message"][:60]


def test_in_shardings_cover_the_positional_arguments_that_are_not_static() -> None:
    # Flax's "Scale up on multiple devices" guide: jit(init_fn, static_argnums=(2, 3),
    # in_shardings=(key sharding, x sharding)) called with four positional arguments
    one = SingleDeviceSharding(trellax.devices()[0])

    def f(a: Any, n: int, b: Any, m: int) -> Any:
        return a * n + b * m

    x = tnp.ones(2)
    jitted = trellax.jit(f, static_argnums=(1, 3), in_shardings=(one, one))
    assert jitted(x, 2, x, 3).tolist() == [5.0, 5.0]
    for spec in [(one, one, one), (one,)]:
        with pytest.raises(ValueError, match=f"length {len(spec)} for an args tuple of length 2"):
            trellax.jit(f, static_argnums=(1, 3), in_shardings=spec)(x, 2, x, 3)
    # any keyword argument (a static one too) is refused with in_shardings, as in JAX
    g = trellax.jit(lambda a, b, n: a * n + b, static_argnames=("n",), in_shardings=(one, one))
    with pytest.raises(ValueError, match="pjit does not support kwargs when in_shardings"):
        g(x, x, n=2)
    assert trellax.jit(lambda a, b: a + b, in_shardings=None)(x, b=x).tolist() == [2.0, 2.0]


def test_collective_inside_jit_under_vmap_of_grad() -> None:
    g = trellax.jit(lambda x: x / lax.psum(x, "i"))
    x = tnp.arange(1.0, 4.0)
    got = trellax.vmap(trellax.grad(lambda v: g(v) * v), axis_name="i")(x)
    want = trellax.vmap(trellax.grad(lambda v: (v / lax.psum(v, "i")) * v), axis_name="i")(x)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_jit_inside_scan_body_and_custom_jvp_inside_jit() -> None:
    h = trellax.jit(lambda c, x: (c * tnp.sin(x), c))

    def loss(c0: Any, xs: Any) -> Any:
        c, ys = lax.scan(h, c0, xs)
        return c + ys.sum()

    xs = tnp.arange(1.0, 5.0)
    want = (
        float(np.prod(np.sin(np.arange(1.0, 5.0))))
        + 1
        + sum(float(np.prod(np.sin(np.arange(1.0, k)))) for k in range(2, 5))
    )
    assert math.isclose(float(trellax.grad(loss)(1.5, xs)), want, rel_tol=1e-5)
    assert math.isclose(float(trellax.jit(trellax.grad(loss))(1.5, xs)), want, rel_tol=1e-5)

    @trellax.custom_jvp
    def cj(x: Any) -> Any:
        return tnp.sin(x)

    cj.defjvp(lambda p, t: (cj(p[0]), 100.0 * t[0]))
    assert float(trellax.grad(trellax.jit(lambda x: cj(x) * 2))(1.0)) == 200.0


def test_operand_of_the_wrong_type_is_refused() -> None:
    closed = trellax.jit(f).trace(V).jaxpr
    with pytest.raises(TypeError, match="operand 0 is i32"):
        jit_p.bind_multi(tnp.ones(3, "int32"), **_params(closed))


def _params(closed: Any) -> dict[str, Any]:
    return {
        "jaxpr": closed,
        "name": "f",
        "donated_invars": (False,),
        "inline": False,
        "keep_unused": False,
    }
