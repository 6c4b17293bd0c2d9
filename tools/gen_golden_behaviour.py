"""Golden behaviours from real JAX for tests/test_golden_behaviour.py (issue 14, section 2).

Run from the repository root with a Python that has jax 0.10.2 (``make golden`` builds one)::

    python tools/gen_golden_behaviour.py     # writes tests/golden/behaviour.json

Two kinds of cases, every one a Python expression evaluated with x64 off over the names ``jnp``
(``jax.numpy``), ``lax``, ``jax`` (the top-level module), ``errors`` (``jax.errors``), ``np`` and
``x64`` (``x64(f)`` calls ``f`` with x64 on and returns its result, so arrays made there reach
code running with x64 off):

* the *catalogue* (``CATALOGUE``): errors a ported program can meet (broadcasting, contraction
  and concatenation mismatches, bad reshapes and transposes, negative sizes, float indices, ...)
  and behaviours that once differed (out-of-bounds static indices, 64-bit arrays used with x64
  off, ``config`` flag names, ``lax.map(batch_size=)``, ``.at[].apply``, ``format``, ``asarray``
  of ``range``/``memoryview``/``bytearray``, ``linspace`` with complex, array and traced
  endpoints, ``median(keepdims=True)``). Recorded: every output leaf's dtype, weak flag, shape
  and values (NaN/inf as strings), a Python value, or the exception's class name, the built-in
  classes it derives from, and the first line of its message;
* the *weak-array sweep* (``group == "weak"``): every public function of ``jax.numpy`` called on
  weakly typed arrays (``jnp.asarray(1.5)``, ``jnp.full(3, 1.5)``, ``jnp.broadcast_to`` of a weak
  0-d array, ...), alone and in pairs. Only the dtype, weak flag and shape of each output leaf
  are recorded (or the exception class); a function is kept when JAX accepts at least one call.

The script must not import trellax. Its output is deterministic.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.errors as errors
import jax.numpy as jnp
import numpy as np
from jax import lax

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "behaviour.json"

_BUILTIN_BASES = (
    "ArithmeticError",
    "AttributeError",
    "IndexError",
    "KeyError",
    "LookupError",
    "NotImplementedError",
    "OverflowError",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
)

#: (group, expression) pairs; a group names the issue-14 item the case belongs to.
CATALOGUE: list[tuple[str, str]] = []


def _add(group: str, *exprs: str) -> None:
    CATALOGUE.extend((group, e) for e in exprs)


_add(
    "errors.broadcast",
    "jnp.subtract(jnp.ones(2), jnp.ones(3))",
    "jnp.ones(2) + jnp.ones(3)",
    "jnp.add(jnp.ones((2, 3)), jnp.ones((4, 3)))",
    "jnp.ones((2, 2)) * jnp.ones((3, 3))",
    "jnp.where(jnp.ones(2) > 0, jnp.ones(3), 0.0)",
    "lax.add(jnp.ones(2), jnp.ones(3))",
    "lax.add(jnp.ones(2), jnp.ones(2, jnp.int32))",
    "jnp.broadcast_to(jnp.ones(3), (2,))",
    "jnp.broadcast_shapes((2,), (3,))",
    "jax.jit(lambda a, b: a - b)(jnp.ones(2), jnp.ones(3))",
)
_add(
    "errors.contraction",
    "jnp.dot(jnp.ones(2), jnp.ones(3))",
    "jnp.dot(jnp.ones((2, 3)), jnp.ones((2, 3)))",
    "jnp.matmul(jnp.ones((2, 3)), jnp.ones((4, 2)))",
    "jnp.matmul(jnp.ones(3), jnp.ones(4))",
    "jnp.ones((2, 3)) @ jnp.ones((4, 2))",
    "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((4, 2)), 1)",
    "jnp.tensordot(jnp.ones((2, 3)), jnp.ones((4, 2)), ((1,), (0,)))",
    "jnp.vdot(jnp.ones(2), jnp.ones(3))",
    "jnp.inner(jnp.ones(2), jnp.ones(3))",
    "lax.dot_general(jnp.ones((2, 3)), jnp.ones((4, 2)), (((1,), (0,)), ((), ())))",
    "lax.dot(jnp.ones((2, 3)), jnp.ones((4, 2)))",
    "jnp.einsum('ij,jk', jnp.ones((2, 3)), jnp.ones((4, 2)))",
    "jax.jit(jnp.matmul)(jnp.ones((2, 3)), jnp.ones((4, 2)))",
)
_add(
    "errors.concatenate",
    "jnp.concatenate([jnp.ones(2), jnp.ones((2, 2))])",
    "jnp.concatenate([jnp.ones((2, 3)), jnp.ones((2, 2))])",
    "jnp.stack([jnp.ones(2), jnp.ones(3)])",
    "jnp.concatenate([])",
    "lax.concatenate([jnp.ones(2), jnp.ones((2, 2))], 0)",
)
_add(
    "errors.reshape",
    "jnp.reshape(jnp.ones(6), (4, 2))",
    "jnp.reshape(jnp.ones(6), (-1, -1))",
    "jnp.ones(6).reshape(5)",
    "jnp.ones(6).reshape((4, -1))",
    "jnp.reshape(jnp.ones(6), (-2, 3))",
    "jnp.transpose(jnp.ones((2, 3)), (0, 0))",
    "jnp.transpose(jnp.ones((2, 3)), (0,))",
    "jnp.ones((2, 3)).transpose((1, 2))",
    "lax.transpose(jnp.ones((2, 3)), (0, 0))",
)
_add(
    "errors.negative_sizes",
    "jnp.zeros(-1)",
    "jnp.ones((2, -3))",
    "jnp.empty(-2)",
    "jnp.full((-1,), 2.0)",
    "jnp.zeros((2,), dtype=jnp.int32).reshape(-3)",
    "jnp.eye(-1)",
    "lax.broadcast(jnp.ones(2), (-1,))",
    "lax.full((-2,), 1.0)",
    "jnp.repeat(jnp.ones(3), -1)",
)
_add(
    "errors.statistics",
    "jnp.std(jnp.ones(3), dtype=jnp.int32)",
    "jnp.std(jnp.arange(3), dtype=int)",
    "jnp.nanstd(jnp.ones(3), dtype=jnp.int32)",
    "jnp.var(jnp.ones(3), dtype=jnp.int32)",
    "jnp.var(jnp.array([1.0, 2.0, 4.0]), dtype=jnp.int32)",
    "jnp.var(jnp.ones((2, 3)), axis=0, dtype=jnp.int8)",
    "jnp.var(jnp.ones(3), dtype=jnp.uint8, ddof=1)",
    "jnp.var(jnp.ones(3, jnp.int32), dtype=jnp.int16)",
    "jnp.var(jnp.ones(3), dtype=bool)",
    "jnp.nanvar(jnp.ones(3), dtype=jnp.int32)",
    "jnp.var(jnp.ones(3), dtype=jnp.float16)",
    "jnp.std(jnp.ones(3), dtype=jnp.float16)",
)
_add(
    "errors.indexing",
    "issubclass(errors.NonConcreteBooleanIndexError, IndexError)",
    "issubclass(errors.NonConcreteBooleanIndexError, errors.JAXIndexError)",
    "issubclass(errors.JAXIndexError, IndexError)",
    "jax.jit(lambda x: x[x > 0])(jnp.ones(3))",
    "jnp.ones(3)[1.0]",
    "jnp.ones(3)[jnp.array(1.0)]",
    "jnp.ones(3)[np.float32(1.0)]",
    "jnp.ones(3)[jnp.array([1.0])]",
    "jnp.ones((2, 3))[0, 1.5]",
    "jnp.ones(3).at[1.5].set(0)",
    "jnp.ones(3).at[jnp.array(1.0)].get()",
    "jnp.ones(3)[:, 0]",
    "jnp.ones((2, 2))[0, 0, 0]",
    "jnp.ones(3)['a']",
    "jnp.ones(3)[..., ...]",
    "jnp.take(jnp.ones(3), 1.5)",
)
_add(
    "errors.arange",
    "jnp.arange(0, 1, 0)",
    "jnp.arange(0.0, 1.0, 0.0)",
    "jnp.arange(5, 1, 0)",
    "jnp.arange(0, 1, 0.0)",
)
_add(
    "errors.concretization",
    "jax.jit(lambda p: jnp.pad(jnp.ones(3), p))(1)",
    "jax.jit(lambda p: jnp.pad(jnp.ones(3), (p, 1)))(1)",
    "jax.jit(lambda x: int(x))(3)",
    "jax.jit(lambda x: bool(x))(3)",
    "jax.jit(lambda x: float(x))(3.0)",
    "jax.jit(lambda x: np.asarray(x))(3.0)",
    "jax.jit(lambda x: x.item())(3.0)",
    "jax.jit(lambda x: range(x))(3)",
)
_add(
    "errors.other",
    "jnp.sum(jnp.ones(3), axis=2)",
    "jnp.ones(3).astype('foo')",
    "jnp.zeros(3, dtype='foo')",
    "jnp.split(jnp.ones(5), 2)",
    "int(jnp.ones(3))",
    "float(jnp.ones(2))",
    "jnp.diag(jnp.ones((2, 2, 2)))",
    "jnp.asarray(None)",
    "jnp.argmax(jnp.ones(0))",
    "jnp.max(jnp.ones(0))",
    "jnp.pad(jnp.ones(3), ((1, 1), (1, 1)))",
    "lax.slice(jnp.ones(3), (0,), (5,))",
    "lax.dynamic_slice(jnp.ones(3), (0,), (5,))",
    "lax.broadcast_in_dim(jnp.ones(3), (2,), (0,))",
)
_add(
    "weak_inputs",
    "jnp.spacing(jnp.full(3, 1.5))",
    "jnp.spacing(jnp.asarray(1.5))",
    "jnp.rad2deg(jnp.broadcast_to(jnp.asarray(1.5), (3,)))",
    "jnp.deg2rad(jnp.full(3, 2))",
    "jnp.sinc(jnp.where(True, jnp.full(2, 1.5), 2.5))",
    "jnp.iscomplex(jnp.full(3, 1.5))",
    "jnp.isreal(jnp.full(3, 2))",
    "jnp.full_like(jnp.zeros(2), jnp.asarray(1.5))",
    "jnp.full_like(jnp.full(2, 1.5), jnp.asarray(2.5))",
    "jnp.full_like(jnp.full(2, 1.5), 2.5)",
    "jnp.full(2, jnp.asarray(1.5))",
    "jnp.power(1, jnp.full(3, 1.5) > 0)",
    "jnp.power(1, jnp.asarray(1.5) > 0)",
    "jnp.where(True, 1.5, 2.5)",
    "jnp.where(jnp.ones(3) > 0, 1.5, 2)",
    "jnp.broadcast_to(jnp.asarray(1.5), (3,))",
)
_add(
    "median_keepdims",
    "jnp.median(jnp.arange(24.0).reshape(2, 3, 4), axis=1, keepdims=True)",
    "jnp.median(jnp.arange(24.0).reshape(2, 3, 4), keepdims=True)",
    "jnp.median(jnp.arange(24.0).reshape(2, 3, 4), axis=(0, 2), keepdims=True)",
    "jnp.nanmedian(jnp.arange(24.0).reshape(2, 3, 4), axis=1, keepdims=True)",
    "jnp.percentile(jnp.arange(24.0).reshape(2, 3, 4), 50, axis=(0, 1), keepdims=True)",
    "jnp.quantile(jnp.arange(24).reshape(2, 3, 4), jnp.array([0.25, 0.5]), axis=2, keepdims=True)",
)
_add(
    "spaces",
    "jnp.linspace(0, 1j, 3)",
    "jnp.linspace(1j, 2 + 3j, 4, endpoint=False)",
    "jnp.linspace(0, 1 + 1j, 3, dtype=jnp.complex64)",
    "jnp.linspace(jnp.array([0.0, 1.0]), jnp.array([1.0, 3.0]), 3)",
    "jnp.linspace(jnp.array([0.0, 1.0]), 2, 3, axis=1)",
    "jnp.linspace(jnp.array([[0.0], [1.0]]), jnp.array([2.0, 4.0]), 3, axis=-1)",
    "jnp.linspace(jnp.array([0, 1]), 5, 3, dtype=jnp.int32)",
    "jnp.linspace(0, jnp.array([1.0, 2.0]), 2, retstep=True)",
    "jnp.linspace(jnp.asarray(1.5), 2, 3)",
    "jnp.logspace(0, 1j, 3)",
    "jnp.logspace(jnp.array([0.0, 1.0]), 2, 3)",
    "jnp.logspace(0, jnp.array([1.0, 2.0]), 3, base=2.0, axis=1)",
    "jnp.logspace(0, 2, 3, base=jnp.array([2.0, 10.0]))",
    "jnp.geomspace(1, 1j, 3)",
    "jnp.geomspace(jnp.array([1.0, 2.0]), 8, 3)",
    "jnp.geomspace(-1, -8, 4)",
    "jnp.geomspace(jnp.array([1.0, -1.0]), jnp.array([8.0, -8.0]), 4, axis=1)",
    "jax.jit(lambda a, b: jnp.linspace(a, b, 4))(0.0, 1.0)",
    "jax.jit(lambda a, b: jnp.linspace(a, b, 4))(jnp.array([0.0, 1.0]), 2)",
    "jax.jit(lambda a, b: jnp.linspace(a, b, 3))(0.0, 1j)",
    "jax.jit(lambda a, b: jnp.logspace(a, b, 4))(0.0, 1.0)",
    "jax.jit(lambda a, b: jnp.geomspace(a, b, 4))(1.0, 8.0)",
    "jax.jit(lambda a, b: jnp.geomspace(a, b, 3))(jnp.array([1.0, 2.0]), 8.0)",
    "jax.jit(lambda n: jnp.linspace(0.0, 1.0, n))(3)",
)
_add(
    "static_oob",
    "jnp.ones(3)[5]",
    "jnp.arange(3)[5]",
    "jnp.arange(3)[-5]",
    "jnp.arange(3)[-4]",
    "jnp.arange(3)[3]",
    "jnp.arange(3).at[7].get()",
    "jnp.arange(3).at[-7].get()",
    "jnp.arange(3).at[7].get(mode='fill', fill_value=-1)",
    "jnp.arange(3).at[7].set(9)",
    "jnp.arange(3).at[-7].add(9)",
    "jnp.arange(3)[jnp.array(7)]",
    "jnp.arange(3)[np.int32(7)]",
    "jnp.arange(3)[np.int64(-9)]",
    "jnp.arange(6).reshape(2, 3)[1, 5]",
    "jnp.arange(6).reshape(2, 3)[5]",
    "jnp.arange(6).reshape(2, 3)[5, 1:]",
    "jnp.arange(6).reshape(2, 3)[:, -4]",
    "jnp.arange(6).reshape(2, 3)[..., 3]",
    "jnp.arange(3)[None, 4]",
    "jnp.arange(3)[jnp.array([0, 7])]",
    "jax.jit(lambda x: x[5])(jnp.arange(3))",
    "jax.jit(lambda x: x.at[-7].get())(jnp.arange(3))",
    "jnp.zeros((0,))[0]",
    "jnp.arange(3)[[1, 2]]",
)
_add(
    "x64_arrays",
    "x64(lambda: jnp.arange(3, dtype=jnp.int64)) + 1",
    "x64(lambda: jnp.arange(3, dtype=jnp.int64)) * x64(lambda: jnp.arange(3, dtype=jnp.int64))",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)) + 1.0",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)) * 2",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)) + jnp.ones(2)",
    "x64(lambda: jnp.ones(2, jnp.complex128)) + 1",
    "x64(lambda: jnp.asarray(1.5)) + 1",
    "x64(lambda: jnp.asarray(1.5))",
    "jnp.sum(x64(lambda: jnp.arange(3, dtype=jnp.int64)))",
    "jnp.max(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)).sum()",
    "jnp.mean(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "-x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64))",
    "jnp.sin(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64))[0]",
    "x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)).astype(jnp.float64)",
    "jnp.asarray(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "jax.jit(lambda x: x + 1)(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "jax.jit(lambda x: x * 2)(x64(lambda: jnp.arange(3, dtype=jnp.int64)))",
    "jax.jit(lambda x: x.sum())(x64(lambda: jnp.arange(3, dtype=jnp.int64)))",
    "jax.jit(lambda x: x + jnp.ones(2))(x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))",
    "jax.jit(lambda y: y + x64(lambda: jnp.array([1.5, 2.5], dtype=jnp.float64)))(jnp.ones(2))",
    "jax.jit(lambda x: x * 1)(x64(lambda: jnp.asarray(1.5)))",
)
_add(
    "config",
    "jax.config.jax_enable_x64",
    "jax.config.read('jax_enable_x64')",
    "jax.config.update('jax_enable_x64', False)",
    "jax.config.jax_numpy_dtype_promotion",
    "jax.config.update('jax_numpy_dtype_promotion', 'standard')",
    "jax.config.read('jax_foo')",
    "jax.config.update('jax_foo', 1)",
)
_add(
    "lax_map",
    "lax.map(lambda x: x * 2, jnp.arange(5), batch_size=2)",
    "lax.map(lambda x: x.sum(), jnp.arange(10.0).reshape(5, 2), batch_size=3)",
    "lax.map(lambda x: x * 2, jnp.arange(5), batch_size=10)",
    "lax.map(lambda x: x * 2, jnp.arange(5), batch_size=1)",
    "lax.map(lambda x: (x, x * 1.5), jnp.arange(4), batch_size=2)",
    "lax.map(lambda t: t[0] + t[1], (jnp.arange(5), jnp.ones(5)), batch_size=2)",
    "jax.jit(lambda a: lax.map(jnp.sin, a, batch_size=4))(jnp.arange(7.0))",
)
_add(
    "at",
    "jnp.arange(5).at[1].apply(lambda v: v * 10)",
    "jnp.arange(5).at[jnp.array([1, 1])].apply(lambda v: v * 10)",
    "jnp.arange(5.0).at[1:3].apply(jnp.sin)",
    "jnp.arange(5).at[jnp.array([0, 9])].apply(lambda v: v + 1)",
    "jnp.arange(5).at[jnp.array([0, 9])].apply(lambda v: v + 1, mode='clip')",
    "jnp.arange(5).at[1].add(3, unique_indices=True, indices_are_sorted=True)",
    "jnp.arange(5).at[jnp.array([0, 2])].get(unique_indices=True, indices_are_sorted=True)",
    "jnp.arange(5).at[jnp.array([0, 2])].set(7, indices_are_sorted=True, unique_indices=True)",
    "jnp.arange(5).at[jnp.array([3, 1])].multiply(2, unique_indices=True)",
    "jnp.arange(5.0).at[2].apply(lambda v: v * 2.5)",
    "jnp.arange(5, dtype=jnp.int8).at[2].apply(lambda v: v * 2.5)",
    "jax.jit(lambda x: x.at[1::2].apply(jnp.negative))(jnp.arange(5))",
)
_add(
    "format",
    "format(jnp.asarray(1.5), '.2f')",
    "format(jnp.float32(1.5), '.2f')",
    "format(jnp.asarray(3), '05d')",
    "format(jnp.asarray(3), '.1f')",
    "format(jnp.asarray(True), '')",
    "format(jnp.asarray(1.5), '')",
    "format(jnp.asarray(1 + 2j), '.1f')",
    "format(jnp.ones(2), '')",
    "format(jnp.ones(2), '.2f')",
    "'{:>8.3f}'.format(jnp.asarray(2.0))",
    "f'{jnp.asarray(7, jnp.int8):x}'",
)
_add(
    "asarray",
    "jnp.asarray(range(4))",
    "jnp.asarray(range(1, 7, 2), dtype=jnp.float32)",
    "jnp.asarray(memoryview(np.arange(3, dtype=np.int16)))",
    "jnp.asarray(memoryview(np.arange(4.0).reshape(2, 2)))",
    "jnp.asarray(bytearray(b'abc'))",
    "jnp.asarray(memoryview(b'ab'))",
    "jnp.asarray(bytes(b'ab'))",
    "jnp.array(range(3))",
    "jnp.array(bytearray(b'ab'), dtype=jnp.int32)",
    "jnp.asarray([range(2), range(2)])",
    "jnp.asarray(range(0))",
    "jnp.asarray(range(2**40))",
)
_add(
    "fft",
    "jnp.fft.fft(jnp.arange(8, dtype=jnp.float32))",
    "jnp.fft.fft(jnp.arange(8, dtype=jnp.complex64) * (1 + 1j))",
    "jnp.fft.ifft(jnp.arange(8, dtype=jnp.complex64))",
    "jnp.fft.rfft(jnp.arange(8, dtype=jnp.float16))",
    "jnp.fft.irfft(jnp.arange(5, dtype=jnp.complex64))",
    "jnp.fft.fft2(jnp.ones((4, 4), jnp.float32))",
    "jnp.fft.fftn(jnp.ones((2, 4), jnp.bfloat16))",
    "jnp.fft.fft(jnp.arange(8))",
    "jnp.fft.fft(jnp.full(4, 1.5))",
    "jnp.fft.fft(jnp.array([1e-30, 1.0, 3e38, -3e38], jnp.float32))",
)
_add(
    "lax_names",
    "lax.index_take(jnp.arange(12.0).reshape(3, 4), (jnp.array([0, 2]), jnp.array([1, 3])), (0, 1))",
    "lax.index_take(jnp.arange(12).reshape(3, 4), (jnp.array([3, 1]),), (1,))",
    "lax.index_take(jnp.arange(12).reshape(3, 4), (jnp.array([[5, -1]]),), (0,))",
    "lax.index_take(jnp.full((2, 3), 1.5), (jnp.array([1]),), (-1,))",
    "lax.fft(jnp.arange(4, dtype=jnp.complex64), lax.FftType.FFT, (4,))",
    "lax.fft(jnp.arange(4, dtype=jnp.complex64), 'IFFT', (4,))",
    "lax.fft(jnp.arange(6.0).reshape(2, 3), lax.FftType.RFFT, (3,))",
    "lax.fft(jnp.ones((2, 3), jnp.complex64), lax.FftType.IRFFT, (4,))",
    "lax.bessel_i0e(jnp.array([0.0, 1.0, -2.5, 30.0, float('inf'), float('nan')]))",
    "lax.bessel_i0e(jnp.array([0.5, 3.0], jnp.float16))",
    "lax.bessel_i0e(jnp.full(2, 1.5))",
    "lax.bessel_i0e(jnp.array([1, 2]))",
    "lax.scatter_sub(jnp.zeros(3), jnp.array([[1], [1]]), jnp.array([2.0, 3.0]), "
    "lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_sub(jnp.arange(4), jnp.array([[0], [9]]), jnp.array([5, 6]), "
    "lax.ScatterDimensionNumbers((), (0,), (0,)))",
    "lax.scatter_sub(jnp.ones((2, 3), jnp.int8), jnp.array([[1]]), jnp.ones((1, 3), jnp.int8), "
    "lax.ScatterDimensionNumbers((1,), (0,), (0,)))",
)

# The argument rules behind the weak-array sweep's nonsense calls, pinned on meaningful inputs.
_add(
    "arguments",
    # JAX's static arguments must be hashable: arrays and lists are refused
    "jnp.diff(jnp.arange(4.0), n=jnp.asarray(1))",
    "jnp.round(jnp.ones(2), jnp.asarray(1))",
    "jnp.tril(jnp.ones((2, 2)), jnp.asarray(1))",
    "jnp.diagonal(jnp.ones((2, 2)), jnp.asarray(0))",
    "jnp.resize(jnp.arange(3), [2, 2])",
    "jnp.rot90(jnp.ones((2, 2)), axes=[0, 1])",
    "jnp.gradient(jnp.ones(3), axis=jnp.asarray(0))",
    "jnp.angle(1.0, jnp.asarray(True))",
    "jnp.vander(jnp.ones(3), np.int64(2))",
    # rank promotion of shapes that cannot broadcast: ValueError
    "jnp.less(jnp.ones((2, 2)), jnp.ones(3))",
    "jnp.add(jnp.ones((2, 3)), jnp.ones(2))",
    # ediff1d casts its ends to the differences' dtype
    "jnp.ediff1d(jnp.arange(3, dtype=jnp.int8), to_end=jnp.array([300]))",
    "jnp.ediff1d(jnp.arange(3), to_begin=jnp.array([2.7, -1.5]), to_end=300.9)",
    "jnp.ediff1d(jnp.full(3, 1.5), to_end=2)",
    # weak flags of set operations: padded and complex values are strong
    "jnp.unique(jnp.full(3, 1.5), size=2, fill_value=0)",
    "jnp.unique(jnp.full(3, 1.5), size=2)",
    "jnp.setdiff1d(jnp.full(3, 1.5), jnp.ones(1), size=3, fill_value=0)",
    "jnp.union1d(jnp.full(3, 1.5j), jnp.full(2, 2.5j))",
    "jnp.unique(jnp.full((2, 2), 1.5j), axis=0)",
    "jnp.unique(jnp.full((2, 2), 1.5), axis=0, size=1, fill_value=0)",
    "jnp.unique(jnp.arange(3), jnp.asarray(1))",
    # polynomials
    "jnp.polymul(jnp.full(2, 1.5), jnp.full(2, 2.5))",
    "jnp.polyval(jnp.ones(2, jnp.int8), 2)",
    "jnp.polyval(jnp.full(2, 1.5), jnp.asarray(2.0))",
    "jnp.poly(jnp.asarray(2.0))",
    "jnp.roots(jnp.asarray(2.0))",
    "jnp.vander(jnp.full(2, 1.5))",
    # gradient with coordinate arrays
    "jnp.gradient(jnp.array([1.0, 4.0, 9.0, 20.0, 21.0]), jnp.array([0.0, 1.0, 3.0, 4.0, 7.0]))",
    "jnp.gradient(jnp.arange(6).reshape(2, 3), 1.0, jnp.array([0, 1, 3]))",
    "jnp.gradient(jnp.ones(3), jnp.ones(4))",
    "jnp.gradient(jnp.arange(3, dtype=jnp.int8), 2.0)",
    # a float number of window points or a float shift is truncated
    "jnp.hanning(2.7)",
    "jnp.kaiser(jnp.asarray(3.9), 2.0)",
    "jnp.roll(jnp.arange(5), -1.7)",
    "jnp.roll(jnp.arange(6).reshape(2, 3), jnp.array([0.5, 1.5, 1.2]))",
    # pad: shape checked before type; a 0-d array is returned as it is
    "jnp.pad(jnp.asarray(1.5), 2)",
    "jnp.pad(jnp.ones(3), jnp.ones(3, int))",
    "jnp.pad(jnp.ones(3), 1.5)",
    # select reads array lists by rows and non-boolean conditions as nonzero
    "jnp.select([jnp.array([1.5, 0.0])], [jnp.ones(2)], 7)",
    "jnp.select(jnp.array([[True, False], [False, True]]), jnp.array([[1, 2], [3, 4]]))",
    # trim_zeros trims every axis
    "jnp.trim_zeros(jnp.array([[0, 0, 0], [0, 1, 0], [0, 0, 2]]), 'f')",
    "jnp.trim_zeros(jnp.zeros((2, 3)))",
    # splits, joins, shapes
    "jnp.vsplit(jnp.arange(4.0), 2)",
    "jnp.dsplit(jnp.ones((2, 4)), 2)",
    "jnp.concat(jnp.asarray(1.5))",
    "jnp.stack(jnp.asarray(1.5))",
    "jnp.broadcast_shapes(jnp.full(2, 2), (3, 1, 1))",
    "jnp.broadcast_shapes(jnp.asarray(2.5))",
    "jnp.repeat(jnp.ones(3), jnp.full(2, 1))",
    "jnp.repeat(jnp.asarray(0.5), jnp.ones(3))",
    "jnp.diagflat(jnp.ones(3), jnp.full(3, 3))",
    # index and type arguments
    "jnp.isdtype(jnp.float32, (jnp.ones(2), 'integral'))",
    "jnp.insert(jnp.arange(4.0), 1.0, 5)",
    "jnp.delete(jnp.arange(4.0), 1.0)",
    "jnp.take_along_axis(jnp.arange(4.0), jnp.array([True]), axis=0)",
    "jnp.histogram(jnp.ones(3), jnp.asarray(2))",
    "jnp.histogram(jnp.ones(3), jnp.asarray(2.0))",
    "jnp.histogram2d(jnp.ones(3), jnp.ones(4))",
    "jnp.spacing(1j)",
    "jnp.iterable(jnp.asarray(1.5))",
    "jnp.vecdot(jnp.asarray(1.5), jnp.ones(3))",
    "jnp.polyadd(jnp.asarray(1.5), jnp.ones(3))",
    "jnp.polymul(jnp.asarray(1.5), jnp.ones(3))",
    "jnp.polyint(jnp.ones((2, 2)))",
)


def x64(fn: Callable[[], Any]) -> Any:
    with jax.enable_x64(True):
        return fn()


NAMES: dict[str, Any] = {"jnp": jnp, "lax": lax, "jax": jax, "errors": errors, "np": np}
NAMES["x64"] = x64


# -- the weak-array sweep -------------------------------------------------------------------------

#: Weakly typed arrays (expressions) every function meets, alone and in pairs.
WEAK_ARGS = [
    "jnp.asarray(1.5)",
    "jnp.full(3, 1.5)",
    "jnp.broadcast_to(jnp.asarray(0.25), (2, 3))",
    "jnp.asarray(2)",
    "jnp.full(3, 2)",
    "jnp.where(True, jnp.full(3, 2), 1)",
    "jnp.full(3, 1.5j)",
]
WEAK_PAIRS = [
    ("jnp.full(3, 1.5)", "jnp.full(3, 2.5)"),
    ("jnp.asarray(1.5)", "jnp.asarray(2.0)"),
    ("jnp.full(3, 2)", "jnp.full(3, 3)"),
    ("jnp.full(3, 2)", "jnp.full(3, 0.5)"),
    ("jnp.full(3, 1.5)", "2"),
    ("jnp.asarray(0.5)", "jnp.ones(3, jnp.float16)"),
    ("jnp.full((2, 3), 1.5)", "jnp.full(3, 0.5)"),
]
#: Functions with side effects or no array semantics, never called.
SKIP = {
    "load",
    "save",
    "savez",
    "fromfile",
    "frombuffer",
    "fromstring",
    "fromiter",
    "frompyfunc",
    "from_dlpack",
    "printoptions",
    "set_printoptions",
    "get_printoptions",
    "vectorize",
    "einsum_path",
    "array_repr",
    "array_str",
}


def sweep_functions() -> list[str]:
    out = []
    for name in sorted(dir(jnp)):
        obj = getattr(jnp, name)
        if name.startswith("_") or name in SKIP or not callable(obj) or inspect.isclass(obj):
            continue
        out.append(name)
    return out


def sweep_cases() -> list[str]:
    """Expressions of the sweep whose function JAX accepts at least once in each arity."""
    exprs = []
    for name in sweep_functions():
        for arity in ((a,) for a in WEAK_ARGS), iter(WEAK_PAIRS):
            calls = [f"jnp.{name}({', '.join(args)})" for args in arity]
            if any("error" not in run(c, values=False) for c in calls):
                exprs += calls
    return exprs


# -- recording ------------------------------------------------------------------------------------


def encode(v: Any) -> Any:
    if isinstance(v, complex):
        return [encode(v.real), encode(v.imag)]
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def leaf(x: Any, values: bool) -> dict[str, Any]:
    if x is None or isinstance(x, (bool, int, float, complex, str)):
        return {"python": type(x).__name__, "value": encode(x)}
    if isinstance(x, np.dtype):
        return {"python": "dtype", "value": str(x)}
    a = np.asarray(x)
    out: dict[str, Any] = {
        "dtype": str(a.dtype),
        "weak_type": bool(getattr(x, "weak_type", False)),
        "shape": list(a.shape),
    }
    if values:
        flat = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64).ravel().tolist()
        out["values"] = [encode(v) for v in flat]
    return out


def run(expr: str, values: bool = True) -> dict[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(expr, dict(NAMES))
            if hasattr(out, "block_until_ready"):
                out.block_until_ready()
    except Exception as e:
        bases = [c.__name__ for c in type(e).__mro__ if c.__name__ in _BUILTIN_BASES]
        result: dict[str, Any] = {"error": type(e).__name__, "bases": bases}
        if values:
            result["message"] = str(e).split("\n")[0]
        return result
    if hasattr(out, "value") and type(out).__module__.startswith("jax._src.config"):
        out = out.value
    if isinstance(out, (tuple, list)):
        leaves = jax.tree_util.tree_leaves(list(out), is_leaf=lambda v: v is None)
        return {"outputs": [leaf(v, values) for v in leaves], "tuple": True}
    if hasattr(out, "value") and not hasattr(out, "dtype"):  # an enum (config values)
        out = out.value
    return {"outputs": [leaf(out, values)], "tuple": False}


def main() -> None:
    jax.config.update("jax_enable_x64", False)
    cases = [{"group": g, "expr": e, "result": run(e)} for g, e in CATALOGUE]
    cases += [{"group": "weak", "expr": e, "result": run(e, values=False)} for e in sweep_cases()]
    meta = {"jax": importlib.metadata.version("jax"), "numpy": np.__version__}
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    OUT_PATH.write_text(
        '{"meta": '
        + json.dumps(meta, sort_keys=True)
        + ',\n"cases": [\n'
        + ",\n".join(lines)
        + "\n]}\n"
    )
    print(f"wrote {OUT_PATH} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
