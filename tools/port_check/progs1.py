from harness import run

P = []


def prog(f):
    P.append((f.__name__, f))
    return f


@prog
def linreg(jax, jnp, lax, random, nn, scipy):
    k = random.PRNGKey(0)
    k1, k2 = random.split(k)
    X = random.normal(k1, (50, 3))
    w_true = jnp.array([1.0, -2.0, 0.5])
    y = X @ w_true + 0.1 * random.normal(k2, (50,))

    def loss(w, b):
        return jnp.mean((X @ w + b - y) ** 2)

    g = jax.jit(jax.grad(loss, argnums=(0, 1)))
    w, b = jnp.zeros(3), 0.0
    for _ in range(100):
        gw, gb = g(w, b)
        w = w - 0.1 * gw
        b = b - 0.1 * gb
    return w, b, loss(w, b)


@prog
def per_example_grads(jax, jnp, lax, random, nn, scipy):
    k = random.key(1)
    W = random.normal(k, (4, 3))
    xs = jnp.arange(12.0).reshape(4, 3)

    def f(W, x):
        return jnp.sum(jnp.tanh(W @ x))

    return jax.vmap(jax.grad(f), in_axes=(None, 0))(W, xs)


@prog
def scan_rnn(jax, jnp, lax, random, nn, scipy):
    k = random.PRNGKey(3)
    Wh = random.normal(k, (5, 5)) * 0.3
    xs = jnp.linspace(-1, 1, 35).reshape(7, 5)

    def step(h, x):
        h = jnp.tanh(Wh @ h + x)
        return h, h.sum()

    hT, ys = lax.scan(step, jnp.zeros(5), xs)
    g = jax.grad(
        lambda W: lax.scan(lambda h, x: (jnp.tanh(W @ h + x), None), jnp.zeros(5), xs)[0].sum()
    )(Wh)
    return hT, ys, g


@prog
def fori_and_while(jax, jnp, lax, random, nn, scipy):
    a = lax.fori_loop(0, 10, lambda i, x: x * 1.1 + i, 1.0)
    b = lax.while_loop(lambda c: c[0] < 100, lambda c: (c[0] * 2, c[1] + 1), (1, 0))
    return a, b


@prog
def weak_types_mix(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(3, dtype=jnp.int8)
    return (
        x + 1,
        x * 2.5,
        x.astype(jnp.bfloat16) + 1.0,
        jnp.float16(2) * 3,
        x + jnp.int32(1),
        jnp.asarray(1.0) + 1,
        jnp.where(x > 0, 1.0, 0.0),
        jnp.full((2,), 3),
        jnp.zeros(2) + 1j,
    )


@prog
def softmax_xent(jax, jnp, lax, random, nn, scipy):
    logits = jnp.array([[1.0, 2.0, 3.0], [1.0, -1.0, 0.0]])
    labels = jnp.array([2, 0])
    lp = nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(lp, labels[:, None], axis=1))
    return (
        lp,
        loss,
        nn.softmax(logits, axis=0),
        nn.one_hot(labels, 3),
        jax.grad(lambda lg: -jnp.mean(jnp.sum(nn.one_hot(labels, 3) * nn.log_softmax(lg), -1)))(
            logits
        ),
    )


@prog
def random_samplers(jax, jnp, lax, random, nn, scipy):
    k = random.key(42)
    ks = random.split(k, 6)
    return (
        random.uniform(ks[0], (3,)),
        random.normal(ks[1], (2, 2)),
        random.randint(ks[2], (4,), 0, 10),
        random.bernoulli(ks[3], 0.3, (5,)),
        random.permutation(ks[4], 6),
        random.categorical(ks[5], jnp.array([0.1, 0.5, 2.0]), shape=(4,)),
        random.choice(ks[0], 10, (3,), replace=False),
        random.truncated_normal(ks[1], -1.0, 1.0, (3,)),
        random.gamma(ks[2], 2.0, (3,)),
        random.key_data(random.fold_in(k, 7)),
    )


@prog
def linalg_ops(jax, jnp, lax, random, nn, scipy):
    A = jnp.array([[4.0, 1.0], [1.0, 3.0]])
    b = jnp.array([1.0, 2.0])
    L = jnp.linalg.cholesky(A)
    return (
        jnp.linalg.solve(A, b),
        jnp.linalg.inv(A),
        jnp.linalg.det(A),
        L,
        jnp.linalg.eigh(A)[0],
        jnp.linalg.norm(A),
        jnp.linalg.slogdet(A),
        scipy.linalg.solve_triangular(L, b, lower=True),
        jax.grad(lambda A: jnp.linalg.det(A))(A),
    )


