"""``trellax.Ref``: mutable array references (JAX's ``jax.new_ref``, ``jax.Ref``, ``jax.ref``).

A reference holds an immutable array and is read and written with NumPy indexing
(``r[...]``, ``r[1:] = v``, ``r[i] += 1``); a write replaces the held array by an updated one
(``x.at[idx].set(v)``), so arrays read earlier never change. As in JAX a written value must
already have the reference's type: the same dtype (a weak Python scalar of the same kind is
converted) and exactly the shape of the indexed part (no broadcasting). How references cross
``jit`` and ``vmap`` is in ``api/ref_frames.py``; docs/extending.md has the rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.api import ref_frames
from trellax._src.api.ref_frames import RefBase
from trellax._src.core import core
from trellax._src.dtypes import dtypes
from trellax._src.lax.shapes import convert_element_type
from trellax._src.numpy.creation import asarray


def _is_whole(idx: Any) -> bool:
    return idx is Ellipsis or idx == () or (isinstance(idx, tuple) and idx == (Ellipsis,))


class Ref(RefBase):
    """A mutable reference to an array (make one with :func:`new_ref`).

    >>> import trellax, trellax.numpy as tnp
    >>> r = new_ref(tnp.zeros(3))
    >>> r[1] += 1.0
    >>> r
    Ref([0., 1., 0.], dtype=float32)
    """

    __slots__ = ()

    def __getitem__(self, idx: Any) -> Any:
        value = ref_frames.resolve(self)._held
        return value if _is_whole(idx) else value[idx]

    def __setitem__(self, idx: Any, value: Any) -> None:
        swap(self, idx, value)

    def __repr__(self) -> str:
        target = ref_frames.resolve(self)
        text = repr(target._held)
        if target._written or self._written:  # as JAX's: the buffer written has no weak type
            text = text.replace(", weak_type=True", "")
        return "Ref(" + text[len("Array(") :] if text.startswith("Array(") else f"Ref({text})"

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def addupdate(self, idx: Any, value: Any) -> None:
        """``self[idx] += value``."""
        addupdate(self, idx, value)

    def unsafe_buffer_pointer(self) -> int:
        """The address of the held array's buffer (a write replaces the buffer: unlike JAX's,
        the address changes)."""
        value = ref_frames.resolve(self)._held
        return int(np.asarray(value).__array_interface__["data"][0])

    @property
    def at(self) -> Any:
        raise NotImplementedError("Ref.at: index the reference directly (r[idx] = v)")

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"an array reference of type {self.type_str()} is not an array: read it first (r[...])"
        )


def _make(value: Any, owner: core.Trace) -> RefBase:
    return Ref(value, owner)


ref_frames.make_ref = _make


def new_ref(init_val: Any) -> Ref:
    """A new reference holding ``init_val`` (an array or scalar; a Python scalar keeps its weak
    type)."""
    value = asarray(init_val)
    return Ref(value, core.current_trace())


def _typed_value(ref: Ref, idx: Any, value: Any, expected_shape: tuple[int, ...]) -> Any:
    """``value`` as the reference's dtype, or JAX's ValueError."""
    v = asarray(value)
    d = ref.dtype
    if v.dtype != d:
        if v.weak_type and dtypes.kind(v.dtype) == dtypes.kind(d):
            v = convert_element_type(v, d)
        else:
            raise ValueError(f"Invalid dtype for `swap`. Ref dtype: {d}. Value dtype: {v.dtype}. ")
    if tuple(v.shape) != tuple(expected_shape):
        raise ValueError(
            f"Invalid shape for `swap`. Ref shape: {tuple(ref.shape)}. Expected shape: "
            f"{tuple(expected_shape)}. Value shape: {tuple(v.shape)}. Index: {idx!r}."
        )
    return v


def get(ref: Ref, idx: Any = Ellipsis) -> Any:
    """``ref[idx]``."""
    return ref[idx]


def swap(ref: Ref, idx: Any, value: Any) -> Any:
    """Stores ``value`` at ``ref[idx]`` and returns what was there."""
    if not isinstance(ref, Ref):
        raise TypeError(f"swap expects an array reference, got {type(ref).__name__}")
    target = ref_frames.resolve(ref)
    current = target._held
    old = current if _is_whole(idx) else current[idx]
    v = _typed_value(ref, idx, value, tuple(old.shape))
    if _is_whole(idx):
        new = convert_element_type(v, ref.dtype, weak_type=ref.aval.weak_type)
    else:
        new = current.at[idx].set(v)
    ref_frames.check_storable(target, new)
    target._held = new
    target._written = ref._written = True
    return old


def ref_set(ref: Ref, idx: Any, value: Any) -> None:
    """``ref[idx] = value``."""
    swap(ref, idx, value)


def addupdate(ref: Ref, idx: Any, value: Any) -> None:
    """``ref[idx] += value``."""
    swap(ref, idx, ref[idx] + value)


def freeze(ref: Ref) -> Any:
    """The reference's final value (the reference stays readable, as JAX's does eagerly)."""
    return ref[...]
