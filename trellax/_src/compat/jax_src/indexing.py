"""``jax._src.indexing``: the dynamic ``Slice`` (``jax.ds``) that indexing accepts."""

from trellax._src.numpy.dslice import Slice as Slice
from trellax._src.numpy.dslice import ds as ds
from trellax._src.numpy.dslice import dslice as dslice