@prog
def indexing_updates(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(10.0)
    y = x.at[2:5].set(0.0).at[jnp.array([0, 0, 1])].add(1.0).at[-1].multiply(3)
    m = jnp.arange(12).reshape(3, 4)
    return (
        y,
        m[1],
        m[:, ::2],
        m[jnp.array([0, 2])],
        m[m > 5],
        x[jnp.array([True] * 5 + [False] * 5)],
        m[..., None].shape,
        m.at[1, 1].get(),
        x.at[15].get(mode="fill", fill_value=-1.0),
    )


@prog
def reductions(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([[1, 2, 3], [4, 5, 6]], dtype=jnp.int16)
    f = x.astype(jnp.float16)
    return (
        x.sum(),
        x.mean(),
        x.prod(axis=0),
        jnp.cumsum(x, axis=1),
        f.sum(),
        f.mean(),
        f.var(),
        jnp.argmax(x),
        jnp.max(f, axis=1),
        jnp.median(f),
        jnp.percentile(f, 30),
        jnp.std(x),
        jnp.logaddexp.reduce(f.astype(jnp.float32), axis=0)
        if hasattr(jnp.logaddexp, "reduce")
        else 0,
        jnp.all(x > 0),
        jnp.count_nonzero(x),
        jnp.nanmean(jnp.array([1.0, jnp.nan])),
    )


@prog
def jit_static(jax, jnp, lax, random, nn, scipy):
    from functools import partial

    @partial(jax.jit, static_argnums=1)
    def f(x, n):
        return jnp.sum(x**n)

    @partial(jax.jit, static_argnames=("mode",))
    def g(x, mode="a"):
        return x * (2 if mode == "a" else 3)

    return f(jnp.arange(4.0), 3), g(jnp.ones(2), mode="b"), jax.eval_shape(f, jnp.ones(3), 2)


@prog
def cond_switch(jax, jnp, lax, random, nn, scipy):
    def f(x):
        return lax.cond(x > 0, lambda v: v * 2, lambda v: -v, x)

    def s(i, x):
        return lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x)

    return (
        f(3.0),
        f(-1.0),
        jax.grad(f)(2.0),
        s(1, 0.5),
        jax.vmap(f)(jnp.array([-1.0, 2.0])),
        jax.jit(s)(2, 1.0),
    )


@prog
def hessian_jac(jax, jnp, lax, random, nn, scipy):
    def f(x):
        return jnp.sum(jnp.sin(x) * x**2)

    x = jnp.array([0.5, 1.0, 2.0])
    return (
        jax.hessian(f)(x),
        jax.jacfwd(jnp.sin)(x),
        jax.jacrev(lambda x: x**3)(x),
        jax.jvp(f, (x,), (jnp.ones(3),)),
        jax.vjp(jnp.exp, x)[1](jnp.ones(3)),
    )


@prog
def tree_ops(jax, jnp, lax, random, nn, scipy):
    t = {"a": jnp.ones(2), "b": (jnp.zeros(3), 2.0), "c": None}
    leaves, tdef = jax.tree_util.tree_flatten(t)
    m = jax.tree_util.tree_map(lambda x: x * 2, t)
    return (
        leaves,
        m,
        jax.tree_util.tree_leaves(jax.tree_util.tree_map(lambda a, b: a + b, t, t)),
        tdef.num_leaves,
        jax.tree.reduce(lambda a, b: a + jnp.sum(b), t, 0.0),
    )


@prog
def dtype_funcs(jax, jnp, lax, random, nn, scipy):
    return (
        jnp.result_type(jnp.int8, jnp.float16),
        jnp.promote_types(jnp.uint8, jnp.int8),
        jnp.finfo(jnp.bfloat16).eps,
        jnp.iinfo(jnp.int16).max,
        jnp.issubdtype(jnp.float32, jnp.floating),
        jnp.dtype("float32"),
        jnp.can_cast(jnp.int32, jnp.float32),
        jnp.result_type(1, 2.0, jnp.int8),
    )


@prog
def conv_pool(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(2 * 5 * 5 * 3, dtype=jnp.float32).reshape(2, 5, 5, 3) / 10
    w = jnp.ones((3, 3, 3, 4)) / 9
    y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    p = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    g = jax.grad(
        lambda w: jnp.sum(
            lax.conv_general_dilated(
                x, w, (2, 2), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC")
            )
            ** 2
        )
    )(w)
    return y, p, g, jnp.convolve(jnp.arange(5.0), jnp.array([1.0, 0.5]))


@prog
def custom_jvp_prog(jax, jnp, lax, random, nn, scipy):
    @jax.custom_jvp
    def f(x):
        return jnp.log1p(jnp.exp(x))

    @f.defjvp
    def fj(p, t):
        (x,), (tx,) = p, t
        return f(x), tx * nn.sigmoid(x)

    @jax.custom_vjp
    def g(x):
        return x**2

    g.defvjp(lambda x: (x**2, x), lambda x, ct: (3 * ct * x,))
    return (
        jax.grad(f)(1.0),
        jax.vmap(jax.grad(f))(jnp.arange(3.0)),
        jax.grad(g)(2.0),
        jax.jit(jax.grad(lambda x: g(f(x))))(0.5),
    )


@prog
def stop_grad_misc(jax, jnp, lax, random, nn, scipy):
    def f(x):
        return jnp.sum(x * lax.stop_gradient(x))

    x = jnp.array([1.0, 2.0])
    return (
        jax.grad(f)(x),
        jax.value_and_grad(lambda x: (x**2).sum(), has_aux=False)(x),
        jax.grad(lambda x: jnp.where(x > 1, x, 0.0).sum())(x),
        jax.grad(jnp.abs)(0.0),
        jax.grad(lambda x: jnp.sqrt(x))(0.0),
    )


@prog
def int_arith(jax, jnp, lax, random, nn, scipy):
    a = jnp.array([-7, 7, 3], dtype=jnp.int32)
    b = jnp.array([2, -2, 0], dtype=jnp.int32)
    u = jnp.array([250, 3], dtype=jnp.uint8)
    return (
        a // 2,
        a % 3,
        jnp.right_shift(a, 1),
        u + 10,
        u * 2,
        -u,
        a // b,
        a % b,
        jnp.left_shift(u, 9),
        lax.div(a, jnp.int32(2)),
        lax.rem(a, jnp.int32(3)),
        jnp.abs(jnp.int8(-128)),
    )


@prog
def float_specials(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([0.0, -0.0, jnp.inf, -jnp.inf, jnp.nan, 1e-40, 3.4e38])
    return (
        jnp.sign(x),
        jnp.sqrt(x),
        jnp.log(x),
        1 / x,
        jnp.exp(x),
        jnp.maximum(x, 0.0),
        jnp.minimum(x, -0.0),
        x.astype(jnp.int32),
        x.astype(jnp.bfloat16),
        x.astype(jnp.float16),
        jnp.round(jnp.array([0.5, 1.5, 2.5, -0.5])),
        jnp.clip(x, -1, 1),
        jnp.arctan2(x, -1.0),
        jnp.nan_to_num(x),
    )


@prog
def einsum_dot(jax, jnp, lax, random, nn, scipy):
    a = jnp.arange(6.0).reshape(2, 3)
    b = jnp.arange(12.0).reshape(3, 4)
    i8 = jnp.ones((2, 2), jnp.int8)
    return (
        jnp.einsum("ij,jk->ik", a, b),
        jnp.einsum("ij->", a),
        jnp.tensordot(a, b, 1),
        jnp.dot(i8, i8),
        i8 @ i8,
        jnp.outer(a[0], a[1]),
        jnp.inner(a, a),
        jnp.matmul(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16)),
        lax.dot_general(a, b, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32),
    )


@prog
def shape_ops(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(24).reshape(2, 3, 4)
    return (
        jnp.transpose(x, (2, 0, 1)),
        jnp.moveaxis(x, 0, -1),
        jnp.swapaxes(x, 1, 2),
        jnp.concatenate([x, x], axis=1),
        jnp.stack([x[0], x[1]]),
        jnp.split(x, 2, axis=2),
        jnp.tile(x[0, 0], 2),
        jnp.repeat(x[0, 0], 2),
        jnp.pad(x[0], 1),
        jnp.pad(x[0], ((0, 1), (2, 0)), mode="reflect"),
        jnp.flip(x, 1),
        jnp.roll(x, 1, axis=2),
        jnp.squeeze(x[:, :1]),
        jnp.expand_dims(x, 0).shape,
        jnp.broadcast_to(x[0, 0], (2, 4)),
        jnp.sort(jnp.array([3, 1, 2])),
        jnp.argsort(jnp.array([3.0, 1.0, 2.0])),
        jnp.unique(jnp.array([1, 2, 2, 3]), size=4, fill_value=0),
        jnp.triu(x[0]),
        jnp.eye(3, k=1),
        jnp.diag(jnp.arange(3)),
    )


run(P)
