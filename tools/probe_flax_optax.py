"""Differential probe of trellax's Flax/optax layer against real Flax 0.12.8 and optax 0.2.8.

    python tools/probe_flax_optax.py [--ref-python P] [--trellax-python P] [--list] [PREFIX]

Generates several hundred small programs written against ``jax``, ``flax`` and ``optax`` (layers
of every dtype, convolutions with every padding form, normalisations, attention, recurrent cells,
lifted transforms, every optimizer with its defaults, schedules, losses, train_state, struct,
serialization, traverse_util). Each program runs twice in a subprocess per side: once under the
reference Python (real JAX/Flax/optax) and once under trellax's Python with
``trellax.compat.install()`` in force, so the same text imports trellax. Each program leaves a
pytree in ``result``; the two trees are compared by key path, dtype, shape, weak type and values
(float32: rtol 1e-5 / atol 1e-6, 16-bit floats: rtol 2e-2), and a raised error by its class.

The test suite never runs this script (it needs the reference Python); the divergences it found
are pinned by tests with golden data (tools/gen_golden_flax_optax_hunt.py).
"""

from __future__ import annotations

import argparse
import collections
import os
import pathlib
import pickle
import signal
import subprocess
import sys
import traceback
import warnings
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import probe_flax_optax_layers as L
import probe_flax_optax_modules as M
import probe_flax_optax_optax as O

ROOT = pathlib.Path(__file__).resolve().parent.parent

PRELUDE = """
import functools
import numpy as np
import jax
import jax.numpy as jnp
import flax
import flax.linen as nn
import optax
from flax import serialization, struct, traverse_util
from flax.training import train_state
from flax import jax_utils
K = jax.random.key(0)
def X(*shape, seed=1, dtype=jnp.float32):
    return jax.random.normal(jax.random.key(seed), shape, dtype)
"""

P: dict[str, str] = {}


def add(name: str, src: str) -> None:
    assert name not in P, name
    P[name] = src


def build() -> dict[str, str]:
    """Every program, by name (generated once)."""
    if not P:
        for gen in (
            L.gen_layers,
            L.gen_attention,
            L.gen_pool,
            L.gen_rnn,
            M.gen_module,
            M.gen_init,
            M.gen_acts,
            O.gen_optax,
            O.gen_flaxutil,
        ):
            gen(add)
    return P


# --------------------------------------------------------------------------------------------
# running one side
def _describe(x: Any) -> Any:
    import jax
    import numpy as np

    if hasattr(x, "dtype") and hasattr(x, "shape") and not isinstance(x, type):
        dt = str(x.dtype)
        weak = getattr(x, "weak_type", None)
        if "key<" in dt:
            data = np.asarray(jax.random.key_data(x))
            return ("key", dt, tuple(x.shape), None, data)
        arr = np.asarray(x)
        if (
            arr.dtype.kind == "V"
            or dt in ("bfloat16", "float8_e4m3fn", "float8_e5m2")
            or (arr.dtype.kind == "f" and arr.dtype.itemsize < 8)
        ):
            arr = arr.astype(np.float64)
        return ("arr", dt, tuple(arr.shape), weak, arr)
    if isinstance(x, (bool, int, float, complex, str, type(None))):
        return ("py", type(x).__name__, None, None, x)
    return ("obj", type(x).__name__, None, None, None)


def normalize(result: Any) -> Any:
    import jax

    def leaf(v: Any) -> bool:
        # trellax's key arrays are pytree nodes (docs/compat.md): compare them as JAX's leaves
        return v is None or "key<" in str(getattr(v, "dtype", ""))

    leaves = jax.tree_util.tree_flatten_with_path(result, is_leaf=leaf)[0]
    return [(jax.tree_util.keystr(p), _describe(v)) for p, v in leaves]


class _Timeout(Exception):
    pass


def run_side(names: list[str], out: str) -> None:
    if os.environ.get("PROBE_TRELLAX"):
        import trellax.compat

        trellax.compat.install()
    progs = build()
    results: dict[str, Any] = {}

    def alarm(*_: Any) -> None:
        raise _Timeout()

    signal.signal(signal.SIGALRM, alarm)
    for name in names:
        ns: dict[str, Any] = {}
        signal.alarm(60)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(PRELUDE + progs[name], name, "exec"), ns)
                results[name] = ("ok", normalize(ns["result"]))
        except _Timeout:
            results[name] = ("timeout", "")
        except Exception as e:
            tb = traceback.format_exc().splitlines()[-3:]
            results[name] = ("err", type(e).__name__, str(e)[:300], tb)
        finally:
            signal.alarm(0)
    with open(out, "wb") as f:
        pickle.dump(results, f)


# --------------------------------------------------------------------------------------------
# comparing
CLASSES = [
    "value",
    "dtype",
    "weak",
    "shape",
    "structure",
    "crash",
    "accepts",
    "error_class",
    "timeout",
]


def _close(a: Any, b: Any, dt: str) -> bool:
    import numpy as np

    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        if dt in ("bfloat16", "float16"):
            rtol, atol = 2e-2, 2e-2
        elif dt in ("float64", "complex128"):
            rtol, atol = 1e-10, 1e-12
        else:
            rtol, atol = 1e-5, 1e-6
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(a, b))


