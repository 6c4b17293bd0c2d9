"""First, second and third derivatives of every differentiable primitive (issue 24, section 4):
against JAX's (``tests/golden/derivs.json``, ``tools/gen_golden_derivs.py``) in float32 and
float64, against float64 central finite differences at ordinary points, and a coverage test
that fails when a primitive with a JVP rule has no case. The cases and the way each derivative
is taken are in ``tests/deriv_cases.py``."""

from __future__ import annotations

import contextlib
import json
import pathlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from deriv_cases import ALL, CASES, EXCLUDED, Case, Derivatives, namespace, pattern, quantities

import trellax
from trellax._src.core import core
from trellax._src.lax import ad_util

GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "derivs.json").read_text()
)

#: where JAX's value is wrong and trellax keeps its own (docs/semantics.md has the measurements):
#: (case|dtype, quantity) -> trellax's values
KEPT: dict[tuple[str, str], Any] = {}

#: JAX raises and trellax computes (or raises another class), with the reason
ERROR_KEPT: dict[tuple[str, str], str] = {}


@contextlib.contextmanager
def precision(dtype: str) -> Iterator[None]:
    """float64 cases run with x64 enabled, float32 ones with the default."""
    with trellax.enable_x64(dtype == "float64"):
        yield


def ulp_distance(got: np.ndarray, want: np.ndarray, dtype: str) -> np.ndarray:
    """|got - want| in units of the golden value's last place (finite entries)."""
    eps = float(np.finfo(dtype).eps)
    tiny = float(np.finfo(dtype).tiny)
    scale = np.maximum(np.abs(want), tiny)
    return np.abs(got - want) / (eps * scale)


def mismatch(got: Any, want: dict[str, Any], case: Case, dtype: str) -> str | None:
    """Why a trellax result differs from JAX's recorded one (None when it agrees)."""
    a = np.asarray(got)
    kind = (str(a.dtype), bool(getattr(got, "weak_type", False)), list(a.shape))
    if kind != (want["dtype"], want["weak_type"], want["shape"]):
        return f"dtype/weak/shape {kind} != {(want['dtype'], want['weak_type'], want['shape'])}"
    g = a.astype(np.float64)
    w = np.asarray(want["values"], np.float64).reshape(g.shape)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return f"NaN positions: got {g.tolist()} want {w.tolist()}"
    inf_g, inf_w = np.where(np.isinf(g), np.sign(g), 0), np.where(np.isinf(w), np.sign(w), 0)
    if not np.array_equal(inf_g, inf_w):
        return f"inf positions: got {g.tolist()} want {w.tolist()}"
    fin = np.isfinite(w)
    d = ulp_distance(g[fin], w[fin], dtype)
    # entries that cancel to (nearly) zero are measured against the array's magnitude
    floor = np.abs(g[fin] - w[fin]) / (float(np.finfo(dtype).eps) * max(np.abs(w[fin]).max(initial=0.0), 1e-300))
    worst = float(np.minimum(d, floor).max(initial=0.0))
    if worst > case.ulps:
        return f"{worst:.3g} ulps > {case.ulps}: got {g.tolist()} want {w.tolist()}"
    return None


def _ids(c: Case) -> str:
    return c.name


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_matches_jax(case: Case, dtype: str) -> None:
    key = f"{case.name}|{dtype}"
    golden = GOLDEN[key]
    failures = []
    with precision(dtype):
        d = Derivatives(trellax, case, namespace(trellax), np.dtype(dtype))
        for name in quantities(case, d.n):
            want = golden[name]
            fn, args = d.function(name)
            if "error" in want:
                expected = ERROR_KEPT.get((key, name), want["error"])
                try:
                    got = fn(*args)
                except Exception as e:  # the class is compared
                    if type(e).__name__ != expected:
                        failures.append(f"{name}: raised {type(e).__name__}, JAX {expected}")
                    continue
                failures.append(f"{name}: JAX raises {expected}, trellax gave {got}")
                continue
            try:
                got = fn(*args)
            except Exception as e:
                failures.append(f"{name}: raised {type(e).__name__}: {e}")
                continue
            if (key, name) in KEPT:
                want = {**want, "values": KEPT[key, name]}
            why = mismatch(got, want, case, dtype)
            if why:
                failures.append(f"{name}: {why}")
    assert not failures, "\n".join(failures)


# -- finite differences (float64, ordinary points) -------------------------------------------------


def _close(ad: Any, fd: Any, scale: float) -> bool:
    ad, fd = np.asarray(ad, np.float64), np.asarray(fd, np.float64)
    return bool(np.allclose(ad, fd, rtol=2e-6, atol=2e-7 * max(1.0, scale)))


