"""``trellax.ref``: mutable array references (``jax.ref``): ``new_ref``, ``get``, ``set``,
``swap``, ``addupdate``, ``freeze`` and the ``Ref`` type (docs/extending.md)."""

from trellax._src.numpy.refs import Ref as Ref
from trellax._src.numpy.refs import addupdate as addupdate
from trellax._src.numpy.refs import freeze as freeze
from trellax._src.numpy.refs import get as get
from trellax._src.numpy.refs import new_ref as new_ref
from trellax._src.numpy.refs import swap as swap
