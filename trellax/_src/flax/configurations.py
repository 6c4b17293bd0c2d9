"""``flax.configurations``: Flax's feature flags, read as ``config.<name>`` and set with
``config.update(name, value)``.

Every flag Flax 0.12.8 defines exists here with Flax's default, and can be set at start-up from
the environment variable of its upper-case name (``FLAX_USE_ORBAX_CHECKPOINTING=0``). Programs
set them; which ones change what trellax does is listed in docs/flax.md (most concern Flax's
internals and are accepted without effect).

Example::

    >>> config.flax_fix_rng_separator
    False
    >>> with config.temp_flip_flag("fix_rng_separator", True):
    ...     config.flax_fix_rng_separator
    True
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any, Generic, NoReturn, TypeVar

from trellax._src.nn.flax_hooks import FLAX_HOOKS

_T = TypeVar("_T")


class Config:
    """The table of flag values; each flag is also a read-only attribute."""

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}

    def _add_option(self, name: str, default: Any) -> None:
        if name in self._values:
            raise RuntimeError(f"Config option {name} already defined")
        self._values[name] = default

    def _read(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise LookupError(f"Unrecognized config option: {name}") from None

    def update(self, name_or_holder: str | FlagHolder[Any], value: Any, /) -> None:
        """Sets a flag, named by its name or by its ``FlagHolder``."""
        name = name_or_holder.name if isinstance(name_or_holder, FlagHolder) else name_or_holder
        if name not in self._values:
            raise LookupError(f"Unrecognized config option: {name}")
        self._values[name] = value

    def __repr__(self) -> str:
        entries = ", ".join(f"\n  {k}={v!r}" for k, v in self._values.items())
        return f"Config({entries}\n)"

    @contextlib.contextmanager
    def temp_flip_flag(self, var_name: str, var_value: bool) -> Iterator[None]:
        """Sets ``flax_<var_name>`` to ``var_value`` inside the ``with`` block."""
        name = f"flax_{var_name}"
        old = self._read(name)
        try:
            self.update(name, var_value)
            yield
        finally:
            self.update(name, old)


config = Config()


class FlagHolder(Generic[_T]):
    """A handle on one flag: ``holder.value`` reads it (``bool(holder)`` is refused)."""

    def __init__(self, name: str, help: str) -> None:
        self.name = name
        self.__name__ = name[len("flax_") :] if name.startswith("flax_") else name
        self.__doc__ = f"Flag holder for `{name}`.\n\n{help}"

    def __bool__(self) -> NoReturn:
        raise TypeError(
            f"bool() not supported for instances of type '{type(self).__name__}' "
            f"(did you mean to use '{type(self).__name__}.value' instead?)"
        )

    @property
    def value(self) -> _T:
        """The flag's current value."""
        result: _T = config._read(self.name)
        return result


def static_bool_env(varname: str, default: bool) -> bool:
    """The boolean in environment variable ``varname`` (y/yes/t/true/on/1 or
    n/no/f/false/off/0, any case), or ``default`` when it is unset."""
    value = os.getenv(varname, str(default)).lower()
    if value in ("y", "yes", "t", "true", "on", "1"):
        return True
    if value in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"invalid truth value {value!r} for environment {varname!r}")


def static_int_env(varname: str, default: int | None) -> int | None:
    """The integer in environment variable ``varname``, or ``default`` when it is unset."""
    value = os.getenv(varname)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"invalid integer value {value!r} for environment {varname!r}") from None


def _property(holder: FlagHolder[Any], help: str) -> property:
    return property(lambda _self: holder.value, doc=help)


def bool_flag(name: str, *, default: bool, help: str) -> FlagHolder[bool]:
    """Defines a boolean flag ``name`` (lower-cased), settable from the environment variable of
    the upper-cased name; returns its holder."""
    name = name.lower()
    config._add_option(name, static_bool_env(name.upper(), default))
    holder = FlagHolder[bool](name, help)
    setattr(Config, name, _property(holder, help))
    return holder


def int_flag(name: str, *, default: int | None, help: str) -> FlagHolder[int]:
    """Defines an integer flag ``name`` (lower-cased), like :func:`bool_flag`."""
    name = name.lower()
    config._add_option(name, static_int_env(name.upper(), default))
    holder = FlagHolder[int](name, help)
    setattr(Config, name, _property(holder, help))
    return holder


# Flax 0.12.8's flags, with its defaults.
flax_filter_frames = bool_flag(
    "flax_filter_frames", default=True, help="Hide library-internal frames from tracebacks."
)
flax_profile = bool_flag(
    "flax_profile", default=True, help="Run Module methods under a named scope for profiles."
)
flax_use_orbax_checkpointing = bool_flag(
    "flax_use_orbax_checkpointing",
    default=True,
    help="Flax saves checkpoints with Orbax; trellax has no Orbax and always writes Flax's "
    "msgpack checkpoint files.",
)
flax_preserve_adopted_names = bool_flag(
    "flax_preserve_adopted_names",
    default=False,
    help="When adopting outside modules, keep their existing names.",
)
flax_return_frozendict = bool_flag(
    "flax_return_frozendict",
    default=False,
    help="Return FrozenDicts (instead of dicts) from init and apply.",
)
FLAX_HOOKS["preserve_adopted_names"] = lambda: flax_preserve_adopted_names.value
FLAX_HOOKS["return_frozendict"] = lambda: flax_return_frozendict.value  # read by init/apply
flax_fix_rng = bool_flag(
    "flax_fix_rng_separator",
    default=False,
    help="Add separator characters when folding static data into PRNG keys.",
)
FLAX_HOOKS["fix_rng_separator"] = lambda: flax_fix_rng.value  # read by make_rng
flax_use_flaxlib = bool_flag(
    "flax_use_flaxlib", default=False, help="Use flaxlib (C++) acceleration."
)
flax_array_ref = bool_flag("flax_array_ref", default=False, help="Use array refs.")
flax_pytree_module = bool_flag(
    "flax_pytree_module", default=True, help="Modules are pytrees by default."
)
flax_max_repr_depth = int_flag(
    "flax_max_repr_depth",
    default=None,
    help="Maximum depth of reprs of nested Flax objects (None: no limit).",
)
flax_always_shard_variable = bool_flag(
    "flax_always_shard_variable",
    default=True,
    help="An nnx.Variable with sharding annotations is always sharded.",
)
flax_hijax_variable = bool_flag(
    "flax_hijax_variable", default=False, help="HiJAX support for nnx.Variable."
)
nnx_graph_mode = bool_flag(
    "nnx_graph_mode", default=True, help="NNX APIs default to graph mode (else tree mode)."
)
nnx_graph_updates = bool_flag(
    "nnx_graph_updates",
    default=True,
    help="Graph mode uses dynamic (True) or simple (False) graph traversal.",
)
