"""``trellax.flax.core`` (``flax.core``): ``FrozenDict`` and its helpers."""

from trellax._src.flax.frozen_dict import FrozenDict as FrozenDict
from trellax._src.flax.frozen_dict import copy as copy
from trellax._src.flax.frozen_dict import freeze as freeze
from trellax._src.flax.frozen_dict import pop as pop
from trellax._src.flax.frozen_dict import pretty_repr as pretty_repr
from trellax._src.flax.frozen_dict import unfreeze as unfreeze
from trellax._src.nn.partitioning import AxisMetadata as AxisMetadata
from trellax._src.nn.scope import DenyList as DenyList
from trellax._src.nn.scope import Scope as Scope
from trellax.flax.core import frozen_dict as frozen_dict
from trellax.flax.core import meta as meta
