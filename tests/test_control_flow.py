"""Structured control flow (issue 7): ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan``,
``map`` -- dtypes against golden data from JAX, values against plain Python/NumPy loops.

The golden file ``tests/golden/control_flow.json`` is written by ``tools/gen_golden_control.py``
(its docstring describes the layout). Each case is a Python expression over ``lax``/``xnp`` and
the arguments ``a0, a1, ...``; here it is evaluated with ``trellax.lax``/``trellax.numpy``,
eagerly and under ``trellax.jit`` (every argument a jit argument), under the case's x64 setting,
and compared with JAX's result: the dtype, weak flag and shape of every output leaf and of the
loop index a ``fori_loop`` body saw, or the exception class.

JAX's rules these cases pin down (all observed in JAX 0.10.2):

* ``cond``/``switch``: branch outputs must agree in shape and dtype (weak flags may differ) and
  the result has *branch 0's* types, weak flags included (``false_fun``'s for ``cond``).
* loops: a carry's dtype must be stable; a weakly typed initial value the body changes is
  promoted to a strong value of the joined dtype and the body traced again; the final carry has
  the body's output weak flags (``scan(lambda c, x: (c + x, c), 0, i32s)``: strong carry).
* ``fori_loop``: with concrete bounds the index is a weak default int whatever the bounds'
  dtypes; with traced bounds it has the bounds' dtype; unequal bound dtypes raise, except a
  Python int next to a signed int array.

Cases where trellax deliberately differs are in ``DELIBERATE`` with the reason; they are checked
against trellax's own behaviour instead.
"""

from __future__ import annotations

import ast
import collections
import json
import math
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp
from trellax._src.core import errors
from trellax.tree_util import tree_leaves, tree_map, tree_structure

GOLDEN_PATH = Path(__file__).resolve().parent / "golden" / "control_flow.json"
GOLDEN: dict[str, Any] | None = (
    json.loads(GOLDEN_PATH.read_text(encoding="utf-8")) if GOLDEN_PATH.exists() else None
)
CASES: list[dict[str, Any]] = [] if GOLDEN is None else GOLDEN["cases"]

#: (call, args) -> why trellax's error class differs from JAX's (asserted: trellax's class).
DELIBERATE: dict[tuple[str, tuple[str, ...]], tuple[str, str]] = {
    # (empty: a scan over a 0-d leaf of xs now raises JAX's IndexError, with a message of ours)
}

needs_golden = pytest.mark.skipif(
    GOLDEN is None, reason=f"{GOLDEN_PATH} not generated (run tools/gen_golden_control.py)"
)


# -- running a golden case in trellax ------------------------------------------------------------


def to_dtype(name: str) -> np.dtype[Any]:
    scalar_type: Any = getattr(ml_dtypes, name, None) if name != "bool" else None
    return np.dtype(scalar_type if scalar_type is not None else name)


def decode(spec: str) -> Any:
    """The trellax value of a SPEC string (see the generator's docstring), under the active
    config."""
    kind, _, rest = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "arr":
        name, _, value = rest.partition(":")
        return tnp.asarray(ast.literal_eval(value) if value else 0, to_dtype(name))
    if kind.startswith("arr"):
        return tnp.zeros((int(kind[3:]),), to_dtype(rest))
    if kind == "weak":
        return tnp.asarray(ast.literal_eval(rest))
    if kind.startswith("weak"):
        return tnp.full((int(kind[4:]),), ast.literal_eval(rest))
    if kind == "np":
        name, _, value = rest.partition(":")
        return to_dtype(name).type(ast.literal_eval(value))
    raise ValueError(f"unknown spec {spec!r}")


def _type_of(x: Any) -> dict[str, Any]:
    return {"dtype": np.dtype(x.dtype).name, "weak_type": bool(x.weak_type)}


