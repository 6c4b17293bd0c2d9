"""``jax._src.lib``: only the MLIR dialect stand-ins (see ``lib.mlir.dialects.hlo``)."""
