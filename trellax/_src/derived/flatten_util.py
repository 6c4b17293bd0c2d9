"""``ravel_pytree``: a pytree of arrays as one flat vector, and the function that undoes it.

As in JAX: the flat vector's dtype is the promotion of the leaves' dtypes (a Python scalar leaf
counts as its default dtype); with one dtype, the unravel function accepts a vector of any dtype
(and keeps it); with several, it demands the promoted dtype and converts each piece back to its
leaf's dtype. An empty pytree gives an empty float32 vector.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax import lax
from trellax import numpy as tnp
from trellax._src.dtypes import dtypes
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten


class _Unravel:
    """The inverse of one ``ravel_pytree`` call (a plain, comparable, hashable value)."""

    __slots__ = ("from_dtypes", "shapes", "sizes", "to_dtype", "treedef")

    def __init__(
        self,
        treedef: Any,
        sizes: tuple[int, ...],
        shapes: tuple[tuple[int, ...], ...],
        from_dtypes: tuple[np.dtype[Any], ...] | None,
        to_dtype: np.dtype[Any] | None,
    ) -> None:
        self.treedef = treedef
        self.sizes = sizes
        self.shapes = shapes
        self.from_dtypes = from_dtypes
        self.to_dtype = to_dtype

    def _key(self) -> tuple[Any, ...]:
        return (self.treedef, self.sizes, self.shapes, self.from_dtypes, self.to_dtype)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unravel) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"unravel_pytree({self.treedef})"

    def __call__(self, flat: Any) -> Any:
        """The pytree whose ravelled form is the 1-D array ``flat``."""
        if self.from_dtypes is not None:
            got = tnp.asarray(flat).dtype if not hasattr(flat, "dtype") else np.dtype(flat.dtype)
            if got != self.to_dtype:
                raise TypeError(
                    f"unravel function given array of dtype {got}, "
                    f"but expected dtype {self.to_dtype}"
                )
        leaves: list[Any] = []
        if self.sizes:
            if np.ndim(flat) != 1 or np.shape(flat)[0] != sum(self.sizes):
                raise ValueError(  # JAX's text (its lax.split's)
                    f"Sum of sizes {sum(self.sizes)} must be equal to dimension 0 of the "
                    f"operand shape {list(np.shape(flat))}"
                )
            pieces = lax.split(flat, self.sizes) if len(self.sizes) > 1 else [flat]
            for k, (piece, shape) in enumerate(zip(pieces, self.shapes, strict=True)):
                piece = piece.reshape(shape)
                if self.from_dtypes is not None:
                    piece = lax.convert_element_type(piece, self.from_dtypes[k])
                leaves.append(piece)
        return tree_unflatten(self.treedef, leaves)


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """Flattens ``pytree``'s leaves into one 1-D array; returns it and the inverse function.

    The array's dtype is the promotion of the leaves' dtypes (``dtypes.result_type``); the
    inverse gives each leaf back its shape and dtype.
    """
    leaves, treedef = tree_flatten(pytree)
    if not leaves:
        return lax.full((0,), 0, np.dtype("float32")), _Unravel(treedef, (), (), None, None)
    arrays = [tnp.asarray(leaf) for leaf in leaves]
    from_dtypes = tuple(np.dtype(a.dtype) for a in arrays)
    to_dtype = np.dtype(dtypes.result_type(*from_dtypes))
    sizes = tuple(int(a.size) for a in arrays)
    shapes = tuple(tuple(a.shape) for a in arrays)
    if all(d == to_dtype for d in from_dtypes):
        flat = _concat([lax.reshape(a, (a.size,)) for a in arrays])
        return flat, _Unravel(treedef, sizes, shapes, None, None)
    pieces = [lax.convert_element_type(a, to_dtype).ravel() for a in arrays]
    return _concat(pieces), _Unravel(treedef, sizes, shapes, from_dtypes, to_dtype)


def _concat(pieces: Sequence[Any]) -> Any:
    return pieces[0] if len(pieces) == 1 else lax.concatenate(list(pieces), 0)
