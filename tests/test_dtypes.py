"""trellax's dtypes and promotion, against the reference (``jax_dtype_spec.md``; § numbers below).

The lattices are pinned twice: as edge lists written from §1.2/§5.2, and through the op-level
18×18 tables of §1.4/§5.3. Then the laws over all pairs and triples, every example list of §2,
the low-precision rules (§1.5), every error family (§1.6), canonicalization and its warnings (§4),
categories, finfo/iinfo, and bad input. Trellax's messages speak of its own flag names
(``numpy_dtype_promotion=strict`` where JAX says ``jax_numpy_dtype_promotion=strict``).
"""

from __future__ import annotations

import ast
import copy
import itertools
import pickle
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.dtypes as tdt
from trellax._src.config import settings as config_lib
from trellax._src.dtypes import dtypes as dtypes_lib
from trellax._src.dtypes.dtypes import TypePromotionError

# -- names and helpers ----------------------------------------------------------------------------

LOW_INT_NAMES = [
    n for n in ("uint1", "uint2", "uint4", "int1", "int2", "int4") if hasattr(ml_dtypes, n)
]
SMALL_FLOAT_NAMES = [
    n
    for n in (
        "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3",
        "float8_e8m0fnu", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
        "float8_e5m2fnuz",
    )
    if hasattr(ml_dtypes, n)
]  # fmt: skip
STANDARD_NAMES = [
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
]  # fmt: skip
ALL_NAMES = STANDARD_NAMES + LOW_INT_NAMES + SMALL_FLOAT_NAMES
STD_INTS = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"]
WEAK = {"i*": tdt.weak_int, "f*": tdt.weak_float, "c*": tdt.weak_complex}
CODES = {
    "b": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "bf16": "bfloat16",
    "f16": "float16", "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128",
}  # fmt: skip
TO_32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
CONFIGS = [(x64, mode) for x64 in (False, True) for mode in ("standard", "strict")]


def dt(name: str) -> np.dtype[Any]:
    """A dtype by NumPy or ml_dtypes name (independent of trellax's own tables)."""
    if name != "bool" and hasattr(ml_dtypes, name):
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def node(name: str) -> Any:
    return WEAK[name] if name in WEAK else dt(name)


def node_name(n: Any) -> str:
    return n.code if isinstance(n, tdt.WeakType) else n.name


def kind_of(name: str) -> str:
    """A dtype's category from its name: b, u, i, f or c."""
    if name == "bool":
        return "b"
    if name.startswith(("uint", "int")):
        return name[0]
    return "c" if name.startswith("complex") else "f"


@contextmanager
def config(x64: bool, mode: str = "standard") -> Iterator[None]:
    with config_lib._state(config_lib.State(x64, mode)):  # type: ignore[arg-type]
        yield


