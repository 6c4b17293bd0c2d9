"""First, second and third derivatives of every differentiable primitive (issue 24, section 4):
against JAX's (``tests/golden/derivs.json``, ``tools/gen_golden_derivs.py``) in float32 and
float64, against float64 central finite differences at ordinary points, and a coverage test
that fails when a primitive with a JVP rule has no case. The cases and the way each derivative
is taken are in ``tests/deriv_cases.py``."""

from __future__ import annotations

import contextlib
import json
import pathlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from deriv_cases import (
    ALL,
    CASES,
    EXCLUDED,
    JAX_RAISES,
    JAX_WRONG,
    JAX_WRONG_AT,
    JIT_ERROR,
    OPEN,
    PUBLIC_FUNCTIONS,
    SURFACE_ALIASES,
    SURFACE_NOT_DIFFERENTIABLE,
    WEAK_DIFFERS,
    Case,
    Derivatives,
    custom_rule_functions,
    leaves,
    namespace,
    pattern,
    quantities,
)

import trellax
from trellax._src.core import core
from trellax._src.lax import ad_util
from trellax.extend.core import Primitive as UserPrimitive

GOLDEN: dict[str, dict[str, Any]] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "derivs.json").read_text()
)

#: where JAX's value is wrong and trellax keeps its own (docs/semantics.md has the measurements):
#: (case|dtype, quantity, result index) -> trellax's values
KEPT: dict[tuple[str, str, int], Any] = {}


def _exact_zero_at(key: str, name: str, index: int, point: int) -> None:
    """Keep JAX's values but the entry of ``point`` (a diagonal one for a Hessian block), which
    is exactly 0 where JAX records rounding noise."""
    values = np.array(GOLDEN[key][name][index]["values"], np.float64)
    if values.ndim == 2:
        values[point, point] = 0.0
    else:
        values[point] = 0.0
    KEPT[key, name, index] = values.tolist()


# poch(z, 0) = 1 for every z: its second derivative in z is 0 there (JAX: 4.77e-7 in float32)
_exact_zero_at("poch/special|float32", "g2.0", 0, 3)
_exact_zero_at("poch/special|float32", "hess", 0, 3)

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


def skipped(case: Case, args: list[Any], shape: tuple[int, ...], weak: bool) -> np.ndarray:
    """The entries of an elementwise case's result not compared: at the points ``differs``
    lists, and at subnormal inputs (XLA on CPU flushes subnormal operands to zero, so JAX
    differentiates at 0 there: docs/semantics.md)."""
    if not case.elementwise:  # differs: flat positions of the gradient (input-shaped)
        skip = np.zeros(int(np.prod(shape)), bool)
        if case.differs and skip.size == np.asarray(args[0]).size:
            skip[list(case.differs)] = True
        return skip.reshape(shape)
    if not shape and not weak:
        return np.zeros(shape, bool)
    vals = [np.asarray(a, np.float64).reshape(-1) for a in args]
    bad = np.zeros(vals[0].size, bool)
    for v in vals:
        bad |= (v != 0) & (np.abs(v) < float(np.finfo(np.asarray(args[0]).dtype).tiny))
    bad[list(case.differs)] = True
    if weak:
        return np.array(bad[0])
    if len(shape) == 1:
        return bad
    return bad[:, None] | bad[None, :]


