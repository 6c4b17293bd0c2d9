"""``jax._src.lax.control_flow``: JAX's control-flow package (its public functions are
``trellax.lax``'s; ``common`` holds the internal caches JAX's tests reset)."""

from trellax._src.compat.jax_src.lax.control_flow import common as common
from trellax.lax import associative_scan as associative_scan
from trellax.lax import cond as cond
from trellax.lax import fori_loop as fori_loop
from trellax.lax import map as map
from trellax.lax import scan as scan
from trellax.lax import switch as switch
from trellax.lax import while_loop as while_loop
