"""``trellax.flax``: Flax's companion modules on trellax.

``trellax.flax.struct``, ``.core``, ``.traverse_util``, ``.serialization``, ``.training``,
``.errors``, ``.configurations`` (and ``config``, its flag table) are the ``flax.*`` modules of
the same names; ``trellax.flax.linen`` is ``trellax.nn`` (the same module object, as are its
submodules: ``trellax.flax.linen.initializers is trellax.nn.initializers``).
"""

import sys as _sys

import trellax.nn as _nn
from trellax.flax import configurations as configurations
from trellax.flax import core as core
from trellax.flax import errors as errors
from trellax.flax import io as io
from trellax.flax import jax_utils as jax_utils
from trellax.flax import serialization as serialization
from trellax.flax import struct as struct
from trellax.flax import training as training
from trellax.flax import traverse_util as traverse_util
from trellax.flax import typing as typing
from trellax.flax.configurations import config as config

linen = _nn

# `import trellax.flax.linen[.sub]` finds the very modules of trellax.nn, never a second copy.
for _name in [n for n in _sys.modules if n == "trellax.nn" or n.startswith("trellax.nn.")]:
    _sys.modules["trellax.flax.linen" + _name[len("trellax.nn") :]] = _sys.modules[_name]
del _name
