"""Programs behind the keyword fuzzer's value, dtype, shape and weak-flag fixes
(``tests/test_kw_values.py``; JAX's outcomes from ``tools/gen_golden_kw_values.py``).

:func:`cases` maps a name to a function of the library module (``jax`` or ``trellax``) that runs
one call; :func:`encode` turns its outcome into JSON (dtype, weak flag, shape and bits of each
array, or the exception's class). Each family of cases sweeps the keyword's rule over special
values (NaN, infinities, -0.0, dtype extremes), empty and 0-d inputs, eagerly and under ``jit``.
The same names run in 32- and 64-bit mode (``MODES``).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

MODES = ("x32", "x64")
INF, NAN = float("inf"), float("nan")
Case = Callable[[Any], Any]


def _np(jx: Any) -> Any:
    return importlib.import_module(f"{jx.__name__}.numpy")


#: how :func:`_arr` behaves: ``"eager"``; ``"record"`` (collect the arrays a case makes);
#: ``"feed"`` (hand out the traced arguments of ``"args"`` in order)
_STATE: dict[str, Any] = {"mode": "eager", "args": []}


def _arr(jx: Any, value: Any) -> Any:
    """An array argument of a case: under :func:`_both`'s ``jit`` a traced argument (as the
    keyword fuzzer passes its inputs), so that XLA's constant folding does not see it."""
    if _STATE["mode"] == "feed":
        return _STATE["args"].pop(0)
    a = _np(jx).asarray(value)
    if _STATE["mode"] == "record":
        _STATE["args"].append(a)
    return a


def _both(out: dict[str, Case], name: str, f: Case) -> None:
    """``f`` eagerly and under ``jit``, its :func:`_arr` arrays traced arguments (Python
    scalars and shapes stay constants)."""
    out[f"{name}/eager"] = f

    def jitted(jx: Any) -> Any:
        _STATE.update(mode="record", args=[])
        # an eager pass collects the arrays in the order the case makes them (an error is the
        # jitted call's to raise)
        with contextlib.suppress(Exception):
            f(jx)
        recorded = _STATE["args"]
        _STATE.update(mode="eager", args=[])

        def body(*args: Any) -> Any:
            _STATE.update(mode="feed", args=list(args))
            try:
                return f(jx)
            finally:
                _STATE.update(mode="eager", args=[])

        return jx.jit(body)(*recorded)

    out[f"{name}/jit"] = jitted


def _freq_cases(out: dict[str, Case]) -> None:
    # integer and bool dtypes (the rule fixed), float16/float32 as the reference path
    dts = ("int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "bool", "float16",
           "float32")  # fmt: skip
    ds: tuple[Any, ...] = (1.0, 0.3, 0.1, -0.5, 1e10, INF, NAN)
    for fn in ("fftfreq", "rfftfreq"):
        for dt in dts:
            for n in (0, 1, 5, 8, 300):
                for d in ds:
                    _both(
                        out,
                        f"{fn}/{dt}/n={n}/d={d}",
                        lambda jx, fn=fn, n=n, d=d, dt=dt: getattr(_np(jx).fft, fn)(n, d, dtype=dt),
                    )
            for d_arr in (2.5, 2, True, -1.5):
                out[f"{fn}/{dt}/n=7/d=array({d_arr})"] = lambda jx, fn=fn, d=d_arr, dt=dt: getattr(
                    _np(jx).fft, fn
                )(7, _arr(jx, d), dtype=dt)  # fmt: skip