def run_case(call: str, args: list[str], jit: bool) -> dict[str, Any]:
    """The case's result in trellax, in the golden file's format."""
    seen: list[dict[str, Any]] = []

    def record(i: Any) -> Any:
        seen.append(_type_of(i))
        return i

    ns = {
        "lax": lax,
        "xnp": tnp,
        "np": np,
        "f16": tnp.ones((), "float16"),
        "f32": tnp.ones((), "float32"),
        "i8": tnp.ones((), "int8"),
        "w": tnp.asarray(2.0),
        "seen": record,
    }
    fn = eval(f"lambda {', '.join(f'a{k}' for k in range(len(args)))}: {call}", ns)
    values = [decode(s) for s in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = trellax.jit(fn)(*values) if jit else fn(*values)
        outputs = [{**_type_of(x), "shape": list(np.shape(x))} for x in tree_leaves(out)]
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    return {"outputs": outputs, "seen": seen[-1] if seen else None}


def _case_id(case: dict[str, Any]) -> str:
    return f"{'x64' if case['x64'] else 'x32'}:{case['call']}:{','.join(case['args'])}"


def _describe(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"{result['error']}: {result['message'][:300]}"
    outs = [f"{'~' if o['weak_type'] else ''}{o['dtype']}{o['shape']}" for o in result["outputs"]]
    seen = result["seen"]
    index = f" (index {'~' if seen['weak_type'] else ''}{seen['dtype']})" if seen else ""
    return f"{outs}{index}"


def _check(case: dict[str, Any], mode: str) -> None:
    with trellax.enable_x64(case["x64"]):
        got = run_case(case["call"], case["args"], jit=mode == "jit")
    want = case[mode]
    deliberate = DELIBERATE.get((case["call"], tuple(case["args"])))
    if deliberate is not None:
        assert got.get("error") == deliberate[0], _describe(got)
        return
    if "error" in want or "error" in got:
        assert got.get("error") == want.get("error"), (
            f"{mode}: JAX {_describe(want)}\ntrellax {_describe(got)}"
        )
    else:
        assert got == want, f"{mode}: JAX {_describe(want)}\ntrellax {_describe(got)}"


@needs_golden
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_golden_eager(case: dict[str, Any]) -> None:
    _check(case, "eager")


@needs_golden
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_golden_jit(case: dict[str, Any]) -> None:
    _check(case, "jit")


@needs_golden
def test_golden_covers_the_issue() -> None:
    """Every function, both x64 settings, each carry kind and errors as well as results."""
    by_fn = collections.Counter(c["fn"] for c in CASES)
    assert set(by_fn) == {"cond", "switch", "while_loop", "fori_loop", "scan", "map"}
    assert {c["x64"] for c in CASES} == {False, True}
    carries = {c["args"][0] for c in CASES}
    for spec in ("arr:int8", "arr:bfloat16", "py:0", "py:0.0", "py:True", "weak:0", "weak:0.0"):
        assert spec in carries
    assert any("error" in c["eager"] for c in CASES)
    assert any(c["eager"].get("seen") for c in CASES)


# -- numbers against plain Python / NumPy loops ------------------------------------------------

BOTH = pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])


def maybe_jit(f: Callable[..., Any], jit: bool) -> Callable[..., Any]:
    return trellax.jit(f) if jit else f