def mismatch(
    got: Any, want: dict[str, Any], case: Case, dtype: str, skip: Any = None
) -> str | None:
    """Why a trellax result differs from JAX's recorded one (None when it agrees)."""
    a = np.asarray(got)
    weak = bool(getattr(got, "weak_type", False))
    if case.name in WEAK_DIFFERS:
        weak = want["weak_type"]  # docs/autodiff.md: strong in JAX, weak in trellax
    kind = (str(a.dtype), weak, list(a.shape))
    if kind != (want["dtype"], want["weak_type"], want["shape"]):
        return f"dtype/weak/shape {kind} != {(want['dtype'], want['weak_type'], want['shape'])}"
    g = a.astype(np.float64)
    w = np.asarray(want["values"], np.float64).reshape(g.shape)
    if skip is not None:
        g, w = np.where(skip, 0.0, g), np.where(skip, 0.0, w)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return f"NaN positions: got {g.tolist()} want {w.tolist()}"
    inf_g, inf_w = np.where(np.isinf(g), np.sign(g), 0), np.where(np.isinf(w), np.sign(w), 0)
    if not np.array_equal(inf_g, inf_w):
        return f"inf positions: got {g.tolist()} want {w.tolist()}"
    # XLA on CPU flushes subnormal results to zero (docs/semantics.md); trellax keeps them
    flushed = (w == 0) & (np.abs(g) < float(np.finfo(dtype).tiny))
    g = np.where(flushed, 0.0, g)
    fin = np.isfinite(w)
    d = ulp_distance(g[fin], w[fin], dtype)
    # entries that cancel to (nearly) zero are measured against the array's magnitude (1 when
    # JAX's whole array is zero: a derivative that cancels exactly there, such as logaddexp2's
    # second derivative along (1, 1), leaves a last-bit residue that depends on the host's
    # float32 exp/log kernels)
    scale = np.abs(w[fin]).max(initial=0.0)
    floor = np.abs(g[fin] - w[fin]) / (float(np.finfo(dtype).eps) * (scale if scale > 0 else 1.0))
    worst = float(np.minimum(d, floor).max(initial=0.0))
    if worst > case.ulps:
        return f"{worst:.3g} ulps > {case.ulps}: got {g.tolist()} want {w.tolist()}"
    return None


def _ids(c: Case) -> str:
    return c.name


def compare(
    name: str,
    fn: Callable[..., Any],
    args: list[Any],
    want: Any,
    key: str,
    case: Case,
    d: Derivatives,
) -> list[str]:
    """The differences between one trellax quantity and JAX's record of it."""
    dtype = key.split("|")[1]
    if isinstance(want, dict) and JAX_RAISES.get(case.name) == want["error"]:
        return []  # JAX fails where trellax differentiates (deriv_cases.JAX_RAISES)
    if isinstance(want, dict):  # JAX raised: trellax raises the same class
        expected = ERROR_KEPT.get((key, name), want["error"])
        try:
            got = fn(*args)
        except Exception as e:  # the class is compared
            if type(e).__name__ not in (expected, JIT_ERROR.get(expected)):
                return [f"{name}: raised {type(e).__name__} ({e}), JAX {expected}"]
            return []
        return [f"{name}: JAX raises {expected}, trellax gave {got}"]
    try:
        parts = leaves(fn(*args))
    except Exception as e:
        return [f"{name}: raised {type(e).__name__}: {e}"]
    if len(parts) != len(want):
        return [f"{name}: {len(parts)} results, JAX {len(want)}"]
    out = []
    for p, (got, w) in enumerate(zip(parts, want, strict=True)):
        if (key, name, p) in KEPT:
            w = {**w, "values": KEPT[key, name, p]}
        same_kind = (str(np.asarray(got).dtype), bool(getattr(got, "weak_type", False))) == (
            w["dtype"],
            w["weak_type"],
        )
        if name == "hess" and case.elementwise and len(w["shape"]) == 2 and same_kind:
            # off the diagonal an elementwise Hessian is 0 * f''(x_i): JAX's golden values are
            # jitted, and XLA simplifies that product to 0 even where f'' is NaN or infinite
            # (JAX's eager jacfwd(jacrev) gives NaN there, as trellax does): the diagonal only
            got = np.diagonal(np.asarray(got))
            diagonal = np.diagonal(np.asarray(w["values"])).tolist()
            w = {**w, "values": diagonal, "shape": [len(got)]}
        skip = skipped(case, d.args, tuple(np.shape(got)), name.startswith("weak"))
        for point in JAX_WRONG_AT.get(key, {}).get(name, ()):  # JAX's value is the farther
            skip = np.array(True) if np.ndim(skip) == 0 else skip
            if np.ndim(skip) == 1:
                skip[point] = True
        why = mismatch(got, w, case, dtype, skip)
        if why:
            out.append(f"{name}[{p}]: {why}")
    return out


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_matches_jax(case: Case, dtype: str, request: pytest.FixtureRequest) -> None:
    key = f"{case.name}|{dtype}"
    reason = OPEN.get(key, OPEN.get(case.name))
    if reason is not None:  # a known divergence still to fix: fails once it matches
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    golden = GOLDEN[key]
    failures = []
    with precision(dtype):
        d = Derivatives(trellax, case, namespace(trellax), np.dtype(dtype))
        for name in quantities(case, d.n):
            if name in JAX_WRONG.get(case.name, ()) or name in JAX_WRONG.get(key, ()):
                continue
            fn, args = d.function(name)
            failures += compare(name, fn, args, golden[name], key, case, d)
    assert not failures, "\n".join(failures)


