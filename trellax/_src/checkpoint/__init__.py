"""Floor 6: ``checkpoint``/``remat`` (the ``remat2`` primitive) and its policies."""