@BOTH
def test_newton_sqrt_while_loop(jit: bool) -> None:
    def newton(a: Any) -> Any:
        def cond(s: tuple[Any, Any, Any]) -> Any:
            x, prev, n = s
            return (tnp.abs(x - prev) > 1e-6) & (n < 50)

        def body(s: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
            x, _, n = s
            return (x + a / x) / 2, x, n + 1

        x, _, n = lax.while_loop(cond, body, (a, a + 1.0, 0))
        return x, n

    def reference(a: float) -> tuple[float, int]:
        x, prev, n = np.float32(a), np.float32(a + 1.0), 0
        while abs(x - prev) > 1e-6 and n < 50:
            x, prev, n = (x + np.float32(a) / x) / np.float32(2), x, n + 1
        return float(x), n

    f = maybe_jit(newton, jit)
    for a in (2.0, 9.0, 1e4, 0.25):
        x, n = f(tnp.asarray(a, "float32"))
        assert x.dtype == np.float32 and not x.weak_type
        assert n.dtype == np.int32 and n.weak_type
        want_x, want_n = reference(a)
        assert float(x) == want_x and int(n) == want_n
        assert math.isclose(float(x), math.sqrt(a), rel_tol=1e-6)


@BOTH
def test_running_mean_scan(jit: bool) -> None:
    def running_mean(xs: Any) -> Any:
        def step(c: tuple[Any, Any], x: Any) -> tuple[tuple[Any, Any], Any]:
            n, total = c
            n, total = n + 1, total + x
            return (n, total), total / n

        (n, total), means = lax.scan(step, (0, tnp.zeros((), xs.dtype)), xs)
        return n, total, means

    xs_np = np.random.default_rng(0).standard_normal(50).astype(np.float32)
    n, total, means = maybe_jit(running_mean, jit)(tnp.asarray(xs_np))
    want, acc = [], np.float32(0)
    for k, x in enumerate(xs_np, 1):
        acc = acc + x
        want.append(acc / np.float32(k))
    assert int(n) == 50 and means.shape == (50,) and means.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(means), np.array(want, np.float32))
    assert float(total) == float(acc)


@BOTH
def test_piecewise_switch(jit: bool) -> None:
    branches = [lambda x: -x, lambda x: x * x, lambda x: 2.0 * x - 1.0, lambda x: tnp.sqrt(x)]

    def piecewise(x: Any) -> Any:
        index = (x >= 0).astype("int32") + (x >= 1).astype("int32") + (x >= 4).astype("int32")
        return lax.switch(index, branches, x)

    def reference(x: float) -> float:
        if x < 0:
            return -x
        if x < 1:
            return x * x
        if x < 4:
            return 2.0 * x - 1.0
        return math.sqrt(x)

    f = maybe_jit(piecewise, jit)
    for x in (-3.0, -0.5, 0.0, 0.5, 1.0, 2.5, 4.0, 16.0):
        got = f(tnp.asarray(x, "float32"))
        assert got.dtype == np.float32
        assert math.isclose(float(got), reference(x), rel_tol=1e-6)


@BOTH
def test_switch_clamps_the_index(jit: bool) -> None:
    f = maybe_jit(lambda i: lax.switch(i, [lambda: 10, lambda: 20, lambda: 30]), jit)
    assert [int(f(i)) for i in (-5, 0, 1, 2, 3, 99)] == [10, 10, 20, 30, 30, 30]


@BOTH
def test_fori_loop_sums(jit: bool) -> None:
    def sums(n: Any, x: Any) -> Any:
        squares = lax.fori_loop(0, n, lambda i, acc: acc + i * i, 0)
        weighted = lax.fori_loop(1, 6, lambda i, acc: acc + i * x, tnp.zeros_like(x))
        return squares, weighted

    x = tnp.arange(4, dtype="float32")
    squares, weighted = maybe_jit(sums, jit)(10, x)
    assert int(squares) == sum(i * i for i in range(10))
    np.testing.assert_array_equal(np.asarray(weighted), 15 * np.arange(4, dtype=np.float32))


@BOTH
def test_fori_loop_empty_and_unroll(jit: bool) -> None:
    def f(x: Any) -> Any:
        empty = lax.fori_loop(5, 2, lambda i, c: c + 1, x)
        unrolled = lax.fori_loop(0, 7, lambda i, c: c * 2, x, unroll=3)
        return empty, unrolled

    empty, unrolled = maybe_jit(f, jit)(tnp.asarray(1, "int16"))
    assert int(empty) == 1 and empty.dtype == np.int16
    assert int(unrolled) == 128 and unrolled.dtype == np.int16


def test_fori_loop_traced_bounds_and_unroll() -> None:
    f = trellax.jit(lambda lo, hi: lax.fori_loop(lo, hi, lambda i, c: c + i, 0))
    assert int(f(2, 6)) == 2 + 3 + 4 + 5
    with pytest.raises(ValueError, match="statically known"):
        trellax.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c, 0, unroll=2))(3)


