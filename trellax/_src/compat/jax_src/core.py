"""``jax._src.core``: the names of JAX's core that programs and JAX's own tests import and that
live elsewhere in trellax (under the hook, the rest of ``jax._src.core`` is looked up in
``trellax._src.core.core``)."""

from trellax._src.api.core_names import eval_jaxpr as eval_jaxpr
from trellax._src.api.core_names import jaxpr_as_fun as jaxpr_as_fun
from trellax._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr
from trellax._src.core.jaxpr import Jaxpr as Jaxpr
from trellax._src.core.jaxpr import JaxprEqn as JaxprEqn
from trellax._src.core.jaxpr import Literal as Literal
from trellax._src.core.jaxpr import Var as Var
from trellax._src.interpreters.dce import check_jaxpr as check_jaxpr
from trellax._src.interpreters.dce import subjaxprs as subjaxprs
from trellax._src.lax.standins import Token as Token
