"""optax's remaining small top-level names: ``named_chain``, the state names optax keeps as
aliases of ``EmptyState`` (``ClipState``, ``ScaleState``, ...) and its typing names
(``Params``, ``Updates``, ``OptState``, ``Schedule``, ``ScalarOrSchedule``, ``MaskOrFn`` and
the ``Transform*Fn`` protocols).
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from trellax._src.optim.base import (
    EmptyState,
    GradientTransformation,
    GradientTransformationExtraArgs,
    update_with_extra,
)
from trellax._src.optim.base import OptState as OptState
from trellax._src.optim.base import Params as Params
from trellax._src.optim.base import Updates as Updates

AdaptiveGradClipState = EmptyState
AddDecayedWeightsState = EmptyState
ClipByGlobalNormState = EmptyState
ClipState = EmptyState
ScaleByTrustRatioState = EmptyState
ScaleState = EmptyState

Schedule = Callable[[Any], Any]
ScalarOrSchedule = float | Any | Schedule
MaskOrFn = Any | Callable[[Any], Any] | None


@runtime_checkable
class StatefulSchedule(Protocol):
    """A schedule with a state: ``init()``, ``update(state, **extra_args)`` and
    ``__call__(state, **extra_args)`` (the value)."""

    def init(self) -> Any: ...

    def update(self, state: Any, **extra_args: Any) -> Any: ...

    def __call__(self, state: Any, **extra_args: Any) -> Any: ...


class TransformInitFn(Protocol):
    """The ``init`` of a gradient transformation: parameters to a state."""

    def __call__(self, params: Params) -> OptState: ...


class TransformUpdateFn(Protocol):
    """The ``update`` of a gradient transformation: updates, state and parameters to the new
    updates and state."""

    def __call__(
        self, updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, OptState]: ...


class TransformUpdateExtraArgsFn(Protocol):
    """An ``update`` that also takes extra keyword arguments."""

    def __call__(
        self, updates: Updates, state: OptState, params: Params | None = None, **extra_args: Any
    ) -> tuple[Updates, OptState]: ...


def named_chain(*args: tuple[str, GradientTransformation]) -> GradientTransformationExtraArgs:
    """Like ``chain``, with each transformation named: the state is an ``OrderedDict`` from
    the names to the transformations' states. Names must be unique (``ValueError``)."""
    names = [name for name, _ in args]
    if len(set(names)) != len(names):
        raise ValueError(f"Named transformations must have unique names, but got {names}")
    transforms = collections.OrderedDict(args)

    def init_fn(params: Params) -> OptState:
        return collections.OrderedDict((n, t.init(params)) for n, t in transforms.items())

    def update_fn(
        updates: Updates, state: OptState, params: Params = None, **extra_args: Any
    ) -> tuple[Updates, OptState]:
        new_state = collections.OrderedDict()
        for name, tx in transforms.items():
            updates, new_state[name] = update_with_extra(
                tx, updates, state[name], params, extra_args
            )
        return updates, new_state

    return GradientTransformationExtraArgs(init_fn, update_fn)
