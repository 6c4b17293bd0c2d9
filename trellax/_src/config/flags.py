"""JAX's other configuration flags: ``trellax.debug_nans``, ``numpy_rank_promotion``,
``default_matmul_precision``, ``transfer_guard`` and the rest, as JAX's flag objects.

Each flag is a :class:`FlagState`: calling it (``trellax.debug_nans(True)``) gives a context
manager (and decorator) that sets the flag in the current context (thread or asyncio task),
``.value`` reads it, and ``trellax.config.update("jax_debug_nans", True)`` /
``config.jax_debug_nans`` / ``config.read(...)`` set and read it process-wide. Flags with an
effect here: ``debug_nans``, ``debug_infs``, ``disable_jit`` (see ``_src/interpreters/op_by_op.py``) and
``numpy_rank_promotion`` (kept in :class:`~trellax._src.config.settings.State`, since it changes what a
traced function does and so belongs in every cache key). The others are accepted with their JAX
values and documented as having no effect (``docs/config.md``); a value whose behaviour trellax
does not have (``threefry_partitionable(False)``, ``debug_key_reuse(True)``) raises
``NotImplementedError`` instead of being silently ignored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from trellax._src.config import settings as _config
from trellax._src.config.settings import FLAGS


class _NoDefault:
    def __repr__(self) -> str:
        return "<no default>"


NO_DEFAULT: Any = _NoDefault()


def parse_bool(name: str) -> Callable[[Any], bool]:
    def parse(value: Any) -> bool:
        return _config._parse_bool(name, value)

    return parse


def parse_enum(choices: Sequence[str], allow_none: bool = False) -> Callable[[Any], Any]:
    """JAX's enum check, with its message."""

    def parse(value: Any) -> Any:
        if value is None and allow_none:
            return None
        if isinstance(value, str) and value in choices:
            return value
        none = "None or " if allow_none else ""
        raise ValueError(
            f"new enum value must be {none}in {list(choices)}, got {value} of type {type(value)}."
        )

    return parse


def parse_any(value: Any) -> Any:
    return value


#: Values set process-wide (``config.update``), by flag name (without ``jax_``).
_global: dict[str, Any] = {}
#: Context-local overrides: the whole mapping of overridden flags (immutable, replaced on set).
_local: ContextVar[Mapping[str, Any]] = ContextVar(
    "trellax_config_flags", default=MappingProxyType({})
)
#: The overrides each context is inside, innermost last: the mapping each one replaced.
_saved: ContextVar[tuple[Mapping[str, Any], ...]] = ContextVar("trellax_flags_saved", default=())


class FlagState:
    """One JAX flag: ``flag(value)`` is a context manager, ``flag.value`` the value in force.

    ``supported(value)`` returns None when trellax can honour ``value``, else the reason it
    cannot (raised as ``NotImplementedError``); ``on_change`` runs after every change (the
    op-by-op trace uses it).
    """

    def __init__(
        self,
        name: str,
        default: Any,
        parse: Callable[[Any], Any],
        doc: str,
        supported: Callable[[Any], str | None] | None = None,
        state_field: str | None = None,
        cm_default: Any = NO_DEFAULT,
    ) -> None:
        self.name = name
        self.default = default
        self.parse = parse
        self.__doc__ = doc
        self.supported = supported
        #: the :class:`~trellax._src.config.settings.State` field that holds this flag, if any
        self.state_field = state_field
        self.on_change: Callable[[], None] | None = None
        #: the value of ``flag()`` without an argument (True for JAX's boolean flags)
        self.cm_default = cm_default
        FLAGS[name] = self

    def __repr__(self) -> str:
        return f"trellax.{self.name} (a JAX flag; value {self.value!r})"

    @property
    def value(self) -> Any:
        if self.state_field is not None:
            return getattr(_config.state(), self.state_field)
        local = _local.get()
        if self.name in local:
            return local[self.name]
        return _global.get(self.name, self.default)

    def check(self, value: Any) -> Any:
        value = self.parse(value)
        if self.supported is not None:
            reason = self.supported(value)
            if reason is not None:
                raise NotImplementedError(f"{self.name}={value!r}: {reason}")
        return value

    def set_global(self, value: Any) -> None:
        value = self.check(value)
        if self.state_field is not None:
            current = _config._global_state[0]
            _config._global_state[0] = current._replace(**{self.state_field: value})
        else:
            _global[self.name] = value
        if self.on_change is not None:
            self.on_change()

    def __call__(self, new_val: Any = NO_DEFAULT) -> contextlib.AbstractContextManager[None]:
        if new_val is NO_DEFAULT:
            if self.cm_default is NO_DEFAULT:
                raise TypeError(
                    f"Context manager for {self.name} config option requires an argument "
                    "representing the new value for the config option."
                )
            new_val = self.cm_default
        value = self.check(new_val)
        if self.state_field is not None:
            return _config._Override(**{self.state_field: value})  # type: ignore[return-value]
        return _FlagContext(self, value)


class _FlagContext(contextlib.ContextDecorator):
    """Sets one flag in the current context for a ``with`` block or a decorated function."""

    def __init__(self, flag: FlagState, value: Any) -> None:
        self._flag = flag
        self._value = value

    def __enter__(self) -> None:
        _saved.set((*_saved.get(), _local.get()))
        _local.set(MappingProxyType({**_local.get(), self._flag.name: self._value}))
        if self._flag.on_change is not None:
            self._flag.on_change()

    def __exit__(self, *exc: object) -> None:
        stack = _saved.get()
        if not stack:
            raise RuntimeError(f"a `with {self._flag.name}(...)` block left another context")
        _saved.set(stack[:-1])
        _local.set(stack[-1])
        if self._flag.on_change is not None:
            self._flag.on_change()
