"""``jax.experimental.random.stateful_rng``: a NumPy-``Generator``-like object whose draws update
its own state, built on the stateless keys (JAX's JEP 28845).

The state is a base key and a counter held in a ``Ref``: each draw uses
``fold_in(base_key, counter)`` and adds one to the counter, so ``stateful_rng(1701).random(5)``
is ``uniform(fold_in(key(1701), 0), (5,))`` and the next draw folds in 1 (as observed on
JAX 0.10.2). ``split(n)`` gives one generator over ``n`` keys (for ``vmap``), ``spawn(n)`` a list
of ``n`` generators; both start from ``split`` of a fresh key. A generator is a pytree (children:
the key and the counter reference), so it passes through ``jit`` and ``vmap`` (``vmap`` over
``split(n)``); without a seed, ``stateful_rng()`` under a transformation raises JAX's
``TypeError``. The constructor checks its parts as JAX's does (a typed key, a scalar integer
``Ref``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.api.ref_frames import RefBase
from trellax._src.core.core import current_trace, eval_trace
from trellax._src.dtypes import dtypes
from trellax._src.numpy.creation import zeros
from trellax._src.numpy.refs import new_ref
from trellax._src.random import keys as random_keys
from trellax._src.random import samplers
from trellax._src.tree.registry import register_pytree_node


def _shape(size: int | Sequence[int] | None, *params: Any) -> tuple[int, ...]:
    """``size`` as a shape; without it, the broadcast shape of the distribution's parameters."""
    if size is None:
        return tuple(np.broadcast_shapes(*(np.shape(p) for p in params)))
    if isinstance(size, int | np.integer):
        return (int(size),)
    return tuple(int(d) for d in size)


def _float(dtype: Any) -> Any:

    return dtypes.canonicalize_dtype(np.float64) if dtype is float else dtype


class StatefulPRNG:
    """A generator whose draws update its state (``_base_key``, ``_counter``, a ``Ref``)."""

    _base_key: Any
    _counter: Any

    def __init__(self, _base_key: Any, _counter: Any) -> None:
        if not dtypes.issubdtype(getattr(_base_key, "dtype", None), dtypes.prng_key):
            raise ValueError(f"Expected base_key to be a typed PRNG key; got {_base_key!r}")
        counter_dtype = getattr(_counter, "dtype", None)
        if not (
            isinstance(_counter, RefBase)
            and tuple(_counter.shape) == ()
            and counter_dtype is not None
            and dtypes.issubdtype(counter_dtype, np.integer)
        ):
            raise ValueError(f"Expected counter to be a scalar integer ref; got {_counter!r}")
        self._base_key = _base_key
        self._counter = _counter

    @classmethod
    def _make(cls, base_key: Any, counter: Any) -> StatefulPRNG:
        """A generator over given parts, unchecked (``split``'s counters are not scalars; a
        pytree's children may be anything while transformations rebuild it)."""
        made = object.__new__(cls)
        made._base_key = base_key
        made._counter = counter
        return made

    def __repr__(self) -> str:
        return f"StatefulPRNG(_base_key={self._base_key!r}, _counter={self._counter!r})"

    def key(self, shape: int | Sequence[int] = ()) -> Any:
        """A new key (or ``split`` into ``shape`` keys), counting one draw."""

        count = self._counter[...]
        key = random_keys.fold_in(self._base_key, count)
        self._counter[...] = count + 1
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        return key if shape == () else random_keys.split(key, shape)

    def random(self, size: int | Sequence[int] | None = None, dtype: Any = float) -> Any:
        """Floats uniform in ``[0, 1)``."""

        return samplers.uniform(self.key(), _shape(size), _float(dtype))

    def uniform(
        self,
        low: Any = 0,
        high: Any = 1,
        size: int | Sequence[int] | None = None,
        *,
        dtype: Any = float,
    ) -> Any:
        """Floats uniform in ``[low, high)``."""

        shape = _shape(size, low, high)
        return samplers.uniform(self.key(), shape, _float(dtype), minval=low, maxval=high)

    def normal(
        self,
        loc: Any = 0,
        scale: Any = 1,
        size: int | Sequence[int] | None = None,
        *,
        dtype: Any = float,
    ) -> Any:
        """Normal draws: ``loc + scale * z``."""

        shape = _shape(size, loc, scale)
        return loc + scale * samplers.normal(self.key(), shape, _float(dtype))

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: int | Sequence[int] | None = None,
        *,
        dtype: Any = int,
    ) -> Any:
        """Integers in ``[low, high)`` (``[0, low)`` without ``high``)."""

        if high is None:
            low, high = 0, low
        kind = dtypes.canonicalize_dtype(np.int64) if dtype is int else dtype
        return samplers.randint(self.key(), _shape(size, low, high), low, high, kind)

    def split(self, num: int | Sequence[int]) -> StatefulPRNG:
        """One generator over ``num`` keys, each with its own counter (for ``vmap``)."""

        keys = self.key(num)
        return StatefulPRNG._make(keys, new_ref(zeros(keys.shape, dtypes.int32)))

    def spawn(self, n_children: int) -> list[StatefulPRNG]:
        """``n_children`` independent generators."""
        return [StatefulPRNG._make(k, new_ref(0)) for k in self.key(n_children)]


def stateful_rng(seed: Any = None, *, impl: Any = None) -> StatefulPRNG:
    """A :class:`StatefulPRNG` seeded with ``seed`` (without one, from NumPy's fresh entropy)."""

    if seed is None:
        if current_trace() is not eval_trace:
            raise TypeError(
                "When used within transformed code, jax.experimental.random.stateful_rng() "
                "requires an explicit seed to be set."
            )
        seed = int(np.random.default_rng().integers(0, 2**31 - 1))
    return StatefulPRNG._make(random_keys.key(seed, impl=impl), new_ref(0))


# a pytree (the key and the counter are its children), so it passes through jit, vmap, ...
register_pytree_node(
    StatefulPRNG,
    lambda p: ((p._base_key, p._counter), None),
    lambda _, children: StatefulPRNG._make(*children),
)
