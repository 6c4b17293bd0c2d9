"""``trellax.interpreters.ad``: differentiation rules of primitives (``jax.interpreters.ad``).

``primitive_jvps[p] = rule`` registers ``rule(primals, tangents, **params) -> (out, tangent)``
(a tangent may be the symbolic :class:`Zero`); ``primitive_transposes[p] = rule`` registers
``rule(ct, *args, **params) -> cotangents`` for a primitive used linearly (the linear operands
are :class:`UndefinedPrimal`). See docs/extending.md.
"""

from trellax._src.interpreters.ad import JVPTrace as JVPTrace
from trellax._src.interpreters.ad import JVPTracer as JVPTracer
from trellax._src.interpreters.extending import add_tangents as add_tangents
from trellax._src.interpreters.extending import defbilinear as defbilinear
from trellax._src.interpreters.extending import defjvp as defjvp
from trellax._src.interpreters.extending import defjvp2 as defjvp2
from trellax._src.interpreters.extending import deflinear as deflinear
from trellax._src.interpreters.extending import deflinear2 as deflinear2
from trellax._src.interpreters.extending import instantiate_zeros as instantiate_zeros
from trellax._src.interpreters.extending import is_undefined_primal as is_undefined_primal
from trellax._src.interpreters.extending import primitive_jvps as primitive_jvps
from trellax._src.interpreters.extending import primitive_transposes as primitive_transposes
from trellax._src.interpreters.extending import zeros_like_aval as zeros_like_aval
from trellax._src.lax.ad_util import UndefinedPrimal as UndefinedPrimal
from trellax._src.lax.ad_util import Zero as Zero
