"""Expressions whose JAX values ``tests/golden/silent3.json`` records (``tools/gen_golden_silent3.py``),
the third round of issue 24's silent-value fixes. ``jax`` is the top-level module (``jax`` or
``trellax``), ``jnp`` its numpy namespace, ``optim`` optax or ``trellax.optim``, ``nn`` Flax's linen or ``trellax.nn``; a case is one
expression, its golden value JAX's value (values, dtype, weak flag, shape) or JAX's error class."""

_SINGULAR2 = "jnp.array([[1., 2.], [2., 4.]])"
_SINGULAR3 = "jnp.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])"

CASES: tuple[str, ...] = (
    # sinc: every derivative at 0 from sin(z)/z's Taylor coefficients (grad-of-grad was 0)
    "jax.grad(jax.grad(jnp.sinc))(0.)",
    "jax.grad(jax.grad(jax.grad(jax.grad(jnp.sinc))))(0.)",
    "jax.jvp(jax.grad(jnp.sinc), (0.,), (1.,))[1]",
    "jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, 1.]))",
    "jax.hessian(lambda x: jnp.sinc(x).sum())(jnp.array([0., 1.]))",
    "jnp.sinc(jnp.array([0., 0.5, 1.]))",
    # ldexp/frexp differentiate (frexp's mantissa: t * 2**-e; ldexp: t * 2**e), were 0
    "jax.grad(lambda x: jnp.ldexp(x, 3))(2.)",
    "jax.jvp(lambda x: jnp.ldexp(x, 3), (2.,), (1.,))[1]",
    "jax.grad(lambda x: jnp.frexp(x)[0])(6.)",
    "jax.grad(lambda x: jnp.frexp(x)[0])(jnp.bfloat16(6.))",
    "jax.vmap(jax.grad(lambda x: jnp.frexp(x)[0]))(jnp.array([6., -0.1, 1e-40, 3e38, 0.]))",
    "jax.vmap(jax.grad(lambda x: jnp.ldexp(x, -3)))(jnp.array([6., -0.1, 1e-40, 3e38]))",
    "jax.vmap(jax.grad(lambda x: jnp.ldexp(x, 3)))(jnp.array([0., jnp.inf, -5.]))",
    "jax.grad(jax.grad(lambda x: jnp.ldexp(x, 3) * x))(2.)",
    "jax.jacfwd(lambda x: jnp.ldexp(x, jnp.array([1, 2, 3])))(jnp.array([1., 2., 3.]))",
    "jax.grad(lambda x: jnp.ldexp(x, 3))(jnp.float16(2.))",
    # JAX has no derivative of nextafter, pmax, pmin (was a silent 0 / a tie-averaged rule)
    "jax.grad(lambda x: jnp.nextafter(x, 2.))(1.)",
    "jax.grad(lambda x: jnp.nextafter(2., x))(1.)",
    "jax.vmap(jax.grad(lambda x: jax.lax.pmax(x, 'i')), axis_name='i')(jnp.arange(3.))",
    "jax.vmap(jax.grad(lambda x: jax.lax.pmin(x, 'i')), axis_name='i')(jnp.arange(3.))",
    "jax.grad(lambda x: jax.vmap(lambda y: jax.lax.pmax(y, 'i'), axis_name='i')(x).sum())(jnp.arange(3.))",
    "jax.jvp(lambda x: jax.vmap(lambda y: jax.lax.pmin(y, 'i'), axis_name='i')(x), (jnp.arange(3.),), (jnp.ones(3),))",
    "jax.vmap(jax.grad(lambda x: jax.lax.psum(x, 'i')), axis_name='i')(jnp.arange(3.))",
    "jax.vmap(lambda x: jax.lax.pmax(x, 'i'), axis_name='i')(jnp.arange(3.))",
    # scipy.special.zeta differentiates in x and q through its Euler-Maclaurin expansion (raised)
    "jax.grad(lambda x: jax.scipy.special.zeta(x, 2.))(3.)",
    "jax.vmap(jax.grad(lambda x: jax.scipy.special.zeta(x, 2.)))(jnp.array([1.5, 2., 3., 10., 30.]))",
    "jax.vmap(jax.grad(lambda q: jax.scipy.special.zeta(3., q)))(jnp.array([0.1, 0.5, 2., 10., 100.]))",
    "jax.grad(jax.grad(lambda q: jax.scipy.special.zeta(3., q)))(2.)",
    "jax.grad(jax.grad(lambda x: jax.scipy.special.zeta(x, 2.)))(3.)",
    "jax.jacfwd(lambda v: jax.scipy.special.zeta(v[0], v[1]))(jnp.array([3., 2.]))",
    "jax.grad(jax.scipy.special.zeta, argnums=(0, 1))(4., 1.5)[1]",
    "jax.grad(lambda q: jax.scipy.special.zeta(3., q))(jnp.float16(2.))",
    "jax.grad(lambda q: jax.scipy.special.zeta(3., q))(2.)",
    "jax.lax.zeta(3., 2.)",
    # grad(det) of a singular matrix is its adjugate (was NaN): SVD-based where det == 0
    f"jax.grad(jnp.linalg.det)({_SINGULAR2})",
    f"jax.grad(jnp.linalg.det)({_SINGULAR3})",
    "jax.grad(jnp.linalg.det)(jnp.zeros((3, 3)))",
    "jax.grad(jnp.linalg.det)(jnp.array([[1., 2., 0.], [2., 4., 0.], [0., 0., 0.]]))",
    "jax.grad(jnp.linalg.det)(jnp.array([[0., 1.], [0., 0.]]))",
    "jax.grad(jnp.linalg.det)(jnp.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]]))",
    f"jax.jit(jax.grad(jnp.linalg.det))({_SINGULAR2})",
    "jax.vmap(jax.grad(jnp.linalg.det))(jnp.array([[[1., 2.], [2., 4.]], [[1., 2.], [3., 4.]]]))",
    f"jax.jacfwd(jnp.linalg.det)({_SINGULAR2})",
    "jax.grad(lambda x: jnp.linalg.det(x).real)(jnp.array([[1., 2j], [2., 4j]]))",
    f"jax.hessian(jnp.linalg.det)({_SINGULAR2})",
    # copies are new array objects (x.copy() was x itself); asarray and copy=False keep x
    "jnp.array((lambda x: x.copy() is x)(jnp.ones(3)))",
    "jnp.array((lambda x: x.copy() is x)(jnp.array(1.)))",
    "jnp.array((lambda x: jnp.copy(x) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: jnp.array(x) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: jnp.array(x, copy=False) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: jnp.asarray(x) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: jnp.asarray(x, copy=True) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: __import__('copy').copy(x) is x)(jnp.ones(3)))",
    "jnp.array((lambda x: __import__('copy').deepcopy(x) is x)(jnp.ones(3)))",
    "jnp.copy(jnp.array(2.))",
    # quantiles of a 0-d array keep the dimension JAX's ravel gives it (was shape ())
    "jnp.median(jnp.array(3.), keepdims=True)",
    "jnp.median(jnp.array(3.), axis=(), keepdims=True)",
    "jnp.quantile(jnp.array(3.), 0.5, keepdims=True)",
    "jnp.percentile(jnp.array(3.), 50, keepdims=True)",
    "jnp.nanmedian(jnp.array(3.), keepdims=True)",
    "jnp.nanquantile(jnp.array(3.), 0.5, keepdims=True)",
    "jnp.quantile(jnp.array(3.), jnp.array([0.5, 0.2]), keepdims=True)",
    "jnp.median(jnp.ones((2, 3)), keepdims=True)",
    # a singular inv: +-inf/nan where an unchecked LU solve puts them (was +inf everywhere);
    # a failed cholesky: NaN on and below the diagonal only (was NaN everywhere)
    "jnp.linalg.inv(jnp.array([[1., 2.], [2., 4.]]))",
    "jnp.linalg.inv(jnp.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]))",
    "jnp.linalg.inv(jnp.zeros((2, 2)))",
    "jnp.linalg.inv(jnp.zeros((3, 3)))",
    "jnp.linalg.inv(jnp.array([[0., 1.], [0., 0.]]))",
    "jnp.linalg.inv(jnp.array([[1., 2j], [2., 4j]]))",
    "jnp.linalg.cholesky(jnp.array([[1., 2.], [2., 1.]]))",
    "jnp.linalg.cholesky(jnp.array([[-1., 2.], [2., 1.]]))",
    "jnp.linalg.cholesky(jnp.array([[4., 2., 0.], [2., 1., 3.], [0., 3., 1.]]))",
    "jnp.linalg.cholesky(jnp.array([[[1., 2.], [2., 1.]], [[2., 1.], [1., 2.]]]))",
    "jnp.linalg.cholesky(jnp.array([[1., 2j], [-2j, 1.]]))",
    "jax.scipy.linalg.cholesky(jnp.array([[1., 2.], [2., 1.]]))",
    "jax.scipy.linalg.cholesky(jnp.array([[1., 2.], [2., 1.]]), lower=True)",
    "jax.scipy.linalg.cho_factor(jnp.array([[1., 2.], [2., 1.]]))[0]",
    # linear_transpose of integer -> integer maps (was refused), bool .at[].add/mul refused
    # (was a logical or/and), lax.dot of other shapes a ValueError (was TypeError)
    "jax.linear_transpose(lambda x: x * 2, 1)(3)",
    "jax.linear_transpose(lambda x: x * 2, jnp.int32(1))(jnp.int32(3))",
    "jax.linear_transpose(lambda x: x + x, jnp.arange(3))(jnp.arange(3))",
    "jax.linear_transpose(lambda x: x.sum(), jnp.arange(3))(jnp.int32(2))",
    "jax.linear_transpose(lambda x: x[::-1], jnp.arange(3, dtype=jnp.int8))(jnp.arange(3, dtype=jnp.int8))",
    "jax.linear_transpose(lambda x: (x * 2).astype(jnp.float32), jnp.int32(1))(jnp.float32(3))",
    "jax.linear_transpose(lambda x: x * 2, True)(True)",
    "jax.linear_transpose(lambda x, y: x + y, 1, 1.)(2.)",
    "jax.linear_transpose(lambda x: 2 * x, 1.)(3.)",
    "jnp.zeros(3, bool).at[0].add(True)",
    "jnp.zeros(3, bool).at[0].multiply(True)",
    "jnp.zeros(3, bool).at[0].mul(True)",
    "jnp.zeros(3, bool).at[0].subtract(True)",
    "jnp.zeros(3, bool).at[0].divide(True)",
    "jnp.zeros(3, bool).at[0].power(True)",
    "jnp.zeros(3, bool).at[0].min(True)",
    "jnp.zeros(3, bool).at[0].max(True)",
    "jnp.zeros(3, bool).at[0].set(True)",
    "jnp.zeros(3, bool).at[0].get()",
    "jnp.zeros(3, jnp.int32).at[0].add(True)",
    "jnp.zeros(3, jnp.float32).at[0].mul(True)",
    "jax.lax.dot(jnp.ones(3), jnp.ones(4))",
    "jax.lax.dot(jnp.ones((2, 3)), jnp.ones((4, 2)))",
    "jax.lax.dot(jnp.ones((2, 2, 3)), jnp.ones((3, 2)))",
    "jax.lax.dot(jnp.ones(()), jnp.ones(3))",
    "jax.lax.dot(jnp.ones((2, 3)), jnp.ones((3, 2)))",
    "jax.lax.dot(jnp.ones(3), jnp.ones(3)) * 1",
    "jax.lax.dot(jnp.ones((2, 3)), jnp.ones(3))",
    # abstract sizes past int32 and Jacobian bases of 10**6 inputs are never allocated (raised)
    "jnp.array(jax.eval_shape(lambda k: jax.random.permutation(k, 10**12), jax.random.key(0)).shape == (10**12,))",
    "jax.random.permutation(jax.random.key(0), 10)",
    "jax.random.permutation(jax.random.key(1), jnp.array(7))",
    "jax.random.permutation(jax.random.key(1), np.int64(6))",
    "jax.random.permutation(jax.random.key(1), 0)",
    "jax.random.permutation(jax.random.key(1), -1)",
    "jnp.array(jax.eval_shape(jax.jacfwd(lambda x: x * 2.), jax.ShapeDtypeStruct((10**6,), jnp.float32)).shape == (10**6, 10**6))",
    "jnp.array(jax.eval_shape(jax.jacfwd(jnp.sin), jax.ShapeDtypeStruct((10**5,), jnp.float32)).shape)",
    "jnp.array(jax.eval_shape(jax.jacrev(jnp.sin), jax.ShapeDtypeStruct((10**5,), jnp.float32)).shape)",
    "jnp.array(jax.eval_shape(jax.hessian(lambda x: (x ** 3).sum()), jax.ShapeDtypeStruct((10**5,), jnp.float32)).shape)",
    # the gamma family samples in float16/bfloat16 itself, as JAX (was float32 rounded once)
    "jax.random.gamma(jax.random.key(0), 2., (5,), jnp.float16)",
    "jax.random.gamma(jax.random.key(0), jnp.array([0.1, 1., 10., 100.]), dtype=jnp.bfloat16)",
    "jax.random.beta(jax.random.key(1), 0.5, 0.5, (4,), jnp.float16)",
    "jax.random.dirichlet(jax.random.key(2), jnp.array([1., 2., 3.]), (2,), jnp.float16)",
    "jax.random.dirichlet(jax.random.key(2), jnp.array([1., 2., 3.]), (2,), jnp.bfloat16)",
    "jax.random.ball(jax.random.key(3), 3, 2., (2,), jnp.float16)",
    "jax.random.ball(jax.random.key(3), 3, 2., (2,), jnp.bfloat16)",
    "jax.random.loggamma(jax.random.key(4), 0.01, (4,), jnp.float16)",
    "jax.random.gamma(jax.random.key(5), 1e-3, (4,), jnp.float16)",
    "jax.random.chisquare(jax.random.key(6), 2., (4,), jnp.bfloat16)",
    "jax.random.t(jax.random.key(7), 3., (4,), jnp.float16)",
    "jax.random.generalized_normal(jax.random.key(8), 0.5, (4,), jnp.float16)",
    "jax.random.gamma(jax.random.key(0), 2., (5,), jnp.float32)",
    # nn.RNN(reverse=True, seq_lengths=...) at padded positions, as Flax (checked: already right)
    "(lambda m: m.apply(m.init(jax.random.key(0), jnp.ones((2, 4, 3))), jnp.arange(24.).reshape(2, 4, 3) / 10, seq_lengths=jnp.array([2, 4])))(nn.RNN(nn.SimpleCell(2), reverse=True))",
    "(lambda m: m.apply(m.init(jax.random.key(0), jnp.ones((2, 4, 3))), jnp.arange(24.).reshape(2, 4, 3) / 10, seq_lengths=jnp.array([2, 4])))(nn.RNN(nn.SimpleCell(2), reverse=True, keep_order=True))",
    "(lambda m: m.apply(m.init(jax.random.key(0), jnp.ones((2, 4, 3))), jnp.arange(24.).reshape(2, 4, 3) / 10, seq_lengths=jnp.array([2, 4])))(nn.RNN(nn.SimpleCell(2)))",
    "(lambda m: m.apply(m.init(jax.random.key(0), jnp.ones((2, 4, 3))), jnp.arange(24.).reshape(2, 4, 3) / 10, seq_lengths=jnp.array([2, 4])))(nn.RNN(nn.GRUCell(2), reverse=True, keep_order=True))",
    "(lambda m: m.apply(m.init(jax.random.key(0), jnp.ones((2, 4, 3))), jnp.arange(24.).reshape(2, 4, 3) / 10, seq_lengths=jnp.array([2, 4]), return_carry=True)[0])(nn.RNN(nn.SimpleCell(2), reverse=True))",
    # second derivatives of the logaddexp family at ties (checked: already right)
    "jax.grad(jax.grad(jax.nn.softplus))(0.)",
    "jax.grad(jax.grad(jax.nn.log_sigmoid))(0.)",
    "jax.grad(jax.grad(jax.nn.mish))(0.)",
    "jax.hessian(lambda x: jnp.logaddexp(x[0], x[1]))(jnp.array([1., 1.]))",
    "jax.grad(jax.grad(lambda x: jnp.logaddexp2(x, 1.)))(1.)",
    "jax.grad(jax.grad(jax.grad(jax.nn.softplus)))(0.)",
    # a weak negative scalar with an unsigned array in the *_inexact functions: JAX 0.10.2 gives
    # -pi/4 for atan2(-1, uint32 1) (no wrap), as trellax does (checked)
    "jnp.arctan2(-1, jnp.array([1, 2], jnp.uint32))",
    "jnp.arctan2(jnp.array([1, 2], jnp.uint32), -1)",
    "jax.jit(lambda x: jnp.arctan2(-1, x))(jnp.array([1, 2], jnp.uint32))",
    "jnp.true_divide(-1, jnp.array([1, 2], jnp.uint8))",
    "jnp.logaddexp(-1, jnp.array([1, 2], jnp.uint32))",
    "jnp.hypot(-1, jnp.array([1, 2], jnp.uint32))",
    "jnp.copysign(jnp.array([3], jnp.uint16), -4)",
    "jnp.float_power(jnp.array([3], jnp.uint16), -1)",
    # optim schedules: negative transition_begin, half-precision steps, optax's refusals and
    # float16 norms (checked: already as optax)
    "optim.exponential_decay(1., 10, 0.5, transition_begin=-5)(0)",
    "optim.exponential_decay(1., 10, 0.5, transition_begin=-5)(3)",
    "optim.linear_schedule(1., 0., 10, transition_begin=-5)(0)",
    "optim.polynomial_schedule(1., 0., 2, 10, transition_begin=-3)(0)",
    "optim.exponential_decay(1., 10, 0.5)(jnp.array(3, jnp.bfloat16))",
    "optim.linear_schedule(1., 0., 10)(jnp.array(3, jnp.bfloat16))",
    "optim.cosine_decay_schedule(1., 10)(jnp.array(3, jnp.bfloat16))",
    "jnp.array(3, jnp.bfloat16) * optim.exponential_decay(1., 10, 0.5)(3)",
    "optim.warmup_cosine_decay_schedule(0., 1., 10, 10)(3)",
    "optim.warmup_cosine_decay_schedule(0., 1., 10, 20)(jnp.array(3, jnp.bfloat16))",
    "optim.global_norm([jnp.full(3, 300., jnp.float16)])",
    "optim.global_norm([jnp.full(3, 3., jnp.bfloat16)])",
    "optim.exponential_decay(1., 10, 0.5)(jnp.array(3, jnp.int32))",
    # a partial ppermute under vmap is refused (was: zeros where nothing arrives)
    "jax.vmap(lambda x: jax.lax.ppermute(x, 'i', [(0, 1), (1, 0)]), axis_name='i')(jnp.arange(3.))",
    "jax.vmap(lambda x: jax.lax.ppermute(x, 'i', [(0, 1), (1, 2), (2, 0)]), axis_name='i')(jnp.arange(3.))",
)

