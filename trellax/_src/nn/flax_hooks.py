"""``FLAX_HOOKS``: what ``trellax._src.flax`` (which builds on ``trellax.nn``) lends to
``trellax.nn`` when it is imported.

``"FrozenDict"`` (the class), ``"state_dict"`` (flax.serialization's registry), and readers of
Flax's flags: ``"return_frozendict"``, ``"preserve_adopted_names"``, ``"fix_rng_separator"``.
Without them attributes freeze to dicts, results are dicts and the flags keep Flax's defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FLAX_HOOKS: dict[str, Callable[..., Any]] = {}
