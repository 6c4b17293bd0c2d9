"""JAX tests the harness skips as out of scope for trellax, each pattern with its reason.

A pattern is an ``fnmatch`` pattern on ``Class.test_name`` (the names of the pass lists). These
tests check machinery trellax does not have by design: XLA's compilation caches and compile logs,
lowering to MLIR/HLO and compiled-executable introspection, buffer donation and deletion, device
buffers and multi-device sharding, the internal layout of printed or built jaxprs, and PRNG
implementations other than threefry2x32 (the one trellax.random implements). The
harness skips them (the skip message starts with ``out of scope for trellax:``) and reports them
apart, so the pass rate is over the tests in scope. ``jtu``'s counters of compilations and
lowerings raise the same kind of skip at run time.
"""

from __future__ import annotations

import fnmatch

_CACHES = "XLA compilation caches, jit cache sizes and compile logs"
_LOWERING = "lowering to MLIR/HLO and compiled-executable introspection"
_DONATION = "buffer donation and deletion"
_BUFFERS = "device buffers (pointers, aliasing, tokens' buffers)"
_SHARDING = "multi-device sharding and backend configuration"
_JAXPR = "the internal layout of jaxprs (printing, constant hoisting)"
_IMPL_CALLS_UNDER_JIT = (
    "counts calls of sin_p's Python implementation inside jit: JAX runs XLA code there and never "
    "calls it (0 calls, so the bound of 1 holds trivially); trellax's compiled programs call each "
    "primitive's implementation, so the forward pass and the recomputation the policy prescribes "
    "(sin(2.) is not saved) count 2"
)
_NAME_STACKS = (
    "name stacks in printed jaxprs (Jaxpr.pretty_print(name_stack=True), "
    "'rematted_computation' scopes): trellax's equations record source lines, not name stacks"
)
_CUSTOM_REMAT = (
    "jax._src.ad_checkpoint.custom_remat, a private experimental API built on the remat3 "
    "'hi primitive' machinery (no public counterpart)"
)
_CALL_MACHINERY = (
    "JAX's internal call machinery (core.call/core.call_p with linear_util.wrap_init, "
    "api_util.debug_info, util.curry); the remat half of test_remat_eval_counter passes as "
    "Remat3Test.test_remat_eval_counter"
)
_PRNG_IMPLS = (
    "PRNG implementations other than threefry2x32: trellax.random implements JAX's default "
    "threefry2x32 bit for bit; rbg/unsafe_rbg draw from XLA's RngBitGenerator and custom "
    "PRNGImpl objects need pluggable key types (both refused with NotImplementedError)"
)

_EXPORT = "jax.export: serialized StableHLO modules and symbolic (shape-polymorphic) dimensions"
_EXPERIMENTAL_SPARSE = (
    "jax.experimental.sparse (lobpcg_standard and its sparse matrix types): trellax has no "
    "jax.experimental.sparse"
)
_TPU_LINALG = (
    "jax._src.tpu.linalg (svd.svd, stack.Stack): JAX's internal TPU algorithms called directly; "
    "the public svd is LAPACK's in trellax and measured by linalg_test"
)
_INTERNAL_HELPERS = (
    "JAX's internal helper modules called directly (jax._src.util's safe_zip/weakref_lru_cache, "
    "api_util's argument flattening, jaxpr_util, the pretty printer, deprecation and warning "
    "registries): no public counterpart"
)
_CORE_INTERNALS = (
    "jax._src.core's internals (partial_eval.PartialVal, jaxpr typechecking and construction by "
    "hand): the file does not import against trellax's core"
)
_TRACEBACKS = (
    "JAX's traceback filtering (traceback_util, source_info_util): trellax does not rewrite "
    "the tracebacks of errors"
)

