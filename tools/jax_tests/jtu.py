"""A stand-in for ``jax._src.test_util`` (``jtu``), so JAX's own test files run on trellax.

Written for the harness (``tools/run_jax_tests.py``) from what JAX's test files call: a
``JaxTestCase`` on absl's ``parameterized.TestCase`` with JAX's default test configuration
(strict promotion, rank promotion raises, legacy keys refused), ``assertAllClose`` with JAX's
per-dtype tolerances, ``sample_product`` drawing the same cases as JAX's (so test names match
the reference run), random-value makers, and the device helpers answered for one CPU device.
Counters of compilations and lowerings (XLA internals) raise ``unittest.SkipTest``.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import os
import re
import sys
import textwrap
import unittest
import warnings
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

import numpy as np
from absl.testing import absltest, parameterized

# the random-value makers, scalar shapes and promotion helpers of the lax_numpy_* files
from jax_tests import jtu_numpy as _jtu_numpy_shared
from jax_tests.jtu_numpy import (  # noqa: F401 (re-exported for the test files)
    NUMPY_SCALAR_SHAPE,
    PYTHON_SCALAR_SHAPE,
    ScalarShape,
    _dims_of_shape,
    is_device_tpu,
    is_device_tpu_at_least,
    is_valid_shape,
    join_tolerance,
    numpy_version,
    parse_version,
    promote_like_jnp,
    rand_bool,
    rand_default,
    rand_fullrange,
    rand_int,
    rand_nonzero,
    rand_not_small,
    rand_positive,
    rand_small,
    rand_small_positive,
    rand_some_equal,
    rand_some_inf,
    rand_some_inf_and_nan,
    rand_some_nan,
    rand_some_zero,
    rand_uniform,
    rand_unique_int,
    strict_promotion_if_dtypes_match,
)

import trellax
import trellax.numpy as jnp
from trellax import dtypes as _dtypes
from trellax import tree_util
from trellax.test_util import check_grads as check_grads
from trellax.test_util import check_jvp as check_jvp
from trellax.test_util import check_vjp as check_vjp

#: the lax files' makers (``jtu_values``) draw through these
_dims = _dims_of_shape
_cast_to_shape = _jtu_numpy_shared._cast_to_shape
_rand_dtype = _jtu_numpy_shared._rand_dtype
NUM_GENERATED_CASES = int(os.getenv("JAX_NUM_GENERATED_CASES", "10"))


def _not_here(what: str) -> unittest.SkipTest:
    return unittest.SkipTest(f"out of scope for trellax: {what}")


# --- configuration --------------------------------------------------------------------------

_DEFAULT_TEST_CONFIG: dict[str, Any] = {
    "jax_enable_checks": True,
    "jax_numpy_dtype_promotion": "strict",
    "jax_numpy_rank_promotion": "raise",
    "jax_traceback_filtering": "off",
    "jax_legacy_prng_key": "error",
}


def _read(name: str) -> Any:
    return trellax.config.read(name)


@contextlib.contextmanager
def global_config_context(**values: Any) -> Iterator[None]:
    """Sets JAX flags (``jax_`` names) for the block, restoring them after."""
    saved = {}
    try:
        for key, value in values.items():
            saved[key] = _read(key)
            trellax.config.update(key, value)
        yield
    finally:
        for key, value in saved.items():
            trellax.config.update(key, value)


def with_config(**values: Any) -> Callable[[Any], Any]:
    """Class or function decorator: runs the test(s) with these flags set."""

    def decorate(obj: Any) -> Any:
        if isinstance(obj, type):
            obj._default_global_config = {**getattr(obj, "_default_global_config", {}), **values}
            return obj

        @functools.wraps(obj)
        def run(*args: Any, **kwargs: Any) -> Any:
            with global_config_context(**values):
                return obj(*args, **kwargs)

        return run

    return decorate


# --- dtypes ---------------------------------------------------------------------------------


def device_under_test() -> str:
    return "cpu"


def test_device_matches(devices: Sequence[str]) -> bool:
    return "cpu" in devices


def supported_dtypes() -> set[Any]:
    types: set[Any] = {
        np.bool_, _dtypes.int4, np.int8, np.int16, np.int32, np.int64, _dtypes.uint4,
        np.uint8, np.uint16, np.uint32, np.uint64, _dtypes.bfloat16, np.float16, np.float32,
        np.float64, np.complex64, np.complex128,
    }  # fmt: skip
    if not trellax.config.read("jax_enable_x64"):
        types -= {np.uint64, np.int64, np.float64, np.complex128}
    return types


class _Dtypes:
    """JAX's named dtype lists, filtered by what is supported under the current x64 flag."""

    def supported(self, dts: Sequence[Any]) -> list[Any]:
        ok = supported_dtypes()
        return [d for d in dts if d in ok]

    @property
    def custom_floats(self) -> list[Any]:
        names = ["bfloat16", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
                 "float8_e5m2", "float8_e5m2fnuz", "float8_e3m4", "float8_e4m3",
                 "float8_e8m0fnu", "float4_e2m1fn"]  # fmt: skip
        return self.supported([getattr(_dtypes, n) for n in names])

    floating = property(lambda self: self.supported([np.float32, np.float64]))
    all_floating = property(
        lambda self: self.supported([_dtypes.bfloat16, np.float16, np.float32, np.float64])
    )
    integer = property(lambda self: self.supported([np.int32, np.int64]))
    all_integer = property(lambda self: self.supported([np.int8, np.int16, np.int32, np.int64]))
    unsigned = property(lambda self: self.supported([np.uint32, np.uint64]))
    all_unsigned = property(
        lambda self: self.supported([np.uint8, np.uint16, np.uint32, np.uint64])
    )
    complex = property(lambda self: self.supported([np.complex64, np.complex128]))
    boolean = property(lambda self: self.supported([np.bool_]))
    inexact = property(lambda self: self.floating + self.complex)
    all_inexact = property(lambda self: self.all_floating + self.complex)
    numeric = property(lambda self: self.floating + self.integer + self.unsigned + self.complex)
    all = property(
        lambda self: (
            self.all_floating + self.all_integer + self.all_unsigned + self.complex + self.boolean
        )
    )


