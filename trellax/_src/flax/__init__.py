"""The Flax companions (``flax.struct``, ``flax.core``, ``flax.serialization``, ``flax.training``,
...) at layer 8, over ``trellax.numpy``, ``trellax.tree_util`` and ``trellax.nn``.

This package imports nothing on purpose: ``trellax._src.nn`` imports ``errors`` from here, so
loading this package must not load ``trellax.nn``.
"""
