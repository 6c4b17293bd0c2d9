"""``trellax.interpreters.batching``: batching rules of primitives
(``jax.interpreters.batching``).

``primitive_batchers[p] = rule`` registers ``rule(args, dims, **params) -> (out, out_dim)``
(``dims[i]`` is the batch dimension of ``args[i]``, or :data:`not_mapped`). See
docs/extending.md.
"""

from trellax._src.interpreters.extending import bdim_at_front as bdim_at_front
from trellax._src.interpreters.extending import broadcast as broadcast
from trellax._src.interpreters.extending import defbroadcasting as defbroadcasting
from trellax._src.interpreters.extending import defvectorized as defvectorized
from trellax._src.interpreters.extending import not_mapped as not_mapped
from trellax._src.interpreters.extending import primitive_batchers as primitive_batchers
