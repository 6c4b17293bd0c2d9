"""The dtype universe, the promotion lattices as data, and JAX's promotion rules on top of them.

Every result dtype in trellax comes from :func:`lattice_result_type`: the join, on a promotion
lattice, of the operands' nodes. A node is a concrete dtype (``np.dtype``) or one of the three weak
nodes ``i*``, ``f*``, ``c*`` that stand for Python scalars and weakly-typed arrays. Which lattice is
used depends on the promotion mode ("standard" or "strict") and on x64 (one edge differs).

The lattices are written below as dicts of immediate successors and validated when this module is
imported (no cycles, a unique least upper bound for every pair that has an upper bound). Promotion
tables are never written by hand; they are derived (``trellax table``) and the golden ones live in
the tests.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, Final, Literal, Protocol, TypeAlias, overload

import ml_dtypes
import numpy as np

from trellax._src.config import settings as _config
from trellax._src.dtypes.extended import _extended_type as _extended_type
from trellax._src.dtypes.extended import extended as extended
from trellax._src.dtypes.extended import no_kind
from trellax._src.dtypes.extended import prng_key as prng_key
from trellax._src.dtypes.lattice import Lattice, NoJoinError

DType: TypeAlias = np.dtype[Any]

# -- the dtype universe -------------------------------------------------------------------------

bool_: Final = np.dtype(np.bool_)
uint8: Final = np.dtype(np.uint8)
uint16: Final = np.dtype(np.uint16)
uint32: Final = np.dtype(np.uint32)
uint64: Final = np.dtype(np.uint64)
int8: Final = np.dtype(np.int8)
int16: Final = np.dtype(np.int16)
int32: Final = np.dtype(np.int32)
int64: Final = np.dtype(np.int64)
bfloat16: Final = np.dtype(ml_dtypes.bfloat16)
float16: Final = np.dtype(np.float16)
float32: Final = np.dtype(np.float32)
float64: Final = np.dtype(np.float64)
complex64: Final = np.dtype(np.complex64)
complex128: Final = np.dtype(np.complex128)


def _ml(names: Iterable[str]) -> dict[str, DType]:
    """The ml_dtypes types of these names that the installed ml_dtypes provides."""
    return {n: np.dtype(getattr(ml_dtypes, n)) for n in names if hasattr(ml_dtypes, n)}


#: Sub-byte integers: promote only with themselves, bool and weak ints.
LOW_INTS: Final = _ml(("int1", "uint1", "int2", "uint2", "int4", "uint4"))
FLOAT8S: Final = _ml(
    (
        "float8_e3m4",
        "float8_e4m3",
        "float8_e8m0fnu",
        "float8_e4m3b11fnuz",
        "float8_e4m3fn",
        "float8_e4m3fnuz",
        "float8_e5m2",
        "float8_e5m2fnuz",
    )
)
FLOAT6S: Final = _ml(("float6_e2m3fn", "float6_e3m2fn"))
FLOAT4S: Final = _ml(("float4_e2m1fn",))
#: fp4/fp6/fp8: promote only with themselves, bool, integers and weak ints/floats.
SMALL_FLOATS: Final = {**FLOAT4S, **FLOAT6S, **FLOAT8S}

_SIGNED_LOW = tuple(d for n, d in LOW_INTS.items() if not n.startswith("u"))
_UNSIGNED_LOW = tuple(d for n, d in LOW_INTS.items() if n.startswith("u"))

#: The 15 standard dtypes, in the order of the reference tables.
STANDARD_DTYPES: Final = (
    bool_,
    uint8,
    uint16,
    uint32,
    uint64,
    int8,
    int16,
    int32,
    int64,
    bfloat16,
    float16,
    float32,
    float64,
    complex64,
    complex128,
)
#: Every dtype that takes part in promotion.
ALL_DTYPES: Final = (*STANDARD_DTYPES, *LOW_INTS.values(), *SMALL_FLOATS.values())
_BY_NAME: Final[dict[str, DType]] = {d.name: d for d in ALL_DTYPES}
_CANONICAL: Final[dict[DType, DType]] = {d: d for d in ALL_DTYPES}  # equal copies -> ours
#: Scalar types by name (``jax.dtypes.bfloat16`` is ``ml_dtypes.bfloat16``, a type).
SCALAR_TYPES: Final[dict[str, type]] = {d.name: d.type for d in ALL_DTYPES}

#: Kind of every dtype: "b", "u", "i", "f" or "c" (ml_dtypes' own ``kind`` is "V").
_KIND: Final[dict[DType, str]] = {
    **{d: d.kind for d in STANDARD_DTYPES if d is not bfloat16},
    bfloat16: "f",
    **{d: "i" for d in _SIGNED_LOW},
    **{d: "u" for d in _UNSIGNED_LOW},
    **{d: "f" for d in SMALL_FLOATS.values()},
}
_CUSTOM_FLOATS: Final = frozenset((bfloat16, *SMALL_FLOATS.values()))


class WeakType:
    """A weak lattice node: ``i*``, ``f*`` or ``c*`` (a Python scalar or weakly-typed array).

    Weak nodes are compared by identity. (NumPy's dtype equality is loose — ``np.dtype('int64') ==
    int`` is True — so Python's ``int`` itself would be a treacherous node.)
    """

    __slots__ = ("code", "kind", "python_type")

    def __init__(self, code: str, kind: str, python_type: type) -> None:
        self.code = code
        self.kind = kind
        self.python_type = python_type

    def __repr__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_weak_from_code, (self.code,))


weak_int: Final = WeakType("i*", "i", int)
weak_float: Final = WeakType("f*", "f", float)
weak_complex: Final = WeakType("c*", "c", complex)
WEAK_NODES: Final = (weak_int, weak_float, weak_complex)
_WEAK_OF_PYTYPE: Final[dict[type, WeakType]] = {
    int: weak_int,
    float: weak_float,
    complex: weak_complex,
}


def _weak_from_code(code: str) -> WeakType:
    return {w.code: w for w in WEAK_NODES}[code]


Node: TypeAlias = DType | WeakType

#: The 18 nodes of the reference tables.
TABLE_NODES: Final[tuple[Node, ...]] = (*STANDARD_DTYPES, *WEAK_NODES)

# -- the lattices, as data ----------------------------------------------------------------------


def standard_successors(x64: bool) -> dict[Node, list[Node]]:
    """JAX's standard lattice. Only x32 differs: ``uint32 -> int32`` instead of ``-> int64``, so
    that no 64-bit type is formed from 32-bit inputs."""
    i_, f_, c_ = WEAK_NODES
    succ: dict[Node, list[Node]] = {
        bool_: [i_],
        i_: [uint8, int8, *LOW_INTS.values()],
        uint8: [int16, uint16],
        uint16: [int32, uint32],
        uint32: [int64, uint64] if x64 else [int32, uint64],
        uint64: [f_],
        int8: [int16],
        int16: [int32],
        int32: [int64],
        int64: [f_],
        f_: [*SMALL_FLOATS.values(), bfloat16, float16, c_],
        bfloat16: [float32],
        float16: [float32],
        float32: [float64, complex64],
        float64: [complex128],
        c_: [complex64],
        complex64: [complex128],
        complex128: [],
    }
    for d in (*LOW_INTS.values(), *SMALL_FLOATS.values()):
        succ[d] = []  # dead ends: no implicit promotion out of sub-byte ints and fp4/6/8
    return succ


def strict_successors() -> dict[Node, list[Node]]:
    """The strict lattice: a concrete dtype joins only itself and weak nodes of its category or a
    lower one (``i* <= f* <= c*``); there are no edges between concrete dtypes at all."""
    i_, f_, c_ = WEAK_NODES
    ints = [d for d in ALL_DTYPES if _KIND[d] in "iu"]
    floats = [d for d in ALL_DTYPES if _KIND[d] == "f"]
    succ: dict[Node, list[Node]] = {
        i_: [f_, *ints],
        f_: [c_, *floats],
        c_: [complex64, complex128],
    }
    for d in ALL_DTYPES:
        succ[d] = []
    return succ


class _LatticeTable(dict[_config.State, Lattice[Node]]):
    """The lattice of each state; a state carrying user-context values (``make_user_context``,
    which change no promotion) gets the lattice of the same state without them."""

    def __missing__(self, st: _config.State) -> Lattice[Node]:
        if not st.user:
            raise KeyError(st)
        lat = self[st._replace(user=())]
        self[st] = lat
        return lat


_LATTICES: Final[_LatticeTable] = _LatticeTable()


def _build_lattices() -> None:
    strict = Lattice(strict_successors(), name="strict lattice")
    for x64 in (False, True):
        std = Lattice(
            standard_successors(x64), name=f"standard lattice ({'x64' if x64 else 'x32'})"
        )
        for excess in (False, True):  # fused_excess_precision does not change promotion
            for rank in ("allow", "warn", "raise"):  # nor does numpy_rank_promotion
                # nor explicit_x64_dtypes: with "allow", 64-bit arrays join on the x32 lattice
                for explicit in _config.ExplicitX64Mode:
                    key = _config.State(x64, "standard", excess, rank, explicit)
                    _LATTICES[key] = std
                    _LATTICES[key._replace(mode="strict")] = strict


_build_lattices()


def lattice(x64: bool | None = None, mode: str | None = None) -> Lattice[Node]:
    """The promotion lattice for a configuration (default: the one in force)."""
    st = _config.state()
    key = _config.State(
        st.x64 if x64 is None else x64,
        st.mode if mode is None else _config._parse_mode(mode),
    )
    return _LATTICES[key]


# -- errors -------------------------------------------------------------------------------------


class TypePromotionError(ValueError):
    """No implicit promotion exists between the input dtypes.

    >>> import trellax.numpy as tnp
    >>> tnp.zeros(2, "int4") + tnp.zeros(2, "int8")  # doctest: +SKIP
    TypePromotionError: Input dtypes ('int4', 'int8') have no available implicit dtype promotion
    path. ... 1-bit, 2-bit and 4-bit integers do not support implicit promotion ...

    Fix: cast explicitly, e.g. ``x.astype("int8") + y``.
    """


TypePromotionError.__module__ = "trellax.dtypes"


def _node_str(n: Node) -> str:
    return repr(n.python_type) if isinstance(n, WeakType) else str(n)


def _promotion_error(nodes: Sequence[Node], mode: str) -> TypePromotionError:
    names = tuple(_node_str(n) for n in nodes)
    head = f"Input dtypes {names} have no available implicit dtype promotion path"
    if mode == "strict":
        return TypePromotionError(
            f"{head} when jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the "
            "desired output type, or set jax_numpy_dtype_promotion=standard."
        )
    for family, what, fix in (
        (FLOAT8S, "8-bit floats", "float32"),
        (FLOAT6S, "6-bit floats", "float32"),
        (FLOAT4S, "4-bit floats", "float32"),
        (LOW_INTS, "1-bit, 2-bit and 4-bit integers", "int32"),
    ):
        if any(n in family.values() for n in nodes if isinstance(n, np.dtype)):
            return TypePromotionError(
                f"{head}. To avoid unintended promotion, {what} do not support implicit "
                "promotion. If you'd like your inputs to be promoted to another type, you can do "
                f"so explicitly using e.g. x.astype('{fix}')"
            )
    return TypePromotionError(f"{head}. Try explicitly casting inputs to the desired output type.")


def _accepted() -> str:
    return ", ".join(d.name for d in ALL_DTYPES)


def _invalid_for_promotion(d: object) -> ValueError:
    return ValueError(
        f"dtype={d!r} is not a valid dtype for trellax type promotion; the promotable dtypes "
        f"are {_accepted()}"
    )


def _join(nodes: Sequence[Node], st: _config.State) -> Node:
    lat = _LATTICES[st]
    try:
        return lat.join(*nodes)
    except NoJoinError:
        raise _promotion_error(_dedupe(nodes), st.mode) from None
    except KeyError:
        bad = next(n for n in nodes if n not in lat)
        raise _invalid_for_promotion(bad) from None


def _dedupe(nodes: Iterable[Node]) -> tuple[Node, ...]:
    out: list[Node] = []
    for n in nodes:
        if not any(n is m for m in out):
            out.append(n)
    return tuple(out)


# -- defaults and canonicalization --------------------------------------------------------------

_DEFAULTS: Final[dict[bool, dict[str, DType]]] = {
    False: {"b": bool_, "i": int32, "u": uint32, "f": float32, "c": complex64},
    True: {"b": bool_, "i": int64, "u": uint64, "f": float64, "c": complex128},
}
#: The range of the default int, by x64 setting: Python ints outside it raise OverflowError.
DEFAULT_INT_RANGE: Final[dict[bool, tuple[int, int]]] = {
    False: (-(2**31), 2**31 - 1),
    True: (-(2**63), 2**63 - 1),
}
_TO_32: Final[dict[DType, DType]] = {
    int64: int32,
    uint64: uint32,
    float64: float32,
    complex128: complex64,
}
_PY_DTYPE_KIND: Final[dict[type, str]] = {bool: "b", int: "i", float: "f", complex: "c"}


def default_int_dtype() -> DType:
    return _DEFAULTS[_config.state().x64]["i"]


def default_uint_dtype() -> DType:
    return _DEFAULTS[_config.state().x64]["u"]


def default_float_dtype() -> DType:
    return _DEFAULTS[_config.state().x64]["f"]


def default_complex_dtype() -> DType:
    return _DEFAULTS[_config.state().x64]["c"]


def kind(d: DType) -> str:
    """The promotion category of a supported dtype: "b", "u", "i", "f" or "c"."""
    try:
        return _KIND[d]
    except KeyError:
        return no_kind(d)  # an extended dtype has none (TypeError); else the KeyError again


_PACKAGE_DIR: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the first frame outside trellax."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def _x64_warning(d: DType, canonical: DType, fun_name: str | None) -> None:
    where = f" requested in {fun_name}" if fun_name else ""
    if _config.state().explicit_x64 is _config.ExplicitX64Mode.ERROR:
        raise ValueError(
            f"Explicitly requested dtype {d.name}{where} is not available. To enable more "
            "dtypes, set the jax_enable_x64 (trellax: enable_x64) configuration option."
        )
    warnings.warn(
        f"Explicitly requested dtype {d.name}{where} is not available, and will be truncated to "
        f"dtype {canonical.name}. To enable more dtypes, set the enable_x64 configuration option "
        "(trellax.config.update('enable_x64', True)) or the TRELLAX_ENABLE_X64 shell environment "
        "variable.",
        UserWarning,
        stacklevel=user_stacklevel(),
    )


def canonicalize_dtype(dtype: Any, *, x64: bool | None = None) -> DType:
    """The dtype trellax actually uses for ``dtype``: with x64 off, 64-bit types become 32-bit.

    Python types map to the defaults (``canonicalize_dtype(float)`` is float32 with x64 off). Does
    not validate: ``canonicalize_dtype('S1')`` is ``dtype('S1')``. Never warns.
    """
    if x64 is None:
        x64 = _config.state().x64
    if isinstance(dtype, type) and dtype in _PY_DTYPE_KIND:
        return _DEFAULTS[x64][_PY_DTYPE_KIND[dtype]]
    d = _CANONICAL.get(d := _to_np_dtype(dtype), d)  # an unpickled equal dtype: our instance
    return d if x64 else _TO_32.get(d, d)


def _to_np_dtype(x: Any) -> DType:
    """``np.dtype(x)`` with trellax's error for things that are not dtypes at all."""
    if isinstance(x, np.dtype):
        return x
    if isinstance(x, str) and x in _BY_NAME:
        return _BY_NAME[x]
    sub: object = getattr(x, "dtype", None)
    if isinstance(x, type) and isinstance(sub, np.dtype):
        found: DType = sub  # trellax scalar types (tnp.float32) carry their dtype
        return found
    try:
        d: DType = np.dtype(x)
        return d
    except (TypeError, ValueError) as e:
        raise TypeError(
            f"Cannot interpret {x!r} as a data type ({e}); trellax accepts dtype objects, dtype "
            f"names, NumPy scalar types and the Python types bool, int, float and complex. "
            f"Supported dtypes: {_accepted()}"
        ) from None


def check_user_dtype(dtype: Any, fun_name: str | None = None) -> DType:
    """Validates and canonicalizes a dtype a user asked for (``dtype=`` arguments).

    Python types map silently to the defaults; a 64-bit dtype with x64 off is truncated with a
    UserWarning naming ``fun_name`` (``explicit_x64_dtypes``: "warn"), raises ValueError
    ("error") or is kept ("allow"); anything outside the supported set raises a TypeError.
    ``None`` means the default float (as JAX's ``dtype=None``).
    """
    x64 = _config.state().x64
    if dtype is None:
        return _DEFAULTS[x64]["f"]
    if isinstance(dtype, type) and dtype in _PY_DTYPE_KIND:
        return _DEFAULTS[x64][_PY_DTYPE_KIND[dtype]]
    if _is_array_like_value(dtype):
        raise ValueError(
            "Passing an array as a dtype argument is not supported; instead of dtype=arr use "
            "dtype=arr.dtype."
        )
    d = _to_np_dtype(dtype)
    if d not in _KIND:
        where = f" in {fun_name}" if fun_name else ""
        raise TypeError(
            f"trellax only supports number and bool dtypes, got dtype {dtype!r}{where}. "
            f"Supported dtypes: {_accepted()}"
        )
    if not x64 and d in _TO_32 and not _config.keeps_x64(_config.state()):
        canonical = _TO_32[d]
        _x64_warning(d, canonical, fun_name)
        return canonical
    return d


def _is_array_like_value(x: object) -> bool:
    return isinstance(x, np.ndarray) or (
        not isinstance(x, type) and hasattr(x, "weak_type") and hasattr(x, "shape")
    )


# -- from arguments to (dtype, weak_type) -------------------------------------------------------


class _HasDType(Protocol):
    @property
    def dtype(self) -> DType: ...


def dtype_and_weak_type(x: Any) -> tuple[DType, bool]:
    """The abstract dtype of an argument as promotion sees it, and whether it is weakly typed.

    Python ``int``/``float``/``complex`` values and types are weak and take the default dtype;
    ``bool`` is never weak; NumPy scalars and arrays are strong and canonicalized silently; dtype
    specifications are canonicalized with a warning; trellax arrays keep their dtype and flag.
    """
    t = type(x)
    if t is int or t is float or t is complex:
        return _DEFAULTS[_config.state().x64][_PY_DTYPE_KIND[t]], True
    if t is bool:
        return bool_, False
    if x is int or x is float or x is complex:
        return _DEFAULTS[_config.state().x64][_PY_DTYPE_KIND[x]], True
    if x is bool:
        return bool_, False
    if isinstance(x, (np.ndarray, np.generic)):
        own: DType = _CANONICAL.get(x.dtype, x.dtype)  # an unpickled array's dtype: an equal copy
        if own not in _KIND:
            raise _invalid_value(x, own)
        return (own if _config.state().x64 else _TO_32.get(own, own)), False
    weak = getattr(x, "weak_type", None)
    # a trellax Array or tracer (its flag a bool, unlike a mock's): dtype and flag as they are
    if (weak is True or weak is False) and not isinstance(x, type):
        d = x.dtype
        return d, bool(weak)
    if isinstance(x, (str, np.dtype, type)):
        d = _to_np_dtype(x)
        if d not in _KIND:
            raise _invalid_value(x, d)
        if isinstance(x, type) and isinstance(getattr(x, "dtype", None), np.dtype):
            # trellax scalar types (tnp.float64) are canonicalized silently, as in JAX
            return (d if _config.state().x64 else _TO_32.get(d, d)), False
        return check_user_dtype(d, "dtype"), False
    if isinstance(x, (list, tuple)):
        raise TypeError(f"Cannot determine dtype of {x!r}")
    if (plain := python_scalar_value(x)) is not None:
        return dtype_and_weak_type(plain)
    if isinstance(d := getattr(x, "dtype", None), np.dtype) and d in _KIND:  # an array stand-in
        return (d if _config.state().x64 else _TO_32.get(d, d)), False
    raise TypeError(
        f"Cannot determine dtype of {x!r} (of type {type(x).__name__}); expected an array, a "
        "Python or NumPy scalar, or a dtype"
    )


def python_scalar_value(x: object) -> int | float | complex | None:
    """The plain Python scalar of an instance of a subclass of ``int``, ``float`` or ``complex``
    (an ``IntEnum`` member, say), which JAX treats as a weak scalar of the base type; None for
    anything else (``bool`` and NumPy scalars included)."""
    if isinstance(x, (bool, np.generic)):
        return None
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, complex):
        return complex(x)
    return None


