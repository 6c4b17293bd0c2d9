"""L-BFGS and the linesearches run the way optax documents them: each round
``value, grad = value_and_grad_from_state(f)(params, state=state)`` then
``update(grad, state, params, value=value, grad=grad, value_fn=f)``, ``STEPS`` rounds, on two
objectives (``quad``: a convex quadratic of a 6-vector split in two leaves, through ``dot``;
``rosen``: Rosenbrock's function of two scalar leaves plus a quartic third) in float32,
bfloat16 and float16.

Shared by ``tools/gen_golden_optim_linesearch.py`` (run with optax) and
``tests/test_optim_linesearch.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from optim_cases import bits, layout

STEPS = 8
DTYPES = ("float32", "bfloat16", "float16")

#: (optimizer expression of ``o``, whether the state stores the gradient: ``False`` takes
#: ``value_and_grad`` each round as a backtracking search without ``store_grad`` needs)
CASES: dict[str, tuple[str, bool]] = {
    "lbfgs": ("o.lbfgs()", True),
    "lbfgs_small": ("o.lbfgs(memory_size=3, scale_init_precond=False)", True),
    "lbfgs_lr": ("o.lbfgs(learning_rate=0.3, linesearch=None)", False),
    "lbfgs_backtracking": (
        "o.lbfgs(linesearch=o.scale_by_backtracking_linesearch(15, store_grad=True))",
        True,
    ),
    "backtracking": (
        "o.chain(o.sgd(1.0), o.scale_by_backtracking_linesearch(15, store_grad=True))",
        True,
    ),
    "backtracking_plain": (
        "o.chain(o.sgd(1.0), o.scale_by_backtracking_linesearch(20, decrease_factor=0.5, "
        "increase_factor=2.0, max_learning_rate=4.0, slope_rtol=0.3))",
        False,
    ),
    "zoom": ("o.chain(o.sgd(1.0), o.scale_by_zoom_linesearch(15))", True),
    "zoom_options": (
        "o.chain(o.sgd(1.0), o.scale_by_zoom_linesearch(6, max_learning_rate=0.05, "
        "approx_dec_rtol=None, initial_guess_strategy='one', curv_rtol=0.5))",
        True,
    ),
    "zoom_lbfgs": (
        "o.chain(o.scale_by_lbfgs(memory_size=4), o.scale(-1.0), "
        "o.scale_by_zoom_linesearch(10, increase_factor=3.0))",
        True,
    ),
}


def objectives(jnp: Any, lax: Any, dtype: str) -> dict[str, tuple[Callable[..., Any], Any]]:
    """name -> (objective, initial parameters) in ``dtype``."""
    rng = np.random.default_rng(0)
    m = rng.standard_normal((6, 6))
    a = jnp.asarray((m @ m.T / 6 + np.diag(np.linspace(0.1, 3.0, 6))).astype(np.float32), dtype)
    b = jnp.asarray(rng.standard_normal(6).astype(np.float32), dtype)

    def quad(p: Any) -> Any:
        w = jnp.concatenate([p["w"], p["b"]])
        hw = jnp.dot(a, w, precision=lax.Precision.HIGHEST)
        return 0.5 * jnp.dot(w, hw, precision=lax.Precision.HIGHEST) - jnp.dot(
            b, w, precision=lax.Precision.HIGHEST
        )

    def rosen(p: Any) -> Any:
        x, y, z = p["x"], p["y"], p["z"]
        return (1 - x) ** 2 + 10 * (y - x**2) ** 2 + z**4

    return {
        "quad": (quad, {"w": jnp.asarray(np.linspace(-1.2, 1.0, 4), dtype),
                        "b": jnp.asarray([1.0, -2.0], dtype)}),
        "rosen": (rosen, {"x": jnp.asarray(-1.2, dtype), "y": jnp.asarray(1.0, dtype),
                          "z": jnp.asarray(0.7, dtype)}),
    }  # fmt: skip


def run(
    o: Any, jnp: Any, lax: Any, api: Any, leaves: Any, key: str, jit: Any = None
) -> dict[str, Any]:
    """``key`` = ``case|objective|dtype`` run ``STEPS`` rounds: the state's layout, the
    dtypes and weak flags of the updates and state leaves after round 1, and the bits of the
    parameters and state leaves after each round; or the error class it raises. ``jit``
    compiles the update (the generator's ``jax.jit``: eager optax compiles each round's search
    loop anew, which took a minute a case)."""
    case, objective, dtype = key.split("|")
    expr, stored = CASES[case]
    f, params = objectives(jnp, lax, dtype)[objective]
    try:
        opt = eval(expr, {"o": o})
        state = opt.init(params)
        from_state = o.value_and_grad_from_state(f)

        def update(g: Any, s: Any, p: Any, v: Any) -> Any:
            return opt.update(g, s, p, value=v, grad=g, value_fn=f)

        step_fn = update if jit is None else jit(update)
        out: dict[str, Any] = {"params": [], "state": []}
        for step in range(STEPS):
            value, grad = (
                from_state(params, state=state) if stored else api.value_and_grad(f)(params)
            )
            updates, state = step_fn(grad, state, params, value)
            params = o.apply_updates(params, updates)
            if step == 0:
                out["layout"] = layout(state)
                out["kinds"] = [
                    [str(x.dtype), bool(getattr(x, "weak_type", False))]
                    for x in leaves((updates, state))
                ]
            out["params"].append([bits(x) for x in leaves(params)])
            out["state"].append([bits(x) for x in leaves(state)])
        return out
    except Exception as e:  # the error class is the golden value
        return {"error": type(e).__name__}


KEYS = [f"{c}|{f}|{d}" for c in CASES for f in ("quad", "rosen") for d in DTYPES]
