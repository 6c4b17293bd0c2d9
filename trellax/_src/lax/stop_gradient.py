"""``stop_gradient``: the identity, with a zero derivative (JAX's ``lax.stop_gradient``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero, differentiable, tangent_aval
from trellax._src.lax.shapes import def_elementwise
from trellax._src.tree.tree_util import tree_map

stop_gradient_p = Primitive("stop_gradient")
stop_gradient_p.def_impl(lambda x: x)
stop_gradient_p.def_abstract_eval(lambda x: core.get_aval(x))
def_elementwise(stop_gradient_p, fusable=False)  # the identity, elementwise: batch stays put


def _stop_gradient_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    (x,) = primals
    ans = stop_gradient_p.bind(x)
    return ans, Zero(tangent_aval(core.get_aval(ans)))


stop_gradient_p.def_jvp(_stop_gradient_jvp)


def stop_gradient(x: Any) -> Any:
    """The identity, with a zero derivative; maps over pytrees. Integer arrays pass through.

    >>> import trellax
    >>> trellax.grad(lambda x: trellax.lax.stop_gradient(x) * x)(3.0)
    Array(3., dtype=float32, weak_type=True)
    """

    def stop(leaf: Any) -> Any:
        a = asarray(leaf)
        if not differentiable(a.dtype):
            return leaf  # integers and bools pass through unchanged
        return stop_gradient_p.bind(a)

    return tree_map(stop, x)