def _invalid_value(x: object, d: np.dtype[Any]) -> TypeError:
    if d.names == ("float0",):  # the tangent type of integers (``trellax.dtypes.float0``)
        return TypeError(
            "float0s do not support any operations by design because they are not compatible "
            "with non-trivial vector spaces. No implicit dtype conversion is done. You can use "
            "np.zeros_like(arr, dtype=np.float32) to cast a float0 array to a regular zeros "
            "array. If you didn't expect to get a float0 you might have accidentally taken a "
            "gradient with respect to an integer argument."
        )
    return TypeError(
        f"Value {x!r} with dtype {d} is not a valid trellax array type. Only arrays of numeric "
        f"types are supported by trellax (supported dtypes: {_accepted()})."
    )


def is_weakly_typed(x: Any) -> bool:
    """True for Python ``int``/``float``/``complex`` scalars and arrays with ``weak_type=True``."""
    t = type(x)
    if t is int or t is float or t is complex:
        return True
    return bool(getattr(x, "weak_type", False)) and not isinstance(x, type)


def to_node(d: DType, weak_type: bool) -> Node:
    """The lattice node of an abstract value: a weak value of a non-bool dtype is a weak node."""
    if not weak_type:
        return d
    k = _KIND.get(d)
    if k == "b":
        return d
    if k == "f":
        return weak_float
    if k == "c":
        return weak_complex
    if k is not None:
        return weak_int
    raise _invalid_for_promotion(d)


