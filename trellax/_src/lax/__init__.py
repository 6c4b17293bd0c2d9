"""Private lax implementation; the public names are in ``trellax.lax``."""