@contextmanager
def no_warnings_check() -> Iterator[list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


@dataclass(frozen=True)
class Arr:
    """A stand-in 0-d array: promotion reads ``dtype``, ``shape`` and ``weak_type``."""

    dtype: np.dtype[Any]
    weak_type: bool = False
    shape: tuple[int, ...] = ()


def weak(name: str) -> Arr:
    return Arr(dt(name), True)


def strong(name: str) -> Arr:
    return Arr(dt(name), False)


def result(fn: Any, *args: Any, **kw: Any) -> Any:
    """``fn(*args)`` with warnings silenced; a dtype becomes its name, (dtype, weak) a pair."""
    with no_warnings_check():
        out = fn(*args, **kw)
    if isinstance(out, tuple):
        return (out[0].name, out[1])
    return out.name


def op(*args: Any) -> tuple[str, bool]:
    """Op-level promotion (what ``trellax.numpy.add`` will use): lattice_result_type of the
    operands' (dtype, weak_type)."""
    pairs = [dtypes_lib.dtype_and_weak_type(a) for a in args]
    d, w = dtypes_lib.lattice_result_type(*pairs)
    return d.name, w


# -- the lattices as data (§1.2, §5.2) -------------------------------------------------------------


def reference_standard_edges(x64: bool) -> dict[str, set[str]]:
    edges = {
        "bool": ["i*"],
        "i*": ["uint8", "int8", *LOW_INT_NAMES],
        "uint8": ["int16", "uint16"],
        "uint16": ["int32", "uint32"],
        "uint32": ["int64", "uint64"] if x64 else ["int32", "uint64"],
        "uint64": ["f*"],
        "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["f*"],
        "f*": [*SMALL_FLOAT_NAMES, "bfloat16", "float16", "c*"],
        "bfloat16": ["float32"], "float16": ["float32"],
        "float32": ["float64", "complex64"], "float64": ["complex128"],
        "c*": ["complex64"], "complex64": ["complex128"], "complex128": [],
        **{n: [] for n in LOW_INT_NAMES + SMALL_FLOAT_NAMES},
    }  # fmt: skip
    return {k: set(v) for k, v in edges.items()}


def reference_strict_edges() -> dict[str, set[str]]:
    ints = [n for n in ALL_NAMES if kind_of(n) in "iu"]
    floats = [n for n in ALL_NAMES if kind_of(n) == "f"]
    return {
        "i*": {"f*", *ints},
        "f*": {"c*", *floats},
        "c*": {"complex64", "complex128"},
        **{n: set() for n in ALL_NAMES},
    }


def hasse_by_name(lat: Any) -> dict[str, set[str]]:
    return {node_name(n): {node_name(s) for s in succ} for n, succ in lat.hasse().items()}


def closure(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    up = {n: {n, *s} for n, s in edges.items()}
    for _ in edges:
        up = {n: set().union(*(up[m] for m in up[n])) for n in up}
    return up


def reduction(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    up = closure(edges)
    return {n: {m for m in up[n] - {n} if not any(m in up[k] for k in up[n] - {n, m})} for n in up}


def upper_bounds_by_name(lat: Any) -> dict[str, set[str]]:
    return {node_name(n): {node_name(m) for m in lat.upper_bounds(n)} for n in lat.nodes}


@pytest.mark.parametrize("x64", [False, True])
def test_standard_lattice_is_the_reference(x64: bool) -> None:
    lat, edges = tdt.lattice(x64, "standard"), reference_standard_edges(x64)
    assert upper_bounds_by_name(lat) == closure(edges)
    assert hasse_by_name(lat) == reduction(edges)
    succ = dtypes_lib.standard_successors(x64)
    assert {node_name(n): {node_name(s) for s in ss} for n, ss in succ.items()} == edges


def test_x32_hasse_drops_the_redundant_uint16_edge() -> None:
    """In x32, uint16 -> uint32 -> int32 makes JAX's uint16 -> int32 edge redundant."""
    assert hasse_by_name(tdt.lattice(False, "standard"))["uint16"] == {"uint32"}
    assert hasse_by_name(tdt.lattice(True, "standard"))["uint16"] == {"int32", "uint32"}


@pytest.mark.parametrize("x64", [False, True])
def test_strict_lattice_is_the_reference(x64: bool) -> None:
    lat, edges = tdt.lattice(x64, "strict"), reference_strict_edges()
    assert upper_bounds_by_name(lat) == closure(edges)
    assert hasse_by_name(lat) == reduction(edges) == edges


def test_dtype_universe() -> None:
    assert [d.name for d in tdt.STANDARD_DTYPES] == STANDARD_NAMES
    assert sorted(d.name for d in tdt.ALL_DTYPES) == sorted(ALL_NAMES)
    assert len(set(tdt.ALL_DTYPES)) == len(tdt.ALL_DTYPES)
    assert sorted(tdt.LOW_INTS) == sorted(LOW_INT_NAMES)
    assert sorted({**tdt.FLOAT8S, **tdt.FLOAT6S, **tdt.FLOAT4S}) == sorted(SMALL_FLOAT_NAMES)
    assert [w.code for w in tdt.WEAK_NODES] == ["i*", "f*", "c*"]
    assert [w.python_type for w in tdt.WEAK_NODES] == [int, float, complex]
    assert [repr(w) for w in tdt.WEAK_NODES] == ["i*", "f*", "c*"]
    for name in ALL_NAMES:
        assert dtypes_lib.dtype_from_name(name) == dt(name)


def test_x32_and_x64_differ_exactly_in_the_uint32_edge() -> None:
    s32, s64 = dtypes_lib.standard_successors(False), dtypes_lib.standard_successors(True)
    assert s32.keys() == s64.keys()
    assert {n for n in s32 if s32[n] != s64[n]} == {dt("uint32")}
    assert {s.name for s in s32[dt("uint32")]} == {"int32", "uint64"}
    assert {s.name for s in s64[dt("uint32")]} == {"int64", "uint64"}
    t32, t64 = tdt.lattice(False, "standard").table(), tdt.lattice(True, "standard").table()
    differ = {(node_name(a), node_name(b)) for a in t32 for b in t32 if t32[a][b] != t64[a][b]}
    assert differ == {
        (a, b) for x in ("int8", "int16", "int32") for a, b in (("uint32", x), (x, "uint32"))
    }


@pytest.mark.parametrize("x64", [False, True])
def test_strict_lattice_shape(x64: bool) -> None:
    """§5.2: a concrete dtype is below nothing but itself; weak nodes sit below their category
    and the higher ones (i* <= f* <= c*). So bool joins only bool."""
    lat = tdt.lattice(x64, "strict")
    for name in ALL_NAMES:
        assert lat.upper_bounds(dt(name)) == {dt(name)}
    by_kind = {k: {dt(n) for n in ALL_NAMES if kind_of(n) in k} for k in ("iu", "f", "c")}
    i_, f_, c_ = tdt.WEAK_NODES
    assert lat.upper_bounds(c_) == {c_, *by_kind["c"]}
    assert lat.upper_bounds(f_) == {f_, c_, *by_kind["f"], *by_kind["c"]}
    assert lat.upper_bounds(i_) == {i_, f_, c_, *by_kind["iu"], *by_kind["f"], *by_kind["c"]}
    for name in ALL_NAMES:
        if name != "bool":
            assert lat.try_join(dt("bool"), dt(name)) is None


def test_lattice_follows_the_config() -> None:
    for x64, mode in CONFIGS:
        with config(x64, mode):
            assert tdt.lattice() is tdt.lattice(x64, mode)
    assert tdt.lattice(False, "standard") is not tdt.lattice(True, "standard")


# -- lattice laws over all nodes, pairs and triples -----------------------------------------------

ALL_NODES = [*tdt.ALL_DTYPES, *tdt.WEAK_NODES]


@pytest.mark.parametrize(("x64", "mode"), CONFIGS)
def test_lattice_laws(x64: bool, mode: str) -> None:
    """Idempotence, commutativity, associativity (n-ary join = both foldings), least upper bound,
    and monotonicity (a <= b implies a∨c <= b∨c), over all 35 nodes. None = no join."""
    lat = tdt.lattice(x64, mode)
    n = len(ALL_NODES)
    assert n == 18 + len(LOW_INT_NAMES) + len(SMALL_FLOAT_NAMES)
    J = {(a, b): lat.try_join(a, b) for a in ALL_NODES for b in ALL_NODES}
    up = {a: lat.upper_bounds(a) for a in ALL_NODES}

    def j(a: Any, b: Any) -> Any:
        return None if a is None or b is None else J[(a, b)]

    for a in ALL_NODES:
        assert J[(a, a)] is a
    for a, b in itertools.product(ALL_NODES, repeat=2):
        ab = J[(a, b)]
        assert ab is J[(b, a)]
        common = up[a] & up[b]
        if ab is None:
            assert not common
        else:
            assert ab in common and all(c in up[ab] for c in common)
    for a, b, c in itertools.product(ALL_NODES, repeat=3):
        left, right = j(j(a, b), c), j(a, j(b, c))
        assert left is right, (a, b, c, left, right)
        if a in up and b in up[a]:  # a <= b  =>  a∨c <= b∨c
            bc = J[(b, c)]
            if bc is not None:
                assert J[(a, c)] is not None and bc in up[J[(a, c)]], (a, b, c)


@pytest.mark.parametrize(("x64", "mode"), CONFIGS)
def test_nary_join_is_the_fold(x64: bool, mode: str) -> None:
    lat = tdt.lattice(x64, mode)
    for a, b, c in itertools.combinations(ALL_NODES, 3):
        ab = lat.try_join(a, b)
        fold = None if ab is None else lat.try_join(ab, c)
        assert lat.try_join(a, b, c) is fold


@pytest.mark.parametrize(("x64", "mode"), CONFIGS)
def test_op_level_promotion_is_commutative(x64: bool, mode: str) -> None:
    """lattice_result_type is not a plain join (the all-weak shortcut), but it is symmetric.
    (Weak unsigned values are left out: JAX itself fails on them with an AssertionError.)"""
    values = [(d, w) for d in tdt.ALL_DTYPES for w in (False, True) if not (w and d.kind == "u")]
    with config(x64, mode):
        for p, q in itertools.combinations(values, 2):
            try:
                pq = dtypes_lib.lattice_result_type(p, q)
            except TypePromotionError:
                with pytest.raises(TypePromotionError):
                    dtypes_lib.lattice_result_type(q, p)
                continue
            assert dtypes_lib.lattice_result_type(q, p) == pq, (p, q)


# -- the op-level 18×18 tables (§1.4, §5.3) --------------------------------------------------------

STANDARD_X64 = """
x+y  b      u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i*     f*     c*
b    b      u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i64*   f64*   c128*
u8   u8     u8     u16    u32    u64    i16    i16    i32    i64    bf16   f16    f32    f64    c64    c128   u8     f64*   c128*
u16  u16    u16    u16    u32    u64    i32    i32    i32    i64    bf16   f16    f32    f64    c64    c128   u16    f64*   c128*
u32  u32    u32    u32    u32    u64    i64    i64    i64    i64    bf16   f16    f32    f64    c64    c128   u32    f64*   c128*
u64  u64    u64    u64    u64    u64    f64*   f64*   f64*   f64*   bf16   f16    f32    f64    c64    c128   u64    f64*   c128*
i8   i8     i16    i32    i64    f64*   i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i8     f64*   c128*
i16  i16    i16    i32    i64    f64*   i16    i16    i32    i64    bf16   f16    f32    f64    c64    c128   i16    f64*   c128*
i32  i32    i32    i32    i64    f64*   i32    i32    i32    i64    bf16   f16    f32    f64    c64    c128   i32    f64*   c128*
i64  i64    i64    i64    i64    f64*   i64    i64    i64    i64    bf16   f16    f32    f64    c64    c128   i64    f64*   c128*
bf16 bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   f32    f32    f64    c64    c128   bf16   bf16   c64
f16  f16    f16    f16    f16    f16    f16    f16    f16    f16    f32    f16    f32    f64    c64    c128   f16    f16    c64
f32  f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f64    c64    c128   f32    f32    c64
f64  f64    f64    f64    f64    f64    f64    f64    f64    f64    f64    f64    f64    f64    c128   c128   f64    f64    c128
c64  c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c128   c64    c128   c64    c64    c64
c128 c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128   c128
i*   i64*   u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i64*   f64*   c128*
f*   f64*   f64*   f64*   f64*   f64*   f64*   f64*   f64*   f64*   bf16   f16    f32    f64    c64    c128   f64*   f64*   c128*
c*   c128*  c128*  c128*  c128*  c128*  c128*  c128*  c128*  c128*  c64    c64    c64    c128   c64    c128   c128*  c128*  c128*
"""

STANDARD_X32 = """
x+y  b      u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i*     f*     c*
b    b      u8     u16    u32    u32    i8     i16    i32    i32    bf16   f16    f32    f32    c64    c64    i32*   f32*   c64*
u8   u8     u8     u16    u32    u32    i16    i16    i32    i32    bf16   f16    f32    f32    c64    c64    u8     f32*   c64*
u16  u16    u16    u16    u32    u32    i32    i32    i32    i32    bf16   f16    f32    f32    c64    c64    u16    f32*   c64*
u32  u32    u32    u32    u32    u32    i32    i32    i32    i32    bf16   f16    f32    f32    c64    c64    u32    f32*   c64*
u64  u32    u32    u32    u32    u32    i32    i32    i32    i32    bf16   f16    f32    f32    c64    c64    u32    f32*   c64*
i8   i8     i16    i32    i32    i32    i8     i16    i32    i32    bf16   f16    f32    f32    c64    c64    i8     f32*   c64*
i16  i16    i16    i32    i32    i32    i16    i16    i32    i32    bf16   f16    f32    f32    c64    c64    i16    f32*   c64*
i32  i32    i32    i32    i32    i32    i32    i32    i32    i32    bf16   f16    f32    f32    c64    c64    i32    f32*   c64*
i64  i32    i32    i32    i32    i32    i32    i32    i32    i32    bf16   f16    f32    f32    c64    c64    i32    f32*   c64*
bf16 bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   bf16   f32    f32    f32    c64    c64    bf16   bf16   c64
f16  f16    f16    f16    f16    f16    f16    f16    f16    f16    f32    f16    f32    f32    c64    c64    f16    f16    c64
f32  f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    c64    c64    f32    f32    c64
f64  f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    f32    c64    c64    f32    f32    c64
c64  c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64
c128 c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64    c64
i*   i32*   u8     u16    u32    u32    i8     i16    i32    i32    bf16   f16    f32    f32    c64    c64    i32*   f32*   c64*
f*   f32*   f32*   f32*   f32*   f32*   f32*   f32*   f32*   f32*   bf16   f16    f32    f32    c64    c64    f32*   f32*   c64*
c*   c64*   c64*   c64*   c64*   c64*   c64*   c64*   c64*   c64*   c64    c64    c64    c64    c64    c64    c64*   c64*   c64*
"""

STRICT_X64 = """
x+y  b      u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i*     f*     c*
b    b      ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR
u8   ERR    u8     ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    u8     ERR    ERR
u16  ERR    ERR    u16    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    u16    ERR    ERR
u32  ERR    ERR    ERR    u32    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    u32    ERR    ERR
u64  ERR    ERR    ERR    ERR    u64    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    u64    ERR    ERR
i8   ERR    ERR    ERR    ERR    ERR    i8     ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    i8     ERR    ERR
i16  ERR    ERR    ERR    ERR    ERR    ERR    i16    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    i16    ERR    ERR
i32  ERR    ERR    ERR    ERR    ERR    ERR    ERR    i32    ERR    ERR    ERR    ERR    ERR    ERR    ERR    i32    ERR    ERR
i64  ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    i64    ERR    ERR    ERR    ERR    ERR    ERR    i64    ERR    ERR
bf16 ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    bf16   ERR    ERR    ERR    ERR    ERR    bf16   bf16   ERR
f16  ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    f16    ERR    ERR    ERR    ERR    f16    f16    ERR
f32  ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    f32    ERR    ERR    ERR    f32    f32    ERR
f64  ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    f64    ERR    ERR    f64    f64    ERR
c64  ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    c64    ERR    c64    c64    c64
c128 ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    c128   c128   c128   c128
i*   ERR    u8     u16    u32    u64    i8     i16    i32    i64    bf16   f16    f32    f64    c64    c128   i64*   f64*   c128*
f*   ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    bf16   f16    f32    f64    c64    c128   f64*   f64*   c128*
c*   ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    ERR    c64    c128   c128*  c128*  c128*
"""


def parse_table(text: str) -> dict[tuple[str, str], str]:
    head, *rows = [line.split() for line in text.strip().splitlines()]
    return {
        (row[0], col): cell for row in rows for col, cell in zip(head[1:], row[1:], strict=True)
    }


def strict_x32_table() -> dict[tuple[str, str], str]:
    """§5.3: x32 strict is the x64 pattern with 64-bit operands collapsed onto 32-bit ones (they
    cannot be created in x32) and 32-bit weak defaults."""
    to32 = {"u64": "u32", "i64": "i32", "f64": "f32", "c128": "c64"}
    cell32 = {"i64*": "i32*", "f64*": "f32*", "c128*": "c64*"}
    x64 = parse_table(STRICT_X64)
    return {(x, y): cell32.get(c := x64[(to32.get(x, x), to32.get(y, y))], c) for (x, y) in x64}


def operand(code: str, x64: bool) -> Any:
    """A strong 0-d array of a dtype code (as ``jnp.zeros((), dtype)`` builds it), or a Python
    scalar for a weak code."""
    if code in WEAK:
        return {"i*": 0, "f*": 0.0, "c*": 0j}[code]
    name = CODES[code]
    return strong(name if x64 else TO_32.get(name, name))


def cell(d: str, w: bool) -> str:
    inv = {v: k for k, v in CODES.items()}
    return inv[d] + ("*" if w else "")


@pytest.mark.parametrize(
    ("table", "x64", "mode"),
    [
        (parse_table(STANDARD_X64), True, "standard"),
        (parse_table(STANDARD_X32), False, "standard"),
        (parse_table(STRICT_X64), True, "strict"),
        (strict_x32_table(), False, "strict"),
    ],
    ids=["standard-x64", "standard-x32", "strict-x64", "strict-x32"],
)
def test_op_level_table(table: dict[tuple[str, str], str], x64: bool, mode: str) -> None:
    assert len(table) == 18 * 18
    wrong = []
    with config(x64, mode):
        for (x, y), want in table.items():
            try:
                got = cell(*op(operand(x, x64), operand(y, x64)))
            except TypePromotionError:
                got = "ERR"
            if got != want:
                wrong.append(f"{x} + {y}: {got}, expected {want}")
    assert not wrong, "\n".join(wrong)


# -- promote_types (§2.1, §5.4) -------------------------------------------------------------------

SAME = object()  # "same as x32"


@pytest.mark.parametrize(
    ("a", "b", "x32", "x64"),
    [
        ("int32", "float32", "float32", SAME),
        ("uint8", int, "uint8", SAME),
        ("float16", float, "float16", SAME),
        ("bfloat16", complex, "complex64", SAME),
        ("int8", float, "float64", SAME),
        (int, int, "int64", SAME),
        (float, float, "float64", SAME),
        (complex, complex, "complex128", SAME),
        (bool, bool, "bool", SAME),
        (bool, int, "int64", SAME),
        (int, float, "float64", SAME),
        ("float64", "float32", "float64", SAME),
        ("int64", "uint64", "float64", SAME),
        ("uint64", "int8", "float64", SAME),
        ("int32", "uint32", "int32", "int64"),
        (np.int64, np.float16, "float16", SAME),
        ("bfloat16", "float16", "float32", SAME),
        (None, "int8", "float64", SAME),
        (np.dtype("uint16"), np.dtype("int8"), "int32", SAME),
        (ml_dtypes.bfloat16, np.float32, "float32", SAME),
        ("float8_e4m3fn", int, "float8_e4m3fn", SAME),
        ("float8_e4m3fn", float, "float8_e4m3fn", SAME),
        ("int4", int, "int4", SAME),
        ("int4", bool, "int4", SAME),
        (np.float64(1), "float32", "float64", SAME),  # np.dtype accepts NumPy scalars
    ],
)
def test_promote_types(a: Any, b: Any, x32: str, x64: Any) -> None:
    for flag, want in ((False, x32), (True, x32 if x64 is SAME else x64)):
        with config(flag), no_warnings_check() as caught:
            assert tdt.promote_types(a, b).name == want
            assert tdt.promote_types(b, a).name == want
        assert caught == []  # promote_types never canonicalizes, so never warns


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("int8", "int16", "ERR"),
        ("int8", int, "int8"),
        (int, float, "float64"),
        (float, complex, "complex128"),
        (int, complex, "complex128"),
        (bool, int, "ERR"),
        (bool, bool, "bool"),
        ("bool", "int8", "ERR"),
        (float, "int8", "ERR"),
        (int, "float8_e4m3fn", "float8_e4m3fn"),
        (int, "int4", "int4"),
        (float, "bfloat16", "bfloat16"),
        (complex, "float32", "ERR"),
        (complex, "complex64", "complex64"),
    ],
)
def test_promote_types_strict(a: Any, b: Any, want: str) -> None:
    for x64 in (False, True):
        with config(x64, "strict"):
            if want == "ERR":
                with pytest.raises(TypePromotionError, match="numpy_dtype_promotion=strict"):
                    tdt.promote_types(a, b)
            else:
                assert tdt.promote_types(a, b).name == want


def test_promote_types_takes_exactly_two_dtypes() -> None:
    with pytest.raises(TypeError):
        tdt.promote_types("int8")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Cannot interpret '?1'? as a data type"):
        tdt.promote_types(1, 2)
    with pytest.raises(TypeError, match=r"Cannot interpret '?1.0'? as a data type"):
        tdt.promote_types(1.0, "float32")


# -- result_type (§2.2) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "x32", "x64"),
    [
        ((int,), "int32", "int64"),
        ((1,), "int32", "int64"),
        ((float,), "float32", "float64"),
        ((1.0,), "float32", "float64"),
        ((complex,), "complex64", "complex128"),
        ((1j,), "complex64", "complex128"),
        ((bool,), "bool", "bool"),
        ((True,), "bool", "bool"),
        ((None,), "float32", "float64"),
        (("float64",), "float32", "float64"),
        ((np.int64,), "int32", "int64"),
        ((np.int64(1),), "int32", "int64"),
        ((np.array(1.0),), "float32", "float64"),
        ((np.array(1), "int8"), "int32", "int64"),
        ((weak("int32"), "int8"), "int8", "int8"),
        (("int8", 1), "int8", "int8"),
        (("int8", 1000), "int8", "int8"),
        (("uint8", -1), "uint8", "uint8"),
        (("int8", 1.0), "float32", "float64"),
        (("int8", 1j), "complex64", "complex128"),
        (("float16", 1.0), "float16", "float16"),
        (("float16", float), "float16", "float16"),
        (("float16", 1j), "complex64", "complex64"),
        (("bfloat16", 1j), "complex64", "complex64"),
        (("float64", 1j), "complex64", "complex128"),
        ((1, 1.0), "float32", "float64"),
        ((1, 1.0, 1j), "complex64", "complex128"),
        ((True, 1), "int32", "int64"),
        ((True, False), "bool", "bool"),
        (("int8", "uint8"), "int16", "int16"),
        (("int32", "uint32"), "int32", "int64"),
        (("int64", "uint64"), "int32", "float64"),
        (("uint64", "int8"), "int32", "float64"),
        (("uint64", 1), "uint32", "uint64"),
        (("bfloat16", "float16"), "float32", "float32"),
        (("bfloat16", "int32"), "bfloat16", "bfloat16"),
        (("int64", "float16"), "float16", "float16"),
        (("float32", "float64"), "float32", "float64"),
        (("int8", "int16", "uint8", 1.0), "float32", "float64"),
        (("int8", "uint16", "float16"), "float16", "float16"),
        (("int32", None), "float32", "float64"),
        (("float16", None), "float32", "float64"),
        ((1.0, ml_dtypes.bfloat16(2)), "bfloat16", "bfloat16"),
        ((2**64,), "int32", "int64"),
        ((np.float32(1), 2.0), "float32", "float32"),
        ((np.array([1, 2], "int8"), 2.0), "float32", "float64"),
    ],
)
def test_result_type(args: tuple[Any, ...], x32: str, x64: str) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag):
            assert result(tdt.result_type, *args) == want
            assert result(tdt.result_type, *reversed(args)) == want


