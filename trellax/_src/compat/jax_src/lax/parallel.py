"""``jax._src.lax.parallel``: the collectives, with the two JAX keeps private (``pargmax``,
``pargmin``)."""

from __future__ import annotations

from trellax._src.derived.collectives import pargmax as pargmax
from trellax._src.derived.collectives import pargmin as pargmin
from trellax.lax import all_gather as all_gather
from trellax.lax import all_to_all as all_to_all
from trellax.lax import axis_index as axis_index
from trellax.lax import pmax as pmax
from trellax.lax import pmean as pmean
from trellax.lax import pmin as pmin
from trellax.lax import ppermute as ppermute
from trellax.lax import psum as psum
from trellax.lax import psum_scatter as psum_scatter
