"""The third edge sweep (issue 24, section 4, second part): ``lax``, ``nn`` (activations and
``nn.initializers``), ``random`` samplers, ``scipy.special`` and ``scipy.stats`` on what the
first sweep (``tests/edge_sweep_cases.py``) leaves out: dtype extremes (int8, uint8, bool,
float16, bfloat16 arrays holding -0.0, +-inf, NaN and the largest finite value), mismatched
dtypes where ``lax`` is strict, out-of-range ``axis``/``dimension`` keywords, and sampler or
initializer shapes that are 0-d, empty, negative or of a dtype they cannot make.

The cases are recorded into ``tests/golden/edge_public.json`` under the namespaces of
:data:`NAMESPACES` by ``tools/gen_golden_edge_public.py`` and replayed by
``tests/test_edge_public.py``; this module only adds inputs, modules and case lists to those of
``tests/edge_public_cases.py``.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from edge_sweep_cases import _DIST, AUTO_SKIP, arity, public

#: the dtype-extreme inputs, evaluated with ``jnp`` bound (``u8``, ``xv`` come from
#: ``tests/edge_public_cases.py``)
DTYPE_INPUTS = {
    "i8": "jnp.array([-128, -1, 0, 127], jnp.int8)",
    "bl": "jnp.array([True, False])",
    "h": "jnp.array([-0.0, 0.5, -2.5, 65504, jnp.inf, jnp.nan], jnp.float16)",
    "bf": "jnp.array([-0.0, 0.5, -2.5, 3.0e38, -jnp.inf, jnp.nan], jnp.bfloat16)",
    "nz": "jnp.array(-0.0, jnp.float32)",
    "hs": "jnp.array(1.5, jnp.float16)",
}

#: short name -> module path under ``jax``/``trellax``
MODULES = {
    "lax": "lax",
    "nn": "nn",
    "init": "nn.initializers",
    "sp": "scipy.special",
    "st": "scipy.stats",
}

#: the namespaces this sweep adds to ``tests/golden/edge_public.json``
NAMESPACES = ["lax_dtypes", "nn_dtypes", "initializers", "random_shapes", "special_dtypes",
              "stats_dtypes"]  # fmt: skip

#: dtype-extreme argument tuples by arity
ARGS: dict[int, list[tuple[str, ...]]] = {
    1: [("i8",), ("u8",), ("bl",), ("h",), ("bf",), ("xv",), ("nz",), ("hs",)],
    2: [("h", "h"), ("bf", "bf"), ("i8", "i8"), ("u8", "u8"), ("bl", "bl"), ("xv", "xv"),
        ("s", "i"), ("h", "s"), ("i8", "u8"), ("xv", "s"), ("nz", "xv")],
    3: [("h", "h", "h"), ("bf", "bf", "bf"), ("xv", "xv", "xv"), ("i8", "i8", "i8"),
        ("bl", "s", "s"), ("s", "i", "s")],
}  # fmt: skip

#: ``lax`` keywords naming axes, swept with out-of-range values
AXIS_NAMES = ("axis", "dimension", "axes", "dimensions")

#: values of the required arguments of the samplers, by parameter name
SAMPLER_ARGS = {
    "a": "2.0", "b": "3.0", "p": "0.5", "lam": "3.0", "df": "4.0", "dfnum": "3.0",
    "dfden": "5.0", "mean": "1.0", "scale": "1.0", "concentration": "2.0", "loc": "0.0",
    "left": "0.0", "mode": "0.5", "right": "1.0", "lower": "-1.0", "upper": "1.0", "n": "3",
    "d": "2", "alpha": "jnp.ones(3)", "logits": "v", "minval": "0", "maxval": "10",
    "sigma": "1.0",
}  # fmt: skip

#: samplers whose array arguments are not those of :data:`SAMPLER_ARGS`, or that take no shape
SAMPLER_SKIP = {"permutation", "multivariate_normal", "multinomial", "split", "fold_in"}

#: calls left out: JAX had not returned after 2 minutes (``expn`` at n = 65504, ``hyp2f1``
#: of ``xv``; ``hyp2f1`` of ``h`` holds the same points and is left out untried;
#: ``tools/gen_golden_edge_public.py`` stops on such a call)
CASE_SKIP = {"sp.expn(h, h)", "sp.expn(bf, bf)", "sp.expn(xv, xv)", "sp.expn(xv, s)",
             "sp.expn(h, s)", "sp.hyp2f1(xv, xv, xv, xv)", "sp.hyp2f1(h, h, h, h)"}  # fmt: skip

SHAPES = ["()", "(0,)", "(2, 0)", "(-1,)", "(3,)"]
DTYPES = ["jnp.float16", "jnp.bfloat16", "jnp.int32", "jnp.uint8", "bool", "jnp.complex64"]

#: initializer factories and the arguments they need
INIT_ARGS = {"constant": "2.0", "variance_scaling": "1.0, 'fan_in', 'normal'"}
INIT_SHAPES = ["()", "(0,)", "(3,)", "(2, 3)", "(0, 3)", "(2, 0)", "(-1, 2)", "(2, 3, 4)"]


def dtype_environment(top: ModuleType, env: dict[str, Any]) -> None:
    """Adds this sweep's modules and inputs to ``env`` (``top`` is ``jax`` or ``trellax``)."""
    for short, path in MODULES.items():
        env[short] = importlib.import_module(f"{top.__name__}.{path}")
    for tag, expr in DTYPE_INPUTS.items():
        env[tag] = eval(expr, env)


