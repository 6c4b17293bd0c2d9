"""Golden float32/float64 ``jnp.linspace``/``logspace``/``geomspace`` samples from JAX 0.10.2
(issue 24).

python tools/gen_golden_lin17.py   # with jax==0.10.2; writes tests/golden/linspace_xla.json
python tools/gen_golden_lin17.py --only geomspace   # one section, the others kept

Arrays are stored as base64 of their little-endian bytes, larger ones (over 64 elements) as
the SHA-256 of those bytes with NaNs made NumPy's NaN, so that every bit (signs of zero)
is compared and a NaN matches a NaN
(``tests/test_linspace_xla.py`` decodes them). With 64-bit mode on:

* ``grid``: every (start, stop) of ``ENDS`` x ``NUMS`` x ``endpoint`` in float32 and float64, as
  0-d arrays: the eager samples and step (``retstep=True``), and for every third case the samples
  under ``jit`` with the ends as arguments and as constants;
* ``large``: seeded random pairs at the sizes of ``LARGE``, eagerly;
* ``weak``: Python-float ends with 64-bit mode off (float32), eagerly;
* ``rows``: ends of shape (3,) with ``axis=0`` and ``-1``, and a 0-d end beside a row, eagerly;
* ``logspace``: seeded random ends at ``LOG_NUMS`` x ``endpoint`` x ``LOG_BASES`` and every pair
  of ``LOG_SPECIAL``, eagerly and for every third case under ``jit`` with the ends as arguments;
* ``geomspace``: seeded ends of one sign at ``GEOM_NUMS`` x ``endpoint``, eagerly.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import pathlib
import sys
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "linspace_xla.json"
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from linspace_xla_cases import (  # noqa: E402
    GEOM_NUMS,
    LARGE,
    LOG_BASES,
    LOG_NUMS,
    LOG_SPECIAL,
    NUMS,
    ends,
    random_ends,
)

jax.config.update("jax_platforms", "cpu")


def enc(a: Any) -> str:
    a = np.asarray(a)
    if a.size > 64:  # every NaN as NumPy's positive quiet NaN: any NaN matches any NaN
        b = np.ascontiguousarray(np.where(np.isnan(a), np.nan, a).astype(a.dtype)).tobytes()
        return "sha256:" + hashlib.sha256(b).hexdigest()
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()


def grid() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for dt in ("float32", "float64"):
        cases = itertools.product(ends(dt), ends(dt), NUMS, (True, False))
        for k, (a, b, num, ep) in enumerate(cases):
            x, y = jnp.asarray(a, dt), jnp.asarray(b, dt)
            v, s = jnp.linspace(x, y, num, endpoint=ep, retstep=True)
            rec = {"eager": enc(v), "step": enc(s)}
            if k % 3 == 0:
                f = jax.jit(lambda p, q, n=num, e=ep: jnp.linspace(p, q, n, endpoint=e))
                rec["jit"] = enc(f(x, y))
                g = jax.jit(lambda n=num, e=ep, p=x, q=y: jnp.linspace(p, q, n, endpoint=e))
                rec["jit_const"] = enc(g())
            out[f"{dt} {a!r} {b!r} {num} {ep}"] = rec
    return out


def large() -> dict[str, str]:
    out = {}
    for k, (dt, num, ep) in enumerate(LARGE):
        for a, b in random_ends(dt, 3, k):
            out[f"{dt} {a!r} {b!r} {num} {ep}"] = enc(jnp.linspace(a, b, num, endpoint=ep))
    return out


def weak() -> dict[str, str]:
    jax.config.update("jax_enable_x64", False)
    out = {}
    for a, b in random_ends("float64", 40, 99):
        for num in (7, 50, 400):
            out[f"{float(a)!r} {float(b)!r} {num}"] = enc(jnp.linspace(float(a), float(b), num))
    jax.config.update("jax_enable_x64", True)
    return out


def rows() -> dict[str, str]:
    out = {}
    for dt in ("float32", "float64"):
        pairs = random_ends(dt, 6, 7)
        lo, hi = pairs[:3, 0], pairs[3:, 1]
        for num in (5, 50, 400):
            for axis in (0, -1):
                r = jnp.linspace(lo, hi, num, axis=axis)
                out[f"{dt} {num} {axis}"] = enc(r)
            for ep in (True, False):  # a 0-d end beside a row (the stop's with the axis last)
                out[f"{dt} {num} {ep} start0d"] = enc(jnp.linspace(lo[0], hi, num, ep, axis=0))
                out[f"{dt} {num} {ep} stop0d"] = enc(jnp.linspace(lo, hi[0], num, ep, axis=-1))
    return out


def logspace() -> dict[str, dict[str, str]]:
    """Eager ``logspace`` (and under ``jit`` with the ends as arguments, every third case)."""
    out: dict[str, dict[str, str]] = {}
    for dt in ("float32", "float64"):
        rng = np.random.default_rng(24)
        cases = [(float(a), float(b), num, ep, base)
                 for num, ep, base in itertools.product(LOG_NUMS, (True, False), LOG_BASES)
                 for a, b in rng.uniform(-5, 5, (8, 2))]  # fmt: skip
        cases += [(a, b, num, True, 10.0) for a, b in itertools.product(LOG_SPECIAL, LOG_SPECIAL)
                  for num in (5, 50)]  # fmt: skip
        for k, (a, b, num, ep, base) in enumerate(cases):
            x, y = jnp.asarray(a, dt), jnp.asarray(b, dt)
            rec = {"eager": enc(jnp.logspace(x, y, num, endpoint=ep, base=base))}
            if k % 3 == 0:
                f = jax.jit(lambda p, q, n=num, e=ep, g=base: jnp.logspace(p, q, n, e, g))
                rec["jit"] = enc(f(x, y))
            out[f"{dt} {a!r} {b!r} {num} {ep} {base!r}"] = rec
    return out


def geomspace() -> dict[str, str]:
    """Eager ``geomspace`` of seeded ends of one sign (magnitudes 1e-3 to 1e3)."""
    out = {}
    for dt in ("float32", "float64"):
        rng = np.random.default_rng(25)
        for num, ep in itertools.product(GEOM_NUMS, (True, False)):
            for a, b in 10.0 ** rng.uniform(-3, 3, (6, 2)) * rng.choice([1.0, -1.0], (6, 1)):
                r = jnp.geomspace(jnp.asarray(a, dt), jnp.asarray(b, dt), num, endpoint=ep)
                out[f"{dt} {float(a)!r} {float(b)!r} {num} {ep}"] = enc(r)
    return out


SECTIONS = {
    "grid": grid,
    "large": large,
    "weak": weak,
    "rows": rows,
    "logspace": logspace,
    "geomspace": geomspace,
}


def main() -> None:
    """All sections, or with ``--only NAME`` that one section updated in the existing file."""
    jax.config.update("jax_enable_x64", True)
    if len(sys.argv) == 3 and sys.argv[1] == "--only":
        data = json.loads(OUT.read_text())
        data[sys.argv[2]] = SECTIONS[sys.argv[2]]()
    else:
        data = {name: make() for name, make in SECTIONS.items()}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT} ({sum(len(v) for v in data.values())} cases)")


if __name__ == "__main__":
    main()
