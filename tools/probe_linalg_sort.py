"""Differential probe of linear algebra, FFT, sorting/searching, set operations, statistics and
polynomial helpers: trellax against JAX 0.10.2, case by case.

    python tools/probe_linalg_sort.py [--list] [--only PREFIX] [--modes eager,jit,vmap] [--x64 0,1]

The driver (run with trellax's interpreter) builds the inputs of ``probe_linalg_sort_cases.py``,
pickles them, runs every case in a JAX process (``/tmp/jaxref/bin/python``, or ``$JAX_PY``) and in a
trellax process, once per x64 setting, eagerly, under ``jit`` and under ``vmap``; then it compares
each result's structure, dtype, weak flag, shape and values (bits for exact operations, a dtype
tolerance otherwise, a separate class for column sign/phase flips of decompositions) and the class
of the error raised. It prints the totals and the divergences grouped by function and class.
"""

from __future__ import annotations

import collections
import itertools
import os
import pickle
import re
import subprocess
import sys
import tempfile
import warnings
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_linalg_sort_cases import MODES, all_cases, case_id, make_inputs

Record = dict[str, Any]
_REF = re.compile(r"@(\w+)")
_TOL = {
    "float16": 2e-2,
    "bfloat16": 6e-2,
    "float32": 3e-4,
    "float64": 1e-9,
    "complex64": 3e-4,
    "complex128": 1e-9,
}


def _leaves(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]


def _record(out: Any) -> Record:
    leaves = []
    for leaf in _leaves(out):
        a = np.asarray(leaf)
        leaves.append((str(a.dtype), getattr(leaf, "weak_type", None), a.shape, a))
    return {"leaves": leaves}


def run_side(
    lib: str, x64: bool, inputs_path: str, out_path: str, modes: list[str], only: str
) -> None:
    """Runs every case in this process, bound to ``lib``; pickles the records to ``out_path``."""
    warnings.simplefilter("ignore")
    if lib == "jax":
        import jax
        import jax.numpy as jnp
        import jax.scipy.linalg

        jax.config.update("jax_enable_x64", x64)
    else:
        import trellax as jax  # type: ignore[no-redef]
        import trellax.numpy as jnp  # type: ignore[no-redef]
        import trellax.scipy.linalg

        jax.config.update("enable_x64", x64)
    with open(inputs_path, "rb") as f:
        X = pickle.load(f)
    env = {"jax": jax, "jnp": jnp, "np": np, "X": X}
    results: dict[str, Record] = {}
    for case in all_cases():
        cid = case_id(case)
        if not cid.startswith(only):
            continue
        _, fsrc, args, kwsrc = case
        traced = [i for i, a in enumerate(args) if re.fullmatch(r"@\w+", a)]
        for mode in modes:
            if mode != "eager" and not traced:
                continue
            try:
                fn = eval(fsrc, env)
                vals = [eval(_REF.sub(r"X['\1']", a), env) for a in args]
                kw = eval(_REF.sub(r"X['\1']", kwsrc), env)
                if mode == "eager":
                    out = fn(*vals, **kw)
                elif mode == "jit":

                    def g(
                        *t: Any, vals: Any = vals, fn: Any = fn, kw: Any = kw, traced: Any = traced
                    ) -> Any:
                        full = list(vals)
                        for i, ti in zip(traced, t):
                            full[i] = ti
                        return fn(*full, **kw)

                    out = jax.jit(g)(*[vals[i] for i in traced])
                else:
                    i0 = traced[0]
                    v = np.asarray(vals[i0])
                    stacked = np.stack([v, v.reshape(-1)[::-1].reshape(v.shape)])

                    def h(
                        t: Any, vals: Any = vals, fn: Any = fn, kw: Any = kw, i0: int = i0
                    ) -> Any:
                        full = list(vals)
                        full[i0] = t
                        return fn(*full, **kw)

                    out = jax.vmap(h)(stacked)
                rec = _record(out)
            except Exception as e:  # the error class is the outcome
                rec = {"error": type(e).__name__, "msg": str(e)[:160]}
            results[f"{int(x64)}|{mode}|{cid}"] = rec
    with open(out_path, "wb") as f:
        pickle.dump(results, f)