def node_dtype(n: Node, x64: bool) -> DType:
    """The dtype a node stands for: weak nodes stand for the default dtype of their kind."""
    return _DEFAULTS[x64][n.kind] if isinstance(n, WeakType) else n


# -- promotion ----------------------------------------------------------------------------------

_RESULT_CACHE: dict[tuple[Any, ...], tuple[DType, bool]] = {}


def lattice_result_type(*pairs: tuple[DType, bool]) -> tuple[DType, bool]:
    """Promotes abstract values given as ``(dtype, weak_type)``: JAX's ``lattice_result_type``.

    * one value: unchanged;
    * all the same dtype, not all weak: that dtype, strong;
    * all weak (standard mode): the join of their dtypes, weak — so ``weak int16 + weak int16``
      stays int16;
    * otherwise the join of their nodes; the result is weak iff the join is a weak node.

    A bool result is never weak. The result is not canonicalized: weak nodes map to the default
    dtype of the mode in force.
    """
    st = _config.state()
    key = (st, *pairs)
    try:
        return _RESULT_CACHE[key]
    except KeyError:
        pass
    out = _lattice_result_type(pairs, st)
    if len(_RESULT_CACHE) > 4096:
        _RESULT_CACHE.clear()
    _RESULT_CACHE[key] = out
    return out


