"""``jax._src.ad_checkpoint``: the rematerialization names JAX's tests import from the private
module (the public ones are in ``trellax.ad_checkpoint``)."""

from __future__ import annotations

from trellax._src.checkpoint.naming import checkpoint_name as checkpoint_name
from trellax._src.checkpoint.rematerialize import checkpoint as checkpoint
from trellax._src.checkpoint.rematerialize import remat as remat
from trellax._src.checkpoint.residuals import print_saved_residuals as print_saved_residuals
from trellax._src.checkpoint.residuals import saved_residuals as saved_residuals
