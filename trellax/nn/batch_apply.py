"""``flax.linen.batch_apply``: ``BatchApply``, as names of ``trellax.nn``."""

from trellax.nn import BatchApply as BatchApply
