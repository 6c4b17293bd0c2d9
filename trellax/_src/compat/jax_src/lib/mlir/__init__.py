"""``jax._src.lib.mlir``: see ``dialects.hlo``."""
