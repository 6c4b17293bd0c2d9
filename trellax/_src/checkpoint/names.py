"""``checkpoint_name``: the identity, recording a name on a value (``jax.ad_checkpoint``).

The ``name`` primitive marks a value that name-based policies
(``checkpoint_policies.save_only_these_names`` ...) refer to. It computes nothing; its tangent is
the input's tangent, unnamed (as in JAX).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.lax._base import asarray
from trellax._src.lax.shapes import def_elementwise
from trellax._src.tree.tree_util import tree_map

name_p = Primitive("name")
name_p.def_impl(lambda x, *, name: x, fp_free=True)
name_p.def_abstract_eval(lambda x, *, name: core.get_aval(x))
def_elementwise(name_p, fusable=False)  # the identity: the batch axis stays where it is


def _name_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, name: str) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    return name_p.bind(x, name=name), t


name_p.def_jvp(_name_jvp)


def checkpoint_name(x: Any, name: str) -> Any:
    """``x`` (a pytree) with every leaf marked ``name`` for rematerialization policies.

    >>> import trellax
    >>> print(trellax.make_jaxpr(lambda x: checkpoint_name(x * 2, "y"))(1.0))
    { lambda ; a:~f32[]. let
        b:~f32[] = mul a 2.0:~f32[]
        c:~f32[] = name[name=y] b
      in (c,) }
    """
    return tree_map(lambda leaf: name_p.bind(asarray(leaf), name=name), x)
