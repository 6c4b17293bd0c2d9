"""Flags that change semantics: ``enable_x64``, ``numpy_dtype_promotion`` and
``fused_excess_precision``.

Each flag has a process-wide value (``config.update``, or an environment variable read at import)
and a context-local override (the context managers ``enable_x64(...)`` and
``numpy_dtype_promotion(...)``, which nest, restore on exceptions and are local to a thread or an
asyncio task). Reading the current state is on the hot path of every operation, so the pair of
flags is kept as one precomputed, hashable :class:`State` that caches use as part of their key.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import itertools
import os
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, Literal, NamedTuple, Protocol

PromotionMode = Literal["standard", "strict"]
PROMOTION_MODES: tuple[PromotionMode, ...] = ("standard", "strict")


class ExplicitX64Mode(enum.IntEnum):
    """What an explicit 64-bit dtype request does while x64 is off (JAX's
    ``jax_explicit_x64_dtypes``): WARN truncates it to 32 bits with a UserWarning (the default),
    ERROR raises ValueError, ALLOW keeps it (64-bit arrays with x64 off)."""

    WARN = 1
    ERROR = 2
    ALLOW = 3

    @classmethod
    def _missing_(cls, value: object) -> ExplicitX64Mode | None:
        if isinstance(value, str) and value.upper() in cls.__members__:
            return cls[value.upper()]
        return None


class State(NamedTuple):
    """The semantic configuration in force; part of every promotion and jit cache key."""

    x64: bool
    mode: PromotionMode
    #: Fused regions of ``jit`` programs may hold bfloat16/float16 values in float32 and round
    #: only at the region's outputs (see ``docs/performance.md``). Off: bit-identical results.
    excess: bool = False
    #: ``numpy_rank_promotion``: "allow", "warn" or "raise" (``_src/config/flags.py``)
    rank_promotion: str = "allow"
    #: ``explicit_x64_dtypes``: what a 64-bit ``dtype=`` request does with x64 off
    explicit_x64: ExplicitX64Mode = ExplicitX64Mode.WARN
    #: the values of the contexts made by ``make_user_context`` (``_src/config/user_context.py``)
    user: tuple[Any, ...] = ()
    #: ``random_seed_offset``: added to the seeds of ``random.key``/``PRNGKey`` (a traced
    #: program's constants depend on it, so it is part of the jit cache key, as in JAX)
    seed_offset: int = 0


def keeps_x64(st: State) -> bool:
    """Whether 64-bit dtypes stay 64-bit in this state: x64 is on, or explicit 64-bit requests
    are allowed (``explicit_x64_dtypes="allow"``), so a 64-bit array meeting a 32-bit one, or
    reduced, computes in 64 bits (with x64 off and the default "warn", in 32 bits)."""
    return st.x64 or st.explicit_x64 is ExplicitX64Mode.ALLOW


_TRUE = ("1", "true", "yes", "on", "t", "y")
_FALSE = ("0", "false", "no", "off", "f", "n", "")


def _parse_bool(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(
        f"{name} must be a bool (or one of the strings {', '.join(_TRUE + _FALSE[:-1])}); "
        f"got {value!r}"
    )


def _parse_mode(value: object, name: str = "numpy_dtype_promotion") -> PromotionMode:
    if isinstance(value, str) and value in PROMOTION_MODES:
        return value  # type: ignore[return-value,unused-ignore]
    raise ValueError(
        f"{value!r} is not a valid {name}; valid values are "
        + ", ".join(repr(m) for m in PROMOTION_MODES)
    )


def _from_env() -> State:
    x64_env = os.environ.get("TRELLAX_ENABLE_X64")
    mode_env = os.environ.get("TRELLAX_NUMPY_DTYPE_PROMOTION")
    excess_env = os.environ.get("TRELLAX_FUSED_EXCESS_PRECISION")
    x64 = False if x64_env is None else _parse_bool("TRELLAX_ENABLE_X64", x64_env)
    excess = (
        False if excess_env is None else _parse_bool("TRELLAX_FUSED_EXCESS_PRECISION", excess_env)
    )
    mode = (
        "standard"
        if mode_env is None
        else _parse_mode(mode_env.strip().lower(), "TRELLAX_NUMPY_DTYPE_PROMOTION")
    )
    return State(x64, mode, excess)


def _running_cli() -> bool:
    """Whether this process is the ``trellax`` command (the console script or ``python -m
    trellax``), which reports a bad environment variable in one line instead of a traceback."""
    argv = getattr(sys, "argv", None) or [""]
    orig = list(getattr(sys, "orig_argv", []))
    as_module = any(a == "-m" and b == "trellax" for a, b in itertools.pairwise(orig))
    return as_module or os.path.basename(argv[0]) == "trellax"


def _initial_state() -> State:
    try:
        return _from_env()
    except ValueError as e:
        if not _running_cli():
            raise
        sys.stderr.write(f"trellax: error: {e}\n")
        raise SystemExit(2) from None


_global_state: list[State] = [_initial_state()]


class Flag(Protocol):
    """What the configuration reads of JAX's other flags (``config/flags.py``: ``FlagState``)."""

    @property
    def value(self) -> Any: ...

    def set_global(self, value: Any) -> None: ...


