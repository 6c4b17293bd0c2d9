"""``out_sharding=``: the keyword JAX's array-making functions take (random samplers, ...).

trellax computes on one CPU device, where every sharding lays an array out the same way, so the
keyword is accepted and checked, and the result is the same as without it -- what JAX does on a
one-CPU machine. :func:`accepts_out_sharding` adds the keyword to a function (and to its
signature, for ``inspect``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from trellax._src.core.devices import Device, Sharding

F = TypeVar("F", bound=Callable[..., Any])


def check_out_sharding(name: str, out_sharding: Any) -> None:
    """Accepts ``None``, a sharding, a device or a ``PartitionSpec`` (a tuple); else TypeError."""
    if out_sharding is None or isinstance(out_sharding, Sharding | Device | tuple):
        return
    raise TypeError(
        f"{name}: out_sharding must be None, a Sharding or a PartitionSpec, got {out_sharding!r}"
    )


def accepts_out_sharding(fn: F) -> F:
    """``fn`` with a keyword-only ``out_sharding=None`` that is checked and otherwise ignored."""

    @functools.wraps(fn)
    def wrapper(*args: Any, out_sharding: Any = None, **kwargs: Any) -> Any:
        check_out_sharding(fn.__name__, out_sharding)
        return fn(*args, **kwargs)

    sig = inspect.signature(fn)
    extra = inspect.Parameter("out_sharding", inspect.Parameter.KEYWORD_ONLY, default=None)
    params = list(sig.parameters.values())
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        params.append(extra)
    else:
        params.insert(len(params) - 1, extra)
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
