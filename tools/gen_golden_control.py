"""Generate golden dtype data for structured control flow from a real JAX.

Run from the repository root inside a virtual environment that has ``jax``, ``numpy`` and
``ml_dtypes`` installed::

    python tools/gen_golden_control.py

The output is ``tests/golden/control_flow.json``; ``tests/test_control_flow.py`` reads it and never
imports JAX. This script must not import trellax. It takes about a minute on CPU. The output is
deterministic: running it again with the same versions gives a byte-identical file.

Layout: ``{"meta": {...versions...}, "cases": [case, ...]}``, one case per line, sorted by
``(fn, x64, call, args)``. A case is::

    {"fn", "call", "args", "x64", "eager", "jit"}

* ``fn``: ``cond``, ``switch``, ``while_loop``, ``fori_loop``, ``scan`` or ``map`` (what the case is
  about; ``call`` may use other functions too).
* ``call``: a Python expression, evaluated with these names bound (the same names mean the same
  things on the trellax side, with ``trellax.numpy``/``trellax.lax`` in place of ``jax.numpy``/
  ``jax.lax``):

  - ``a0``, ``a1``, ...: the case's arguments, decoded from ``args``;
  - ``lax``, ``xnp`` (``jax.lax``, ``jax.numpy``), ``np`` (NumPy);
  - ``f16``, ``f32``, ``i8``: strong 0-d ones of float16/float32/int8; ``w``: the weakly typed
    ``xnp.asarray(2.0)`` (float32, or float64 with x64 on);
  - ``seen(i)``: returns ``i`` and records its dtype and weak flag (``fori_loop`` bodies call it
    on the loop index, so the index type the body sees is recorded).

* ``args``: SPEC strings, one per argument ``a0``, ``a1``, ...:

  ==================  ===========================================================================
  ``py:LITERAL``      a Python scalar (``ast.literal_eval``)
  ``arr:NAME[:V]``    a strong 0-d array ``xnp.asarray(V, NAME)`` (V defaults to 0)
  ``arrN:NAME``       a strong array ``xnp.zeros((N,), NAME)``
  ``weak:LITERAL``    ``xnp.asarray(LITERAL)``: a weakly typed 0-d array of the default dtype
  ``weakN:LITERAL``   ``xnp.full((N,), LITERAL)``: a weakly typed array of shape (N,)
  ``np:NAME:V``       a NumPy scalar ``np.dtype(NAME).type(V)``
  ==================  ===========================================================================

* ``x64``: ``jax_enable_x64`` (promotion mode is always ``standard``).
* ``eager``: the result of ``(lambda a0, ...: CALL)(*args)``; ``jit``: of ``jax.jit`` of the same
  lambda, every argument passed as a jit argument (Python scalars become weak tracers; bounds,
  predicates or indices written as literals in ``call`` stay static). A result is either
  ``{"outputs": [{"dtype", "weak_type", "shape"}, ...], "seen": {"dtype", "weak_type"} | null}``
  -- the leaves of the output pytree in flattening order, and the last index type ``seen``
  recorded (JAX may trace a body more than once) -- or ``{"error": class name, "message": str}``.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import platform
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUT_PATH = Path(__file__).resolve().parent.parent / "tests" / "golden" / "control_flow.json"

#: Initial carries / operands: strong arrays, Python scalars, weakly typed arrays.
CARRIES = [
    "arr:int8",
    "arr:int32",
    "arr:float16",
    "arr:bfloat16",
    "arr:float32",
    "py:0",
    "py:0.0",
    "py:True",
    "weak:0",
    "weak:0.0",
]

#: Loop bodies on the carry ``c``: keep the type, change it weakly or strongly, cast it.
BODIES = [
    "c",
    "c + 1",
    "c + 1.5",
    "c * f16",
    "c + w",
    "c.astype('float32')",
    "c.astype('int32')",
    "c.astype('bfloat16')",
]

#: Scanned-over arrays (and lax.map inputs).
XS = ["arr3:float16", "arr3:int32", "arr3:float32", "arr3:bool", "weak3:0.0"]


def build_cases() -> list[tuple[str, str, tuple[str, ...]]]:
    """(fn, call, args) triples; every one is recorded for x64 off and on, eager and jit."""
    cases: list[tuple[str, str, tuple[str, ...]]] = []

    def add(fn: str, call: str, *args: str) -> None:
        cases.append((fn, call, tuple(args)))

    # while_loop: a counter (a weak Python int) next to the carry under test.
    for body in BODIES:
        for carry in CARRIES:
            add(
                "while_loop",
                f"lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, (lambda c: {body})(s[1])),"
                " (0, a0))",
                carry,
            )
    add("while_loop", "lax.while_loop(lambda c: c < 3, lambda c: c + 1.0, a0)", "py:0")
    add("while_loop", "lax.while_loop(lambda c: c < 3, lambda c: c + 1, a0)", "arr:int8")
    for bad in ("c", "1", "c < xnp.ones(2)", "(c < 3).astype('int32')"):
        add("while_loop", f"lax.while_loop(lambda c: {bad}, lambda c: c + 1, a0)", "weak:5")

    # fori_loop: literal bounds (static under jit) with every body and carry.
    for body in [*BODIES, "c + i"]:
        for carry in CARRIES:
            add(
                "fori_loop",
                f"lax.fori_loop(0, 3, lambda i, c: (seen(i), {body})[1], a0)",
                carry,
            )
    # fori_loop: bounds passed as arguments (traced under jit), several bound types.
    bounds = [
        ("py:0", "py:3"),
        ("arr:int8:0", "arr:int8:3"),
        ("np:int64:0", "np:int64:3"),
        ("py:0", "arr:int8:3"),
        ("arr:int8:0", "arr:int32:3"),
        ("arr:uint8:0", "arr:int16:3"),
        ("weak:0", "weak:3"),
        ("arr:uint32:0", "arr:uint32:3"),
    ]
    for lo, hi in bounds:
        for body in ("c + 1", "c + i", "c + 1.5"):
            for carry in ("py:0", "arr:int8", "arr:int32", "arr:float32", "weak:0.0"):
                add(
                    "fori_loop",
                    f"lax.fori_loop(a1, a2, lambda i, c: (seen(i), {body})[1], a0)",
                    carry,
                    lo,
                    hi,
                )
    for lo, hi in (
        ("py:0.0", "py:3"),
        ("py:0", "arr:float32:3"),
        ("py:True", "py:3"),
        ("py:0.0", "py:3.0"),
        ("arr:float32:0", "arr:float32:3"),
        ("arr3:int32", "py:3"),
    ):
        add("fori_loop", "lax.fori_loop(a1, a2, lambda i, c: c + 1, a0)", "py:0", lo, hi)
    add("fori_loop", "lax.fori_loop(0, 3, lambda i, c: c + 1, a0, unroll=2)", "arr:int8")
    add("fori_loop", "lax.fori_loop(0, 3, lambda i, c: (c[0] + i, c[1] * 2), (a0, a0))", "py:0")
    add(
        "fori_loop",
        "lax.fori_loop(0, 3, lambda i, c: {'a': c['a'] + 1.5, 'b': c['b'] + i}, {'a': a0, 'b': a1})",
        "py:0",
        "arr:int8",
    )
    add(
        "while_loop",
        "lax.while_loop(lambda s: s['n'] < 3, lambda s: {'n': s['n'] + 1, 'x': s['x'] * f16},"
        " {'n': a0, 'x': a1})",
        "py:0",
        "py:1",
    )

    # scan: (new carry, y) pairs over several xs.
    scan_bodies = [
        ("c + x", "c"),
        ("c + x", "x"),
        ("c", "c + x"),
        ("c + 1.5", "c * x"),
        ("c * f16", "None"),
        ("c", "1.0"),
        ("c.astype('float32')", "(x, c)"),
    ]
    for new, y in scan_bodies:
        for carry in CARRIES:
            for xs in ("arr3:float16", "arr3:int32", "arr3:float32", "weak3:0.0"):
                add("scan", f"lax.scan(lambda c, x: ({new}, {y}), a0, a1)", carry, xs)
    add("scan", "lax.scan(lambda c, x: (c + 1, c), a0, None, length=4)", "py:0")
    add("scan", "lax.scan(lambda c, x: (c + 1, c), a0, a1, reverse=True)", "py:0", "arr3:int8")
    add("scan", "lax.scan(lambda c, x: (c, x), a0, (a1, a2))", "py:0", "arr3:int8", "arr3:float32")
    add("scan", "lax.scan(lambda c, x: (c, x), a0, a1, length=4)", "py:0", "arr3:int8")
    add("scan", "lax.scan(lambda c, x: (c, x), a0, a1)", "py:0", "arr:int8")
    add("scan", "lax.scan(lambda c, x: ((c, c), x), a0, a1)", "py:0", "arr3:int8")
    add("scan", "lax.scan(lambda c, x: c, a0, a1)", "py:0", "arr3:int8")
    add("scan", "lax.scan(lambda c, x: (c[0], x), (a0, a0), a1)", "py:0", "arr3:int8")
    add("scan", "lax.scan(lambda c, x: (c, x), a0, None)", "py:0")
    add(
        "scan",
        "lax.scan(lambda c, x: ({'n': c['n'] + x['b'], 's': c['s'] * 2}, [x['a'], c['n']]),"
        " {'n': a0, 's': a1}, {'a': a2, 'b': a3})",
        "py:0",
        "weak:1.0",
        "arr3:float16",
        "arr3:int8",
    )
    add("while_loop", "lax.while_loop(lambda c: c[0] < 3, lambda c: c[0] + 1, (a0, a0))", "py:0")
    add("while_loop", "lax.while_loop(lambda c: c < 3, lambda c: xnp.zeros(2), a0)", "py:0.0")
    add("while_loop", "lax.while_loop(lambda c: c < 3, lambda c: c + 1, a0)", "arr3:int8")
    add(
        "cond",
        "lax.cond(a2, lambda d: {'x': d['x'] + 1, 'y': d['y']}, lambda d: {'x': d['x'], 'y': 1.0},"
        " {'x': a0, 'y': a1})",
        "py:0",
        "arr:float32",
        "py:False",
    )

    # map
    for y in ("x", "x + 1", "x + 1.5", "x * f16", "1.0", "x.astype('int8')", "(x, x + w)"):
        for xs in XS:
            add("map", f"lax.map(lambda x: {y}, a0)", xs)

    # cond: pairs of branch outputs (operand c), weak vs strong.
    cond_pairs = [
        ("c", "c"),
        ("c", "c + 1"),
        ("c + 1.5", "c"),
        ("c", "1.0"),
        ("1.0", "c"),
        ("c", "1"),
        ("c * f16", "c"),
        ("c.astype('float32')", "c"),
        ("c", "f32"),
        ("w", "c"),
        ("(c, 1.0)", "(c, w)"),
        ("c", "(c,)"),
    ]
    for t, f in cond_pairs:
        for carry in CARRIES:
            add("cond", f"lax.cond(a1, lambda c: {t}, lambda c: {f}, a0)", carry, "py:True")
    for t, f in (("1.0", "f32"), ("1.0", "2.0"), ("w", "f32"), ("1", "i8"), ("w", "1.0")):
        add("cond", f"lax.cond(a0, lambda: {t}, lambda: {f})", "py:False")
    for pred in ("py:1", "py:1.5", "arr:int8:1", "arr:float32:1", "arr:bool:True", "weak:0.0"):
        add("cond", "lax.cond(a1, lambda c: c + 1, lambda c: c, a0)", "py:0", pred)
    for pred in ("arr3:bool", "py:1j"):
        add("cond", "lax.cond(a1, lambda c: c + 1, lambda c: c, a0)", "py:0", pred)

    # switch: triples of branch outputs, several index types.
    switch_triples = [
        ("c", "c", "c"),
        ("c", "1.0", "c"),
        ("c + 1", "c", "c + 1.5"),
        ("1.0", "w", "c"),
        ("c", "c * f16", "c"),
    ]
    for b0, b1, b2 in switch_triples:
        for carry in CARRIES:
            add(
                "switch",
                f"lax.switch(a1, [lambda c: {b0}, lambda c: {b1}, lambda c: {b2}], a0)",
                carry,
                "py:1",
            )
    for index in ("py:1", "py:-1", "py:7", "arr:int8:1", "arr:uint8:2", "arr:bool:True"):
        add("switch", "lax.switch(a1, [lambda c: c, lambda c: c + 1], a0)", "arr:int8", index)
    for index in ("py:1.0", "arr:float32:1", "arr3:int32"):
        add("switch", "lax.switch(a1, [lambda c: c, lambda c: c + 1], a0)", "arr:int8", index)
    return list(dict.fromkeys(cases))


# -- running cases -------------------------------------------------------------------------------


def to_dtype(name: str) -> Any:
    import ml_dtypes
    import numpy as np

    scalar_type: Any = getattr(ml_dtypes, name, None) if name != "bool" else None
    return np.dtype(scalar_type if scalar_type is not None else name)


def decode(spec: str) -> Any:
    import jax.numpy as jnp

    kind, _, rest = spec.partition(":")
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "arr":
        name, _, value = rest.partition(":")
        return jnp.asarray(ast.literal_eval(value) if value else 0, to_dtype(name))
    if kind.startswith("arr"):
        return jnp.zeros((int(kind[3:]),), to_dtype(rest))
    if kind == "weak":
        return jnp.asarray(ast.literal_eval(rest))
    if kind.startswith("weak"):
        return jnp.full((int(kind[4:]),), ast.literal_eval(rest))
    if kind == "np":
        name, _, value = rest.partition(":")
        return to_dtype(name).type(ast.literal_eval(value))
    raise ValueError(f"unknown spec {spec!r}")


def _type_of(x: Any) -> dict[str, Any]:
    import jax
    import numpy as np

    aval = jax.typeof(x)
    return {"dtype": np.dtype(aval.dtype).name, "weak_type": bool(aval.weak_type)}


def run_case(call: str, args: tuple[str, ...], jit: bool) -> dict[str, Any]:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    seen: list[dict[str, Any]] = []

    def record(i: Any) -> Any:
        seen.append(_type_of(i))
        return i

    ns = {
        "lax": lax,
        "xnp": jnp,
        "np": np,
        "f16": jnp.ones((), "float16"),
        "f32": jnp.ones((), "float32"),
        "i8": jnp.ones((), "int8"),
        "w": jnp.asarray(2.0),
        "seen": record,
    }
    params = ", ".join(f"a{k}" for k in range(len(args)))
    fn = eval(f"lambda {params}: {call}", ns)
    values = [decode(s) for s in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = jax.jit(fn)(*values) if jit else fn(*values)
            leaves = jax.tree.leaves(out)
            outputs = [{**_type_of(x), "shape": list(np.shape(x))} for x in leaves]
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    return {"outputs": outputs, "seen": seen[-1] if seen else None}


def generate() -> Iterator[dict[str, Any]]:
    import jax

    for x64 in (False, True):
        jax.config.update("jax_enable_x64", x64)
        for fn, call, args in build_cases():
            yield {
                "fn": fn,
                "call": call,
                "args": list(args),
                "x64": x64,
                "eager": run_case(call, args, jit=False),
                "jit": run_case(call, args, jit=True),
            }


def main() -> None:
    versions = {
        name: importlib.metadata.version(name) for name in ("jax", "jaxlib", "numpy", "ml_dtypes")
    }
    versions["python"] = platform.python_version()
    cases = sorted(generate(), key=lambda c: (c["fn"], c["x64"], c["call"], c["args"]))
    lines = [json.dumps(c, sort_keys=True) for c in cases]
    text = '{"meta": ' + json.dumps(versions, sort_keys=True) + ',\n "cases": [\n'
    text += ",\n".join(lines) + "\n]}\n"
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {len(cases)} cases to {OUT_PATH}", file=sys.stderr)


if __name__ == "__main__":
    main()
