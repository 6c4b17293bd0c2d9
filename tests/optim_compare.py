"""The comparison of a ``trellax.optim`` trajectory with optax's golden one, shared by
``tests/test_optim_golden.py``, ``tests/test_optim_rest.py`` and ``tests/test_optim_more.py``
(and ``tools/optim_agreement.py``).

A trajectory record (from ``optim_cases.replay`` or ``optim_rest_cases.replay``, the same on
both sides) holds the state's layout, the dtypes and weak flags of the first step's updates and
state leaves, a digest of the parameters and state after every step, and their bit patterns at
the recorded steps (the parameters as a ``{"b": ..., "w": ...}`` dict in ``optim.json``, as a
list of leaves in the other files; :func:`param_leaves` reads both).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from optim_cases import ulps

import trellax

FLOATS: dict[str, Any] = {
    "float32": np.float32,
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
}
#: the distance given to a differing integer or boolean leaf, or to a NaN against a number
FULL = 2**40


def describe(x: Any) -> list[Any]:
    """[dtype, weak flag] of an array, [type name, None] of anything else (as the generators)."""
    if isinstance(x, trellax.Array):
        return [str(x.dtype), bool(x.weak_type)]
    return [type(x).__name__, None]


def leaf_ulps(mine: list[str], theirs: list[str], kind: str) -> int:
    """The ulp distance of two leaves of dtype ``kind`` given as bit patterns (hex strings)."""
    if mine == theirs:
        return 0
    if kind not in FLOATS:  # an integer or boolean leaf: any difference counts fully
        return FULL
    width = np.uint16 if kind in ("float16", "bfloat16") else np.uint32
    got = np.array([int(h, 16) for h in mine], width).view(FLOATS[kind])
    return ulps(got, theirs)


def param_leaves(recorded: dict[str, list[str]] | list[list[str]]) -> list[list[str]]:
    """The recorded parameters' leaves in tree order (sorted keys for a dict)."""
    if isinstance(recorded, dict):
        return [recorded[k] for k in sorted(recorded)]
    return recorded


def compare(
    want: dict[str, Any], got: dict[str, Any], record_steps: tuple[int, ...], dtype: str
) -> tuple[int, int, int]:
    """(first step whose digest differs from optax's, 0 if none; the largest ulp distance of
    the parameters, and of the state leaves, over ``record_steps``). Asserts what must be
    equal: the error class, the state's layout, the dtypes and weak flags."""
    assert got.get("error") == want.get("error"), f"{got.get('error')} raised"
    if "error" in want:
        return 0, 0, 0
    assert got["layout"] == want["layout"], "the state's layout differs from optax's"
    assert got["updates"] == want["updates"], "the updates' dtypes differ from optax's"
    assert got["state_kinds"] == want["state_kinds"], "the state's dtypes differ from optax's"
    first = next(
        (t + 1 for t, (a, b) in enumerate(zip(got["digests"], want["digests"])) if a != b), 0
    )
    p_ulps = s_ulps = 0
    for t in map(str, record_steps):
        for mine, theirs in zip(param_leaves(got["params"][t]), param_leaves(want["params"][t])):
            p_ulps = max(p_ulps, leaf_ulps(mine, theirs, dtype))
        for mine, theirs, kind in zip(got["state"][t], want["state"][t], want["state_kinds"]):
            s_ulps = max(s_ulps, leaf_ulps(mine, theirs, kind[0]))
    return first, p_ulps, s_ulps


def check(result: tuple[int, int, int], bound: tuple[int, int] | None) -> None:
    """Without a bound the trajectory must be bit-identical at every step; with one, the
    parameters' and the state's distances must stay within it."""
    first, p_ulps, s_ulps = result
    if bound is None:
        assert first == 0, f"differs from optax from step {first}: {p_ulps} / {s_ulps} ulps"
    else:
        assert p_ulps <= bound[0] and s_ulps <= bound[1], (
            f"{p_ulps} / {s_ulps} ulps from optax (params / state); bound {bound}"
        )


def check_tight(
    results: dict[str, tuple[int, int, int]], bounds: dict[str, tuple[int, int]]
) -> list[str]:
    """The bounds that a run of this session measured and that are not reached exactly (a
    bound must shrink when trellax gets closer): ``key: measured`` strings, empty when tight."""
    loose = []
    for key, bound in bounds.items():
        if key in results:
            first, p_ulps, s_ulps = results[key]
            if first == 0 or (p_ulps, s_ulps) != bound:
                loose.append(f"{key}: measured {results[key]}, bound {bound}")
    return loose
