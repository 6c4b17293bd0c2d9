"""``trellax.experimental.shard_map`` mirrors ``jax.experimental.shard_map`` (a one-device
mesh: ``f`` runs once, its collectives see axes of size 1)."""

from trellax._src.experimental.shard_map import shard_map as shard_map
