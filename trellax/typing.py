"""``trellax.typing``: ``ArrayLike`` and ``DTypeLike`` for inputs, ``Array`` for outputs.

>>> import trellax.numpy as tnp
>>> from trellax.typing import Array, ArrayLike
>>> def double(x: ArrayLike) -> Array:
...     return tnp.asarray(x) * 2
"""

from trellax._src.core.basearray import Array
from trellax._src.core.typing import (
    ArrayLike,
    DType,
    DTypeLike,
    Shape,
    ShapeLike,
    StaticScalar,
    SupportsDType,
)

__all__ = [
    "Array",
    "ArrayLike",
    "DType",
    "DTypeLike",
    "Shape",
    "ShapeLike",
    "StaticScalar",
    "SupportsDType",
]
