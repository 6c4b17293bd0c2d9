"""``flax.linen.batch_apply``: ``BatchApply``, as names of ``trellax.nn``."""

from trellax._src.nn.batch_apply import BatchApply as BatchApply
