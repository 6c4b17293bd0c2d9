"""Cases for tests/golden/compat.json: flatten_util, example_libraries and experimental.

Each case is one expression, evaluated with ``M`` a namespace of the modules (``M.jax``,
``M.jnp``, ``M.random``, ``M.flatten_util``, ``M.stax``, ``M.optimizers``, ``M.checkify``,
``M.mesh_utils``, ``M.multihost_utils``, ``M.shard_map``, ``M.P``) from JAX
(tools/gen_golden_compat.py) or from trellax (tests/test_golden_compat.py), ``np`` NumPy and
``F`` this module.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# -- helpers (written once against the namespace M) ---------------------------------------------


def ravel(M: Any, tree: Any) -> Any:
    flat, unravel = M.flatten_util.ravel_pytree(tree)
    return flat, unravel(flat)


def unravel_with(M: Any, tree: Any, flat: Any) -> Any:
    return M.flatten_util.ravel_pytree(tree)[1](flat)


def stax_net(M: Any) -> Any:
    stax = M.stax
    init, apply = stax.serial(
        stax.Conv(3, (3, 3), padding="SAME"),
        stax.BatchNorm(),
        stax.Relu,
        stax.MaxPool((2, 2), strides=(2, 2)),
        stax.Flatten,
        stax.Dense(5),
        stax.LogSoftmax,
    )
    shape, params = init(M.random.PRNGKey(0), (2, 6, 6, 2))
    x = M.jnp.linspace(-1.0, 1.0, 2 * 6 * 6 * 2).reshape(2, 6, 6, 2)
    return [int(d) for d in shape], params, apply(params, x)


def stax_layer(M: Any, name: str, args: tuple[Any, ...], shape: tuple[int, ...]) -> Any:
    layer = getattr(M.stax, name)
    init, apply = layer(*args)
    out_shape, params = init(M.random.PRNGKey(1), shape)
    x = M.jnp.sin(M.jnp.arange(int(np.prod(shape)), dtype="float32")).reshape(shape)
    return [int(d) for d in out_shape], params, apply(params, x, rng=M.random.PRNGKey(2))


def stax_plain(M: Any, name: str, shape: tuple[int, ...]) -> Any:
    init, apply = getattr(M.stax, name)
    out_shape, params = init(M.random.PRNGKey(1), shape)
    x = M.jnp.sin(M.jnp.arange(int(np.prod(shape)), dtype="float32")).reshape(shape)
    return [int(d) for d in out_shape], apply(params, x)


def stax_branches(M: Any) -> Any:
    stax = M.stax
    block = stax.serial(
        stax.FanOut(2),
        stax.parallel(stax.Dense(3), stax.Identity),
        stax.FanInConcat(),
        stax.Tanh,
        stax.FanOut(2),
        stax.parallel(stax.Dense(6), stax.Dense(6)),
        stax.FanInSum,
    )
    init, apply = block
    shape, params = init(M.random.PRNGKey(3), (4, 3))
    x = M.jnp.cos(M.jnp.arange(12.0)).reshape(4, 3)
    return [int(d) for d in shape], apply(params, x)


def stax_dropout(M: Any) -> Any:
    init, apply = M.stax.Dropout(0.7)
    _, params = init(M.random.PRNGKey(0), (3, 4))
    x = M.jnp.arange(12.0).reshape(3, 4)
    eval_apply = M.stax.Dropout(0.7, mode="test")[1]
    return apply(params, x, rng=M.random.PRNGKey(5)), eval_apply((), x, rng=M.random.PRNGKey(5))


def optimize(M: Any, name: str, args: tuple[Any, ...], steps: int = 4) -> Any:
    opt_init, opt_update, get_params = getattr(M.optimizers, name)(*args)
    params = {"w": M.jnp.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]]), "b": M.jnp.float32(0.5)}

    def loss(p: Any) -> Any:
        return M.jnp.sum(p["w"] ** 2 * M.jnp.arange(1.0, 7.0).reshape(2, 3)) + p["b"] ** 4

    state = opt_init(params)
    for i in range(steps):
        state = opt_update(i, M.jax.grad(loss)(get_params(state)), state)
    return get_params(state)


def optimize_jit(M: Any) -> Any:
    opt_init, opt_update, get_params = M.optimizers.adam(
        M.optimizers.exponential_decay(0.1, 2, 0.5)
    )
    state = opt_init((M.jnp.ones(3), [M.jnp.zeros(2)]))

    @M.jax.jit
    def step(i: Any, state: Any) -> Any:
        g = M.jax.grad(lambda p: M.jnp.sum((p[0] - 2.0) ** 2) + M.jnp.sum(p[1][0] + 1.0))(
            get_params(state)
        )
        return opt_update(i, g, state)

    for i in range(5):
        state = step(i, state)
    return get_params(state)


def schedules(M: Any) -> Any:
    o = M.optimizers
    scheds = [
        o.constant(0.5),
        o.exponential_decay(1.0, 3, 0.5),
        o.inverse_time_decay(1.0, 2, 0.5),
        o.inverse_time_decay(1.0, 2, 0.5, staircase=True),
        o.polynomial_decay(1.0, 4, 0.1, power=2.0),
        o.piecewise_constant([2, 4], [1.0, 0.5, 0.1]),
    ]
    return [[s(i) for i in range(7)] for s in scheds]


def pack_roundtrip(M: Any) -> Any:
    o = M.optimizers
    opt_init, opt_update, get_params = o.momentum(0.1, 0.9)
    state = opt_init({"a": M.jnp.ones(2), "b": (M.jnp.zeros(1),)})
    state = opt_update(0, {"a": M.jnp.ones(2), "b": (M.jnp.ones(1),)}, state)
    packed = o.pack_optimizer_state(o.unpack_optimizer_state(state))
    return get_params(packed), M.jax.tree_util.tree_leaves(packed)


def opt_tree_mismatch(M: Any) -> Any:
    opt_init, opt_update, _ = M.optimizers.sgd(0.1)
    state = opt_init({"a": M.jnp.ones(2)})
    return opt_update(0, {"b": M.jnp.ones(2)}, state)


def checkified(M: Any, x: float, jit: bool) -> Any:
    ck = M.checkify

    def f(v: Any) -> Any:
        ck.check(v > 0, "v must be positive, got {}", v)
        ck.check(v < 10, "v too big: {big}", big=v * 2)
        return M.jnp.log(v)

    cf = ck.checkify(f)
    if jit:
        cf = M.jax.jit(cf)
    err, out = cf(M.jnp.float32(x))
    return err.get(), out


def checkify_vmap(M: Any) -> Any:
    ck = M.checkify

    def f(v: Any) -> Any:
        ck.check(v > 0, "v must be positive, got {}", v)
        return v * 2

    err, out = M.jax.vmap(ck.checkify(f))(M.jnp.array([1.0, -1.0, 3.0, -2.0]))
    return err.get(), out


def check_eager(M: Any) -> Any:
    M.checkify.check(M.jnp.float32(1.0) > 2, "nope {}", M.jnp.int32(3))


def check_in_jit(M: Any) -> Any:
    return M.jax.jit(lambda v: M.checkify.check(v > 0, "positive") or v)(M.jnp.float32(1.0))


def check_error_roundtrip(M: Any) -> Any:
    ck = M.checkify
    err, _ = ck.checkify(lambda v: ck.check(v > 0, "bad {}", v) or v)(M.jnp.float32(-3.0))
    err2, out = ck.checkify(lambda e, v: ck.check_error(e) or v + 1)(err, M.jnp.float32(1.0))
    return err2.get(), out


def io_cb(M: Any) -> Any:
    seen: list[float] = []

    def cb(v: Any) -> Any:
        seen.append(float(v))
        return np.asarray(v, dtype=np.float32) * 3

    sds = M.jax.ShapeDtypeStruct((), M.jnp.float32)
    f = M.jax.jit(lambda v: M.io_callback(cb, sds, v) + 1)
    return f(M.jnp.float32(2.0)), f(M.jnp.float32(5.0)), seen


def x64_ctx(M: Any) -> Any:
    with M.enable_x64():
        a = M.jnp.arange(3)
        with M.disable_x64():
            b = M.jnp.arange(3)
    return str(a.dtype), str(b.dtype)


def shard_mapped(M: Any) -> Any:
    mesh = M.Mesh(np.array(M.jax.devices()), ("i",))

    def f(a: Any) -> Any:
        total = M.jax.lax.psum(a, "i")
        gathered = M.jax.lax.all_gather(a, "i")
        return total * 2 + M.jax.lax.axis_index("i"), gathered, M.jax.lax.psum(a.sum(), "i")

    specs = (M.P("i"), M.P("i"), M.P())
    g = M.shard_map.shard_map(f, mesh, in_specs=M.P("i"), out_specs=specs)
    return g(M.jnp.arange(4.0))


CASES: dict[str, str] = {
    # flatten_util.ravel_pytree
    "ravel_same_dtype": "F.ravel(M, {'a': M.jnp.ones((2, 2)), 'b': [M.jnp.arange(3.0)]})",
    "ravel_mixed": "F.ravel(M, (M.jnp.ones(2, 'int8'), M.jnp.arange(3, dtype='float16'), "
    "M.jnp.array([True, False])))",
    "ravel_int_bool": "F.ravel(M, [M.jnp.arange(3, dtype='uint8'), M.jnp.array(True)])",
    "ravel_python_scalars": "F.ravel(M, (1.0, 2.0))",
    "ravel_python_mixed": "F.ravel(M, (1, 2.5, M.jnp.ones(2, 'bfloat16')))",
    "ravel_scalar_leaf": "F.ravel(M, {'x': M.jnp.float32(3.0), 'y': None})",
    "ravel_empty": "M.flatten_util.ravel_pytree({})[0]",
    "ravel_empty_unravel": "M.flatten_util.ravel_pytree(())[1](M.jnp.zeros(0))",
    "ravel_complex": "F.ravel(M, [M.jnp.ones(2, 'complex64'), M.jnp.ones(1)])",
    "unravel_other_dtype_single": "F.unravel_with(M, [M.jnp.ones(2)], M.jnp.arange(2))",
    "unravel_wrong_dtype_mixed": "F.unravel_with(M, [M.jnp.ones(2), M.jnp.ones(1, 'int32')], "
    "M.jnp.ones(3, 'int32'))",
    "unravel_wrong_size": "F.unravel_with(M, [M.jnp.ones(2), M.jnp.ones(3)], M.jnp.ones(4))",
    "ravel_grad": "M.jax.grad(lambda v: M.jnp.sum(M.flatten_util.ravel_pytree("
    "{'a': v, 'b': v * 2})[0] ** 2))(M.jnp.ones(2))",
    "ravel_jit": "M.jax.jit(lambda t: M.flatten_util.ravel_pytree(t)[0])("
    "(M.jnp.ones(2), M.jnp.arange(2, dtype='int32')))",
    # example_libraries.stax
    "stax_network": "F.stax_net(M)",
    "stax_dense": "F.stax_layer(M, 'Dense', (4,), (3, 5))",
    "stax_conv_strided": "F.stax_layer(M, 'Conv', (2, (2, 3), (2, 1), 'SAME'), (1, 5, 6, 3))",
    "stax_general_conv": "F.stax_layer(M, 'GeneralConv', (('NCHW', 'OIHW', 'NCHW'), 2, (3, 3)), "
    "(1, 2, 5, 5))",
    "stax_conv_transpose": "F.stax_layer(M, 'ConvTranspose', (2, (3, 3), (2, 2), 'SAME'), "
    "(1, 3, 3, 2))",
    "stax_conv1d_transpose": "F.stax_layer(M, 'Conv1DTranspose', (3, (2,), (2,)), (2, 4, 2))",
    "stax_batchnorm": "F.stax_layer(M, 'BatchNorm', ((0,),), (4, 3))",
    "stax_batchnorm_noscale": "F.stax_layer(M, 'BatchNorm', ((0, 1), 1e-3, True, False), "
    "(2, 3, 2))",
    "stax_avgpool": "F.stax_layer(M, 'AvgPool', ((2, 2), (1, 1), 'SAME'), (1, 3, 3, 2))",
    "stax_sumpool": "F.stax_layer(M, 'SumPool', ((2, 2), (2, 2)), (1, 4, 5, 1))",
    "stax_maxpool_spec": "F.stax_layer(M, 'MaxPool', ((2,), (1,), 'VALID', 'NCW'), (2, 3, 5))",
    "stax_avgpool_spec": "F.stax_layer(M, 'AvgPool', ((2, 2), None, 'SAME', 'NCHW'), (1, 2, 3, 3))",
    "stax_activations": "[F.stax_plain(M, n, (2, 3)) for n in ('Tanh', 'Relu', 'Exp', "
    "'LogSoftmax', 'Softmax', 'Softplus', 'Sigmoid', 'Elu', 'LeakyRelu', 'Selu', 'Gelu', "
    "'Identity', 'Flatten')]",
    "stax_branches": "F.stax_branches(M)",
    "stax_dropout": "F.stax_dropout(M)",
    "stax_dropout_needs_key": "M.stax.Dropout(0.5)[1]((), M.jnp.ones(2))",
    "stax_elementwise": "M.stax.elementwise(M.jnp.clip, min=0.0, max=0.5)[1]((), "
    "M.jnp.linspace(-1, 1, 5))",
    # example_libraries.optimizers
    "opt_sgd": "F.optimize(M, 'sgd', (0.05,))",
    "opt_momentum": "F.optimize(M, 'momentum', (0.05, 0.9))",
    "opt_nesterov": "F.optimize(M, 'nesterov', (0.05, 0.8))",
    "opt_adagrad": "F.optimize(M, 'adagrad', (0.1,))",
    "opt_rmsprop": "F.optimize(M, 'rmsprop', (0.01,))",
    "opt_rmsprop_momentum": "F.optimize(M, 'rmsprop_momentum', (0.01,))",
    "opt_adam": "F.optimize(M, 'adam', (0.1,))",
    "opt_adamax": "F.optimize(M, 'adamax', (0.1,))",
    "opt_sm3": "F.optimize(M, 'sm3', (0.1,))",
    "opt_schedule_arg": "F.optimize(M, 'sgd', (M.optimizers.polynomial_decay(0.1, 3, 0.01),))",
    "opt_jit": "F.optimize_jit(M)",
    "opt_schedules": "F.schedules(M)",
    "opt_pack_roundtrip": "F.pack_roundtrip(M)",
    "opt_tree_mismatch": "F.opt_tree_mismatch(M)",
    "opt_make_schedule_bad": "M.optimizers.make_schedule([0.1, 0.2])",
    "opt_piecewise_bad": "M.optimizers.piecewise_constant([1, 2], [0.1, 0.2])",
    "opt_l2_norm": "M.optimizers.l2_norm({'a': M.jnp.ones(3), 'b': M.jnp.arange(2.0)})",
    "opt_clip_grads": "M.optimizers.clip_grads({'a': M.jnp.ones(3) * 2, 'b': M.jnp.arange(2.0)}, 1.5)",
    "opt_clip_grads_small": "M.optimizers.clip_grads({'a': M.jnp.ones(2) * 0.1}, 1.5)",
    # experimental
    "checkify_fail_first": "F.checkified(M, -1.0, False)",
    "checkify_fail_second": "F.checkified(M, 20.0, False)",
    "checkify_ok": "F.checkified(M, 2.0, False)",
    "checkify_jit": "F.checkified(M, 30.0, True)",
    "checkify_vmap": "F.checkify_vmap(M)",
    "check_eager": "F.check_eager(M)",
    "check_in_jit": "F.check_in_jit(M)",
    "check_error_roundtrip": "F.check_error_roundtrip(M)",
    "check_bad_fmt_arg": "M.checkify.check(M.jnp.bool_(True), 'x {}', 1.0)",
    "checkify_categories": "M.checkify.all_checks == (M.checkify.automatic_checks | "
    "M.checkify.user_checks)",
    "io_callback_jit": "F.io_cb(M)",
    "x64_context": "F.x64_ctx(M)",
    "mesh_utils_create": "[d.id for d in M.mesh_utils.create_device_mesh((1, 1)).flat] + "
    "[M.mesh_utils.create_device_mesh((1,)).shape]",
    "mesh_utils_too_big": "M.mesh_utils.create_device_mesh((2, 1))",
    "multihost_broadcast": "M.multihost_utils.broadcast_one_to_all({'a': M.jnp.ones(2)})",
    "multihost_allgather": "M.multihost_utils.process_allgather(M.jnp.arange(3))",
    "multihost_allgather_tiled": "M.multihost_utils.process_allgather(M.jnp.arange(3), tiled=True)",
    "multihost_sync": "M.multihost_utils.sync_global_devices('step')",
    "shard_map_experimental": "F.shard_mapped(M)",
}