@BOTH
def test_map_matches_python(jit: bool) -> None:
    xs = tnp.asarray(np.arange(12, dtype=np.float32).reshape(4, 3))
    ys = maybe_jit(lambda xs: lax.map(lambda r: (r.sum(), r * 2.0), xs), jit)(xs)
    np.testing.assert_array_equal(np.asarray(ys[0]), np.arange(12).reshape(4, 3).sum(1))
    np.testing.assert_array_equal(np.asarray(ys[1]), 2 * np.arange(12).reshape(4, 3))
    assert ys[0].shape == (4,) and ys[1].shape == (4, 3)


@BOTH
def test_scan_reverse_length_and_empty(jit: bool) -> None:
    def f(xs: Any) -> Any:
        _, rev = lax.scan(lambda c, x: (c + x, c + x), 0, xs, reverse=True)
        count, steps = lax.scan(lambda c, _: (c + 1, c), 0, None, length=4)
        _, empty = lax.scan(lambda c, x: (c, x * 2), 0.0, xs[:0])
        return rev, count, steps, empty

    rev, count, steps, empty = maybe_jit(f, jit)(tnp.arange(1, 5))
    np.testing.assert_array_equal(np.asarray(rev), [10, 9, 7, 4])
    assert int(count) == 4
    np.testing.assert_array_equal(np.asarray(steps), [0, 1, 2, 3])
    assert empty.shape == (0,)


@BOTH
def test_while_loop_zero_iterations(jit: bool) -> None:
    out = maybe_jit(lambda x: lax.while_loop(lambda c: c < 0, lambda c: c + 1.5, x), jit)(1)
    # The weak int carry is promoted to the body's float32 before the loop runs (JAX).
    assert float(out) == 1.0 and out.dtype == np.float32 and not out.weak_type


@BOTH
def test_cond_runs_one_branch_value(jit: bool) -> None:
    f = maybe_jit(lambda p, x: lax.cond(p, lambda v: v * 2, lambda v: v - 1, x), jit)
    assert int(f(True, 5)) == 10 and int(f(False, 5)) == 4
    assert int(f(tnp.asarray(3), 5)) == 10 and int(f(0.0, 5)) == 4


# -- pytrees -------------------------------------------------------------------------------------


@BOTH
def test_pytrees_in_cond_and_switch(jit: bool) -> None:
    def f(p: Any, ops: dict[str, Any]) -> Any:
        def yes(d: dict[str, Any]) -> Any:
            return {"sum": d["a"] + d["b"][0], "pair": (d["b"][1], [d["a"]])}

        def no(d: dict[str, Any]) -> Any:
            return {"sum": d["a"] - d["b"][0], "pair": (d["b"][1] * 0, [d["a"] * 0])}

        return lax.cond(p, yes, no, ops), lax.switch(p.astype("int32"), [no, yes], ops)

    ops = {"a": tnp.asarray(3.0), "b": (tnp.asarray(1.0), tnp.arange(3))}
    out_c, out_s = maybe_jit(f, jit)(tnp.asarray(True), ops)
    for out in (out_c, out_s):
        assert tree_structure(out) == tree_structure({"sum": 0, "pair": (0, [0])})
        assert float(out["sum"]) == 4.0
        np.testing.assert_array_equal(np.asarray(out["pair"][0]), [0, 1, 2])


@BOTH
def test_pytree_carries(jit: bool) -> None:
    def f(x: Any) -> Any:
        w = lax.while_loop(
            lambda s: s["n"] < 3,
            lambda s: {"n": s["n"] + 1, "v": (s["v"][0] * 2,)},
            {"n": 0, "v": (x,)},
        )
        fl = lax.fori_loop(0, 3, lambda i, c: [c[0] + i, {"x": c[1]["x"] + x}], [0, {"x": x}])
        (c, ys) = lax.scan(
            lambda c, xy: ((c[0] + xy["a"], c[1]), {"out": xy["a"] * xy["b"]}),
            (0.0, x),
            {"a": tnp.arange(3.0), "b": tnp.ones(3)},
        )
        return w, fl, c, ys

    w, fl, c, ys = maybe_jit(f, jit)(tnp.asarray(1.5, "float32"))
    assert int(w["n"]) == 3 and float(w["v"][0]) == 12.0
    assert int(fl[0]) == 3 and float(fl[1]["x"]) == 6.0
    assert float(c[0]) == 3.0 and float(c[1]) == 1.5
    np.testing.assert_array_equal(np.asarray(ys["out"]), [0.0, 1.0, 2.0])


