"""``jax._src.random.prng``: JAX's description of a PRNG implementation (``PRNGImpl``) and
``random_seed``.

trellax implements one PRNG, threefry2x32 (``threefry_prng_impl`` here describes it with the
functions of ``threefry2x32``). A ``PRNGImpl`` can be built, compared and printed as in JAX,
but keys of any other implementation cannot be made: ``random_seed`` raises
``NotImplementedError`` for them rather than silently using threefry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import trellax.random as _random
from trellax._src.compat.jax_src.random import threefry2x32 as _fry
from trellax._src.random.keys import PRNGKeyArray as PRNGKeyArray


class PRNGImpl(NamedTuple):
    """A PRNG implementation: the key data's shape and the functions on key data (``seed``,
    ``split``, ``random_bits``, ``fold_in``), with a name and a short tag (``fry``)."""

    key_shape: tuple[int, ...]
    seed: Callable[..., Any]
    split: Callable[..., Any]
    random_bits: Callable[..., Any]
    fold_in: Callable[..., Any]
    name: str = "<unnamed>"
    tag: str = "?"

    def __hash__(self) -> int:
        return hash(self.tag)

    def __str__(self) -> str:
        return self.tag


threefry_prng_impl = PRNGImpl(
    key_shape=(2,),
    seed=_fry.threefry_seed,
    split=_fry.threefry_split,
    random_bits=_fry.threefry_random_bits,
    fold_in=_fry.threefry_fold_in,
    name="threefry2x32",
    tag="fry",
)
#: The implementations by name (trellax has one).
prngs: dict[str, PRNGImpl] = {"threefry2x32": threefry_prng_impl}


def random_seed(seeds: Any, impl: Any) -> PRNGKeyArray:
    """Typed keys of ``impl`` from integer seeds (threefry2x32 only)."""
    if impl is threefry_prng_impl or impl == "threefry2x32":
        return _random.key(seeds)
    name = impl.name if isinstance(impl, PRNGImpl) else str(impl)
    raise NotImplementedError(
        f"PRNG implementation {name!r}: trellax implements only threefry2x32 (JAX's default); "
        "keys of other implementations, including custom PRNGImpl objects, cannot be made"
    )
