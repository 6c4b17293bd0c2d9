"""Private code of ``trellax.scipy`` (special functions, linear algebra, statistics)."""
