"""``jax._src.lib.mlir.dialects``: see ``hlo``."""
