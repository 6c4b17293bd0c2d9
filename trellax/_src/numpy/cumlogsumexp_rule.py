"""The tangent rule of the real ``lax.cumlogsumexp``: JAX's, the JVP of an associative scan
of ``logaddexp``, around values computed in XLA's order. It needs the custom-rule, numpy and
autodiff layers, so it lives here and fills ``lax.convenience``'s hook when imported."""

from __future__ import annotations

from typing import Any

from trellax._src.api.autodiff import jvp
from trellax._src.core.basearray import Array
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.lax import convenience
from trellax._src.lax.convenience import xla_order_scan
from trellax._src.lax.tree_ops import associative_scan
from trellax._src.numpy.ufuncs import logaddexp

_CUMLSE_FNS: dict[tuple[int, bool], Any] = {}


def real_cumlogsumexp(ax: int, reverse: bool) -> Any:
    """The real cumlogsumexp along ``ax`` as a ``custom_jvp`` function: its values in XLA's
    order (:func:`xla_order_scan`), its tangent JAX's: the JVP of an associative scan of
    ``jnp.logaddexp``, whose rule reads ``+inf`` as 0 (so after an infinity the tangent is
    not the softmax-weighted sum: JAX's ``jvp`` of ``[0, -0.921875, inf]`` reversed in
    bfloat16 is ``2.40625`` at the first element)."""
    key = (ax, reverse)
    fn = _CUMLSE_FNS.get(key)
    if fn is not None:
        return fn

    def primal(x: Array) -> Array:
        return xla_order_scan(x, ax, reverse)

    def scan(x: Array) -> Array:
        out: Array = associative_scan(logaddexp, x, reverse=reverse, axis=ax)
        return out

    def rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
        (x,), (t,) = primals, tangents
        _, tangent = jvp(scan, (x,), (t,))
        # the primal through the wrapped function, so a higher derivative uses this rule again
        return wrapped(x), tangent

    wrapped = custom_jvp(primal)
    wrapped.defjvp(rule)
    _CUMLSE_FNS[key] = wrapped
    return wrapped


convenience.real_cumlogsumexp_hook = real_cumlogsumexp
