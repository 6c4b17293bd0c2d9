"""``trellax.compat``: run unmodified JAX, Flax and optax code on trellax.

>>> import trellax.compat
>>> trellax.compat.install()
>>> import jax.numpy as jnp  # trellax.numpy's names, under JAX's module name
>>> jnp.arange(3).sum()
Array(3, dtype=int32)
>>> trellax.compat.uninstall()

``python -m trellax run SCRIPT [ARGS...]`` does the same for a whole program; see docs/compat.md.
"""

from trellax._src.compat.hook import AliasModule as AliasModule
from trellax._src.compat.hook import Recorder as Recorder
from trellax._src.compat.hook import install as install
from trellax._src.compat.hook import is_installed as is_installed
from trellax._src.compat.hook import uninstall as uninstall
from trellax._src.compat.names import JAX_VERSION as JAX_VERSION
from trellax._src.compat.runner import run as run