def _lattice_result_type(
    pairs: Sequence[tuple[DType, bool]], st: _config.State
) -> tuple[DType, bool]:
    if not pairs:
        raise ValueError("at least one array or dtype is required")
    dts = [d for d, _ in pairs]
    weaks = [w for _, w in pairs]
    first = dts[0]
    if len(pairs) == 1:
        out, weak = first, weaks[0]
    elif all(d == first for d in dts) and not all(weaks):
        out, weak = first, False
    elif all(weaks) and st.mode != "strict":
        node = _join(dts, st)
        assert isinstance(node, np.dtype)
        out, weak = node, True
    else:
        node = _join([to_node(d, w) for d, w in pairs], st)
        out, weak = node_dtype(node, st.x64), isinstance(node, WeakType)
    return out, weak and out != bool_


@overload
def result_type(*args: Any, return_weak_type_flag: Literal[False] = ...) -> DType: ...
@overload
def result_type(*args: Any, return_weak_type_flag: Literal[True]) -> tuple[DType, bool]: ...
@overload
def result_type(*args: Any, return_weak_type_flag: bool) -> DType | tuple[DType, bool]: ...


def result_type(*args: Any, return_weak_type_flag: bool = False) -> DType | tuple[DType, bool]:
    """The dtype of the result of an operation on ``args`` under JAX's promotion rules.

    ``args`` may be arrays, Python scalars (weak), NumPy scalars and arrays (strong), dtypes and
    dtype-likes (``'int8'``, ``np.float16``, ``int``) and ``None`` (a *strong* default float).
    With ``return_weak_type_flag=True`` returns ``(dtype, weak_type)``. A weak result always takes
    the default dtype of its kind, and the result is canonicalized for the x64 setting.

    >>> result_type("int8", 1.0)
    dtype('float32')
    >>> result_type("int8", 1, return_weak_type_flag=True)
    (dtype('int8'), False)
    """
    if len(args) == 2:  # two dtypes: the fast memo (see _pair_memo)
        try:
            pair = _PAIR_RESULT[_config._local_state.get() or _config._global_state[0]][args[0]][
                args[1]
            ]
        except (KeyError, TypeError):  # a miss, or an unhashable argument (an array)
            pass
        else:
            return pair if return_weak_type_flag else pair[0]
    st = _config.state()
    # Memo keyed on what promotion can see of each argument: a Python scalar's type (never its
    # value), an array's (type, dtype, weak flag), a dtype-like itself (with its type, because
    # np.dtype('int64') == int). Calls that must warn (64-bit requests with x64 off) are never
    # stored, so a hit never skips a warning.
    key: list[Any] = [st]
    add = key.append
    for a in args:
        t = type(a)
        if t in ARRAY_TYPES:
            add((t, a.dtype, a.weak_type))
        elif t in _PY_DTYPE_KIND:
            add(t)
        elif t is np.ndarray or isinstance(a, np.generic):
            add((t, a.dtype))
        else:
            add((t, a))
    try:
        hit = _RESULT_TYPE_CACHE.get(tuple(key))
    except TypeError:  # an unhashable dtype-like: no memo
        hit = None
        key = []
    if hit is None:
        hit = _result_type(args, st)
        if key and _cacheable(args, st):
            if len(_RESULT_TYPE_CACHE) > 4096:
                _RESULT_TYPE_CACHE.clear()
            _RESULT_TYPE_CACHE[tuple(key)] = hit
            if len(args) == 2:
                _pair_memo(_PAIR_RESULT, st, args[0], args[1], hit)
    return hit if return_weak_type_flag else hit[0]


