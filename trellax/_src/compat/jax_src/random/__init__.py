"""``jax._src.random``: the private modules of JAX's ``random`` package that programs and JAX's
own tests import (``prng``, ``core``, ``threefry2x32``), answered from ``trellax.random``."""
