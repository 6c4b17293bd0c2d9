"""Tracebacks without trellax's own frames, on request (``jax_traceback_filtering``).

trellax's frames are plain Python, and by default (``"auto"`` or ``"off"``) an exception keeps
them all: every step of a failing ``jit``, ``grad`` or ``Module.init`` can be read and debugged.
Code written for JAX can ask for JAX's shorter tracebacks with the same flag values:

- ``"tracebackhide"``: library frames get a ``__tracebackhide__`` local, which pytest and IPython
  read to leave them out of what they print; the traceback object itself is unchanged.
- ``"remove_frames"``: the traceback keeps only frames outside the library; the whole one rides
  along as ``__cause__``, an :class:`UnfilteredStackTrace` (any earlier cause moves onto it).
- ``"quiet_remove_frames"``: the same removal, with a note on the exception instead of a cause.

Filtering happens once, at the outermost API boundary an exception crosses (the call of a
``jit``-compiled function, of a function made by ``grad``/``vmap``/..., ``Module.init``/
``apply``): a boundary beneath another one re-raises untouched. "Library frames" are those of
files under a path of :data:`_exclude_paths`: every part of trellax except its Flax layer
(``_src/nn``, ``_src/flax``), whose paths come and go with ``flax.traceback_util``'s
``hide_flax_in_tracebacks``/``show_flax_in_tracebacks`` (hidden by default, as in Flax), and
any path a library adds with :func:`register_exclusion`.
"""

from __future__ import annotations

import functools
import os
import traceback
from collections.abc import Callable
from types import CodeType, FrameType, TracebackType
from typing import Any, TypeVar

from trellax._src.config import jax_option_flags as _flags

_F = TypeVar("_F", bound=Callable[..., Any])

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SRC_DIR = os.path.join(_PACKAGE_DIR, "_src")

#: trellax's Flax layer: shown or hidden by ``flax.traceback_util`` (hidden by default)
FLAX_PATHS: tuple[str, ...] = (os.path.join(_SRC_DIR, "nn"), os.path.join(_SRC_DIR, "flax"))


def _library_paths() -> list[str]:
    """Every entry of the package and of ``_src`` except ``_src`` itself and the Flax layer."""
    out = []
    for folder in (_PACKAGE_DIR, _SRC_DIR):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if name.startswith(".") or name == "__pycache__" or path == _SRC_DIR:
                continue
            if path not in FLAX_PATHS:
                out.append(path)
    return out


#: Paths (files or folders) whose frames filtering removes; libraries append to it
#: (``register_exclusion``) and ``flax.traceback_util`` adds/removes :data:`FLAX_PATHS`.
_exclude_paths: list[str] = _library_paths() + list(FLAX_PATHS)

#: The code objects of API boundaries (``api_boundary``'s wrapper, ``Jitted.__call__``, ...).
_boundary_codes: set[CodeType] = set()

_NOTE = (
    "--------------------\nFor simplicity, trellax has removed its internal frames from the "
    "traceback of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these."
)
_CAUSE_NOTE = (
    "The stack trace below excludes trellax-internal frames.\nThe preceding is the original "
    "exception that occurred, unmodified.\n\n--------------------"
)


class UnfilteredStackTrace(Exception):
    """The cause attached by ``remove_frames`` filtering: the full traceback of the exception."""


def register_exclusion(path: str) -> None:
    """Frames of files under ``path`` are removed by traceback filtering."""
    _exclude_paths.append(os.fspath(path))


def _under(filename: str, folder: str) -> bool:
    return filename == folder or filename.startswith(folder.rstrip(os.sep) + os.sep)


def include_filename(filename: str) -> bool:
    """Whether frames of ``filename`` stay in a filtered traceback."""
    filename = os.path.abspath(filename)
    return not any(_under(filename, os.path.abspath(p)) for p in _exclude_paths)


def include_frame(frame: FrameType) -> bool:
    """Whether ``frame`` stays in a filtered traceback (its file is under no excluded path)."""
    return include_filename(frame.f_code.co_filename)


def filter_traceback(tb: TracebackType | None) -> TracebackType | None:
    """A new traceback of the entries of ``tb`` whose frames :func:`include_frame` keeps."""
    kept = [(f, lasti, line) for f, lasti, line in _entries(tb) if include_frame(f)]
    out: TracebackType | None = None
    for frame, lasti, line in reversed(kept):
        out = TracebackType(out, frame, lasti, line)
    return out


def _entries(tb: TracebackType | None) -> list[tuple[FrameType, int, int]]:
    out = []
    while tb is not None:
        out.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    return out


def _with_callers(tb: TracebackType) -> TracebackType:
    """``tb`` extended outward with the kept frames of its callers, up to the first run of
    module-level frames (the unfiltered cause then shows how the call was reached)."""
    out = tb
    at_module = False
    for frame, line in traceback.walk_stack(tb.tb_frame.f_back):
        if at_module and frame.f_code.co_name != "<module>":
            break
        if "importlib._bootstrap" not in frame.f_code.co_filename and include_frame(frame):
            out = TracebackType(out, frame, frame.f_lasti, line)
        at_module = at_module or frame.f_code.co_name == "<module>"
    return out


def _crossed_boundary(e: BaseException) -> bool:
    """Whether a boundary frame encloses the frame handling ``e`` (then that one filters)."""
    tb = e.__traceback__
    frame = tb.tb_frame.f_back if tb is not None else None
    while frame is not None:
        if frame.f_code in _boundary_codes:
            return True
        frame = frame.f_back
    return False


def mode() -> str:
    """The filtering mode in effect: ``"auto"`` counts as ``"off"`` (trellax shows its frames)."""
    value = _flags.traceback_filtering.value
    return "off" if value in (None, "auto") else str(value)


def reraise(e: Exception) -> None:
    """Called in an API boundary's ``except`` clause: filters ``e`` as the mode says; the caller
    then re-raises with a bare ``raise``. Does nothing under another boundary or with
    filtering off."""
    how = mode()
    if how == "off" or _crossed_boundary(e):
        return
    tb = e.__traceback__
    if how == "tracebackhide":
        for frame, _, _ in _entries(tb):
            if not include_frame(frame):
                frame.f_locals["__tracebackhide__"] = True
        return
    if tb is None:
        return
    e.with_traceback(filter_traceback(tb))
    if how == "quiet_remove_frames":
        setattr(e, "__notes__", [*getattr(e, "__notes__", ()), _NOTE])  # noqa: B010 (3.10 stubs lack it)
        return
    message = "".join(traceback.format_exception_only(type(e), e)).strip()
    unfiltered = UnfilteredStackTrace(f"{message}\n\n{_CAUSE_NOTE}")
    unfiltered.with_traceback(_with_callers(tb))
    unfiltered.__cause__ = e.__cause__
    unfiltered.__context__ = e.__context__
    unfiltered.__suppress_context__ = e.__suppress_context__
    e.__cause__ = unfiltered
    e.__context__ = None


def register_boundary(code: CodeType) -> None:
    """Marks ``code`` (a function whose ``except`` clause calls :func:`reraise`) as a boundary."""
    _boundary_codes.add(code)


def api_boundary(fun: _F) -> _F:
    """``fun`` wrapped as an API boundary: exceptions leaving it are filtered as the mode says."""

    @functools.wraps(fun)
    def boundary(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        try:
            return fun(*args, **kwargs)
        except Exception as e:
            reraise(e)
            raise

    return boundary  # type: ignore[return-value]


register_boundary(api_boundary(len).__code__)  # every wrapper shares this code object
