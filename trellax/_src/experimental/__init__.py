"""Layer 8: stand-ins for the ``jax.experimental`` names programs import."""
