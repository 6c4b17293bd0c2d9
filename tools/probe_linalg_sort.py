"""Differential probe of linear algebra, FFT, sorting/searching, set operations, statistics and
polynomial helpers: trellax against JAX 0.10.2, case by case.

    python tools/probe_linalg_sort.py [--only P1;P2] [--modes eager,jit,vmap] [--x64 0,1]
        [--cache DIR] [--refresh] [--cached-only] [--reuse OLD_RUN_DIR] [--timeout S]
        [--slowest N] [--list]

The driver (run with trellax's interpreter) builds the inputs of ``probe_linalg_sort_cases.py``,
pickles them and runs every case eagerly, under ``jit`` and under ``vmap``, once per x64 setting,
in a JAX process (``/tmp/jaxref/bin/python``, or ``$JAX_PY``) and in a trellax process, one
process at a time. JAX's outcomes do not change between runs: they are kept in ``--cache``
(default ``/tmp/probe_linalg_cache``, one file per x64 setting, keyed by ``x64|mode|case`` and
tied to a digest of the inputs), so a re-run only runs the cases the cache lacks (``--refresh``
runs them all again, ``--cached-only`` skips the missing ones, ``--reuse`` imports the
``jax0.pkl``/``jax1.pkl`` of an old run directory). Each side appends every outcome to a stream
as soon as it has it; a run that gives nothing for ``--timeout`` seconds (default 120) is
recorded as ``Timeout`` and a new process takes the rest. Progress is printed every 30 s and
``--slowest N`` lists the slowest runs of each side.

The comparison checks each result's structure, dtype, weak flag, shape and values (bits for
exact operations, a dtype tolerance otherwise, a separate class for column sign/phase flips of
decompositions) and the class of the error raised (trellax's may be a subclass of JAX's). It
prints the totals and the divergences grouped by function and class; the ones that
``KNOWN`` ties to docs/semantics.md are counted apart, and the listing (``listing.txt``, with
``records.pkl`` holding both sides' outcomes) puts the open ones first.
"""

from __future__ import annotations

import collections
import hashlib
import os
import pickle
import re
import subprocess
import sys
import tempfile
import time
import warnings
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from probe_linalg_sort_cases import KNOWN, MODES, Case, all_cases, case_id, make_inputs

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


def _plan(only: str, modes: list[str], x64: str) -> list[str]:
    """The run keys ``x64|mode|case id`` of the selected cases, in the cases' order.

    ``only`` is one prefix or several separated by ``;``; a case is run under ``jit`` and ``vmap``
    only when one of its arguments is an input (``@name``)."""
    prefixes = only.split(";")
    keys = []
    for case in all_cases():
        cid = case_id(case)
        if not any(cid.startswith(p) for p in prefixes):
            continue
        traced = any(re.fullmatch(r"@\w+", a) for a in case[2])
        keys += [f"{x64}|{m}|{cid}" for m in modes if m == "eager" or traced]
    return list(dict.fromkeys(keys))


def run_side(lib: str, x64: bool, inputs_path: str, keys_path: str, out_path: str) -> None:
    """Runs the keys listed in ``keys_path`` in this process, bound to ``lib``.

    Each outcome is appended to ``out_path`` as one pickled ``(key, record)`` as soon as it is
    known (with its time in seconds under ``"t"``), so the driver can watch progress, stop a case
    that hangs and keep everything finished before it."""
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
    with open(keys_path) as f:
        wanted = [line.rstrip("\n") for line in f if line.strip()]
    cases = {case_id(c): c for c in all_cases()}
    env = {"jax": jax, "jnp": jnp, "np": np, "X": X}
    with open(out_path, "ab") as out:
        for key in wanted:
            _, mode, cid = key.split("|", 2)
            t0 = time.perf_counter()
            rec = _run_one(jax, env, cases[cid], mode)
            rec["t"] = time.perf_counter() - t0
            pickle.dump((key, rec), out)
            out.flush()


def _run_one(jax: Any, env: dict[str, Any], case: Case, mode: str) -> Record:
    _, fsrc, args, kwsrc = case
    traced = [i for i, a in enumerate(args) if re.fullmatch(r"@\w+", a)]
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

            def h(t: Any, vals: Any = vals, fn: Any = fn, kw: Any = kw, i0: int = i0) -> Any:
                full = list(vals)
                full[i0] = t
                return fn(*full, **kw)

            out = jax.vmap(h)(stacked)
        return _record(out)
    except Exception as e:  # the error class is the outcome
        mro = [c.__name__ for c in type(e).__mro__]
        return {"error": type(e).__name__, "mro": mro, "msg": str(e)[:160]}


