"""``trellax.interpreters``: the rule tables of ``jax.interpreters`` (``ad``, ``batching``,
``mlir``) through which a program gives its own primitives their rules (docs/extending.md)."""

from trellax.interpreters import ad as ad
from trellax.interpreters import batching as batching
from trellax.interpreters import mlir as mlir
