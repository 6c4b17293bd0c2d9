"""``jax._src.state.types``: ``AbstractRef`` (the abstract value of an array reference)."""

from trellax._src.api.ref_frames import AbstractRef as AbstractRef
