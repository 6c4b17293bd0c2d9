"""XLA's compound rewrites of divisions under ``jit`` (``a / exp(b)`` -> ``a * exp(-b)``,
``a / sqrt(b)`` -> ``a * rsqrt(b)``, ``(a / b) / c`` -> ``a / (b * c)``, ...), bit for bit against
JAX 0.10.2 (``tests/golden/div_compound.json`` from ``tools/gen_golden_div_compound.py``; the
forms are ``tests/div_compound_cases.py``'s; docs/semantics.md, "Compound divisions under jit")."""

from __future__ import annotations

import decimal
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from div_compound_cases import COMPLEX_FORMS, PARTS, REAL_FORMS
from golden_bits import bits_differ as _differ
from golden_bits import decode as _array

import trellax
from trellax._src.interpreters import xla_rewrites

GOLDEN = json.loads((Path(__file__).parent / "golden" / "div_compound.json").read_text("utf-8"))
RECORDS: list[dict[str, Any]] = GOLDEN["records"]


def _run(rec: dict[str, Any]) -> list[np.ndarray]:
    ops = {n: _array(b) for n, b in GOLDEN["operands"][rec["dtype"]].items()}
    names, fn = (COMPLEX_FORMS if rec["dtype"].startswith("complex") else REAL_FORMS)[rec["form"]]
    with trellax.enable_x64(True):
        got = fn(trellax, *(ops[n] for n in names))
    return [np.asarray(g) for g in (got if isinstance(got, tuple) else [got])]


def _record(dtype: str, form: str) -> dict[str, Any]:
    (rec,) = [r for r in RECORDS if r["dtype"] == dtype and r["form"] == form]
    return rec


def _id(rec: dict[str, Any]) -> str:
    return f"{rec['dtype']}-{rec['form']}"


#: bfloat16's exp and pow (float32's NumPy values rounded; no rule fires): differences that are
#: the function's, not the division's (the same counts before the rewrites existed)
KNOWN = {
    ("bfloat16", "exp(a)/exp(b)"): 13,
    ("bfloat16", "a/exp(b)"): 9,
    ("bfloat16", "a/exp(b), exp(b)"): 9,
    ("bfloat16", "a/pow(b,c)"): 1,
}
_REAL = [r for r in RECORDS if not r["dtype"].startswith("complex") and r["form"] not in
         {"exp(a-b)", "exp(-b)", "rsqrt(b)", "pow(b,-c)", "power(b,-2.5)"}]  # fmt: skip


@pytest.mark.parametrize("rec", _REAL, ids=[_id(r) for r in _REAL])
def test_compound_division_matches_jax_bits(rec: dict[str, Any]) -> None:
    """Every element where the rewritten form's transcendental part (``exp(-b)``, ``rsqrt(b)``,
    ``pow(b, -c)``) is JAX's is JAX's quotient, bit for bit; with no such part, every element."""
    dtype, form = rec["dtype"], rec["form"]
    got = _run(rec)
    assert len(got) == len(rec["out"])
    part = PARTS.get(form) if dtype != "bfloat16" else None
    if part is None:
        for g, w in zip(got, rec["out"], strict=True):
            assert int(np.sum(_differ(g, _array(w)))) <= KNOWN.get((dtype, form), 0)
        return
    part_rec = _record(dtype, part)
    want = _array(rec["out"][0])
    # where the part agrees and no result is subnormal (XLA:CPU flushes those to zero, trellax
    # keeps them: docs/semantics.md)
    agree = ~_differ(_run(part_rec)[0], _array(part_rec["out"][0]))
    agree &= ~(_subnormal(got[0]) | _subnormal(want))
    assert agree.mean() > 0.5, agree.mean()  # most of the elements are compared
    assert int(np.sum(_differ(got[0], want)[agree])) == 0


def _subnormal(a: np.ndarray) -> np.ndarray:
    if a.dtype == np.float16:
        return np.zeros(a.shape, bool)
    m = np.abs(a.astype(np.float64))
    return (m > 0) & (m < float(np.finfo(a.dtype).tiny))


def test_the_rewrites_move_bits() -> None:
    """The rewritten and the literal forms differ in a third or more of the golden's elements,
    and JAX's bits are the rewritten form's (float32 (a/b)/c: 659 of 2,000 differ)."""
    ops = {n: _array(b) for n, b in GOLDEN["operands"]["float32"].items()}
    a, b, c = ops["a"], ops["b"], ops["c"]
    want = _array(_record("float32", "(a/b)/c")["out"][0])
    with np.errstate(all="ignore"):
        assert int(np.sum(_differ((a / b) / c, want))) == 659
        assert int(np.sum(_differ(a / (b * c), want))) == 0
        want = _array(_record("float32", "a/(b/c)")["out"][0])
        assert int(np.sum(_differ(a / (b / c), want))) == 698
        assert int(np.sum(_differ((a * c) / b, want))) == 0
        want = _array(_record("float16", "a/rsqrt(b)")["out"][0])
        a16, b16 = (_array(GOLDEN["operands"]["float16"][n]) for n in "ab")
        assert int(np.sum(_differ(a16 * np.sqrt(b16), want))) == 0


