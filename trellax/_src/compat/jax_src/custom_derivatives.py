"""``jax._src.custom_derivatives``: the public names of ``jax.custom_derivatives`` and the
private ones libraries and JAX's tests import (``optimize_remat_of_custom_vjp_fwd``)."""

from __future__ import annotations

from trellax._src.custom.remat_opt import (
    optimize_remat_of_custom_vjp_fwd as optimize_remat_of_custom_vjp_fwd,
)
from trellax._src.custom.remat_opt import remat_opt_p as remat_opt_p
from trellax.custom_derivatives import CustomVJPPrimal as CustomVJPPrimal
from trellax.custom_derivatives import SymbolicZero as SymbolicZero
from trellax.custom_derivatives import closure_convert as closure_convert
from trellax.custom_derivatives import custom_gradient as custom_gradient
from trellax.custom_derivatives import custom_jvp as custom_jvp
from trellax.custom_derivatives import custom_jvp_call_p as custom_jvp_call_p
from trellax.custom_derivatives import custom_vjp as custom_vjp
from trellax.custom_derivatives import custom_vjp_call_p as custom_vjp_call_p
from trellax.custom_derivatives import (
    custom_vjp_primal_tree_values as custom_vjp_primal_tree_values,
)
from trellax.custom_derivatives import zero_from_primal as zero_from_primal
