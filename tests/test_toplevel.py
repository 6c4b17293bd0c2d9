"""Direct tests of the top-level names of issue 14 (JAX's values are in test_golden_toplevel)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax._src.config import jax_flags
from trellax._src.core import core


def f(x: trellax.Array) -> trellax.Array:
    return tnp.sin(tnp.sin(x) * x)


@pytest.mark.parametrize("x", [0.5, -0.0, np.float32(2.0)])
def test_checkpoint_gradients_equal_plain(x: float) -> None:
    ck = trellax.checkpoint(f)
    for t in (trellax.grad, lambda g: trellax.jit(trellax.grad(g)), trellax.hessian):
        assert np.allclose(t(ck)(x), t(f)(x))
    xs = tnp.linspace(-2, 2, 5)
    assert np.allclose(trellax.vmap(trellax.grad(ck))(xs), trellax.vmap(trellax.grad(f))(xs))
    assert np.allclose(trellax.jit(trellax.vmap(ck))(xs), f(xs))


def test_checkpoint_is_one_remat2_equation() -> None:
    text = str(trellax.make_jaxpr(trellax.checkpoint(f))(1.0))
    assert text.count("remat2[") == 1 and "prevent_cse=True" in text and "policy=None" in text
    jaxpr = trellax.jit(trellax.remat(f, prevent_cse=False)).trace(1.0).jaxpr
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["remat2"]


def test_checkpoint_static_argnames_and_closure() -> None:
    y = tnp.float32(3.0)
    g = trellax.checkpoint(lambda x, *, n: x**n * y, static_argnames="n")
    assert np.allclose(trellax.jit(trellax.grad(lambda x: g(x, n=2)))(2.0), 12.0)


def test_custom_gradient_under_jit_and_vmap() -> None:
    @trellax.custom_gradient
    def clip_grad(x: trellax.Array) -> tuple[trellax.Array, object]:
        return x * 2, lambda g: (tnp.clip(g, -1, 1),)

    assert float(trellax.grad(lambda x: 10 * clip_grad(x))(3.0)) == 1.0
    assert np.allclose(trellax.vmap(trellax.grad(clip_grad))(tnp.ones(3)), 1.0)
    with pytest.raises(TypeError, match="forward-mode"):
        trellax.jvp(clip_grad, (1.0,), (1.0,))


def test_closure_convert_hoists_only_tracers() -> None:
    def outer(y: trellax.Array) -> trellax.Array:
        fc, consts = trellax.closure_convert(lambda x: x * y + 1.0, 1.0)
        assert len(consts) == (0 if core.is_concrete(y) else 1)
        return fc(3.0, *consts)

    assert float(outer(tnp.float32(2.0))) == 7.0
    assert float(trellax.jit(outer)(2.0)) == 7.0


def test_custom_vmap_rule_only_under_vmap() -> None:
    from trellax.custom_batching import custom_vmap, sequential_vmap

    @custom_vmap
    def g(x: trellax.Array) -> trellax.Array:
        return x + 1

    g.def_vmap(lambda n, inb, x: (x * 0 + n, inb[0]))
    assert float(g(1.0)) == 2.0
    assert np.array_equal(trellax.vmap(g)(tnp.zeros(4)), [4, 4, 4, 4])
    assert np.array_equal(trellax.jit(trellax.vmap(g))(tnp.zeros(2)), [2, 2])
    seq = sequential_vmap(lambda x, y: x * y)
    out = trellax.vmap(seq, in_axes=(0, None))(tnp.arange(3.0), tnp.float32(2))
    assert np.array_equal(out, [0, 2, 4])


def test_pure_callback_runs_at_run_time_under_jit() -> None:
    calls: list[tuple[int, ...]] = []

    def host(x: trellax.Array) -> np.ndarray:
        calls.append(tuple(x.shape))
        return np.asarray(x) * 2

    spec = trellax.ShapeDtypeStruct((3,), "float32")
    g = trellax.jit(lambda x: trellax.pure_callback(host, spec, x) + 1)
    g(tnp.ones(3))
    g(tnp.ones(3))
    assert calls == [(3,), (3,)]  # traced once, called at each run
    seq = trellax.vmap(
        lambda x: trellax.pure_callback(
            host, trellax.ShapeDtypeStruct((), "float32"), x, vmap_method="sequential"
        )
    )
    assert np.array_equal(
        seq(tnp.array([1.0, np.nan, -np.inf])), [2, np.nan, -np.inf], equal_nan=True
    )
    with pytest.raises(trellax.errors.JaxRuntimeError, match="shape"):
        trellax.jit(lambda x: trellax.pure_callback(lambda v: np.zeros(2), spec, x))(tnp.ones(3))


def test_debug_print_under_jit_prints_each_run(capsys: pytest.CaptureFixture[str]) -> None:
    g = trellax.jit(lambda x: (trellax.debug.print("v={} {n}", x, n=x.sum()), x)[1])
    g(tnp.arange(2.0))
    g(tnp.array([-0.0, np.inf]))
    assert capsys.readouterr().out.splitlines() == ["v=[0. 1.] 1.0", "v=[-0. inf] inf"]


@pytest.mark.parametrize("op", [lambda x: tnp.log(x), lambda x: x / x, lambda x: tnp.sqrt(x)])
def test_debug_nans_raises_eagerly_and_under_jit(op: object) -> None:
    x = tnp.array([-1.0, 0.0])
    with trellax.debug_nans(True):
        with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in"):
            op(x)  # type: ignore[operator]
        with pytest.raises(FloatingPointError):
            trellax.jit(op)(x)  # type: ignore[arg-type]
        assert float(tnp.float32(1) / tnp.float32(0)) == np.inf  # infs pass
    assert np.isnan(np.asarray(tnp.log(x))).any()  # off again
    assert core.current_trace() is core.eval_trace


def test_debug_nans_through_config_and_threads() -> None:
    trellax.config.update("jax_debug_nans", True)
    try:
        assert trellax.config.jax_debug_nans and trellax.config.read("debug_nans")
        with pytest.raises(FloatingPointError):
            tnp.log(tnp.float32(-1))
    finally:
        trellax.config.update("jax_debug_nans", False)
    assert np.isnan(float(tnp.log(tnp.float32(-1))))
    assert core.current_trace() is core.eval_trace


def test_disable_jit_runs_python_each_call() -> None:
    seen: list[str] = []
    g = trellax.jit(lambda x: (seen.append(type(x).__name__), x * 2)[1])
    with trellax.disable_jit():
        g(1.0)
        g(tnp.float32(2))
    g(1.0)
    g(1.0)
    assert seen == ["float", "ArrayImpl", "Tracer"]


def test_ensure_compile_time_eval_gives_concrete_values() -> None:
    @trellax.jit
    def g(x: trellax.Array) -> trellax.Array:
        with trellax.ensure_compile_time_eval():
            n = int(tnp.arange(4).sum())
        return x * n

    assert float(g(1.0)) == 6.0


def test_rank_promotion_is_part_of_the_jit_key() -> None:
    g = trellax.jit(lambda a, b: a + b)
    a, b = tnp.ones(3), tnp.ones((2, 3))
    assert g(a, b).shape == (2, 3)
    with trellax.numpy_rank_promotion("raise"), pytest.raises(ValueError, match="rank_promotion"):
        g(a, b)
    trellax.config.update("jax_numpy_rank_promotion", "warn")
    try:
        with pytest.warns(UserWarning, match="automatic rank promotion for add"):
            a + b
    finally:
        trellax.config.update("jax_numpy_rank_promotion", "allow")


@pytest.mark.parametrize("flag", jax_flags.NO_EFFECT, ids=lambda f: f.name)
def test_no_effect_flags_accept_their_default(flag: jax_flags.FlagState) -> None:
    with flag(flag.default if flag.default is not None else flag.value):
        assert tnp.ones(2).sum() == 2
    assert getattr(trellax.config, "jax_" + flag.name) == flag.default


@pytest.mark.parametrize(
    "ctx",
    [
        lambda: trellax.threefry_partitionable(False),
        lambda: trellax.debug_key_reuse(True),
        lambda: trellax.default_prng_impl("rbg"),
    ],
)
def test_unsupported_flag_values_raise(ctx: object) -> None:
    with pytest.raises(NotImplementedError, match="trellax"):
        ctx()  # type: ignore[operator]


def test_multi_device_names_point_elsewhere() -> None:
    mesh = trellax.make_mesh((1,), ("i",))
    assert trellax.shard_map(lambda x: x, mesh=mesh, out_specs=trellax.P())(1.0) == 1.0
    with pytest.raises(NotImplementedError, match="vmap"):
        trellax.smap(lambda x: x, out_axes=0, axis_name="i")
    with pytest.raises(ValueError, match="vmap"):
        trellax.pmap(lambda x: x)(tnp.ones((2, 3)))
    with pytest.raises(NotImplementedError):
        trellax.distributed.initialize()
    x = tnp.arange(3)
    assert trellax.reshard(x, trellax.P()) is x
    with trellax.default_device(trellax.devices()[0]), trellax.transfer_guard("disallow"):
        assert trellax.make_array_from_process_local_data(None, np.ones(2)).shape == (2,)


def test_clear_caches_retraces() -> None:
    g = trellax.jit(lambda x: x + 1)
    g(1.0)
    trellax.clear_caches()
    g(1.0)
    assert g.trace_count == 2
    trellax.effects_barrier()
    y = tnp.arange(5)
    assert any(a is y for a in trellax.live_arrays())


def test_log_compiles(caplog: pytest.LogCaptureFixture) -> None:
    def mul(x: trellax.Array, y: trellax.Array) -> trellax.Array:
        return x * y

    g = trellax.jit(mul)
    with trellax.log_compiles():
        g(1.0, tnp.ones(3))
        g(2.0, tnp.ones(3))  # cached: no second message
    g(1.0, tnp.ones(2))
    assert [r.getMessage() for r in caplog.records if r.name == "trellax"] == [
        "Compiling jit(mul) with global shapes and types "
        "(ShapedArray(float32[], weak_type=True), ShapedArray(float32[3]))."
    ]


def test_disable_jit_through_config() -> None:
    seen: list[str] = []
    g = trellax.jit(lambda x: (seen.append(type(x).__name__), x + 1)[1])
    trellax.config.update("jax_disable_jit", True)
    try:
        assert trellax.config.jax_disable_jit
        g(1)
        g(1)
    finally:
        trellax.config.update("jax_disable_jit", False)
    assert seen == ["int", "int"] and core.current_trace() is core.eval_trace


def test_checkpoint_keeps_only_its_inputs_as_residuals() -> None:
    from trellax._src.interpreters.ad import linearize_flat

    def g(x: trellax.Array) -> trellax.Array:
        return tnp.tanh(tnp.sin(x) * tnp.exp(x))

    x = tnp.linspace(-1, 1, 4)
    _, plain = linearize_flat(lambda v: [g(v)], [x])
    _, remat = linearize_flat(lambda v: [trellax.checkpoint(g)(v)], [x])
    assert len(plain.closed.consts) > 1 and len(remat.closed.consts) == 1
    (ct,) = remat.transpose([tnp.ones(4)])
    assert np.allclose(ct, plain.transpose([tnp.ones(4)])[0])
    text = str(trellax.make_jaxpr(trellax.grad(lambda v: trellax.checkpoint(g)(v).sum()))(x))
    assert "differentiated=True" in text and text.count("tanh") == 2  # forward, recomputation


def test_debug_breakpoint_calls_the_hook_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    hits: list[int] = []
    monkeypatch.setattr(sys, "breakpointhook", lambda *a, **k: hits.append(1))
    g = trellax.jit(lambda x: (trellax.debug.breakpoint(), x + 1)[1])
    g(1.0)
    g(2.0)
    assert hits == [1, 1]


def test_pure_callback_sharding_and_extremes() -> None:
    spec = trellax.ShapeDtypeStruct((4,), "float16")
    x = tnp.array([np.nan, -np.inf, -0.0, 65504], dtype="float16")
    sharding = trellax.sharding.SingleDeviceSharding()
    out = trellax.pure_callback(lambda v: np.asarray(v) * 2, spec, x, sharding=sharding)
    assert out.dtype == np.float16 and not out.weak_type
    assert np.array_equal(np.asarray(out), [np.nan, -np.inf, -0.0, np.inf], equal_nan=True)
    assert np.signbit(np.asarray(out)[2])
    with pytest.raises(TypeError, match="sharding"):
        trellax.pure_callback(np.sin, spec, x, sharding="cpu")


def test_flags_are_local_to_a_thread() -> None:
    import threading

    seen: list[object] = []
    with trellax.numpy_rank_promotion("raise"), trellax.debug_infs(True):
        t = threading.Thread(
            target=lambda: seen.extend(
                [trellax.numpy_rank_promotion.value, trellax.debug_infs.value]
            )
        )
        t.start()
        t.join()
        assert trellax.config.jax_numpy_rank_promotion == "raise" and trellax.debug_infs.value
    assert seen == ["allow", False]


@pytest.mark.parametrize(
    "module",
    ["checkpoint.rematerialize", "custom.gradient", "custom.vmap", "callbacks.callbacks",
     "callbacks.debugging", "interpreters.op_by_op", "config.jax_flags"],
)  # fmt: skip
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    mod = importlib.import_module(f"trellax._src.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_debug_nans_checks_jit_outputs_then_reruns(capsys: pytest.CaptureFixture[str]) -> None:
    safe_log = trellax.jit(lambda x: tnp.where(x > 0, tnp.log(x), 0.0))
    with trellax.debug_nans(True):
        assert float(safe_log(-1.0)) == 0.0  # the NaN inside never reaches an output
        assert capsys.readouterr().out == ""
        with pytest.raises(FloatingPointError, match=r"nan\) encountered in log"):
            trellax.jit(lambda x: tnp.log(x) * 2)(tnp.float32(-1))
    assert "de-optimized version" in capsys.readouterr().out
    # a NaN the compiled program makes but the op-by-op run does not: JAX's second error
    calls: list[int] = []

    def flaky(x: trellax.Array) -> trellax.Array:
        calls.append(1)
        return x * (np.nan if len(calls) == 1 else 1.0)

    with trellax.debug_nans(True), pytest.raises(FloatingPointError, match=r"jit\(flaky\)"):
        trellax.jit(flaky)(tnp.float32(1))


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("psend", (1.0, "i", [(0, 1)])),
        ("precv", (None, (), "i", [(0, 1)])),
        ("ragged_all_to_all", (1.0, 1.0, 0, 1, 0, 1)),
    ],
)
def test_point_to_point_collectives_raise(name: str, args: tuple[object, ...]) -> None:
    fn = getattr(trellax.lax, name)
    kw = {"axis_name": "i"} if name == "ragged_all_to_all" else {}
    with pytest.raises(NotImplementedError, match="vmap"):
        fn(*args, **kw)


def test_closure_convert_checks_the_argument_structure() -> None:
    # JAX 0.10.2 (custom_api_test.test_closure_convert_pytree_mismatch): the values before the
    # constants must have the example arguments' structure
    _, vjp = trellax.vjp(lambda x, z: z * x, 2.0, 3.0)
    pure, consts = trellax.closure_convert(vjp, 2.0)
    assert consts == []
    assert [float(v) for v in pure(2.0, *consts)] == [6.0, 4.0]
    head = "The inputs to the closure produced by closure_convert must have the same Pytree "
    for bad, shown in [((2.0, consts), "PyTreeDef((*, []))"), ((), "PyTreeDef(())")]:
        with pytest.raises(TypeError) as e:
            pure(*bad)
        assert str(e.value).startswith(head)
        assert str(e.value).endswith(f"Expected PyTreeDef((*,)), but got {shown}")

    def outer(y: trellax.Array) -> trellax.Array:
        fc, cs = trellax.closure_convert(lambda x: x * y, 1.0)
        assert len(cs) == 1
        with pytest.raises(TypeError, match="same Pytree structure"):
            fc(1.0, 2.0, *cs)
        return fc(3.0, *cs)

    assert float(trellax.jit(outer)(2.0)) == 6.0
