"""Cases of shardings carried in types (JAX's explicit sharding), replayed against JAX's answers.

Shared by ``tools/gen_golden_sharding_types.py`` (run under JAX 0.10.2 with 8 host devices, writes
``tests/golden/sharding_types.json``) and ``tests/test_sharding_types.py`` (run under trellax with
``jax_num_cpu_devices=8``). Each case is a function of the library module ``jax``
(``jax``/``trellax``) and of ``x``, ``reshard(arange(8.).reshape(2, 4), P("X", None))`` made under
``set_mesh`` of a (2, 2) mesh with Explicit axes ``X`` and ``Y``; :func:`observe` turns its result
(or its error) into plain data: each array's ``str(typeof(...))``, its concrete sharding's spec and
whether it is committed, or the error's class and the first line of its message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Case = Callable[[Any, Any], Any]


def _cases(jax: Any) -> dict[str, Case]:
    jnp, lax = jax.numpy, jax.lax
    P = jax.sharding.PartitionSpec
    rs = jax.sharding.reshard

    def y(x: Any) -> Any:
        # the same values split over Y along the columns
        return rs(jnp.arange(8.0).reshape(2, 4), P(None, "Y"))

    def ints(x: Any) -> Any:
        return x.astype(jnp.int32)

    c: dict[str, Case] = {
        "x": lambda jax, x: x,
        "x.sharding": lambda jax, x: x,
        # elementwise, unary
        **{
            f"unary {name}": _of_x(f)
            for name, f in [
                ("sin", jnp.sin),
                ("exp", jnp.exp),
                ("log1p", jnp.log1p),
                ("tanh", jnp.tanh),
                ("sqrt", jnp.sqrt),
                ("abs", jnp.abs),
                ("negative", jnp.negative),
                ("sign", jnp.sign),
                ("floor", jnp.floor),
                ("round", jnp.round),
                ("isnan", jnp.isnan),
                ("isfinite", jnp.isfinite),
                ("logistic", lax.logistic),
                ("erf", lax.erf),
                ("lgamma", lax.lgamma),
                ("square", jnp.square),
                ("reciprocal", jnp.reciprocal),
                ("x ** 2", lambda a: a**2),
                ("x ** 0.5", lambda a: a**0.5),
                ("complex", lambda a: a + 1j),
                ("real", lambda a: jnp.real(a + 1j)),
                ("angle", lambda a: jnp.angle(a + 1j)),
                ("astype int32", ints),
                ("astype bool", lambda a: a.astype(bool)),
                ("bitwise not", lambda a: ~ints(a)),
                ("nan_to_num", jnp.nan_to_num),
                ("clip", lambda a: jnp.clip(a, 1.0, 3.0)),
                ("stop_gradient", lax.stop_gradient),
            ]
        },
        # elementwise, binary
        **{
            f"binary {name}": _of_x(lambda a, f=f: f(a, a + 1))
            for name, f in [
                ("add", jnp.add),
                ("subtract", jnp.subtract),
                ("multiply", jnp.multiply),
                ("divide", jnp.divide),
                ("floor_divide", jnp.floor_divide),
                ("power", jnp.power),
                ("maximum", jnp.maximum),
                ("minimum", jnp.minimum),
                ("arctan2", jnp.arctan2),
                ("nextafter", jnp.nextafter),
                ("remainder", jnp.remainder),
                ("greater", jnp.greater),
                ("equal", jnp.equal),
                ("logical_and", lambda a, b: jnp.logical_and(a > 1, b > 1)),
                ("bitwise_and", lambda a, b: ints(a) & ints(b)),
                ("shift_left", lambda a, b: ints(a) << 1),
                ("logaddexp", jnp.logaddexp),
                ("hypot", jnp.hypot),
                ("copysign", jnp.copysign),
            ]
        },
        "binary x + y (X, Y)": lambda jax, x: x + y(x),
        "binary x + ones(4)": lambda jax, x: x + jnp.ones(4),
        "binary x + ones((2, 1))": lambda jax, x: x + jnp.ones((2, 1)),
        "binary x + 1.0": lambda jax, x: x + 1.0,
        "binary x(X) + x(Y)": lambda jax, x: x + rs(x, P("Y", None)),
        "binary x(X,) + x(None, X)": lambda jax, x: x + rs(x, P(None, "X")),
        "binary x[0] + x(None,X)[0]": lambda jax, x: x[:, None, :] + rs(x, P(None, "X"))[None],
        "clamp": lambda jax, x: lax.clamp(0.0, x, 3.0),
        "select_n": lambda jax, x: lax.select_n(x > 2, x, -x),
        "where": lambda jax, x: jnp.where(x > 2, x, 0.0),
        "where y": lambda jax, x: jnp.where(x > 2, x, y(x)),
        # reductions
        "sum(0)": lambda jax, x: x.sum(0),
        "sum(1)": lambda jax, x: x.sum(1),
        "sum()": lambda jax, x: x.sum(),
        "prod(1)": lambda jax, x: x.prod(1),
        "max(0)": lambda jax, x: x.max(0),
        "min(1)": lambda jax, x: x.min(1),
        "any(1)": lambda jax, x: (x > 1).any(1),
        "mean(1) keepdims": lambda jax, x: x.mean(1, keepdims=True),
        "var(0)": lambda jax, x: jnp.var(x, 0),
        "std(1)": lambda jax, x: jnp.std(x, 1),
        "argmax(0)": lambda jax, x: jnp.argmax(x, 0),
        "argmax(1)": lambda jax, x: jnp.argmax(x, 1),
        "argmin(1)": lambda jax, x: jnp.argmin(x, 1),
        "logsumexp(1)": lambda jax, x: jax.nn.logsumexp(x, 1),
        "logsumexp(0)": lambda jax, x: jax.nn.logsumexp(x, 0),
        # cumulative
        "cumsum(1)": lambda jax, x: jnp.cumsum(x, 1),
        "cumsum(0)": lambda jax, x: jnp.cumsum(x, 0),
        "cumprod(1)": lambda jax, x: jnp.cumprod(x, 1),
        "cummax(1)": lambda jax, x: lax.cummax(x, 1),
        "cumlogsumexp(1)": lambda jax, x: lax.cumlogsumexp(x, 1),
        "cummin(0)": lambda jax, x: lax.cummin(x, 0),
        # sorting
        "sort(1)": lambda jax, x: jnp.sort(x, 1),
        "sort(0)": lambda jax, x: jnp.sort(x, 0),
        "argsort(1)": lambda jax, x: jnp.argsort(x, 1),
        "top_k": lambda jax, x: lax.top_k(x, 2),
        # shapes
        "x.T": lambda jax, x: x.T,
        "reshape (2, 2, 2)": lambda jax, x: x.reshape(2, 2, 2),
        "reshape (8,)": lambda jax, x: x.reshape(8),
        "reshape (2, 4, 1)": lambda jax, x: x.reshape(2, 4, 1),
        "reshape (4, 2)": lambda jax, x: x.reshape(4, 2),
        "reshape (1, 8)": lambda jax, x: x.reshape(1, 8),
        "x[None]": lambda jax, x: x[None],
        "expand_dims 2": lambda jax, x: jnp.expand_dims(x, 2),
        "squeeze": lambda jax, x: jnp.squeeze(x[:, :1], 1),
        "broadcast_to": lambda jax, x: jnp.broadcast_to(x, (3, 2, 4)),
        "flip(1)": lambda jax, x: jnp.flip(x, 1),
        "flip(0)": lambda jax, x: jnp.flip(x, 0),
        "roll(1)": lambda jax, x: jnp.roll(x, 1, 1),
        "swapaxes": lambda jax, x: jnp.swapaxes(x, 0, 1),
        "tile": lambda jax, x: jnp.tile(x, (1, 2)),
        "repeat(1)": lambda jax, x: jnp.repeat(x, 2, 1),
        "concatenate(0)": lambda jax, x: jnp.concatenate([x, x], 0),
        "concatenate(1)": lambda jax, x: jnp.concatenate([x, x], 1),
        "concatenate(1) x, y": lambda jax, x: jnp.concatenate([x, y(x)], 1),
        "stack": lambda jax, x: jnp.stack([x, x]),
        "x[:, :2]": lambda jax, x: x[:, :2],
        "x[:1]": lambda jax, x: x[:1],
        "x[0]": lambda jax, x: x[0],
        "x[:, 1]": lambda jax, x: x[:, 1],
        "pad(1)": lambda jax, x: jnp.pad(x, ((0, 0), (1, 1))),
        "pad(0)": lambda jax, x: jnp.pad(x, ((1, 1), (0, 0))),
        "dynamic_slice cols": lambda jax, x: lax.dynamic_slice(x, (0, 1), (2, 2)),
        "dynamic_slice rows": lambda jax, x: lax.dynamic_slice(x, (0, 0), (1, 2)),
        "dynamic_update_slice": lambda jax, x: lax.dynamic_update_slice(
            x, jnp.ones((2, 1)), (0, 1)
        ),
        "at set": lambda jax, x: x.at[0, 1].set(5.0),
        "split": lambda jax, x: jnp.split(x, 2, axis=1),
        "triu": lambda jax, x: jnp.triu(x),
        "iota like": lambda jax, x: x + lax.broadcasted_iota(jnp.float32, (2, 4), 1),
        # contractions
        "x @ ones((4, 3))": lambda jax, x: x @ jnp.ones((4, 3)),
        "x @ x.T": lambda jax, x: x @ x.T,
        "x.T @ x": lambda jax, x: x.T @ x,
        "x @ y.T": lambda jax, x: x @ y(x).T,
        "einsum": lambda jax, x: jnp.einsum("ab,bc->ac", x, jnp.ones((4, 3))),
        "outer": lambda jax, x: jnp.outer(x[:, 0], jnp.ones(3)),
        "vecdot": lambda jax, x: x @ jnp.ones(4),
        "matmul out_sharding": lambda jax, x: jnp.matmul(
            rs(x, P(None, "X")), rs(jnp.ones((4, 3)), P("X", None)), out_sharding=P("Y")
        ),
        "take": lambda jax, x: jnp.take(rs(jnp.ones((8, 4)), P("X")), jnp.arange(4), axis=0),
        "take cols": lambda jax, x: jnp.take(x, jnp.arange(2), axis=1),
        # nn (custom_jvp/custom_vjp definitions)
        **{
            f"nn {name}": _of_x(f(jax))
            for name, f in [
                ("softmax", lambda jax: jax.nn.softmax),
                ("softmax axis=0", lambda jax: lambda a: jax.nn.softmax(a, axis=0)),
                ("log_softmax", lambda jax: jax.nn.log_softmax),
                ("log_softmax axis=0", lambda jax: lambda a: jax.nn.log_softmax(a, axis=0)),
                ("relu", lambda jax: jax.nn.relu),
                ("relu6", lambda jax: jax.nn.relu6),
                ("gelu", lambda jax: jax.nn.gelu),
                ("gelu exact", lambda jax: lambda a: jax.nn.gelu(a, approximate=False)),
                ("silu", lambda jax: jax.nn.silu),
                ("sigmoid", lambda jax: jax.nn.sigmoid),
                ("softplus", lambda jax: jax.nn.softplus),
                ("elu", lambda jax: jax.nn.elu),
                ("leaky_relu", lambda jax: jax.nn.leaky_relu),
                ("standardize", lambda jax: jax.nn.standardize),
                ("one_hot", lambda jax: lambda a: jax.nn.one_hot(a[:, 0].astype("int32"), 3)),
                ("glu", lambda jax: jax.nn.glu),
            ]
        },
        # transformations
        "jit": lambda jax, x: jax.jit(lambda a: a * 2)(x),
        "jit of jit": lambda jax, x: jax.jit(lambda a: jax.jit(lambda b: b + 1)(a) * 2)(x),
        "jit softmax": lambda jax, x: jax.jit(lambda a: jax.nn.softmax(a, axis=0))(x),
        "checkpoint": lambda jax, x: jax.checkpoint(lambda a: jnp.sin(a) * 2)(x),
        "grad": lambda jax, x: jax.grad(lambda a: (a * a).sum())(x),
        "grad softmax": lambda jax, x: jax.grad(lambda a: jax.nn.softmax(a, axis=0)[:, 0].sum())(x),
        "grad checkpoint": lambda jax, x: jax.grad(lambda a: jax.checkpoint(jnp.sin)(a).sum())(x),
        "value_and_grad": lambda jax, x: jax.value_and_grad(lambda a: jnp.tanh(a).sum())(x),
        "jvp": lambda jax, x: jax.jvp(jnp.sin, (x,), (jnp.ones_like(x),)),
        "vjp": lambda jax, x: jax.vjp(jnp.sin, x)[1](jnp.ones_like(x)),
        "vmap": lambda jax, x: jax.vmap(lambda r: r * 2)(x),
        "vmap in_axes=1": lambda jax, x: jax.vmap(lambda r: r * 2, in_axes=1)(x),
        "vmap sum": lambda jax, x: jax.vmap(jnp.sum)(x),
        "vmap out_axes=1": lambda jax, x: jax.vmap(lambda r: r + 1, out_axes=1)(x),
        "custom_jvp": lambda jax, x: _custom_jvp(jax)(x),
        "custom_vjp": lambda jax, x: _custom_vjp(jax)(x),
        "grad custom_vjp": lambda jax, x: jax.grad(lambda a: _custom_vjp(jax)(a).sum())(x),
        # control flow under jit
        "scan carry": lambda jax, x: jax.jit(
            lambda a: lax.scan(lambda c, _: (c * 2, None), a, None, length=3)[0]
        )(x),
        "scan ys": lambda jax, x: jax.jit(
            lambda a: lax.scan(lambda c, r: (c + r, r * 2), jnp.zeros(4), a)
        )(x),
        "scan over columns": lambda jax, x: jax.jit(
            lambda a: lax.scan(lambda c, r: (c + r, r), jnp.zeros(2), a.T)
        )(x),
        "fori_loop": lambda jax, x: jax.jit(lambda a: lax.fori_loop(0, 3, lambda i, c: c + 1, a))(
            x
        ),
        "while_loop": lambda jax, x: jax.jit(
            lambda a: lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * 2, c[1] + 1), (a, 0))[0]
        )(x),
        "cond": lambda jax, x: jax.jit(
            lambda a: lax.cond(True, lambda b: b + 1, lambda b: b * 2, a)
        )(x),
        "cond mixed": lambda jax, x: jax.jit(
            lambda a: lax.cond(True, lambda b: b, lambda b: rs(b, P(None, "Y")), a)
        )(x),
        "switch": lambda jax, x: lax.switch(1, [jnp.sin, jnp.cos], x),
        "scan eager": lambda jax, x: lax.scan(lambda c, r: (c + r, r * 2), jnp.zeros(4), x),
        # more library functions and transformations
        "reduce_window max": lambda jax, x: lax.reduce_window(
            x, -jnp.inf, lax.max, (1, 2), (1, 2), "VALID"
        ),
        "avg_pool-like sum window": lambda jax, x: lax.reduce_window(
            x, 0.0, lax.add, (1, 3), (1, 1), "SAME"
        ),
        "take_along_axis": lambda jax, x: jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1),
        "linalg.norm(1)": lambda jax, x: jnp.linalg.norm(x, axis=1),
        "einsum batch": lambda jax, x: jnp.einsum("ab,ab->a", x, x),
        "einsum outer": lambda jax, x: jnp.einsum("ab,c->abc", x, jnp.ones(3)),
        "dot_product_attention": lambda jax, x: jax.nn.dot_product_attention(
            x.reshape(2, 1, 2, 2), x.reshape(2, 1, 2, 2), x.reshape(2, 1, 2, 2)
        ),
        "associative_scan(1)": lambda jax, x: lax.associative_scan(jnp.add, x, axis=1),
        "lax.map": lambda jax, x: lax.map(lambda r: r * 2, x.T),
        "jacfwd": lambda jax, x: jax.jacfwd(lambda a: jnp.sin(a).sum(1))(x),
        "jacrev": lambda jax, x: jax.jacrev(lambda a: jnp.sin(a).sum())(x),
        "hessian": lambda jax, x: jax.hessian(lambda a: (a**3).sum())(x[:, 0]),
        "checkpoint policy": lambda jax, x: jax.grad(
            lambda a: jax.checkpoint(
                lambda b: jnp.sin(b) * 2, policy=jax.checkpoint_policies.nothing_saveable
            )(a).sum()
        )(x),
        "vmap of jit": lambda jax, x: jax.vmap(jax.jit(lambda r: jnp.cos(r)))(x),
        "jit grad": lambda jax, x: jax.jit(jax.grad(lambda a: jnp.tanh(a).sum()))(x),
        "linearize": lambda jax, x: jax.linearize(jnp.sin, x)[1](x),
        "where 1-arg": lambda jax, x: jnp.where(x > 2, 1.0, 0.0),
        "isclose": lambda jax, x: jnp.isclose(x, x + 1e-9),
        "jnp.diff(1)": lambda jax, x: jnp.diff(x, axis=1),
        "jnp.clip(x, y)": lambda jax, x: jnp.clip(x, 0.0, x + 1),
        "softmax jit grad": lambda jax, x: jax.jit(jax.grad(lambda a: jax.nn.log_softmax(a).sum()))(
            x
        ),
        # arrays made under the mesh without a sharding
        "zeros(4)": lambda jax, x: jnp.zeros(4),
        "ones((2, 4))": lambda jax, x: jnp.ones((2, 4)),
        "arange(4)": lambda jax, x: jnp.arange(4),
        "array([1, 2])": lambda jax, x: jnp.array([1.0, 2.0]),
        "asarray numpy": lambda jax, x: jnp.asarray(__import__("numpy").ones(3)),
        "full": lambda jax, x: jnp.full((2, 2), 3.0),
        "eye": lambda jax, x: jnp.eye(3),
        "linspace": lambda jax, x: jnp.linspace(0.0, 1.0, 5),
        "random normal": lambda jax, x: jax.random.normal(jax.random.key(0), (2, 4)),
        "random key": lambda jax, x: jax.random.key(0),
        "random normal out_sharding": lambda jax, x: jax.random.normal(
            jax.random.key(0), (4, 2), out_sharding=P("X")
        ),
        "initializer out_sharding": lambda jax, x: jax.nn.initializers.ones(
            jax.random.key(0), (4, 2), out_sharding=P(None, "Y")
        ),
        "full out_sharding": lambda jax, x: jnp.full((4, 2), 1.0, out_sharding=P("Y")),
        "random split": lambda jax, x: jax.random.split(jax.random.key(0)),
        "zeros(4) + 1": lambda jax, x: jnp.zeros(4) + 1,
        "zeros(out_sharding)": lambda jax, x: jnp.zeros((4, 4), out_sharding=P("X", "Y")),
        "zeros + resharded": lambda jax, x: jnp.zeros((4, 4)) + rs(jnp.zeros((4, 4)), P("X", "Y")),
        "zeros_like": lambda jax, x: jnp.zeros_like(x),
        "full_like": lambda jax, x: jnp.full_like(x, 2.0),
        "device_put spec": lambda jax, x: jax.device_put(jnp.ones((4, 2)), P(None, "X")),
        "reshard spec": lambda jax, x: rs(x, P(None, "Y")),
        "reshard (X, Y)": lambda jax, x: rs(x, P(("X", "Y"))),
        "reshard X twice": lambda jax, x: rs(x, P("X", "X")),
        "reshard uneven": lambda jax, x: rs(jnp.ones((3, 4)), P("X")),
        # auto_axes / explicit_axes
        "auto_axes take": lambda jax, x: jax.sharding.auto_axes(
            lambda a, b: jnp.take(a, b, axis=0), out_sharding=P("X")
        )(rs(jnp.ones((8, 4)), P("X")), rs(jnp.arange(4), P("Y"))),
        "auto_axes axes=X": lambda jax, x: jax.sharding.auto_axes(
            lambda a: a @ a.T, axes="X", out_sharding=P("X")
        )(x),
        "auto_axes inside": lambda jax, x: jax.sharding.auto_axes(
            lambda a: a + _record(jax, a), out_sharding=P("X")
        )(x),
        "auto_axes jit": lambda jax, x: jax.jit(
            jax.sharding.auto_axes(lambda a: a @ a.T, out_sharding=P("Y"))
        )(x),
        "auto_axes no out_sharding": lambda jax, x: jax.sharding.auto_axes(lambda a: a * 2)(x),
        "explicit_axes": lambda jax, x: _on_auto_mesh(
            jax,
            lambda y: jax.sharding.explicit_axes(lambda q: q + _record(jax, q), in_sharding=P("X"))(
                y
            ),
        ),
        "explicit_axes jit": lambda jax, x: _on_auto_mesh(
            jax, jax.jit(jax.sharding.explicit_axes(lambda q: q * 2, in_sharding=P("X")))
        ),
        # ops on arrays placed on a mesh of Auto axes pass their sharding along
        **{
            f"auto mesh {name}": _of_x(lambda _, f=f: _auto_placed(jax, f))
            for name, f in [
                ("s + 1", lambda s: s + 1),
                ("sin", jnp.sin),
                ("s.T", lambda s: s.T),
                ("sum(0)", lambda s: s.sum(0)),
                ("sum(1)", lambda s: s.sum(1)),
                ("s @ ones", lambda s: s @ jnp.ones((4, 3))),
                ("reshape (8,)", lambda s: s.reshape(8)),
                ("jit", jax.jit(lambda a: a * 2)),
                ("zeros", lambda s: jnp.zeros(4)),
                ("random normal", lambda s: jax.random.normal(jax.random.key(0), (2, 2))),
                ("s + s", lambda s: s + s),
            ]
        },
        # without a mesh: results of arrays committed to a device stay there, committed
        "no mesh c + 1": lambda jax, x: _committed(jax) + 1,
        "no mesh sin(c)": lambda jax, x: jnp.sin(_committed(jax)),
        "no mesh c.sum()": lambda jax, x: _committed(jax).sum(),
        "no mesh u + 1": lambda jax, x: jnp.zeros(3) + 1,
    }
    return c


def _of_x(f: Callable[[Any], Any]) -> Case:
    """A case computing ``f(x)``."""
    return lambda jax, x: f(x)


def _auto_placed(jax: Any, f: Any) -> Any:
    P = jax.sharding.PartitionSpec
    auto = (jax.sharding.AxisType.Auto,) * 2
    mesh = jax.make_mesh((2, 2), ("X", "Y"), axis_types=auto)
    with jax.sharding.set_mesh(mesh):
        s = jax.device_put(
            jax.numpy.arange(8.0).reshape(2, 4), jax.sharding.NamedSharding(mesh, P("X", None))
        )
        return f(s)


def _committed(jax: Any) -> Any:
    return jax.device_put(jax.numpy.zeros(3), jax.devices()[1])


#: types seen inside functions (``_record``), reported with the results
_seen: list[str] = []


def _record(jax: Any, a: Any) -> int:
    _seen.append(str(jax.typeof(a)))
    return 0


def _on_auto_mesh(jax: Any, f: Any) -> Any:
    auto = (jax.sharding.AxisType.Auto,) * 2
    with jax.sharding.set_mesh(jax.make_mesh((2, 2), ("X", "Y"), axis_types=auto)):
        return f(jax.numpy.arange(8.0).reshape(2, 4))


def _custom_jvp(jax: Any) -> Any:
    @jax.custom_jvp
    def f(a: Any) -> Any:
        return jax.numpy.sin(a) * 2

    @f.defjvp
    def f_jvp(primals: Any, tangents: Any) -> Any:
        (a,), (t,) = primals, tangents
        return f(a), jax.numpy.cos(a) * 2 * t

    return f


def _custom_vjp(jax: Any) -> Any:
    @jax.custom_vjp
    def f(a: Any) -> Any:
        return a * 3

    f.defvjp(lambda a: (a * 3, None), lambda _, g: (g * 3,))
    return f


#: names of the cases, in order
def names(jax: Any) -> list[str]:
    return list(_cases(jax))


def _one(jax: Any, out: Any, mesh: Any) -> dict[str, Any]:
    s = out.sharding
    got: dict[str, Any] = {"type": str(jax.typeof(out)), "committed": bool(out.committed)}
    if type(s).__name__ == "NamedSharding":
        spec = list(s.spec) + [None] * (out.ndim - len(s.spec))
        got["spec"] = [list(e) if isinstance(e, tuple) else e for e in spec]
        got["on_mesh"] = bool(s.mesh == mesh)
    else:
        got["sharding"] = type(s).__name__
    return got


def observe(jax: Any, name: str) -> dict[str, Any]:
    """What case ``name`` gives: its results' types and placements, or its error."""
    P = jax.sharding.PartitionSpec
    explicit = (jax.sharding.AxisType.Explicit,) * 2
    mesh = jax.make_mesh((2, 2), ("X", "Y"), axis_types=explicit)
    if name.startswith("no mesh"):
        out = _cases(jax)[name](jax, None)
        return {"results": [_one(jax, leaf, mesh) for leaf in jax.tree_util.tree_leaves(out)]}
    with jax.sharding.set_mesh(mesh):
        x = jax.sharding.reshard(jax.numpy.arange(8.0).reshape(2, 4), P("X", None))
        _seen.clear()
        try:
            out = _cases(jax)[name](jax, x)
        except Exception as e:
            return {"error": type(e).__name__, "message": str(e).split("\n")[0][:400]}
        leaves = jax.tree_util.tree_leaves(out)
        got = [_one(jax, leaf, mesh) for leaf in leaves if hasattr(leaf, "sharding")]
        if name == "x.sharding":
            return {"repr": repr(jax.typeof(x)), "sharding": repr(jax.typeof(x).sharding)}
        return {"results": got, **({"inside": list(_seen)} if _seen else {})}
