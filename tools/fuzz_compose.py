"""Random programs under composed transformations (``tests/test_fuzz_compose.py``).

The bodies are those of ``tools/fuzz_programs.py`` (random compositions of ``jnp`` functions over
inputs of every dtype with special values); what differs is the transformation wrapped around
them. Here it is a *composition*: derivatives of derivatives (``hessian``, forward over reverse,
``jacfwd``/``jacrev`` of non-scalar bodies, a ``custom_jvp`` whose rule is the body's own ``jvp``,
differentiated twice), derivatives inside ``vmap`` and ``vmap`` inside ``jit``, and the body run
inside control flow (``lax.cond`` with the flipped body as the other branch, ``lax.scan`` over
the first input's leading axis, ``lax.fori_loop``, ``checkpoint``), alone and differentiated.

A program is data, as in ``fuzz_programs``: ``{"seed", "x64", "compose", "inputs", "ops"}``;
:func:`generate` makes it from ``random.Random(f"compose{seed}")``, :func:`run` encodes the
outcome in the form ``fuzz_programs.run`` uses. ``tools/gen_golden_fuzz_compose.py`` records
JAX's outcomes.

    python tools/fuzz_compose.py SEED          # prints the program of SEED
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from typing import Any

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_programs as fp

#: the compositions; ``D`` marks those that differentiate (they want a float first input)
COMPOSE: dict[str, bool] = {
    "hessian": True,
    "jvp_of_grad": True,
    "jacrev_of_grad": True,
    "jacfwd": True,
    "jacrev": True,
    "custom_jvp_hessian": True,
    "grad_of_jit": True,
    "vmap_of_grad": True,
    "grad_of_vmap": True,
    "vmap_last_axis": False,
    "jit_of_vmap": False,
    "vmap_of_vmap": False,
    "vmap_of_jvp": True,
    "cond": False,
    "grad_of_cond": True,
    "vmap_of_cond": False,
    "grad_of_vmap_of_cond": True,
    "scan": False,
    "grad_of_scan": True,
    "jvp_of_scan": True,
    "fori": False,
    "grad_of_checkpoint": True,
    "linearize": True,
    "vjp": True,
}

#: compositions added later: drawn only for seeds from :data:`SECOND_FROM` on, so the programs
#: of the earlier seeds (and their golden outcomes) stay what they were
COMPOSE_2: dict[str, bool] = {
    "grad_of_while": True,
    "jvp_of_while": True,
    "lax_map": False,
    "custom_vjp_grad": True,
    "grad_of_checkpoint_dots": True,
    "grad_of_remat_scan": True,
    "pmap_one_device": False,
}
SECOND_FROM = 2000
ALL: dict[str, bool] = {**COMPOSE, **COMPOSE_2}


#: the compositions that map or scan over the first input's leading axis (it must have one)
_LEADING_AXIS = frozenset(
    {"vmap_of_grad", "grad_of_vmap", "jit_of_vmap", "vmap_of_jvp", "vmap_last_axis", "scan",
     "grad_of_scan", "jvp_of_scan", "vmap_of_cond", "grad_of_vmap_of_cond", "lax_map",
     "grad_of_remat_scan"}
)  # fmt: skip


def generate(seed: int) -> dict[str, Any]:
    """The program of ``seed``: 1–3 inputs (at most 24 elements each), 1–5 operations and a
    composition of transformations, in 32- or 64-bit mode."""
    rng = random.Random(f"compose{seed}")
    x64 = rng.random() < 0.5
    g = fp._Gen(rng, x64)
    compose = rng.choice(sorted(COMPOSE if seed < SECOND_FROM else ALL))
    floats = [d for d in fp.FLOATS if x64 or d != "float64"]
    inputs = []
    for j in range(rng.randint(1, 3)):
        dt = g.dtype()
        if j == 0 and ALL[compose] and rng.random() < 0.9:
            dt = rng.choice(floats)
        shape = g.shape()
        if j == 0 and compose in _LEADING_AXIS and not shape:
            shape = (rng.choice([1, 2, 3]),)
        if j == 0 and compose == "vmap_of_vmap" and len(shape) < 2:
            shape = (rng.choice([1, 2]), rng.choice([1, 2, 3]))
        while int(np.prod(shape)) > 24:
            shape = shape[1:]
        values = [fp._element(rng, dt) for _ in range(int(np.prod(shape)))]
        inputs.append({"dtype": dt, "shape": list(shape), "values": values})
        g.vals.append((f"a{j}", shape, dt))
    ops = []
    for i in range(rng.randint(1, 5)):
        ops.append(fp._op(g))
        g.vals.append((f"v{i}", g.vals[-1][1], g.vals[-1][2]))
    return {"seed": seed, "x64": x64, "compose": compose, "inputs": inputs, "ops": ops}


def _flip_all(xs: tuple[Any, ...], jnp: Any) -> list[Any]:
    return [jnp.flip(x) for x in xs]


def evaluate(prog: dict[str, Any], jax: Any) -> Any:
    """The answer of ``prog`` computed with ``jax`` (64-bit mode set by the caller)."""
    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    lax = importlib.import_module(f"{jax.__name__}.lax")
    xs = [fp.make_input(spec, jnp) for spec in prog["inputs"]]
    f = fp._body({"seed": prog["seed"], "inputs": prog["inputs"], "ops": prog["ops"]}, jnp)
    x0, rest = xs[0], xs[1:]
    c = prog["compose"]

    def f0(x: Any) -> Any:
        return f(x, *rest)

    def s(x: Any) -> Any:  # the scalar the derivatives take: real part, summed, in x's dtype
        return jnp.sum(jnp.real(f0(x)).astype(x.dtype))

    if c == "hessian":
        return jax.hessian(s)(x0)
    if c == "jvp_of_grad":
        return jax.jvp(jax.grad(s), (x0,), (jnp.ones_like(x0),))
    if c == "jacrev_of_grad":
        return jax.jacrev(jax.grad(s))(x0)
    if c == "jacfwd":
        return jax.jacfwd(f0)(x0)
    if c == "jacrev":
        return jax.jacrev(f0)(x0)
    if c == "custom_jvp_hessian":
        cs = jax.custom_jvp(s)
        cs.defjvp(lambda p, t: jax.jvp(s, p, t))
        return jax.hessian(cs)(x0)
    if c == "grad_of_jit":
        return jax.grad(jax.jit(s))(x0)
    if c == "vmap_of_grad":
        return jax.vmap(jax.grad(s))(x0)
    if c == "grad_of_vmap":
        return jax.grad(lambda x: jnp.sum(jnp.real(jax.vmap(f0)(x)).astype(x.dtype)))(x0)
    if c == "vmap_last_axis":
        return jax.vmap(f0, in_axes=-1, out_axes=-1)(x0)
    if c == "jit_of_vmap":
        return jax.jit(jax.vmap(f0))(x0)
    if c == "vmap_of_vmap":
        return jax.vmap(jax.vmap(f0))(x0)
    if c == "vmap_of_jvp":
        return jax.vmap(lambda x: jax.jvp(f0, (x,), (jnp.ones_like(x),)))(x0)

    def flipped(*a: Any) -> Any:
        return f(*_flip_all(a, jnp))

    def pred(*a: Any) -> Any:
        return jnp.sum(jnp.real(a[0]).astype(np.float32)) > 0

    if c == "cond":
        return lax.cond(pred(*xs), f, flipped, *xs)
    if c == "grad_of_cond":
        return jax.grad(
            lambda x: jnp.sum(
                jnp.real(lax.cond(pred(x, *rest), f, flipped, x, *rest)).astype(x.dtype)
            )
        )(x0)

    def mapped_cond(x: Any) -> Any:  # a batched predicate: both branches run, then a select
        return jax.vmap(lambda xi: lax.cond(pred(xi, *rest), f, flipped, xi, *rest))(x)

    if c == "vmap_of_cond":
        return mapped_cond(x0)
    if c == "grad_of_vmap_of_cond":
        return jax.grad(lambda x: jnp.sum(jnp.real(mapped_cond(x)).astype(x.dtype)))(x0)

    def scanned(x: Any) -> Any:
        def body(carry: Any, xi: Any) -> Any:
            y = f(xi, *rest)
            return carry + 1, y

        return lax.scan(body, jnp.int32(0), x)

    if c == "scan":
        return scanned(x0)
    if c == "grad_of_scan":
        return jax.grad(lambda x: jnp.sum(jnp.real(scanned(x)[1]).astype(x.dtype)))(x0)
    if c == "jvp_of_scan":
        return jax.jvp(scanned, (x0,), (jnp.ones_like(x0),))
    if c == "fori":
        first = f(*xs)

        def step(i: Any, acc: Any) -> Any:
            return jnp.where(i % 2 == 0, flipped(*xs), f(*xs)).astype(first.dtype) + acc * 0

        return lax.fori_loop(0, 3, step, first)
    if c in ("grad_of_while", "jvp_of_while"):

        def looped(x: Any) -> Any:  # the body's output carried through two iterations
            def body(state: Any) -> Any:
                i, acc = state
                return i + 1, jnp.where(i == 0, f(x, *rest), acc)

            first = f(x, *rest)
            return lax.while_loop(lambda st: st[0] < 2, body, (jnp.int32(0), first))[1]

        if c == "grad_of_while":
            return jax.grad(lambda x: jnp.sum(jnp.real(looped(x)).astype(x.dtype)))(x0)
        return jax.jvp(looped, (x0,), (jnp.ones_like(x0),))
    if c == "lax_map":
        return lax.map(f0, x0)
    if c == "custom_vjp_grad":
        cv = jax.custom_vjp(s)
        cv.defvjp(lambda x: (s(x), x), lambda x, g: (jax.vjp(s, x)[1](g)[0],))
        return jax.grad(cv)(x0)
    if c == "grad_of_checkpoint_dots":
        return jax.grad(jax.checkpoint(s, policy=jax.checkpoint_policies.dots_saveable))(x0)
    if c == "grad_of_remat_scan":

        def remat_scanned(x: Any) -> Any:
            body = jax.checkpoint(lambda carry, xi: (carry, f(xi, *rest)))
            return jnp.sum(jnp.real(lax.scan(body, jnp.int32(0), x)[1]).astype(x.dtype))

        return jax.grad(remat_scanned)(x0)
    if c == "pmap_one_device":
        return jax.pmap(f0)(x0[None])
    if c == "grad_of_checkpoint":
        return jax.grad(jax.checkpoint(s))(x0)
    if c == "linearize":
        y, lin = jax.linearize(f0, x0)
        return y, lin(jnp.ones_like(x0))
    if c == "vjp":
        y, back = jax.vjp(f0, x0)
        return y, back(jnp.ones_like(y))
    raise ValueError(f"unknown composition {c!r}")


def run(prog: dict[str, Any], jax: Any) -> Any:
    """``["ok", encoded answer]`` or ``["error", class name, [class and base names]]``."""
    return fp.run(prog, jax, evaluate)


def as_fuzz_program(prog: dict[str, Any]) -> dict[str, Any]:
    """The program in ``fuzz_programs``' form, for its comparison helpers: a composition that
    differentiates counts as ``grad`` (compared within a tolerance), the others as ``jit``."""
    t = "grad" if ALL[prog["compose"]] else "jit"
    return {"seed": prog["seed"], "x64": prog["x64"], "transform": t,
            "inputs": prog["inputs"], "ops": prog["ops"]}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(generate(int(sys.argv[1])), indent=1))
