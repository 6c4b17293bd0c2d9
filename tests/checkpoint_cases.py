"""Cases of ``checkpoint``/``remat`` measured against JAX (``tools/gen_golden_checkpoint.py``
writes ``tests/golden/checkpoint.json``; ``tests/test_checkpoint_golden.py`` compares).

Each case is the source of a function ``f`` of one array, written against a module ``jax``
(bound to JAX or to trellax), with ``jnp``, ``lax``, ``cp`` (the checkpoint policies),
``name`` (``checkpoint_name``) and ``partial`` in scope, and the point it is evaluated at. For
each case both sides record: the value, the gradient of its sum, the gradient of that gradient's
sum (grad-of-grad through the checkpoint), how many ``sin``/``cos``/``dot_general`` equations
the linear function holds (``jax.linearize``: what the backward pass recomputes) and the
transposed one (``jax.vjp``), and how many residuals ``print_saved_residuals`` prints.
"""

from __future__ import annotations

import contextlib
import io
from functools import partial
from typing import Any

import numpy as np

#: ``name: (source of f, shape of the point)``; the point is ``0.3 + 0.1 * arange`` reshaped.
CASES: dict[str, tuple[str, tuple[int, ...]]] = {}


def _chain(policy: str) -> str:
    return (
        f"jax.checkpoint(lambda x: jnp.sin(jnp.sin(name(jnp.dot(x, x), 'a')) @ x), policy={policy})"
    )


_POLICIES = {
    "none": "None",
    "everything": "cp.everything_saveable",
    "nothing": "cp.nothing_saveable",
    "dots": "cp.dots_saveable",
    "checkpoint_dots": "cp.checkpoint_dots",
    "dots_no_batch": "cp.dots_with_no_batch_dims_saveable",
    "only_a": "cp.save_only_these_names('a')",
    "only_b": "cp.save_only_these_names('b')",
    "names_but_a": "cp.save_any_names_but_these('a')",
    "except_a": "cp.save_anything_except_these_names('a')",
    "both": "cp.save_from_both_policies(cp.save_only_these_names('a'), cp.dots_saveable)",
    "offload_dots": "cp.offload_dot_with_no_batch_dims('device', 'pinned_host')",
    "offload_a": (
        "cp.save_and_offload_only_these_names(names_which_can_be_saved=[], "
        "names_which_can_be_offloaded=['a'], offload_src='device', offload_dst='pinned_host')"
    ),
    "save_cos": "lambda prim, *_, **__: str(prim) == 'cos'",
    "save_sin": "lambda prim, *_, **__: str(prim) == 'sin'",
}
for _k, _p in _POLICIES.items():
    CASES[f"policy/{_k}"] = (_chain(_p), (3, 3))

_SIN2 = "lambda c: jnp.sin(jnp.sin(c))"
CASES.update(
    {
        "basic": (f"jax.checkpoint({_SIN2})", (3,)),
        "remat_alias": (f"jax.remat({_SIN2})", (3,)),
        "nested": (
            "jax.checkpoint(lambda x: jnp.cos(jax.checkpoint(lambda y: jnp.sin(jnp.sin(y)))(x)))",
            (3,),
        ),
        "nested_policy": (
            "jax.checkpoint(lambda x: jnp.cos(jax.checkpoint(lambda y: jnp.sin(jnp.sin(y)), "
            "policy=lambda p, *_, **__: str(p) == 'sin')(x)))",
            (3,),
        ),
        "in_scan": (
            f"lambda x: lax.scan(lambda c, _: (jax.checkpoint({_SIN2})(c), None), x, None, "
            "length=3)[0]",
            (3,),
        ),
        "scan_in_remat": (
            "jax.checkpoint(lambda x: lax.scan(lambda c, _: (jnp.sin(c), jnp.cos(c)), x, None, "
            "length=3)[1].sum(0))",
            (3,),
        ),
        "scan_in_remat_save_cos": (
            "jax.checkpoint(lambda x: lax.scan(lambda c, _: (jnp.sin(c), jnp.sin(c)), x, None, "
            "length=3)[0], policy=lambda p, *_, **__: str(p) == 'cos')",
            (3,),
        ),
        "cond_in_remat": (
            "jax.checkpoint(lambda x: lax.cond(x.sum() > 0, lambda c: jnp.sin(jnp.sin(c)), "
            "lambda c: c, x))",
            (3,),
        ),
        "cond_in_remat_dots": (
            "jax.checkpoint(lambda x: lax.cond(x.sum() > 0, lambda c: jnp.sin(c @ c) @ c, "
            "lambda c: c, x), policy=cp.dots_saveable)",
            (3, 3),
        ),
        "in_cond": (
            f"lambda x: lax.cond(x.sum() > 0, jax.checkpoint({_SIN2}), lambda c: c, x)",
            (3,),
        ),
        "fori_in_remat": (
            "jax.checkpoint(lambda x: lax.fori_loop(0, 3, lambda i, c: jnp.sin(c), x))",
            (3,),
        ),
        "in_fori": (
            f"lambda x: lax.fori_loop(0, 3, lambda i, c: jax.checkpoint({_SIN2})(c), x)",
            (3,),
        ),
        "jit_in_remat": (
            "jax.checkpoint(lambda x: jnp.sin(jax.jit(lambda y: jnp.sin(y) * y)(x)), "
            "policy=lambda p, *_, **__: str(p) == 'sin')",
            (3,),
        ),
        "remat_of_jit": (f"jax.checkpoint(jax.jit({_SIN2}))", (3,)),
        "static_argnums": (
            "lambda x: jax.checkpoint(lambda y, n: jnp.sin(y) ** n, static_argnums=(1,))(x, 3)",
            (3,),
        ),
        "prevent_cse_false": (f"jax.checkpoint({_SIN2}, prevent_cse=False)", (3,)),
    }
)

