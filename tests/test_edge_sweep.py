"""Every public function of trellax's ``lax``, ``numpy.linalg``, ``numpy.fft``, ``nn``,
``scipy.special``, ``scipy.linalg``, ``scipy.signal``, ``scipy.stats`` and ``random`` on 0-d,
empty, wrong-rank and mismatched inputs against JAX's outcome (``tests/edge_sweep_cases.py``,
``tests/golden/edge_sweep.json``): JAX's shapes, dtypes, weak flags and values, or an error that
is an instance of JAX's error class, and never a NumPy exception leaking out."""

from __future__ import annotations

import builtins
import importlib
import json
import pathlib
import re
import warnings
from typing import Any

import numpy as np
import pytest
from edge_sweep_cases import HAND, NAMESPACES, describe, environment, leaves
from edge_sweep_open import KNOWN, OPEN

import trellax
import trellax.optim

GOLDEN: dict[str, dict[str, str]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "edge_sweep.json").read_text()
)

#: JAX functions trellax does not have (docs/jax_coverage.md lists them)
MISSING = {"lax.rng_uniform", "lax.scaled_dot"}


_RTOL = {
    "float16": 2e-3, "bfloat16": 1.6e-2, "float32": 4e-6, "float64": 1e-13,
    "complex64": 4e-6, "complex128": 1e-13,
}  # fmt: skip


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    mods = {n: importlib.import_module(f"trellax.{p}") for n, p in NAMESPACES.items()}
    return environment(trellax, mods, trellax.optim)


def _error(env: dict[str, Any], expr: str) -> BaseException | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            leaves(eval(expr, env))
    except Exception as e:  # the error is what is compared
        return e
    return None


def _error_matches(golden: str, e: BaseException) -> str | None:
    """``None`` when ``e`` is an instance of the golden class (or, for a JAX-only class, of its
    nearest built-in base), else why not."""
    first, _, base = golden[4:].partition(":")
    names = {c.__name__ for c in type(e).__mro__}
    leak = type(e).__module__.startswith("numpy") and type(e).__name__ != "AxisError"
    if leak:
        return f"a NumPy {type(e).__name__} leaks out ({e}); JAX: {golden}"
    if first in names or (base and not hasattr(builtins, first) and base in names):
        return None
    return f"{type(e).__name__}: {e} ; JAX: {golden}"


def _close(head: str, want: str, got: str) -> bool:
    dtype = head.split()[-2]
    rtol = _RTOL.get(dtype, 0.0)  # exact: "float16" is also in "bfloat16"
    if not rtol:
        return False
    try:
        w = [complex(x) for x in re.split(r" nan=| |sum=", want) if x]
        g = [complex(x) for x in re.split(r" nan=| |sum=", got) if x]
    except ValueError:  # not numbers (an object's text): only equal text matches
        return False
    if len(w) != len(g):
        return False
    scale = max((abs(x) for x in w if np.isfinite(x)), default=0.0)
    for a, b in zip(w, g, strict=True):
        for p, q in ((a.real, b.real), (a.imag, b.imag)):
            if np.isnan(p) or np.isnan(q) or np.isinf(p) or np.isinf(q):
                if not (np.isnan(p) and np.isnan(q)) and p != q:
                    return False
            elif abs(p - q) > rtol * max(abs(p), abs(q), scale):
                return False
    return True


def _value_matches(want: str, got: str) -> bool:
    w, g = want.split(" | "), got.split(" | ")
    if len(w) != len(g):
        return False
    for a, b in zip(w, g, strict=True):
        if a == b:
            continue
        ha, _, va = a.partition(" = ") if " = " in a else a.partition(" sum=")
        hb, _, vb = b.partition(" = ") if " = " in b else b.partition(" sum=")
        if ha != hb or not _close(ha, va, vb):
            return False
    return True


#: an automatic case: every argument is one of the inputs (arrays where the function may want a
#: static int, shape or dtype)
_AUTO = re.compile(r"^[\w.]+\(\w+(, \w+)*\)$")


def mismatch(env: dict[str, Any], expr: str, want: str) -> str | None:
    """Why trellax's outcome of ``expr`` differs from JAX's ``want`` (``None`` when it does not).

    Where both refuse an automatic case (an array passed for a static argument), JAX's class
    depends on where its code first touches the array (hashing, ``int()``, iteration), so only
    the refusal is compared, and that no NumPy exception leaks out; the hand-written cases
    compare the class."""
    got = describe(env, expr)
    if got == want:
        return None
    if want.startswith("ERR ") and got.startswith("ERR "):
        err = _error(env, expr)
        assert err is not None
        why = _error_matches(want, err)
        if why and _AUTO.match(expr) and "NumPy" not in why:
            return None
        return why
    if got.startswith("ERR "):
        err = _error(env, expr)
        return f"{type(err).__name__}: {err} ; JAX: {want}"
    if want.startswith("ERR ") or not _value_matches(want, got):
        return f"{got} ; JAX: {want}"
    return None


@pytest.mark.parametrize("ns", sorted(GOLDEN))
def test_edge_sweep_matches_jax(env: dict[str, Any], ns: str) -> None:
    bad = []
    for expr, want in GOLDEN[ns].items():
        if expr.split("(")[0] in MISSING:
            continue
        why = mismatch(env, expr, want)
        if expr in KNOWN or expr in OPEN:
            assert why is not None, f"{expr} now matches JAX: drop it from tests/edge_sweep_open.py"
        elif why is not None:
            bad.append(f"{expr}: {why}")
    assert not bad, f"{len(bad)} of {len(GOLDEN[ns])} differ:\n" + "\n".join(bad)


def test_every_hand_case_is_recorded() -> None:
    for ns, cases in HAND.items():
        if ns not in GOLDEN:
            continue  # not recorded yet (see the report of tools/gen_golden_edge_sweep.py)
        missing = [c for c in cases if c not in GOLDEN[ns]]
        assert not missing, f"regenerate tests/golden/edge_sweep.json: {missing[:5]}"
