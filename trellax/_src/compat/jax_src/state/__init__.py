"""``jax._src.state``: array-reference types (``AbstractRef``, what ``jax.typeof`` of a ``Ref``
gives; Flax's ``nnx.variablelib`` imports it)."""

from trellax._src.api.ref_frames import AbstractRef as AbstractRef
