"""``trellax.experimental.layout`` (``jax.experimental.layout``): ``Layout`` and ``Format``,
descriptions of memory layout (one CPU device, C order: nothing is compiled with them)."""

from trellax._src.runtime.layout import Format as Format
from trellax._src.runtime.layout import Layout as Layout
