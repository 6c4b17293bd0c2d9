"""``trellax.flax.traceback_util`` (``flax.traceback_util``): show or hide the Flax layer's frames
when traceback filtering is on."""

# Flax's own tests read the Flax layer's paths under this private name.
from trellax._src.flax.traceback_util import _flax_exclusions as _flax_exclusions
from trellax._src.flax.traceback_util import api_boundary as api_boundary
from trellax._src.flax.traceback_util import hide_flax_in_tracebacks as hide_flax_in_tracebacks
from trellax._src.flax.traceback_util import register_exclusion as register_exclusion
from trellax._src.flax.traceback_util import show_flax_in_tracebacks as show_flax_in_tracebacks
