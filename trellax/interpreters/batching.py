"""``trellax.interpreters.batching``: batching rules of primitives
(``jax.interpreters.batching``).

``primitive_batchers[p] = rule`` registers ``rule(args, dims, **params) -> (out, out_dim)``
(``dims[i]`` is the batch dimension of ``args[i]``, or :data:`not_mapped`);
``fancy_primitive_batchers[p] = rule`` registers ``rule(axis_data, args, dims, **params)`` (told the
axis: ``axis_data.size``, ``axis_data.name``), ``axis_primitive_batchers`` the older
``rule(size, name, None, args, dims, **params)``. See docs/extending.md.
"""

from trellax._src.interpreters.batching import register_vmappable as register_vmappable
from trellax._src.interpreters.batching import unregister_vmappable as unregister_vmappable
from trellax._src.interpreters.extending import axis_primitive_batchers as axis_primitive_batchers
from trellax._src.interpreters.extending import bdim_at_front as bdim_at_front
from trellax._src.interpreters.extending import broadcast as broadcast
from trellax._src.interpreters.extending import defbroadcasting as defbroadcasting
from trellax._src.interpreters.extending import defvectorized as defvectorized
from trellax._src.interpreters.extending import fancy_primitive_batchers as fancy_primitive_batchers
from trellax._src.interpreters.extending import not_mapped as not_mapped
from trellax._src.interpreters.extending import primitive_batchers as primitive_batchers
