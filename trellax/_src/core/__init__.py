"""Floor 2: primitives, abstract values, traces, ``bind``, the jaxpr IR and the abstract ``Array``."""