def _reduce_initial_cases(out: dict[str, Case]) -> None:
    """A reduction over nothing returns ``initial`` itself (XLA's reduction starts from it)."""
    inits: dict[str, tuple[Any, ...]] = {
        "float32": (NAN, -0.0, INF, 2.5),
        "complex64": (NAN, -0.0, INF, complex(NAN, 0), complex(0, NAN), complex(INF, 1), 2.5),
        "int32": (7, -3),
    }
    for fn in ("sum", "prod", "nansum", "nanprod", "max", "min"):
        for dt, values in inits.items():
            if dt == "complex64" and fn in ("max", "min"):
                continue
            for init in values:
                for shape, axis in (((0,), None), ((2, 0), 1), ((0, 3), 0), ((2,), 0)):
                    if fn == "sum" and dt == "float32" and init == -0.0 and shape[axis or 0] == 0:
                        # eagerly -0.0; under jit JAX's compiled sum adds -0.0 to the empty
                        # sum's +0.0 (+0.0), a difference JAX's two paths have
                        out[f"reduce_initial/{fn}/{dt}/{shape}/{axis}/{init}/eager"] = (
                            lambda jx, shape=shape, axis=axis: _np(jx).sum(
                                _arr(jx, np.full(shape, 1.5, "float32")), axis=axis, initial=-0.0
                            )
                        )
                        continue
                    _both(
                        out,
                        f"reduce_initial/{fn}/{dt}/{shape}/{axis}/{init}",
                        lambda jx, fn=fn, dt=dt, init=init, shape=shape, axis=axis: getattr(
                            _np(jx), fn
                        )(_arr(jx, np.full(shape, 1.5, dt)), axis=axis, initial=init),
                    )


_INT_DTS = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "float16")


def _int_vector(jx: Any, dt: str) -> Any:
    vals = [0, 1, 3, 100, 127, 255] if dt != "bool" else [0, 1, 1, 0, 1, 1]
    return _arr(jx, np.array(vals).astype(dt))


def _polyint_cases(out: dict[str, Case]) -> None:
    """``polyint``'s coefficients take the inexact join of ``p`` and ``k``."""
    ks: dict[str, Any] = {"None": None, "1": 1, "1.5": 1.5, "i8": "int8", "f32": "float32"}
    for dt in (*_INT_DTS, "float32"):
        for kname, k in ks.items():
            for m in (0, 1, 2):

                def f(jx: Any, dt: str = dt, k: Any = k, m: int = m) -> Any:
                    kk = _arr(jx, np.ones(1, k)) if isinstance(k, str) else k
                    return _np(jx).polyint(_int_vector(jx, dt), m=m, k=kk)

                _both(out, f"polyint/{dt}/k={kname}/m={m}", f)


def _nn_cases(out: dict[str, Case]) -> None:
    """``gelu``/``logmeanexp`` of integers compute in JAX's inexact type (float32 for up to 32
    bits); a masked ``softmax`` of integers in the default float."""
    for dt in _INT_DTS:
        for name, f in (
            ("gelu", lambda jx, dt: _nn(jx).gelu(_int_vector(jx, dt))),
            ("gelu_exact", lambda jx, dt: _nn(jx).gelu(_int_vector(jx, dt), approximate=False)),
            ("logmeanexp", lambda jx, dt: _nn(jx).logmeanexp(_int_vector(jx, dt))),
            (
                "logmeanexp_where",
                lambda jx, dt: _nn(jx).logmeanexp(
                    _int_vector(jx, dt), where=_arr(jx, np.array([1, 1, 0, 1, 0, 1], bool))
                ),
            ),
            ("softmax", lambda jx, dt: _nn(jx).softmax(_int_vector(jx, dt))),
            (
                "softmax_where",
                lambda jx, dt: _nn(jx).softmax(
                    _int_vector(jx, dt), where=_arr(jx, np.array([1, 1, 0, 1, 0, 1], bool))
                ),
            ),
            (
                "softmax_where_none",
                lambda jx, dt: _nn(jx).softmax(
                    _int_vector(jx, dt), where=_arr(jx, np.zeros(6, bool))
                ),
            ),
        ):
            _both(out, f"nn_inexact/{name}/{dt}", lambda jx, f=f, dt=dt: f(jx, dt))


def _nn(jx: Any) -> Any:
    return importlib.import_module(f"{jx.__name__}.nn")


def _unwrap_cases(out: dict[str, Case]) -> None:
    """An empty ``unwrap`` returns the promoted input with the join's weak flag."""
    for dt in (*_INT_DTS, "float32", "bfloat16"):
        for shape in ((0,), (2, 0), (3,)):
            for kw in ({}, {"period": 5}, {"period": 4.0}, {"discont": 4.0}):
                name = "unwrap/" + f"{dt}/{shape}/" + ",".join(f"{k}={v}" for k, v in kw.items())
                _both(
                    out,
                    name,
                    lambda jx, dt=dt, shape=shape, kw=kw: _np(jx).unwrap(
                        _arr(jx, np.ones(shape).astype(dt)), **kw
                    ),
                )