dtypes = _Dtypes()

_TOLERANCE = {
    "bool": 0, "int2": 0, "int4": 0, "int8": 0, "int16": 0, "int32": 0, "int64": 0,
    "uint2": 0, "uint4": 0, "uint8": 0, "uint16": 0, "uint32": 0, "uint64": 0, "float0": 0,
    "float4_e2m1fn": 1.0, "float8_e8m0fnu": 1.0, "float8_e3m4": 0.1, "float8_e4m3": 0.1,
    "float8_e4m3b11fnuz": 0.1, "float8_e4m3fn": 0.1, "float8_e4m3fnuz": 0.1,
    "float8_e5m2": 0.1, "float8_e5m2fnuz": 0.1, "bfloat16": 1e-2, "float16": 1e-3,
    "float32": 1e-6, "float64": 1e-15, "complex64": 1e-6, "complex128": 1e-15,
}  # fmt: skip
default_gradient_tolerance = {
    np.dtype(_dtypes.bfloat16): 1e-1,
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}


def _dtype(x: Any) -> np.dtype[Any]:
    if hasattr(x, "dtype"):
        return np.dtype(x.dtype) if not _is_key_dtype(x.dtype) else x.dtype
    if type(x) in (bool, int, float, complex):
        return np.dtype(
            {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}[type(x)]
        )
    return np.asarray(x).dtype


def _is_key_dtype(d: Any) -> bool:
    return "key" in str(d)


def default_tolerance() -> dict[np.dtype[Any], float]:
    out: dict[np.dtype[Any], float] = {}
    for name, tol in _TOLERANCE.items():
        with contextlib.suppress(TypeError):
            out[np.dtype(getattr(_dtypes, name, None) or name)] = tol
    return out


def tolerance(dtype: Any, tol: Any = None) -> float:
    if isinstance(tol, dict):
        tol = {np.dtype(k): v for k, v in tol.items()}.get(np.dtype(dtype))
    if tol is None:
        return _TOLERANCE.get(np.dtype(dtype).name, 0)
    return float(tol)


def _upcast(x: np.ndarray) -> np.ndarray:
    if x.dtype.name in _TOLERANCE and x.dtype.name.startswith(("float8", "float4", "bfloat16")):
        return x.astype(np.float32)
    if x.dtype.name in ("int2", "int4"):
        return x.astype(np.int8)
    if x.dtype.name in ("uint2", "uint4"):
        return x.astype(np.uint8)
    return x


