"""``trellax.extend.core``: primitives and jaxprs (``jax.extend.core``).

:class:`Primitive` defines a new primitive; its rules go in the tables of
``trellax.interpreters`` (docs/extending.md). Jaxprs from ``trellax.make_jaxpr`` are
:class:`ClosedJaxpr` (``.jaxpr``, ``.consts``/``.literals``) over :class:`Jaxpr` (``invars``,
``outvars``, ``eqns``) whose equations (:class:`JaxprEqn`: ``primitive``, ``invars``,
``outvars``, ``params``) read :class:`Var` and :class:`Literal` atoms.
"""

from trellax._src.api.core_names import find_top_trace as find_top_trace
from trellax._src.api.core_names import get_opaque_trace_state as get_opaque_trace_state
from trellax._src.api.core_names import jaxpr_as_fun as jaxpr_as_fun
from trellax._src.api.core_names import jaxprs_in_params as jaxprs_in_params
from trellax._src.api.core_names import mapped_aval as mapped_aval
from trellax._src.api.core_names import new_jaxpr_eqn as new_jaxpr_eqn
from trellax._src.api.core_names import subjaxprs as subjaxprs
from trellax._src.api.core_names import unmapped_aval as unmapped_aval
from trellax._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr
from trellax._src.core.jaxpr import Jaxpr as Jaxpr
from trellax._src.core.jaxpr import JaxprEqn as JaxprEqn
from trellax._src.core.jaxpr import Literal as Literal
from trellax._src.core.jaxpr import Var as Var
from trellax._src.experimental.hijax import Effect as Effect
from trellax._src.interpreters.extending import Primitive as Primitive
from trellax.extend.core import primitives as primitives
