"""``scipy.special`` as the fast path of trellax's special functions (``backend/scipy_special.py``).

For every kernel and dtype that uses SciPy: its values equal the own kernel's bit for bit on a
sample with NaN, ±inf, ±0, subnormals, poles, huge and tiny values. Without SciPy (simulated) or
with ``TRELLAX_SCIPY=0`` the own code runs; float16/bfloat16 always run the own code; ``jit``,
``vmap`` and ``grad`` give the same bits on either path.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
import trellax.scipy.special as tsp
from trellax._src.backend import scipy_special, special_fast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import scipy_special_survey as survey

pytest.importorskip("scipy.special")

assert special_fast.TABLE is scipy_special.TABLE
ENABLED = [
    (name, np.dtype(d).name)
    for name, entry in scipy_special.TABLE.items()
    for d in entry.fast_dtypes
]


@pytest.fixture
def no_scipy() -> Iterator[None]:
    scipy_special.reset_scipy_special_module(None)
    try:
        yield
    finally:
        scipy_special.reset_scipy_special_module()


def test_some_kernels_use_scipy() -> None:
    assert {"erfcx", "exp1", "igamma"} <= {name for name, _ in ENABLED}


@pytest.mark.parametrize(("name", "dtype"), ENABLED)
def test_scipy_path_is_bit_identical_to_the_own_code(name: str, dtype: str) -> None:
    entry = scipy_special.TABLE[name]
    for seed in (0, 1):
        args = survey.operands(name, np.dtype(dtype), entry.nargs, 6000, seed)
        with np.errstate(all="ignore"):
            own = entry.own(*args)
            fast = scipy_special.fast_value(name, *args)
            dispatched = entry(*args)
        assert fast.dtype == own.dtype == dispatched.dtype
        bad = np.flatnonzero(survey.bits_differ(own, fast))
        examples = [(tuple(float(v[i]) for v in args), own[i], fast[i]) for i in bad[:5]]
        assert bad.size == 0, f"{name} {dtype}: {bad.size} differ, e.g. {examples}"
        assert not survey.bits_differ(own, dispatched).any()


@pytest.mark.parametrize("name", sorted(scipy_special.TABLE))
def test_without_scipy_the_own_code_runs(name: str, no_scipy: None) -> None:
    entry = scipy_special.TABLE[name]
    assert scipy_special.scipy_special_module() is None
    args = survey.operands(name, np.dtype(np.float32), entry.nargs, 300)
    with np.errstate(all="ignore"):
        assert not survey.bits_differ(entry(*args), entry.own(*args)).any()
    with pytest.raises(RuntimeError, match="not available"):
        scipy_special.fast_value(name, *args)


def test_environment_switch_forces_the_own_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRELLAX_SCIPY", "0")
    scipy_special.reset_scipy_special_module()
    try:
        assert scipy_special.scipy_special_module() is None
        monkeypatch.setenv("TRELLAX_SCIPY", "1")
        scipy_special.reset_scipy_special_module()
        assert scipy_special.scipy_special_module() is not None
    finally:
        scipy_special.reset_scipy_special_module()


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_narrow_floats_keep_the_own_code(dtype: str) -> None:
    x = tnp.array([0.25, 1.5, 3.0, 7.0], dtype).__array__()
    for name, entry in scipy_special.TABLE.items():
        assert np.dtype(dtype) not in entry.fast_dtypes
        args = [x] * entry.nargs
        with np.errstate(all="ignore"):
            assert not survey.bits_differ(entry(*args), entry.own(*args)).any(), name


def _programs() -> list[tuple[str, object]]:
    a = tnp.linspace(0.5, 6.0, 12, dtype="float32")
    x = tnp.linspace(0.1, 0.9, 12, dtype="float32")
    return [
        ("gammainc", lambda: trellax.jit(tsp.gammainc)(a, a * 0.7)),
        ("vmap exp1", lambda: trellax.vmap(tsp.exp1)(a)),
        ("grad erfcx", lambda: trellax.vmap(trellax.grad(tsp.erfcx))(a)),
        ("grad gammainc", lambda: trellax.vmap(trellax.grad(tsp.gammainc, 1))(a, a)),
        ("jit betainc", lambda: trellax.jit(tsp.betainc)(a, a + 1, x)),
        ("jit expi", lambda: trellax.jit(lambda v: tsp.expi(v) * 2)(a)),
    ]


def test_transformations_give_the_same_bits_on_both_paths() -> None:
    fast = {name: np.asarray(f()) for name, f in _programs()}  # type: ignore[operator]
    scipy_special.reset_scipy_special_module(None)
    try:
        own = {name: np.asarray(f()) for name, f in _programs()}  # type: ignore[operator]
    finally:
        scipy_special.reset_scipy_special_module()
    for name in fast:
        assert not survey.bits_differ(fast[name], own[name]).any(), name