@pytest.mark.parametrize(
    ("args", "x32", "x64"),
    [
        ((1.0,), ("float32", True), ("float64", True)),
        ((1,), ("int32", True), ("int64", True)),
        ((int,), ("int32", True), ("int64", True)),
        ((True,), ("bool", False), ("bool", False)),
        (("int8", 1), ("int8", False), ("int8", False)),
        (("int8", 1.0), ("float32", True), ("float64", True)),
        ((1, 2.0), ("float32", True), ("float64", True)),
        ((weak("int32"),), ("int32", True), ("int64", True)),
        ((np.float64(1), "float32"), ("float32", False), ("float64", False)),
        (("float16", None), ("float32", False), ("float64", False)),
        # a single weak argument takes the default dtype of its kind (§2.2)
        ((weak("float16"),), ("float32", True), ("float64", True)),
        ((weak("bfloat16"),), ("float32", True), ("float64", True)),
        ((weak("float8_e4m3fn"),), ("float32", True), ("float64", True)),
        ((weak("int16"),), ("int32", True), ("int64", True)),
        ((weak("complex64"),), ("complex64", True), ("complex128", True)),
        ((weak("int16"), weak("int8")), ("int32", True), ("int64", True)),
        ((weak("bfloat16"), "float16"), ("float16", False), ("float16", False)),
        ((weak("float16"), "int32"), ("float32", True), ("float64", True)),
        ((weak("bool"),), ("bool", False), ("bool", False)),  # a weak bool (e.g. wf < 3)
        ((weak("bool"), 1), ("int32", True), ("int64", True)),
        ((strong("float16"), 1.0), ("float16", False), ("float16", False)),
        ((strong("int64"),), ("int32", False), ("int64", False)),
    ],
)
def test_result_type_weak_flag(
    args: tuple[Any, ...], x32: tuple[str, bool], x64: tuple[str, bool]
) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag):
            assert result(tdt.result_type, *args, return_weak_type_flag=True) == want