def _central(fn: Callable[..., Any], args: list[Any], dirs: list[Any], h: float) -> np.ndarray:
    plus = [a + h * u for a, u in zip(args, dirs, strict=True)]
    minus = [a - h * u for a, u in zip(args, dirs, strict=True)]
    return (np.asarray(fn(*plus), np.float64) - np.asarray(fn(*minus), np.float64)) / (2 * h)


FD_CASES = [c for c in ALL if c.fd]


@pytest.mark.parametrize("case", FD_CASES, ids=_ids)
def test_finite_differences(case: Case) -> None:
    with trellax.enable_x64(True):
        d = Derivatives(trellax, case, namespace(trellax), np.dtype("float64"))
        args = [np.asarray(a) for a in d.args]
        n = d.n
        h = 1e-5 * max(1.0, *(float(np.abs(a).max()) for a in args))
        zeros = [np.zeros_like(a) for a in args]
        failures = []

        def axis(j: int) -> list[Any]:
            if case.elementwise:  # every component along its own axis at once
                u = [np.ones_like(a) for a in args]
            else:
                u = [pattern(a.shape, a.dtype, 5.0 + k) for k, a in enumerate(args)]
            return [u[k] if k == j else zeros[k] for k in range(n)]

        def check(label: str, ad: Any, lower: Callable[..., Any], j: int) -> None:
            dirs = axis(j)
            fd = _central(lower, args, dirs, h)
            got = np.asarray(ad, np.float64)
            if not case.elementwise:
                got = np.array((got * dirs[j]).sum())
            scale = float(np.abs(np.asarray(lower(*args), np.float64)).max())
            if not _close(got, fd, max(scale, float(np.abs(got).max()))):
                failures.append(f"{label}: ad {got.tolist()} fd {fd.tolist()}")

        names = quantities(case, n)
        lower1 = d.f if case.elementwise else d.s
        for i in range(n):
            check(f"g1.{i}", d.g1(i)(*d.args), lower1, i)
        for name in names:
            parts = name.split(".")
            if parts[0] == "g2":
                i, j = int(parts[1]), int(parts[2])
                lower = d.g1(i) if case.elementwise else d.h1(i)
                check(name, d.g2(i, j)(*d.args), lower, j)
            elif parts[0] == "g3":
                i, j, k = (int(p) for p in parts[1:])
                lower = d.g2(i, j) if case.elementwise else d.h2(i, j)
                check(name, d.g3(i, j, k)(*d.args), lower, k)
            elif parts[0] in ("jvp2", "jvp3"):
                k = int(parts[0][3:])
                fd = _central(d.jvp(k - 1), args, d.v, h)
                ad = np.asarray(d.jvp(k)(*d.args), np.float64)
                if not _close(ad, fd, float(np.abs(ad).max())):
                    failures.append(f"{name}: ad {ad.tolist()} fd {fd.tolist()}")
    assert not failures, "\n".join(failures)


# -- coverage ------------------------------------------------------------------------------------


def differentiable_primitives() -> list[str]:
    """Primitives with a JVP rule whose tangent is not identically zero."""
    return sorted(
        name
        for name, p in core.primitives().items()
        if p.jvp_rule is not None
        and name not in ad_util.ZERO_TANGENT
        and not name.startswith("test_only")
    )


def _jaxpr_text(case: Case) -> str:
    d = Derivatives(trellax, case, namespace(trellax), np.dtype("float32"))
    texts = []
    for fn in (d.f, d.g1(0), d.g2(0, 0) if case.orders >= 2 else d.g1(0)):
        with contextlib.suppress(Exception):  # a function JAX cannot differentiate either
            texts.append(str(trellax.make_jaxpr(fn)(*d.args)))
    return "\n".join(texts)


def test_every_differentiable_primitive_has_a_case() -> None:
    labelled = {c.prim for c in ALL}
    missing = [p for p in differentiable_primitives() if p not in labelled and p not in EXCLUDED]
    assert missing == [], f"differentiable primitives without a case in deriv_cases.py: {missing}"
    stale = [p for p in EXCLUDED if p not in differentiable_primitives() or p in labelled]
    assert stale == [], f"EXCLUDED names a primitive that is not differentiable or has a case: {stale}"


PRIMITIVE_CASES = [c for c in CASES if c.prim in set(differentiable_primitives())]


@pytest.mark.parametrize("case", PRIMITIVE_CASES, ids=_ids)
def test_case_binds_its_primitive(case: Case) -> None:
    """A case labelled with a primitive really binds it (in the function or its derivatives)."""
    text = _jaxpr_text(case)
    assert re.search(rf"(?<![\w-]){re.escape(case.prim)}(?![\w-])", text), text