_RESULT_TYPE_CACHE: dict[tuple[Any, ...], tuple[DType, bool]] = {}

#: Array classes (concrete arrays, tracers) register here so promotion can key them cheaply by
#: (dtype, weak_type); this module must not import them (they live in higher layers).
ARRAY_TYPES: set[type] = set()


def _cacheable(args: Sequence[Any], st: _config.State) -> bool:
    """False when evaluating ``args`` again would warn (a 64-bit dtype request, x64 off)."""
    if st.x64:
        return True
    for a in args:
        if isinstance(a, (str, np.dtype)) or (isinstance(a, type) and issubclass(a, np.generic)):
            try:
                if _to_np_dtype(a) in _TO_32:
                    return False
            except TypeError:
                return False
    return True


def _result_type(args: Sequence[Any], st: _config.State) -> tuple[DType, bool]:
    if not args:
        raise ValueError("at least one array or dtype is required")
    pairs = tuple(
        (_DEFAULTS[st.x64]["f"], False) if a is None else dtype_and_weak_type(a) for a in args
    )
    out, weak = lattice_result_type(*pairs)
    if weak:
        out = _DEFAULTS[st.x64]["f" if out in _CUSTOM_FLOATS else _KIND[out]]
    if not _config.keeps_x64(st):
        out = _TO_32.get(out, out)
    return out, weak


