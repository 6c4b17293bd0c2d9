"""``trellax.checkpoint_policies``: the rematerialization policies of ``jax.checkpoint_policies``
(recorded by ``trellax.checkpoint``, with no effect on results: see docs/toplevel.md)."""

from trellax._src.checkpoint.policies import checkpoint_dots as checkpoint_dots
from trellax._src.checkpoint.policies import (
    checkpoint_dots_with_no_batch_dims as checkpoint_dots_with_no_batch_dims,
)
from trellax._src.checkpoint.policies import dots_saveable as dots_saveable
from trellax._src.checkpoint.policies import (
    dots_with_no_batch_dims_saveable as dots_with_no_batch_dims_saveable,
)
from trellax._src.checkpoint.policies import everything_saveable as everything_saveable
from trellax._src.checkpoint.policies import nothing_saveable as nothing_saveable
from trellax._src.checkpoint.policies import (
    offload_dot_with_no_batch_dims as offload_dot_with_no_batch_dims,
)
from trellax._src.checkpoint.policies import (
    save_and_offload_only_these_names as save_and_offload_only_these_names,
)
from trellax._src.checkpoint.policies import (
    save_any_names_but_these as save_any_names_but_these,
)
from trellax._src.checkpoint.policies import (
    save_anything_except_these_names as save_anything_except_these_names,
)
from trellax._src.checkpoint.policies import save_from_both_policies as save_from_both_policies
from trellax._src.checkpoint.policies import save_only_these_names as save_only_these_names
