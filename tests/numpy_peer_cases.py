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
)
