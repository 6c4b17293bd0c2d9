"""Derivative checks against finite differences (``jax.test_util``'s API)."""

from trellax._src.api.test_util import check_grads as check_grads
from trellax._src.api.test_util import check_jvp as check_jvp
from trellax._src.api.test_util import check_vjp as check_vjp

__all__ = ["check_grads", "check_jvp", "check_vjp"]
