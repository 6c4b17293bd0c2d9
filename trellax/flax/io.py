"""``trellax.flax.io`` (``flax.io``): local file operations."""

from trellax._src.flax.io import BackendMode as BackendMode
from trellax._src.flax.io import GFile as GFile
from trellax._src.flax.io import NotFoundError as NotFoundError
from trellax._src.flax.io import copy as copy
from trellax._src.flax.io import exists as exists
from trellax._src.flax.io import getsize as getsize
from trellax._src.flax.io import glob as glob
from trellax._src.flax.io import isdir as isdir
from trellax._src.flax.io import listdir as listdir
from trellax._src.flax.io import makedirs as makedirs
from trellax._src.flax.io import override_mode as override_mode
from trellax._src.flax.io import remove as remove
from trellax._src.flax.io import rename as rename
from trellax._src.flax.io import rmtree as rmtree
from trellax._src.flax.io import set_mode as set_mode
