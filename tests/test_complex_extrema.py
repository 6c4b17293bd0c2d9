"""Complex ``max``/``min`` reductions bit for bit against JAX 0.10.2
(``tests/golden/complex_extrema.json`` from ``tools/gen_golden_complex_extrema.py``; the forms
are ``tests/complex_extrema_cases.py``'s): XLA's lexicographic pick folded in XLA:CPU's order,
windows of 32 along long axes included, so NaN in either part survives or not as in JAX
(``trellax/_src/backend/complex_order.py``; docs/semantics.md, "Complex max and min")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from complex_extrema_cases import forms
from golden_bits import bits_differ, decode

import trellax
from trellax._src.backend.complex_order import complex_reduce

GOLDEN = json.loads((Path(__file__).parent / "golden" / "complex_extrema.json").read_text("utf-8"))
RECORDS: list[dict[str, Any]] = GOLDEN["records"]
FORMS = forms(trellax)


def _id(rec: dict[str, Any]) -> str:
    return f"{rec['x']['dtype']}-{tuple(rec['x']['shape'])}-{rec['axis']}"


def _axis(rec: dict[str, Any]) -> Any:
    a = rec["axis"]
    return tuple(a) if isinstance(a, list) else a


def test_the_golden_covers_nan_where_it_decides() -> None:
    """Many operands, both dtypes, and JAX's results differ from NumPy's NaN-propagating
    maximum in many of them (the golden tells the two orders apart)."""
    assert len(RECORDS) == 178
    assert {r["x"]["dtype"] for r in RECORDS} == {"complex64", "complex128"}
    differ = 0
    for rec in RECORDS:
        x = decode(rec["x"])
        want = decode(rec["out"]["max"][1])
        with np.errstate(invalid="ignore"):
            numpy_max = np.asarray(np.max(x, axis=_axis(rec)))
        differ += int(bits_differ(numpy_max, want).any())
    assert differ >= 100, differ


@pytest.mark.parametrize("rec", RECORDS, ids=[_id(r) for r in RECORDS])
def test_reductions_match_jax(rec: dict[str, Any]) -> None:
    x = decode(rec["x"])
    axis = _axis(rec)
    bad = []
    with trellax.enable_x64(True):
        for name, f in FORMS.items():
            want = rec["out"][name]
            try:
                got: list[Any] = ["ok", np.asarray(f(x, axis))]
            except Exception as e:  # the class is the answer
                got = ["error", type(e).__name__]
            if want[0] == "error" or got[0] == "error":
                if got != want:
                    bad.append((name, got, want))
                continue
            w = decode(want[1])
            if got[1].dtype != w.dtype or got[1].shape != w.shape or bits_differ(got[1], w).any():
                bad.append((name, got[1].ravel()[:4], w.ravel()[:4]))
    assert not bad, bad


def test_the_fold_order_by_hand() -> None:
    """The order in a few lines: max(nan, 1+1j, 2) is 2 (the NaN is dropped when 1+1j meets it
    second), max(1+1j, 2, nan) is NaN (kept when it comes last), max(-inf-1j, -inf-2j) is the
    identity -inf+0j, one element is itself; 33 elements form two windows of 32 after 15
    skipped pads (elements 0-16 and 17-32): a NaN last in the first window survives it but
    meets the second window's partial after it (dropped); last in the second, it is kept."""
    nan = complex(np.nan, 0)

    def mx(*v: complex) -> complex:
        return complex(complex_reduce(np.asarray(v, np.complex64), (0,), for_max=True))

    assert mx(nan, 1 + 1j, 2) == 2
    assert np.isnan(mx(1 + 1j, 2, nan).real)
    assert mx(complex(-np.inf, -1), complex(-np.inf, -2)) == complex(-np.inf, 0)
    assert mx(complex(-np.inf, -1)) == complex(-np.inf, -1)
    v = [1 + 0j] * 33
    v[16] = nan
    assert mx(*v) == 1
    v[16], v[32] = 1 + 0j, nan
    assert np.isnan(mx(*v).real)
    assert np.isnan(mx(*v[1:]).real)  # 32 elements: one fold, the NaN last
