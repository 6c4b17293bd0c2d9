"""Where the user's code is: ``file:line:column (qualified name)`` of the innermost frame
outside the trellax package, as JAX reports source locations (the column, counted from 0, of the
expression being evaluated). Used for jaxpr equations (``interpreters/tracing.py``), the leak
checker's "created on" lines and promotion reports.
"""

from __future__ import annotations

import os
import sys
import weakref
from types import CodeType

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The location of the equation being re-traced from a jaxpr (``tracing.eval_jaxpr`` sets it, so
#: re-traced equations keep the line they were first traced at); None: read the stack.
override: list[str | None] = [None]

#: Paths (files or folders) of libraries whose frames are not the user's code either, as JAX's
#: ``source_info_util.register_exclusion`` (Flax registers its own files).
_EXCLUDED: list[str] = []


def register_exclusion(path: str) -> None:
    """Frames in files under ``path`` are skipped when looking for the user's location."""
    _EXCLUDED.append(os.fspath(path))


def user_location(depth: int = 1) -> str | None:
    """The user's location, looking from ``depth`` frames above the caller outward."""
    if override[0] is not None:
        return override[0]
    frame = sys._getframe(depth + 1)
    while frame is not None:
        code = frame.f_code
        filename = code.co_filename
        inside = filename.startswith(_PACKAGE_DIR) and "/tests/" not in filename
        if not inside and not (_EXCLUDED and filename.startswith(tuple(_EXCLUDED))):
            line, column = _position(code, frame.f_lasti, frame.f_lineno)
            name = getattr(code, "co_qualname", code.co_name)  # Python 3.11+: qualified
            return f"{filename}:{line}:{column} ({name})"
        frame = frame.f_back  # type: ignore[assignment]
    return None


_Positions = list[tuple[int | None, int | None, int | None, int | None]]
_POSITIONS: weakref.WeakKeyDictionary[CodeType, _Positions] = weakref.WeakKeyDictionary()


def _position(code: CodeType, lasti: int, lineno: int) -> tuple[int, int]:
    """The line and 0-based column of the instruction at byte offset ``lasti`` of ``code``
    (positions are read once per code object; a missing column counts as 0)."""
    positions = _POSITIONS.get(code)
    if positions is None:
        read = getattr(code, "co_positions", None)  # Python 3.11+; 3.10 has no columns
        positions = _POSITIONS[code] = list(read()) if read is not None else []
    index = lasti // 2
    if 0 <= index < len(positions):
        start, _, column, _ = positions[index]
        return (start if start is not None else lineno), (column or 0)
    return lineno, 0