# -- finite differences (float64, ordinary points) -------------------------------------------------


def _close(ad: Any, fd: Any, scale: float) -> bool:
    ad, fd = np.asarray(ad, np.float64), np.asarray(fd, np.float64)
    return bool(np.allclose(ad, fd, rtol=2e-6, atol=2e-7 * max(1.0, scale)))


def _central(fn: Callable[..., Any], args: list[Any], dirs: list[Any], h: Any) -> np.ndarray:
    plus = [trellax.numpy.asarray(a + h * u) for a, u in zip(args, dirs, strict=True)]
    minus = [trellax.numpy.asarray(a - h * u) for a, u in zip(args, dirs, strict=True)]
    return (np.asarray(fn(*plus), np.float64) - np.asarray(fn(*minus), np.float64)) / (2 * h)


FD_CASES = [c for c in ALL if c.fd]


@pytest.mark.parametrize("case", FD_CASES, ids=_ids)
def test_finite_differences(case: Case) -> None:
    with trellax.enable_x64(True):
        d = Derivatives(trellax, case, namespace(trellax), np.dtype("float64"))
        args = [np.asarray(a) for a in d.args]
        n = d.n
        h: Any = 1e-5 * max(1.0, *(float(np.abs(a).max()) for a in args))
        if case.elementwise:  # a step per component, scaled to it (equal shapes)
            h = 1e-5 * np.maximum(1.0, np.max([np.abs(a) for a in args], axis=0))
        zeros = [np.zeros_like(a) for a in args]
        failures = []

        def axis(j: int) -> list[Any]:
            if case.elementwise:  # every component along its own axis at once
                u = [np.ones_like(a) for a in args]
            else:
                u = [pattern(a.shape, a.dtype, 5.0 + k) for k, a in enumerate(args)]
            return [u[k] if k == j else zeros[k] for k in range(n)]

        def check(label: str, ad_fn: Callable[..., Any], lower: Callable[..., Any], j: int) -> None:
            try:
                ad = ad_fn(*d.args)
            except Exception:  # where JAX raises too: test_matches_jax compares the errors
                return
            dirs = axis(j)
            fd = _central(lower, args, dirs, h)
            got = np.asarray(ad, np.float64)
            if not case.elementwise:
                got = np.array((got * dirs[j]).sum())
            scale = float(np.abs(np.asarray(lower(*d.args), np.float64)).max())
            if not _close(got, fd, max(scale, float(np.abs(got).max()))):
                failures.append(f"{label}: ad {got.tolist()} fd {fd.tolist()}")

        lower1 = d.f if case.elementwise else d.s
        for i in range(n):
            check(f"g1.{i}", d.g1(i), lower1, i)
        if case.orders >= 2:
            for i in range(n):
                for j in range(n):
                    lower = d.g1(i) if case.elementwise else d.h1(i)
                    check(f"g2.{i}.{j}", d.g2(i, j), lower, j)
        if case.orders >= 3:
            for i in range(n):
                for k in range(n):
                    lower = d.g2(i, i) if case.elementwise else d.h2(i, i)
                    check(f"g3.{i}.{i}.{k}", d.g3(i, i, k), lower, k)
        for k in range(2, case.orders + 1):
            try:
                ad = np.asarray(d.jvp(k)(*d.args), np.float64)
            except Exception:  # where JAX raises too (golden-checked)
                continue
            fd = _central(d.jvp(k - 1), args, d.v, h)
            if not _close(ad, fd, float(np.abs(ad).max())):
                failures.append(f"jvp{k}: ad {ad.tolist()} fd {fd.tolist()}")
    assert not failures, "\n".join(failures)


# -- coverage ------------------------------------------------------------------------------------


