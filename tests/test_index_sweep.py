"""The indexing, sorting, cumulative and casting probe against JAX 0.10.2 (issue 24, part 2):
``tests/index_sweep_cases.py`` run eagerly, under ``jit``, under ``vmap`` and differentiated,
compared with ``tests/golden/index_sweep.json`` (``tools/gen_golden_index_sweep.py``): shapes,
dtypes, weak flags, exact values, and the error's class where JAX raises.

``OPEN`` lists the calls that still differ (the test fails when one starts matching: drop it);
``KNOWN`` the differences kept on purpose, each with its reason (docs/semantics.md)."""

from __future__ import annotations

import json
import pathlib
import warnings
from typing import Any

import pytest
from index_sweep_cases import environment, expressions, outcome

import trellax

GOLDEN: dict[str, str] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "index_sweep.json").read_text()
)

#: calls that differ from JAX and are not fixed yet (expression -> what differs)
OPEN: dict[str, str] = {}

#: deliberate differences (expression -> reason, listed in docs/semantics.md)
KNOWN: dict[str, str] = {}


@pytest.fixture(scope="module")
def env() -> dict[str, Any]:
    return environment(trellax)


def _error_class(env: dict[str, Any], expr: str) -> BaseException | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(expr, env)
    except Exception as e:  # the error is what is compared
        return e
    return None


def mismatch(env: dict[str, Any], expr: str, want: str) -> str | None:
    """Why trellax's outcome differs from JAX's (``None`` when it does not). Errors match when
    trellax's is an instance of JAX's class (or of its nearest built-in base)."""
    got = outcome(env, expr)
    if got == want:
        return None
    if want.startswith("ERR ") and got.startswith("ERR "):
        err = _error_class(env, expr)
        names = {c.__name__ for c in type(err).__mro__}
        first, _, base = want[4:].partition(":")
        if first in names or (base and base in names):
            return None
    return f"trellax {got} ; JAX {want}"


def test_golden_is_current() -> None:
    assert list(GOLDEN) == expressions(), "re-run tools/gen_golden_index_sweep.py"


@pytest.mark.parametrize("part", range(8))
def test_index_sweep_matches_jax(env: dict[str, Any], part: int) -> None:
    bad = []
    calls = list(GOLDEN.items())[part::8]
    for expr, want in calls:
        why = mismatch(env, expr, want)
        if expr in OPEN or expr in KNOWN:
            assert why is not None, f"{expr} now matches JAX: drop it from OPEN/KNOWN"
        elif why is not None:
            bad.append(f"{expr}: {why}")
    assert not bad, f"{len(bad)} of {len(calls)} differ:\n" + "\n".join(bad)