@pytest.mark.parametrize(
    ("args", "x32", "x64"),
    [
        ((1, 1.0), ("float32", True), ("float64", True)),
        ((1, 2), ("int32", True), ("int64", True)),
        ((1, 1j), ("complex64", True), ("complex128", True)),
        (("float16", 1.0), ("float16", False), ("float16", False)),
        (("int8", 1), ("int8", False), ("int8", False)),
        (("complex64", 1.0), ("complex64", False), ("complex64", False)),
        ((True, False), ("bool", False), ("bool", False)),
        (("int8", "int8"), ("int8", False), ("int8", False)),
        # np values are canonicalized first: float32 + float64 is float32 in x32 only
        (("float32", np.float64(1)), ("float32", False), "ERR"),
        (("int8", 1.0), "ERR", "ERR"),
        ((True, 1), "ERR", "ERR"),
        (("bool", "int8"), "ERR", "ERR"),
        (("float16", 1j), "ERR", "ERR"),
        (("int8", "int16"), "ERR", "ERR"),
    ],
)
def test_result_type_strict(args: tuple[Any, ...], x32: Any, x64: Any) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag, "strict"):
            if want == "ERR":
                with pytest.raises(TypePromotionError, match="numpy_dtype_promotion=strict"):
                    result(tdt.result_type, *args)
            else:
                assert result(tdt.result_type, *args, return_weak_type_flag=True) == want


