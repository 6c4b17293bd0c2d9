"""``flax.linen.kw_only_dataclasses``: nothing: trellax modules are keyword-only dataclasses by themselves (``name``, ``parent``)."""
