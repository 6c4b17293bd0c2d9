"""float32/float64 ``linspace`` against JAX 0.10.2's bits (``tools/gen_golden_lin17.py``): the
samples as XLA:CPU computes JAX's formula (``trellax/_src/backend/linspace_xla.py``), eagerly and
under ``jit`` with the ends as arguments and as constants, its ``retstep`` step, large sizes
whose loop XLA splits over two threads, Python-float ends with 64-bit mode off and row ends."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import pathlib
from typing import Any

import numpy as np
import pytest
from linspace_xla_cases import LARGE, NUMS, ends, random_ends

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "linspace_xla.json").read_text())


def _same(got: Any, want: str, dtype: str) -> bool:
    """Whether ``got`` has the golden bits (NaN matches NaN of any payload when stored whole)."""
    g = np.ascontiguousarray(np.asarray(got, dtype))
    if want.startswith("sha256:"):
        g = np.ascontiguousarray(np.where(np.isnan(g), np.nan, g).astype(g.dtype))
        return hashlib.sha256(g.tobytes()).hexdigest() == want[7:]
    w = np.frombuffer(base64.b64decode(want), dtype)
    if g.size != w.size:
        return False
    g = g.reshape(-1)
    u = f"u{w.dtype.itemsize}"
    return bool(np.all((g.view(u) == w.view(u)) | (np.isnan(g) & np.isnan(w))))


def _subnormal(v: float, dtype: str) -> bool:
    """XLA:CPU flushes subnormal operands and results to zero, trellax keeps IEEE subnormals
    (docs/semantics.md, a departure): those ends are left out."""
    return v != 0 and abs(v) < np.finfo(dtype).tiny


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linspace_grid_has_jax_bits(dtype: str) -> None:
    """Every pair of ends but the subnormal ones: eager samples and step, and for a third of
    the cases ``jit`` with the ends as arguments and (where XLA folds every sample, fewer than
    176 float64 or 352 float32 intervals) as constants."""
    bad, compared = [], 0
    folds = {n: n - 1 < (352 if dtype == "float32" else 176) for n in NUMS}
    with trellax.enable_x64(True):
        cases = itertools.product(ends(dtype), ends(dtype), NUMS, (True, False))
        for k, (a, b, num, ep) in enumerate(cases):
            if _subnormal(a, dtype) or _subnormal(b, dtype):
                continue
            want = GOLDEN["grid"][f"{dtype} {a!r} {b!r} {num} {ep}"]
            x, y = tnp.asarray(a, dtype), tnp.asarray(b, dtype)
            v, s = tnp.linspace(x, y, num, endpoint=ep, retstep=True)
            got = {"eager": v, "step": s}
            if k % 3 == 0:
                f = trellax.jit(lambda p, q, n=num, e=ep: tnp.linspace(p, q, n, endpoint=e))
                got["jit"] = f(x, y)
                if folds[num]:
                    g = trellax.jit(lambda n=num, e=ep, p=x, q=y: tnp.linspace(p, q, n, endpoint=e))
                    got["jit_const"] = g()
            compared += 1
            bad += [(a, b, num, ep, how) for how in got if not _same(got[how], want[how], dtype)]
    assert compared >= 3000
    assert not bad, f"{len(bad)} differ from JAX: {bad[:8]}"


def test_linspace_large_sizes() -> None:
    bad = []
    with trellax.enable_x64(True):
        for k, (dt, num, ep) in enumerate(LARGE):
            for a, b in random_ends(dt, 3, k):
                got = tnp.linspace(tnp.asarray(a), tnp.asarray(b), num, endpoint=ep)
                if not _same(got, GOLDEN["large"][f"{dt} {a!r} {b!r} {num} {ep}"], dt):
                    bad.append((dt, num, ep, a, b))
    assert not bad, f"{len(bad)} differ from JAX: {bad}"


def test_linspace_python_float_ends_x64_off() -> None:
    bad = []
    with trellax.enable_x64(False):
        for a, b in random_ends("float64", 40, 99):
            for num in (7, 50, 400):
                got = tnp.linspace(float(a), float(b), num)
                if not _same(got, GOLDEN["weak"][f"{float(a)!r} {float(b)!r} {num}"], "float32"):
                    bad.append((a, b, num))
    assert not bad, f"{len(bad)} differ from JAX: {bad[:8]}"


def test_linspace_row_ends() -> None:
    bad = []
    with trellax.enable_x64(True):
        for dt in ("float32", "float64"):
            pairs = random_ends(dt, 6, 7)
            lo, hi = tnp.asarray(pairs[:3, 0]), tnp.asarray(pairs[3:, 1])
            for num in (5, 50, 400):
                for axis in (0, -1):
                    got = tnp.linspace(lo, hi, num, axis=axis)
                    if not _same(got, GOLDEN["rows"][f"{dt} {num} {axis}"], dt):
                        bad.append((dt, num, axis))
    assert not bad, f"{len(bad)} differ from JAX: {bad}"


def test_linspace_row_and_0d_ends() -> None:
    """A 0-d end beside a row of ends: XLA reassociates ``stop * t`` only for a 0-d ``stop``."""
    bad = []
    with trellax.enable_x64(True):
        for dt in ("float32", "float64"):
            pairs = random_ends(dt, 6, 7)
            lo, hi = pairs[:3, 0], pairs[3:, 1]
            for num in (5, 50, 400):
                for ep in (True, False):
                    got = {"start0d": tnp.linspace(lo[0], tnp.asarray(hi), num, ep, axis=0)}
                    if num < 400:  # a 0-d stop's vector loop (400 samples) is not followed
                        got["stop0d"] = tnp.linspace(tnp.asarray(lo), hi[0], num, ep, axis=-1)
                    for how, g in got.items():
                        if not _same(g, GOLDEN["rows"][f"{dt} {num} {ep} {how}"], dt):
                            bad.append((dt, num, ep, how))
    assert not bad, f"{len(bad)} differ from JAX: {bad}"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_logspace_has_jax_bits(dtype: str) -> None:
    """Eager ``logspace`` (exponents from its own loop's formula, the C library's ``pow``) on
    seeded and special ends, and under ``jit`` with the ends as arguments (the Python base a
    constant of the loop)."""
    bad, jit_bad, n = [], 0, 0
    with trellax.enable_x64(True):
        for key, want in GOLDEN["logspace"].items():
            dt, a, b, num, ep, base = key.split()
            if dt != dtype:
                continue
            args = (float(a), float(b), int(num), ep == "True", float(base))
            x, y = tnp.asarray(args[0], dt), tnp.asarray(args[1], dt)
            got = tnp.logspace(x, y, args[2], args[3], args[4])
            g = np.asarray(got)
            if np.any((g != 0) & (np.abs(g) < np.finfo(dt).tiny)):
                continue  # XLA flushes subnormal results to zero (docs/semantics.md, a departure)
            n += 1
            if not _same(got, want["eager"], dt):
                bad.append((key, "eager"))
            if "jit" in want:
                f = trellax.jit(lambda p, q, k=args: tnp.logspace(p, q, k[2], k[3], k[4]))
                jit_bad += not _same(f(x, y), want["jit"], dt)
    assert n >= 650
    assert not bad, f"{len(bad)} differ from JAX: {bad[:8]}"
    assert not jit_bad, f"{jit_bad} differ from JAX under jit"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_geomspace_has_jax_bits(dtype: str) -> None:
    bad, n = [], 0
    with trellax.enable_x64(True):
        for key, want in GOLDEN["geomspace"].items():
            dt, a, b, num, ep = key.split()
            if dt != dtype:
                continue
            got = tnp.geomspace(
                tnp.asarray(float(a), dt), tnp.asarray(float(b), dt), int(num), ep == "True"
            )
            n += 1
            if not _same(got, want, dt):
                bad.append((a, b, num, ep))
    assert n >= 200
    assert not bad, f"{len(bad)} differ from JAX: {bad[:8]}"


def test_vmap_and_grad_through_the_fused_forms() -> None:
    """The fused multiply-add and libm pow primitives batch like other elementwise primitives
    (an unbatched operand gets a leading 1) and carry tangents."""
    starts = tnp.arange(3.0)
    lin = trellax.vmap(lambda a: tnp.linspace(a, 2.0, 40))(starts)
    log = trellax.jit(trellax.vmap(lambda a: tnp.logspace(a, 2.0, 7)))(starts)
    for k in range(3):
        np.testing.assert_allclose(lin[k], tnp.linspace(float(k), 2.0, 40), rtol=1e-6)
        np.testing.assert_allclose(log[k], tnp.logspace(float(k), 2.0, 7), rtol=1e-6)
    grads = trellax.vmap(trellax.grad(lambda a: tnp.linspace(a, 2.0, 5).sum()))(starts)
    np.testing.assert_array_equal(grads, [2.5, 2.5, 2.5])


def test_logspace_derivatives_are_pows() -> None:
    """``libm_pow`` (the C library's pow inside ``logspace``) differentiates as ``pow``: first
    and second derivatives of a ``logspace`` sum in its start and stop, against the closed form
    in float64, eagerly and under ``jit``."""
    n, base = 7, 10.0
    t = np.arange(n) / (n - 1)

    def total(a: Any, b: Any) -> Any:
        return tnp.logspace(a, b, n, base=base).sum()

    a0, b0 = 0.3, 1.2
    y = base ** (a0 + (b0 - a0) * t)
    ln = np.log(base)
    want = {
        "da": (ln * y * (1 - t)).sum(),
        "db": (ln * y * t).sum(),
        "daa": (ln**2 * y * (1 - t) ** 2).sum(),
        "dab": (ln**2 * y * t * (1 - t)).sum(),
    }
    for wrap in (lambda f: f, trellax.jit):
        a, b = tnp.float32(a0), tnp.float32(b0)
        da, db = wrap(trellax.grad(total, argnums=(0, 1)))(a, b)
        daa = wrap(trellax.grad(trellax.grad(total, argnums=0), argnums=0))(a, b)
        dab = wrap(trellax.grad(trellax.grad(total, argnums=0), argnums=1))(a, b)
        for got, key in ((da, "da"), (db, "db"), (daa, "daa"), (dab, "dab")):
            np.testing.assert_allclose(float(got), want[key], rtol=2e-5)