def test_result_type_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"^at least one array or dtype is required$"):
        tdt.result_type()
    with pytest.raises(TypeError, match=re.escape("Cannot determine dtype of [1, 2]")):
        tdt.result_type([1, 2])
    with pytest.raises(TypeError, match=re.escape("Cannot determine dtype of (1, 2)")):
        tdt.result_type((1, 2))


# -- op-level promotion: weak values, non-canonical weak types (§3.4, §3.5) -----------------------


@pytest.mark.parametrize(
    ("args", "x32", "x64"),
    [
        ((1, 1), ("int32", True), ("int64", True)),
        ((1, 2.0), ("float32", True), ("float64", True)),
        ((2.0, 1j), ("complex64", True), ("complex128", True)),
        ((strong("int8"), 1), ("int8", False), ("int8", False)),
        ((strong("int8"), 1.0), ("float32", True), ("float64", True)),
        ((strong("int8"), 1j), ("complex64", True), ("complex128", True)),
        ((strong("uint8"), -1), ("uint8", False), ("uint8", False)),
        ((strong("float16"), 1), ("float16", False), ("float16", False)),
        ((strong("float16"), 1j), ("complex64", False), ("complex64", False)),
        ((strong("bfloat16"), 1j), ("complex64", False), ("complex64", False)),
        ((strong("bool"), 1), ("int32", True), ("int64", True)),
        ((strong("bool"), 1.0), ("float32", True), ("float64", True)),
        ((strong("bool"), True), ("bool", False), ("bool", False)),
        ((strong("int8"), np.int32(1)), ("int32", False), ("int32", False)),
        ((strong("int8"), np.array(1)), ("int32", False), ("int64", False)),
        ((strong("float32"), np.float64(1)), ("float32", False), ("float64", False)),
        ((np.int8(1), 1), ("int8", False), ("int8", False)),
        ((2.0, np.float32(1)), ("float32", False), ("float32", False)),
        ((np.float16(1), 2.0), ("float16", False), ("float16", False)),
        ((weak("bool"), 1), ("int32", True), ("int64", True)),
        ((weak("bool"), strong("int8")), ("int8", False), ("int8", False)),
        ((weak("bool"), True), ("bool", False), ("bool", False)),
        ((weak("bool"), weak("bool")), ("bool", False), ("bool", False)),
        # §3.5: non-canonical weak types
        ((weak("int16"), weak("int16")), ("int16", True), ("int16", True)),
        ((weak("int16"), 1), ("int32", True), ("int64", True)),
        ((weak("int16"), strong("int8")), ("int8", False), ("int8", False)),
        ((weak("float16"), 1.0), ("float32", True), ("float64", True)),
        ((weak("float16"), strong("float32")), ("float32", False), ("float32", False)),
        ((weak("float16"), strong("int32")), ("float32", True), ("float64", True)),
        ((weak("bfloat16"), strong("float16")), ("float16", False), ("float16", False)),
        ((weak("bfloat16"), weak("float16")), ("float32", True), ("float32", True)),
        # §1.5 at op level
        ((strong("float8_e4m3fn"), strong("float8_e4m3fn")), ("float8_e4m3fn", False),
         ("float8_e4m3fn", False)),
        ((strong("int4"), 1), ("int4", False), ("int4", False)),
        ((strong("int4"), strong("int4")), ("int4", False), ("int4", False)),
    ],
)  # fmt: skip
def test_op_level_promotion(args: tuple[Any, ...], x32: Any, x64: Any) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag):
            assert op(*args) == want
            assert op(*reversed(args)) == want