def _promotion_node(x: Any) -> Node:
    """A dtype-like as ``promote_types`` reads it: ``int``/``float``/``complex`` are weak nodes."""
    if isinstance(x, type) and x in _WEAK_OF_PYTYPE:
        return _WEAK_OF_PYTYPE[x]
    if x is None:
        return float64  # np.dtype(None)
    if not isinstance(x, (str, np.dtype, type, np.generic)):  # np.dtype(np.float64(1)) works
        raise TypeError(
            f"Cannot interpret {x!r} as a data type; promote_types takes dtypes and dtype-likes "
            "(use result_type for values)"
        )
    d = _to_np_dtype(x)
    if d not in _KIND:
        raise _invalid_for_promotion(d)
    return d


def promote_types(a: Any, b: Any) -> DType:
    """The promoted dtype of two dtype-likes: their join on the current lattice.

    Unlike :func:`result_type`, takes dtypes only, does not canonicalize for x64 and has no weak
    flag: a weak result is the 64-bit type of its kind (``promote_types(int, int)`` is int64).
    ``int``, ``float`` and ``complex`` are the weak nodes; ``bool`` is not weak.

    >>> promote_types("uint8", int)     # NumPy would say int64
    dtype('uint8')
    >>> promote_types("bfloat16", "float16")
    dtype('float32')
    """
    try:  # the fast memo (see _pair_memo)
        return _PAIR_PROMOTE[_config._local_state.get() or _config._global_state[0]][a][b]
    except (KeyError, TypeError):  # a miss, or an unhashable argument
        pass
    st = _config.state()
    try:
        key = (st, type(a), a, type(b), b)
        hit = _PROMOTE_CACHE.get(key)
    except TypeError:  # unhashable arguments: no memo
        key, hit = None, None
    if hit is not None:
        return hit
    na, nb = _promotion_node(a), _promotion_node(b)
    try:
        node = _LATTICES[st].join(na, nb)
    except NoJoinError:
        raise _promotion_error(_dedupe((na, nb)), st.mode) from None
    out = node_dtype(node, True)
    if key is not None:
        if len(_PROMOTE_CACHE) > 4096:
            _PROMOTE_CACHE.clear()
        _PROMOTE_CACHE[key] = out
        _pair_memo(_PAIR_PROMOTE, st, a, b, out)
    return out


