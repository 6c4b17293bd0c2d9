"""Floor 8: ``lax`` functions and collectives that JAX offers but trellax writes with ``trellax.numpy``.

Written with the numpy namespace (and ``vmap``), so ``jit``, ``vmap`` and ``grad`` apply
without rules of their own; ``trellax.lax`` re-exports them.
"""
