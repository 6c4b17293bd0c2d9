"""Private code of ``trellax.scipy.stats``: one module per distribution family."""
