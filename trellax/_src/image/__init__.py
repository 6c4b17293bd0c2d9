"""Private code of ``trellax.image``."""
