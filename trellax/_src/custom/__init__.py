"""Floor 6: user-defined rules: ``custom_jvp``/``custom_vjp``, ``custom_vmap``, implicit solves."""
