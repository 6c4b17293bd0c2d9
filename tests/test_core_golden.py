"""The core's shape and indexing rules against golden data from JAX (``tests/golden/core.json``,
made by ``tools/gen_golden_core.py``): equal-rank lax elementwise primitives, gcd/lcm weak flags,
boolean-mask shape errors, ``.at[]`` modes and repeated indices, ``lax.gather``/``lax.scatter``
with dimension numbers. Every case runs eagerly; array-only cases run under ``jit`` too."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp

GOLDEN = json.loads((Path(__file__).parent / "golden" / "core.json").read_text())
CASES = GOLDEN["cases"]


def _ones(shape: tuple[int, ...], dtype: str = "float32") -> Any:
    return tnp.ones(shape, dtype)


def _env() -> dict[str, Any]:
    return {
        "lax": lax,
        "xnp": tnp,
        "np": np,
        "x": tnp.arange(5),
        "f": tnp.arange(5.0),
        "m": tnp.arange(6.0).reshape(2, 3),
        "ones": _ones,
    }


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return [_decode(e) for e in v]
    if isinstance(v, str):
        return float(v)
    return v


def _check(call: str, expected: dict[str, Any], got: Any) -> None:
    if "error" in expected:
        assert isinstance(got, BaseException), f"{call}: expected {expected['error']}, got {got!r}"
        assert type(got).__name__ == expected["error"], f"{call}: {got!r}"
        assert str(got) == expected["message"], call
        return
    assert not isinstance(got, BaseException), f"{call}: raised {got!r}"
    assert got.dtype.name == expected["dtype"], call
    assert got.weak_type == expected["weak_type"], call
    assert list(got.shape) == expected["shape"], call
    want = np.asarray(_decode(expected["value"]), dtype=np.float64)
    have = np.asarray(got, dtype=np.float64)
    np.testing.assert_array_equal(have, want, err_msg=call)
    # -0.0 is kept where JAX keeps it
    assert np.array_equal(np.signbit(have), np.signbit(want)), call


def _run(call: str, env: dict[str, Any]) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(call, env)
    except Exception as e:
        return e


@pytest.mark.parametrize("case", CASES, ids=[c["call"] for c in CASES])
def test_eager_matches_jax(case: dict[str, Any]) -> None:
    _check(case["call"], case["result"], _run(case["call"], _env()))


_JITTABLE = [
    c
    for c in CASES
    if "error" not in c["result"]
    and c["group"] in ("lax_shapes", "gcd_lcm", "modes", "updates", "lax_gather")
    and "np.ones(" not in c["call"]
]


@pytest.mark.parametrize("case", _JITTABLE, ids=[c["call"] for c in _JITTABLE])
def test_jit_matches_jax(case: dict[str, Any]) -> None:
    """The same call with the named arrays passed as ``jit`` arguments."""
    env = _env()
    names = ("x", "f", "m")

    def fn(*arrays: Any) -> Any:
        inner = {**env, **dict(zip(names, arrays))}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return eval(case["call"], inner)

    got = trellax.jit(fn)(*[env[n] for n in names])
    _check(case["call"], case["result"], got)


def test_golden_has_every_group() -> None:
    groups = {c["group"] for c in CASES}
    assert groups == {"lax_shapes", "gcd_lcm", "masks", "modes", "updates", "lax_gather"}
    assert all(math.isfinite(len(c["call"])) for c in CASES)
