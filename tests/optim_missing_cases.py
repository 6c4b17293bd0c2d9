"""optax 0.2.8 names ``trellax.optim`` gained in session 14 (``tree.get``/``set``,
``second_order``, ``projections``, the linear algebra helpers, ``multi_normal``, ``ctc_loss``,
``assignment``, ``microbatch``, ...), as expressions of ``o`` (optax or ``trellax.optim``),
``jnp``, ``jax`` (``jax`` or ``trellax``), ``keystr`` and the inputs of :func:`inputs`.

Shared by ``tools/gen_golden_optim_missing.py`` (run with optax) and
``tests/test_optim_missing.py``. A value is compared leaf by leaf (dtype, shape, values within the
case's relative tolerance, ``RTOL``; 0 means bit for bit); an expression that raises records the
error's class.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: an optimizer state with several fields named ``count`` (an injected Adam after a decay)
STATE = (
    "o.chain(o.add_decayed_weights(0.1), o.inject_hyperparams(o.adam)(learning_rate=0.1))"
    ".init({'a': x[0, :2], 'count': x[1, :1]})"
)


def _paths(expr: str) -> str:
    return f"[(keystr(p), v) for p, v in {expr}]"


CASES: dict[str, str] = {
    # optax.tree lookups
    "tree_get_all_count": _paths(f"o.tree.get_all_with_path({STATE}, 'count')"),
    "tree_get_all_lr": _paths(f"o.tree.get_all_with_path({STATE}, 'learning_rate')"),
    "tree_get_all_class": _paths(f"o.tree.get_all_with_path({STATE}, 'ScaleByAdamState')"),
    "tree_get_all_mu": _paths(f"o.tree.get_all_with_path({STATE}, 'mu')"),
    "tree_get_all_nested": _paths("o.tree.get_all_with_path({'x': {'x': x[0, 0]}}, 'x')"),
    "tree_get_all_order": _paths(
        "o.tree.get_all_with_path({'a': {'count': x[0, 0]}, 'b': [{'count': x[0, 1]}], "
        "'count': x[0, 2]}, 'count')"
    ),
    "tree_get_all_none": _paths("o.tree.get_all_with_path({'a': None, 'b': (None,)}, 'a')"),
    "tree_get_all_index": _paths("o.tree.get_all_with_path((x[0, 0], x[0, 1]), 0)"),
    "tree_get_all_filtered": _paths(
        f"o.tree.get_all_with_path({STATE}, 'count', "
        "lambda p, v: isinstance(p[-1], o.tree_utils.NamedTupleKey) "
        "and p[-1].tuple_name == 'ScaleByAdamState')"
    ),
    "tree_get_lr": f"o.tree.get({STATE}, 'learning_rate')",
    "tree_get_default": f"o.tree.get({STATE}, 'nope', 'absent')",
    "tree_get_multiple": f"o.tree.get({STATE}, 'count')",
    "tree_get_filtered": f"o.tree.get({STATE}, 'count', None, "
    "lambda p, v: keystr(p).endswith('ScaleByAdamState.count'))",
    "tree_set_lr": f"o.tree.set({STATE}, learning_rate=jnp.asarray(3.0))",
    "tree_set_class": f"o.tree.set({STATE}, ScaleByAdamState=jnp.asarray(1.0))",
    "tree_set_missing": f"o.tree.set({STATE}, nope=1.0)",
    "tree_set_subtree": "o.tree.set({'x': {'y': x[0, 0], 'z': x[0, 1]}, 'w': x[0, 2]}, x=x[1, 1])",
    "tree_set_filtered_missing": f"o.tree.set({STATE}, lambda p, v: False, count=1.0)",
    "tree_utils_get": f"o.tree_utils.tree_get({STATE}, 'eps')",
    "tree_utils_set": f"o.tree_utils.tree_set({STATE}, eps=jnp.asarray(0.5))",
    "tree_map_params": "o.tree.map_params(o.adam(1e-2), lambda p: p + 1, "
    "o.adam(1e-2).init({'a': x}), transform_non_params=lambda v: v - 1)",
    "named_tuple_key": "str(o.tree_utils.NamedTupleKey('A', 'b'))",
}

#: relative tolerance per case (the default is bit for bit)
RTOL: dict[str, float] = {}


def inputs() -> dict[str, Any]:
    """The arrays the expressions use (NumPy; converted with ``jnp.asarray``)."""
    rng = np.random.default_rng(14)
    return {
        "x": rng.normal(size=(4, 5)).astype(np.float32),
        "y": rng.normal(size=(4, 5)).astype(np.float32),
        "S": (lambda a: (a @ a.T + 5 * np.eye(5)).astype(np.float32))(rng.normal(size=(5, 5))),
    }


def record(value: Any, leaves_of: Any, treedef_of: Any) -> dict[str, Any]:
    """A JSON record of a value: its tree structure's text and its leaves (dtype, shape,
    float64 values); strings and other non-array leaves by ``repr``."""
    out = []
    for leaf in leaves_of(value):
        if isinstance(leaf, str):
            out.append(["str", [], leaf])
            continue
        a = np.asarray(leaf)
        kind = "weak" if getattr(leaf, "weak_type", False) else ""
        if isinstance(leaf, (bool, int, float)):
            kind = type(leaf).__name__
        out.append(
            [
                str(a.dtype) + (f"|{kind}" if kind else ""),
                list(a.shape),
                np.asarray(a, np.float64).ravel().tolist(),
            ]
        )
    return {"tree": str(treedef_of(value)), "leaves": out}
