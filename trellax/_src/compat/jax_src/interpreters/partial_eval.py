"""``jax._src.interpreters.partial_eval``: the jaxpr utilities JAX's tests and libraries use."""

from __future__ import annotations

from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.interpreters.dce import dce_jaxpr as dce_jaxpr


def close_jaxpr(jaxpr: Jaxpr) -> ClosedJaxpr:
    """``jaxpr`` (without constants) as a closed jaxpr."""
    return ClosedJaxpr(jaxpr, [])
