import numpy as np
from harness import run

P = []


def prog(f):
    P.append((f.__name__, f))
    return f


@prog
def vmap_axes(jax, jnp, lax, random, nn, scipy):
    def f(x, y):
        return x @ y

    A = jnp.arange(24.0).reshape(2, 3, 4)
    B = jnp.arange(8.0).reshape(4, 2)
    return (
        jax.vmap(f, in_axes=(0, None))(A, B),
        jax.vmap(f, in_axes=(2, None), out_axes=1)(
            A.transpose(1, 2, 0).reshape(3, 4, 2)[:, :, :], jnp.ones(4)
        ),
        jax.vmap(lambda d: d["a"] + d["b"], in_axes=({"a": 0, "b": None},))(
            {"a": jnp.arange(3.0), "b": 1.0}
        ),
        jax.vmap(jnp.sum, axis_name="i")(jnp.ones((2, 3))),
        jax.vmap(lambda x: lax.psum(x, "i"), axis_name="i")(jnp.arange(4.0)),
    )


@prog
def nested_transforms(jax, jnp, lax, random, nn, scipy):
    def f(x):
        return jnp.sin(x) * jnp.cos(2 * x)

    return (
        jax.grad(jax.grad(f))(0.3),
        jax.vmap(jax.grad(f))(jnp.linspace(0, 1, 4)),
        jax.jit(jax.vmap(jax.grad(f)))(jnp.arange(3.0)),
        jax.grad(lambda x: jax.vmap(f)(x).sum())(jnp.arange(3.0)),
        jax.jacfwd(jax.jacrev(lambda x: jnp.sum(x**3)))(jnp.array([1.0, 2.0])),
    )


@prog
def grad_dtypes(jax, jnp, lax, random, nn, scipy):
    def f(x):
        return (x * x).sum()

    return (
        jax.grad(f)(jnp.ones(2, jnp.bfloat16)),
        jax.grad(f)(jnp.ones(2, jnp.float16)),
        jax.grad(lambda x: x * 2)(1.0),
        jax.grad(lambda x, y: x * y, argnums=1)(2.0, 3.0),
        jax.value_and_grad(lambda x: (x**2, x), has_aux=True)(3.0),
    )


@prog
def grad_int_err(jax, jnp, lax, random, nn, scipy):
    return jax.grad(lambda x: x * 2)(1)


@prog
def grad_allow_int(jax, jnp, lax, random, nn, scipy):
    return jax.grad(lambda x, y: x * y, allow_int=True)(jnp.int32(2), 3.0)


