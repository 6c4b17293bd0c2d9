"""FLOP counts of traced functions for Flax's summary tables (the counter of jaxprs lives in
``trellax._src.api.flops``, which ``jit(f).lower(...).cost_analysis()`` uses too)."""

from collections.abc import Callable
from typing import Any

from trellax._src.api.api import make_jaxpr
from trellax._src.api.flops import jaxpr_flops as jaxpr_flops


def count_flops(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
    """The FLOP count of ``fun(*args, **kwargs)`` traced abstractly (nothing is computed)."""
    closed = make_jaxpr(fun)(*args, **kwargs)
    return jaxpr_flops(closed.jaxpr)