_PROMOTE_CACHE: dict[tuple[Any, ...], DType] = {}

# -- the two-argument fast memos ----------------------------------------------------------------
#
# ``promote_types(a, b)`` and ``result_type(a, b)`` of two dtype-likes are looked up in nested
# dicts ``memo[state][a][b]``: no key tuple to build and hash, and the state (a tuple of a bool and
# a str) is read without a function call. Nested dicts compare keys by equality, which for dtypes
# is loose: ``np.dtype('int8') == 'int8' == np.int8`` (harmless: these mean the same dtype) but
# also ``np.dtype('int64') == int`` (not harmless: ``int`` is the *weak* int). So only dtypes,
# strings and types are stored (never values, where ``1 == 1.0 == True``), every stored call is
# one that cannot warn (``_cacheable``), and the memo is off altogether in the (astronomically
# unlikely) process where the hash of ``int``, ``float`` or ``complex`` equals that of its NumPy
# dtype, the one way such a pair could meet in a dict.

_PAIR_PROMOTE: dict[_config.State, dict[Any, dict[Any, DType]]] = {}
_PAIR_RESULT: dict[_config.State, dict[Any, dict[Any, tuple[DType, bool]]]] = {}
_PAIR_KEY_TYPES: Final = (np.dtype, str, type)
_PAIR_MEMO_SAFE: Final = all(hash(t) != hash(np.dtype(t)) for t in (int, float, complex))


def _pair_memo(
    memo: dict[Any, dict[Any, dict[Any, Any]]], st: Any, a: Any, b: Any, out: Any
) -> None:
    """Stores ``out`` for the pair ``(a, b)`` under ``st`` when both are dtype-likes that are safe
    to key by equality (see above)."""
    if not (_PAIR_MEMO_SAFE and isinstance(a, _PAIR_KEY_TYPES) and isinstance(b, _PAIR_KEY_TYPES)):
        return
    by_state = memo.setdefault(st, {})
    if len(by_state) > 256:
        by_state.clear()
    by_state.setdefault(a, {})[b] = out


# -- categories, finfo and iinfo ----------------------------------------------------------------

_CATEGORY_CLASS: Final[dict[str, type[np.generic]]] = {
    "b": np.bool_,
    "i": np.signedinteger,
    "u": np.unsignedinteger,
    "f": np.floating,
    "c": np.complexfloating,
}


def issubdtype(a: Any, b: Any) -> bool:
    """``np.issubdtype`` that knows bfloat16, fp8/6/4 are floating and int4/int2 are integers.

    >>> issubdtype("bfloat16", np.floating), issubdtype("float8_e4m3fn", np.float16)
    (True, False)
    """
    if not isinstance(a, type) and hasattr(type(a), "__numpy_dtype__"):
        a = np.dtype(a)  # an array: warns as JAX's (a key array: NumPy's ValueError)
    ext = _extended_type(a)
    if ext is not None or _extended_type(b) is not None:
        tb = b if isinstance(b, type) else getattr(b, "type", None)
        return ext is not None and isinstance(tb, type) and issubclass(ext, tb)
    if isinstance(a, type) and issubclass(a, np.generic) and _is_abstract(a):
        return bool(np.issubdtype(a, b))
    da = _to_np_dtype(a)
    if da in _CUSTOM_FLOATS or da in LOW_INTS.values():
        if isinstance(b, type) and issubclass(b, np.generic) and _is_abstract(b):
            return issubclass(_CATEGORY_CLASS[_KIND[da]], b)
        return bool(da == _to_np_dtype(b))
    return bool(np.issubdtype(da, b))


def _is_abstract(t: type) -> bool:
    return t in (
        np.generic,
        np.number,
        np.integer,
        np.signedinteger,
        np.unsignedinteger,
        np.inexact,
        np.floating,
        np.complexfloating,
        np.flexible,
        np.character,
    )


_ISDTYPE_KINDS: Final = (
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
)


