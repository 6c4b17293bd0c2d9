"""Programs where JAX 0.10.2 reports one of two applicable errors first, or where XLA's
convolution multiplies (or skips) its filled zeros, written once against ``jax`` and
``trellax``: ``tools/gen_golden_error_order.py`` records JAX's outcome of each
(``tests/golden/error_order.json``) and ``tests/test_error_order.py`` compares trellax's.

- ``rule/...``: a ``lax`` primitive without a derivative rule (``population_count``, ``clz``,
  ``reduce_and``/``reduce_xor``, ``rng_bit_generator``; ``reduce_or`` has one in reverse mode
  only) given an operand dtype it refuses, under ``jvp``/``grad``/``linearize``/``vjp``/``jit``/
  ``vmap``, beside primitives that have a zero rule (the shifts, ``not``, ``and``) and the same
  primitives on valid operands (integer inputs have float0 tangents: no rule is looked up).
- ``pad/...``: ``conv_general_dilated`` with negative padding that removes more than the
  (dilated) spatial size, alone and beside an unacceptable ``preferred_element_type``.
- ``fill/...``: a convolution by a kernel with ``inf`` where the kernel meets padding or lhs
  dilation holes (values, not errors).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

Program = Callable[[], Any]


def _rule_programs(jax: Any, jnp: Any, lax: Any) -> dict[str, Program]:
    f32 = jnp.ones((2, 3), jnp.float32)
    bf16 = jnp.ones((2, 3), jnp.bfloat16)
    c64 = jnp.ones((2, 3), jnp.complex64)
    i32 = jnp.ones((2, 3), jnp.int32)
    prims: dict[str, Callable[[Any], Any]] = {
        "population_count": lambda x: lax.population_count(x),
        "clz": lambda x: lax.clz(x),
        "reduce_or": lambda x: lax.reduce_or(x, (0, 1)),
        "reduce_and": lambda x: lax.reduce_and(x, (0,)),
        "reduce_xor": lambda x: lax.reduce_xor(x, (1,)),
        "rng_bit_generator": lambda x: lax.rng_bit_generator(x.reshape(-1)[:4], (2,))[1],
        "shift_left": lambda x: lax.shift_left(x, x),
        "bitwise_not": lambda x: lax.bitwise_not(x),
        "bitwise_and": lambda x: lax.bitwise_and(x, x),
        "nextafter": lambda x: lax.nextafter(x, x),
        "jnp.bitwise_count": lambda x: jnp.bitwise_count(x),
    }

    def scalar(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda x: jnp.sum(fn(x)).astype(jnp.float32)

    def modes(fn: Callable[[Any], Any]) -> dict[str, Program]:
        return {
            "jvp f32": lambda: jax.jvp(fn, (f32,), (f32,)),
            "jvp bf16": lambda: jax.jvp(fn, (bf16,), (bf16,)),
            "jvp c64": lambda: jax.jvp(fn, (c64,), (c64,)),
            "grad f32": lambda: jax.grad(scalar(fn))(f32),
            "linearize f32": lambda: jax.linearize(fn, f32),
            "vjp f32": lambda: jax.vjp(fn, f32),
            "jit(jvp) f32": lambda: jax.jit(lambda x, t: jax.jvp(fn, (x,), (t,)))(f32, f32),
            "jvp(jit) f32": lambda: jax.jvp(jax.jit(fn), (f32,), (f32,)),
            "vmap(jvp) f32": lambda: jax.vmap(lambda x: jax.jvp(fn, (x,), (x,)))(f32[None]),
            "eager f32": lambda: fn(f32),
            "jvp int float0": lambda: jax.jvp(fn, (i32,), (np.zeros((2, 3), jax.dtypes.float0),)),
            "grad through int": lambda: jax.grad(
                lambda x: jnp.sum(fn(x.astype(jnp.int32)).astype(jnp.float32) * x)
            )(f32),
            "grad(jit) int operand": lambda: jax.grad(
                jax.jit(lambda x, n: jnp.sum(fn(n).astype(jnp.float32)) * jnp.sum(x))
            )(f32, i32),
        }

    out: dict[str, Program] = {}
    for name, fn in prims.items():
        for mode, prog in modes(fn).items():
            out[f"rule/{name}/{mode}"] = prog
    return out


def _pad_programs(jax: Any, jnp: Any, lax: Any) -> dict[str, Program]:
    out: dict[str, Program] = {}
    for n in (0, 1, 3):
        for k in (1, 2):
            for dil in (1, 2):
                for rdil in (1, 2):
                    for pad in ((-1, 0), (0, -1), (-2, 0), (-4, 0), (-2, -2), (2, -5), (-5, 2),
                                (-6, 0)):  # fmt: skip
                        for pet in (None, "bfloat16"):

                            def prog(
                                n: int = n, k: int = k, dil: int = dil, rdil: int = rdil,
                                pad: tuple[int, int] = pad, pet: str | None = pet,
                            ) -> Any:  # fmt: skip
                                return lax.conv_general_dilated(
                                    jnp.ones((1, 1, n), jnp.float32),
                                    jnp.ones((1, 1, k), jnp.float32),
                                    (1,),
                                    [pad],
                                    lhs_dilation=(dil,),
                                    rhs_dilation=(rdil,),
                                    preferred_element_type=pet and getattr(jnp, pet),
                                )

                            out[f"pad/n={n} k={k} ld={dil} rd={rdil} pad={pad} pet={pet}"] = prog
    # batch groups split the operands first (the fuzz program x64 1146)
    out["pad/batch groups, empty axis"] = lambda: lax.conv_general_dilated(
        jnp.zeros((0, 0, 1), jnp.float32),
        jnp.asarray(np.float32([[[9.4, np.inf]]])),
        (2,),
        [(-1, 0)],
        lhs_dilation=(2,),
        dimension_numbers=("HNC", "HIO", "NHC"),
        batch_group_count=2,
        preferred_element_type=jnp.bfloat16,
    )
    out["pad/jit"] = lambda: jax.jit(lambda x, w: lax.conv_general_dilated(x, w, (1,), [(-3, 0)]))(
        jnp.ones((1, 1, 2), jnp.float32), jnp.ones((1, 1, 1), jnp.float32)
    )
    return out


FILL_DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _fill_programs(jax: Any, jnp: Any, lax: Any) -> dict[str, Program]:
    out: dict[str, Program] = {}
    for name in FILL_DTYPES:
        dt = getattr(jnp, name)

        def kernel(at: int, dt: Any = dt) -> Any:
            return jnp.asarray(np.where(np.arange(3) == at, np.inf, 1.0)).astype(dt)[None, None]

        def x(dt: Any = dt) -> Any:
            return jnp.ones((1, 1, 4), dt)

        out[f"fill/{name}/padding"] = lambda x=x, kernel=kernel: lax.conv_general_dilated(
            x(), kernel(0), (1,), [(1, 1)]
        )
        out[f"fill/{name}/lhs dilation"] = lambda x=x, kernel=kernel: lax.conv_general_dilated(
            x(), kernel(0), (1,), [(0, 0)], lhs_dilation=(2,)
        )
        out[f"fill/{name}/rhs dilation"] = lambda x=x, kernel=kernel: lax.conv_general_dilated(
            x(), kernel(0), (1,), [(1, 1)], rhs_dilation=(2,)
        )
    return out


def programs(jax: Any) -> dict[str, Program]:
    """Every program by name, written against ``jax`` (the module: ``jax`` or ``trellax``)."""
    import importlib

    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    lax = importlib.import_module(f"{jax.__name__}.lax")
    return {
        **_rule_programs(jax, jnp, lax),
        **_pad_programs(jax, jnp, lax),
        **_fill_programs(jax, jnp, lax),
    }


def outcome(prog: Program) -> list[Any]:
    """``["error", class name]``, or ``["ok", values]`` for a ``fill`` program (its result as
    text: ``repr`` of each element's complex value), ``["ok"]`` for the others."""
    try:
        r = prog()
    except Exception as e:  # the class is the answer
        return ["error", type(e).__name__]
    if hasattr(r, "dtype") and getattr(r, "ndim", 0) == 3:
        return ["ok", [repr(complex(v)) for v in np.asarray(r).astype(np.complex128).ravel()]]
    return ["ok"]
