"""The rules behind the keyword fuzzer's value, dtype, shape and weak-flag differences
(``tests/fuzz_keywords_open.py``), each checked over many inputs against JAX 0.10.2's outcomes
(``tests/golden/kw_values.json`` from ``tools/gen_golden_kw_values.py``; the programs are in
``tests/kw_values_cases.py``): dtype, weak flag, shape and error class exactly, values bit for
bit (any NaN matches any NaN).

The family ``convert_fold`` is a departure (docs/semantics.md): under ``jit`` XLA folds an
out-of-range Python float converted to an integer type with C++'s cast, where JAX's eager
conversion saturates; trellax saturates on both paths, so both of its outcomes are compared
with JAX's eager one."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np
import pytest
from golden_bits import bits_differ, decode
from kw_values_cases import MODES, cases, outcome

import trellax

GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "kw_values.json").read_text()
)
CASES = cases()
FOLDED = "convert_fold"


def _same(mine: Any, ref: Any) -> bool:
    if isinstance(ref[0], list):
        return len(mine) == len(ref) and all(_same(m, r) for m, r in zip(mine, ref))
    if mine[:3] != ref[:3]:
        return False
    rec = {"dtype": ref[0], "shape": ref[2]}
    got, want = decode({**rec, "hex": mine[3]}), decode({**rec, "hex": ref[3]})
    return not bits_differ(got, want).any()


#: families whose rule is a dtype or weak flag over transcendental values (exp, tanh, erfc):
#: values within 4 ulps (NumPy's and XLA's kernels round differently) or flushed subnormals
ROUNDED = frozenset({"nn_inexact"})


def _close(mine: Any, ref: Any) -> bool:
    if isinstance(ref[0], list):
        return len(mine) == len(ref) and all(_close(m, r) for m, r in zip(mine, ref))
    if mine[:3] != ref[:3]:
        return False
    rec = {"dtype": ref[0], "shape": ref[2]}
    got, want = decode({**rec, "hex": mine[3]}), decode({**rec, "hex": ref[3]})
    fi = np.finfo(want.dtype)
    g, w = got.astype(np.float64), want.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return False
    ok = ~np.isnan(w)
    tol = np.maximum(4 * float(fi.eps) * np.abs(w[ok]), float(fi.tiny))
    return bool(np.all(np.abs(g[ok] - w[ok]) <= tol))


def _agrees(mine: Any, ref: Any, rounded: bool = False) -> bool:
    if mine[0] != ref[0]:
        return False
    if ref[0] == "error":
        return bool(mine[1] == ref[1])
    return _close(mine[1], ref[1]) if rounded else _same(mine[1], ref[1])


def _reference(mode: str, name: str) -> Any:
    if name.startswith(FOLDED + "/"):
        name = name.rsplit("/", 1)[0] + "/eager"  # JAX's saturating (eager) conversion
    return GOLDEN[mode][name]


def test_golden_covers_cases() -> None:
    for mode in MODES:
        assert set(GOLDEN[mode]) == set(CASES)


@pytest.mark.parametrize("family", sorted({n.split("/")[0] for n in CASES}))
@pytest.mark.parametrize("mode", MODES)
def test_family(mode: str, family: str) -> None:
    wrong = []
    with trellax.enable_x64(mode == "x64"), np.errstate(all="ignore"):
        for name, f in CASES.items():
            if name.split("/")[0] != family:
                continue
            mine, ref = outcome(trellax, f), _reference(mode, name)
            if not _agrees(mine, ref, family in ROUNDED):
                wrong.append((name, mine, ref))
    assert not wrong, f"{len(wrong)} differ: {wrong[:5]}"


@pytest.mark.parametrize("mode", MODES)
def test_jax_folds_out_of_range_floats_under_jit(mode: str) -> None:
    """The departure is real: JAX's ``jit`` outcome differs from its eager one for most of the
    out-of-range values (inf in int16 is 0, NaN in int32 is -2**31), never for NaN-free
    in-range ones."""
    names = [n for n in CASES if n.startswith(FOLDED + "/") and n.endswith("/jit")]
    differ = [n for n in names if not _agrees(GOLDEN[mode][n], _reference(mode, n))]
    assert len(names) == 108
    assert len(differ) >= 60, len(differ)
    assert "convert_fold/full/int16/inf/jit" in differ
    assert "convert_fold/full/int32/nan/jit" in differ
