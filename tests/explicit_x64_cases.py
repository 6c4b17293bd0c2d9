"""Cases for ``explicit_x64_dtypes="allow"``: 64-bit arrays while x64 is off.

Each case is an expression of ``X`` (``jax`` or ``trellax``), ``np``, and the arrays ``i64``
(int64), ``f64`` (float64), ``c128`` (complex128) and ``u64`` (uint64), made with explicit
``dtype=`` requests under "allow". Both sides evaluate every case under "allow" with x64 off;
``tools/gen_golden_explicit_x64.py`` records JAX's dtype and weak flag of each result,
``tests/test_explicit_x64.py`` compares trellax's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

CASES: dict[str, str] = {
    # explicit requests keep 64 bits
    "zeros_int64": "X.numpy.zeros(3, dtype='int64')",
    "zeros_float64": "X.numpy.zeros(3, dtype=X.numpy.float64)",
    "ones_complex128": "X.numpy.ones(2, dtype='complex128')",
    "full_uint64": "X.numpy.full(2, 7, dtype='uint64')",
    "arange_int64": "X.numpy.arange(5, dtype='int64')",
    "linspace_float64": "X.numpy.linspace(0, 1, 3, dtype='float64')",
    "eye_float64": "X.numpy.eye(2, dtype='float64')",
    "array_int_dtype": "X.numpy.array(3, dtype=np.int64)",
    "asarray_np_dtype": "X.numpy.asarray(np.arange(3), dtype=np.int64)",
    "astype_float64": "X.numpy.ones(3).astype('float64')",
    "convert_element_type": "X.lax.convert_element_type(X.numpy.ones(3), 'float64')",
    "scalar_type_call": "X.numpy.float64(1.5)",
    "sum_dtype": "X.numpy.sum(X.numpy.ones(3), dtype='float64')",
    "cumsum_dtype": "X.numpy.cumsum(X.numpy.ones(3, 'int32'), dtype='int64')",
    "uniform_float64": "X.random.uniform(X.random.key(0), (2,), dtype='float64')",
    "randint_int64": "X.random.randint(X.random.key(0), (2,), 0, 10, dtype='int64')",
    # defaults, Python types and NumPy values are still canonicalized
    "zeros_float": "X.numpy.zeros(3, dtype=float)",
    "zeros_default": "X.numpy.zeros(3)",
    "asarray_np_int64": "X.numpy.asarray(np.arange(3))",
    "asarray_np_float64": "X.numpy.asarray(np.ones(2))",
    "device_put_np": "X.device_put(np.ones(2))",
    "astype_int": "i64.astype(int)",
    "argmax": "X.numpy.argmax(X.numpy.ones(3))",
    "canonicalize_dtype": "X.dtypes.canonicalize_dtype('int64')",
    "jit_numpy_arg": "X.jit(lambda a: a * 2)(np.ones(3))",
    # 64-bit arrays survive promotion and reductions
    "i64_plus_int": "i64 + 1",
    "i64_plus_float": "i64 + 1.0",
    "i64_plus_int32": "i64 + X.numpy.int32(1)",
    "i64_times_float32": "i64 * X.numpy.ones(3, X.numpy.float32)",
    "i64_true_divide": "i64 / 2",
    "i64_sin": "X.numpy.sin(i64)",
    "i64_sum": "i64.sum()",
    "i64_mean": "i64.mean()",
    "i64_index": "i64[0]",
    "i64_jit": "X.jit(lambda a: a * 2)(i64)",
    "f64_plus_f32": "f64 + X.numpy.ones(3, 'float32')",
    "f64_times_2": "f64 * 2",
    "f64_matmul_f32": "f64 @ X.numpy.ones(3, 'float32')",
    "f64_grad": "X.grad(lambda a: (a * a).sum())(f64)",
    "f64_max": "X.numpy.max(f64)",
    "c128_abs": "X.numpy.abs(c128)",
    "c128_plus_complex": "c128 + 1j",
    "u64_plus_int": "u64 + 1",
    "u64_plus_i64": "u64 + i64",
    # the x32 lattice is still the one in force
    "u32_plus_i32": "X.numpy.ones(3, 'uint32') + X.numpy.ones(3, 'int32')",
    "result_type_int64_weak": "X.numpy.result_type('int64', 1)",
    "result_type_int64": "X.numpy.result_type('int64')",
    "result_type_np_int64": "X.numpy.result_type(np.int64)",
    "result_type_array": "X.numpy.result_type(i64)",
    "promote_types": "X.numpy.promote_types('int64', 'float32')",
    "promote_types_u32_i32": "X.numpy.promote_types('uint32', 'int32')",
}


def setup(X: Any) -> dict[str, Any]:
    """The 64-bit arrays the cases use (call under "allow" with x64 off)."""
    jnp = X.numpy
    return {
        "i64": jnp.arange(3, dtype="int64"),
        "f64": jnp.ones(3, dtype="float64"),
        "c128": jnp.ones(3, dtype="complex128") * 1j,
        "u64": jnp.ones(3, dtype="uint64"),
        "np": np,
        "X": X,
    }


def describe(value: Any) -> dict[str, Any]:
    """A result as the golden file records it: dtype and weak flag (of an array), the dtype's name
    (of a dtype)."""
    if isinstance(value, np.dtype):
        return {"dtype": value.name}
    return {"dtype": str(value.dtype), "weak_type": bool(getattr(value, "weak_type", False))}