# -- closures and nesting ------------------------------------------------------------------------


def test_closures_over_outer_jit_arguments() -> None:
    @trellax.jit
    def f(x: Any, y: Any, n: Any) -> Any:
        c = lax.cond(x > 0, lambda: x * y, lambda: y - x)
        w = lax.while_loop(lambda v: v < n * y, lambda v: v + y, x)
        fl = lax.fori_loop(0, 4, lambda i, acc: acc + y * i, x)
        s, ys = lax.scan(lambda carry, t: (carry + t * y, carry), x, tnp.arange(3.0))
        m = lax.map(lambda t: t + y + x, tnp.arange(2.0))
        return c, w, fl, s, ys, m

    c, w, fl, s, ys, m = f(tnp.asarray(2.0), tnp.asarray(3.0), tnp.asarray(4.0))
    assert float(c) == 6.0 and float(w) == 14.0 and float(fl) == 2.0 + 3.0 * 6
    assert float(s) == 2.0 + 3.0 * 3
    np.testing.assert_array_equal(np.asarray(ys), [2.0, 2.0, 5.0])
    np.testing.assert_array_equal(np.asarray(m), [5.0, 6.0])
    c2, *_ = f(tnp.asarray(-1.0), tnp.asarray(3.0), tnp.asarray(4.0))
    assert float(c2) == 4.0
    assert f.trace_count == 1


def test_closure_over_concrete_array_eagerly() -> None:
    table = tnp.asarray([1.0, 10.0, 100.0])
    out = lax.fori_loop(0, 3, lambda i, acc: acc + table[i], 0.0)
    assert float(out) == 111.0 and out.dtype == np.float32


@BOTH
def test_nested_cond_in_scan_in_jit(jit: bool) -> None:
    def f(xs: Any, threshold: Any) -> Any:
        def step(c: Any, x: Any) -> tuple[Any, Any]:
            y = lax.cond(x > threshold, lambda: x * 10, lambda: -x)
            inner = lax.fori_loop(0, 2, lambda i, a: a + lax.cond(i == 0, lambda: 1, lambda: 2), 0)
            return c + y, (y, inner)

        return lax.scan(step, tnp.zeros((), xs.dtype), xs)

    xs = tnp.asarray([1.0, 5.0, 2.0, 7.0], "float32")
    total, (ys, inner) = maybe_jit(f, jit)(xs, 3.0)
    want = [-1.0, 50.0, -2.0, 70.0]
    np.testing.assert_array_equal(np.asarray(ys), want)
    assert float(total) == sum(want)
    np.testing.assert_array_equal(np.asarray(inner), [3, 3, 3, 3])


def test_nested_loops_under_jit() -> None:
    @trellax.jit
    def matmul_loops(a: Any, b: Any) -> Any:
        n, k = a.shape
        m = b.shape[1]

        def row(i: Any, out: Any) -> Any:
            def col(j: Any, out: Any) -> Any:
                dot = lax.fori_loop(0, k, lambda t, acc: acc + a[i, t] * b[t, j], 0.0)
                return out.at[i, j].set(dot)

            return lax.fori_loop(0, m, col, out)

        return lax.fori_loop(0, n, row, tnp.zeros((n, m), "float32"))

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(matmul_loops(tnp.asarray(a), tnp.asarray(b))), a @ b)


# -- errors that teach ---------------------------------------------------------------------------


def test_python_if_on_tracer_points_to_cond() -> None:
    def f(x: Any) -> Any:
        if x > 0:
            return x
        return -x

    with pytest.raises(errors.TracerBoolConversionError, match=r"lax\.cond"):
        trellax.jit(f)(1.0)


