"""``jax.lax``'s option types for matrix products and random bits.

NumPy computes a product at its operands' precision, so the precision and algorithm options are
accepted wherever JAX accepts them (``dot``, ``dot_general``, ``conv_*``, ``ragged_dot*``) and
change nothing. ``RandomAlgorithm`` selects ``rng_bit_generator``'s algorithm.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple, TypeAlias

from trellax._src.lax.accuracy import AccuracyMode as AccuracyMode
from trellax._src.lax.accuracy import Tolerance as Tolerance
from trellax._src.lax.convenience import Precision
from trellax._src.lax.reductions import DotDimensionNumbers as DotDimensionNumbers


class DotAlgorithm(NamedTuple):
    """An explicit dot algorithm: operand storage types, accumulation type, component counts."""

    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class DotAlgorithmPreset(enum.Enum):
    """Named dot algorithms: ``<lhs type>_<rhs type>_<accumulation type>`` (and variants)."""

    DEFAULT = 1
    ANY_F8_ANY_F8_F32 = 2
    ANY_F8_ANY_F8_F32_FAST_ACCUM = 3
    ANY_F8_ANY_F8_ANY = 4
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = 5
    F16_F16_F16 = 6
    F16_F16_F32 = 7
    BF16_BF16_BF16 = 8
    BF16_BF16_F32 = 9
    BF16_BF16_F32_X3 = 10
    BF16_BF16_F32_X6 = 11
    BF16_BF16_F32_X9 = 12
    TF32_TF32_F32 = 13
    TF32_TF32_F32_X3 = 14
    F32_F32_F32 = 15
    F64_F64_F64 = 16

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name


#: What ``precision=`` accepts: ``None``, a ``Precision`` or its name, a pair of them, a
#: ``DotAlgorithm`` or a ``DotAlgorithmPreset``.
PrecisionLike: TypeAlias = (
    str
    | Precision
    | tuple[str, str]
    | tuple[Precision, Precision]
    | DotAlgorithm
    | DotAlgorithmPreset
    | None
)


class RandomAlgorithm(enum.IntEnum):
    """``rng_bit_generator``'s algorithms (XLA's default is Philox on CPU)."""

    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self) -> str:
        return self.name
