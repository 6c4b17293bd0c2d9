"""Floor 7: the transformations users call (``jit``, ``vmap``, ``grad``, jacobians, ``make_jaxpr``)."""
