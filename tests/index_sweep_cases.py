"""The indexing, sorting, cumulative and casting probe (issue 24, part 2), replayed against JAX
0.10.2 (``tests/golden/index_sweep.json``, written by ``tools/gen_golden_index_sweep.py``).

Each base case is a function written as a lambda over arrays (its static arguments, indices that
are not data, modes and dtypes are part of its text) and the inputs it is applied to. Every base
case is run four ways: eagerly, under ``jit``, under ``vmap`` (each input stacked with its own
reverse, so batched indices differ between the two rows) and, for the differentiable ones, the
gradient of the sum of the result with respect to the first input. An outcome is the shape, dtype,
weak flag and exact values of every result leaf, or the error's class
(``edge_sweep_cases.describe``).

The inputs hold the values the functions are sensitive to: NaN, -0.0, +-inf, out-of-range
floats for integer casts, negative, out-of-bounds and duplicate indices, integers that overflow.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from edge_sweep_cases import describe

#: the inputs, evaluated with ``jnp`` bound
INPUTS = {
    "x": "jnp.array([1.5, -2.0, 3.25, 0.5, -4.0], jnp.float32)",
    "m": "jnp.arange(12, dtype=jnp.float32).reshape(3, 4) - 5.5",
    "xi": "jnp.array([10, -3, 7, 0, 2], jnp.int32)",
    "xi8": "jnp.array([100, -100, 127, -128, 5], jnp.int8)",
    "xu8": "jnp.array([200, 0, 255, 1, 100], jnp.uint8)",
    "xb": "jnp.array([True, False, True, False, False])",
    "xs": "jnp.array([nan, -0.0, 0.0, inf, -inf, 1.0, nan, -1.0, 0.0, -0.0], jnp.float32)",
    "xh": "jnp.array([nan, -0.0, 0.0, inf, -inf, 1.0, nan, -1.0], jnp.float16)",
    "xc": "jnp.array([1 + 1j, nan + 0j, 1 - 1j, -0.0 + 0j, 0j, 1j * nan, 1 + 0j], jnp.complex64)",
    "xn": "jnp.array([1.0, nan, 2.0, -1.0, inf, 3.0], jnp.float32)",
    "xz": "jnp.array([2.0, 0.0, 3.0, -0.0, 4.0], jnp.float32)",
    "xt": "jnp.array([1.0, 3.0, 3.0, 2.0, 3.0], jnp.float32)",
    "xcast": "jnp.array([nan, inf, -inf, 3e9, -3e9, 1e10, 300.0, -300.0, -1.5, 2.7, -0.0,"
    " 2147483520.0, -2147483648.0, 65535.5, 255.9], jnp.float32)",
    "ucast": "jnp.array([0, 1, 2**31, 2**32 - 1, 2**24 + 1], jnp.uint32)",
    "icast": "jnp.array([-(2**31), 2**31 - 1, 2**24 + 1, -1, 65536, 32768], jnp.int32)",
    "i3": "jnp.array([0, -1, 9], jnp.int32)",
    "idup": "jnp.array([1, 1, 3, 1], jnp.int32)",
    "ioob": "jnp.array([2, -1, 5, -6, 100, -100], jnp.int32)",
    "srt": "jnp.array([-inf, -1.0, -0.0, 0.0, 1.0, 1.0, inf, nan], jnp.float32)",
    "sv": "jnp.array([nan, -0.0, 0.0, 1.0, -inf, inf, 0.5, -2.0], jnp.float32)",
    "ta": "jnp.array([[0, 3, 1, -1], [4, -5, 2, 9], [1, 1, 1, 1]], jnp.int32)",
    "st": "jnp.array(-2, jnp.int32)",
}

AT_INDICES = (
    "2", "-1", "7", "-9", "1:3", "::2", "-7:2", "...", "None", "jnp.array([0, 0, 2])",
    "jnp.array([1, -1, 9, -9])", "jnp.array([[0, 4], [-5, 5]])", "jnp.array(-6)",
    "(jnp.array([0, 2]), ...)", "(None, 3)", "(..., None)",
)  # fmt: skip
AT_MODES = ("", ", mode='clip'", ", mode='drop'", ", mode='fill'", ", mode='promise_in_bounds'")

#: (function, inputs, differentiable)
Case = tuple[str, str, bool]


def _at_cases() -> list[Case]:
    out: list[Case] = []
    for idx in AT_INDICES:
        for mode in AT_MODES:
            out.append((f"lambda a: a.at[{idx}].get({mode[2:]})", "x", True))
            out.append((f"lambda a: a.at[{idx}].set(9.0{mode})", "x", True))
        for op in ("add", "mul", "min", "max"):
            out.append((f"lambda a: a.at[{idx}].{op}(-2.5)", "x", True))
    for mode in AT_MODES:
        for op in ("set", "add", "mul", "min", "max"):
            out.append((f"lambda a, i: a.at[i].{op}(-2.5{mode})", "x, ioob", True))
            out.append((f"lambda a, i: a.at[i].{op}(-2.5{mode})", "x, idup", True))
        out.append((f"lambda a, i: a.at[i].get({mode[2:]})", "x, ioob", True))
        out.append((f"lambda a, i: a.at[i].get({mode[2:]})", "xi, ioob", False))
        out.append((f"lambda a, i: a.at[i].get({mode[2:]})", "xu8, ioob", False))
        out.append((f"lambda a, i: a.at[i].get({mode[2:]})", "xb, ioob", False))
        out.append((f"lambda a, i: a.at[i].set(7{mode})", "xi8, ioob", False))
    out += [
        ("lambda a, i: a.at[i].add(-2.5, unique_indices=True)", "x, idup", True),
        ("lambda a, i: a.at[i].set(-2.5, indices_are_sorted=True)", "x, ioob", True),
        ("lambda a, i: a.at[i].get(indices_are_sorted=True, unique_indices=True)", "x, ioob", True),
        ("lambda a: a.at[jnp.array([3, 1, 1])].get(mode='fill', fill_value=-1.0)", "x", True),
        ("lambda a: a.at[jnp.array([3, 7])].get(mode='fill', fill_value=nan)", "xi", False),
        ("lambda a: a.at[jnp.array([True, False, True, False, True])].set(0.0)", "x", True),
        ("lambda a: a.at[jnp.array([True, False, True, False, True])].get()", "x", True),
        ("lambda a: a.at[jnp.array(True)].set(0.0)", "x", True),
        ("lambda a: a.at[0].add(100)", "xi8", False),
        ("lambda a: a.at[0].mul(3)", "xu8", False),
        ("lambda a: a.at[1:3].set(jnp.array([5.0, 6.0]))", "x", True),
        ("lambda a: a.at[1:3].set(jnp.array([5.0, 6.0, 7.0]))", "x", True),
        ("lambda a: a.at[0].set(jnp.array([5.0]))", "x", True),
        ("lambda a: a.at[0].set(2.7)", "xi", False),
        ("lambda a: a.at[0].add(2.7)", "xi", False),
        ("lambda a: a.at[1].set(True)", "xb", False),
        ("lambda a: a.at[1].add(True)", "xb", False),
        ("lambda a: a.at[1].max(True)", "xb", False),
        ("lambda a: a.at[1, -5].set(0.0)", "m", True),
        ("lambda a: a.at[-4, 1].get(mode='fill')", "m", True),
        (
            "lambda a: a.at[:, jnp.array([0, 3, 4, -5])].get(mode='fill', fill_value=-1.0)",
            "m",
            True,
        ),
        ("lambda a: a.at[jnp.array([0, 2, 2]), jnp.array([1, 1, 1])].add(1.0)", "m", True),
        ("lambda a: a.at[jnp.array([0, 2]), 1:].mul(2.0)", "m", True),
        ("lambda a: a.at[..., -1].min(-100.0)", "m", True),
        ("lambda a: a.at[None, 1, None, 2].set(7.0)", "m", True),
        ("lambda a: a.at[1, jnp.array([True, False, True, True])].set(0.0)", "m", True),
        ("lambda a: a.at[jnp.array([[True], [False], [True]]).squeeze(1)].get()", "m", True),
        ("lambda a: a.at[jnp.array([1, 0]), :, None].get()", "m", True),
        ("lambda a, t: a.at[t].set(5.0)", "x, st", True),
        ("lambda a, t: a.at[t].get(mode='fill')", "x, st", True),
        ("lambda a, t: a.at[t].get(mode='clip')", "m, st", True),
    ]
    return out


def _take_cases() -> list[Case]:
    out: list[Case] = []
    for mode in (
        "",
        ", mode='clip'",
        ", mode='wrap'",
        ", mode='fill'",
        ", mode='promise_in_bounds'",
    ):
        out.append((f"lambda a, i: jnp.take(a, i{mode})", "x, ioob", True))
        out.append((f"lambda a, i: jnp.take(a, i{mode})", "xi, ioob", False))
        out.append((f"lambda a, i: jnp.take(a, i, axis=1{mode})", "m, ioob", True))
        out.append((f"lambda a, i: jnp.take(a, i, axis=None{mode})", "m, ioob", True))
        out.append((f"lambda a, i: jnp.take_along_axis(a, i, axis=1{mode})", "m, ta", True))
        out.append((f"lambda a, i: jnp.take_along_axis(a, i, axis=0{mode})", "m, ta", True))
        out.append((f"lambda a, i: jnp.take_along_axis(a, i, axis=None{mode})", "x, ioob", True))
    out += [
        ("lambda a, i: jnp.take(a, i, mode='fill', fill_value=7.5)", "x, ioob", True),
        (
            "lambda a, i: jnp.take(a, i, unique_indices=True, indices_are_sorted=True)",
            "x, i3",
            True,
        ),
        ("lambda a, i: jnp.take(a, i, axis=-1)", "m, i3", True),
        ("lambda a, i: jnp.take(a, i, axis=2)", "m, i3", True),
        ("lambda a, i: jnp.take_along_axis(a, i, axis=-1, fill_value=-9.0)", "m, ta", True),
        ("lambda a, i: jnp.take_along_axis(a, i[:, :2], axis=1)", "m, ta", True),
        ("lambda a, i: jnp.take(a, i.astype(jnp.uint8))", "x, i3", True),
        ("lambda a: jnp.take(a, 7)", "x", True),
        ("lambda a: jnp.take(a, -7, mode='wrap')", "x", True),
    ]
    for mode in ("", ", mode='clip'", ", mode='wrap'"):
        out.append((f"lambda a, i: jnp.put(a, i, -1.0, inplace=False{mode})", "x, ioob", True))
        out.append(
            (f"lambda a, i: jnp.put(a, i, jnp.arange(4.0), inplace=False{mode})", "x, idup", True)
        )
    out.append(("lambda a, i: jnp.put(a, i, -1.0)", "x, i3", True))
    return out


def _dynamic_cases() -> list[Case]:
    out: list[Case] = []
    for s in ("0", "-2", "-5", "-6", "-100", "3", "4", "100", "jnp.int8(-1)", "jnp.uint32(4)"):
        out += [
            (f"lambda a: lax.dynamic_slice(a, ({s},), (3,))", "x", True),
            (f"lambda a: lax.dynamic_update_slice(a, jnp.array([7.0, 8.0]), ({s},))", "x", True),
            (f"lambda a: lax.dynamic_index_in_dim(a, {s}, keepdims=False)", "x", True),
            (f"lambda a: lax.dynamic_index_in_dim(a, {s}, axis=1)", "m", True),
            (f"lambda a: lax.dynamic_slice_in_dim(a, {s}, 2)", "x", True),
            (f"lambda a: lax.dynamic_update_index_in_dim(a, -1.0, {s}, 0)", "x", True),
            (f"lambda a: lax.dynamic_slice(a, ({s}, {s}), (2, 2))", "m", True),
            (f"lambda a: lax.dynamic_update_slice(a, jnp.ones((2, 3)), (1, {s}))", "m", True),
        ]
    out += [
        ("lambda a, t: lax.dynamic_slice(a, (t,), (2,))", "x, st", True),
        ("lambda a, t: lax.dynamic_update_slice(a, jnp.array([7.0, 8.0]), (t,))", "x, st", True),
        ("lambda a, t: lax.dynamic_index_in_dim(a, t, keepdims=False)", "x, st", True),
        ("lambda a, t: lax.dynamic_slice(a, (t, t), (2, 2))", "m, st", True),
        ("lambda a, t: lax.dynamic_update_slice(a, jnp.ones((2, 2)), (t, t))", "m, st", True),
        (
            "lambda a, t: lax.dynamic_slice(a, (t,), (2,), allow_negative_indices=False)",
            "x, st",
            True,
        ),
        ("lambda a: lax.dynamic_slice(a, (1,), (6,))", "x", True),
        ("lambda a: lax.dynamic_update_slice(a, jnp.ones(6), (0,))", "x", True),
        ("lambda a: lax.dynamic_slice(a, (1.0,), (2,))", "x", True),
        ("lambda a: lax.dynamic_slice(a, (1,), (-1,))", "x", True),
        ("lambda a: lax.dynamic_update_slice(a, jnp.ones(2, jnp.int32), (0,))", "x", True),
        ("lambda a: lax.dynamic_slice(a, (1, 1), (2, 2))", "x", True),
    ]
    return out


def _sort_cases() -> list[Case]:
    out: list[Case] = []
    for a in ("xs", "xh", "srt", "xi8", "xb", "xc"):
        diff = a in ("xs", "xh", "srt")
        for kw in ("", ", stable=False", ", descending=True", ", stable=True, descending=True"):
            out.append((f"lambda a: jnp.sort(a{kw})", a, diff))
            out.append((f"lambda a: jnp.argsort(a{kw})", a, False))
        out.append(("lambda a: jnp.unique(a)", a, False))
        out.append(
            ("lambda a: jnp.unique(a, return_index=True, return_inverse=True, return_counts=True)",
             a, False)
        )  # fmt: skip
        out.append(("lambda a: jnp.unique(a, equal_nan=False)", a, False))
        out.append(("lambda a: jnp.unique(a, size=12, fill_value=7)", a, False))
        out.append(("lambda a: lax.sort(a)", a, diff))
        out.append(("lambda a: jnp.lexsort((a, jnp.flip(a)))", a, False))
        out.append(("lambda a: jnp.partition(a, 3)", a, diff))
        out.append(("lambda a: jnp.argpartition(a, 3)", a, False))
    out += [
        ("lambda a: jnp.sort(a, axis=None)", "m", True),
        ("lambda a: jnp.sort(a, axis=0, descending=True)", "m", True),
        ("lambda a: jnp.argsort(a, axis=0)", "m", False),
        ("lambda a: jnp.lexsort(a)", "m", False),
        ("lambda a: jnp.lexsort(a, axis=0)", "m", False),
        ("lambda a: lax.sort((a, jnp.arange(a.shape[0])), num_keys=1)", "xs", False),
        ("lambda a: lax.sort((a, -a), num_keys=2, is_stable=True)", "xs", True),
        ("lambda a: lax.sort_key_val(a, jnp.arange(a.shape[0], dtype=jnp.float32))", "xs", True),
        ("lambda a: lax.top_k(a, 4)", "xs", True),
        ("lambda a: lax.top_k(a, 4)", "xi8", False),
        ("lambda a: jnp.unique_values(a)", "xs", False),
        ("lambda a: jnp.unique_counts(a)", "xs", False),
        ("lambda a: jnp.unique_inverse(a)", "xs", False),
        ("lambda a: jnp.unique_all(a)", "xs", False),
        ("lambda a: jnp.unique(a, axis=0)", "m", False),
        ("lambda a: jnp.unique(jnp.stack([a, a]), axis=1)", "xs", False),
        ("lambda a: jnp.nanargmax(a)", "xs", False),
        ("lambda a: jnp.argmax(a)", "xs", False),
        ("lambda a: jnp.argmin(a)", "xs", False),
        ("lambda a: jnp.argmax(a)", "xc", False),
        ("lambda a: jnp.max(a)", "xs", True),
        ("lambda a: jnp.min(a)", "xh", True),
        ("lambda a: jnp.median(a)", "xn", True),
        ("lambda a: jnp.nanmedian(a)", "xn", True),
        ("lambda a: jnp.quantile(a, 0.3)", "xs", True),
        ("lambda a: jnp.percentile(a, 50.0, method='nearest')", "x", True),
    ]
    for side in ("left", "right"):
        for method in ("scan", "scan_unrolled", "sort", "compare_all"):
            out.append(
                (f"lambda a, v: jnp.searchsorted(a, v, side='{side}', method='{method}')",
                 "srt, sv", False)
            )  # fmt: skip
        out.append((f"lambda a: jnp.searchsorted(a, 0.0, side='{side}')", "srt", False))
        out.append((f"lambda a, v: jnp.searchsorted(a, v, side='{side}')", "xi, xi8", False))
    out.append(("lambda a, v: jnp.searchsorted(a, v, sorter=jnp.argsort(a))", "xs, sv", False))
    out.append(("lambda v: jnp.digitize(v, jnp.array([-1.0, 0.0, 1.0]))", "sv", False))
    out.append(("lambda v: jnp.digitize(v, jnp.array([1.0, 0.0, -1.0]), right=True)", "sv", False))
    return out


def _cumulative_cases() -> list[Case]:
    out: list[Case] = []
    for a in ("xn", "xz", "xt", "xi8", "xu8", "xb", "xs", "xc", "xh"):
        diff = a in ("xn", "xz", "xt", "xs", "xh", "xc")
        for f in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                  "cumulative_prod"):  # fmt: skip
            out.append((f"lambda a: jnp.{f}(a)", a, diff))
        out.append(("lambda a: jnp.cumulative_sum(a, include_initial=True)", a, diff))
        out.append(("lambda a: jnp.cumsum(a, dtype=jnp.int8)", a, False))
        for f in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"):
            out.append((f"lambda a: lax.{f}(a)", a, diff))
            out.append((f"lambda a: lax.{f}(a, reverse=True)", a, diff))
        out.append(("lambda a: jnp.maximum.accumulate(a)", a, diff))
        out.append(("lambda a: jnp.minimum.accumulate(a)", a, diff))
        out.append(("lambda a: jnp.add.accumulate(a)", a, diff))
    out += [
        ("lambda a: jnp.cumsum(a, axis=1)", "m", True),
        ("lambda a: jnp.cumprod(a, axis=0)", "m", True),
        ("lambda a: jnp.cumsum(a)", "m", True),
        ("lambda a: lax.cumsum(a, axis=1, reverse=True)", "m", True),
        ("lambda a: jnp.cumsum(a, axis=2)", "m", True),
        ("lambda a: lax.cummax(a, axis=-1)", "m", True),
        ("lambda a: jnp.diff(a)", "xn", True),
        ("lambda a: jnp.diff(a)", "xu8", False),
        ("lambda a: jnp.ediff1d(a, to_begin=-1)", "xi8", False),
    ]
    return out


def _cast_cases() -> list[Case]:
    out: list[Case] = []
    targets = ("jnp.int32", "jnp.int8", "jnp.int16", "jnp.uint8", "jnp.uint16", "jnp.uint32",
               "jnp.int4", "jnp.bool_", "jnp.float16", "jnp.bfloat16", "jnp.float8_e4m3fn",
               "jnp.complex64")  # fmt: skip
    for src in ("xcast", "xh", "ucast", "icast", "xc"):
        for t in targets:
            diff = src in ("xcast", "xh") and t in ("jnp.float16", "jnp.bfloat16", "jnp.int32")
            out.append((f"lambda a: a.astype({t})", src, diff))
            out.append((f"lambda a: lax.convert_element_type(a, {t})", src, diff))
    out += [
        ("lambda a: jnp.astype(a, jnp.int32)", "xcast", True),
        ("lambda a: jnp.asarray(a, dtype=jnp.uint8)", "xcast", True),
        ("lambda a: jnp.array(a, dtype=jnp.int16)", "xcast", True),
        ("lambda a: jnp.round(a).astype(jnp.int32)", "xcast", True),
        ("lambda a: jnp.trunc(a).astype(jnp.int8)", "xcast", True),
        ("lambda a: lax.bitcast_convert_type(a, jnp.int32)", "xcast", False),
        ("lambda a: a.view(jnp.uint16)", "xh", False),
        ("lambda a: jnp.floor_divide(a, 0)", "xi8", False),
        ("lambda a: a // -1", "xi8", False),
        ("lambda a: a % -3", "xi8", False),
        ("lambda a: jnp.abs(a)", "xi8", False),
        ("lambda a: -a", "xu8", False),
        ("lambda a: jnp.int8(a)", "xcast", False),
        ("lambda a: jnp.uint32(a)", "xcast", False),
        ("lambda a: a.astype(int)", "xcast", True),
        ("lambda a: a.astype(float)", "icast", False),
    ]
    return out


def base_cases() -> list[Case]:
    """Every base case: ``(function source, inputs, differentiable)``."""
    return _at_cases() + _take_cases() + _dynamic_cases() + _sort_cases() + _cumulative_cases()


def all_cases() -> list[Case]:
    return base_cases() + _cast_cases()


MODES = ("eager", "jit", "vmap", "grad")


def expressions() -> list[str]:
    """The expressions recorded: each base case eagerly, under ``jit``, under ``vmap`` and (where
    differentiable) its gradient."""
    out: list[str] = []
    for fn, args, diff in all_cases():
        out.append(f"({fn})({args})")
        out.append(f"jax.jit({fn})({args})")
        out.append(f"jax.vmap({fn})(*V({args}))")
        if diff:
            out.append(f"jax.grad(lambda *z: jnp.sum(({fn})(*z)))({args})")
    return out


def environment(top: ModuleType) -> dict[str, Any]:
    """The names the expressions use: ``top`` is ``jax`` or ``trellax``."""
    jnp = top.numpy
    env: dict[str, Any] = {"jax": top, "jnp": jnp, "lax": top.lax}
    env.update(nan=float("nan"), inf=float("inf"))

    def stacked(*arrays: Any) -> list[Any]:
        return [jnp.stack([a, jnp.flip(a)]) for a in arrays]

    env["V"] = stacked
    for tag, expr in INPUTS.items():
        env[tag] = eval(expr, env)
    return env


def outcome(env: dict[str, Any], expr: str) -> str:
    """The recorded outcome of ``expr`` (values, dtypes, weak flags, or the error's class)."""
    return describe(env, expr)
