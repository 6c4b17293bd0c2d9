"""``make_user_context``: a value of the user's that ``jit`` caches depend on (JAX's).

Each context owns one slot of the configuration state's ``user`` tuple, so its value is part of
every ``jit`` cache key, as the other semantic settings are: a function traced under one value
is traced again under another.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterator
from typing import Any

from trellax._src.config import settings as _config

#: the default value of each context, by slot
_DEFAULTS: list[Any] = []


def _with_slot(values: tuple[Any, ...], slot: int, value: Any) -> tuple[Any, ...]:
    padded = values + tuple(_DEFAULTS[len(values) : slot + 1])
    return (*padded[:slot], value, *padded[slot + 1 :])


class UserContext:
    """A context whose value ``jit`` caches depend on: ``with ctx(v):`` sets it in a block,
    ``set_global(v)`` process-wide, ``value`` reads it."""

    def __init__(self, default_value: Any = None) -> None:
        self._check(default_value)
        self.slot = len(_DEFAULTS)
        _DEFAULTS.append(default_value)

    @staticmethod
    def _check(value: Any) -> None:
        if not isinstance(value, Hashable):
            raise TypeError(
                f"make_user_context values are part of jit cache keys and must be hashable; "
                f"got {type(value).__name__}"
            )

    @staticmethod
    def _read(st: _config.State, slot: int) -> Any:
        return st.user[slot] if slot < len(st.user) else _DEFAULTS[slot]

    @property
    def value(self) -> Any:
        """The value in force here."""
        return self._read(_config.state(), self.slot)

    def get_global(self) -> Any:
        """The process-wide value."""
        return self._read(_config._global_state[0], self.slot)

    def set_global(self, value: Any) -> None:
        """Sets the process-wide value (a ``with`` block still wins inside it)."""
        self._check(value)
        st = _config._global_state[0]
        _config._global_state[0] = st._replace(user=_with_slot(st.user, self.slot, value))

    @contextlib.contextmanager
    def __call__(self, value: Any) -> Iterator[None]:
        self._check(value)
        st = _config.state()
        with _config._Override(user=_with_slot(st.user, self.slot, value)):
            yield


def make_user_context(default_value: Any = None) -> UserContext:
    """A new context whose (hashable) value ``jit`` caches depend on: a jitted function called
    under another value is traced again.

    >>> import trellax
    >>> ctx = trellax.make_user_context(default_value=1)
    >>> with ctx(2):
    ...     print(ctx.value)
    2
    >>> ctx.value
    1
    """
    return UserContext(default_value)
