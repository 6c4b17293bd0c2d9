"""Floor 0: configuration (``enable_x64``, the promotion mode, JAX's other flags). Imports nothing of trellax."""
