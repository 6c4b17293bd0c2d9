"""``trellax.core``: the ``jax.core`` names that libraries written against JAX use."""

from trellax._src.core import AbstractValue as AbstractValue
from trellax._src.core import ShapedArray as ShapedArray
from trellax._src.core import Trace as Trace
from trellax._src.core import Tracer as Tracer
from trellax._src.core_api import eval_jaxpr as eval_jaxpr
from trellax._src.core_api import max_dim as max_dim
from trellax._src.core_api import min_dim as min_dim
from trellax._src.jaxpr import ClosedJaxpr as ClosedJaxpr
from trellax._src.jaxpr import Jaxpr as Jaxpr
from trellax._src.op_by_op import ensure_compile_time_eval as ensure_compile_time_eval
