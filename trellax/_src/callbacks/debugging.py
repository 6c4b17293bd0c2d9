"""``trellax.debug``: ``print``, ``callback`` and ``breakpoint`` that work inside ``jit`` and
``vmap`` (JAX's ``jax.debug``)."""

from __future__ import annotations

import logging
import string
import sys
from typing import Any

import numpy as np

from trellax._src.callbacks.callbacks import debug_callback
from trellax._src.core.basearray import Array
from trellax._src.tree.tree_util import tree_leaves


def debug_print(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    _use_logging: bool = False,
    **kwargs: Any,
) -> Any:
    """Prints ``fmt.format(*args, **kwargs)`` with the arrays' values: at once eagerly, when the
    compiled program runs under ``jit``, once per batch element under ``vmap``.

    As JAX's: arguments the format does not use raise ``ValueError`` (unless
    ``skip_format_check``); arguments that are not arrays (a dtype, a string) are formatted as
    given; NumPy's print options in effect at the call apply; without ``fmt`` it is the two-call
    form ``debug.print(ordered=True)("x: {x}", x=x)``. ``_use_logging`` writes to the logger
    ``trellax.debug`` (level INFO) instead of standard output.

    >>> import trellax, trellax.numpy as tnp
    >>> trellax.jit(lambda x: trellax.debug.print("x={x}", x=x))(tnp.arange(3))
    x=[0 1 2]
    """
    if fmt is None:
        if args or kwargs:
            raise TypeError(
                "debug_print received unexpected arguments in the two-call form: "
                f"args={args} kwargs={kwargs}"
            )

        def second(fmt: str, *a: Any, **k: Any) -> None:
            _print(fmt, a, k, ordered, skip_format_check, _use_logging)

        return second
    _print(fmt, args, kwargs, ordered, skip_format_check, _use_logging)
    return None


def _check_format(fmt: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """JAX's check that the format uses every argument (an f-string passed by mistake uses
    none)."""
    named: set[str] = set()
    positions: set[int] = set()
    automatic = 0
    for _, field, _, _ in string.Formatter().parse(fmt):
        if field is None:
            continue
        head = field.split(".", 1)[0].split("[", 1)[0]
        if head == "":
            positions.add(automatic)
            automatic += 1
        elif head.isdigit():
            positions.add(int(head))
        else:
            named.add(head)
    # a field naming an argument not given fails as str.format does (JAX formats first)
    for name in sorted(named):
        if name not in kwargs:
            raise KeyError(name)
    for i in sorted(positions):
        if i >= len(args):
            raise IndexError(f"Replacement index {i} out of range for positional args tuple")
    unused_kw = [k for k in kwargs if k not in named]
    if unused_kw:
        raise ValueError(
            f"Unused keyword arguments to `jax.debug.print`: {unused_kw}. You may be passing an "
            'f-string (i.e, `f"{x}"`) into `jax.debug.print` and instead should pass in a '
            "regular string."
        )
    unused_pos = [i for i in range(len(args)) if i not in positions]
    if unused_pos:
        raise ValueError(
            f"Unused positional arguments to `jax.debug.print`: {unused_pos}. You may be "
            'passing an f-string (i.e, `f"{x}"`) into `jax.debug.print` and instead should pass '
            "in a regular string."
        )


def _is_static(x: Any) -> bool:
    """An argument formatted as given (not passed through the program as an array)."""
    arraylike = (Array, np.ndarray, np.generic, bool, int, float, complex)
    return any(not isinstance(leaf, arraylike) for leaf in tree_leaves(x))


def _print(
    fmt: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    ordered: bool,
    skip_format_check: bool,
    use_logging: bool,
) -> None:
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print's format must be a string, got {type(fmt).__name__}")
    if not skip_format_check:
        _check_format(fmt, args, kwargs)
    options = np.get_printoptions()
    static_args = {i: a for i, a in enumerate(args) if _is_static(a)}
    static_kwargs = {k: v for k, v in kwargs.items() if _is_static(v)}
    dynamic_args = [a for i, a in enumerate(args) if i not in static_args]
    dynamic_kwargs = {k: v for k, v in kwargs.items() if k not in static_kwargs}

    def show(*a: Any, **k: Any) -> None:
        values = list(a)
        for i in sorted(static_args):
            values.insert(i, static_args[i])
        with np.printoptions(**options):
            text = fmt.format(*values, **k, **static_kwargs)
        if use_logging:
            logging.getLogger("trellax.debug").info(text)
        else:
            sys.stdout.write(text + "\n")

    debug_callback(show, *dynamic_args, ordered=ordered, **dynamic_kwargs)


def debug_breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
) -> Any:
    """Enters Python's debugger (``sys.breakpointhook``) where the program reaches this call:
    at once eagerly, when the compiled program runs under ``jit``. Local traced values are not
    shown with their run-time values (JAX's debugger shows them); ``kwargs`` are passed to the
    callback as arrays to inspect."""

    def stop(**k: Any) -> None:
        sys.breakpointhook()

    debug_callback(stop, ordered=ordered, **kwargs)
    return token