def test_rules_fire_whatever_reads_the_intermediate() -> None:
    """``exp(b)`` read twice is computed twice, ``a / b`` kept as an output and rewritten away."""

    def f(a: Any, b: Any, c: Any) -> Any:
        return a / trellax.numpy.exp(b), trellax.numpy.exp(b), (a / b) / c, a / b

    x = np.ones(3, np.float32)
    jaxpr = xla_rewrites.reciprocal_divisions(trellax.make_jaxpr(f)(x, x, x).jaxpr)
    made = {id(v): e.primitive.name for e in jaxpr.eqns for v in e.outvars}
    divisors = [made.get(id(e.invars[1]), "input") for e in jaxpr.eqns if e.primitive.name == "div"]
    assert sorted(divisors) == ["input", "input", "mul"]  # a / b (twice) and a / (b * c)
    out = [made.get(id(v)) for v in jaxpr.outvars]
    assert out == ["mul", "exp", "div", "div"]  # a * exp(-b)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_rules(dtype: str) -> None:
    """Complex quotients get ``a / rsqrt(b)``, ``(a / b) / c`` and ``a / (b / c)`` too (and
    ``a / pow(b, c)``; not ``a / exp(b)``, whose complex exp XLA expands first). With the
    rules, XLA's complex division and XLA's complex product, ``(a / b) / c`` and ``a / (b / c)``
    give JAX's bits for every finite nonzero element (77-79 % with NumPy's product; before the
    rules 13-14 %); ``a / rsqrt(b)`` for 31-32 % (trellax's complex square root is NumPy's, and
    XLA's rsqrt an approximation), all within 2.5 ulps-of-magnitude."""
    eps = float(np.finfo(np.dtype(dtype)).eps)
    for form, share in (("a/rsqrt(b)", 0.3), ("(a/b)/c", 1.0), ("a/(b/c)", 1.0)):
        rec = _record(dtype, form)
        (got,), want = _run(rec), _array(rec["out"][0])
        ok = np.isfinite(want) & (want != 0)
        assert np.mean(got[ok] == want[ok]) >= share, form
        err = np.abs(got[ok] - want[ok]) / np.abs(want[ok])
        assert float(err.max()) <= 2.5 * eps, (form, float(err.max()) / eps)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_division_is_xlas(dtype: str) -> None:
    """Eagerly a complex division is XLA's compiled one (Smith's quotient with fused
    multiply-adds): JAX's bits at all 2,000 elements of ``a / (2 - 3j)`` (NumPy's: 742 and
    1,151), of ``a / b`` and of ``jit(a / c)`` (complex64 and complex128)."""
    for form in ("a/(2-3j) eager", "a/b eager", "jit(a/c)"):
        rec = _record(dtype, form)
        (got,), want = _run(rec), _array(rec["out"][0])
        assert int(np.sum(_differ(got, want))) == 0, form


def test_rsqrt_is_xla_approximation() -> None:
    """XLA:CPU's ``rsqrt`` (``rsqrt(b)`` of the golden, 2,000 elements): float16 is the float32
    ``1 / sqrt`` rounded once, at every element (trellax's too); float32 and float64 are a
    hardware approximation refined by Newton steps, the correctly rounded value for 1,629 and
    1,720 elements; trellax's ``1 / sqrt(x)`` in the dtype gives JAX's bits for 1,367 and 1,420."""
    decimal.getcontext().prec = 50
    counts = {}
    for dtype in ("float16", "float32", "float64"):
        b = _array(GOLDEN["operands"][dtype]["b"])
        want = _array(_record(dtype, "rsqrt(b)")["out"][0])
        exact = np.array([float(1 / decimal.Decimal(float(v)).sqrt()) for v in b])
        with trellax.enable_x64(True):
            mine = np.asarray(trellax.lax.rsqrt(trellax.numpy.asarray(b)))
        counts[dtype] = (int(np.sum(want == exact.astype(b.dtype))), int(np.sum(want == mine)))
    assert counts == {"float16": (2000, 2000), "float32": (1629, 1367), "float64": (1720, 1420)}


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_constant_divisor_under_jit(dtype: str) -> None:
    """Under ``jit`` a complex constant divisor (a literal, 2,000 closed-over divisors) is the
    product with the reciprocal XLA folds, rounded as XLA's compiled product: JAX's bits at
    every element (before: 342 and 748 of 2,000 in complex64, 704 and 797 in complex128)."""
    for form in ("jit(a/(2-3j))", "jit(a/d), d closed over"):
        rec = _record(dtype, form)
        (got,), want = _run(rec), _array(rec["out"][0])
        assert int(np.sum(_differ(got, want))) == 0, form


def test_jvp_rules_of_the_complex_rewrite_primitives() -> None:
    """The primitives the jit pass writes for a complex constant divisor differentiate as the
    reciprocal and the product they stand for."""
    y = trellax.numpy.asarray(np.array([2 - 3j, -0.5 + 1j], np.complex64))
    x = trellax.numpy.asarray(np.array([1 + 1j, 3 - 2j], np.complex64))
    t = trellax.numpy.asarray(np.array([0.5 - 1j, 2 + 0.25j], np.complex64))
    _, dr = trellax.jvp(lambda v: xla_rewrites.complex_reciprocal_p.bind(v), (y,), (t,))
    np.testing.assert_allclose(np.asarray(dr), np.asarray(-t / (y * y)), rtol=1e-6)
    _, dp = trellax.jvp(lambda a, b: xla_rewrites.complex_product_p.bind(a, b), (x, y), (t, t))
    np.testing.assert_allclose(np.asarray(dp), np.asarray(t * y + x * t), rtol=1e-6)