#: where trellax keeps its own value (``docs/semantics.md`` says why): expression -> trellax's
#: value; the golden file still records JAX's
KEPT: dict[str, list[float]] = {
    # XLA flushes subnormals to zero: 2**-128 is 0 there, and 1e-40's scale overflows to inf * 0
    "jax.vmap(jax.grad(lambda x: jnp.frexp(x)[0]))(jnp.array([6., -0.1, 1e-40, 3e38, 0.]))": [
        0.125,
        8.0,
        float("inf"),
        2.0**-128,
        1.0,
    ],
    "jax.vmap(jax.grad(lambda x: jnp.ldexp(x, -3)))(jnp.array([6., -0.1, 1e-40, 3e38]))": [0.125]
    * 4,
    # JAX selects x itself at 0 and inf (derivative 1): ldexp(x, 3) = 8 x there too
    "jax.vmap(jax.grad(lambda x: jnp.ldexp(x, 3)))(jnp.array([0., jnp.inf, -5.]))": [8.0] * 3,
    # JAX's float16 2**3 is computed through exp/log: 7.996; 2**3 is exactly 8
    "jax.grad(lambda x: jnp.ldexp(x, 3))(jnp.float16(2.))": [8.0],
}

#: where trellax raises another class than JAX: expression -> trellax's class (JAX's assert is
#: not an API; trellax raises the ValueError its other ppermute checks raise)
ERROR_KEPT: dict[str, str] = {
    "jax.vmap(lambda x: jax.lax.ppermute(x, 'i', [(0, 1), (1, 0)]), axis_name='i')(jnp.arange(3.))": (
        "ValueError"
    ),
}