@pytest.mark.parametrize(
    ("args", "x32", "x64"),
    [
        ((weak("int16"), weak("int16")), ("int32", True), ("int64", True)),  # no all-weak shortcut
        ((weak("float16"), weak("float16")), ("float32", True), ("float64", True)),
        ((strong("int16"), strong("int16")), ("int16", False), ("int16", False)),
        ((strong("int8"), 1), ("int8", False), ("int8", False)),
        ((strong("bool"), True), ("bool", False), ("bool", False)),
    ],
)
def test_op_level_promotion_strict(args: tuple[Any, ...], x32: Any, x64: Any) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag, "strict"):
            assert op(*args) == want


# -- low-precision types (§1.5) -------------------------------------------------------------------

PY_VALUES = {"True": True, "1": 1, "1.0": 1.0, "1j": 1j}


def low_partners(t: str) -> set[str]:
    """What a low-precision type promotes with, by §1.5's table (result: the type itself)."""
    if kind_of(t) in "iu":
        return {t, "bool", "True", "1"}
    return {t, "bool", "True", *STD_INTS, "1", "1.0"}


def error_family(names: list[str]) -> str:
    """§1.6: the first family present among the inputs: fp8, fp6, fp4, then intN."""
    for prefix, family in (("float8_", "fp8"), ("float6_", "fp6"), ("float4_", "fp4")):
        if any(n.startswith(prefix) for n in names):
            return family
    return "intN" if any(n in LOW_INT_NAMES for n in names) else "generic"


@pytest.mark.parametrize("t", LOW_INT_NAMES + SMALL_FLOAT_NAMES)
def test_low_precision_promotion(t: str) -> None:
    """Every low-precision type against every dtype and Python scalar, both orders, x32 and x64."""
    for x64 in (False, True):
        with config(x64):
            for other in [*ALL_NAMES, *PY_VALUES]:
                arg = PY_VALUES.get(other, other)
                for args in ((t, arg), (arg, t)):
                    if other in low_partners(t):
                        assert result(tdt.result_type, *args, return_weak_type_flag=True) == (
                            t,
                            False,
                        ), args
                        continue
                    with pytest.raises(TypePromotionError) as info:
                        result(tdt.result_type, *args)
                    family = error_family([t, other])
                    assert FAMILY_TEXT[family] in str(info.value), (args, str(info.value))


@pytest.mark.parametrize(
    ("args", "want"),
    [
        (("int4", 1), "int4"),
        (("int4", True), "int4"),
        (("int4", "int8"), "intN"),
        (("int4", "uint4"), "intN"),
        (("uint2", "int4"), "intN"),
        (("int4", 1.0), "intN"),
        (("float8_e4m3fn", 1.0), "float8_e4m3fn"),
        (("float8_e4m3fn", "int8"), "float8_e4m3fn"),
        (("float8_e4m3fn", True), "float8_e4m3fn"),
        (("float8_e4m3fn", "float8_e5m2"), "fp8"),
        (("float8_e4m3fn", "float32"), "fp8"),
        (("float8_e4m3fn", "bfloat16"), "fp8"),
        (("float8_e4m3fn", 1j), "fp8"),
        (("float4_e2m1fn", 1.0), "float4_e2m1fn"),
    ],
)
def test_low_precision_examples(args: tuple[Any, ...], want: str) -> None:
    for x64 in (False, True):
        with config(x64):
            if want in FAMILY_TEXT:
                with pytest.raises(TypePromotionError, match=re.escape(FAMILY_TEXT[want])):
                    tdt.result_type(*args)
            else:
                assert tdt.result_type(*args).name == want


# -- error messages (§1.6) ------------------------------------------------------------------------

HEAD = "have no available implicit dtype promotion path"
FAMILY_TEXT = {
    "strict": f"{HEAD} when numpy_dtype_promotion=strict. Try explicitly casting inputs to the "
    "desired output type, or set numpy_dtype_promotion=standard.",
    "generic": f"{HEAD}. Try explicitly casting inputs to the desired output type.",
    **{
        fam: f"{HEAD}. To avoid unintended promotion, {what} do not support implicit promotion. "
        "If you'd like your inputs to be promoted to another type, you can do so explicitly "
        f"using e.g. x.astype('{to}')"
        for fam, what, to in (
            ("fp8", "8-bit floats", "float32"),
            ("fp6", "6-bit floats", "float32"),
            ("fp4", "4-bit floats", "float32"),
            ("intN", "1-bit, 2-bit and 4-bit integers", "int32"),
        )
    },
}
INT_T, FLOAT_T, COMPLEX_T = "<class 'int'>", "<class 'float'>", "<class 'complex'>"


def parse_message(msg: str) -> tuple[tuple[str, ...], str]:
    m = re.fullmatch(r"Input dtypes (\(.*?\)) (have .*)", msg, re.DOTALL)
    assert m, msg
    return ast.literal_eval(m.group(1)), m.group(2)


@pytest.mark.parametrize(
    ("fn", "args", "mode", "family", "names"),
    [
        ("promote_types", ("int8", "int16"), "strict", "strict", ("int8", "int16")),
        ("promote_types", (bool, int), "strict", "strict", ("bool", INT_T)),
        ("promote_types", (float, "int8"), "strict", "strict", (FLOAT_T, "int8")),
        ("promote_types", (complex, "float32"), "strict", "strict", (COMPLEX_T, "float32")),
        ("promote_types", ("float8_e4m3fn", "float16"), "strict", "strict", ("float8_e4m3fn", "float16")),
        ("promote_types", ("int4", "int8"), "strict", "strict", ("int4", "int8")),
        ("result_type", ("bool", 1), "strict", "strict", {"bool", INT_T}),
        ("result_type", ("int8", 1.0), "strict", "strict", {"int8", FLOAT_T}),
        ("result_type", ("int8", "int16", "int8"), "strict", "strict", {"int8", "int16"}),
        ("promote_types", ("float8_e4m3fn", "float8_e5m2"), "standard", "fp8", ("float8_e4m3fn", "float8_e5m2")),
        ("promote_types", ("float6_e2m3fn", "float32"), "standard", "fp6", ("float6_e2m3fn", "float32")),
        ("promote_types", ("float4_e2m1fn", "bfloat16"), "standard", "fp4", ("float4_e2m1fn", "bfloat16")),
        ("promote_types", ("int4", "int8"), "standard", "intN", ("int4", "int8")),
        ("promote_types", ("uint2", "int4"), "standard", "intN", ("uint2", "int4")),
        ("promote_types", ("int4", "float8_e4m3fn"), "standard", "fp8", ("int4", "float8_e4m3fn")),
        ("promote_types", ("float4_e2m1fn", "float6_e3m2fn"), "standard", "fp6", ("float4_e2m1fn", "float6_e3m2fn")),
        ("promote_types", ("int2", "float4_e2m1fn"), "standard", "fp4", ("int2", "float4_e2m1fn")),
        ("promote_types", ("int4", float), "standard", "intN", ("int4", FLOAT_T)),
        ("result_type", ("int4", 1.0), "standard", "intN", {"int4", FLOAT_T}),
        ("result_type", ("float8_e4m3fn", 1j), "standard", "fp8", {"float8_e4m3fn", COMPLEX_T}),
        ("result_type", ("int8", "int4", "int4"), "standard", "intN", {"int8", "int4"}),
        ("result_type", (weak("float16"), "int4"), "standard", "intN", {FLOAT_T, "int4"}),
    ],
)  # fmt: skip
def test_promotion_error_messages(
    fn: str, args: tuple[Any, ...], mode: str, family: str, names: Any
) -> None:
    for x64 in (False, True):
        with config(x64, mode), pytest.raises(TypePromotionError) as info:
            getattr(tdt, fn)(*args)
        got_names, rest = parse_message(str(info.value))
        assert rest == FAMILY_TEXT[family]
        if isinstance(names, tuple):  # promote_types: in argument order
            assert got_names == names
        else:  # result_type: JAX's order comes from a set; no duplicates
            assert set(got_names) == names and len(got_names) == len(names)