def differentiable_primitives() -> list[str]:
    """trellax's primitives with a JVP rule whose tangent is not identically zero (user
    primitives that other tests define through ``extend.core.Primitive`` are not trellax's)."""
    return sorted(
        name
        for name, p in core.primitives().items()
        if p.jvp_rule is not None
        and name not in ad_util.ZERO_TANGENT
        and not name.startswith("test_only")
        and not isinstance(p, UserPrimitive)
        and getattr(p.jvp_rule, "__module__", "trellax").startswith("trellax")
    )


def test_every_differentiable_primitive_has_a_case() -> None:
    labelled = {c.prim for c in ALL}
    missing = [p for p in differentiable_primitives() if p not in labelled and p not in EXCLUDED]
    assert missing == [], f"differentiable primitives without a case in deriv_cases.py: {missing}"
    stale = [p for p in EXCLUDED if p not in differentiable_primitives() or p in labelled]
    assert stale == [], (
        f"EXCLUDED names a primitive that is not differentiable or has a case: {stale}"
    )


CUSTOM_PUBLIC: list[str] = json.loads(
    (pathlib.Path(__file__).parent / "golden" / "custom_public.json").read_text()
)["functions"]


def test_every_custom_rule_function_has_a_case() -> None:
    """Every public function whose derivative is a custom rule, in JAX
    (``tools/gen_golden_custom_public.py``) or in trellax (found the same way), has cases with
    first to third derivatives at ordinary and special points."""
    ours = custom_rule_functions(trellax)
    assert "nn.relu" in ours and "numpy.logaddexp" in ours  # the search finds what it should
    missing = sorted((set(CUSTOM_PUBLIC) | set(ours)) - set(PUBLIC_FUNCTIONS))
    assert missing == [], f"custom-rule functions without a case in PUBLIC_FUNCTIONS: {missing}"
    by_name = {c.name: c for c in ALL}
    for fn, names in PUBLIC_FUNCTIONS.items():
        cases = [by_name[n] for n in names]  # KeyError: a listed case does not exist
        assert max(c.orders for c in cases) >= 2, f"{fn}: no higher-order case"


def public_surface() -> dict[str, Any]:
    """Every activation of trellax.nn and every public function of trellax.scipy.special."""
    import inspect
    import re

    from trellax._src.nn import activations

    out: dict[str, Any] = {}
    for prefix, module in (("nn", trellax.nn), ("scipy.special", trellax.scipy.special)):
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or inspect.isclass(obj) or inspect.ismodule(obj):
                continue
            if not callable(obj) or re.fullmatch(r"[a-z0-9_]+", name) is None:
                continue
            if prefix == "nn" and obj.__module__ not in (
                activations.__name__,
                "trellax._src.scipy.special",
            ):
                continue  # the Flax-style layers, transforms and partitioning helpers
            out[f"{prefix}.{name}"] = obj
    return out


def test_every_public_function_has_a_case() -> None:
    """Every activation of trellax.nn and every scipy.special function has cases that take its
    derivatives to order two or more, one of them at special points (a ``/special`` case): its
    own, or those of the function it is (``is``) or forwards to (``SURFACE_ALIASES``)."""
    import re

    surface = public_surface()
    assert {"nn.celu", "nn.glu", "scipy.special.gammainc", "scipy.special.poch"} <= set(surface)
    by_name = {c.name: c for c in ALL}

    def cases_of(key: str) -> list[Case]:
        short = key.rsplit(".", 1)[1]
        source = r"\b(jax\.nn|jsp)\." + short + r"\b"
        own = [c for c in ALL if re.search(source, c.fn) and key.split(".")[0] in ("nn", "scipy")]
        if key.startswith("nn."):
            own = [c for c in own if "jax.nn." in c.fn]
        else:
            own = [c for c in own if "jsp." in c.fn]
        return own + [by_name[n] for n in PUBLIC_FUNCTIONS.get(key, ())]

    missing = []
    for key, obj in sorted(surface.items()):
        if key in SURFACE_NOT_DIFFERENTIABLE:
            continue
        targets = [key, SURFACE_ALIASES.get(key, key)]
        targets += [k for k, o in surface.items() if o is obj]
        cases = [c for t in targets for c in cases_of(t)]
        if not any(c.orders >= 2 and c.name.endswith("/special") for c in cases):
            missing.append(key)
    assert missing == [], f"public functions without a higher-order special-point case: {missing}"


