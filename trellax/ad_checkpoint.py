"""``trellax.ad_checkpoint``: rematerialization (``jax.ad_checkpoint``): ``checkpoint`` and its
policies, ``checkpoint_name`` to name values for them, and ``print_saved_residuals`` to see what
reverse mode keeps (docs/toplevel.md)."""

from trellax import checkpoint_policies as checkpoint_policies
from trellax._src.checkpoint.naming import checkpoint_name as checkpoint_name
from trellax._src.checkpoint.rematerialize import checkpoint as checkpoint
from trellax._src.checkpoint.rematerialize import remat as remat
from trellax._src.checkpoint.residuals import print_saved_residuals as print_saved_residuals
from trellax._src.checkpoint.residuals import saved_residuals as saved_residuals
