"""``jax.experimental.layout``'s ``Layout`` and ``Format``: how an array's elements are laid out
in device memory, and a layout paired with a sharding.

trellax's arrays are NumPy buffers in C order on one CPU device, so a layout here is a
description that programs pass around and compare (Flax's ``flax.core.spmd`` maps shardings
inside ``Format`` objects); nothing is compiled with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core.devices import Sharding


class _AutoLayout:
    """``Layout.AUTO``: let the compiler choose."""

    def __repr__(self) -> str:
        return "AUTO"


AUTO_LAYOUT = _AutoLayout()


class Layout:
    """Dimension order (major to minor), optional tiling and sub-byte element size."""

    AUTO = AUTO_LAYOUT

    def __init__(
        self,
        major_to_minor: Sequence[int],
        tiling: Sequence[Sequence[int]] | None = None,
        sub_byte_element_size_in_bits: int = 0,
    ) -> None:
        self.major_to_minor: tuple[int, ...] = tuple(int(d) for d in major_to_minor)
        self.tiling: tuple[tuple[int, ...], ...] | None = (
            None if tiling is None else tuple(tuple(t) for t in tiling)
        )
        self.sub_byte_element_size_in_bits = int(sub_byte_element_size_in_bits)

    def _key(self) -> tuple[Any, ...]:
        return (self.major_to_minor, self.tiling, self.sub_byte_element_size_in_bits)

    def __repr__(self) -> str:
        return (
            f"Layout(major_to_minor={self.major_to_minor}, tiling={self.tiling}, "
            f"sub_byte_element_size_in_bits={self.sub_byte_element_size_in_bits})"
        )

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self._key() == other._key()

    def update(self, **changes: Any) -> Layout:
        """A copy with the given fields replaced."""
        fields: dict[str, Any] = dict(
            major_to_minor=self.major_to_minor,
            tiling=self.tiling,
            sub_byte_element_size_in_bits=self.sub_byte_element_size_in_bits,
        )
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"Layout.update() got unexpected fields {sorted(unknown)}")
        fields.update(changes)
        return Layout(**fields)

    def check_compatible_aval(self, aval_shape: Sequence[int]) -> None:
        """Raises ValueError unless the layout has one entry per dimension of the shape."""
        if len(self.major_to_minor) != len(aval_shape):
            raise ValueError(
                "Length of major_to_minor and the rank of the value should match. Got "
                f"major_to_minor={self.major_to_minor} and shape={tuple(aval_shape)}"
            )


class Format:
    """A layout (``Layout``, ``Layout.AUTO`` or None) with a sharding (or None)."""

    __slots__ = ("layout", "sharding")

    def __init__(self, layout: Any = None, sharding: Any = None) -> None:
        if not isinstance(layout, (Layout, _AutoLayout, type(None))):
            raise TypeError(
                "Invalid value received for the layout argument. Expected values are `None`, "
                f"`Layout.AUTO` or an instance of `Layout`. Got {layout} of type {type(layout)}"
            )
        if not isinstance(sharding, (Sharding, type(None))):
            raise TypeError(
                "Invalid value received for the sharding argument. Expected values are `None` "
                f"or an instance of `jax.Sharding`. Got {sharding} of type {type(sharding)}"
            )
        if isinstance(layout, Layout) and sharding is None:
            raise ValueError(
                "Sharding has to be concrete when layout is of type "
                f"{type(layout)}. Please pass a `jax.sharding.NamedSharding` or "
                f"`jax.sharding.SingleDeviceSharding` to the sharding argument. Got sharding {sharding}"
            )
        self.layout = layout
        self.sharding = sharding

    def __repr__(self) -> str:
        return f"Format(layout={self.layout}, sharding={self.sharding})"

    def __hash__(self) -> int:
        return hash((self.layout, self.sharding))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Format)
            and self.layout == other.layout
            and self.sharding == other.sharding
        )
