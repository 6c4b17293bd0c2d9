"""``trellax.custom_derivatives``: user-defined derivatives (the public names of
``jax.custom_derivatives`` that trellax has)."""

from trellax._src.custom.derivatives import custom_jvp as custom_jvp
from trellax._src.custom.derivatives import custom_vjp as custom_vjp
from trellax._src.custom.gradient import closure_convert as closure_convert
from trellax._src.custom.gradient import custom_gradient as custom_gradient
from trellax._src.custom.staged import custom_jvp_call_p as custom_jvp_call_p
from trellax._src.custom.staged import custom_vjp_call_p as custom_vjp_call_p
from trellax._src.custom.symbolic import CustomVJPPrimal as CustomVJPPrimal
from trellax._src.custom.symbolic import SymbolicZero as SymbolicZero
from trellax._src.custom.symbolic import (
    custom_vjp_primal_tree_values as custom_vjp_primal_tree_values,
)
from trellax._src.custom.symbolic import zero_from_primal as zero_from_primal