def _auto(short: str, mod: Any, skip: set[str]) -> list[str]:
    out = []
    for name in public(mod):
        if name in skip:
            continue
        k = arity(getattr(mod, name))
        sets = ARGS.get(k, [("xv",) * k, ("h",) * k])
        out += [f"{short}.{name}({', '.join(a)})" for a in sets]
    return out


def lax_cases(lax: Any) -> list[str]:
    """Every ``lax`` function on the dtype-extreme inputs, mismatched dtypes included, then
    with an out-of-range value of each axis keyword it has."""
    skip = AUTO_SKIP["lax"]
    out = _auto("lax", lax, skip)
    for name in public(lax):
        if name in skip:
            continue
        fn = getattr(lax, name)
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            continue
        k = arity(fn)
        first = ", ".join(("t",) + ("v",) * (k - 1))
        for p in AXIS_NAMES:
            if p in params and list(params).index(p) >= k:
                value = "(5,)" if p in ("axes", "dimensions") else "5"
                out += [f"lax.{name}({first}, {p}={value})", f"lax.{name}({first}, {p}=-5)"]
    return out


def sampler_cases(random: Any) -> list[str]:
    """Every sampler with a ``shape`` at 0-d, empty, negative and small shapes, then (at shape
    ``(2,)``) with each dtype of :data:`DTYPES`."""
    out = []
    for name in public(random):
        if name in SAMPLER_SKIP or name in AUTO_SKIP["random"]:
            continue
        try:
            params = list(inspect.signature(getattr(random, name)).parameters.values())
        except (TypeError, ValueError):
            continue
        names = [p.name for p in params]
        if "shape" not in names:
            continue
        at = names.index("shape")
        need = [p for p in params[1:] if p.default is inspect.Parameter.empty and p.name != "shape"]
        head = f"random.{name}(K, " + "".join(
            f"{SAMPLER_ARGS[p.name]}, " for p in need if names.index(p.name) < at
        )
        tail = "".join(
            f", {p.name}={SAMPLER_ARGS[p.name]}" for p in need if names.index(p.name) > at
        )
        out += [f"{head}shape={s}{tail})" for s in SHAPES]
        if "dtype" in names:
            out += [f"{head}shape=(2,){tail}, dtype={d})" for d in DTYPES]
    return out


def initializer_cases(init: Any) -> list[str]:
    """Every initializer factory, applied at each shape of :data:`INIT_SHAPES` and, at
    ``(2, 3)``, with each dtype of :data:`DTYPES`."""
    out = []
    for name in public(init):
        if name in ("Initializer",) or name.endswith("_init"):
            continue
        made = f"init.{name}({INIT_ARGS.get(name, '')})"
        out += [f"{made}(K, {s})" for s in INIT_SHAPES]
        out += [f"{made}(K, (2, 3), {d})" for d in DTYPES]
    return out


def stats_cases(st: Any) -> list[str]:
    """The functions of ``scipy.stats`` and each method of its distributions on the
    dtype-extreme inputs (every argument the same input)."""
    out = _auto("st", st, set())
    for dist in sorted(n for n in dir(st) if not n.startswith("_")):
        mod = getattr(st, dist)
        if not isinstance(mod, ModuleType) or dist in ("multivariate_normal", "dirichlet"):
            continue
        for f in _DIST:
            if hasattr(mod, f):
                k = arity(getattr(mod, f))
                out += [f"st.{dist}.{f}({', '.join((x,) * k)})" for (x,) in ARGS[1]]
    return out


def dtype_cases(env: dict[str, Any]) -> dict[str, list[str]]:
    """Every case of this sweep, by namespace (``env`` from ``public_environment``)."""
    out = {
        "lax_dtypes": lax_cases(env["lax"]),
        "nn_dtypes": _auto("nn", env["nn"], AUTO_SKIP["nn"]),
        "initializers": initializer_cases(env["init"]),
        "random_shapes": sampler_cases(env["random"]),
        "special_dtypes": _auto("sp", env["sp"], set()),
        "stats_dtypes": stats_cases(env["st"]),
    }
    return {
        ns: [c for c in dict.fromkeys(cases) if c not in CASE_SKIP] for ns, cases in out.items()
    }
