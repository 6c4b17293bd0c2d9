"""``trellax.experimental.hijax`` (``jax.experimental.hijax``): the names of JAX's high-level
types, so that libraries that define such types load; trellax has no HiJAX, and binding one of
their primitives raises ``NotImplementedError`` (docs/compat.md, "flax.nnx")."""

from trellax._src.api.ref_frames import AbstractRef as AbstractRef
from trellax._src.experimental.hijax import AbstractValue as AbstractValue
from trellax._src.experimental.hijax import AvalMutableQDD as AvalMutableQDD
from trellax._src.experimental.hijax import AvalQDD as AvalQDD
from trellax._src.experimental.hijax import HiPrimitive as HiPrimitive
from trellax._src.experimental.hijax import HiPspec as HiPspec
from trellax._src.experimental.hijax import HiType as HiType
from trellax._src.experimental.hijax import MutableHiType as MutableHiType
from trellax._src.experimental.hijax import ShapedArray as ShapedArray
from trellax._src.experimental.hijax import VJPHiPrimitive as VJPHiPrimitive
from trellax._src.experimental.hijax import Zero as Zero
from trellax._src.experimental.hijax import aval_method as aval_method
from trellax._src.experimental.hijax import aval_property as aval_property
from trellax._src.experimental.hijax import (
    control_flow_allowed_effects as control_flow_allowed_effects,
)
from trellax._src.experimental.hijax import instantiate_zeros as instantiate_zeros
from trellax._src.experimental.hijax import is_undefined_primal as is_undefined_primal
from trellax._src.experimental.hijax import register_hitype as register_hitype