#: JAX's other flags by name, filled by ``config/flags.py`` as each flag is made: the flags read
#: the State and ``config.update``/``read`` reach the flags through this table.
FLAGS: dict[str, Flag] = {}


def find_flag(name: str) -> Flag | None:
    """The flag called ``name`` (``debug_nans``, ``jax_debug_nans``), or None."""
    return FLAGS.get(name.removeprefix("trellax_").removeprefix("jax_"))


_local_state: ContextVar[State | None] = ContextVar("trellax_config_state", default=None)


def state() -> State:
    """The configuration in force here (context-local override, else the global value)."""
    local = _local_state.get()
    return _global_state[0] if local is None else local


class Config:
    """``trellax.config``: read flags as attributes, set them with :meth:`update`."""

    _FLAGS = ("enable_x64", "numpy_dtype_promotion", "fused_excess_precision")

    @property
    def enable_x64(self) -> bool:
        return state().x64

    @property
    def numpy_dtype_promotion(self) -> PromotionMode:
        return state().mode

    @property
    def x64_enabled(self) -> bool:
        return state().x64

    @property
    def fused_excess_precision(self) -> bool:
        return state().excess

    @property
    def trellax_fused_excess_precision(self) -> bool:
        return state().excess

    # JAX's flag names, so that ported configuration lines work unchanged
    @property
    def jax_enable_x64(self) -> bool:
        return state().x64

    @property
    def jax_numpy_dtype_promotion(self) -> PromotionMode:
        return state().mode

    def __getattr__(self, name: str) -> Any:
        """JAX's other flags (``config.jax_debug_nans``), from ``_src/config/flags.py``."""

        if name.startswith(("jax_", "trellax_")) and (f := find_flag(name)) is not None:
            return f.value
        raise AttributeError(f"'Config' object has no attribute {name!r}")

    def _flag(self, name: str) -> str:
        """The flag a name means: ``enable_x64``, ``jax_enable_x64`` and ``trellax_enable_x64``
        are one flag."""

        flag = name.removeprefix("trellax_").removeprefix("jax_")
        if flag not in self._FLAGS and find_flag(name) is None:
            raise AttributeError(
                f"Unrecognized config option: {name}; valid options are "
                + ", ".join(repr(f) for f in self._FLAGS)
                + " (JAX's names with a jax_ prefix are accepted too)"
            )
        return flag

    def update(self, name: str, value: object) -> None:
        """Sets a flag process-wide: ``config.update("enable_x64", True)``.

        Context-local overrides (``with trellax.enable_x64(...)``) still win inside their block.
        """
        name = self._flag(name)
        current = _global_state[0]
        if name not in self._FLAGS:
            FLAGS[name].set_global(value)
        elif name == "enable_x64":
            _global_state[0] = current._replace(x64=_parse_bool(name, value))
        elif name == "fused_excess_precision":
            _global_state[0] = current._replace(excess=_parse_bool(name, value))
        else:
            _global_state[0] = current._replace(mode=_parse_mode(value))

    def read(self, name: str) -> object:
        """The current value of a flag, by name."""
        flag = self._flag(name)
        if flag not in self._FLAGS:
            return FLAGS[flag].value
        return getattr(self, flag)

    _read = read

    def parse_flags_with_absl(self) -> None:
        """Applies JAX flags given on the command line (``--jax_enable_x64``,
        ``--jax_numpy_rank_promotion=raise``, ``--nojax_debug_nans``), as JAX does with absl;
        other arguments are left alone, so without such flags this does nothing."""
        import sys  # only here: the command line is read once, when asked

        for arg in sys.argv[1:]:
            if not arg.startswith("--") or "jax_" not in arg:
                continue
            name, eq, value = arg[2:].partition("=")
            negated = name.startswith("no") and name[2:].startswith("jax_")
            if negated:
                name = name[2:]
            if not name.startswith("jax_"):
                continue
            try:
                self._flag(name)
            except AttributeError:
                continue
            self.update(name, (not negated) if not eq else value)
        # As JAX, mark absl's flags parsed (with the JAX flags of the command line), so that
        # absl users such as absltest's temporary directories work; only when the program
        # has imported absl (trellax does not import it).
        absl_flags = sys.modules.get("absl.flags")
        if absl_flags is not None and not absl_flags.FLAGS.is_parsed():
            jax_argv = [sys.argv[0], *(a for a in sys.argv[1:] if a.startswith("--jax"))]
            absl_flags.FLAGS(jax_argv, known_only=True)

    def config_with_absl(self) -> None:
        """As :meth:`parse_flags_with_absl` (JAX registers its flags with absl here)."""
        self.parse_flags_with_absl()

    def __repr__(self) -> str:
        s = state()
        return (
            f"Config(enable_x64={s.x64}, numpy_dtype_promotion={s.mode!r}, "
            f"fused_excess_precision={s.excess})"
        )