def _var_cases(out: dict[str, Case]) -> None:
    """``var`` with an integer ``dtype`` counts, corrects and divides in that dtype."""
    inputs = {
        "f16": ("float16", [2.0, 1.75, -21.078125]),
        "u8": ("uint8", [3, 200, 7]),
        "f32": ("float32", [1e30, -1e30, 3.0]),
        "i16": ("int16", [-32768, 32767, 0, 5]),
    }
    for dt in ("uint8", "int8", "int16", "int32", "uint32"):
        for c in (0, 1, 2, 3, 5, 300, 2.5):
            for iname, (idt, vals) in inputs.items():
                _both(
                    out,
                    f"var/{dt}/c={c}/{iname}",
                    lambda jx, dt=dt, c=c, idt=idt, vals=vals: _np(jx).var(
                        _arr(jx, np.array(vals, idt)), dtype=dt, correction=c
                    ),
                )


def _gradient_cases(out: dict[str, Case]) -> None:
    """The default unit spacing is no division (XLA drops JAX's ``/ 1``)."""
    vals = [1 + 2j, complex(3, NAN), complex(INF, 1), 5 - 1j, complex(NAN, 0), 2 + 0j,
            complex(-INF, 3), complex(0, -INF)]  # fmt: skip
    for dt in ("complex64", "complex128", "float32"):
        arr = np.array(vals, dt) if dt != "float32" else np.array([1, NAN, INF, 2, -INF, 3, 0, 1])
        for shape, axis in (((8,), None), ((2, 4), None), ((2, 4), 1), ((2, 2, 2), (2, 1))):
            for sp in ((), (2.0,), ("arr",)):

                def f(jx: Any, arr: Any = arr, shape: Any = shape, axis: Any = axis,
                      sp: Any = sp) -> Any:  # fmt: skip
                    x = _arr(jx, arr.reshape(shape))
                    if sp == ("arr",):
                        ax = axis if isinstance(axis, int) else -1
                        if axis is not None and not isinstance(axis, int):
                            return _np(jx).gradient(x, axis=axis)
                        if axis is None and len(shape) > 1:
                            return _np(jx).gradient(x)
                        return _np(jx).gradient(x, _arr(jx, np.arange(float(shape[ax]))), axis=axis)
                    return _np(jx).gradient(x, *sp, axis=axis)

                if sp == (2.0,) and dt != "float32":
                    # eagerly only: under jit a constant spacing is XLA's product with the
                    # reciprocal, whose complex NaN parts are another rule (backend/division.py)
                    out[f"gradient/{dt}/{shape}/{axis}/{sp}/eager"] = f
                    continue
                _both(out, f"gradient/{dt}/{shape}/{axis}/{sp}", f)


def _squareplus_cases(out: dict[str, Case]) -> None:
    """``squareplus``'s ``/ 2`` is the product with 0.5 (complex: an infinite part gives NaN)."""
    zs = [complex(30.2, 3e38), complex(INF, 1), complex(1, INF), complex(INF, INF), 2 + 0.5j,
          complex(-3, 1e20), complex(NAN, 1), 0j]  # fmt: skip
    for dt in ("complex64", "complex128", "float32", "int8"):
        for b in (4, 3, "int16", 0.5):

            def f(jx: Any, dt: str = dt, b: Any = b) -> Any:
                if dt == "int8":
                    x = _arr(jx, np.array([0, 1, -128, 127, 5], "int8"))
                elif dt == "float32":
                    x = _arr(jx, np.array([0, 1e30, -1e30, INF, -INF, NAN, 3e38], dt))
                else:
                    x = _arr(jx, np.array(zs, dt))
                bb = _arr(jx, np.full(x.shape, 3, b)) if isinstance(b, str) else b
                return _nn(jx).squareplus(x, bb)

            _both(out, f"squareplus/{dt}/b={b}", f)


