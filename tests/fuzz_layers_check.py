"""Comparing a layer or optimizer fuzzer outcome (``tools/fuzz_layers.py``) on trellax with Flax's
and optax's (``tests/test_fuzz_layers.py``).

Errors compare by class (``probe_batch3_cases.error_verdict``). A layer outcome is a map from a
path (``init/...`` variables, ``state/...`` updated batch statistics, ``carry/...`` a cell's
initial carry, ``out/...`` the output) to an array summary: the paths must be the same
(``structure``), each array's dtype and shape equal; its values are equal when their digests are,
else the recorded first elements must agree within :data:`ULPS` units in the last place of the
program's coarsest float dtype, measured against the array's largest magnitude
(``fuzz_programs_check._close``), and the sums of all elements within the same bound times the
sum of magnitudes. An optimizer outcome must have optax's state layout, the dtypes, shapes and
weak flags of the first step's updates and state leaves, and parameters, updates and state leaves
within :data:`OPTIM_ULPS` units in the last place of each leaf's largest magnitude of optax's
values after step 20 (and the same digest of every step's bits for bit-identity).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from fuzz_programs_check import _close
from probe_batch3_cases import CLASSES, error_verdict

#: tolerance of a layer's values: units in the last place of the coarsest dtype, normwise
ULPS = 16
#: tolerance of an optimizer's parameters, updates and state after 20 steps
OPTIM_ULPS = 4

_NAMES = {"bfloat16": ml_dtypes.bfloat16}


def _dtype(name: str) -> np.dtype[Any]:
    return np.dtype(_NAMES.get(name, name))


def _nmant(prog: dict[str, Any]) -> int:
    return min(int(ml_dtypes.finfo(_dtype(d)).nmant) for d in prog["dtypes"])


def _head(s: list[Any]) -> np.ndarray:
    dt = _dtype(s[0])
    if dt.kind == "b":
        return np.frombuffer(bytes.fromhex(s[3]), np.uint8).astype(bool)
    return np.frombuffer(bytes.fromhex(s[3]), dt)


def _sum_close(mine: list[Any], ref: list[Any], nmant: int) -> bool:
    a, b = np.array(mine[4], np.float64), np.array(ref[4], np.float64)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    ok = ~np.isnan(a)
    if not np.isfinite(b[ok]).all() or not np.isfinite(a[ok]).all():
        return bool(np.array_equal(a[ok], b[ok]))
    mag = max(ref[5], mine[5], 1e-300)
    return bool(np.all(np.abs(a[ok] - b[ok]) <= ULPS * 2.0**-nmant * mag))


def _array_verdict(mine: list[Any], ref: list[Any], nmant: int) -> str | None:
    if mine[0] != ref[0]:
        return "dtype"
    if mine[1] != ref[1]:
        return "shape"
    if mine[2] == ref[2] or mine[0] == "float0":
        return None
    got, want = _head(mine), _head(ref)
    if want.dtype.kind not in "fcV":
        return "value"
    if not _close(got, want, True, nmant) or not _sum_close(mine, ref, nmant):
        return "value"
    return None


def layer_verdict(prog: dict[str, Any], mine: dict[str, Any], ref: dict[str, Any]) -> str | None:
    found: list[str] = []
    if sorted(mine) != sorted(ref):
        found.append("structure")
    nmant = _nmant(prog)
    for path in sorted(set(mine) & set(ref)):
        m, r = mine[path], ref[path]
        if r[0] == "obj" or m[0] == "obj":
            if m != r:
                found.append("structure")
            continue
        v = _array_verdict(m, r, nmant)
        if v:
            found.append(v)
    return next((c for c in CLASSES if c in found), None)


def _leaf_ulps(mine: str, ref: str, dtype: str) -> float:
    """The distance of two leaves given as hex bits: 0 when equal, else the largest difference
    in units in the last place of the leaf's largest magnitude (normwise, so a value passing
    through zero counts at its leaf's scale); 2**40 for integers that differ or NaN/infinities
    in other places."""
    if mine == ref:
        return 0
    dt = _dtype(dtype)
    if dt.kind not in "fV" and dtype != "bfloat16":
        return 2**40
    got = np.frombuffer(bytes.fromhex(mine), dt).astype(np.float64)
    want = np.frombuffer(bytes.fromhex(ref), dt).astype(np.float64)
    if got.shape != want.shape or not np.array_equal(np.isnan(got), np.isnan(want)):
        return 2**40
    inf = np.isinf(got) | np.isinf(want)
    if not np.array_equal(got[inf], want[inf]):
        return 2**40
    ok = ~(np.isnan(want) | inf)
    if not ok.any():
        return 0
    fi = ml_dtypes.finfo(dt)
    top = max(float(np.abs(want[ok]).max()), float(fi.tiny))
    ulp = 2.0 ** (np.floor(np.log2(top)) - int(fi.nmant))
    return float(np.abs(got[ok] - want[ok]).max() / ulp)


def optim_distance(mine: dict[str, Any], ref: dict[str, Any], dtype: str) -> float:
    """The largest ulp distance of the recorded parameters, updates and state leaves."""
    worst = 0.0
    kinds = [k[0] for k in ref["state_kinds"]]
    for t, want in ref["bits"].items():
        got = mine["bits"][t]
        for a, b in zip(got["params"] + got["updates"], want["params"] + want["updates"]):
            worst = max(worst, _leaf_ulps(a, b, dtype))
        for a, b, k in zip(got["state"], want["state"], kinds):
            worst = max(worst, _leaf_ulps(a, b, k) if k in _KNOWN else float(a != b) * 2**40)
    return worst


_KNOWN = {"float16", "bfloat16", "float32", "float64", "int32", "int64", "uint32", "bool",
          "int8", "uint8"}  # fmt: skip


def optim_verdict(prog: dict[str, Any], mine: dict[str, Any], ref: dict[str, Any]) -> str | None:
    if mine["layout"] != ref["layout"]:
        return "structure"
    if mine["updates"] != ref["updates"] or mine["state_kinds"] != ref["state_kinds"]:
        dtypes = [k[:2] for k in mine["state_kinds"]] == [k[:2] for k in ref["state_kinds"]]
        upd = {k: v[:2] for k, v in mine["updates"].items()}
        if dtypes and upd == {k: v[:2] for k, v in ref["updates"].items()}:
            return "weak"
        return "dtype"
    if mine["digest"] == ref["digest"]:
        return None
    return "value" if optim_distance(mine, ref, prog["dtype"]) > OPTIM_ULPS else None


def verdict(prog: dict[str, Any], mine: Any, ref: Any) -> str | None:
    """``None`` when trellax's outcome agrees with the reference's, else the worst class of
    difference (``probe_batch3_cases.CLASSES``)."""
    if ref[0] == "error" or mine[0] == "error":
        return error_verdict(mine, ref)
    if prog["kind"] == "optim":
        return optim_verdict(prog, mine[1], ref[1])
    return layer_verdict(prog, mine[1], ref[1])
