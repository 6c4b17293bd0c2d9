"""``checkpoint_name``: the identity, naming a value for rematerialization policies (JAX's
``jax.ad_checkpoint.checkpoint_name`` and its ``name`` primitive).

The name is a parameter of the equation (``name[name=a]`` in a jaxpr); the policies
``save_only_these_names`` and its siblings (``trellax.checkpoint_policies``) read it, and
``print_saved_residuals`` reports a saved named value by its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero
from trellax._src.tree.tree_util import tree_map

name_p = Primitive("name")
name_p.def_impl(lambda x, *, name: x, fp_free=True)
name_p.def_abstract_eval(lambda x, *, name: core.get_aval(x))


def _name_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, name: str) -> tuple[Any, Any]:
    (x,) = primals
    (t,) = tangents
    return name_p.bind(x, name=name), t


def _name_batch(args: Sequence[Any], dims: Sequence[Any], *, name: str) -> tuple[Any, Any]:
    (x,) = args
    (d,) = dims
    return name_p.bind(x, name=name), d


def _name_transpose(ct: Any, x: Any, *, name: str) -> list[Any]:
    return [None if type(ct) is Zero else ct]


name_p.def_jvp(_name_jvp)
name_p.def_batch(_name_batch)
name_p.def_transpose(_name_transpose)


def checkpoint_name(x: Any, name: str) -> Any:
    """``x`` (a pytree of arrays) unchanged, its leaves named ``name`` for the policies of
    ``trellax.checkpoint``.

    >>> import trellax
    >>> print(trellax.make_jaxpr(lambda x: checkpoint_name(x * 2, "h"))(1.0))
    { lambda ; a:~f32[]. let
        b:~f32[] = mul a 2.0:~f32[]
        c:~f32[] = name[name=h] b
      in (c,) }
    """
    if not isinstance(name, str):
        raise TypeError(f"checkpoint_name's name must be a str, got {type(name).__name__}")
    return tree_map(lambda leaf: name_p.bind(asarray(leaf), name=name), x)
