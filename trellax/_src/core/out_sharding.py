"""``out_sharding=``: the keyword JAX's array-making functions take (random samplers, ...).

The keyword is checked, and the result is placed by it (:data:`placement`, filled by
``runtime/device.py`` with ``reshard``'s placement): trellax keeps one NumPy buffer per array, so
the values are those made without it, and the result reports the sharding -- in its type
(``float32[4@X,4@Y]``) when the mesh has an Explicit axis. A ``PartitionSpec`` is over the mesh
of ``set_mesh`` (without one it places nothing). :func:`accepts_out_sharding` adds the keyword
to a function (and to its signature, for ``inspect``).
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


#: places a result by its ``out_sharding`` (``runtime/device.py`` sets it)
placement: list[Callable[[Any, Any], Any]] = [lambda x, s: x]


def place(x: Any, out_sharding: Any) -> Any:
    """``x`` placed by ``out_sharding`` (unchanged when it is None)."""
    return x if out_sharding is None else placement[0](x, out_sharding)


def accepts_out_sharding(fn: F) -> F:
    """``fn`` with a keyword-only ``out_sharding=None``, checked, that places the result."""

    @functools.wraps(fn)
    def wrapper(*args: Any, out_sharding: Any = None, **kwargs: Any) -> Any:
        check_out_sharding(fn.__name__, out_sharding)
        return place(fn(*args, **kwargs), out_sharding)

    sig = inspect.signature(fn)
    extra = inspect.Parameter("out_sharding", inspect.Parameter.KEYWORD_ONLY, default=None)
    params = list(sig.parameters.values())
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        params.append(extra)
    else:
        params.insert(len(params) - 1, extra)
    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
