"""More of JAX's flags, the ones JAX's own tests and libraries set.

``explicit_x64_dtypes`` decides what an explicit 64-bit dtype request does with x64 off (warn and
truncate, JAX's default, raise, or allow it); ``legacy_prng_key`` (in ``jax_flags``) is honoured by
``trellax.random``. The rest are JAX internals accepted with their JAX default values only:
trellax has one way of doing what they choose between.
"""

from __future__ import annotations

from typing import Any

from trellax._src.config.flags import FlagState, parse_enum
from trellax._src.config.jax_flags import _bool_flag, _disable_jit
from trellax._src.config.settings import ExplicitX64Mode

#: JAX's ``config.disable_jit`` is the flag object (``.value``, and a context manager when
#: called); ``trellax.disable_jit`` is the function JAX exports as ``jax.disable_jit``
disable_jit = _disable_jit

_NOTHING = "no effect in trellax: "


def _parse_x64_mode(value: Any) -> ExplicitX64Mode:
    named = isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
    if named:
        try:
            return ExplicitX64Mode(value)  # a name ("allow") is read by _missing_
        except ValueError:
            pass
    raise ValueError(
        f"new enum value must be in {list(ExplicitX64Mode)} or one of their names "
        f"('warn', 'error', 'allow'), got {value!r} of type {type(value)}."
    )


explicit_x64_dtypes = FlagState(
    "explicit_x64_dtypes",
    ExplicitX64Mode.WARN,
    _parse_x64_mode,
    "what an explicit 64-bit dtype request (dtype=, astype, a 64-bit dtype given to result_type) "
    "does while x64 is off: WARN (truncate to 32 bits with a UserWarning, the default), ERROR "
    "(raise ValueError) or ALLOW (keep it: 64-bit arrays with x64 off, whose 64-bit dtype then "
    "survives promotion and reductions)",
    state_field="explicit_x64",
)
traceback_filtering = FlagState(
    "traceback_filtering",
    "auto",
    parse_enum(("off", "tracebackhide", "remove_frames", "quiet_remove_frames", "auto")),
    "which of trellax's frames an exception's traceback keeps once it leaves jit/grad/vmap/"
    "Module.init/apply: auto and off keep them all (trellax's default: its frames are plain "
    "Python, worth reading); tracebackhide marks them for pytest/IPython; remove_frames and "
    "quiet_remove_frames drop them (see trellax._src.core.traceback_filter)",
)
use_simplified_jaxpr_constants = _bool_flag(
    "use_simplified_jaxpr_constants",
    False,
    _NOTHING + "how JAX prints constants in jaxprs; trellax's jaxprs print one way",
)
# JAX's alternative implementations of one semantics: either value computes the same results
use_direct_linearize = _bool_flag(
    "use_direct_linearize", True, _NOTHING + "trellax has one linearization (same values)"
)
custom_vjp3 = _bool_flag(
    "custom_vjp3", False, _NOTHING + "trellax has one custom_vjp implementation (same values)"
)
disable_bwd_checks = _bool_flag(
    "disable_bwd_checks",
    False,
    "a custom_vjp bwd output whose shape differs from its argument's is passed on as it is, "
    "instead of raising ValueError (JAX's escape hatch, slated for removal there)",
)
# JAX names this flag object with its "jax_" prefix (``config.jax_ragged_dot_use_...``)
jax_ragged_dot_use_ragged_dot_instruction = _bool_flag(
    "ragged_dot_use_ragged_dot_instruction",
    True,
    _NOTHING + "how XLA lowers ragged_dot; trellax computes it one way (same values)",
)
remat3 = _bool_flag("remat3", False, _NOTHING + "trellax has one checkpoint (same values)")
pprint_use_color = _bool_flag(
    "pprint_use_color", True, _NOTHING + "trellax prints jaxprs without colours"
)
check_static_indices = _bool_flag(
    "check_static_indices", False, _NOTHING + "static indices are checked as JAX does by default"
)
include_full_tracebacks_in_locations = _bool_flag(
    "include_full_tracebacks_in_locations", True, _NOTHING + "there are no XLA locations"
)
traceback_in_locations_limit = FlagState(
    "traceback_in_locations_limit", 100, int, _NOTHING + "there are no XLA locations"
)
platform_name = FlagState(
    "platform_name",
    "",
    lambda v: v,
    "the platform JAX computes on by default; trellax has the CPU only ('' or 'cpu')",
    lambda v: None if v in (None, "", "cpu") else "trellax computes on the CPU only",
)
platforms = FlagState(
    "platforms",
    None,
    lambda v: v,
    "the platforms JAX may use; trellax has the CPU only (None or 'cpu')",
    lambda v: None if v in (None, "", "cpu") else "trellax computes on the CPU only",
)


def _parse_device_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"jax_num_cpu_devices must be an int, got {value!r}")
    if value == 0 or value < -1:
        raise ValueError(f"jax_num_cpu_devices must be -1 (the default) or positive, got {value}")
    return value


num_cpu_devices = FlagState(
    "num_cpu_devices",
    -1,
    _parse_device_count,
    "how many CPU devices to present (-1: the count XLA_FLAGS' "
    "--xla_force_host_platform_device_count gives, else 1). trellax's devices are views of one "
    "NumPy process: arrays are laid out over them by their sharding, shard_map runs one block "
    "per device, and collectives combine the blocks",
)
