"""Random small programs for the differential fuzzer (``tests/test_fuzz_programs.py``).

A program is data (JSON): its inputs (dtype, shape and every element written out, special values
included), a list of operations over named values, a transformation and the 64-bit mode::

    {"seed": 7, "x64": false, "transform": "jit",
     "inputs": [{"dtype": "float16", "shape": [2, 3], "values": ["nan", "-0.0", ...]}, ...],
     "ops": [["add", ["ref", "a0"], ["lit", "2"]], ["sum", ["ref", "v0"], {"axis": 1}], ...]}

Operation ``i`` names its result ``v{i}``; input ``j`` is ``a{j}``; the program's answer is the
last value. :func:`generate` makes the program of a seed (``random.Random(seed)``, nothing else,
so a seed means the same program on every host); :func:`evaluate` runs one with a given ``jax``
module (JAX's or trellax's) and :func:`run` encodes what came out: dtype, weak flag, shape and
every element's bits as hex, or the exception's class. ``tools/gen_golden_fuzz.py`` records JAX's
outcomes; the test replays them on trellax.

    python tools/fuzz_programs.py SEED          # prints the program of SEED
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import random
import sys
import warnings
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

# --------------------------------------------------------------------------------------------
# dtypes and values

DTYPES_32 = (
    "bool", "int8", "int16", "int32", "uint8", "uint16", "uint32",
    "float16", "bfloat16", "float32", "complex64",
)  # fmt: skip
DTYPES_64 = (*DTYPES_32, "int64", "float64", "complex128")
FLOATS = ("float16", "bfloat16", "float32", "float64")


def np_dtype(name: str) -> np.dtype[Any]:
    return np.dtype(getattr(ml_dtypes, name) if name == "bfloat16" else name)


def _float_pool(name: str) -> list[float]:
    fi = ml_dtypes.finfo(np_dtype(name)) if name == "bfloat16" else np.finfo(np_dtype(name))
    return [
        0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0, 7.0, 0.1, -2.5, 100.0, 1e4, 65504.0, 3e38,
        float("nan"), float("inf"), float("-inf"),
        float(fi.max), -float(fi.max), float(fi.tiny), float(fi.eps), 1.0 + float(fi.eps),
    ]  # fmt: skip


def _element(rng: random.Random, name: str) -> str:
    """One element of dtype ``name``, as the text :func:`_parse` reads back exactly."""
    dt = np_dtype(name)
    if name == "bool":
        return repr(rng.random() < 0.5)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        pool = [0, 1, -1, 2, 3, -7, 100, int(info.max), int(info.min), int(info.max) - 1]
        v = rng.choice(pool) if rng.random() < 0.5 else rng.randint(-20, 20)
        return repr(int(np.array(v).astype(dt)))  # wrapped into range
    part = "float32" if name == "complex64" else "float64" if name == "complex128" else name
    fi = ml_dtypes.finfo(np_dtype(part))

    def one() -> float:
        if rng.random() < 0.01:  # rare: XLA on CPU flushes most subnormals (a kept difference)
            v = rng.choice([1, -1]) * float(fi.smallest_subnormal)
        elif rng.random() < 0.45:
            v = rng.choice(_float_pool(part))
        else:
            v = rng.choice([rng.uniform(-4, 4), rng.randint(-9, 9) / 4, rng.gauss(0, 50)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(np.array(v, dtype=np_dtype(part)))

    if dt.kind == "c":
        return repr(complex(one(), one()))
    return repr(one())


def _parse(text: str) -> Any:
    if text in ("nan", "inf", "-inf"):
        return float(text)
    v = ast.literal_eval(text.replace("nan", "'nan'").replace("inf", "'inf'"))
    return v


def _literal(text: str) -> Any:
    """A Python scalar from its text, with ``nan``/``inf`` inside complex too."""
    if "j" in text:
        return complex(text)
    if text in ("nan", "inf", "-inf"):
        return float(text)
    return ast.literal_eval(text)


def make_input(spec: dict[str, Any], jnp: Any) -> Any:
    dt = np_dtype(spec["dtype"])
    vals = [_literal(v) for v in spec["values"]]
    arr = np.array(vals, dtype=dt).reshape(spec["shape"])
    return jnp.asarray(arr)


# --------------------------------------------------------------------------------------------
# the operations: name -> (arity of array operands, whether exactly rounded on floats)

UNARY_EXACT = (
    "negative", "abs", "sign", "square", "sqrt", "floor", "ceil", "round", "trunc",
    "logical_not", "isnan", "isfinite", "isinf", "signbit", "real", "imag", "conj", "positive",
    "bitwise_not", "reciprocal", "fabs", "rint",
)  # fmt: skip
UNARY_APPROX = (
    "exp", "log", "log1p", "expm1", "sin", "cos", "tanh", "sinh", "arctan", "exp2", "cbrt",
    "log2", "arcsinh", "tan", "arccos", "deg2rad", "sinc",
)  # fmt: skip
BINARY_EXACT = (
    "add", "subtract", "multiply", "true_divide", "maximum", "minimum", "equal", "not_equal",
    "less", "greater_equal", "logical_and", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "copysign", "fmax", "fmin", "nextafter",
    "floor_divide", "remainder", "fmod",
)  # fmt: skip
BINARY_APPROX = ("power", "arctan2", "hypot", "logaddexp", "float_power", "divide")
REDUCE_EXACT = ("max", "min", "any", "all", "argmax", "argmin", "ptp")
REDUCE_APPROX = ("sum", "prod", "mean", "var", "std", "cumsum", "cumprod", "nansum", "median")
SHAPE_OPS = (
    "reshape", "transpose", "expand_dims", "squeeze", "broadcast_to", "concatenate", "stack",
    "flip", "roll", "index", "at", "where", "clip", "sort", "argsort", "astype", "matmul",
    "einsum", "tile", "repeat", "swapaxes", "ravel", "take",
)  # fmt: skip
ALL_OPS = (
    UNARY_EXACT + UNARY_APPROX + BINARY_EXACT + BINARY_APPROX + REDUCE_EXACT + REDUCE_APPROX
    + SHAPE_OPS
)  # fmt: skip
#: operations whose float results are not exactly rounded (or whose order of evaluation differs
#: from XLA's): a program using one is compared within a tolerance, not bit for bit
APPROX = set(UNARY_APPROX + BINARY_APPROX + REDUCE_APPROX + ("matmul", "einsum"))
TRANSFORMS = ("eager", "jit", "grad", "value_and_grad", "vmap", "jvp")


class _Gen:
    """State of the generator: the shapes/dtypes of the values made so far (as JAX would type
    them, roughly: the generator only needs plausible programs, the referee is JAX)."""

    def __init__(self, rng: random.Random, x64: bool) -> None:
        self.rng = rng
        self.x64 = x64
        self.vals: list[tuple[str, tuple[int, ...], str]] = []  # name, shape, dtype

    def shape(self) -> tuple[int, ...]:
        r = self.rng
        nd = r.choice([0, 1, 1, 2, 2, 3])
        return tuple(r.choice([0, 1, 1, 2, 3, 3, 4]) if r.random() < 0.9 else 1 for _ in range(nd))

    def dtype(self) -> str:
        return self.rng.choice(DTYPES_64 if self.x64 else DTYPES_32)

    def ref(self) -> tuple[str, tuple[int, ...], str]:
        return self.rng.choice(self.vals[-4:] if self.rng.random() < 0.7 else self.vals)

    def scalar_lit(self) -> str:
        r = self.rng
        return r.choice(
            ["2", "-1", "0", "3", "255", "-129", "1.5", "-0.0", "0.1", "nan", "inf", "-inf",
             "1e10", "(1+2j)", "-0.5j", "True", "False", "2147483648", "65504.0", "1e-45"]
        )  # fmt: skip


def _axis(g: _Gen, nd: int, allow_none: bool = True) -> int | None:
    r = g.rng
    if (allow_none and r.random() < 0.3) or nd == 0:
        return None if allow_none or nd == 0 else 0
    return r.randint(-nd, nd - 1)


def _operand(g: _Gen) -> list[Any]:
    if g.rng.random() < 0.3:
        return ["lit", g.scalar_lit()]
    return ["ref", g.ref()[0]]


def _op(g: _Gen) -> list[Any]:
    """One random operation over the values so far (its result typed loosely)."""
    r = g.rng
    name, shape, _dt = g.ref()
    nd = len(shape)
    kind = r.random()
    if kind < 0.22:
        op = r.choice(UNARY_EXACT if r.random() < 0.65 else UNARY_APPROX)
        return [op, ["ref", name]]
    if kind < 0.50:
        op = r.choice(BINARY_EXACT if r.random() < 0.75 else BINARY_APPROX)
        c = r.random()
        other = ["lit", g.scalar_lit()] if c < 0.45 else ["ref", name if c < 0.6 else g.ref()[0]]
        args = [["ref", name], other] if r.random() < 0.6 else [other, ["ref", name]]
        return [op, *args]
    if kind < 0.66:
        op = r.choice(REDUCE_EXACT if r.random() < 0.5 else REDUCE_APPROX)
        kw: dict[str, Any] = {"axis": _axis(g, nd, op not in ("cumsum", "cumprod"))}
        if (op not in ("cumsum", "cumprod", "argmax", "argmin") or r.random() < 0.3) and (
            r.random() < 0.4
        ):
            kw["keepdims"] = True
        if op in ("sum", "prod", "cumsum", "mean") and r.random() < 0.2:
            kw["dtype"] = g.dtype()
        return [op, ["ref", name], kw]
    op = r.choice(SHAPE_OPS)
    if op == "reshape":
        size = int(np.prod(shape))
        cands = [[-1], [size], [1, -1], [-1, 1], list(reversed(shape)), [size, 1, 1]]
        return [op, ["ref", name], {"shape": r.choice(cands)}]
    if op == "transpose":
        perm = list(range(nd))
        r.shuffle(perm)
        return [op, ["ref", name], {"axes": perm if r.random() < 0.7 else None}]
    if op == "expand_dims":
        return [op, ["ref", name], {"axis": r.randint(-nd - 1, nd)}]
    if op == "squeeze":
        return [op, ["ref", name], {"axis": _axis(g, nd)}]
    if op == "broadcast_to":
        new = [r.choice([1, 2, 3])] + [s if r.random() < 0.8 else r.choice([1, 2]) for s in shape]
        return [op, ["ref", name], {"shape": new}]
    if op in ("concatenate", "stack"):
        other = g.ref()
        return [op, [["ref", name], ["ref", other[0]]], {"axis": _axis(g, nd + 1, False) or 0}]
    if op == "flip":
        return [op, ["ref", name], {"axis": _axis(g, nd)}]
    if op == "roll":
        return [op, ["ref", name], {"shift": r.randint(-3, 3), "axis": _axis(g, nd)}]
    if op in ("index", "at"):
        idx = []
        for s in shape[: r.randint(0, nd)]:
            c = r.random()
            if c < 0.35:
                idx.append(["int", r.randint(-s - 1, s) if s else r.randint(-1, 1)])
            elif c < 0.7:
                idx.append(["slice", r.choice([None, 0, 1, -1, 2]), r.choice([None, -1, 2, 5]),
                            r.choice([None, None, 1, 2, -1])])  # fmt: skip
            elif c < 0.8:
                idx.append(["none"])
            elif c < 0.9:
                idx.append(["ellipsis"])
            else:
                idx.append(["array", [r.randint(-s - 1, s) for _ in range(r.randint(0, 3))]])
        if op == "index":
            return [op, ["ref", name], {"idx": idx}]
        method = r.choice(["set", "add", "multiply", "min", "max", "get"])
        kw = {"idx": idx, "method": method}
        if r.random() < 0.2:
            kw["mode"] = r.choice(["clip", "drop", "fill", "promise_in_bounds"])
        return [op, ["ref", name], _operand(g), kw]
    if op == "where":
        return [op, ["ref", g.ref()[0]], _operand(g), _operand(g)]
    if op == "clip":
        return [op, ["ref", name], _operand(g), _operand(g)]
    if op in ("sort", "argsort"):
        kw = {"axis": _axis(g, nd)} if nd else {}
        if r.random() < 0.3:
            kw["descending"] = True
        if op == "sort" and r.random() < 0.2:
            kw["stable"] = False
        return [op, ["ref", name], kw]
    if op == "astype":
        return [op, ["ref", name], {"dtype": g.dtype()}]
    if op == "matmul":
        return [op, ["ref", name], ["ref", g.ref()[0]]]
    if op == "einsum":
        sub = r.choice(["i,i->", "ij,j->i", "ij,jk->ik", "ij->ji", "ii->i", "ij,ij->ij", "i,j->ij"])
        return [op, {"subscripts": sub}, ["ref", name], ["ref", g.ref()[0]]]
    if op in ("tile", "repeat"):
        return [op, ["ref", name], {"reps": r.choice([0, 1, 2, 3])}]
    if op == "swapaxes":
        return [op, ["ref", name], {"a": _axis(g, nd, False) or 0, "b": _axis(g, nd, False) or 0}]
    if op == "ravel":
        return [op, ["ref", name]]
    mode = r.choice([None, "clip", "wrap", "fill"])
    return ["take", ["ref", name], {"idx": [r.randint(-4, 4) for _ in range(r.randint(0, 3))],
                                    "axis": _axis(g, nd), "mode": mode}]  # fmt: skip


def generate(seed: int) -> dict[str, Any]:
    """The program of ``seed``: 1–3 inputs, 1–6 operations, a transformation, a 64-bit mode."""
    rng = random.Random(seed)
    x64 = rng.random() < 0.5
    g = _Gen(rng, x64)
    transform = rng.choice(TRANSFORMS)
    inputs = []
    for j in range(rng.randint(1, 3)):
        dt = g.dtype()
        if transform in ("grad", "value_and_grad", "jvp") and j == 0 and rng.random() < 0.85:
            dt = rng.choice([d for d in FLOATS if x64 or d != "float64"])
        shape = g.shape()
        if transform == "vmap" and j == 0 and not shape:
            shape = (rng.choice([1, 2, 3]),)
        values = [_element(rng, dt) for _ in range(int(np.prod(shape)))]
        inputs.append({"dtype": dt, "shape": list(shape), "values": values})
        g.vals.append((f"a{j}", shape, dt))
    ops = []
    for i in range(rng.randint(1, 6)):
        ops.append(_op(g))
        # the result's shape is not tracked exactly: reuse the operand's, enough for choices
        g.vals.append((f"v{i}", g.vals[-1][1], g.vals[-1][2]))
    return {"seed": seed, "x64": x64, "transform": transform, "inputs": inputs, "ops": ops}


def program_sha(prog: dict[str, Any]) -> str:
    """A short hash of the program's JSON (the golden file records it with the outcome)."""
    text = json.dumps(prog, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def approx(prog: dict[str, Any]) -> bool:
    """Whether a program uses an operation whose float results are not exactly rounded (or are
    summed in another order than XLA's), or complex multiplication/division."""
    cplx = any(i["dtype"].startswith("complex") for i in prog["inputs"]) or any(
        "j" in json.dumps(op) for op in prog["ops"]
    )
    for op in prog["ops"]:
        if op[0] in APPROX:
            return True
        if cplx and op[0] in ("multiply", "true_divide", "reciprocal", "square", "sqrt", "at",
                              "floor_divide", "remainder", "sign", "abs"):  # fmt: skip
            return True
    return prog["transform"] in ("value_and_grad",) or (
        prog["transform"] in ("grad", "jvp") and len(prog["ops"]) > 0
    )


# --------------------------------------------------------------------------------------------
# evaluating


def _index(spec: list[Any], jnp: Any) -> tuple[Any, ...]:
    out: list[Any] = []
    for item in spec:
        if item[0] == "int":
            out.append(item[1])
        elif item[0] == "slice":
            out.append(slice(item[1], item[2], item[3]))
        elif item[0] == "none":
            out.append(None)
        elif item[0] == "ellipsis":
            out.append(Ellipsis)
        else:
            out.append(jnp.asarray(np.array(item[1], dtype=np.int32)))
    return tuple(out)


def _apply(op: list[Any], env: dict[str, Any], jnp: Any) -> Any:
    name = op[0]

    def arg(a: Any) -> Any:
        if isinstance(a, list) and a and a[0] == "ref":
            return env[a[1]]
        if isinstance(a, list) and a and a[0] == "lit":
            return _literal(a[1])
        if isinstance(a, list):
            return [arg(x) for x in a]
        return a

    args = [arg(a) for a in op[1:] if not isinstance(a, dict)]
    kw = dict(next((a for a in op[1:] if isinstance(a, dict)), {}))
    if "dtype" in kw:
        kw["dtype"] = np_dtype(kw["dtype"])
    if name in ("index", "at"):
        x = args[0]
        idx = _index(kw["idx"], jnp)
        if name == "index":
            return x[idx]
        ref = x.at[idx]
        extra = {"mode": kw["mode"]} if "mode" in kw else {}
        if kw["method"] == "get":
            return ref.get(**extra)
        return getattr(ref, kw["method"])(args[1], **extra)
    if name == "einsum":
        return jnp.einsum(kw["subscripts"], *args)
    if name == "astype":
        return args[0].astype(kw["dtype"]) if hasattr(args[0], "astype") else args[0]
    if name == "take":
        ind = jnp.asarray(np.array(kw["idx"], dtype=np.int32))
        return jnp.take(args[0], ind, axis=kw["axis"], mode=kw["mode"])
    if name in ("tile", "repeat"):
        return getattr(jnp, name)(args[0], kw["reps"])
    if name == "swapaxes":
        return jnp.swapaxes(args[0], kw["a"], kw["b"])
    if name in ("reshape", "broadcast_to"):
        return getattr(jnp, name)(args[0], tuple(kw["shape"]))
    return getattr(jnp, name)(*args, **kw)


def _body(prog: dict[str, Any], jnp: Any) -> Callable[..., Any]:
    n = len(prog["inputs"])

    def f(*xs: Any) -> Any:
        env = {f"a{j}": x for j, x in enumerate(xs)}
        out = xs[-1] if xs else None
        for i, op in enumerate(prog["ops"]):
            out = env[f"v{i}"] = _apply(op, env, jnp)
        return out

    f.__name__ = f"fuzz{prog['seed']}_{n}"
    return f


def evaluate(prog: dict[str, Any], jax: Any) -> Any:
    """The answer of ``prog`` computed with ``jax`` (64-bit mode set by the caller)."""
    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    xs = [make_input(spec, jnp) for spec in prog["inputs"]]
    f = _body(prog, jnp)
    t = prog["transform"]
    if t == "eager":
        return f(*xs)
    if t == "jit":
        return jax.jit(f)(*xs)
    if t == "vmap":
        return jax.vmap(f, in_axes=(0,) + (None,) * (len(xs) - 1))(*xs)

    def scalar(*a: Any) -> Any:
        return jnp.sum(jnp.real(f(*a)).astype(xs[0].dtype))

    if t == "grad":
        return jax.grad(scalar)(*xs)
    if t == "value_and_grad":
        return jax.value_and_grad(scalar)(*xs)
    tangent = jnp.ones_like(xs[0])
    return jax.jvp(lambda x: f(x, *xs[1:]), (xs[0],), (tangent,))


def _array(x: Any) -> list[Any]:
    a = np.asarray(x)
    weak = getattr(x, "weak_type", None)
    if a.dtype.kind == "b":
        raw = a.astype(np.uint8).tobytes()
    else:
        raw = np.ascontiguousarray(a).tobytes()
    kind = "np" if isinstance(x, (np.ndarray, np.generic)) else "arr"
    return [kind, a.dtype.name, list(a.shape), None if weak is None else bool(weak), raw.hex()]


def encode(x: Any) -> Any:
    """Arrays as ``[kind, dtype, shape, weak, hex bits]``; tuples element by element."""
    if isinstance(x, (tuple, list)):
        return ["seq", [encode(v) for v in x]]
    if hasattr(x, "dtype") and hasattr(x, "shape"):
        return _array(x)
    if isinstance(x, (bool, int, float, complex)):
        return ["py", type(x).__name__, repr(x)]
    return ["obj", type(x).__name__]


def run(
    prog: dict[str, Any], jax: Any, evaluator: Callable[[dict[str, Any], Any], Any] = evaluate
) -> Any:
    """``["ok", encoded answer]`` or ``["error", class name, [class and base names]]``; the
    other fuzzers (``fuzz_compose``, ``fuzz_lax``) pass their own ``evaluator``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ["ok", encode(evaluator(prog, jax))]
        except Exception as e:
            return ["error", type(e).__name__, [c.__name__ for c in type(e).__mro__]]


if __name__ == "__main__":
    print(json.dumps(generate(int(sys.argv[1])), indent=1))
