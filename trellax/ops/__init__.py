"""``trellax.ops``: segment reductions (mirrors ``jax.ops``)."""

from trellax._src.numpy.segment import segment_max, segment_min, segment_prod, segment_sum

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]