def _is_array_kind(k: Any) -> bool:
    """A trellax array given as a kind stands for its dtype, as a JAX array does for JAX (a NumPy
    array does not)."""
    return hasattr(k, "dtype") and not isinstance(k, (np.ndarray, np.generic))


def isdtype(dtype: Any, kind: Any) -> bool:
    """The Array API's ``isdtype``: is ``dtype`` of ``kind`` (a name, a dtype, or a tuple)?"""
    d = _to_np_dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str) and k in _ISDTYPE_KINDS:
            dk = _KIND.get(d)
            if (
                (k == "bool" and dk == "b")
                or (k == "signed integer" and dk == "i")
                or (k == "unsigned integer" and dk == "u")
                or (k == "integral" and dk in ("i", "u"))
                or (k == "real floating" and dk == "f")
                or (k == "complex floating" and dk == "c")
                or (k == "numeric" and dk in ("i", "u", "f", "c"))
            ):
                return True
        elif isinstance(k, (str, np.dtype, type)) or _is_array_kind(k):
            try:
                if d == _to_np_dtype(k):
                    return True
            except TypeError:
                raise ValueError(
                    f"Unrecognized kind={k!r} expected one of {list(_ISDTYPE_KINDS)}, or a "
                    "compatible input for trellax.numpy.dtype()"
                ) from None
        else:
            raise TypeError(f"Expected kind to be a dtype, string, or tuple; got kind={k!r}")
    return False


def finfo(dtype: Any) -> ml_dtypes.finfo:
    """Machine limits of a floating dtype (bfloat16 and fp8/6/4 included). Not canonicalized."""
    d = _info_dtype(dtype)
    if _KIND.get(d) == "c":
        d = float32 if d == complex64 else float64
    if _KIND.get(d) != "f":
        raise ValueError(f"finfo needs a floating (or complex) dtype, got {d}; use iinfo for {d}")
    return ml_dtypes.finfo(d)  # type: ignore[no-untyped-call]


def iinfo(dtype: Any) -> ml_dtypes.iinfo:
    """Machine limits of an integer dtype (int4, uint2, ... included). Not canonicalized."""
    d = _info_dtype(dtype)
    if _KIND.get(d) not in ("i", "u"):
        raise ValueError(f"iinfo needs an integer dtype, got {d}; use finfo for {d}")
    return ml_dtypes.iinfo(d)  # type: ignore[no-untyped-call]


def _info_dtype(x: Any) -> DType:
    if isinstance(x, type) and x in _PY_DTYPE_KIND:
        return _DEFAULTS[True][_PY_DTYPE_KIND[x]]  # not canonicalized, like JAX
    d: object = getattr(x, "dtype", None)
    if isinstance(d, np.dtype) and not isinstance(x, (str, np.dtype)):
        found: DType = d
        return found
    return _to_np_dtype(x)


def itemsize_bits(dtype: Any) -> int:
    """The width of a dtype in bits (4 for int4, 16 for bfloat16)."""
    if dtype is None:  # not np.dtype(None), float64: there is no dtype to measure
        raise ValueError("dtype cannot be None.")
    d = _to_np_dtype(dtype)
    if d in LOW_INTS.values() or d in SMALL_FLOATS.values():
        name = d.name
        digits = "".join(ch for ch in name.split("_")[0] if ch.isdigit())
        return int(digits)
    return d.itemsize * 8


def dtype_from_name(name: str) -> DType:
    """A supported dtype by its NumPy name (``'bfloat16'``, ``'float8_e4m3fn'``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise TypeError(f"Unknown dtype name {name!r}; supported: {_accepted()}") from None


def scalar_type_of(x: Any) -> type:
    """The Python scalar type (``bool``, ``int``, ``float``, ``complex``) of a value's dtype.

    >>> scalar_type_of(np.int8(1)), scalar_type_of(np.dtype("bfloat16").type(1))
    (<class 'int'>, <class 'float'>)
    """
    if isinstance(x, (bool, int, float, complex)):
        return type(x) if type(x) in (bool, int, float, complex) else _PY_SCALAR[kind_of(x)]
    d = getattr(x, "dtype", None)
    if d is None:
        d = np.asarray(x).dtype
    d = np.dtype(d) if not hasattr(d, "type") or not isinstance(d, np.dtype) else d
    k = _KIND.get(d)
    if k is None:
        raise TypeError(
            f"Value {x!r} with dtype {d} is not a valid JAX array type. Only arrays of numeric "
            "types are supported by JAX."
        )
    return _PY_SCALAR[k]


_PY_SCALAR: Final[dict[str, type]] = {"b": bool, "u": int, "i": int, "f": float, "c": complex}


def kind_of(x: Any) -> str:
    """The kind letter of a Python scalar's type (a ``bool`` is "b", an ``int`` "i", ...)."""
    for t, k in ((bool, "b"), (int, "i"), (float, "f"), (complex, "c")):
        if isinstance(x, t):
            return k
    raise TypeError(f"not a Python scalar: {x!r}")
