"""``jax._src.traceback_util``: JAX hides its own frames from tracebacks and lets libraries add
their files to the hidden set (``register_exclusion``). trellax removes no frames (its frames are
plain Python, see ``jax_traceback_filtering``), so these record what they are given and change
nothing else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

#: paths libraries asked to hide (kept for inspection only)
_exclusions: list[str] = []


def register_exclusion(path: str) -> None:
    """Records ``path`` as a file whose frames JAX would hide."""
    _exclusions.append(str(path))


def include_frame(frame: Any) -> bool:
    """Whether JAX would keep ``frame`` in a filtered traceback: every frame here."""
    return True


def api_boundary(fun: _F) -> _F:
    """The function itself (JAX filters tracebacks at its API boundaries)."""
    return fun