def _assert_numpy_allclose(
    a: Any, b: Any, atol: Any = None, rtol: Any = None, err_msg: str = ""
) -> None:
    a, b = np.asarray(a), np.asarray(b)
    float0 = np.dtype([("float0", "V")])  # trellax.dtypes.float0, JAX's tangent type of ints
    if a.dtype == float0 or b.dtype == float0:
        np.testing.assert_array_equal(a, b, err_msg=err_msg)
        return
    a, b = _upcast(a), _upcast(b)
    kw = {}
    if atol is not None:
        kw["atol"] = atol
    if rtol is not None:
        kw["rtol"] = rtol
    with np.errstate(invalid="ignore", over="ignore"):
        if a.dtype == b.dtype == np.bool_:
            np.testing.assert_array_equal(a, b, err_msg=err_msg)
        else:
            np.testing.assert_allclose(a, b, **kw, err_msg=err_msg)


def _check_dtypes_match(xs: Any, ys: Any) -> None:
    def check(x: Any, y: Any) -> None:
        canon = _dtypes.canonicalize_dtype
        assert canon(_dtype(x)) == canon(_dtype(y)), (_dtype(x), _dtype(y))

    tree_util.tree_map(check, xs, ys)


def check_eq(xs: Any, ys: Any, err_msg: str = "") -> None:
    tree_util.tree_map(lambda x, y: _assert_numpy_allclose(x, y, err_msg=err_msg), xs, ys)


def check_close(xs: Any, ys: Any, atol: Any = None, rtol: Any = None, err_msg: str = "") -> None:
    def close(x: Any, y: Any) -> None:
        d = _dtype(x)
        _assert_numpy_allclose(
            x, y, atol=tolerance(d, atol), rtol=tolerance(d, rtol), err_msg=err_msg
        )

    tree_util.tree_map(close, xs, ys)


def check_raises(thunk: Callable[[], Any], err_type: type, msg: str) -> None:
    try:
        thunk()
        raise AssertionError(f"Expected {err_type}")
    except err_type as e:
        assert str(e).startswith(msg), f"{e!s}\n\n{msg}\n"


def check_raises_regexp(thunk: Callable[[], Any], err_type: type, pattern: str) -> None:
    try:
        thunk()
        raise AssertionError(f"Expected {err_type}")
    except err_type as e:
        assert re.match(pattern, str(e)), f"{e}\n\n{pattern}\n"


def to_default_dtype(arr: Any) -> np.ndarray:
    arr = np.asarray(arr)
    x64 = trellax.config.read("jax_enable_x64")
    default = {
        "b": np.bool_,
        "i": np.int64 if x64 else np.int32,
        "u": np.uint64 if x64 else np.uint32,
        "f": np.float64 if x64 else np.float32,
        "c": np.complex128 if x64 else np.complex64,
    }.get(arr.dtype.kind)
    return arr.astype(default) if default is not None else arr


# --- names and parameters -------------------------------------------------------------------

_SANITIZE = re.compile(r"[ \"'\[\](){}<>=,._]+")


def sanitize_test_name(s: str) -> str:
    return _SANITIZE.sub("_", s)


def dtype_str(dtype: Any) -> str:
    return np.dtype(dtype).name


def format_shape_dtype_string(shape: Any, dtype: Any) -> str:
    if isinstance(shape, np.ndarray):
        return f"{dtype_str(dtype)}[{shape}]"
    if isinstance(shape, list):
        shape = tuple(shape)
    if shape is NUMPY_SCALAR_SHAPE:
        return dtype_str(dtype)
    if shape is PYTHON_SCALAR_SHAPE:
        return "py" + dtype_str(dtype)
    if type(shape) is tuple:
        return f"{dtype_str(dtype)}[{','.join(str(d) for d in shape)}]"
    if type(shape) is int:
        return f"{dtype_str(dtype)}[{shape},]"
    raise TypeError(type(shape))


@functools.cache
def _sample(n: int, m: int) -> np.ndarray:
    # The same draw as JAX's harness (a fixed seed), so the sampled test names agree.
    return np.random.RandomState(42).choice(n, size=m, replace=False)


def sample_product_testcases(*args: Any, **kw: Any) -> list[dict[str, Any]]:
    """Samples ``JAX_NUM_GENERATED_CASES`` cases from the product (mixed-radix indices)."""
    groups = [list(a) for a in args]
    values = [(k, list(v)) for k, v in kw.items()]
    n = math.prod(len(g) for g in groups) * math.prod(len(v) for _, v in values)
    cases = []
    for index in _sample(n, min(n, NUM_GENERATED_CASES)):
        i = int(index)
        case: dict[str, Any] = {}
        for g in groups:
            case.update(g[i % len(g)])
            i //= len(g)
        for k, v in values:
            case[k] = v[i % len(v)]
            i //= len(v)
        cases.append(case)
    return cases