def _read_stream(path: str) -> list[tuple[str, Record]]:
    """The ``(key, record)`` pairs of a side's output, up to a record cut short by a kill."""
    got: list[tuple[str, Record]] = []
    if not os.path.exists(path):
        return got
    with open(path, "rb") as f:
        while True:
            try:
                got.append(pickle.load(f))
            except (EOFError, pickle.UnpicklingError, ValueError, AttributeError):
                return got


def drive_side(
    label: str, cmd: list[str], tmp: str, keys: list[str], timeout: float
) -> dict[str, Record]:
    """Runs ``keys`` in child processes (one at a time), printing progress.

    A case that takes more than ``timeout`` seconds gets the outcome ``{"error": "Timeout"}``;
    its process is stopped and a new one takes the remaining keys."""
    results: dict[str, Record] = {}
    pending = list(keys)
    t_start = time.monotonic()
    while pending:
        keys_path = os.path.join(tmp, f"{label}.keys")
        out_path = os.path.join(tmp, f"{label}.stream")
        with open(keys_path, "w") as f:
            f.write("\n".join(pending) + "\n")
        if os.path.exists(out_path):
            os.remove(out_path)
        proc = subprocess.Popen([*cmd, keys_path, out_path])
        done = 0
        last_change = time.monotonic()
        last_print = 0.0
        size = -1
        while proc.poll() is None:
            time.sleep(0.5)
            now = time.monotonic()
            new_size = os.path.getsize(out_path) if os.path.exists(out_path) else 0
            if new_size != size:
                size, last_change = new_size, now
            if now - last_print > 30:
                done = len(results) + len(_read_stream(out_path))
                rate = done / max(now - t_start, 1e-9)
                eta = (len(keys) - done) / rate if rate else float("inf")
                print(f"  [{label}] {done}/{len(keys)}  {rate:.1f}/s  eta {eta / 60:.1f} min")
                sys.stdout.flush()
                last_print = now
            if now - last_change > timeout:
                proc.kill()  # the child this driver started, by its handle
                proc.wait()
                break
        got = _read_stream(out_path)
        results.update(got)
        pending = pending[len(got) :]
        if proc.returncode not in (0, None) and pending:
            stuck = pending.pop(0)
            why = "Timeout" if proc.returncode == -9 else f"ProcessDied({proc.returncode})"
            results[stuck] = {"error": why, "msg": f"no outcome within {timeout:.0f} s"}
            print(f"  [{label}] {why}: {stuck}")
        elif proc.returncode == 0 and pending:
            raise RuntimeError(f"{label}: the side stopped with {len(pending)} keys left")
    print(f"  [{label}] {len(keys)} runs in {(time.monotonic() - t_start) / 60:.1f} min")
    return results


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
    if "error" in want and "error" in got:  # trellax's error an instance of JAX's class
        return None if want["error"] in got.get("mro", [got["error"]]) else "error_class"
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