config = Config()


#: The overrides each context (thread, asyncio task) is inside, innermost last: the state each
#: one replaced. Kept per context rather than on the context-manager object, so that one
#: ``enable_x64(True)`` object can be entered from several threads or tasks at once, and
#: re-entered, each ``with`` restoring exactly what its own context had.
_saved: ContextVar[tuple[State | None, ...]] = ContextVar("trellax_config_saved", default=())


class _Override(contextlib.ContextDecorator):
    """A context manager (and decorator) that sets one flag in the current context."""

    def __init__(self, **changes: Any) -> None:
        self._changes = changes

    def __enter__(self) -> State:
        previous = _local_state.get()
        new = (_global_state[0] if previous is None else previous)._replace(**self._changes)
        _saved.set((*_saved.get(), previous))
        _local_state.set(new)
        return new

    def __exit__(self, *exc: object) -> None:
        stack = _saved.get()
        if not stack:
            raise RuntimeError(
                "trellax config override exited in a context it was not entered in (a `with "
                "enable_x64(...)` block must be left in the thread or task that entered it)"
            )
        _saved.set(stack[:-1])
        _local_state.set(stack[-1])


def enable_x64(new_val: bool = True) -> _Override:
    """Turns 64-bit types on (or off) inside a ``with`` block or a decorated function.

    >>> import trellax, trellax.numpy as tnp
    >>> with trellax.enable_x64(True):
    ...     tnp.asarray(1).dtype
    dtype('int64')
    """
    return _Override(x64=_parse_bool("enable_x64", new_val))


def numpy_dtype_promotion(new_val: str) -> _Override:
    """Sets the promotion mode (``"standard"`` or ``"strict"``) inside a block or function."""
    return _Override(mode=_parse_mode(new_val))


def fused_excess_precision(new_val: bool = True) -> _Override:
    """Lets fused regions of ``jit`` programs compute bfloat16/float16 work in float32, rounding
    only where a value leaves the region or is converted to a narrow type, inside a block or a
    decorated function (read when a program is compiled; part of the ``jit`` cache key).

    >>> import trellax
    >>> with trellax.fused_excess_precision(True):
    ...     trellax.config.fused_excess_precision
    True
    """
    return _Override(excess=_parse_bool("fused_excess_precision", new_val))


class _StateFlag:
    """``enable_x64`` and friends as JAX's flag objects: called, a context manager (and
    decorator); ``.value`` the value in force here."""

    def __init__(self, fn: Callable[..., _Override], field: str, name: str) -> None:
        self._fn = fn
        self._field = field
        self.name = name
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> _Override:
        return self._fn(*args, **kwargs)

    @property
    def value(self) -> Any:
        return getattr(state(), self._field)

    def __repr__(self) -> str:
        return f"trellax.{self.name} (a flag; value {self.value!r})"


enable_x64_flag = _StateFlag(enable_x64, "x64", "enable_x64")
numpy_dtype_promotion_flag = _StateFlag(numpy_dtype_promotion, "mode", "numpy_dtype_promotion")


@contextlib.contextmanager
def _state(s: State) -> Iterator[State]:
    """Internal: run a block under an exact state (tests and tools iterate over all four)."""
    token = _local_state.set(s)
    try:
        yield s
    finally:
        _local_state.reset(token)
