"""``trellax.flax.core`` (``flax.core``): ``FrozenDict`` and its helpers, and Flax's functional
core: :class:`Scope`, ``init``, ``apply``, ``bind``, ``lazy_init``, the lifted transforms
(``lift``) and the layers as functions of a scope (``nn``)."""

from trellax._src.flax.core_scope import Array as Array
from trellax._src.flax.core_scope import DenyList as DenyList
from trellax._src.flax.core_scope import Scope as Scope
from trellax._src.flax.core_scope import apply as apply
from trellax._src.flax.core_scope import bind as bind
from trellax._src.flax.core_scope import init as init
from trellax._src.flax.core_scope import lazy_init as lazy_init
from trellax._src.flax.frozen_dict import FrozenDict as FrozenDict
from trellax._src.flax.frozen_dict import copy as copy
from trellax._src.flax.frozen_dict import freeze as freeze
from trellax._src.flax.frozen_dict import pop as pop
from trellax._src.flax.frozen_dict import pretty_repr as pretty_repr
from trellax._src.flax.frozen_dict import unfreeze as unfreeze
from trellax._src.nn.lift import broadcast as broadcast
from trellax._src.nn.partitioning import AxisMetadata as AxisMetadata
from trellax._src.nn.partitioning import map_axis_meta as map_axis_meta
from trellax._src.nn.partitioning import unbox as unbox
from trellax.flax.core import frozen_dict as frozen_dict
from trellax.flax.core import lift as lift
from trellax.flax.core import meta as meta
from trellax.flax.core import nn as nn
from trellax.flax.core import scope as scope
from trellax.flax.core.lift import custom_vjp as custom_vjp
from trellax.flax.core.lift import jit as jit
from trellax.flax.core.lift import jvp as jvp
from trellax.flax.core.lift import remat as remat
from trellax.flax.core.lift import remat_scan as remat_scan
from trellax.flax.core.lift import scan as scan
from trellax.flax.core.lift import vjp as vjp
from trellax.flax.core.lift import vmap as vmap
from trellax.flax.core.lift import while_loop as while_loop