OUT_OF_SCOPE: dict[str, dict[str, str]] = {
    "api_test": {
        # compilation caches and their logs
        "APITest.test_cache_miss_explanations_*": _CACHES,
        "APITest.test_clear_cache": _CACHES,
        "APITest.test_grad_of_jit_compilation_caching*": _CACHES,
        "APITest.test_jit_compilation_time_logging": _CACHES,
        "APITest.test_dot_precision_forces_retrace": _CACHES,
        "APITest.test_rank_promotion_forces_retrace": _CACHES,
        "JitTest.test_jit_cache_clear": _CACHES,
        "JitTest.test_cache_key_defaults": _CACHES,
        "JitTest.test_pe_close_jaxpr_cache_leak": _CACHES,
        "JitTest.test_jit_of_nonweakreferenceable_function": _CACHES,  # a weakref-keyed cache
        "Remat*Test.test_remat_retracing": _CACHES,
        "Remat*Test.test_remat_static_agnums_retracing": _CACHES,
        # lowering and compiled executables
        "APITest.test_compiler_ir": _LOWERING,
        "APITest.test_lowering_platform_aot": _LOWERING,
        "APITest.test_grad_of_token_consuming_primitive": _LOWERING,
        "JitTest.test_jit_lower_*compiler_ir": _LOWERING,
        "JitTest.test_jit_lower_compile_executable": _LOWERING,
        "JitTest.test_jit_lower_*cost_analysis": _LOWERING,
        "JitTest.test_jit_lower_compile_memory_analysis": _LOWERING,
        "JitTest.test_*compiler_options*": _LOWERING,
        "JitTest.test_jit_lower_as_text": _LOWERING,
        "JitTest.test_jit_lower_no_pruning": _LOWERING,
        "JitTest.test_jit_replica_attributes": _LOWERING,
        "Remat*Test.test_no_cse_widget_*": _LOWERING,
        "Remat*Test.test_remat_partial_cse_prevention*": _LOWERING,
        # donation and deletion
        "*donat*": _DONATION,
        "APITest.test_devicearray_delete": _DONATION,
        # device buffers
        "*Test.test_trivial_computations": _BUFFERS,
        "JitTest.test_print_token_buffer_error": _BUFFERS,
        "JitTest.test_device_put_aliasing": _BUFFERS,
        # devices and sharding
        "APITest.test_num_cpu_devices_called_after_initialization": _SHARDING,
        # jaxpr internals
        "APITest.test_make_jaxpr_deduplicates_consts": _JAXPR,
        "APITest.test_nested_jit_hoisting": _JAXPR,
        # checkpoint/remat (branch remat)
        "Remat*Test.test_remat_no_redundant_flops*": _IMPL_CALLS_UNDER_JIT,
        "Remat*Test.test_name_stack_annotation": _NAME_STACKS,
        "Remat3Test.test_remat_custom_policy_save_cos": _CUSTOM_REMAT,
        "RematTest.test_remat_eval_counter": _CALL_MACHINERY,
        "Remat*Test.test_remat_jit_static_argnum_omnistaging": _CALL_MACHINERY,
    },
    "random_lax_test": {
        # PRNG implementations other than threefry2x32 (the whole classes run under them)
        "CustomPRNGTest.*": _PRNG_IMPLS,
        "RBGPRNGTest.*": _PRNG_IMPLS,
        "UnsafeRBGPRNGTest.*": _PRNG_IMPLS,
    },
    "lax_numpy_test": {
        # the buffer of a copy (unsafe_buffer_pointer) and deleting the source or the result
        "LaxBackedNumpyTests.testArrayCopy[0-9]*": _BUFFERS,
        "LaxBackedNumpyTests.testAstypeCopy*": _DONATION,
        # device commitment (Array._committed after device_put)
        "LaxBackedNumpyTests.test_full_like_committed": _SHARDING,
        # which equations a jaxpr holds: arange's count of equations (iota, add, device_put),
        # matmul's squeezed operands, dot's lone dot_general, the precision parameter of
        # dot_general equations, take_along_axis's nested jit and its gather's index dtype
        # (the arange cases that name a device: their device_put equation; the others pass)
        "LaxBackedNumpyTests.testArangeJaxpr0": _JAXPR,
        "LaxBackedNumpyTests.testArangeJaxpr2": _JAXPR,
        "LaxBackedNumpyTests.testArangeJaxprNonZeroStart1": _JAXPR,
        "LaxBackedNumpyTests.testMatmulBothSize1BatchDimsSqueezedJaxpr": _JAXPR,
        "LaxBackedNumpyTests.testMixedPrecisionDot*": _JAXPR,
        "LaxBackedNumpyTests.testPrecision": _JAXPR,
        "LaxBackedNumpyTests.testTakeAlongAxisPromiseInBoundsNoWrap*": _JAXPR,
        "LaxBackedNumpyTests.testTakeAlongAxisPromiseInBoundsWrappingUpcastsDtype": _JAXPR,
        # how many times piecewise traces its functions over repeated calls (JAX caches one
        # compiled piecewise per function list; trellax calls the functions on each call)
        "LaxBackedNumpyTests.testPiecewiseRecompile": _CACHES,
    },
    "lax_numpy_einsum_test": {},
    "lax_numpy_vectorize_test": {},
    "lax_numpy_operators_test": {},
    "lax_numpy_reducers_test": {},
    "lax_numpy_indexing_test": {
        # which primitives x[idx] lowers to (slice + squeeze, lt/add/select_n before a gather)
        "IndexingTest.testSimpleIndexingUsesSlice": _JAXPR,
        "IndexingTest.testIndicesNormalizationByType*": _JAXPR,
    },
    "lax_numpy_setops_test": {},
    "lax_numpy_ufuncs_test": {},
    "lax_test": {
        # the text of the lowered StableHLO/HLO module (composite ops, dot algorithms, dce_sink)
        "CompositeTest.test_composite": _LOWERING,
        "CompositeTest.test_composite_decorator": _LOWERING,
        "CompositeTest.test_composite_with_jit_function": _LOWERING,
        "CompositeTest.test_composite_with_attributes": _LOWERING,
        "CompositeTest.test_composite_with_non_default_version": _LOWERING,
        "CompositeTest.test_composite_with_no_args": _LOWERING,
        "CompositeTest.test_composite_with_variadic_input_output": _LOWERING,
        "CompositeTest.test_composite_with_array_consts": _LOWERING,
        "CompositeTest.test_composite_attribute_dtypes": _LOWERING,
        "CompositeTest.test_composite_unsupported_attribute_dtypes": _LOWERING,
        "LaxTest.testDotAlgorithmConfig": _LOWERING,
        "LaxTest.test_dce_sink_prevents_xla_dce": _LOWERING,
        "LaxTest.test_shape_as_value_handles_polymorphic_shapes": _EXPORT,
    },
    "lax_autodiff_test": {},
    "lax_vmap_test": {},
    "lax_vmap_op_test": {},
    "lax_control_flow_test": {},
    "custom_api_test": {},
    "custom_root_test": {},
    "custom_linear_solve_test": {},
    "x64_context_test": {},
    "random_test": {
        # the tests JAX generates for each registered PRNG implementation (the stand-in
        # registry lists JAX's six, in JAX's order, so the generated names match): those
        # drawn with an implementation other than threefry2x32
        **{
            f"PrngTest.{t}": _PRNG_IMPLS
            for t in [
                *(f"testRngRandomBitsShapeDtype{i}" for i in (0, 1, 3, 4, 5, 6, 7, 9)),
                *(f"test_default_prng_selection{i}" for i in (0, 1, 3, 4, 5, 6, 7, 9, 10, 11)),
                *(
                    f"test_key_construction_with_explicit_impl_name{i}"
                    for i in (0, 1, 3, 4, 5, 6, 7, 9, 10, 11)
                ),
                *(f"test_key_dtype{i}" for i in (0, 1, 2, 4, 5)),
            ]
        },
        **{
            f"KeyArrayTest.{t}{i}": _PRNG_IMPLS
            for t in (
                "test_key_impl_builtin_is_string_name",
                "test_key_make_like_other_key",
                "test_key_make_like_other_key_via_dtype",
                "test_key_wrap_like_other_key",
                "test_key_wrap_like_other_key_via_dtype",
            )
            for i in (0, 1, 2, 4, 5)
        },
        "KeyArrayTest.test_gather_fill1": _PRNG_IMPLS,  # rbg
        "KeyArrayTest.test_gather_fill2": _PRNG_IMPLS,  # unsafe_rbg
        "KeyArrayTest.test_wrap_key_explicit": _PRNG_IMPLS,  # rbg and unsafe_rbg
    },
    "nn_test": {},
    "stax_test": {},
    "optimizers_test": {},
    "image_test": {},
    "linalg_test": {},
    "fft_test": {},
    "lax_scipy_test": {},
    "lax_scipy_special_functions_test": {},
    "scipy_stats_test": {},
    "scipy_signal_test": {},
    "scipy_fft_test": {},
    "polynomial_test": {},
    "ode_test": {},
    "scipy_optimize_test": {},
    "scipy_ndimage_test": {},
    # files first measured in session 17
    "lobpcg_test": {"*": _EXPERIMENTAL_SPARSE},
    "svd_test": {
        f"SvdTest.{t}*": _TPU_LINALG
        for t in (
            "testSingularValues",
            "testSvdAllZero",
            "testSvdNonFiniteValues",
            "testSvdOnTinyElement",
            "testSvdWith",
        )
    },
    "stack_test": {"*": _TPU_LINALG},
    "util_test": {"*": _INTERNAL_HELPERS},
    "api_util_test": {"*": _INTERNAL_HELPERS},
    "jaxpr_util_test": {"*": _INTERNAL_HELPERS},
    "pretty_printer_test": {"*": _INTERNAL_HELPERS},
    "deprecation_test": {"*": _INTERNAL_HELPERS},
    "warnings_util_test": {"*": _INTERNAL_HELPERS},
    "core_test": {"*": _CORE_INTERNALS},
    "errors_test": {"*": _TRACEBACKS},
}


def reason(file: str, test: str) -> str | None:
    """Why ``test`` (``Class.test_name``) of ``file`` is out of scope, or None."""
    for pattern, why in OUT_OF_SCOPE.get(file, {}).items():
        if fnmatch.fnmatchcase(test, pattern):
            return why
    return None