def test_python_range_on_tracer_points_to_fori_loop() -> None:
    def f(n: Any) -> Any:
        total = 0
        for i in range(n):
            total += i
        return total

    with pytest.raises(errors.TracerIntegerConversionError, match=r"lax\.fori_loop"):
        trellax.jit(f)(3)


def test_branch_mismatch_names_both_outputs() -> None:
    with pytest.raises(TypeError) as info:
        lax.cond(True, lambda: {"a": tnp.float16(1)}, lambda: {"a": tnp.float32(1)})
    msg = str(info.value)
    assert "true_fun" in msg and "false_fun" in msg and "output['a']" in msg
    assert "float16[]" in msg and "float32[]" in msg and "dtypes do not match" in msg
    with pytest.raises(TypeError, match=r"branches\[0\].*branches\[1\]"):
        lax.switch(0, [lambda: 1.0, lambda: tnp.zeros(2)])
    with pytest.raises(TypeError, match="structure"):
        lax.cond(True, lambda: (1.0, 2.0), lambda: 1.0)


def test_carry_dtype_change_names_the_leaf_and_the_cast() -> None:
    with pytest.raises(TypeError) as info:
        lax.fori_loop(
            0, 3, lambda i, c: {"a": c["a"] + 1.5, "b": c["b"]}, {"a": tnp.int8(0), "b": 1}
        )
    msg = str(info.value)
    assert "init_val['a']" in msg and "i8[]" in msg and "f32[]" in msg
    assert "init_val['a'].astype('float32')" in msg
    with pytest.raises(TypeError, match=r"init\[1\].*f16\[\].*f32\[\].*astype\('float32'\)"):
        lax.scan(lambda c, x: ((c[0], c[1] + x), None), (0, tnp.float16(0)), tnp.zeros(3))
    with pytest.raises(TypeError, match=r"init_val.*i32\[\].*f32\[\]"):
        trellax.jit(lambda x: lax.while_loop(lambda c: c < 3, lambda c: c * 1.5, x))(tnp.int32(1))
    with pytest.raises(TypeError, match="shapes do not match"):
        lax.while_loop(lambda c: c.sum() < 3, lambda c: tnp.concatenate([c, c]), tnp.ones(1))


def test_wrong_cond_fun_output() -> None:
    with pytest.raises(TypeError, match=r"cond_fun must return a boolean scalar.*i32\[\]"):
        lax.while_loop(lambda c: c, lambda c: c - 1, 3)
    with pytest.raises(TypeError, match=r"boolean scalar.*bool\[2\]"):
        lax.while_loop(lambda c: c < tnp.ones(2), lambda c: c - 1, 3.0)


def test_scan_length_mismatch() -> None:
    with pytest.raises(ValueError, match="different leading axis sizes: 3, 4"):
        lax.scan(lambda c, x: (c, x), 0, (tnp.zeros(3), tnp.zeros(4)))
    with pytest.raises(ValueError, match=r"`length` argument of 5 .* \[3\]"):
        lax.scan(lambda c, x: (c, x), 0, tnp.zeros(3), length=5)
    with pytest.raises(ValueError, match="no values to scan over"):
        lax.scan(lambda c, x: (c, x), 0, None)
    with pytest.raises(TypeError, match="pair"):
        lax.scan(lambda c, x: c, 0, tnp.zeros(3))


def test_bad_predicates_and_indices() -> None:
    with pytest.raises(TypeError, match="Pred must be a scalar"):
        lax.cond(tnp.zeros(2, bool), lambda: 1, lambda: 2)
    with pytest.raises(TypeError, match="Index type must be an integer"):
        lax.switch(True, [lambda: 1, lambda: 2])
    with pytest.raises(TypeError, match="lower and upper arguments to fori_loop"):
        lax.fori_loop(tnp.int8(0), tnp.int32(3), lambda i, c: c, 0)


# -- jaxprs ----------------------------------------------------------------------------------------


