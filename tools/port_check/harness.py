"""Ported-program check: run each program with JAX and with trellax, compare leaf by leaf.

Each program in ``progs*.py`` is written once against module parameters (``jax``, ``jnp``,
``lax``, ``random``, ``nn``, ``scipy``) and runs twice in one process, once with JAX's modules
and once with trellax's -- what a user porting code by changing the import would see. A leaf
differs when its dtype, shape, weak flag or values (within a tolerance) differ, or when one side
raises and the other does not (or raises another class). Needs JAX (and Flax, optax for
``progs3.py``); the test suite never runs it. From the repository root::

    PYTHONPATH=.:tools/port_check /path/to/jax-venv/bin/python tools/port_check/progs1.py

Known, listed differences it reports: XLA flushes float32 subnormals (``sign(1e-40)``), JAX
0.10.2 has removed ``jnp.fix``, JAX returns a Python-scalar ``aux`` from ``value_and_grad`` of
a Python float as its own ``TypedFloat``.
"""

import warnings

import jax
import jax.numpy as jjnp
import numpy as np

import trellax
import trellax.numpy as tjnp


def mods(which):
    if which == "jax":
        import jax.lax as lax
        import jax.nn as nn
        import jax.random as random
        import jax.scipy as scipy

        return dict(jax=jax, jnp=jjnp, lax=lax, random=random, nn=nn, scipy=scipy)
    import trellax.lax as lax
    import trellax.nn as nn
    import trellax.random as random
    import trellax.scipy as scipy

    return dict(jax=trellax, jnp=tjnp, lax=lax, random=random, nn=nn, scipy=scipy)


def leaves(x):
    if isinstance(x, dict):
        out = []
        for k in sorted(x):
            out += [(f"{k}.{p}", v) for p, v in leaves(x[k])]
        return out
    if isinstance(x, (list, tuple)):
        out = []
        for i, e in enumerate(x):
            out += [(f"{i}.{p}", v) for p, v in leaves(e)]
        return out
    return [("", x)]


def desc(v):
    if hasattr(v, "dtype") and hasattr(v, "shape"):
        weak = getattr(v, "weak_type", None)
        if weak is None:
            aval = getattr(v, "aval", None)
            weak = getattr(aval, "weak_type", None)
        try:
            dt = str(v.dtype)
            arr = np.asarray(v) if "key" not in dt else None
        except Exception:
            arr = None
        return (str(v.dtype), tuple(v.shape), bool(weak) if weak is not None else None, arr)
    return (type(v).__name__, None, None, v)


def run(progs, rtol=1e-5, atol=1e-6):
    bad = 0
    for name, fn in progs:
        res = {}
        for w in ("jax", "trellax"):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    res[w] = ("ok", fn(**mods(w)))
            except Exception as e:
                res[w] = (
                    "err",
                    f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}",
                )
        j, t = res["jax"], res["trellax"]
        if j[0] == "err" or t[0] == "err":
            if j[0] != t[0] or j[1].split(":")[0] != t[1].split(":")[0]:
                print(
                    f"[{name}] JAX {j[1] if j[0] == 'err' else 'ok'} | trellax {t[1] if t[0] == 'err' else 'ok'}"
                )
                bad += 1
            continue
        jl, tl = leaves(j[1]), leaves(t[1])
        if len(jl) != len(tl):
            print(f"[{name}] leaf count {len(jl)} vs {len(tl)}")
            bad += 1
            continue
        for (p, a), (_, b) in zip(jl, tl):
            da, db = desc(a), desc(b)
            msgs = []
            if da[0] != db[0]:
                msgs.append(f"dtype {da[0]} vs {db[0]}")
            if da[1] != db[1]:
                msgs.append(f"shape {da[1]} vs {db[1]}")
            if da[2] is not None and db[2] is not None and da[2] != db[2]:
                msgs.append(f"weak {da[2]} vs {db[2]}")
            if not msgs and da[3] is not None and db[3] is not None:
                A, B = np.asarray(da[3]), np.asarray(db[3])
                try:
                    if A.dtype.kind in "fc" or str(A.dtype) in ("bfloat16",):
                        A64, B64 = (
                            A.astype(np.complex128 if A.dtype.kind == "c" else np.float64),
                            B.astype(np.complex128 if A.dtype.kind == "c" else np.float64),
                        )
                        tol_r = rtol if A.dtype.itemsize >= 4 else 1e-2
                        ok = np.allclose(
                            A64,
                            B64,
                            rtol=tol_r,
                            atol=atol if A.dtype.itemsize >= 4 else 1e-2,
                            equal_nan=True,
                        )
                    else:
                        ok = np.array_equal(A, B)
                    if not ok:
                        diff = (
                            np.max(np.abs(A.astype(np.float64) - B.astype(np.float64)))
                            if A.size and A.dtype.kind != "c"
                            else "?"
                        )
                        msgs.append(f"values differ (max abs {diff})")
                except Exception as e:
                    msgs.append(f"compare error {e}")
            if msgs:
                print(f"[{name}] leaf {p}: " + "; ".join(msgs))
                bad += 1
    print(f"{len(progs)} programs, {bad} differences")