def _inputs_digest(inputs: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256()
    for name in sorted(inputs):
        a = np.ascontiguousarray(inputs[name])
        h.update(f"{name}|{a.dtype}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _load_cache(path: str, digest: str) -> dict[str, Record]:
    """JAX's records from an earlier run on the same inputs (empty when the inputs changed)."""
    if not os.path.exists(path):
        return {}
    with open(path, "rb") as f:
        cache = pickle.load(f)
    if cache.get("digest") != digest:
        print(f"cache {path}: made from other inputs, not used")
        return {}
    records: dict[str, Record] = cache["records"]
    return records


def _save_cache(path: str, digest: str, records: dict[str, Record]) -> None:
    tmp_path = path + ".part"
    with open(tmp_path, "wb") as f:
        pickle.dump({"digest": digest, "records": records}, f)
    os.replace(tmp_path, path)


def _opts(argv: list[str]) -> tuple[dict[str, str], set[str]]:
    """``--name value`` options and bare ``--flag`` switches."""
    flags = {"--list", "--refresh", "--cached-only"}
    opts: dict[str, str] = {}
    seen: set[str] = set()
    i = 0
    while i < len(argv):
        if argv[i] in flags:
            seen.add(argv[i])
            i += 1
        else:
            opts[argv[i]] = argv[i + 1]
            i += 2
    return opts, seen


def main() -> None:
    argv = sys.argv[1:]
    if argv and argv[0] == "--side":
        lib, x64, inp, keys_path, out = argv[1:6]
        run_side(lib, x64 == "1", inp, keys_path, out)
        return
    opts, flags = _opts(argv)
    only = opts.get("--only", "")
    modes = opts.get("--modes", ",".join(MODES)).split(",")
    x64s = opts.get("--x64", "0,1").split(",")
    timeout = float(opts.get("--timeout", "120"))
    jax_py = os.environ.get("JAX_PY", "/tmp/jaxref/bin/python")
    cache_dir = opts.get("--cache", "/tmp/probe_linalg_cache")
    os.makedirs(cache_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="probe_linalg_")
    inputs = make_inputs()
    digest = _inputs_digest(inputs)
    inp = os.path.join(tmp, "inputs.pkl")
    with open(inp, "wb") as f:
        pickle.dump(inputs, f)
    me = os.path.abspath(__file__)
    got: dict[str, Record] = {}
    want: dict[str, Record] = {}
    for x in x64s:
        keys = _plan(only, modes, x)
        cache_path = os.path.join(cache_dir, f"jax{x}.pkl")
        cache = _load_cache(cache_path, digest)
        # --reuse DIR: take JAX's records of an old run directory (jax0.pkl, jax1.pkl) into the cache
        if "--reuse" in opts:
            with open(os.path.join(opts["--reuse"], f"jax{x}.pkl"), "rb") as f:
                cache.update(pickle.load(f))
            _save_cache(cache_path, digest, cache)
        todo = keys if "--refresh" in flags else [k for k in keys if k not in cache]
        if "--cached-only" in flags:
            keys = [k for k in keys if k in cache]
            todo = []
        print(
            f"x64={x}: {len(keys)} runs, JAX from cache {len(keys) - len(todo)}, to run {len(todo)}"
        )
        if todo:
            cmd = [jax_py, me, "--side", "jax", x, inp]
            cache.update(drive_side(f"jax{x}", cmd, tmp, todo, timeout))
            _save_cache(cache_path, digest, cache)
        want.update({k: cache[k] for k in keys})
        cmd = [sys.executable, me, "--side", "trellax", x, inp]
        got.update(drive_side(f"trellax{x}", cmd, tmp, keys, timeout))
    report(want, got, tmp, "--list" in flags, int(opts.get("--slowest", "0")))


def report(
    want: dict[str, Record], got: dict[str, Record], tmp: str, show: bool, slowest: int
) -> None:
    """Prints the totals and the divergences by class and function; writes the listing."""
    kinds = {case_id(c): c[0] for c in all_cases()}
    known = [(tag, re.compile(rx)) for tag, rx in KNOWN]
    by_class: collections.Counter[str] = collections.Counter()
    by_fn: collections.Counter[tuple[str, str]] = collections.Counter()
    by_tag: collections.Counter[str] = collections.Counter()
    open_class: collections.Counter[str] = collections.Counter()
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
        sig = f"{cls} {key} jax={w.get('error') or 'ok'}"
        tag = next((t for t, rx in known if rx.search(sig)), None)
        if tag is None:
            open_class[cls] += 1
        else:
            by_tag[tag] += 1
            cls = f"{cls}[{tag}]"
        detail = ""
        g = got[key]
        if cls in ("error_class", "accepts", "crash"):
            detail = f"  jax={w.get('error') or 'ok'} trellax={g.get('error') or 'ok'}: {(g.get('msg') or w.get('msg', ''))[:100]}"
        elif cls in ("dtype", "weak", "shape"):
            want_avals = [(d, wk, s) for d, wk, s, _ in w["leaves"]][:3]
            got_avals = [(d, wk, s) for d, wk, s, _ in g["leaves"]][:3]
            detail = f"  jax={want_avals} trellax={got_avals}"
        listing.append(f"{cls:12} x64={x64} {mode:5} {cid}{detail}")
    listing.sort(key=lambda line: "[" in line.split()[0])  # open ones first
    n_cases = len({k.split("|", 2)[2] for k in want})
    print(f"{len(want)} runs ({n_cases} cases x modes x x64), {sum(by_class.values())} differ")
    for c, k in by_class.most_common():
        print(f"  {c:12} {k}  (open {open_class[c]})")
    print(
        f"documented in docs/semantics.md: {sum(by_tag.values())}; open: {sum(open_class.values())}"
    )
    for t, k in by_tag.most_common():
        print(f"  {t:20} {k}")
    for (fn, c), k in sorted(by_fn.items()):
        print(f"  {fn:40} {c:12} {k}")
    if show:
        print("\n".join(listing))
    if slowest:
        for lib, recs in (("jax", want), ("trellax", got)):
            total = sum(r.get("t", 0.0) for r in recs.values())
            print(f"{lib}: {total / 60:.1f} min over {len(recs)} runs (as timed when run)")
            for k in sorted(recs, key=lambda k: -recs[k].get("t", 0.0))[:slowest]:
                print(f"  {recs[k].get('t', 0.0):7.2f} s  {k}")
    with open(os.path.join(tmp, "records.pkl"), "wb") as fb:  # both sides, to inspect
        pickle.dump({"jax": want, "trellax": got}, fb)
    with open(os.path.join(tmp, "listing.txt"), "w") as f:
        f.write("\n".join(listing) + "\n")
    print("listing in", os.path.join(tmp, "listing.txt"))


if __name__ == "__main__":
    main()