def test_generic_promotion_error_message() -> None:
    """Unreachable in standard mode for valid dtypes (§1.6), so built directly."""
    err = dtypes_lib._promotion_error([dt("int8"), tdt.weak_float], "standard")
    assert isinstance(err, TypePromotionError)
    assert str(err) == f"Input dtypes ('int8', \"{FLOAT_T}\") {FAMILY_TEXT['generic']}"


def test_type_promotion_error_class() -> None:
    assert issubclass(TypePromotionError, ValueError)
    assert TypePromotionError.__module__ == "trellax.dtypes"
    assert tdt.TypePromotionError is TypePromotionError
    with pytest.raises(ValueError):
        tdt.promote_types("int4", "int8")


# -- canonicalization and its warnings (§4.2, §4.3) -----------------------------------------------


@pytest.mark.parametrize(
    ("value", "x32", "x64"),
    [
        ("int64", "int32", "int64"),
        ("uint64", "uint32", "uint64"),
        ("float64", "float32", "float64"),
        ("complex128", "complex64", "complex128"),
        (np.int64, "int32", "int64"),
        (np.dtype("float64"), "float32", "float64"),
        (int, "int32", "int64"),
        (float, "float32", "float64"),
        (complex, "complex64", "complex128"),
        (bool, "bool", "bool"),
        ("S1", "bytes8", "bytes8"),  # does not validate
        *[(n, n, n) for n in ALL_NAMES if n not in TO_32],
    ],
)
def test_canonicalize_dtype(value: Any, x32: str, x64: str) -> None:
    for flag, want in ((False, x32), (True, x64)):
        with config(flag), no_warnings_check() as caught:
            assert tdt.canonicalize_dtype(value).name == want
            assert tdt.canonicalize_dtype(value, x64=flag).name == want
        assert caught == []


@pytest.mark.parametrize(
    ("args", "truncated"),
    [
        (("float64",), [("float64", "float32")]),
        ((np.float64,), [("float64", "float32")]),
        ((np.int64,), [("int64", "int32")]),
        ((np.dtype("uint64"),), [("uint64", "uint32")]),
        (("complex128", 1.0), [("complex128", "complex64")]),
        (("float64", "int64"), [("float64", "float32"), ("int64", "int32")]),
        ((np.float64(1),), []),
        ((np.int64(1),), []),
        ((np.array([1.0]),), []),
        ((strong("float64"),), []),
        ((int,), []),
        ((float,), []),
        ((1.0,), []),
        ((None,), []),
        (("float32", "int32"), []),
    ],
)
def test_x32_truncation_warnings(args: tuple[Any, ...], truncated: list[tuple[str, str]]) -> None:
    with config(False), no_warnings_check() as caught:
        tdt.result_type(*args)
    assert [w.category for w in caught] == [UserWarning] * len(truncated)
    for w, (big, small) in zip(caught, truncated, strict=True):
        text = str(w.message)
        assert text.startswith(
            f"Explicitly requested dtype {big} requested in dtype is not available, and will be "
            f"truncated to dtype {small}. To enable more dtypes, set the enable_x64 "
            "configuration option"
        ), text
        assert "TRELLAX_ENABLE_X64" in text and "jax" not in text.lower()
    with config(True), no_warnings_check() as caught:
        tdt.result_type(*args)
        tdt.promote_types("float64", "float32")
    assert caught == []


def test_trellax_scalar_types_are_canonicalized_silently() -> None:
    """§2.2/§4.3: ``jnp.float64`` as an argument is canonicalized without the warning that
    ``np.float64`` and ``'float64'`` give."""
    tnp = pytest.importorskip("trellax.numpy")
    for x64, want in (
        (False, ("float32", "int32", "complex64")),
        (True, ("float64", "int64", "complex128")),
    ):
        with config(x64), no_warnings_check() as caught:
            got = (
                tdt.result_type(tnp.float64),
                tdt.result_type(tnp.int64),
                tdt.result_type(tnp.int64, 1j),
            )
            assert tuple(d.name for d in got) == want
            assert tdt.promote_types(tnp.int64, tnp.float16).name == "float16"
        assert caught == []


# -- categories (§1.1) ----------------------------------------------------------------------------

CATEGORY = {
    "b": np.bool_,
    "i": np.signedinteger,
    "u": np.unsignedinteger,
    "f": np.floating,
    "c": np.complexfloating,
}
ABSTRACT = [
    np.generic, np.number, np.integer, np.signedinteger, np.unsignedinteger, np.inexact,
    np.floating, np.complexfloating, np.bool_,
]  # fmt: skip


@pytest.mark.parametrize("name", ALL_NAMES)
def test_issubdtype_categories(name: str) -> None:
    for category in ABSTRACT:
        expected = issubclass(CATEGORY[kind_of(name)], category)
        assert tdt.issubdtype(name, category) is expected, (name, category)
        assert tdt.issubdtype(dt(name), category) is expected
        assert tdt.issubdtype(dt(name).type, category) is expected
    assert tdt.issubdtype(name, name)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("bfloat16", np.floating, True),
        ("bfloat16", np.inexact, True),
        ("bfloat16", np.integer, False),
        ("float8_e4m3fn", np.float16, False),
        ("float8_e4m3fn", np.floating, True),
        ("bfloat16", "float16", False),
        ("bfloat16", "bfloat16", True),
        ("float16", "bfloat16", False),
        ("int4", np.signedinteger, True),
        ("int4", "int8", False),
        ("uint4", np.unsignedinteger, True),
        ("float32", np.floating, True),
        ("int8", np.floating, False),
        (np.floating, np.inexact, True),
        (np.floating, np.integer, False),
    ],
)
def test_issubdtype_examples(a: Any, b: Any, want: bool) -> None:
    assert tdt.issubdtype(a, b) is want


ISDTYPE_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


