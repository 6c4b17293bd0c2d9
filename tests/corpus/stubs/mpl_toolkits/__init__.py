"""Part of the corpus matplotlib stand-in."""
