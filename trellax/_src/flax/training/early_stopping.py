"""``flax.training.early_stopping.EarlyStopping``: stop when a metric stops improving.

``update(metric)`` returns a new state: an improvement (``best_metric - metric > min_delta``, or
the first metric) resets the patience count and sets ``has_improved``; otherwise the count grows
and ``should_stop`` becomes true once ``patience`` updates without improvement have passed.

Example::

    >>> es = EarlyStopping(min_delta=0, patience=1)
    >>> for loss in [3.0, 2.0, 2.0, 2.0, 2.0]:
    ...     es = es.update(loss)
    >>> es.should_stop, es.best_metric
    (True, 2.0)
"""

from __future__ import annotations

import math
from typing import Any

from trellax._src.flax.struct import PyTreeNode


class EarlyStopping(PyTreeNode):
    """Early-stopping state: ``min_delta``, ``patience``, ``best_metric``, ``patience_count``,
    ``should_stop``, ``has_improved`` (improved on the last ``update``)."""

    min_delta: float = 0
    patience: int = 0
    best_metric: float = float("inf")
    patience_count: int = 0
    should_stop: bool = False
    has_improved: bool = False

    def reset(self) -> EarlyStopping:
        """The state before any metric (keeps ``min_delta`` and ``patience``)."""
        return self.replace(
            best_metric=float("inf"), patience_count=0, should_stop=False, has_improved=False
        )

    def update(self, metric: Any) -> EarlyStopping:
        """The state after seeing ``metric`` (lower is better)."""
        if math.isinf(self.best_metric) or self.best_metric - metric > self.min_delta:
            return self.replace(best_metric=metric, patience_count=0, has_improved=True)
        should_stop = self.patience_count >= self.patience or self.should_stop
        return self.replace(
            patience_count=self.patience_count + 1, should_stop=should_stop, has_improved=False
        )
