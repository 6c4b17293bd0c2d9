"""JAX's flags as trellax flag objects (``trellax.debug_nans``, ``trellax.transfer_guard``, ...).

Flags with an effect: ``debug_nans``, ``debug_infs``, ``disable_jit`` (``_src/interpreters/op_by_op.py``),
``check_tracer_leaks`` (``_src/core/leaks.py``),
``numpy_rank_promotion`` (``_src/numpy/util.py``) and ``log_compiles`` (``_src/api/api.py``). The others are accepted with JAX's values and
change nothing, each for the reason in its doc (``docs/config.md`` lists them); a value asking
for behaviour trellax does not have raises ``NotImplementedError``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from trellax._src.config.flags import FlagState, parse_any, parse_bool, parse_enum


def _bool_flag(name: str, default: bool, doc: str, only: bool | None = None) -> FlagState:
    """A boolean flag; ``only`` is the one value trellax can honour (None: both)."""

    def supported(value: Any) -> str | None:
        if only is None or value == only:
            return None
        return f"not supported by trellax ({doc})"

    return FlagState(name, default, parse_bool(name), doc, supported, cm_default=True)


def _enum_flag(
    name: str, default: Any, choices: tuple[str, ...], doc: str, allow_none: bool = True
) -> FlagState:
    return FlagState(name, default, parse_enum(choices, allow_none), doc)


# -- flags with an effect ---------------------------------------------------------------------------

debug_nans = _bool_flag(
    "debug_nans",
    False,
    "raise FloatingPointError when an operation produces a NaN, eagerly and under jit (which "
    "then runs op by op)",
)
debug_infs = _bool_flag(
    "debug_infs",
    False,
    "raise FloatingPointError when an operation produces an infinity, eagerly and under jit",
)
numpy_rank_promotion = FlagState(
    "numpy_rank_promotion",
    "allow",
    parse_enum(("allow", "warn", "raise")),
    "what an elementwise trellax.numpy function does when its operands have different ranks: "
    "broadcast ('allow'), broadcast with a UserWarning ('warn'), or raise ValueError ('raise')",
    state_field="rank_promotion",
)
check_tracer_leaks = _bool_flag(
    "check_tracer_leaks",
    False,
    "when a transformation (jit, vmap, grad, a loop body...) returns, raise LeakedTracerError "
    "if one of its tracers is still reachable (stored in a global, a list, an attribute, a "
    "closure), naming it and what holds it; costs one garbage collection per trace "
    "(_src/core/leaks.py)",
)
_disable_jit = _bool_flag(
    "disable_jit", False, "jit-decorated functions run op by op, eagerly (as if not jitted)"
)


def disable_jit(disable: bool = True) -> contextlib.AbstractContextManager[None]:
    """Inside this block a ``jit``-decorated function runs its Python body op by op, eagerly (its
    arguments as they were passed), as if it were not jitted: ``print`` inside it runs on every
    call and sees concrete values.

    >>> import trellax
    >>> f = trellax.jit(lambda x: (print(type(x).__name__), x * 2)[1])
    >>> with trellax.disable_jit():
    ...     _ = f(1.0)
    float
    """
    return _disable_jit(disable)


# -- flags accepted with no effect here -------------------------------------------------------------

_NOTHING = "no effect in trellax: "
_ONE_DEVICE = _NOTHING + "one CPU device computed by NumPy, nothing is transferred"
_TRANSFER = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
_PRECISIONS = (
    "default", "high", "highest", "bfloat16", "tensorfloat32", "float32",
    "ANY_F8_ANY_F8_F32", "ANY_F8_ANY_F8_F32_FAST_ACCUM", "ANY_F8_ANY_F8_ANY",
    "ANY_F8_ANY_F8_ANY_FAST_ACCUM", "F16_F16_F16", "F16_F16_F32", "BF16_BF16_BF16",
    "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "BF16_BF16_F32_X9",
    "TF32_TF32_F32", "TF32_TF32_F32_X3", "F32_F32_F32", "F64_F64_F64",
)  # fmt: skip

allow_f16_reductions = _bool_flag(
    "allow_f16_reductions",
    True,
    "with False, lax.reduce_sum of a float16 or bfloat16 operand over an axis longer than 1 "
    "raises ValueError (trellax.numpy's sums compute in float32 and are not affected)",
)
array_garbage_collection_guard = _enum_flag(
    "array_garbage_collection_guard",
    None,
    ("allow", "log", "fatal"),
    _NOTHING + "arrays are NumPy buffers freed by Python's garbage collector",
)
debug_key_reuse = _bool_flag(
    "debug_key_reuse", False, "key-reuse checking is not implemented in trellax", only=False
)
default_matmul_precision = _enum_flag(
    "default_matmul_precision",
    None,
    _PRECISIONS,
    _NOTHING + "NumPy computes products at the operands' precision (as lax.Precision)",
)
default_prng_impl = FlagState(
    "default_prng_impl",
    "threefry2x32",
    parse_enum(("threefry2x32", "rbg", "unsafe_rbg")),
    "trellax.random implements threefry2x32 only",
    lambda v: None if v == "threefry2x32" else "trellax.random implements threefry2x32 only",
)
enable_checks = _bool_flag(
    "enable_checks", False, _NOTHING + "trellax's abstract-evaluation checks always run"
)
enable_custom_prng = _bool_flag(
    "enable_custom_prng", False, _NOTHING + "a deprecated JAX flag for key types"
)
explain_cache_misses = _bool_flag(
    "explain_cache_misses", False, _NOTHING + "jit cache misses are not logged"
)
jax2tf_associative_scan_reductions = _bool_flag(
    "jax2tf_associative_scan_reductions", False, _NOTHING + "there is no jax2tf"
)
legacy_prng_key = FlagState(
    "legacy_prng_key",
    "allow",
    parse_enum(("allow", "warn", "error")),
    "what trellax.random does with a legacy uint32 key: accept it ('allow'), accept it with a "
    "UserWarning ('warn') or raise ValueError ('error'); typed keys (random.key) are always "
    "accepted",
)


def _parse_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"new int value must be an int, got {value!r} of type {type(value)}.")
    return value


random_seed_offset = FlagState(
    "random_seed_offset",
    0,
    _parse_int,
    "an integer added to every seed given to random.key and random.PRNGKey before the key is "
    "made (so one program draws other numbers under another offset); part of the jit cache key",
    state_field="seed_offset",
)
log_compiles = _bool_flag(
    "log_compiles",
    False,
    "log a WARNING on the 'trellax' logger each time a jitted function is traced and compiled",
)
no_execution = _bool_flag(
    "no_execution", False, "refusing to execute is not implemented in trellax", only=False
)
no_tracing = _bool_flag(
    "no_tracing",
    False,
    "raise RuntimeError when jit would trace a function (a call that misses its cache): a check "
    "that a loop reuses its compiled programs",
)
softmax_custom_jvp = _bool_flag(
    "softmax_custom_jvp", False, _NOTHING + "softmax's derivative is the same either way"
)
thread_guard = _bool_flag("thread_guard", False, _ONE_DEVICE)
threefry_partitionable = _bool_flag(
    "threefry_partitionable",
    True,
    "trellax.random draws the bits of JAX's default, threefry_partitionable=True",
    only=True,
)
#: ``jax_transfer_guard``: the value of the three guards below where they are not set
transfer_guard_all = _enum_flag("transfer_guard", None, _TRANSFER, _ONE_DEVICE)


class _TransferGuard(FlagState):
    """One direction's guard; unset, it reads ``jax_transfer_guard`` (as JAX's do)."""

    @property
    def value(self) -> Any:
        own = super().value
        return transfer_guard_all.value if own is None else own


transfer_guard_host_to_device = _TransferGuard(
    "transfer_guard_host_to_device", None, parse_enum(_TRANSFER, True), _ONE_DEVICE
)
transfer_guard_device_to_device = _TransferGuard(
    "transfer_guard_device_to_device", None, parse_enum(_TRANSFER, True), _ONE_DEVICE
)
transfer_guard_device_to_host = _TransferGuard(
    "transfer_guard_device_to_host", None, parse_enum(_TRANSFER, True), _ONE_DEVICE
)
auto_pcast = _bool_flag("auto_pcast", True, _NOTHING + "no sharding-in-types here")
remove_size_one_mesh_axis_from_type = _bool_flag(
    "remove_size_one_mesh_axis_from_type", False, _NOTHING + "no meshes here"
)
default_device = FlagState(
    "default_device",
    None,
    parse_any,
    "the device new arrays go to: None or trellax.devices()[0], the one CPU device",
    lambda v: (
        None
        if v is None or v == "cpu" or repr(v) == "CpuDevice(id=0)"
        else ("trellax has one device, CpuDevice(id=0)")
    ),
)


@contextlib.contextmanager
def transfer_guard(new_val: str) -> Iterator[None]:
    """Sets all three transfer guards (no effect: one CPU device, nothing is transferred)."""
    with contextlib.ExitStack() as stack:
        for f in (
            transfer_guard_host_to_device,
            transfer_guard_device_to_device,
            transfer_guard_device_to_host,
        ):
            stack.enter_context(f(new_val))
        yield


def checking_leaks() -> contextlib.AbstractContextManager[None]:
    """``check_tracer_leaks(True)`` for a ``with`` block: a transformation whose tracer outlives
    it raises ``LeakedTracerError`` when it returns.

    >>> import trellax
    >>> saved = []
    >>> with trellax.checking_leaks():
    ...     try:
    ...         trellax.jit(lambda x: saved.append(x) or x)(1.0)
    ...     except Exception as e:
    ...         print(str(e).splitlines()[0])
    Leaked trace DynamicJaxprTrace. Leaked tracer(s):
    """
    return check_tracer_leaks(True)


#: For tests and docs: the flags trellax accepts without an effect.
NO_EFFECT: tuple[FlagState, ...] = tuple(
    f
    for f in globals().values()
    if isinstance(f, FlagState) and f.__doc__ and _NOTHING in f.__doc__
)
