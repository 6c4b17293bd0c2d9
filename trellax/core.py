"""``trellax.core``: the ``jax.core`` names that libraries written against JAX use."""

from trellax._src.api.core_names import eval_jaxpr as eval_jaxpr
from trellax._src.api.core_names import find_top_trace as find_top_trace
from trellax._src.api.core_names import jaxprs_in_params as jaxprs_in_params
from trellax._src.api.core_names import max_dim as max_dim
from trellax._src.api.core_names import min_dim as min_dim
from trellax._src.core.core import AbstractValue as AbstractValue
from trellax._src.core.core import ShapedArray as ShapedArray
from trellax._src.core.core import Trace as Trace
from trellax._src.core.core import Tracer as Tracer
from trellax._src.core.jaxpr import Atom as Atom
from trellax._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr
from trellax._src.core.jaxpr import Jaxpr as Jaxpr
from trellax._src.interpreters.op_by_op import ensure_compile_time_eval as ensure_compile_time_eval