def _lstsq_cases(out: dict[str, Case]) -> None:
    """``lstsq`` keeps singular values at the ``rcond`` cutoff and drops zero ones; NumPy-style
    empty residuals are of the default float."""
    mats = {
        "diag21": [[2.0, 0], [0, 1]],
        "zero": [[0.0, 0], [0, 0]],
        "eye": [[1.0, 0], [0, 1]],
        "one": [[3.0]],
        "col": [[1.0], [1.0], [1.0]],
        "diag421": [[4.0, 0, 0], [0, 2, 0], [0, 0, 1]],
    }
    for mname, mat in mats.items():
        for rc in (None, 1.0, 0.5, 0.25, -1.0, 0.0, 2.0):
            for dt in ("float32", "complex64"):

                def f(jx: Any, mat: Any = mat, rc: Any = rc, dt: str = dt) -> Any:
                    a = _arr(jx, np.array(mat, dt))
                    return _np(jx).linalg.lstsq(a, _np(jx).ones(a.shape[0], dt), rcond=rc)[2]

                _both(out, f"lstsq_rank/{mname}/{dt}/rcond={rc}", f)
    for dt in ("float32", "float16", "complex64", "bfloat16"):
        for shape in ((0, 3), (2, 3)):
            if shape == (2, 3) and dt in ("float16", "bfloat16"):
                continue

            def g(jx: Any, dt: str = dt, shape: Any = shape) -> Any:
                a = _np(jx).ones(shape, dt)
                r = _np(jx).linalg.lstsq(a, _np(jx).ones(shape[0], dt), numpy_resid=True)
                return r[1], r[2]

            out[f"lstsq_resid/{dt}/{shape}"] = g


def _unique_cases(out: dict[str, Case]) -> None:
    """The values of ``unique`` along an axis of an empty input with ``size``: all padding."""
    for shape in ((0,), (0, 3), (0, 2, 2)):
        for size in (0, 1, 3):
            _both(
                out,
                f"unique_axis/{shape}/size={size}",
                lambda jx, shape=shape, size=size: _np(jx).unique(
                    _arr(jx, np.zeros(shape, np.float32)), axis=0, size=size, fill_value=7
                ),
            )


def _convert_fold_cases(out: dict[str, Case]) -> None:
    """KNOWN departure: a Python float out of an integer type's range, converted inside a
    ``jit`` program (``full``, ``initial=``): XLA folds the constant with C++'s conversion
    (x86's int32 "indefinite" value, then wrapped to narrower types), eagerly JAX saturates.
    trellax saturates on both paths; the test compares trellax's ``jit`` with JAX's eager."""
    for dt in ("int8", "uint8", "int16", "uint16", "int32", "uint32"):
        for v in (INF, -INF, NAN, 1e10, -1e10, 1e30, 70000.0, -300.0, -2.5):
            _both(
                out,
                f"convert_fold/full/{dt}/{v}",
                lambda jx, dt=dt, v=v: _np(jx).full((2,), v, dtype=dt),
            )
            _both(
                out,
                f"convert_fold/max/{dt}/{v}",
                lambda jx, dt=dt, v=v: _np(jx).max(_arr(jx, np.zeros((0,), dt)), initial=v),
            )


def cases() -> dict[str, Case]:
    out: dict[str, Case] = {}
    for family in (_freq_cases, _reduce_initial_cases, _polyint_cases, _nn_cases, _unwrap_cases,
                   _var_cases, _gradient_cases, _squareplus_cases, _lstsq_cases, _unique_cases,
                   _convert_fold_cases):  # fmt: skip
        family(out)
    return out


def encode(value: Any) -> Any:
    """A JSON form of an outcome: arrays as ``[dtype, weak, shape, hex]``, tuples and lists as
    lists."""
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    a = np.asarray(value)
    return [
        a.dtype.name,
        bool(getattr(value, "weak_type", False)),
        list(a.shape),
        a.tobytes().hex(),
    ]


def outcome(jx: Any, case: Case) -> Any:
    """``["ok", encoded value]`` or ``["error", class name]``."""
    try:
        return ["ok", encode(case(jx))]
    except Exception as e:  # the class is the outcome
        return ["error", type(e).__name__]
