"""Golden results of JAX 0.10.2 for the indexing and operator behaviours fixed on branch
``jt-values`` (found by JAX's own ``lax_numpy_indexing_test``/``lax_numpy_operators_test``).

Records, on a fixed ``int32`` array of shape (2, 3, 4, 5): ``x[idx]`` and ``x.at[idx].set(u)``
for indices holding 0-d booleans (alone, several, next to index arrays), ``x[m]`` and
``x.at[m].set(5)`` for empty boolean masks whose shape does not match the array's, scatters of
Python ints outside int32 into unsigned operands, and which operand answers ``array * obj`` for a
``NamedTuple`` with its own operators; ``scipy.special.betainc`` with infinite parameters and
``comb`` on a grid with and without repetition. ``tests/test_jt_values.py`` compares trellax with them.

    python tools/gen_golden_jt_values.py      # needs jax==0.10.2
"""

from __future__ import annotations

import functools
import json
import pathlib
import sys
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import jax.scipy.special as jsp
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from jt_values_cases import base, build_index

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jt_values.json"

# each index as a list of items: "T"/"F" a Python bool, "aT"/"aF" a 0-d NumPy bool array,
# "..." Ellipsis, ":" a full slice, ":2" a slice, an int, or a list of ints (an index array)
SCALAR_BOOL_INDICES: list[list[Any]] = [
    ["F"],
    ["...", "F"],
    [0, ":2", "F"],
    [":2", 0, "F"],
    [":2", [0, 2], "T"],
    [[1, 0], ":", "T"],
    ["T", ":", "T", ":", "aT"],
    ["T", "T"],
    ["T", "F", "...", "T"],
    [[1], "F"],
    ["aF", ":", [1]],
]

EMPTY_MASKS: list[tuple[list[int], list[int]]] = [
    ([3], [0]),
    ([3, 4], [0]),
    ([3, 4], [0, 4]),
    ([3, 4], [3, 0]),
    ([3, 4, 5], [3, 0]),
]

# (dtype, value, method): Python ints outside int32 that the operand's dtype holds
UNSIGNED_SCATTERS: list[tuple[str, int, str]] = [
    ("uint32", 2**32 - 1, "set"),
    ("uint32", 2**32 - 1, "add"),
    ("uint32", 2**32 - 1, "max"),
    ("uint32", 2**31, "min"),
    ("uint8", 255, "set"),
    ("int8", 1000, "set"),
]


BETAINC_PARAMS = [float("inf"), 0.0, 1e-7, 1.0, 2.0, -0.5, float("nan")]
BETAINC_X = [0.0, 0.25, 0.5, 1.0, 1.5]
COMB_N = [-2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0]
COMB_K = [-1.0, 0.0, 0.5, 1.0, 2.0]


# (lhs batch dim, rhs batch dim, feature groups, batch groups, lhs shape, rhs shape)
EMPTY_BATCH_CONVS: list[tuple[Any, Any, int, int, list[int], list[int]]] = [
    (None, 0, 1, 1, [2, 3, 6, 7], [4, 3, 1, 2]),
    (0, None, 1, 1, [2, 3, 6, 7], [4, 3, 1, 2]),
    (0, 0, 1, 1, [2, 3, 6, 7], [4, 3, 1, 2]),
    (None, 0, 2, 1, [2, 6, 6, 7], [4, 3, 1, 2]),
    (0, None, 1, 2, [4, 3, 6, 7], [4, 3, 1, 2]),
]


