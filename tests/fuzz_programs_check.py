"""Comparing a random program's outcome on trellax with JAX's (``tests/test_fuzz_programs.py``).

An outcome is what ``tools/fuzz_programs.py``'s ``run`` returns. Errors compare by class
(``probe_batch3_cases.error_verdict``: trellax's class must be JAX's or derive from it); arrays by
kind, dtype, shape and weak flag exactly, then by bits (``golden_bits``: any NaN matches any
NaN). A program that uses an operation whose float results are not exactly rounded
(``fuzz_programs.approx``: transcendentals, sums and products in another order than XLA's,
matmul, complex products) is compared within :data:`ULPS` units in the last place instead, measured
at the larger of the element's magnitude and, after a reduction, the array's largest finite
magnitude, at the precision of the program's coarsest float dtype (:func:`coarsest`); NaN and infinities must sit where JAX's are, with their signs.
"""

from __future__ import annotations

import pathlib
import sys
from typing import Any

import ml_dtypes
import numpy as np
from golden_bits import bits_differ, decode
from probe_batch3_cases import CLASSES, error_verdict

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import fuzz_programs

#: the tolerance of programs with a not-exactly-rounded operation, in units in the last place
ULPS = 16


def _decode(entry: list[Any]) -> np.ndarray:
    _, dtype, shape, _, hexbits = entry
    if dtype == "bool":
        return np.frombuffer(bytes.fromhex(hexbits), np.uint8).astype(bool).reshape(shape)
    return decode({"dtype": dtype, "hex": hexbits, "shape": shape})


def _ulp(mag: np.ndarray, dtype: np.dtype[Any], nmant: int) -> np.ndarray:
    fi = ml_dtypes.finfo(dtype)
    _, e = np.frexp(np.maximum(mag, float(fi.tiny)))
    return np.ldexp(1.0, e - 1 - min(int(fi.nmant), nmant))


def coarsest(prog: dict[str, Any]) -> int:
    """The fewest mantissa bits of a float dtype the program computes in (its inputs', its
    casts', the default float's): a float32 step cast to float64 is compared at float32's ulp."""
    names = [i["dtype"] for i in prog["inputs"]]
    names += [
        op[-1]["dtype"] for op in prog["ops"] if isinstance(op[-1], dict) and "dtype" in op[-1]
    ]
    names.append("float64" if prog["x64"] else "float32")
    bits = [
        int(ml_dtypes.finfo(fuzz_programs.np_dtype(n)).nmant)
        for n in names
        if n in fuzz_programs.FLOATS or n.startswith("complex")
    ]
    return min(bits)


def _close(got: np.ndarray, want: np.ndarray, normwise: bool, nmant: int) -> bool:
    if want.dtype.kind == "c":
        return _close(got.real, want.real, normwise, nmant) and _close(
            got.imag, want.imag, normwise, nmant
        )
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return False
    inf = np.isinf(w) | np.isinf(g)
    if not np.array_equal(g[inf], w[inf]):
        return False
    ok = ~(np.isnan(w) | inf)
    mag = np.maximum(np.abs(g), np.abs(w))
    if normwise and ok.any():
        mag = np.maximum(mag, np.abs(w[ok]).max())
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(g - w)
    return bool(np.all(err[ok] <= ULPS * _ulp(mag, want.dtype, nmant)[ok]))


def _diff(mine: Any, ref: Any, found: list[str], tolerant: int, normwise: bool) -> None:
    if mine == ref:
        return
    if mine[0] != ref[0] or ref[0] in ("py", "obj"):
        found.append("structure" if mine[0] != ref[0] or ref[0] == "obj" else "value")
        return
    if ref[0] == "seq":
        if len(mine[1]) != len(ref[1]):
            found.append("structure")
        for m, r in zip(mine[1], ref[1]):
            _diff(m, r, found, tolerant, normwise)
        return
    if mine[1] != ref[1]:
        found.append("dtype")
        return
    if mine[2] != ref[2]:
        found.append("shape")
        return
    if ref[0] == "arr" and mine[3] != ref[3]:
        found.append("weak")
    if mine[4] == ref[4] or ref[1] == "void":  # float0 tangents carry no bits
        return
    got, want = _decode(mine), _decode(ref)
    if not bits_differ(got, want).any():
        return
    if tolerant and want.dtype.kind in "fcV" and _close(got, want, normwise, tolerant):
        return
    found.append("value")


def verdict(prog: dict[str, Any], mine: Any, ref: Any) -> str | None:
    """``None`` when trellax's outcome ``mine`` agrees with JAX's ``ref``, else the worst class
    of difference (``probe_batch3_cases.CLASSES``: value, dtype, weak, shape, structure, crash,
    accepts, error_class)."""
    if ref[0] == "error" or mine[0] == "error":
        return error_verdict(mine, ref)
    found: list[str] = []
    reduces = any(op[0] in fuzz_programs.APPROX for op in prog["ops"]) or prog["transform"] in (
        "grad",
        "value_and_grad",
    )
    tolerant = coarsest(prog) if fuzz_programs.approx(prog) else 0
    _diff(mine[1], ref[1], found, tolerant, reduces)
    for c in CLASSES:
        if c in found:
            return c
    return None
