"""``explicit_x64_dtypes``: what an explicit 64-bit dtype request does while x64 is off.

"allow" keeps it (64-bit arrays with x64 off, surviving promotion and reductions, on the x32
lattice), compared with JAX 0.10.2 case by case (``tests/golden/explicit_x64.json``, written by
``tools/gen_golden_explicit_x64.py``); "warn" (the default) truncates with a UserWarning and
"error" raises.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from explicit_x64_cases import CASES, describe, setup

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((Path(__file__).parent / "golden" / "explicit_x64.json").read_text())["cases"]


def _run(code: str, env: dict[str, Any]) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "allow" never warns
        try:
            return describe(eval(code, dict(env)))
        except Exception as e:
            return {"error": type(e).__name__}


@pytest.mark.parametrize("name", sorted(CASES))
def test_allow_matches_jax(name: str) -> None:
    with trellax.enable_x64(False), trellax.explicit_x64_dtypes("allow"):
        env = setup(trellax)
        assert _run(CASES[name], env) == GOLDEN[name]


def test_golden_covers_every_case() -> None:
    assert set(GOLDEN) == set(CASES)


def test_flag_values_and_names() -> None:
    mode = trellax.config.read("jax_explicit_x64_dtypes")
    assert mode.name == "WARN"
    with trellax.explicit_x64_dtypes("allow"):
        assert trellax.explicit_x64_dtypes.value.name == "ALLOW"
        assert trellax.config.jax_explicit_x64_dtypes.name == "ALLOW"
    assert trellax.explicit_x64_dtypes.value.name == "WARN"
    with pytest.raises(ValueError, match="new enum value"):
        trellax.explicit_x64_dtypes("sometimes")


def test_config_update_sets_it_process_wide() -> None:
    trellax.config.update("jax_explicit_x64_dtypes", "allow")
    try:
        assert tnp.zeros(2, "float64").dtype == np.float64
    finally:
        trellax.config.update("jax_explicit_x64_dtypes", "warn")
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
        assert tnp.zeros(2, "float64").dtype == np.float32


def test_warn_truncates_and_error_raises() -> None:
    with trellax.enable_x64(False):
        with pytest.warns(UserWarning, match="truncated to dtype int32"):
            assert tnp.arange(3, dtype="int64").dtype == np.int32
        with (
            trellax.explicit_x64_dtypes("error"),
            pytest.raises(ValueError, match="Explicitly requested dtype float64"),
        ):
            tnp.zeros(2, "float64")


def test_mode_is_part_of_the_jit_cache_key() -> None:
    f = trellax.jit(lambda x: x.astype("float64") + 1)
    with trellax.enable_x64(False):
        with trellax.explicit_x64_dtypes("allow"):
            assert f(tnp.ones(2)).dtype == np.float64
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert f(tnp.ones(2)).dtype == np.float32


def test_64bit_array_made_under_allow_meets_defaults_outside_it() -> None:
    with trellax.explicit_x64_dtypes("allow"):
        x = tnp.arange(3, dtype="int64")
        assert (x + 1).dtype == np.int64
    # outside "allow" (x64 off), a 64-bit array computes in 32 bits when it meets other values
    assert (x + 1).dtype == np.int32
    assert x.dtype == np.int64  # the array itself is unchanged