def special_values() -> dict[str, Any]:
    a, b, x = (
        np.asarray(v, dtype=np.float32).ravel()
        for v in np.meshgrid(BETAINC_PARAMS, BETAINC_PARAMS, BETAINC_X, indexing="ij")
    )
    n, k = (
        np.asarray(v, dtype=np.float32).ravel() for v in np.meshgrid(COMB_N, COMB_K, indexing="ij")
    )

    # NaN written as None (JSON)
    def listed(v: Any) -> list[Any]:
        return [None if np.isnan(e) else float(e) for e in np.asarray(v, dtype=np.float64)]

    with jax.debug_infs(True):  # an infinite initial value is no infinite result
        lse = float(jsp.logsumexp(np.ones(4, dtype=np.float32)))
        top = float(jnp.max(jnp.arange(3.0), initial=-np.inf))
    conj = {
        name: [str(r.dtype), bool(r.weak_type)]
        for name, r in [
            ("python_float", jax.lax.conj(1.0)),
            ("float32", jax.lax.conj(np.float32(1.0))),
            ("python_complex", jax.lax.conj(1j)),
            ("weak_float_array", jax.lax.conj(jnp.asarray(2.0) * 1.0)),
        ]
    }
    src = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    with jax.numpy_rank_promotion("raise"):
        taken = jax.lax.index_take(src, (np.array([0, 1, -1]), np.array([2, 0, 5])), (0, 2))
    empty_conv = []
    for lb, rb, fg, bg, lshape, rshape in EMPTY_BATCH_CONVS:
        conv = functools.partial(
            jax.lax.conv_general_dilated,
            window_strides=(1, 1),
            padding=((1, 0), (0, 1)),
            feature_group_count=fg,
            batch_group_count=bg,
        )
        lhs = np.zeros(((0,) if lb is not None else ()) + tuple(lshape), np.float32)
        rhs = np.zeros(((0,) if rb is not None else ()) + tuple(rshape), np.float32)
        empty_conv.append(list(jax.vmap(conv, (lb, rb))(lhs, rhs).shape))
    return {
        "vmap_conv_empty_batch": empty_conv,
        "index_take_rank_raise": np.asarray(taken).ravel().tolist(),
        "lax_conj": conj,
        "logsumexp_debug_infs": lse,
        "max_initial_debug_infs": top,
        "betainc": listed(jsp.betainc(a, b, x)),
        "comb": listed(jsp.comb(n, k)),
        "comb_repetition": listed(jsp.comb(n, k, repetition=True)),
    }


def empty_frompyfunc() -> list[dict[str, Any]]:
    """``frompyfunc`` methods over empty operands (the function is never called)."""
    add = jnp.frompyfunc(lambda a, b: a + b, 2, 1, identity=0)
    cases: list[dict[str, Any]] = []
    for shape, axis in [((0,), 0), ((0, 3), 1), ((0, 3), 0), ((3, 0), 1)]:
        x = jnp.zeros(shape, "float32")
        for method in ("accumulate", "reduce", "reduceat"):
            if method == "reduceat":
                if shape[axis] == 0:
                    continue
                r = add.reduceat(x, jnp.array([0, 1]), axis=axis)
            else:
                r = getattr(add, method)(x, axis=axis)
            cases.append(
                {
                    "shape": list(shape),
                    "axis": axis,
                    "method": method,
                    "out_shape": list(r.shape),
                    "out_dtype": str(r.dtype),
                    "value": np.asarray(r).ravel().tolist(),
                }
            )
    return cases


def numpy_cases() -> dict[str, Any]:
    """``convolve``/``correlate`` with ``preferred_element_type``, ``interp`` with ``period`` and
    ``left``/``right``, ``view`` to and from bool, ``roll`` by a NumPy shift, ``size`` with a
    repeated axis."""
    conv = []
    for dt in ("uint16", "int32", "int8", "float16", "float32", "complex64"):
        for op in ("convolve", "correlate"):
            for mode in ("full", "same", "valid"):
                x = (np.arange(1, 6) % 3).astype(dt)
                y = (np.arange(2, 5) % 2).astype(dt)
                r = getattr(jnp, op)(x, y, mode=mode, preferred_element_type=dt)
                value = np.asarray(r)
                if value.dtype.kind == "c":
                    value = np.stack([value.real, value.imag], -1)
                conv.append(
                    {
                        "dtype": dt,
                        "op": op,
                        "mode": mode,
                        "out_dtype": str(r.dtype),
                        "value": value.astype(np.float64).ravel().tolist(),
                    }
                )
    xp = np.array([0.1, 0.25, 0.4, 0.55], np.float32)
    fp = np.array([1.0, 3.0, -2.0, 0.5], np.float32)
    xs = np.array([-2.0, 0.0, 0.3, 0.58, 1.2, 7.0], np.float32)
    interp = np.asarray(jnp.interp(xs, xp, fp, period=0.59, left=5.0, right=1.0)).tolist()
    views = {
        "bool_as_int8": np.asarray(jnp.asarray(np.array([True, False])).view(np.int8)).tolist(),
        "bool_as_int16": np.asarray(
            jnp.asarray(np.array([True, False, True, True])).view(np.int16)
        ).tolist(),
        "uint8_as_bool": np.asarray(
            jnp.asarray(np.array([1, 0, 2, 255], np.uint8)).view(bool)
        ).tolist(),
    }
    rolled = np.asarray(jnp.roll(jnp.arange(12).reshape(3, 4), np.array([-2]), axis=(-2,)))
    rolled2 = np.asarray(jnp.roll(jnp.arange(6).reshape(2, 3), np.array([1, 1]), axis=(0, 1)))
    try:
        jnp.size(jnp.zeros((2, 3, 4)), (0, -3))
        size_error = None
    except ValueError as e:
        size_error = str(e)
    import warnings

    sequence_warnings = {}
    for fn in (jnp.ndim, jnp.shape, jnp.size):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = fn([1, 2, 3])
        sequence_warnings[fn.__name__] = {
            "value": list(value) if isinstance(value, tuple) else value,
            "category": caught[0].category.__name__,
            "starts": str(caught[0].message).split(",")[0],
        }
    lex = jnp.lexsort((np.float32(1.0), np.float32(2.0)))
    return {
        "sequence_warnings": sequence_warnings,
        "lexsort_scalars": [int(lex), str(lex.dtype), list(lex.shape)],
        "convolve": conv,
        "interp_period": {"x": xs.tolist(), "xp": xp.tolist(), "fp": fp.tolist(), "value": interp},
        "view": views,
        "roll": [rolled.ravel().tolist(), rolled2.ravel().tolist()],
        "size_repeated_axis_error": size_error,
    }