#: cases whose values agree to a relative tolerance (XLA's sin/exp/log are not correctly rounded)
TOLERANT: dict[str, float] = {
    "jax.vmap(jax.grad(jax.grad(jnp.sinc)))(jnp.array([0., 0.5, 1.]))": 1e-6,
    "jax.hessian(lambda x: jnp.sinc(x).sum())(jnp.array([0., 1.]))": 1e-6,
    **{c: 2e-6 for c in CASES if "zeta" in c and "float16" not in c},
    "jax.grad(lambda q: jax.scipy.special.zeta(3., q))(jnp.float16(2.))": 1e-3,
    **{c: 1e-6 for c in CASES if "linalg.det" in c},
    **{c: 1e-5 for c in CASES if "nn.RNN" in c or "softplus" in c or "mish" in c},
    **{c: 1e-6 for c in CASES if "logaddexp(-1" in c},
    # float16 dirichlet/ball: a normalization of exact gamma/normal draws, 1-2 ulp from XLA's
    **{c: 2e-3 for c in CASES if ("dirichlet" in c or "ball" in c) and "float16" in c},
}

#: an absolute tolerance beside the relative one (float32 SVD noise where the value is 0)
ATOL: dict[str, float] = {c: 1e-6 for c in CASES if "linalg.det" in c}


#: large draws compared by ulps at every ``STRIDE``-th element (plus the whole draw's SHA-256):
#: expression -> (largest distance in ulps, largest share of sampled elements that differ). The
#: whole-draw figures docs/nn.md states are measured by tests/test_nn_init_large.py (1.1-1.2 % of
#: elements differ since the table-lookup normal sampler; 1.2 % of this sample): 2 % here
STRIDE = 61
_INIT = "jax.nn.initializers.{}(jax.random.key(0), (512, 512), jnp.float32)"
SAMPLED: dict[str, tuple[int, float]] = {
    _INIT.format("lecun_normal()"): (0, 0.0),
    _INIT.format("he_normal()"): (0, 0.0),
    _INIT.format("glorot_normal()"): (0, 0.0),
    _INIT.format("normal(0.02)"): (0, 0.0),
    _INIT.format("variance_scaling(1., 'fan_avg', 'normal')"): (0, 0.0),
    _INIT.format("truncated_normal(0.02)"): (0, 0.0),
    _INIT.format("lecun_uniform()"): (0, 0.0),
    _INIT.format("uniform()"): (0, 0.0),
}