def compare(ref: Any, tre: Any) -> tuple[str, str] | None:
    if ref[0] == "timeout" or tre[0] == "timeout":
        return None if ref[0] == tre[0] else ("timeout", f"{ref[0]} vs {tre[0]}")
    if ref[0] == "err" and tre[0] == "err":
        if ref[1] == tre[1]:
            return None
        return ("error_class", f"{ref[1]}: {ref[2][:120]} || {tre[1]}: {tre[2][:160]}")
    if ref[0] == "err":
        return ("accepts", f"reference raised {ref[1]}: {ref[2][:160]}")
    if tre[0] == "err":
        return ("crash", f"{tre[1]}: {tre[2][:200]} @ {tre[3][0].strip()[:150]}")
    rl, tl = ref[1], tre[1]
    if [p for p, _ in rl] != [p for p, _ in tl]:
        rp = [p for p, _ in rl]
        tp = [p for p, _ in tl]
        return (
            "structure",
            f"ref {rp[:6]}... ({len(rp)}) vs {tp[:6]}... ({len(tp)}); only ref {sorted(set(rp) - set(tp))[:4]} only trellax {sorted(set(tp) - set(rp))[:4]}",
        )
    worst: tuple[str, str] | None = None
    order = {c: i for i, c in enumerate(CLASSES)}
    for (p, a), (_, b) in zip(rl, tl):
        found: tuple[str, str] | None = None
        if a[0] != b[0] or a[1] != b[1]:
            if a[0] == "arr" and b[0] == "arr":
                found = ("dtype", f"{p}: {a[1]} vs {b[1]}")
            elif (
                a[0] == "py"
                and b[0] == "py"
                and a[1] in ("int", "float")
                and b[1] in ("int", "float")
            ):
                found = ("dtype", f"{p}: py {a[1]} vs {b[1]}")
            else:
                found = ("structure", f"{p}: {a[:2]} vs {b[:2]}")
        elif a[2] != b[2]:
            found = ("shape", f"{p}: {a[2]} vs {b[2]}")
        elif a[0] == "py":
            if a[1] in ("float", "complex"):
                if not _close(a[4], b[4], "float64"):
                    found = ("value", f"{p}: {a[4]!r} vs {b[4]!r}")
            elif a[4] != b[4] and a[1] != "str":
                found = ("value", f"{p}: {a[4]!r} vs {b[4]!r}")
        elif a[0] in ("arr", "key"):
            if not _close(a[4], b[4], a[1]):
                import numpy as np

                x = np.asarray(a[4]).ravel()[:4]
                y = np.asarray(b[4]).ravel()[:4]
                found = ("value", f"{p}: {a[1]}{a[2]} ref {x} vs {y}")
            elif a[3] is not None and b[3] is not None and a[3] != b[3]:
                found = ("weak", f"{p}: weak {a[3]} vs {b[3]}")
        if found and (worst is None or order[found[0]] < order[worst[0]]):
            worst = found
    return worst


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix", nargs="?", default="", help="comma-separated name prefixes")
    ap.add_argument("--side", choices=["run"], default=None)
    ap.add_argument("--out", default="")
    ap.add_argument("--names", default="")
    ap.add_argument("--ref-python", default="/tmp/jaxref/bin/python")
    ap.add_argument("--trellax-python", default="/work/main/.venv/bin/python")
    ap.add_argument("--cache", default="/tmp/probe_flax_optax_ref.pkl")
    ap.add_argument("--fresh-ref", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.side == "run":
        run_side(pathlib.Path(args.names).read_text().split("\n"), args.out)
        return
    names = [n for n in build() if n.startswith(tuple(args.prefix.split(",")))]
    tmp = pathlib.Path("/tmp/probe_flax_optax_names.txt")
    tmp.write_text("\n".join(names))
    ref: dict[str, Any] = {}
    if os.path.exists(args.cache) and not args.fresh_ref:
        with open(args.cache, "rb") as f:
            ref = pickle.load(f)
    missing = [n for n in names if n not in ref]
    if missing:
        mtmp = pathlib.Path("/tmp/probe_flax_optax_missing.txt")
        mtmp.write_text("\n".join(missing))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["JAX_PLATFORMS"] = "cpu"
        out = "/tmp/probe_flax_optax_ref_new.pkl"
        subprocess.run(
            [args.ref_python, __file__, "--side", "run", "--names", str(mtmp), "--out", out],
            env=env,
            check=True,
        )
        with open(out, "rb") as f:
            ref.update(pickle.load(f))
        with open(args.cache, "wb") as f:
            pickle.dump(ref, f)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["PROBE_TRELLAX"] = "1"
    out = "/tmp/probe_flax_optax_trellax.pkl"
    subprocess.run(
        [args.trellax_python, __file__, "--side", "run", "--names", str(tmp), "--out", out],
        env=env,
        check=True,
    )
    with open(out, "rb") as f:
        tre = pickle.load(f)
    by_class: collections.Counter[str] = collections.Counter()
    by_area: collections.Counter[tuple[str, str]] = collections.Counter()
    for n in names:
        d = compare(ref[n], tre[n])
        if d is None:
            continue
        by_class[d[0]] += 1
        by_area[(n.split("/")[0], d[0])] += 1
        if args.list:
            print(f"{d[0]:11} {n}\n            {d[1]}")
    print(f"{len(names)} programs, {sum(by_class.values())} differ")
    for c in CLASSES:
        if by_class[c]:
            print(f"  {c:12} {by_class[c]}")
    for (area, c), k in sorted(by_area.items()):
        print(f"  {area:14} {c:12} {k}")


if __name__ == "__main__":
    sys.exit(main())
