"""Expressions whose JAX values ``tests/golden/numpy_peer.json`` records
(``tools/gen_golden_numpy_peer.py``): the behaviours of ``jax.numpy`` that JAX's own
``lax_numpy_{operators,reducers,indexing,setops,ufuncs}_test.py`` files showed trellax lacked
(issue 22). ``jax`` is the top-level module (``jax`` or ``trellax``), ``jnp`` its numpy
namespace, ``np`` NumPy; a case is one expression, its golden value JAX's value (values, dtype,
weak flag and shape of each array of the result) or JAX's error class."""

CASES: tuple[str, ...] = (
    # setops: intersect1d pads its indices with each array's size
    "jnp.intersect1d(np.int8(3), np.int16(3), assume_unique=True, return_indices=True, size=5)",
    "jnp.intersect1d(np.arange(8, dtype=np.float16).reshape(2, 1, 4), np.float16(3),"
    " assume_unique=True, return_indices=True, size=3, fill_value=-1)",
    "jnp.intersect1d(jnp.array([1, 3, 3, 5]), jnp.array([3, 5, 7]), return_indices=True, size=4)",
    # setxor1d with assume_unique: the values occurring once in both arrays together
    "jnp.setxor1d(np.array([1, 2, 2, 3, 5]), np.array([3., 4, 4.5, 7, 1]), assume_unique=True)",
    "jnp.setxor1d(np.array([1, 2, 2, 3, 5]), np.array([3., 4, 4.5, 7, 1]), assume_unique=True,"
    " size=8)",
    "jnp.setxor1d(np.array([1, 2, 2, 3, 5]), np.array([3., 4, 4.5, 7, 1]), size=8, fill_value=9)",
    # unique along an axis: empty slices, and a fill value that is one slice
    "jnp.unique(np.zeros((3, 0), np.int32), False, True, True, axis=0)",
    "jnp.unique(np.array([[1, 5, 1, 2]], np.uint32), True, True, True, axis=1, size=5,"
    " fill_value=np.array([7], np.uint32))",
    "jnp.unique(np.arange(24.).reshape(2, 3, 4) % 3, True, True, True, axis=2, size=6,"
    " fill_value=-np.ones((2, 3)))",
    # a shape may be any sequence of dimensions
    "jnp.arange(6).reshape(range(2, 4))",
    # jax.ds: a unit-stride window is a dynamic_slice (negative starts count from the end, the
    # start is clamped); a strided one clamps each position; updates drop what falls outside
    "jnp.arange(10)[jax.ds(1, 3)]",
    "jnp.arange(10)[jax.ds(8, 3)]",
    "jnp.arange(10)[jax.ds(-2, 2)]",
    "jnp.arange(10)[jax.ds(-12, 2)]",
    "jnp.arange(10)[jax.ds(1, 3, 2)]",
    "jnp.arange(10)[jax.ds(7, 3, 2)]",
    "jnp.arange(10)[jax.ds(-3, 2, 2)]",
    "jnp.arange(10)[jax.ds(3)]",
    "jnp.arange(10)[jax.ds(2, 0)]",
    "jnp.arange(24).reshape(4, 6)[jax.ds(1, 2), jax.ds(2, 3)]",
    "jnp.arange(24).reshape(4, 6)[None, jax.ds(1, 2), 3]",
    "jnp.arange(24).reshape(4, 6)[..., jax.ds(4, 3)]",
    "jnp.arange(24).reshape(4, 6)[jnp.array([0, 2]), jax.ds(1, 3)]",
    "jax.jit(lambda i: jnp.arange(10)[jax.ds(i, 3)])(8)",
    "jnp.arange(10)[jax.ds(jnp.array(-3), 2)]",
    "jnp.arange(10).at[jax.ds(1, 3)].set(0)",
    "jnp.arange(10).at[jax.ds(8, 3)].add(100)",
    "jnp.arange(10).at[jax.ds(-2, 2)].set(0)",
    "jnp.arange(10).at[jax.ds(1, 3, 2)].set(-1)",
    "jnp.arange(10).at[jax.ds(7, 3, 2)].set(-1)",
    "jnp.arange(10).at[jax.ds(-3, 2, 2)].set(-1)",
    "jnp.arange(10).at[jax.ds(8, 3)].get(mode='fill', fill_value=-5)",
    "jnp.arange(10).at[jax.ds(7, 3, 2)].get(mode='fill', fill_value=-5)",
    "jnp.arange(24).reshape(4, 6).at[jax.ds(1, 2), 0].set(5)",
    # .at[...](wrap_negative_indices=False): negative indices are out of bounds
    "jnp.arange(10.).at[jnp.array([-12, -3, 0, 4, 11])].get(mode='fill', fill_value=99,"
    " wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-12, -3, 0, 4, 11])].get(mode='clip',"
    " wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-12, -3, 0, 4, 11])].get(mode='fill', fill_value=99)",
    "jnp.arange(10.).at[-2].get(mode='fill', fill_value=99, wrap_negative_indices=False)",
    "jnp.arange(10.).at[-2].get(mode='clip', wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-12, -3, 0, 4, 11])].set(7., mode='fill',"
    " wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-12, -3, 0, 4, 11])].add(7., mode='clip',"
    " wrap_negative_indices=False)",
    "jnp.arange(10.).at[-2].set(7., wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-3, 4])].divide(2., mode='fill', wrap_negative_indices=False)",
    "jnp.arange(10.).at[jnp.array([-3, 4])].power(2., mode='fill', wrap_negative_indices=False)",
    "jax.jit(lambda x, i: x.at[i].get(mode='fill', fill_value=99, wrap_negative_indices=False))"
    "(jnp.arange(10.), jnp.array([-12, -3, 0, 4, 11]))",
    # ufunc methods: at with traced indices, outer without rank promotion, reduceat (traced,
    # unsorted or empty indices)
    "jax.jit(lambda x, i: jnp.negative.at(x, i, inplace=False))"
    "(jnp.arange(6.).reshape(2, 3), jnp.array([0, 1, 0]))",
    "jax.jit(lambda x, i, v: jnp.add.at(x, (i, i), v, inplace=False))"
    "(jnp.arange(6.).reshape(2, 3), jnp.array([0, 1, 0]), jnp.array([1., 2., 3.]))",
    "jax.jit(lambda x, i: jnp.frompyfunc(lambda a, b: a / b, 2, 1).at(x, i, 2., inplace=False))"
    "(jnp.arange(6.).reshape(2, 3), jnp.array([0, 1, 0]))",
    "jax.jit(lambda x, i: jnp.bitwise_or.at(x, i, 3, inplace=False))"
    "(jnp.arange(5), jnp.array([0, 1, 0]))",
    "jnp.add.outer(jnp.ones((2, 1)), jnp.arange(3))",
    "jnp.maximum.reduceat(jnp.arange(12.).reshape(3, 4), jnp.array([2, 0, 3]), axis=1)",
    "jnp.logaddexp.reduceat(jnp.arange(12.).reshape(3, 4), jnp.array([2, 0, 3]), axis=1)",
    "jnp.subtract.reduceat(jnp.arange(6), jnp.array([1, 4, 4, 0]))",
    "jnp.multiply.reduceat(jnp.arange(12.).reshape(3, 4), jnp.array([], dtype=jnp.int32), axis=1)",
    "jax.jit(lambda x, i: jnp.bitwise_xor.reduceat(x, i))(jnp.arange(7), jnp.array([0, 3, 5]))",
    # lax.dtype of a dtype-like canonicalizes it as a requested dtype
    "jnp.zeros((), jax.lax.dtype(np.float32))",
    "jnp.zeros((), jax.lax.dtype(float))",
    "jnp.zeros((), jax.lax.dtype('int16'))",
)