def test_jaxpr_shows_sub_jaxprs() -> None:
    def f(p: Any, x: Any) -> Any:
        y = lax.cond(p, lambda v: v * 2.0, lambda v: v + 1.0, x)
        return lax.while_loop(lambda v: v < 10.0, lambda v: v * 3.0, y)

    text = str(trellax.make_jaxpr(f)(True, tnp.asarray(1.0, "float32")))
    assert "cond[" in text and "branches=(" in text
    assert "while[" in text and "body_jaxpr=" in text and "cond_jaxpr=" in text
    assert text.count("{ lambda") == 5  # outer, two branches, cond_fun, body_fun
    assert "mul" in text and "add" in text and "lt" in text

    scanned = str(
        trellax.make_jaxpr(lambda xs: lax.scan(lambda c, x: (c + x, c), 0.0, xs))(
            tnp.zeros(3, "float32")
        )
    )
    assert "scan[" in scanned and "length=3" in scanned and scanned.count("{ lambda") == 2


def test_cond_output_weak_flag_is_false_funs() -> None:
    f32 = tnp.zeros((), "float32")
    assert lax.cond(True, lambda: f32, lambda: 1.0).weak_type
    assert not lax.cond(True, lambda: 1.0, lambda: f32).weak_type
    assert not lax.switch(1, [lambda: f32, lambda: 1.0]).weak_type


def test_tree_map_of_outputs_is_array() -> None:
    out = lax.map(lambda x: {"a": x, "b": (x, x)}, tnp.arange(3))
    assert all(isinstance(v, trellax.Array) for v in tree_leaves(tree_map(lambda v: v, out)))


# -- the compiled loop ------------------------------------------------------------------------------


def test_jitted_loops_are_generated_inline() -> None:
    """A jitted scan/while/cond is written into the compiled program (a Python loop over the
    body's NumPy calls), not run as a sub-program call per iteration."""
    from trellax._src.interpreters import tracing

    def f(xs: Any, p: Any) -> Any:
        c, ys = lax.scan(lambda c, x: (c * 0.5 + lax.cond(p, lambda: x, lambda: -x), c), 0.0, xs)
        return lax.while_loop(lambda v: v < 100.0, lambda v: v * 2.0 + 1.0, c), ys

    xs = tnp.arange(5.0, dtype="float32")
    source = tracing.compile_jaxpr(trellax.jit(f).lower(xs, True).jaxpr).__doc__
    assert source is not None
    assert "for t" in source and "while True:" in source and "if i" in source
    assert "# scan" not in source and "# while" not in source and "# cond" not in source
    out, ys = trellax.jit(f)(xs, True)
    want_c, want_ys = 0.0, []
    for x in np.arange(5.0, dtype=np.float32):
        want_ys.append(want_c)
        want_c = np.float32(want_c * 0.5 + x)
    np.testing.assert_allclose(np.asarray(ys), want_ys)
    v = want_c
    while v < 100.0:
        v = v * 2.0 + 1.0
    assert float(out) == pytest.approx(v) and out.dtype == np.float32 and out.shape == ()


def test_deep_nesting_falls_back_to_impl_calls() -> None:
    def nest(depth: int) -> Callable[[Any, Any], Any]:
        if depth == 0:
            return lambda i, c: c + 1
        return lambda i, c: lax.fori_loop(0, 2, nest(depth - 1), c)

    assert int(trellax.jit(lambda x: lax.fori_loop(0, 2, nest(14), x))(0)) == 2**15


def test_jitted_code_warns_no_more_than_eager() -> None:
    """JAX does not warn about floating-point events; trellax silences NumPy's errors locally
    (no warnings filter), eagerly, in the generated code and in the loops inside it."""
    x = tnp.asarray(3e38, "float32")
    big = tnp.asarray(2**30, "int32")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert math.isinf(float(trellax.jit(lambda x: x * x)(x)))
        loop = trellax.jit(lambda v: lax.fori_loop(0, 3, lambda i, c: c * 1000, v))
        assert int(loop(big)) == int(lax.fori_loop(0, 3, lambda i, c: c * 1000, big))
        floop = trellax.jit(lambda v: lax.fori_loop(0, 3, lambda i, c: c * c, v))
        assert math.isinf(float(floop(x)))
    assert [str(w.message) for w in caught] == []