def main() -> None:
    x = base()
    scalar_bools = []
    for items in SCALAR_BOOL_INDICES:
        idx = build_index(items)
        got = np.asarray(jnp.asarray(x)[idx])
        jitted = np.asarray(jax.jit(lambda a, idx=idx: a[idx])(x))
        assert np.array_equal(got, jitted)
        upd = np.arange(1, 1 + got.size, dtype=np.int32).reshape(got.shape) + 1000
        set_full = np.asarray(jnp.asarray(x).at[idx].set(upd))
        set_scalar = np.asarray(jnp.asarray(x).at[idx].set(np.int32(-7)))
        scalar_bools.append(
            {
                "index": items,
                "shape": list(got.shape),
                "value": got.ravel().tolist(),
                "set_full": set_full.ravel().tolist(),
                "set_scalar": set_scalar.ravel().tolist(),
            }
        )
    empty = []
    for xs, ms in EMPTY_MASKS:
        a = np.arange(int(np.prod(xs)), dtype=np.int32).reshape(xs)
        m = np.zeros(ms, dtype=bool)
        got = np.asarray(jnp.asarray(a)[jnp.asarray(m)])
        updated = np.asarray(jnp.asarray(a).at[m].set(5))
        empty.append(
            {
                "x_shape": xs,
                "m_shape": ms,
                "shape": list(got.shape),
                "set": updated.ravel().tolist(),
            }
        )
    scatters = []
    for dt, v, method in UNSIGNED_SCATTERS:
        a = jnp.zeros(2, dtype=dt)
        r = getattr(a.at[0], method)(v)
        scatters.append(
            {
                "dtype": dt,
                "value": v,
                "method": method,
                "result": np.asarray(r).tolist(),
                "result_dtype": str(r.dtype),
            }
        )

    class Wrapped(NamedTuple):
        arr: Any

        def __mul__(self, other: Any) -> Any:
            return Wrapped(self.arr * other)

        def __rmul__(self, other: Any) -> Any:
            return Wrapped(other * self.arr)

    w, b = Wrapped(jnp.ones(4)), jnp.ones(4)
    defer = {
        "array_times_namedtuple": type(b * w).__name__,
        "namedtuple_times_array": type(w * b).__name__,
        "jit_array_times_namedtuple": type(jax.jit(lambda p, q: p * q)(b, w)).__name__,
    }
    OUT.write_text(
        json.dumps(
            {
                "jax_version": jax.__version__,
                "scalar_bool_indices": scalar_bools,
                "empty_masks": empty,
                "special": special_values(),
                "numpy": numpy_cases(),
                "empty_frompyfunc": empty_frompyfunc(),
                "unsigned_scatters": scatters,
                "namedtuple_defer": defer,
            },
            indent=1,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