#: Where trellax's counts differ from JAX's on purpose of simplicity, with the reason; the test
#: checks trellax's own numbers. ``nested``: the inner checkpoint's primal result, which the
#: outer linear part reads, is recomputed beside the inner ``remat2[differentiated=True]``
#: equation (JAX has that equation return it), so the linear function holds one ``sin`` more;
#: the transposed function (what ``grad`` runs) holds the same equations as JAX's.
KNOWN_DIFFERENCES: dict[str, dict[str, list[int]]] = {"nested": {"linear": [4, 2, 0]}}

#: Cases whose reverse mode goes through ``while_loop`` (JAX linearizes but cannot transpose).
LINEARIZE_ONLY = {"while_in_remat"}
CASES["while_in_remat"] = (
    "jax.checkpoint(lambda x: lax.while_loop(lambda c: c[0] < 3, "
    "lambda c: (c[0] + 1, jnp.sin(c[1])), (0, x))[1])",
    (3,),
)


def point(shape: tuple[int, ...]) -> Any:
    """The point a case is evaluated at (float32)."""
    size = 1
    for d in shape:
        size *= d
    return (0.3 + 0.1 * np.arange(size, dtype=np.float32)).reshape(shape)


def build(source: str, jax: Any) -> Any:
    """The case's function, with ``jax`` (JAX or trellax) and its names in scope."""
    scope = {
        "jax": jax,
        "jnp": jax.numpy,
        "lax": jax.lax,
        "cp": jax.checkpoint_policies,
        "name": jax.ad_checkpoint.checkpoint_name,
        "partial": partial,
    }
    return eval(source, scope)


def measure(f: Any, x: Any, jax: Any, linearize_only: bool) -> dict[str, Any]:
    """What a case records (see the module doc)."""

    def counts(text: str) -> list[int]:
        return [text.count(" sin "), text.count(" cos "), text.count(" dot_general")]

    out: dict[str, Any] = {"value": np.asarray(f(x), np.float64).tolist()}
    _, f_lin = jax.linearize(f, x)
    out["linear"] = counts(str(jax.make_jaxpr(f_lin)(x)))
    if linearize_only:
        out["tangent"] = np.asarray(f_lin(jax.numpy.ones_like(x)), np.float64).tolist()
        return out
    loss = lambda v: f(v).sum()  # noqa: E731
    out["grad"] = np.asarray(jax.grad(loss)(x), np.float64).tolist()
    try:  # JAX 0.10.2 raises for the offloading policies (host memory kinds of cotangents)
        gg = jax.grad(lambda v: jax.grad(loss)(v).sum())(x)
        out["grad_grad"] = np.asarray(gg, np.float64).tolist()
    except ValueError as e:
        out["grad_grad"] = {"error": type(e).__name__}
    y, f_vjp = jax.vjp(f, x)
    out["transposed"] = counts(str(jax.make_jaxpr(f_vjp)(y)))
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        jax.ad_checkpoint.print_saved_residuals(f, x)
    out["residuals"] = len(text.getvalue().splitlines())
    return out
