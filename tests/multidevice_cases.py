"""Cases of the emulated multi-device machine (8 CPU devices), replayed against JAX's answers.

Shared by ``tools/gen_golden_multidevice.py`` (run under JAX with 8 host devices) and
``tests/test_multidevice.py`` (run under trellax with ``jax_num_cpu_devices=8``). Each case is a
function of the library module ``jax`` (``jax``/``trellax``) returning plain Python data.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

import numpy as np

#: (mesh shape, axis names, array shape, spec) of the layouts checked
LAYOUTS: list[tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[Any, ...]]] = [
    ((4, 2), ("x", "y"), (8, 16), ("x", "y")),
    ((4, 2), ("x", "y"), (16, 4), ("y", None)),
    ((4, 2), ("x", "y"), (8, 4), ("x", None)),
    ((4, 2), ("x", "y"), (8,), ("x",)),
    ((4, 2), ("x", "y"), (8,), (("x", "y"),)),
    ((4, 2), ("x", "y"), (8, 8), ()),
    ((4, 2), ("x", "y"), (4, 8), (None, "x")),
    ((4, 2), ("x", "y"), (32,), ("y",)),
    ((4, 2), ("x", "y"), (8, 2), (("y", "x"), None)),
    ((8,), ("i",), (1000,), ("i",)),
    ((8,), ("i",), (64, 2), ("i",)),
    ((2, 2), ("a", "b"), (3, 5), ()),
]


def _mesh(jax: Any, shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    auto = (jax.sharding.AxisType.Auto,) * len(names)
    return jax.make_mesh(shape, names, auto)


def layout(jax: Any, case: int) -> dict[str, Any]:
    """The blocks of one layout and its drawing."""
    mesh_shape, names, shape, spec = LAYOUTS[case]
    mesh = _mesh(jax, mesh_shape, names)
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))
    x = jax.device_put(jax.numpy.zeros(shape), sharding)
    blocks = sharding.devices_indices_map(shape)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        jax.debug.visualize_array_sharding(x)
    return {
        "blocks": {str(d.id): [[s.start, s.stop] for s in idx] for d, idx in blocks.items()},
        "shard_shape": list(sharding.shard_shape(shape)),
        "replicated": bool(sharding.is_fully_replicated),
        "shards": [[s.device.id, s.replica_id, list(s.data.shape)] for s in x.addressable_shards],
        "drawing": out.getvalue(),
    }


def _run(jax: Any, mesh_shape: tuple[int, ...], names: tuple[str, ...], body: Any) -> Any:
    mesh = _mesh(jax, mesh_shape, names)
    with jax.sharding.use_mesh(mesh) if hasattr(jax.sharding, "use_mesh") else mesh:
        return body(mesh)


def _P(jax: Any, *spec: Any) -> Any:
    return jax.sharding.PartitionSpec(*spec)


def _smap(jax: Any, mesh: Any, f: Any, ins: Any, outs: Any, **kw: Any) -> Any:
    return jax.shard_map(f, mesh=mesh, in_specs=ins, out_specs=outs, **kw)


def _values(x: Any) -> Any:
    a = np.asarray(x)
    return {"shape": list(a.shape), "dtype": str(a.dtype), "values": a.ravel().tolist()}


def _programs(jax: Any) -> dict[str, Callable[[Any], Any]]:
    jnp, lax = jax.numpy, jax.lax
    P = lambda *s: _P(jax, *s)  # noqa: E731
    a = jnp.arange(8 * 16.0).reshape(8, 16)
    b = jnp.arange(16 * 4.0).reshape(16, 4)
    v = jnp.arange(16.0)

    def matmul(m: Any) -> Any:
        def blk(x: Any, y: Any) -> Any:
            return lax.psum(jnp.dot(x, y), "y")

        return _smap(jax, m, blk, (P("x", "y"), P("y", None)), P("x", None))(a, b)

    return {
        "matmul_psum": matmul,
        "all_gather_tiled": lambda m: _smap(
            jax, m, lambda x: lax.all_gather(x, "x", tiled=True), P("x"), P(), check_vma=False
        )(v),
        "all_gather_untiled": lambda m: _smap(
            jax, m, lambda x: lax.all_gather(x, "x"), P("x"), P("x")
        )(v),
        "axis_index": lambda m: _smap(
            jax, m, lambda x: x * 0 + lax.axis_index("x"), P("x"), P("x")
        )(v),
        "axis_index_2d": lambda m: _smap(
            jax,
            m,
            lambda x: x * 0 + lax.axis_index("x") * 10 + lax.axis_index("y"),
            P("x", "y"),
            P("x", "y"),
        )(a),
        "psum_both": lambda m: _smap(jax, m, lambda x: lax.psum(x, ("x", "y")), P("x", "y"), P())(
            a
        ),
        "pmax_x": lambda m: _smap(jax, m, lambda x: lax.pmax(x, "x"), P("x", "y"), P(None, "y"))(a),
        "psum_scatter": lambda m: _smap(
            jax, m, lambda x: lax.psum_scatter(x, "x", tiled=True), P(None), P("x")
        )(v),
        "ppermute_ring": lambda m: _smap(
            jax,
            m,
            lambda x: lax.ppermute(x, "x", [(i, (i + 1) % 4) for i in range(4)]),
            P("x"),
            P("x"),
        )(v),
        "ppermute_partial": lambda m: _smap(
            jax, m, lambda x: lax.ppermute(x, "x", [(0, 1), (2, 3)]), P("x"), P("x")
        )(v),
        "replicated_in": lambda m: _smap(jax, m, lambda x: x * 2, P(), P())(v),
        "tiled_out": lambda m: _smap(jax, m, lambda x: x + 1, P(), P("x"))(jnp.ones(3)),
        "check_vma_off": lambda m: _smap(jax, m, lambda x: x, P("x", "y"), P("x"), check_vma=False)(
            a
        ),
        "jit_of_shard_map": lambda m: jax.jit(
            _smap(jax, m, lambda x: jnp.sin(x).sum(keepdims=True), P(("x", "y")), P(("x", "y")))
        )(v),
        "grad_through": lambda m: jax.grad(
            lambda x: _smap(jax, m, lambda y: lax.psum(jnp.sum(y * y), "x"), P("x"), P())(x)
        )(v),
        "pytree_args": lambda m: _smap(
            jax,
            m,
            lambda d: {"s": lax.psum(d["u"], "x"), "t": d["w"] * 2},
            ({"u": P("x"), "w": P()},),
            {"s": P(), "t": P()},
        )({"u": v, "w": jnp.ones(2)}),
    }


PROGRAMS = (
    "matmul_psum", "all_gather_tiled", "all_gather_untiled", "axis_index", "axis_index_2d",
    "psum_both", "pmax_x", "psum_scatter", "ppermute_ring", "ppermute_partial", "replicated_in",
    "tiled_out", "check_vma_off", "jit_of_shard_map", "grad_through", "pytree_args",
)  # fmt: skip

#: programs JAX refuses: the exception class name
ERRORS: dict[str, Callable[[Any, Any], Any]] = {
    "varying_out_left_out": lambda jax, m: _smap(
        jax, m, lambda x: x, _P(jax, "x", "y"), _P(jax, "x")
    )(jax.numpy.ones((8, 16))),
    "not_divisible": lambda jax, m: _smap(jax, m, lambda x: x, _P(jax, "x"), _P(jax, "x"))(
        jax.numpy.ones(6)
    ),
    "unknown_axis": lambda jax, m: _smap(jax, m, lambda x: x, _P(jax, "z"), _P(jax, "z"))(
        jax.numpy.ones(8)
    ),
    "spec_too_long": lambda jax, m: _smap(
        jax, m, lambda x: x, _P(jax, "x", None), _P(jax, "x", None)
    )(jax.numpy.ones(8)),
    "device_put_not_divisible": lambda jax, m: jax.device_put(
        jax.numpy.ones(6), jax.sharding.NamedSharding(m, _P(jax, "x"))
    ),
    "mesh_too_big": lambda jax, m: jax.make_mesh((4, 4), ("p", "q")),
}


def program(jax: Any, name: str) -> Any:
    out = _run(jax, (4, 2), ("x", "y"), _programs(jax)[name])
    leaves = jax.tree_util.tree_leaves(out)
    return [_values(x) for x in leaves]


def error(jax: Any, name: str) -> str:
    try:
        _run(jax, (4, 2), ("x", "y"), lambda m: ERRORS[name](jax, m))
    except Exception as e:
        return type(e).__name__
    return "no error"


def environment(jax: Any) -> dict[str, Any]:
    devs = jax.devices()
    x = jax.device_put(jax.numpy.ones(3), devs[3])
    return {
        "count": jax.device_count(),
        "local_count": jax.local_device_count(),
        "repr": [repr(d) for d in devs],
        "put_device": repr(x.device),
        "put_devices": sorted(d.id for d in x.devices()),
        "pmap_8": np.asarray(jax.pmap(lambda t: t * 2)(jax.numpy.arange(8.0))).tolist(),
        "pmap_psum": np.asarray(
            jax.pmap(lambda t: jax.lax.psum(t, "i"), axis_name="i")(jax.numpy.arange(8.0))
        ).tolist(),
    }
