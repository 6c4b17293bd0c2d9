"""trellax: JAX's array semantics (lattice type promotion, weak types, x64, strict mode) on NumPy."""

__version__ = "0.1.0.dev0"
