from harness import run

P = []


def prog(f):
    P.append((f.__name__, f))
    return f


@prog
def remat_grad(jax, jnp, lax, random, nn, scipy):
    f = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)) * x)
    return (
        jax.grad(f)(1.3),
        jax.jit(jax.grad(lambda x: f(f(x))))(0.7),
        jax.vmap(jax.grad(f))(jnp.arange(3.0)),
    )


@prog
def custom_gradient_clip(jax, jnp, lax, random, nn, scipy):
    @jax.custom_vjp
    def clip_grad(x):
        return x

    clip_grad.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1, 1),))
    return jax.grad(lambda x: (clip_grad(x) * 10).sum())(jnp.ones(3))


@prog
def scan_pytree_carry(jax, jnp, lax, random, nn, scipy):
    def step(c, x):
        a, b = c["a"], c["b"]
        return {"a": a + x, "b": b * 2}, (a, b.astype(jnp.float16))

    return lax.scan(step, {"a": 0.0, "b": jnp.int8(1)}, jnp.arange(4.0))


@prog
def scan_reverse_unroll(jax, jnp, lax, random, nn, scipy):
    return lax.scan(
        lambda c, x: (c * 0.5 + x, c), 1.0, jnp.arange(5.0), reverse=True, unroll=2
    ), lax.scan(lambda c, _: (c + 1, c), 0, None, length=3)


@prog
def while_grad_err(jax, jnp, lax, random, nn, scipy):
    return jax.grad(lambda x: lax.while_loop(lambda v: v < 10, lambda v: v * 2, x))(1.0)


@prog
def fori_grad(jax, jnp, lax, random, nn, scipy):
    return jax.grad(lambda x: lax.fori_loop(0, 5, lambda i, v: v * x, 1.0))(1.5)


@prog
def map_and_cumulative(jax, jnp, lax, random, nn, scipy):
    return (
        lax.map(lambda x: x**2, jnp.arange(4.0)),
        jnp.cumprod(jnp.arange(1, 5)),
        lax.cummax(jnp.array([1, 3, 2, 5])),
        lax.cumlogsumexp(jnp.arange(3.0)),
        jnp.add.accumulate(jnp.arange(4)),
        jnp.multiply.outer(jnp.arange(2), jnp.arange(3)),
    )


@prog
def dtype_promotions_table(jax, jnp, lax, random, nn, scipy):
    ts = [
        jnp.bool_,
        jnp.uint8,
        jnp.int8,
        jnp.uint16,
        jnp.int16,
        jnp.uint32,
        jnp.int32,
        jnp.bfloat16,
        jnp.float16,
        jnp.float32,
        jnp.complex64,
    ]
    out = []
    for a in ts:
        for b in ts:
            out.append(str((jnp.ones(1, a) + jnp.ones(1, b)).dtype))
        out.append(str((jnp.ones(1, a) + 1).dtype))
        out.append(str((jnp.ones(1, a) + 1.0).dtype))
        out.append(str((jnp.ones(1, a) * 1j).dtype))
    return out


@prog
def strict_mode(jax, jnp, lax, random, nn, scipy):
    with jax.numpy_dtype_promotion("strict"):
        return jnp.ones(2, jnp.float32) + jnp.ones(2, jnp.float16)


@prog
def strict_ok(jax, jnp, lax, random, nn, scipy):
    with jax.numpy_dtype_promotion("strict"):
        return jnp.ones(2, jnp.float32) + 1.0, jnp.ones(2, jnp.int8) * 2


@prog
def x64_ctx(jax, jnp, lax, random, nn, scipy):
    return 0


@prog
def argnums_tuple_grad(jax, jnp, lax, random, nn, scipy):
    def f(a, b, c):
        return a * b + c**2

    return (
        jax.grad(f, argnums=(0, 2))(1.0, 2.0, 3.0),
        jax.jacobian(lambda x: x * 2)(jnp.ones(2)),
        jax.linearize(jnp.sin, 1.0)[1](1.0),
    )


@prog
def jit_pytree_out(jax, jnp, lax, random, nn, scipy):
    @jax.jit
    def f(d):
        return {"s": d["x"].sum(), "l": [d["x"] * 2, d["y"]]}

    return f({"x": jnp.arange(3.0), "y": 2})


@prog
def sorting_stable(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([3.0, jnp.nan, -0.0, 0.0, -jnp.inf, 1.0, jnp.nan])
    return (
        jnp.sort(x),
        jnp.argsort(x),
        jnp.sort(x, descending=True),
        jnp.argsort(x, descending=True),
        jnp.lexsort((jnp.array([1, 0, 1]), jnp.array([2, 2, 1]))),
        jnp.partition(jnp.array([5, 1, 4, 2]), 2)[2],
        jnp.max(x),
        jnp.nanmax(x),
        jnp.argmax(x),
        jnp.nanargmax(x),
    )


@prog
def linalg_batch(jax, jnp, lax, random, nn, scipy):
    A = jnp.stack([jnp.eye(3) * (i + 1) + 0.1 for i in range(2)])
    return (
        jnp.linalg.inv(A),
        jnp.linalg.det(A),
        jnp.linalg.solve(A, jnp.ones((2, 3))),
        jnp.linalg.eigvalsh(A),
        jnp.linalg.cholesky(A @ A.transpose(0, 2, 1)),
        A @ A,
        jnp.matmul(A, jnp.ones(3)),
        jnp.linalg.lstsq(A[0], jnp.ones(3))[0],
    )


@prog
def segment_ops(jax, jnp, lax, random, nn, scipy):
    d = jnp.arange(6.0)
    s = jnp.array([0, 0, 1, 1, 1, 3])
    return (
        jax.ops.segment_sum(d, s, num_segments=4),
        jax.ops.segment_max(d, s, num_segments=4),
        jax.ops.segment_min(d, s, num_segments=4),
    )


@prog
def image_resize(jax, jnp, lax, random, nn, scipy):
    img = jnp.arange(16.0).reshape(4, 4)
    return (
        jax.image.resize(img, (2, 2), "linear"),
        jax.image.resize(img, (8, 8), "nearest"),
        jax.image.resize(img, (3, 5), "cubic"),
    )


run(P)
