"""``trellax.flax.configurations`` (``flax.configurations``): Flax's flags."""

from trellax._src.flax.configurations import Config as Config
from trellax._src.flax.configurations import FlagHolder as FlagHolder
from trellax._src.flax.configurations import bool_flag as bool_flag
from trellax._src.flax.configurations import config as config
from trellax._src.flax.configurations import int_flag as int_flag
from trellax._src.flax.configurations import static_bool_env as static_bool_env
from trellax._src.flax.configurations import static_int_env as static_int_env