def sample_product(*args: Any, **kw: Any) -> Any:
    return parameterized.parameters(*sample_product_testcases(*args, **kw))


def parameterized_filterable(
    *,
    kwargs: Sequence[dict[str, Any]],
    testcase_name: Callable[[dict[str, Any]], str] | None = None,
    one_containing: str | None = None,
) -> Any:
    named = []
    for kw in kwargs:
        kw = dict(kw)
        if testcase_name is not None:
            kw["testcase_name"] = sanitize_test_name(str(testcase_name(kw)))
        elif "testcase_name" not in kw:
            kw["testcase_name"] = sanitize_test_name("_".join(f"{k}={kw[k]}" for k in sorted(kw)))
        else:
            kw["testcase_name"] = sanitize_test_name(kw["testcase_name"])
        named.append(kw)
    if one_containing is not None:
        named = [kw for kw in named if one_containing in kw["testcase_name"]][:1]
        for kw in named:
            kw["testcase_name"] = ""
    return parameterized.named_parameters(*named)


def cases_from_list(xs: Any) -> list[Any]:
    return list(xs)


# --- decorators and helpers -----------------------------------------------------------------


def _identity_decorator(*args: Any, **kwargs: Any) -> Any:
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


thread_unsafe_test = _identity_decorator
thread_unsafe_test_class = _identity_decorator


def skip_on_devices(*devices: str) -> Callable[[Any], Any]:
    def decorate(f: Any) -> Any:
        if "cpu" not in devices:
            return f

        @functools.wraps(f)
        def skipped(self: Any, *a: Any, **k: Any) -> Any:
            raise unittest.SkipTest(f"skipped on {devices}")

        return skipped

    return decorate


def run_on_devices(*devices: str) -> Callable[[Any], Any]:
    return skip_on_devices(*[d for d in ("cpu", "gpu", "tpu") if d not in devices])


