"""``jax._src.random.prng``: JAX's description of a PRNG implementation (``PRNGImpl``) and
``random_seed``.

trellax implements one PRNG, threefry2x32 (``threefry_prng_impl`` here describes it with the
functions of ``threefry2x32``). A ``PRNGImpl`` can be built, compared and printed as in JAX,
but keys of any other implementation cannot be made: ``random_seed`` raises
``NotImplementedError`` for them rather than silently using threefry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.random as _random
from trellax._src.compat.jax_src.random.threefry2x32 import PRNGImpl as PRNGImpl
from trellax._src.compat.jax_src.random.threefry2x32 import (
    threefry_prng_impl as threefry_prng_impl,
)
from trellax._src.config import jax_flags as _jax_flags
from trellax._src.random.keys import PRNGKeyArray as PRNGKeyArray
from trellax._src.random.keys import PRNGKeyDType


def _refused(name: str) -> Callable[..., Any]:
    def fn(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"the {name} PRNG implementation is not implemented in trellax; trellax.random "
            "implements 'threefry2x32' (JAX's default), bit for bit"
        )

    return fn


def _described(name: str, key_shape: tuple[int, ...], tag: str) -> PRNGImpl:
    """JAX's description of an implementation trellax does not have (its functions raise)."""
    f = _refused(name)
    return PRNGImpl(key_shape, f, f, f, f, name=name, tag=tag)


#: JAX's registered implementations by name, in JAX's order; only threefry2x32 works in
#: trellax, the others are descriptions whose functions raise ``NotImplementedError``.
prngs: dict[str, PRNGImpl] = {
    "philox2x32": _described("philox2x32", (1,), "phx2"),
    "philox4x32": _described("philox4x32", (2,), "phx4"),
    "threefry2x32": threefry_prng_impl,
    "rbg": _described("rbg", (4,), "rbg"),
    "unsafe_rbg": _described("unsafe_rbg", (4,), "urbg"),
    "threefry4x32": _described("threefry4x32", (4,), "fry4"),
}


def random_seed(seeds: Any, impl: Any) -> PRNGKeyArray:
    """Typed keys of ``impl`` from integer seeds (threefry2x32 only)."""
    if impl is threefry_prng_impl or impl == "threefry2x32":
        return _random.key(seeds)
    name = impl.name if isinstance(impl, PRNGImpl) else str(impl)
    raise NotImplementedError(
        f"PRNG implementation {name!r}: trellax implements only threefry2x32 (JAX's default); "
        "keys of other implementations, including custom PRNGImpl objects, cannot be made"
    )


def default_prng_impl() -> PRNGImpl:
    """The implementation of new keys (``jax_default_prng_impl``; trellax has threefry2x32)."""
    return prngs[_jax_flags.default_prng_impl.value]


#: JAX's class of key dtypes.
KeyTy = PRNGKeyDType

# JAX's internal attributes of key arrays that its tests read: the implementation object and
# the key data (``_base_array``)
PRNGKeyArray._impl = property(lambda self: threefry_prng_impl)  # type: ignore[attr-defined]
PRNGKeyArray._base_array = property(lambda self: self._base)  # type: ignore[attr-defined]


def random_wrap(base_arr: Any, *, impl: Any) -> PRNGKeyArray:
    """Typed keys around key data whose last axis is the implementation's key shape."""
    if impl is not threefry_prng_impl and impl != "threefry2x32":
        random_seed(0, impl)  # raises: keys of other implementations cannot be made
    return _random.wrap_key_data(base_arr)


def random_unwrap(keys: Any) -> Any:
    """The uint32 key data of typed keys (``TypeError`` for anything else, as JAX)."""
    if not isinstance(keys, PRNGKeyArray):
        raise TypeError(f"random_unwrap takes key array operand, got {keys!r}")
    return _random.key_data(keys)


def random_bits(keys: Any, bit_width: int, shape: Any) -> Any:
    """Raw unsigned bits of width ``bit_width`` (8, 16, 32, 64) from typed keys."""
    if bit_width not in (8, 16, 32, 64):
        raise ValueError(f"bit_width must be 8, 16, 32 or 64, got {bit_width}")
    return _random.bits(keys, tuple(shape), dtype=f"uint{bit_width}")