@pytest.mark.parametrize("name", ALL_NAMES)
def test_isdtype_kinds(name: str) -> None:
    for kind, kinds in ISDTYPE_KINDS.items():
        assert tdt.isdtype(name, kind) is (kind_of(name) in kinds), (name, kind)
    assert tdt.isdtype(name, name) and tdt.isdtype(dt(name), dt(name))
    assert tdt.isdtype(name, ("bool", "numeric"))


@pytest.mark.parametrize(
    ("dtype", "kind", "want"),
    [
        ("float32", np.float32, True),
        ("float32", "float32", True),
        ("float32", "float64", False),
        ("float32", ("bool", "real floating"), True),
        ("int8", ("bool", "complex floating"), False),
        ("int8", (), False),
        ("bfloat16", "real floating", True),
        ("int4", "signed integer", True),
        ("bool", "numeric", False),
    ],
)
def test_isdtype_examples(dtype: Any, kind: Any, want: bool) -> None:
    assert tdt.isdtype(dtype, kind) is want


def test_isdtype_errors() -> None:
    kinds = "['bool', 'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric']"
    with pytest.raises(ValueError) as info:
        tdt.isdtype("float32", "floating")
    assert str(info.value) == (
        f"Unrecognized kind='floating' expected one of {kinds}, or a compatible input for "
        "trellax.numpy.dtype()"
    )
    with pytest.raises(TypeError) as info2:
        tdt.isdtype("float32", 5)
    assert str(info2.value) == "Expected kind to be a dtype, string, or tuple; got kind=5"


# -- finfo, iinfo ---------------------------------------------------------------------------------


def bits_from_name(name: str) -> int:
    if name == "bool":
        return 8
    return int(re.match(r"[a-z]+?(\d+)", name).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize("name", [n for n in ALL_NAMES if kind_of(n) in "fc"])
def test_finfo(name: str) -> None:
    info = tdt.finfo(name)
    real = {"complex64": "float32", "complex128": "float64"}.get(name, name)
    assert info.dtype == dt(real)
    assert info.bits == bits_from_name(real)
    assert tdt.finfo(dt(name)).dtype == dt(real)
    assert tdt.itemsize_bits(name) == bits_from_name(name)
    assert float(info.max) > 0 and float(info.eps) > 0
    with pytest.raises(ValueError, match=f"iinfo needs an integer dtype, got {name}"):
        tdt.iinfo(name)


@pytest.mark.parametrize("name", [n for n in ALL_NAMES if kind_of(n) in "iu"])
def test_iinfo(name: str) -> None:
    info = tdt.iinfo(name)
    n = bits_from_name(name)
    assert info.dtype == dt(name) and info.bits == n
    lo, hi = (0, 2**n - 1) if kind_of(name) == "u" else (-(2 ** (n - 1)), 2 ** (n - 1) - 1)
    assert (int(info.min), int(info.max)) == (lo, hi)
    assert tdt.iinfo(dt(name)).max == info.max
    assert tdt.itemsize_bits(name) == n
    with pytest.raises(ValueError, match=f"finfo needs a floating .*, got {name}"):
        tdt.finfo(name)


def test_info_of_python_types_is_not_canonicalized() -> None:
    with config(False):
        assert tdt.finfo(float).dtype == np.float64
        assert tdt.iinfo(int).dtype == np.int64
    with pytest.raises(ValueError):
        tdt.finfo("bool")
    with pytest.raises(ValueError):
        tdt.iinfo("bool")


# -- bad dtype input ------------------------------------------------------------------------------

STRUCTURED = np.dtype([("a", "<i4")])


def lists_supported_dtypes(msg: str) -> bool:
    return all(re.search(rf"\b{n}\b", msg) for n in ALL_NAMES)


@pytest.mark.parametrize(
    ("fn", "value", "error", "names_it"),
    [
        (tdt.result_type, "int7", TypeError, "'int7'"),
        (tdt.result_type, object, TypeError, "object"),
        (tdt.result_type, STRUCTURED, TypeError, "('a', '<i4')"),
        (tdt.result_type, "S1", TypeError, "'S1'"),
        (tdt.result_type, np.array(["a"]), TypeError, "<U1"),
        (lambda v: tdt.result_type("int8", v), "S1", TypeError, "'S1'"),
        (lambda v: tdt.promote_types(v, "int8"), "int7", TypeError, "'int7'"),
        (lambda v: tdt.promote_types(v, "int8"), object, ValueError, "dtype('O')"),
        (lambda v: tdt.promote_types(v, "int8"), STRUCTURED, ValueError, "('a', '<i4')"),
        (lambda v: tdt.promote_types("int8", v), "S1", ValueError, "S1"),
        (dtypes_lib.check_user_dtype, "int7", TypeError, "'int7'"),
        (dtypes_lib.check_user_dtype, object, TypeError, "object"),
        (dtypes_lib.check_user_dtype, STRUCTURED, TypeError, "('a', '<i4')"),
        (dtypes_lib.check_user_dtype, "S1", TypeError, "S1"),
        (dtypes_lib.dtype_from_name, "int7", TypeError, "'int7'"),
        (tdt.issubdtype, "int7", TypeError, "'int7'"),
    ],
)
def test_bad_dtype_input_names_the_value_and_lists_the_accepted(
    fn: Any, value: Any, error: type[Exception], names_it: str
) -> None:
    for x64 in (False, True):
        with config(x64), pytest.raises(error) as info:
            fn(value) if fn is not tdt.issubdtype else fn(value, np.floating)
        msg = str(info.value)
        assert names_it in msg, msg
        assert lists_supported_dtypes(msg), msg


# -- weak nodes and weak values -------------------------------------------------------------------


@pytest.mark.parametrize("w", tdt.WEAK_NODES, ids=repr)
def test_weak_nodes_pickle_and_copy_to_themselves(w: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(w, protocol)) is w
    assert copy.copy(w) is w and copy.deepcopy(w) is w
    assert pickle.loads(pickle.dumps(tdt.lattice(True, "standard").upper_bounds(w))) == (
        tdt.lattice(True, "standard").upper_bounds(w)
    )


def test_weak_nodes_are_not_dtypes() -> None:
    """NumPy's dtype equality is loose (``np.dtype('int64') == int``); weak nodes are not."""
    assert np.dtype("int64") == int
    for w in tdt.WEAK_NODES:
        assert all(w != d and d != w for d in tdt.ALL_DTYPES)


@pytest.mark.parametrize(
    ("value", "want"),
    [
        (1, True),
        (1.0, True),
        (1j, True),
        (True, False),
        (np.float32(1), False),
        (np.array(1.0), False),
        (weak("int16"), True),
        (strong("int16"), False),
        (int, False),
        ("float32", False),
    ],
)
def test_is_weakly_typed(value: Any, want: bool) -> None:
    assert tdt.is_weakly_typed(value) is want


def test_public_names() -> None:
    assert trellax.dtypes is tdt
    for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2", "int4", "uint4"):
        assert getattr(tdt, name) == dt(name)
    for name in tdt.__all__:
        assert hasattr(tdt, name), name
