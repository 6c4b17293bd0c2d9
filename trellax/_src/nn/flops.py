"""FLOP counts of traced functions for Flax's summary tables (the counter lives in
``trellax._src.api.flops``, which ``jit(f).lower(...).cost_analysis()`` uses too)."""

from trellax._src.api.flops import count_flops as count_flops
from trellax._src.api.flops import jaxpr_flops as jaxpr_flops
