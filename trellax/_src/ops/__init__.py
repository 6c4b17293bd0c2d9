"""Private code of ``trellax.ops``."""
