"""``backend/xla_log.py`` is XLA:CPU's float32 ``log`` and ``log1p``, bit for bit.

``tests/golden/xla_log.json`` (``tools/gen_golden_xla_log.py``) holds JAX 0.10.2's results at
hard inputs (zeros, subnormals, infinities, NaNs, branch points and their neighbours) and the
SHA-256 of its results on every 65521st float32 bit pattern. All 2**32 inputs were compared by
``tools/check_xla_log.py`` (docs/random.md, "Exactness").
"""

from __future__ import annotations

import hashlib
import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xla_log_cases import hard_inputs, sweep_inputs

import trellax
from trellax._src.backend import xla_log

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "xla_log.json").read_text())
FUNCS: dict[str, Callable[[Any], Any]] = {"log": xla_log.log_f32, "log1p": xla_log.log1p_f32}
NUMPY: dict[str, Callable[[Any], Any]] = {"log": np.log, "log1p": np.log1p}


def _hex(a: Any) -> list[str]:
    return [format(int(b), "08x") for b in np.asarray(a, np.float32).view(np.uint32)]


@pytest.mark.parametrize("name", ["log", "log1p"])
def test_hard_inputs(name: str) -> None:
    x = hard_inputs()
    want = GOLDEN[name]["hard"]
    got = dict(zip(_hex(x), _hex(FUNCS[name](x)), strict=True))
    bad = {k: (want[k], v) for k, v in got.items() if want[k] != v}
    assert not bad, f"{name}: input -> (XLA, ours): {bad}"


@pytest.mark.parametrize("name", ["log", "log1p"])
def test_sweep(name: str) -> None:
    x = sweep_inputs()
    assert x.size == GOLDEN[name]["sweep_n"]
    got = np.asarray(FUNCS[name](x), np.float32).view(np.uint32)
    assert hashlib.sha256(got.tobytes()).hexdigest() == GOLDEN[name]["sweep_sha256"]


@pytest.mark.parametrize("name", ["log", "log1p"])
def test_numpy_differs(name: str) -> None:
    # the golden data tell the two apart: NumPy's (libm's) float32 function is not XLA's
    x = sweep_inputs()
    with np.errstate(all="ignore"):
        theirs = NUMPY[name](x).view(np.uint32)
    ours = np.asarray(FUNCS[name](x), np.float32).view(np.uint32)
    fine = (
        np.isfinite(x) & (np.abs(x) >= np.float32(1.1754944e-38)) & ~np.isnan(ours.view(np.float32))
    )
    assert np.count_nonzero(theirs[fine] != ours[fine]) > 100


@pytest.mark.parametrize("n", [0, 1, 5, xla_log.BLOCK - 1, xla_log.BLOCK + 3, 3 * xla_log.BLOCK])
def test_blocks_and_shapes(n: int) -> None:
    # block boundaries, both branches of log1p mixed in one block, in-place use, any shape
    rng = np.random.default_rng(n)
    x = rng.uniform(-1.5, 3, n).astype(np.float32)
    one = np.array([xla_log.log1p_f32(v)[()] for v in x[:50]], np.float32)
    whole = xla_log.log1p_f32(x)
    assert whole.view(np.uint32)[:50].tolist() == one.view(np.uint32).tolist()
    inplace = x.copy()
    with np.errstate(all="ignore"):
        xla_log.log1p_into(inplace, inplace, xla_log.Scratch())
    assert inplace.view(np.uint32).tolist() == whole.view(np.uint32).tolist()
    if n:
        grid = x[: (n // 2) * 2].reshape(2, -1)
        assert xla_log.log_f32(grid).shape == grid.shape
        assert xla_log.log_f32(grid).reshape(-1).view(np.uint32).tolist() == (
            xla_log.log_f32(grid.reshape(-1)).view(np.uint32).tolist()
        )


@pytest.mark.parametrize("name", ["log", "log1p"])
def test_compiled_kernel_matches(name: str) -> None:
    # the Numba loops (random/compiled_kernels' log32, log1p32) against the NumPy steps
    from trellax._src.backend import compiled, xla_log_compiled

    if not compiled.available():
        pytest.skip("Numba is not installed")
    k = compiled.kernel(xla_log_compiled.kernel_source(name))
    compiled.prepare([(k, (np.zeros(1, np.float32), np.zeros(1, np.float32)))], wait=True)
    x = np.concatenate([hard_inputs(), _every(251)])
    out = np.empty_like(x)
    k.fn(x, out)
    want = np.asarray(FUNCS[name](x), np.float32)
    assert np.count_nonzero(out.view(np.uint32) != want.view(np.uint32)) == 0


def _every(step: int) -> Any:
    return np.arange(0, 1 << 32, step, dtype=np.uint64).astype(np.uint32).view(np.float32)


def test_python_float_path_matches_golden() -> None:
    # log1p of a few values runs on Python floats (xla_log.log1p_values): the golden bits too
    x = hard_inputs()
    want = GOLDEN["log1p"]["hard"]
    got = np.array(xla_log.log1p_values(x.tolist()), np.float32)
    bad = {k: (want[k], v) for k, v in zip(_hex(x), _hex(got), strict=True) if want[k] != v}
    assert not bad


def test_sampler_log_primitives_differentiate_as_log_and_log1p() -> None:
    from trellax._src.random.logs import random_log1p_p, random_log_p

    x = np.array([0.25, 0.5, 0.9], np.float32)
    for prim, ref in ((random_log_p, trellax.numpy.log), (random_log1p_p, trellax.numpy.log1p)):
        got = trellax.jvp(prim.bind, (x,), (np.ones(3, np.float32),))
        want = trellax.jvp(ref, (x,), (np.ones(3, np.float32),))
        np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))
        np.testing.assert_array_max_ulp(np.asarray(got[0]), np.asarray(want[0]), maxulp=2)
