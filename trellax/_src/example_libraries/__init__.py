"""Layer 8: JAX's small reference libraries ``stax`` and ``optimizers``, written for trellax."""