@prog
def checkify_like(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([1.0, 2.0, 3.0])
    return (
        jnp.linalg.norm(x, ord=1),
        jnp.linalg.norm(x, ord=jnp.inf),
        jnp.linalg.qr(jnp.eye(2) * 2)[1],
        jnp.linalg.svd(jnp.diag(x), compute_uv=False),
        jnp.linalg.pinv(jnp.diag(x)),
        jnp.linalg.matrix_rank(jnp.diag(x)),
        jnp.trace(jnp.diag(x)),
    )


@prog
def nn_funcs(jax, jnp, lax, random, nn, scipy):
    x = jnp.linspace(-3, 3, 7)
    return (
        nn.relu(x),
        nn.gelu(x),
        nn.gelu(x, approximate=False),
        nn.silu(x),
        nn.elu(x),
        nn.leaky_relu(x),
        nn.softplus(x),
        nn.sigmoid(x),
        nn.tanh(x) if hasattr(nn, "tanh") else jnp.tanh(x),
        nn.logsumexp(x),
        nn.standardize(x),
        nn.glu(jnp.arange(4.0)),
        nn.celu(x),
        nn.selu(x),
        nn.hard_tanh(x),
        nn.log_sigmoid(x),
        nn.one_hot(jnp.array([0, 2, 5]), 4, dtype=jnp.int8),
        jax.grad(lambda x: nn.relu(x).sum())(x),
    )


@prog
def special_funcs(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([0.1, 0.5, 1.0, 2.5, 10.0])
    sp = scipy.special
    return (
        sp.gammaln(x),
        sp.digamma(x),
        sp.erf(x),
        sp.erfc(x),
        sp.erfinv(x / 11),
        sp.logit(x / 11),
        sp.expit(x),
        sp.logsumexp(x),
        sp.xlogy(x, x),
        sp.xlog1py(x, x),
        sp.gammainc(2.0, x),
        sp.gammaincc(2.0, x),
        sp.ndtri(x / 11),
        sp.log_ndtr(x - 5),
        sp.i0e(x),
        sp.i1e(x),
        sp.zeta(x + 1, 1.0),
        sp.polygamma(1, x),
        sp.betaln(x, x),
        sp.multigammaln(x + 2, 2),
        sp.entr(x),
        sp.kl_div(x, x[::-1]),
        sp.rel_entr(x, x[::-1]),
    )


@prog
def stats_funcs(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([-1.0, 0.0, 0.5, 2.0])
    st = scipy.stats
    return (
        st.norm.logpdf(x),
        st.norm.cdf(x, 1.0, 2.0),
        st.norm.ppf(jnp.array([0.1, 0.5])),
        st.t.logpdf(x, 3.0),
        st.gamma.logpdf(x, 2.0),
        st.beta.logpdf(x / 3 + 0.4, 2.0, 3.0),
        st.poisson.logpmf(jnp.array([0, 1, 3]), 2.0),
        st.bernoulli.logpmf(jnp.array([0, 1]), 0.3),
        st.multivariate_normal.logpdf(x[:2], jnp.zeros(2), jnp.eye(2)),
        st.uniform.logpdf(x),
        st.expon.cdf(x),
        st.laplace.pdf(x),
        st.cauchy.logpdf(x),
        st.logistic.cdf(x),
        st.binom.logpmf(jnp.array([0, 2, 5]), 5, 0.3) if hasattr(st, "binom") else 0,
    )


@prog
def random_more(jax, jnp, lax, random, nn, scipy):
    k = random.key(7)
    ks = random.split(k, 10)
    return (
        random.exponential(ks[0], (3,)),
        random.beta(ks[1], 2.0, 3.0, (3,)),
        random.dirichlet(ks[2], jnp.ones(3)),
        random.poisson(ks[3], 3.0, (4,)),
        random.laplace(ks[4], (2,)),
        random.logistic(ks[5], (2,)),
        random.multivariate_normal(ks[6], jnp.zeros(2), jnp.eye(2), (2,)),
        random.orthogonal(ks[7], 3),
        random.rademacher(ks[8], (4,)),
        random.binomial(ks[9], 10, 0.3, (3,)),
        random.uniform(ks[0], (2,), minval=-1, maxval=jnp.array([1.0, 2.0])),
        random.normal(ks[1], (2,), dtype=jnp.bfloat16),
        random.bits(ks[2], (2,), dtype=jnp.uint8),
        random.randint(ks[3], (3,), -5, 5, dtype=jnp.int8),
        random.choice(ks[4], jnp.arange(5), (2, 2), p=jnp.array([0.1, 0.2, 0.3, 0.2, 0.2])),
    )


@prog
def random_vmapped(jax, jnp, lax, random, nn, scipy):
    ks = random.split(random.PRNGKey(0), 4)
    return (
        jax.vmap(lambda k: random.normal(k, (2,)))(ks),
        jax.jit(lambda k: random.uniform(k, (3,)))(ks[0]),
        random.split(random.key(1), (2, 2)).shape,
    )


@prog
def setops(jax, jnp, lax, random, nn, scipy):
    a = jnp.array([3, 1, 2, 3, 1])
    b = jnp.array([2, 5])
    return (
        jnp.unique(a),
        jnp.unique(a, return_counts=True),
        jnp.union1d(a, b),
        jnp.intersect1d(a, b),
        jnp.setdiff1d(a, b),
        jnp.isin(a, b),
        jnp.in1d(a, b) if hasattr(jnp, "in1d") else 0,
        jnp.searchsorted(jnp.array([1, 2, 3]), 2.5),
        jnp.bincount(a, length=5),
        jnp.histogram(jnp.array([1.0, 2.0, 2.5, 4.0]), bins=3),
        jnp.digitize(jnp.array([0.5, 1.5]), jnp.array([1.0, 2.0])),
    )


@prog
def creation(jax, jnp, lax, random, nn, scipy):
    return (
        jnp.arange(5),
        jnp.arange(0.0, 1.0, 0.25),
        jnp.arange(3, dtype=jnp.float16),
        jnp.linspace(0, 1, 5),
        jnp.linspace(0, 10, 4, dtype=jnp.int32),
        jnp.logspace(0, 2, 3),
        jnp.zeros((2,), jnp.int8),
        jnp.ones_like(jnp.arange(3)),
        jnp.full((2,), 7, jnp.uint8),
        jnp.empty(2).shape,
        jnp.eye(2, dtype=jnp.bool_),
        jnp.identity(2),
        jnp.tri(3),
        jnp.meshgrid(jnp.arange(2), jnp.arange(3)),
        jnp.array([1, 2.0]),
        jnp.array(True),
        jnp.asarray([1, 2], dtype=jnp.float32),
        jnp.array([[1, 2], [3, 4]], dtype=jnp.complex64),
        jnp.zeros_like(jnp.ones(2), shape=(3,)),
        jnp.geomspace(1, 100, 3),
        jnp.array(np.float64(1.5)),
        jnp.array(np.int64(3)),
        jnp.array(2**31 - 1),
        jnp.asarray(1e39),
    )


@prog
def overflow_py_int(jax, jnp, lax, random, nn, scipy):
    return jnp.array(2**40)


@prog
def ops_int_py(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(3, dtype=jnp.uint8)
    return x + 300


@prog
def astype_conv(jax, jnp, lax, random, nn, scipy):
    f = jnp.array([-1.5, 2.7, 300.0, -300.0, jnp.nan, jnp.inf])
    return (
        f.astype(jnp.int8),
        f.astype(jnp.uint8),
        f.astype(jnp.int32),
        f.astype(jnp.bool_),
        jnp.array([1 + 2j]).real,
        jnp.array([1 + 2j]).astype(jnp.float32),
        f.astype(jnp.float8_e4m3fn) if hasattr(jnp, "float8_e4m3fn") else 0,
        jnp.array([70000.0]).astype(jnp.float16),
        jnp.int4(7) if hasattr(jnp, "int4") else 0,
    )


@prog
def where_select(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(6).reshape(2, 3)
    return (
        jnp.where(x > 2),
        jnp.where(x > 2, size=5, fill_value=-1),
        jnp.nonzero(x, size=6),
        jnp.argwhere(x > 3),
        jnp.select([x < 2, x > 4], [x, -x], 99),
        jnp.piecewise(
            jnp.array([-1.0, 0.5, 2.0]),
            [jnp.array([True, False, False]), jnp.array([False, False, True])],
            [lambda v: -v, lambda v: v * 10, 0.0],
        ),
        jnp.extract(x > 2, x),
        jnp.take(x, jnp.array([0, 5, 7]), mode="clip"),
        jnp.take(x, jnp.array([0, 7]), mode="fill", fill_value=-3),
        jnp.take(x, 7),
    )


@prog
def math_misc(jax, jnp, lax, random, nn, scipy):
    x = jnp.array([-2.5, -0.5, 0.5, 1.5, 2.5])
    return (
        jnp.floor(x),
        jnp.ceil(x),
        jnp.trunc(x),
        jnp.rint(x),
        jnp.fix(x),
        jnp.around(x, 1),
        jnp.mod(x, 2),
        jnp.fmod(x, 2),
        jnp.remainder(-7, 3),
        jnp.divmod(x, 2.0),
        jnp.power(2, jnp.arange(3)),
        jnp.float_power(2, 3),
        jnp.exp2(x),
        jnp.cbrt(x),
        jnp.hypot(3, 4),
        jnp.degrees(1.0),
        jnp.sinc(x),
        jnp.gcd(12, 18),
        jnp.lcm(4, 6),
        jnp.polyval(jnp.array([1.0, 2.0]), 3.0),
        jnp.interp(2.5, jnp.array([1.0, 3.0]), jnp.array([0.0, 10.0])),
        jnp.cross(jnp.array([1.0, 0, 0]), jnp.array([0.0, 1, 0])),
        jnp.kron(jnp.eye(2), jnp.ones((1, 2))),
        jnp.diff(x),
        jnp.ediff1d(x),
        jnp.gradient(x),
        jnp.trapezoid(x),
        jnp.corrcoef(x, x[::-1]),
        jnp.cov(x),
    )


@prog
def complex_math(jax, jnp, lax, random, nn, scipy):
    z = jnp.array([1 + 1j, -1 - 0j, 0j, 3 - 4j], dtype=jnp.complex64)
    return (
        jnp.abs(z),
        jnp.angle(z),
        jnp.conj(z),
        jnp.sqrt(z),
        jnp.exp(z),
        jnp.log(z),
        z * 2,
        z + 1.5,
        jnp.real(z),
        jnp.imag(z),
        jnp.sort(z),
        z.astype(jnp.complex64) ** 2,
        jnp.fft.fft(jnp.arange(4.0)),
        jnp.fft.irfft(jnp.fft.rfft(jnp.arange(4.0))),
    )


@prog
def lax_prims(jax, jnp, lax, random, nn, scipy):
    x = jnp.arange(12.0).reshape(3, 4)
    return (
        lax.dynamic_slice(x, (1, 1), (2, 2)),
        lax.dynamic_update_slice(x, jnp.zeros((1, 2)), (2, 3)),
        lax.slice(x, (0, 1), (3, 4), (2, 2)),
        lax.pad(x, 0.0, ((1, 0, 1), (0, -1, 0))),
        lax.broadcast_in_dim(jnp.arange(3.0), (2, 3), (1,)),
        lax.reduce(x, 0.0, lax.add, (0,)),
        lax.top_k(jnp.array([3.0, 1.0, 4.0, 1.5]), 2),
        lax.sort((jnp.array([3, 1, 2]), jnp.array([10, 20, 30])), num_keys=1),
        lax.argmax(x, 1, jnp.int32),
        lax.clamp(1.0, x, 5.0),
        lax.select(x > 5, x, -x),
        lax.convert_element_type(x, jnp.int8),
        lax.bitcast_convert_type(jnp.float32(1.0), jnp.int32),
        lax.rsqrt(4.0),
        lax.integer_pow(x, 3),
        lax.expand_dims(x, (0,)).shape,
        lax.rev(x, (1,)),
        lax.cumsum(x, axis=1),
        lax.associative_scan(jnp.add, jnp.arange(5)),
        lax.gather(
            x,
            jnp.array([[0], [2]]),
            lax.GatherDimensionNumbers(
                offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)
            ),
            (1, 4),
        ),
    )


@prog
def tree_keys(jax, jnp, lax, random, nn, scipy):
    t = {"w": [jnp.ones(1), jnp.zeros(2)], "b": (1.0,)}
    kp = jax.tree_util.tree_flatten_with_path(t)[0]
    return (
        [jax.tree_util.keystr(p) for p, _ in kp],
        jax.tree_util.tree_structure(t).num_nodes,
        jax.tree.map(lambda x, y: x, t, t)["b"],
    )


run(P)
