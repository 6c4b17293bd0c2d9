"""The second edge sweep (issue 24, section 4): every public callable the first sweep
(``tests/edge_sweep_cases.py``) leaves out, that is ``numpy`` itself, ``scipy.ndimage``,
``scipy.fft``, ``tree_util`` and the array methods, on empty, 0-d, wrong-rank and
dtype-extreme inputs (uint8, complex64, bool, NaN, +-inf, -0.0) and with out-of-range axes,
positional and keyword.

Cases are built from JAX's signatures by ``tools/gen_golden_edge_public.py``, which records
JAX 0.10.2's outcome into ``tests/golden/edge_public.json``; ``tests/test_edge_public.py``
replays the recorded expressions in trellax with the comparison of ``tests/test_edge_sweep.py``.
"""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType
from typing import Any

from edge_dtype_cases import dtype_cases, dtype_environment
from edge_sweep_cases import arity, environment, public

#: inputs beyond those of the first sweep, evaluated with ``jnp`` bound
MORE_INPUTS = {
    "t": "jnp.arange(24, dtype=jnp.float32).reshape(2, 3, 4) / 8 - 1",
    "u8": "jnp.array([0, 1, 255], jnp.uint8)",
    "cv": "jnp.array([1 + 2j, -0.5j, 3], jnp.complex64)",
    "xv": "jnp.array([jnp.nan, jnp.inf, -jnp.inf, -0.0], jnp.float32)",
    "ce": "jnp.zeros((0,), jnp.complex64)",
    "im": "jnp.array([[1, -2], [3, 2147483647]], jnp.int32)",
}

#: namespace name in the golden file -> module path under ``jax``/``trellax``
NAMESPACES = {
    "numpy": "numpy",
    "ndimage": "scipy.ndimage",
    "scipy_fft": "scipy.fft",
    "tree_util": "tree_util",
}

SHORT = {"numpy": "jnp", "ndimage": "nd", "scipy_fft": "sfft", "tree_util": "tu"}

#: argument tuples (input names) by arity
ARGS: dict[int, list[tuple[str, ...]]] = {
    1: [("s",), ("b",), ("e",), ("e2",), ("t",), ("u8",), ("xv",), ("cv",)],
    2: [("s", "s"), ("e", "e"), ("e2", "e3"), ("t", "v"), ("u8", "u8"), ("xv", "xv"),
        ("cv", "cv")],
    3: [("s", "s", "s"), ("e", "e", "e"), ("t", "v", "s")],
}  # fmt: skip

#: the functions left out: they take callables or files, print, or build from Python objects
SKIP = {
    "numpy": {
        "apply_along_axis", "apply_over_axes", "frompyfunc", "fromfunction", "piecewise",
        "vectorize", "load", "save", "savez", "printoptions", "set_printoptions",
        "get_printoptions", "fromfile", "fromiter", "frombuffer", "fromstring", "from_dlpack",
        "einsum_path", "isdtype", "issubdtype", "promote_types", "result_type", "can_cast",
        "array_repr", "array_str", "dtype", "iinfo", "finfo",
    },
    "tree_util": {"register_pytree_node", "register_pytree_with_keys", "register_static",
                  "register_dataclass", "register_pytree_node_class",
                  "register_pytree_with_keys_class", "Partial", "default_registry"},
}  # fmt: skip

#: the array methods swept (those of JAX's array that take arrays or axes)
METHODS = [
    "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "choose", "clip",
    "compress", "conj", "conjugate", "cumprod", "cumsum", "diagonal", "dot", "flatten", "item",
    "max", "mean", "min", "nonzero", "prod", "ptp", "ravel", "repeat", "reshape", "round",
    "searchsorted", "sort", "squeeze", "std", "sum", "swapaxes", "take", "tolist", "trace",
    "transpose", "var", "view",
]  # fmt: skip

#: receivers of the method sweep
RECEIVERS = ["s", "i", "b", "e", "e2", "t", "u8", "xv", "cv"]


def public_environment(top: ModuleType) -> dict[str, Any]:
    """The names the expressions use (``top`` is ``jax`` or ``trellax``): those of the first
    sweep's :func:`environment` for the numpy module, plus this sweep's namespaces and inputs
    and those of ``tests/edge_dtype_cases.py``."""
    mods = {n: importlib.import_module(f"{top.__name__}.{p}") for n, p in NAMESPACES.items()}
    env = environment(top, {"random": top.random}, None)
    env.update({SHORT[n]: mod for n, mod in mods.items()})
    for tag, expr in MORE_INPUTS.items():
        env[tag] = eval(expr, env)
    dtype_environment(top, env)  # the third sweep's (tests/edge_dtype_cases.py)
    return env


def _axis_param(fn: Any) -> tuple[bool, int | None]:
    """Whether ``fn`` takes ``axis`` and its positional index (``None`` when keyword only)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False, None
    for k, p in enumerate(params):
        if p.name == "axis":
            positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            return True, k if positional else None
    return False, None


def _axis_cases(call: str, fn: Any, k: int) -> list[str]:
    """Out-of-range and edge ``axis`` arguments of a function of ``k`` required arguments."""
    has, pos = _axis_param(fn)
    if not has:
        return []
    first = ("t",) + ("v",) * (k - 1)
    out = [f"{call}({', '.join(first)}, axis={a})" for a in (5, -5)]
    out += [f"{call}(e, axis=0)", f"{call}(s, axis=0)"] if k == 1 else []
    if pos == k:
        out.append(f"{call}({', '.join(first)}, 5)")
    return out


def auto_cases(ns: str, mod: Any) -> list[str]:
    """Calls of every public function of ``mod`` on the :data:`ARGS` of its arity and with
    out-of-range axes."""
    short = SHORT[ns]
    out = []
    for name in public(mod):
        if name in SKIP.get(ns, ()):
            continue
        fn = getattr(mod, name)
        k = min(getattr(fn, "nin", 0) or arity(fn), 3)
        call = f"{short}.{name}"
        out += [f"{call}({', '.join(a)})" for a in ARGS[k]]
        out += _axis_cases(call, fn, k)
    return out


def method_cases() -> list[str]:
    """Every method of :data:`METHODS` on every receiver, then with out-of-range axes."""
    out = []
    for m in METHODS:
        out += [f"{x}.{m}()" for x in RECEIVERS]
        out += [f"t.{m}(axis={a})" for a in (5, -5, 2)] + [f"e.{m}(axis=0)", f"s.{m}(axis=0)"]
    return out


def all_cases(top: ModuleType) -> dict[str, list[str]]:
    """Every case, by namespace (``top`` is ``jax``; the lists come from JAX's signatures)."""
    env = public_environment(top)
    out = {ns: list(dict.fromkeys(auto_cases(ns, env[SHORT[ns]]))) for ns in NAMESPACES}
    out["methods"] = method_cases()
    out.update(dtype_cases(env))
    return out