def cases_from_gens(*gens: Callable[[int], Any]) -> Iterator[tuple[Any, ...]]:
    """Named cases ``_<size>_<i>`` from generators called with sizes 1, 3 and 10 (JAX's)."""
    sizes = [1, 3, 10]
    for size in sizes:
        for i in range(NUM_GENERATED_CASES // len(sizes) + 1):
            yield (f"_{size}_{i}", *(gen(size) for gen in gens))


def is_test_rbe() -> bool:
    return False


def is_gil_disabled() -> bool:
    return False


def is_tsan() -> bool:
    return False


def is_cloud_tpu() -> bool:
    return False


def skip_on_flag(flag: str, value: Any) -> Callable[[Any], Any]:
    """Skips the test while the configuration option ``flag`` has ``value`` (as JAX's)."""

    def decorate(f: Any) -> Any:
        @functools.wraps(f)
        def test(self: Any, *a: Any, **k: Any) -> Any:
            try:
                current = trellax.config.read(flag)
            except AttributeError:  # a test-only flag trellax lacks (jax_skip_slow_tests): unset
                current = None
            if current == value:
                raise unittest.SkipTest(f"skipped when {flag} == {value!r}")
            return f(self, *a, **k)

        return test

    return decorate


class ignore_warning(contextlib.ContextDecorator):
    """Ignores the matching warnings in a block or a decorated test."""

    def __init__(self, **kw: Any) -> None:
        self._kw = kw
        self._cm: Any = None

    def __enter__(self) -> None:
        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.filterwarnings("ignore", **self._kw)

    def __exit__(self, *exc: Any) -> None:
        self._cm.__exit__(*exc)


def device_supports_buffer_donation() -> Callable[[Any], Any]:
    """JAX's CPU backend supports donation, so the decorated tests run (and those that check a
    donated buffer was deleted are skipped by ``assertDeleted``: trellax copies nothing)."""
    return lambda f: f


def request_cpu_devices(n: int) -> None:
    """One CPU device only."""


def create_mesh(shape: Any, names: Any, *args: Any, **kwargs: Any) -> Any:
    return trellax.make_mesh(shape, names)


def _counter(what: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        raise _not_here(what)

    return fn


count_jit_and_pmap_lowerings = _counter("counting XLA lowerings")
assert_num_jit_and_pmap_compilations = _counter("counting XLA compilations")
count_internal_device_puts = _counter("counting device transfers")
count_jit_tracing_cache_miss = _counter("counting jit cache misses")
count_device_put = _counter("counting device transfers")
collect_lowered_jaxprs = _counter("collecting lowered jaxprs")
count_pjit_cpp_cache_miss = _counter("counting C++ jit cache misses")
count_primitive_compiles = _counter("counting primitive compilations")
count_jit_compilation_cache_miss = _counter("counting compilation cache misses")
count_subjaxpr_to_hlo_conversion = _counter("counting HLO conversions")
count_aot_jit_cpp_cache_miss = _counter("counting C++ jit cache misses")


@contextlib.contextmanager
def capture_stdout() -> Iterator[Callable[[], str]]:
    buf = io.StringIO()
    old = sys.stdout
    sys.stdout = buf
    try:
        yield buf.getvalue
    finally:
        sys.stdout = old


def is_sequence(x: Any) -> bool:
    try:
        iter(x)
    except TypeError:
        return False
    return True


# --- the test case --------------------------------------------------------------------------


class JaxTestCase(parameterized.TestCase):
    """absl's TestCase with JAX's test configuration and array assertions."""

    _default_global_config: ClassVar[dict[str, Any]] = {}
    _default_thread_local_config: ClassVar[dict[str, Any]] = dict(_DEFAULT_TEST_CONFIG)

    def setUp(self) -> None:
        super().setUp()
        self._rng = np.random.RandomState(zlib.adler32(self._testMethodName.encode()))
        config = {**self._default_thread_local_config, **self._default_global_config}
        self.enterContext(global_config_context(**config))

    def rng(self) -> np.random.RandomState:
        return self._rng

    def assertDtypesMatch(
        self, actual: Any, desired: Any, *, canonicalize_dtypes: bool = True
    ) -> None:
        a, d = _dtype(actual), _dtype(desired)
        if not trellax.config.read("jax_enable_x64") and canonicalize_dtypes:
            if not _is_key_dtype(a):
                a = _dtypes.canonicalize_dtype(a)
            if not _is_key_dtype(d):
                d = _dtypes.canonicalize_dtype(d)
        self.assertEqual(a, d)

    def assertArraysEqual(self, actual: Any, desired: Any, *, check_dtypes: bool = True,
                          err_msg: str = "", allow_object_dtype: bool = False,
                          verbose: bool = True) -> None:  # fmt: skip
        if check_dtypes:
            self.assertDtypesMatch(actual, desired)
        a, d = np.asarray(actual), np.asarray(desired)
        if not allow_object_dtype and (a.dtype == object or d.dtype == object):
            raise TypeError("assertArraysEqual on object arrays")
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(a, d, err_msg=err_msg, verbose=verbose)

    def assertArraysAllClose(self, actual: Any, desired: Any, *, check_dtypes: bool = True,
                             atol: Any = None, rtol: Any = None, err_msg: str = "") -> None:  # fmt: skip
        self.assertEqual(np.shape(actual), np.shape(desired))
        atol_ = max(tolerance(_dtype(actual), atol), tolerance(_dtype(desired), atol))
        rtol_ = max(tolerance(_dtype(actual), rtol), tolerance(_dtype(desired), rtol))
        _assert_numpy_allclose(actual, desired, atol=atol_, rtol=rtol_, err_msg=err_msg)
        if check_dtypes:
            self.assertDtypesMatch(actual, desired)

    def assertAllClose(self, actual: Any, desired: Any, *, check_dtypes: bool = True,
                       atol: Any = None, rtol: Any = None, canonicalize_dtypes: bool = True,
                       err_msg: str = "") -> None:  # fmt: skip
        kw = dict(check_dtypes=check_dtypes, atol=atol, rtol=rtol,
                  canonicalize_dtypes=canonicalize_dtypes, err_msg=err_msg)  # fmt: skip
        if isinstance(actual, dict):
            self.assertIsInstance(desired, dict)
            self.assertEqual(set(actual), set(desired))
            for k in actual:
                self.assertAllClose(actual[k], desired[k], **kw)  # type: ignore[arg-type]
        elif is_sequence(actual) and not hasattr(actual, "__array__"):
            if not (is_sequence(desired) and not hasattr(desired, "__array__")):
                self.fail(f"Expected sequence, got {desired}")
            self.assertEqual(len(actual), len(desired))
            for a, d in zip(actual, desired):
                self.assertAllClose(a, d, **kw)  # type: ignore[arg-type]
        elif hasattr(actual, "__array__") or np.isscalar(actual):
            if not (hasattr(desired, "__array__") or np.isscalar(desired)):
                self.fail(f"Expected array-like, got {desired}")
            if check_dtypes:
                self.assertDtypesMatch(actual, desired, canonicalize_dtypes=canonicalize_dtypes)
            self.assertArraysAllClose(
                np.asarray(actual), np.asarray(desired), check_dtypes=False, atol=atol,
                rtol=rtol, err_msg=err_msg,
            )  # fmt: skip
        elif actual == desired:
            return
        else:
            raise TypeError((type(actual), type(desired)))

    def assertDeprecationWarnsOrRaises(
        self, deprecation_id: str, message: str, *, error_class: type[Exception] = ValueError
    ) -> Any:
        """JAX's deprecations are not accelerated by default: they warn."""
        return self.assertWarnsRegex(DeprecationWarning, message)

    def assertMultiLineStrippedEqual(self, expected: str, what: str) -> None:
        clean = lambda s: re.sub(r"\s*\n\s*", "\n", textwrap.dedent(s).strip())  # noqa: E731
        self.assertMultiLineEqual(clean(expected), clean(what))

    @contextlib.contextmanager
    def assertNoWarnings(self) -> Iterator[None]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            yield

    def assertDeleted(self, x: Any) -> None:
        raise _not_here("deleted (donated) buffers")

    def assertNotDeleted(self, x: Any) -> None:
        self.assertFalse(getattr(x, "is_deleted", lambda: False)())

    def _CompileAndCheck(self, fun: Callable[..., Any], args_maker: Callable[[], Any], *,
                         check_dtypes: bool = True, tol: Any = None, rtol: Any = None,
                         atol: Any = None, check_cache_misses: bool = True) -> None:  # fmt: skip
        args = args_maker()
        python_ans = fun(*args)
        cfun = trellax.jit(fun)
        for _ in range(2):
            self.assertAllClose(cfun(*args), python_ans, check_dtypes=check_dtypes,
                                atol=atol or tol, rtol=rtol or tol)  # fmt: skip
        args = args_maker()
        self.assertAllClose(cfun(*args), fun(*args), check_dtypes=check_dtypes,
                            atol=atol or tol, rtol=rtol or tol)  # fmt: skip

    def _CheckAgainstNumpy(self, numpy_reference_op: Callable[..., Any],
                           lax_op: Callable[..., Any], args_maker: Callable[[], Any],
                           check_dtypes: bool = True, tol: Any = None, atol: Any = None,
                           rtol: Any = None, canonicalize_dtypes: bool = True) -> None:  # fmt: skip
        args = args_maker()
        self.assertAllClose(lax_op(*args), numpy_reference_op(*args), check_dtypes=check_dtypes,
                            atol=atol or tol, rtol=rtol or tol,
                            canonicalize_dtypes=canonicalize_dtypes)  # fmt: skip


class BufferDonationTestCase(JaxTestCase):
    def assertDeleted(self, x: Any) -> None:
        raise _not_here("deleted (donated) buffers")


JaxTestLoader = absltest.TestLoader

_ = jnp  # keep the import: tests reach jnp through jtu in places


def _jit_implementation(fun: Any, *args: Any, **kwargs: Any) -> Any:
    return trellax.jit(fun, *args, **kwargs)


def _noop_implementation(fun: Any, *args: Any, **kwargs: Any) -> Any:
    return fun


_jit_implementation._name = "jit"  # type: ignore[attr-defined]
_noop_implementation._name = "noop"  # type: ignore[attr-defined]
#: The ways JAX's tests wrap a function: ``jit`` and not at all.
JIT_IMPLEMENTATION = (_jit_implementation, _noop_implementation)


# --- what JAX's lax_numpy*_test files use (tools/jax_tests/jtu_numpy_helpers.py) ----------------------

from jax_tests import jtu_numpy_helpers as _jtu_numpy  # noqa: E402  (it reads this module's names)

_jtu_numpy.bind(sys.modules[__name__])
from jax_tests.jtu_numpy_helpers import (  # noqa: E402, I001
    assert_dot_precision as assert_dot_precision,
    assert_dot_preferred_element_type as assert_dot_preferred_element_type,
    is_device_cuda as is_device_cuda,
    is_device_rocm as is_device_rocm,
    is_optimized_build as is_optimized_build,
    iter_eqns as iter_eqns,
    rand_indices_unique_along_axis as rand_indices_unique_along_axis,
    with_jax_dtype_defaults as with_jax_dtype_defaults,
)

# the lax files' value makers and helpers (a module of their own; this one was long enough)
from jax_tests import jtu_values as _values  # noqa: E402  (it reads this module's names)

globals().update({name: getattr(_values, name) for name in _values.__all__})
