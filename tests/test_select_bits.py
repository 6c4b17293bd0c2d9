"""``select_n`` by bit selection (``backend/select_bits.py``): the same bytes, dtype and memory
order as ``np.where`` for every dtype and special value, eagerly, in a compiled program's call
and inside fused regions (with and without a known all-zero false case)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend import numpy as kernels
from trellax._src.backend import select_bits
from trellax._src.interpreters.fusion_runtime import fusion_options

DTYPES = [
    np.float32, np.float64, np.float16, ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn,
    np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.bool_, np.complex64,
]  # fmt: skip


def _values(dtype: Any, n: int, seed: int) -> np.ndarray:
    """``n`` values of ``dtype``: NaNs with payloads and both signs, +-0.0, +-inf, subnormals,
    then random bits."""
    d = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, n * d.itemsize, dtype=np.uint8).view(d).copy()
    if d.kind == "b":
        return rng.random(n) < 0.5
    if d.kind in "fV" and d.itemsize >= 2:
        fin = ml_dtypes.finfo(d)
        specials = np.array(
            [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, float(fin.tiny) / 2, 1.0], np.float64
        ).astype(d)
        raw[: len(specials)] = specials
        if d.itemsize == 4:
            raw.view(np.uint32)[len(specials)] = 0x7FC0_1234  # a NaN with a payload
    return raw


@pytest.fixture
def bits_everywhere() -> Iterator[None]:
    """The bit path from one element on (the tests' arrays are small)."""
    old = select_bits.BITS_MIN
    select_bits.BITS_MIN = 1
    try:
        yield
    finally:
        select_bits.BITS_MIN = old


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_select2_matches_where_bytes(dtype: Any, bits_everywhere: None) -> None:
    n = 301
    a, b = _values(dtype, n, 1), _values(dtype, n, 2)
    which = np.random.default_rng(3).random(n) < 0.5
    got = select_bits.select2(which, a, b)
    want = np.where(which, b, a)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    zeros = np.zeros(n, dtype)
    got = select_bits.select2(which, zeros, b, True)
    assert got.tobytes() == np.where(which, b, zeros).tobytes()


def test_all_zero_bits() -> None:
    assert select_bits.all_zero_bits(np.zeros((3, 4), np.float32))
    assert select_bits.all_zero_bits(np.float32(0.0))
    assert not select_bits.all_zero_bits(np.float32(-0.0))
    assert not select_bits.all_zero_bits(np.array([0.0, 1e-45], np.float32))
    assert not select_bits.all_zero_bits(np.zeros(0, np.float32))
    assert not select_bits.all_zero_bits(np.array(["a"]))
    assert select_bits.all_zero_bits(np.zeros(2, ml_dtypes.bfloat16))


@pytest.mark.parametrize(
    "layout",
    ["fortran", "strided", "broadcast_which", "scalar_case"],
)
def test_other_layouts_keep_where(layout: str, bits_everywhere: None) -> None:
    """Operands that are not C-contiguous arrays of the result's shape go to ``np.where``, whose
    result (memory order included) is then returned as is."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((40, 30)).astype(np.float32)
    b = rng.standard_normal((40, 30)).astype(np.float32)
    which = rng.random((40, 30)) < 0.5
    if layout == "fortran":
        a, b, which = np.asfortranarray(a), np.asfortranarray(b), np.asfortranarray(which)
    elif layout == "strided":
        a = np.repeat(a, 2, axis=1)[:, ::2]
    elif layout == "broadcast_which":
        which = np.asarray(True)
    else:
        a = np.asarray(np.float32(2.0))
    got = select_bits.select2(which, a, b)
    want = np.where(which, b, a)
    assert got.tobytes() == want.tobytes() and got.strides == want.strides


def test_kernel_uses_bits_only_from_the_threshold() -> None:
    n = select_bits.BITS_MIN
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    which = rng.random(n) < 0.5
    for size in (n - 1, n):
        got = kernels.select_n(which[:size], a[:size], b[:size])
        assert got.tobytes() == np.where(which[:size], b[:size], a[:size]).tobytes()


def _programs() -> dict[str, Callable[..., Any]]:
    return {
        # relu's derivative: the false case is a constant of zeros (one pass, zeros unread)
        "relu_grad": lambda x: trellax.grad(lambda x: trellax.nn.relu(x * 1.5).sum())(x),
        "where_literal_zero": lambda x: tnp.where(x > 0, x * 2, 0.0),
        "where_neg_zero": lambda x: tnp.where(x > 0, x * 2, -0.0),
        "where_general": lambda x: tnp.where(x > 0.5, x * 2, x - 1),
        "select_after_region": lambda x: lax.select_n(tnp.abs(x) < 1, tnp.exp(x), x * x),
    }


@pytest.mark.parametrize("name", sorted(_programs()))
@pytest.mark.parametrize("fused", [True, False])
def test_programs_are_bit_identical(name: str, fused: bool) -> None:
    """Each program compiled with the bit path forced (fused: 7-element chunks; unfused: the
    specialized call) against the same program with ``np.where``/``copyto`` only."""
    f = _programs()[name]
    x = tnp.asarray(_values(np.float32, 257, 5).reshape(257))
    opts = {"chunk": 7, "min_elements": 0} if fused else {"enabled": False}
    outs = []
    for bits_min in (1, 1 << 62):
        old = select_bits.BITS_MIN
        select_bits.BITS_MIN = bits_min
        try:
            with fusion_options(**opts):
                outs.append(trellax.jit(f).lower(x).compile()(x))
        finally:
            select_bits.BITS_MIN = old
    got, want = outs
    assert (got.dtype, got.weak_type, got.shape) == (want.dtype, want.weak_type, want.shape)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_region_writes_bits_with_zero_case_known() -> None:
    x = tnp.asarray(np.random.default_rng(2).standard_normal(1 << 18).astype(np.float32))
    text = trellax.jit(_programs()["relu_grad"]).lower(x).as_text()
    assert "select_into" in text and ", True)  # select_n" in text


@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, np.float16])
def test_widened_regions_keep_copyto(dtype: Any, bits_everywhere: None) -> None:
    """bfloat16 values held in float32 inside a region select with ``copyto`` as before."""
    x = tnp.asarray(_values(dtype, 64, 4))
    f = _programs()["where_general"]
    with fusion_options(chunk=7, min_elements=0):
        got = trellax.jit(f)(x)
    with fusion_options(enabled=False):
        want = trellax.jit(f)(x)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