def _close(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    """NaN and infinity positions exact, finite values within the dtype's tolerance."""
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        a = a.astype(np.complex128)
        b = b.astype(np.complex128)
        return (
            _close(a.real, b.real, dtype)
            and _close(a.imag, b.imag, dtype)
            and _cplx_ok(a, b, dtype)
        )
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    inf = np.isinf(a) | np.isinf(b)
    if not np.array_equal(a[inf], b[inf]):
        return False
    fin = ~(np.isnan(a) | inf)
    if not fin.any():
        return True
    tol = _TOL.get(dtype, 0.0)
    scale = max(1.0, float(np.max(np.abs(b[fin]))))
    return bool(np.all(np.abs(a[fin] - b[fin]) <= tol * scale + tol * np.abs(b[fin])))


def _cplx_ok(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    return True


def _bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype.kind in "fc" or (a.dtype.itemsize == 2 and a.dtype.kind == "V"):
        af = a.astype(np.complex128) if a.dtype.kind == "c" else a.astype(np.float64)
        bf = b.astype(np.complex128) if b.dtype.kind == "c" else b.astype(np.float64)
        if af.dtype.kind == "c":
            return _bits_equal(af.real, bf.real) and _bits_equal(af.imag, bf.imag)
        nan = np.isnan(af)
        if not np.array_equal(nan, np.isnan(bf)):
            return False
        return bool(
            np.array_equal(np.signbit(af[~nan]), np.signbit(bf[~nan]))
            and np.array_equal(af[~nan], bf[~nan])
        )
    return bool(np.array_equal(a, b))


def _sign_flip(a: np.ndarray, b: np.ndarray, dtype: str) -> bool:
    """Equal up to a unit factor per column (last axis but one) or per element."""
    if a.ndim == 0:
        return False
    return _close(np.abs(a), np.abs(b), dtype)


def classify(kind: str, got: Record, want: Record) -> str | None:
    """The class of difference between trellax's outcome and JAX's, or None when they agree."""
    if "error" in want and "error" in got:
        return None if want["error"] == got["error"] else "error_class"
    if "error" in want:
        return "accepts"
    if "error" in got:
        return "crash"
    gl, wl = got["leaves"], want["leaves"]
    if len(gl) != len(wl):
        return "structure"
    worst = None
    for (gd, gw, gs, ga), (wd, ww, ws, wa) in zip(gl, wl):
        if gd != wd:
            return "dtype"
        if tuple(gs) != tuple(ws):
            return "shape"
        if kind == "exact":
            ok = _bits_equal(ga, wa)
        else:
            ok = _close(ga, wa, wd)
        if not ok:
            if kind == "decomp" and _sign_flip(ga, wa, wd):
                worst = worst or "sign"
            else:
                return "value"
        if bool(gw) != bool(ww):
            worst = "weak"
    return worst


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] == "--side":
        lib, x64, inp, out, modes, only = argv[1:7]
        run_side(lib, x64 == "1", inp, out, modes.split(","), only)
        return
    opts = {k: v for k, v in itertools.pairwise(argv) if k.startswith("--")}
    only = opts.get("--only", "")
    modes = opts.get("--modes", ",".join(MODES))
    x64s = opts.get("--x64", "0,1").split(",")
    jax_py = os.environ.get("JAX_PY", "/tmp/jaxref/bin/python")
    # --reuse DIR: JAX's records of an earlier run in DIR (they do not change), trellax's anew
    reuse = opts.get("--reuse")
    tmp = reuse or tempfile.mkdtemp(prefix="probe_linalg_")
    inp = os.path.join(tmp, "inputs.pkl")
    if not reuse:
        with open(inp, "wb") as f:
            pickle.dump(make_inputs(), f)
    me = os.path.abspath(__file__)
    procs = []
    for x in x64s:
        for lib, py in (("jax", jax_py), ("trellax", sys.executable)):
            out = os.path.join(tmp, f"{lib}{x}.pkl")
            if lib == "jax" and reuse:
                continue
            cmd = [py, me, "--side", lib, x, inp, out, modes, only]
            procs.append(subprocess.Popen(cmd))
    for p in procs:
        p.wait()
    got: dict[str, Record] = {}
    want: dict[str, Record] = {}
    for x in x64s:
        for lib in ("jax", "trellax"):
            with open(os.path.join(tmp, f"{lib}{x}.pkl"), "rb") as f:
                (want if lib == "jax" else got).update(pickle.load(f))
    kinds = {case_id(c): c[0] for c in all_cases()}
    by_class: collections.Counter[str] = collections.Counter()
    by_fn: collections.Counter[tuple[str, str]] = collections.Counter()
    listing = []
    for key, w in want.items():
        x64, mode, cid = key.split("|", 2)
        if key not in got or cid not in kinds:
            continue
        cls = classify(kinds[cid], got[key], w)
        if cls is None:
            continue
        by_class[cls] += 1
        by_fn[(cid.split("(")[0], cls)] += 1
        detail = ""
        if cls in ("error_class", "accepts", "crash"):
            detail = f"  jax={w.get('error') or 'ok'} trellax={got[key].get('error') or 'ok'}: {got[key].get('msg', '')[:100]}"
        elif cls in ("dtype", "weak", "shape"):
            want_avals = [(d, wk, s) for d, wk, s, _ in w["leaves"]][:3]
            got_avals = [(d, wk, s) for d, wk, s, _ in got[key]["leaves"]][:3]
            detail = f"  jax={want_avals} trellax={got_avals}"
        listing.append(f"{cls:12} x64={x64} {mode:5} {cid}{detail}")
    print(f"{len(want)} runs ({len(kinds)} cases x modes x x64), {sum(by_class.values())} differ")
    for c, k in by_class.most_common():
        print(f"  {c:12} {k}")
    for (fn, c), k in sorted(by_fn.items()):
        print(f"  {fn:40} {c:12} {k}")
    if "--list" in argv:
        print("\n".join(listing))
    with open(os.path.join(tmp, "listing.txt"), "w") as f:
        f.write("\n".join(listing) + "\n")
    print("listing in", os.path.join(tmp, "listing.txt"))


if __name__ == "__main__":
    main()