PRIMITIVE_CASES = [c for c in CASES if c.prim in set(differentiable_primitives())]


@pytest.mark.parametrize("case", PRIMITIVE_CASES, ids=_ids)
def test_case_runs_its_jvp_rule(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case labelled with a primitive really differentiates it: the primitive's JVP rule runs
    while its derivatives are taken."""
    prim = core.primitives()[case.prim]
    rule = prim.jvp_rule
    assert rule is not None
    calls = []

    def counted(*a: Any, **k: Any) -> Any:
        calls.append(1)
        return rule(*a, **k)

    monkeypatch.setattr(prim, "jvp_rule", counted)
    d = Derivatives(trellax, case, namespace(trellax), np.dtype("float32"))
    for name in quantities(case, d.n):
        if name in ("g1", "jvp1", "jvp2") or name.startswith("g2"):
            fn, args = d.function(name)
            with contextlib.suppress(Exception):  # where JAX raises too (golden-checked)
                fn(*args)
    assert calls, f"the derivatives of {case.name} never run {case.prim}'s JVP rule"


# -- the wrong values this test found, pinned where JAX's own value is not the reference ---------


def _nth(f: Callable[..., Any], n: int) -> Callable[..., Any]:
    for _ in range(n):
        f = trellax.grad(f)
    return f


def test_fixed_values_where_jax_is_not_the_reference() -> None:
    jnp, jsp, lax = trellax.numpy, trellax.scipy.special, trellax.lax
    f32 = np.float32
    # fresnel: the phase pi/2 x**2 is reduced first (was -0.63 and 19741 at x = 1e4)
    assert float(_nth(lambda x: jsp.fresnel(x)[0], 1)(f32(1e4))) == 0.0
    assert float(_nth(lambda x: jsp.fresnel(x)[1], 2)(f32(1e4))) == 0.0
    # dawsn/erfcx: asymptotic series where the closed forms cancel (were 0, -inf, -1989 ...)
    np.testing.assert_allclose(float(_nth(jsp.dawsn, 1)(f32(1e4))), -5e-9, rtol=1e-6)
    assert float(_nth(jsp.dawsn, 2)(f32(3.4e38))) == 0.0
    np.testing.assert_allclose(float(_nth(jsp.erfcx, 1)(f32(1e10))), -5.641896e-21, rtol=1e-6)
    np.testing.assert_allclose(float(_nth(jsp.erfcx, 2)(f32(1e4))), 1.1283792e-12, rtol=1e-5)
    # bessel_i1e near 0: the one-sided limits (were inf and NaN at the smallest normal float)
    tiny = f32(np.finfo(np.float32).tiny)
    assert float(_nth(lax.bessel_i1e, 2)(tiny)) == -1.0
    assert float(_nth(lax.bessel_i1e, 3)(tiny)) == 1.875
    assert float(_nth(lax.bessel_i0e, 3)(tiny)) == -2.5
    # expn(2, x)'''' = -E_0'(x) through n = 0 (was NaN)
    np.testing.assert_allclose(
        float(_nth(lambda x: jsp.expn(2, x), 3)(f32(3.0))), -0.0221276, rtol=1e-5
    )
    # x**0 has a symbolic zero tangent: d(x**0 * x) = 1 at inf in both modes (was NaN)
    inf = f32(np.inf)
    assert float(trellax.grad(lambda x: lax.integer_pow(x, 0) * x)(inf)) == 1.0
    assert float(trellax.jvp(lambda x: lax.integer_pow(x, 0) * x, (inf,), (f32(1),))[1]) == 1.0
    # third derivatives of det under jit (were NaN)
    m = jnp.array([[1.5, 0.2, -0.4], [0.3, 1.1, 0.5], [-0.6, 0.1, 2.0]])
    g3 = _nth(lambda a: (jnp.linalg.det(a) * a).sum(), 1)
    h = trellax.grad(lambda a: (trellax.grad(lambda b: (g3(b) * b).sum())(a) * a).sum())
    np.testing.assert_allclose(np.asarray(trellax.jit(h)(m)), np.asarray(h(m)), rtol=1e-5)
    assert np.isfinite(np.asarray(h(m))).all()
    # log_ndtr below the middle range: reverse mode was NaN at -40 (the masked log(0)) and half
    # the derivative at exactly -10 in float32 (a tie of minimum); JAX: 40.0254 and 10.0981
    np.testing.assert_allclose(float(trellax.grad(jsp.log_ndtr)(f32(-40.0))), 40.025, rtol=1e-4)
    np.testing.assert_allclose(float(trellax.grad(jsp.log_ndtr)(f32(-10.0))), 10.0981, rtol=1e-5)
    # a custom_jvp whose rule calls it, under vmap inside jit: the second derivative used the
    # body's (exp) derivative instead of the rule (was 3, JAX 9)
    x = jnp.array([0.0], f32)

    @trellax.custom_jvp
    def f(y: Any) -> Any:
        return jnp.exp(y)

    f.defjvp(lambda p, t: (f(p[0]), f(p[0]) * t[0] * 3))
    inner = trellax.jit(trellax.vmap(f))
    hess = trellax.grad(lambda y: trellax.grad(lambda z: inner(z).sum())(y).sum())
    assert float(hess(x)[0]) == 9.0
    # the scipy.special integrals of a Python scalar are strong, as JAX's
    for fn in (jsp.expi, jsp.exp1, jsp.dawsn, jsp.erfcx, jsp.spence, lambda x: jsp.fresnel(x)[0]):
        assert not fn(0.5).weak_type


def test_inverse_function_rules_at_the_ends() -> None:
    """erf_inv is differentiated by JAX's rule sqrt(pi)/2 exp(y**2): inf at ±1 with JAX's signs
    of the higher derivatives (was NaN); ndtri by sqrt(2 pi) exp(z**2 / 2): inf at 0 and 1 (was
    NaN; JAX's 0 there is wrong, docs/semantics.md) and finite at 1e-30 (was NaN)."""
    jsp, lax = trellax.scipy.special, trellax.lax
    for dtype in (np.float32, np.float64):
        with precision(np.dtype(dtype).name):
            one = dtype(1.0)
            for fn in (lax.erf_inv, jsp.erfinv):
                assert [float(_nth(fn, k)(one)) for k in (1, 2, 3)] == [np.inf] * 3
                assert [float(_nth(fn, k)(-one)) for k in (1, 2, 3)] == [np.inf, -np.inf, np.inf]
            assert float(_nth(jsp.ndtri, 1)(dtype(0.0))) == np.inf
            assert float(_nth(jsp.ndtri, 1)(one)) == np.inf
            np.testing.assert_allclose(float(_nth(jsp.ndtri, 1)(dtype(1e-30))), 8.658028e28, 1e-5)
            np.testing.assert_allclose(float(_nth(jsp.ndtri, 1)(dtype(0.5))), 2.5066283, 1e-6)


def test_poch_derivatives_against_mpmath() -> None:
    """poch is differentiated through digamma (``d/dm = poch digamma(z + m)``), also at m = 0,
    where the derivative in m was 0 (the ``where`` selecting 1). The references are mpmath's
    ``diff(rf, ...)`` at 50 digits; JAX's values are further off (docs/autodiff.md)."""
    poch = trellax.scipy.special.poch
    with precision("float64"):
        np.testing.assert_allclose(
            float(trellax.grad(poch, 1)(1.5, 0.0)), 0.03648997397857652, rtol=1e-14
        )
        d3 = trellax.grad(trellax.grad(trellax.grad(poch)))
        np.testing.assert_allclose(float(d3(0.5, 2.5)), 1.5902629652620738, rtol=2e-14)
    z, m = np.float32(0.5), np.float32(2.5)
    d3 = trellax.grad(trellax.grad(trellax.grad(poch)))
    np.testing.assert_allclose(float(d3(z, m)), 1.5902629652620738, rtol=1e-6)  # JAX: 1.7e-5 off
    assert float(trellax.grad(trellax.grad(poch))(np.float32(1.5), np.float32(0.0))) == 0.0
    d3m = trellax.grad(trellax.grad(trellax.grad(poch, 1), 1), 1)
    np.testing.assert_allclose(float(d3m(np.float32(1.5), np.float32(0.0))), -0.7264153, rtol=1e-6)
