"""``BatchApply``: runs a function on inputs whose leading ``num_dims`` axes are merged into one
and splits that axis of the outputs back."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from trellax import tree_util


def _ndim_at_least(x: Any, n: int) -> bool:
    return hasattr(x, "ndim") and x.ndim >= n


def _merge(x: Any, n: int) -> Any:
    if not _ndim_at_least(x, n):
        return x
    return x.reshape((math.prod(x.shape[:n]), *x.shape[n:]))


class BatchApply:
    """``BatchApply(f, num_dims=2)(*args)``: ``f`` on the arguments with their first
    ``num_dims`` axes merged (arguments with fewer axes pass unchanged), its outputs' first
    axis split back into those axes."""

    def __init__(self, f: Callable[..., Any], num_dims: int = 2) -> None:
        self._f = f
        self.num_dims = num_dims

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        example = next(
            (x for x in tree_util.tree_leaves((args, kwargs)) if _ndim_at_least(x, self.num_dims)),
            None,
        )
        if example is None:
            raise ValueError(
                f"BatchApply requires at least one input with ndim >= {self.num_dims}."
            )
        lead = tuple(example.shape[: self.num_dims])
        args, kwargs = tree_util.tree_map(lambda x: _merge(x, self.num_dims), (args, kwargs))
        out = self._f(*args, **kwargs)
        return tree_util.tree_map(lambda x: x.reshape(lead + tuple(x.shape[1:])), out)
