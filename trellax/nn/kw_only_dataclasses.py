"""``trellax.nn.kw_only_dataclasses`` (``flax.linen.kw_only_dataclasses``): ``dataclass``,
``field`` and ``KW_ONLY``, with keyword-only fields last and inherited as keyword-only."""

from trellax._src.nn.kw_only_dataclasses import KW_ONLY as KW_ONLY
from trellax._src.nn.kw_only_dataclasses import dataclass as dataclass
from trellax._src.nn.kw_only_dataclasses import field as field
