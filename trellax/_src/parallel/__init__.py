"""Floor 6: collectives over named ``vmap`` axes (``psum``, ``all_gather``, ``ppermute``, ...)."""
