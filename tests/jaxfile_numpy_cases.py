"""Expressions whose JAX values ``tests/golden/jaxfile_numpy.json`` records
(``tools/gen_golden_jaxfile_numpy.py``): behaviours of ``jax.numpy`` that JAX's own
``lax_numpy_test.py`` checks and trellax lacked. ``jax`` is the top-level module (``jax`` or
``trellax``), ``jnp`` its numpy namespace, ``np`` NumPy. A tuple result is recorded per element.
"""

X10 = "jnp.arange(10, dtype=jnp.float32)"
IDX = "jnp.array([-11, -10, -9, -5, -1, 0, 1, 5, 9, 10, 11])"
A34 = "jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)"

CASES = (
    # take_along_axis: modes, negative indices, broadcast dimensions (and their gradient)
    f"jnp.take_along_axis({X10}, {IDX}, axis=0)",
    f"jnp.take_along_axis({X10}, {IDX}, axis=0, mode='clip')",
    f"jnp.take_along_axis({X10}, {IDX}, axis=0, mode='one_hot')",
    "jnp.take_along_axis(jnp.array([10, 20, 30]), jnp.array([-1, -2]), axis=0, mode='clip',"
    " wrap_negative_indices=False)",
    "jnp.take_along_axis(jnp.array([10, 20, 30]), jnp.array([-1, -2]), axis=0,"
    " mode='promise_in_bounds', wrap_negative_indices=True)",
    f"jnp.take_along_axis({A34}, jnp.array([[0], [3], [1]]), axis=1)",
    f"jnp.take_along_axis({A34}, jnp.array([[2, 0, 1], [1, 1, 0]]).T[:, :1], axis=1,"
    " mode='one_hot')",
    "jax.grad(lambda x: jnp.take_along_axis(x * jnp.arange(3.0).reshape((1, 3)),"
    " jnp.repeat(jnp.arange(3), 10).reshape((30, 1)), -1).sum())(1.0)",
    f"jax.grad(lambda a: jnp.take_along_axis(a, jnp.array([[1], [0], [3]]), 1).sum())({A34})",
    # linspace's step under jit and eagerly
    "jnp.linspace(jnp.zeros((2, 2)), jnp.ones((1, 2)), 5, retstep=True)",
    "jax.jit(lambda a, b: jnp.linspace(a, b, 5, retstep=True))(jnp.zeros((2, 2)), jnp.ones((1, 2)))",
    "jnp.linspace(jnp.zeros((2,)), 1.0, 1, retstep=True)",
    "jnp.linspace(jnp.zeros((2,)), 1.0, 1, endpoint=False, retstep=True)",
    "jax.jit(lambda a: jnp.linspace(a, 1.0, 1, endpoint=False, retstep=True))(jnp.zeros(2))",
    "jnp.linspace(0.0, 1.0, 0, retstep=True)",
    # no rank promotion inside (these run under numpy_rank_promotion='raise' in the test)
    "jnp.packbits(jnp.arange(40).reshape(2, 4, 5) % 3, axis=1)",
    "jnp.unpackbits(jnp.arange(6, dtype=jnp.uint8).reshape(3, 2), axis=0, bitorder='little')",
    "jnp.gradient(jnp.arange(21.0).reshape(7, 3) ** 2, jnp.array([0.0, 1, 3, 4, 7, 8, 10]), axis=0)",
    "jnp.polyfit(jnp.arange(6.0), jnp.stack([jnp.arange(6.0) ** 2, jnp.ones(6)], 1), 2)",
    "jnp.polyfit(jnp.arange(6.0), jnp.arange(6.0) ** 3, 2, cov=True)",
    "jnp.polyfit(jnp.arange(6.0), jnp.arange(6.0) ** 3, 2, cov='unscaled')",
    # traced shapes of the result's parts
    "jax.jit(lambda c, x: jnp.compress(c, x, size=3, fill_value=-1))("
    "jnp.array([True, False, True, True]), jnp.arange(4))",
    "jax.jit(lambda c, x: jnp.extract(c, x, size=5))(jnp.array([0.0, 1, 2, 0]), jnp.arange(4))",
    "jax.jit(lambda c, x: jnp.extract(c, x, size=3))(jnp.array([0.0, 1, 2, 0]), jnp.arange(4))",
    "jnp.compress(jnp.array([True, False]), jnp.arange(4), size=2, fill_value=7)",
    "jax.jit(lambda x, m: jnp.place(x, m, jnp.array([7, 8]), inplace=False))("
    "jnp.arange(6), jnp.array([True, False, True, True, False, True]))",
    f"jax.jit(lambda x, i: jnp.insert(x, i, 9.0, axis=1))({A34}, -1)",
    f"jax.jit(lambda x, i: jnp.insert(x, i, jnp.array([5.0, 6.0]), axis=None))({A34}, 3)",
    f"jax.jit(lambda x, i: jnp.delete(x, i, axis=1, assume_unique_indices=True))("
    f"{A34}, jnp.array([3, 0]))",
    "jax.jit(lambda k: jnp.eye(3, 4, k=k))(1)",
    "jax.jit(lambda k: jnp.tri(3, 4, k=k))(-1)",
    "jnp.eye(3, k=2**33)",
    # indices
    "jnp.unravel_index(jnp.array([-13, -12, -1, 0, 5, 11, 12, 40], jnp.int16), (3, 4))",
    "jax.jit(jnp.unravel_index)(jnp.array([-13, -1, 5, 40], jnp.int8), (3, 4))",
    "jnp.unravel_index(jnp.array([0, 5, 40], jnp.uint8), (3, 4))",
    "jnp.ravel_multi_index((jnp.array([0, 1], jnp.int8),) * 2, (2, 3), mode='ignore')",
    "jnp.ravel_multi_index((jnp.array([0, 1], jnp.uint8),) * 2, (2, 3), mode='ignore',"
    " dtype=jnp.int32)",
    "jnp.mgrid[-1:1:5j, :3]",
    "jnp.ogrid[0:1:3j, :2]",
    "jnp.r_['r', jnp.array([1, 2]), 3]",
    "jnp.c_['c', jnp.array([1, 2]), 3]",
    "jnp.r_['0,2,0,5', jnp.array([1, 2]), jnp.array([3, 4])]",
    "jnp.trim_zeros(jnp.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]]), axis=0)",
    "jnp.trim_zeros(jnp.array([[0, 0, 0], [0, 1, 0], [0, 2, 0]]), 'f', axis=-1)",
    "jnp.rollaxis(jnp.arange(24).reshape(1, 2, 3, 4), -3, -1)",
    "jnp.polyder(jnp.array([1.0, 2.0]), 2)",
    "jnp.polyder(jnp.array([1.0, 2.0, 3.0]), 1)",
    "jnp.polyint(jnp.array([1.0, 2.0], jnp.float16), 2)",
    "jnp.isclose(6, 10, rtol=0.5)",
    "jnp.isclose(jnp.array([1, 2, 100], jnp.int8), jnp.array([1, 3, 101], jnp.int8), rtol=0.01)",
    "jnp.isclose(jnp.array([np.inf, np.nan, 1.0]), jnp.array([np.inf, np.nan, np.inf]))",
    "jnp.trapezoid(jnp.arange(60.0).reshape(3, 4, 5) ** 2, dx=jnp.arange(1.0, 16.0).reshape(3, 5),"
    " axis=1)",
    "jnp.trapezoid(jnp.arange(60.0).reshape(3, 4, 5) ** 2, dx=jnp.arange(1.0, 41.0).reshape(2, 4, 5),"
    " axis=0)",
    # methods
    "jnp.arange(5, dtype='int32').byteswap()",
    "jnp.array([1.5 + 2j, -3j], dtype='complex64').byteswap()",
    "jnp.array([1.5, -2.0], dtype='bfloat16').byteswap()",
    "jnp.arange(5).compress(jnp.array([True, False, True]))",
    "jnp.arange(6).argpartition(2)",
    "jnp.arange(4) == 2",
    "jnp.choose(jnp.array([[0, 1, 0, 1]] * 3), [jnp.arange(4), jnp.zeros((3, 1), int)])",
)
