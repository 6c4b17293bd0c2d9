"""Random calls with non-default keyword values (``tests/test_fuzz_keywords.py``).

``tests/test_jax_params.py`` checks that trellax accepts JAX's keyword names; this fuzzer checks
that each keyword *does the same thing*. A program is one call of a public function of
``jax.numpy``, ``jax.numpy.linalg``, ``jax.numpy.fft``, ``jax.nn`` or ``jax.scipy.special``
whose keywords (the names JAX 0.10.2's signature has, read from ``tests/golden/jax_params.json``)
get random but meaningful values: ``axis`` as an int, a negative int, a tuple, ``None`` or out of
range; ``keepdims``; ``dtype`` of every dtype and the Python types; ``where=`` masks;
``initial``; ``ddof``/``correction``; ``promote_integers``; the choices of ``method``,
``side``, ``mode``, ``ord``, ``norm``, ``kind``; ``stable``/``descending``; ``equal_nan``;
``assume_unique``; the ``return_*`` flags; ``size``/``fill_value``; ``bins``/``range``/
``weights``/``density``; ``total_repeat_length``; and so on. Inputs are of every dtype with the
special values of ``fuzz_programs`` (NaN, infinities, -0.0, dtype extremes) and 0-d, empty and
size-1 shapes. A call runs eagerly or under ``jit`` (array arguments traced, the other keywords
closed over), in 32- or 64-bit mode.

A program is data: ``{"seed", "x64", "fn", "transform", "inputs", "args", "kwargs"}``: ``args``
and ``kwargs`` hold JSON values, ``{"in": j}`` for input ``j``, ``{"dtype": name}`` for a dtype,
``{"py": "int"}`` for a Python type, ``{"tuple": [...]}`` for a tuple. :func:`generate` makes the
program of a seed from ``random.Random(f"kw{seed}")``; :func:`run` encodes its outcome as
``fuzz_programs.run`` does. ``tools/gen_golden_fuzz.py --keywords`` records JAX's outcomes.

    python tools/fuzz_keywords.py SEED          # prints the program of SEED
"""

from __future__ import annotations

import importlib
import json
import pathlib
import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_programs as fp

TRANSFORMS = ("eager", "jit")
_PARAMS = pathlib.Path(__file__).resolve().parent.parent / "tests" / "golden" / "jax_params.json"
PARAMS: dict[str, list[str]] = json.loads(_PARAMS.read_text())["params"]
#: keywords never fuzzed: placement, precision hints and NumPy-compatibility no-ops
SKIP = frozenset(
    {"out", "out_sharding", "device", "precision", "preferred_element_type", "overwrite_input",
     "inplace", "order", "implementation", "symmetrize_input"}
)  # fmt: skip
MOD_KEY = {"numpy": ".numpy", "linalg": ".numpy.linalg", "fft": "jax.numpy.fft", "nn": ".nn",
           "special": ".scipy.special"}  # fmt: skip
MOD_PATH = {"numpy": "numpy", "linalg": "numpy.linalg", "fft": "numpy.fft", "nn": "nn",
            "special": "scipy.special"}  # fmt: skip

# --------------------------------------------------------------------------------------------
# the functions: "module:name" -> positional argument kinds (see _G.arg)

_RED = ("sum", "prod", "max", "min", "amax", "amin", "mean", "var", "std", "any", "all",
        "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "ptp",
        "count_nonzero", "argmax", "argmin", "nanargmax", "nanargmin", "median", "nanmedian",
        "cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod",
        "sort", "argsort", "flip", "squeeze", "nonzero", "flatnonzero", "argwhere",
        "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all", "round",
        "around", "nan_to_num", "trapezoid", "unwrap", "diff", "ediff1d",
        "packbits", "unpackbits", "transpose", "angle",
        "astype",
        "zeros_like", "ones_like", "full_like", "asarray", "array")  # fmt: skip
FUNCS: dict[str, list[str]] = {
    **{f"numpy:{n}": ["a"] for n in _RED},
    "numpy:average": ["a"],
    "numpy:quantile": ["r", "q"],
    "numpy:percentile": ["r", "q100"],
    "numpy:nanquantile": ["r", "q"],
    "numpy:nanpercentile": ["r", "q100"],
    "numpy:partition": ["a", "kth"],
    "numpy:argpartition": ["a", "kth"],
    "numpy:searchsorted": ["s", "same"],
    "numpy:digitize": ["same", "s"],
    "numpy:isin": ["a", "same"],
    "numpy:intersect1d": ["a", "same"],
    "numpy:union1d": ["a", "same"],
    "numpy:setdiff1d": ["a", "same"],
    "numpy:setxor1d": ["a", "same"],
    "numpy:histogram": ["r"],
    "numpy:histogram_bin_edges": ["r"],
    "numpy:bincount": ["idx"],
    "numpy:repeat": ["a", "reps"],
    "numpy:roll": ["a", "shift"],
    "numpy:rot90": ["a"],
    "numpy:tril": ["a"],
    "numpy:triu": ["a"],
    "numpy:diagonal": ["a"],
    "numpy:trace": ["a"],
    "numpy:diag": ["a"],
    "numpy:eye": ["n"],
    "numpy:identity": ["n"],
    "numpy:tri": ["n"],
    "numpy:linspace": ["lo", "hi"],
    "numpy:logspace": ["lo", "hi"],
    "numpy:geomspace": ["lo", "hi"],
    "numpy:arange": ["lo"],
    "numpy:full": ["shape", "fill"],
    "numpy:zeros": ["shape"],
    "numpy:ones": ["shape"],
    "numpy:isclose": ["a", "same"],
    "numpy:allclose": ["a", "same"],
    "numpy:array_equal": ["a", "same"],
    "numpy:take": ["a", "idx"],
    "numpy:take_along_axis": ["a", "along"],
    "numpy:expand_dims": ["a"],
    "numpy:concatenate": ["pair"],
    "numpy:stack": ["pair"],
    "numpy:pad": ["a", "padw"],
    "numpy:cross": ["v3", "v3"],
    "numpy:tensordot": ["a", "same"],
    "numpy:vecdot": ["a", "same"],
    "numpy:convolve": ["v", "v"],
    "numpy:correlate": ["v", "v"],
    "numpy:interp": ["same", "s", "v"],
    "numpy:polyval": ["v", "a"],
    "numpy:polyint": ["v"],
    "numpy:polyder": ["v"],
    "numpy:polyfit": ["v", "v", "deg"],
    "numpy:cov": ["M"],
    "numpy:corrcoef": ["M"],
    "numpy:vander": ["v"],
    "numpy:indices": ["shape"],
    "numpy:split": ["a", "sections"],
    "numpy:array_split": ["a", "sections"],
    "numpy:delete": ["a", "obj"],
    "numpy:insert": ["a", "obj", "fill"],
    "numpy:append": ["a", "same"],
    "numpy:where": ["mask", "a", "same"],
    "numpy:extract": ["mask", "a"],
    "numpy:compress": ["vmask", "a"],
    "numpy:trim_zeros": ["v"],
    "numpy:clip": ["a"],
    "numpy:select": ["masks", "choices"],
    "numpy:lexsort": ["M"],
    "numpy:gradient": ["a"],
    "numpy:logaddexp": ["a", "same"],
    "numpy:add": ["a", "same"],
    "numpy:multiply": ["a", "same"],
    "numpy:maximum": ["a", "same"],
    "numpy:bitwise_and": ["a", "same"],
    "numpy:einsum": ["subs", "m", "m"],
    "numpy:fill_diagonal": ["m", "fill"],
    "numpy:put": ["a", "idx", "fill"],
    "numpy:reshape": ["a", "shape"],
    "numpy:unstack": ["a"],
    "linalg:norm": ["f"],
    "linalg:vector_norm": ["f"],
    "linalg:matrix_norm": ["m"],
    "linalg:slogdet": ["m"],
    "linalg:pinv": ["m"],
    "linalg:matrix_rank": ["m"],
    "linalg:svd": ["m"],
    "linalg:qr": ["M"],
    "linalg:eigh": ["m"],
    "linalg:eigvalsh": ["m"],
    "linalg:cholesky": ["m"],
    "linalg:lstsq": ["M", "M"],
    "linalg:cond": ["m"],
    "linalg:trace": ["m"],
    "linalg:diagonal": ["m"],
    "linalg:vecdot": ["a", "same"],
    "linalg:cross": ["v3", "v3"],
    "linalg:tensordot": ["a", "same"],
    **{f"fft:{n}": ["f"] for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")},
    **{f"fft:{n}": ["f"] for n in ("fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn")},
    **{f"fft:{n}": ["f"] for n in ("rfftn", "irfftn", "fftshift", "ifftshift")},
    "fft:fftfreq": ["n"],
    "fft:rfftfreq": ["n"],
    **{f"nn:{n}": ["f"] for n in ("softmax", "log_softmax", "logsumexp", "standardize")},
    **{f"nn:{n}": ["f"] for n in ("gelu", "elu", "celu", "leaky_relu", "glu", "squareplus")},
    "nn:logmeanexp": ["f"],
    "nn:one_hot": ["idx", "ncls"],
    **{f"special:{n}": ["f"] for n in ("logsumexp", "softmax", "log_softmax")},
    "special:factorial": ["r"],
    "special:comb": ["r", "same"],
    "special:bessel_jn": ["f"],
}
#: functions whose floating results are exactly rounded (or a selection): compared bit for bit
EXACT = frozenset(
    f"numpy:{n}" for n in (
        "max", "min", "amax", "amin", "any", "all", "nanmax", "nanmin", "ptp", "count_nonzero",
        "argmax", "argmin", "nanargmax", "nanargmin", "sort", "argsort", "flip", "squeeze",
        "ravel", "nonzero", "flatnonzero", "argwhere", "unique", "unique_values",
        "unique_counts", "unique_inverse", "unique_all", "partition", "argpartition",
        "searchsorted", "digitize", "isin", "intersect1d", "union1d", "setdiff1d", "setxor1d",
        "bincount", "repeat", "tile", "roll", "rot90", "tril", "triu", "diagonal", "diag",
        "eye", "identity", "tri", "full", "zeros", "ones", "isclose", "allclose", "array_equal",
        "take", "take_along_axis", "expand_dims", "moveaxis", "swapaxes", "concatenate",
        "stack", "packbits", "unpackbits", "fliplr", "flipud", "transpose", "copy", "real",
        "imag", "isreal", "iscomplex", "isneginf", "isposinf", "astype", "zeros_like",
        "ones_like", "full_like", "asarray", "array", "indices", "split", "array_split",
        "delete", "insert", "append", "where", "extract", "compress", "trim_zeros", "clip",
        "select", "lexsort", "maximum", "bitwise_and", "fill_diagonal", "put", "resize",
        "reshape", "broadcast_to", "unstack", "matrix_transpose", "sort_complex", "nan_to_num",
    )
) | {"fft:fftshift", "fft:ifftshift", "nn:one_hot", "nn:relu6", "nn:hard_tanh"}  # fmt: skip

ALL_DTYPES = ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16",
              "bfloat16", "float32", "complex64", "int64", "uint64", "float64", "complex128")  # fmt: skip
PYTYPES = ("int", "float", "bool", "complex")
INF = float("inf")


class _G:
    """The generator's state: its random source, the 64-bit mode, the inputs made so far and the
    shape of the primary (first array) argument."""

    def __init__(self, rng: random.Random, x64: bool) -> None:
        self.r = rng
        self.x64 = x64
        self.inputs: list[dict[str, Any]] = []
        self.shape: list[int] = []
        self.dtype = "float32"

    def pick_dtype(self, kinds: str = "any") -> str:
        pool = fp.DTYPES_64 if self.x64 else fp.DTYPES_32
        if kinds == "float" and self.r.random() < 0.9:
            pool = tuple(d for d in pool if d in fp.FLOATS or d.startswith("complex"))
        if kinds == "real" and self.r.random() < 0.9:
            pool = tuple(d for d in pool if not d.startswith("complex"))
        return self.r.choice(pool)

    def pick_shape(self, lo: int = 0, hi: int = 3) -> list[int]:
        r = self.r
        return [r.choice([0, 1, 2, 2, 3, 3, 4]) for _ in range(r.randint(lo, hi))]

    def add(self, dtype: str, shape: list[int], values: list[str] | None = None) -> dict[str, int]:
        n = int(np.prod(shape)) if shape else 1
        if values is None:
            values = [fp._element(self.r, dtype) for _ in range(n)]
        self.inputs.append({"dtype": dtype, "shape": list(shape), "values": values})
        return {"in": len(self.inputs) - 1}

    def ints(self, dtype: str, shape: list[int], lo: int, hi: int) -> dict[str, int]:
        n = int(np.prod(shape)) if shape else 1
        vals = [repr(self.r.randint(lo, hi)) for _ in range(n)]
        if dtype == "bool":
            vals = [repr(v != "0") for v in vals]
        return self.add(dtype, shape, vals)

    def primary(self, kinds: str, shape: list[int] | None = None) -> dict[str, int]:
        self.dtype = self.pick_dtype(kinds)
        self.shape = self.pick_shape() if shape is None else shape
        return self.add(self.dtype, self.shape)

    def arg(self, kind: str) -> Any:
        """One positional argument of kind ``kind``."""
        r = self.r
        if kind in ("a", "f", "r"):
            return self.primary({"a": "any", "f": "float", "r": "real"}[kind])
        if kind == "v":
            return self.primary("float", [r.choice([0, 1, 2, 3, 4, 5])])
        if kind == "v3":
            return self.primary("float", [*self.pick_shape(0, 1), r.choice([2, 3, 3, 3])])
        if kind in ("m", "M"):
            n = r.choice([0, 1, 2, 2, 3, 3])
            k = n if kind == "m" else r.choice([1, 2, 3])
            batch = self.pick_shape(0, 1) if r.random() < 0.3 else []
            if self.shape and kind == "m" and r.random() < 0.8:  # a second matrix: the same
                return self.add(self.pick_dtype("float"), self.shape)
            return self.primary("float", [*batch, n, k])
        if kind == "same":
            shape = list(self.shape)
            if shape and r.random() < 0.25:
                shape = shape[r.randint(0, len(shape)) :]
            dt = self.dtype if r.random() < 0.6 else self.pick_dtype()
            return self.add(dt, shape)
        if kind == "s":
            dt = self.r.choice(
                [d for d in fp.DTYPES_64 if "complex" not in d][: 13 if self.x64 else 10]
            )
            n = r.choice([0, 1, 2, 3, 5])
            vals = sorted(
                (fp._literal(fp._element(r, dt)) for _ in range(n)),
                key=lambda v: (v != v, v),
            )
            return self.add(dt, [n], [repr(v) for v in vals])
        if kind == "q":
            n = r.choice([None, 1, 3])
            vals = [repr(r.choice([0.0, 0.25, 0.5, 1.0, r.random()])) for _ in range(n or 1)]
            return self.add("float32" if not self.x64 else r.choice(["float32", "float64"]),
                            [] if n is None else [n], vals)  # fmt: skip
        if kind == "q100":
            return r.choice([0, 50, 100, 12.5, [10, 90]])
        if kind == "kth":
            return r.randint(-1, max(1, self.shape[-1] if self.shape else 1))
        if kind == "idx":
            dt = r.choice(["int32", "int32", "uint8", "int8", "bool"] + ["int64"] * self.x64)
            n = r.choice([0, 1, 3, 5])
            return self.ints(dt, [n], -1 if r.random() < 0.2 else 0, 5)
        if kind == "along":
            shape = [s if r.random() < 0.8 else 1 for s in self.shape]
            return self.ints("int32", shape, -2, 4)
        if kind == "reps":
            return r.choice([0, 1, 2, 3, [2], [1, 2]]) if r.random() < 0.8 else self.ints(
                "int32", [self.shape[0] if self.shape else 1], 0, 3)  # fmt: skip
        if kind == "shift":
            return r.choice([-3, -1, 0, 1, 2, 5, [1, -1]])
        if kind in ("n", "ncls"):
            return r.choice([0, 1, 2, 3, 4, 5])
        if kind == "lo":
            return r.choice([0, 1, -2, 0.5, 2.5, -1.0, 10])
        if kind == "hi":
            return r.choice([1, 4, 10, -3.5, 100.0, 1])
        if kind == "shape":
            return {"tuple": self.pick_shape(0, 3)} if r.random() < 0.85 else r.choice([3, 0])
        if kind == "fill":
            return r.choice(
                [0, 1, -1, 2.5, True, -0.0, float("nan"), 1e10, 300, {"complex": "(1+2j)"}]
            )
        if kind == "ax":
            return r.randint(-len(self.shape), max(0, len(self.shape) - 1))
        if kind == "pair":
            first = self.primary("any")
            other = self.arg("same")
            return [first, other]
        if kind == "padw":
            return r.choice([0, 1, 2, [1, 2], {"tuple": [0, 1]}])
        if kind == "deg":
            return r.choice([0, 1, 2])
        if kind == "sections":
            return r.choice([1, 2, 3, [1], [1, 3], [0, 0]])
        if kind == "obj":
            return r.choice([0, 1, -1, [0, 2], 5])
        if kind == "mask":
            return self.ints("bool", list(self.shape) or self.pick_shape(), 0, 1)
        if kind == "vmask":
            return self.ints("bool", [r.choice([0, 1, 2, 3])], 0, 1)
        if kind == "masks":
            self.shape = self.pick_shape(0, 2)
            return [self.ints("bool", self.shape, 0, 1) for _ in range(r.randint(1, 2))]
        if kind == "choices":
            self.dtype = self.pick_dtype()
            n = len([i for i in self.inputs if i["dtype"] == "bool"])
            return [self.add(self.dtype, self.shape) for _ in range(n)]
        if kind == "subs":
            return r.choice(["ij,jk->ik", "ij,ij->", "ii->i", "ij,jk"])
        if kind == "pow":
            return r.choice([-2, -1, 0, 1, 2, 3])
        if kind == "dpos":
            return r.choice([1, 2, 3])
        if kind == "nint":
            return self.ints(self.r.choice(["int32", "float32"]), [], 0, 3)
        raise ValueError(kind)


_CHOICES: dict[str, list[Any]] = {
    "method:quantile": ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf"],
    "method:searchsorted": ["scan", "scan_unrolled", "sort", "compare_all"],
    "method:isin": ["auto", "compare_all", "binary_search", "sort"],
    "method:slogdet": ["lu", "qr"],
    "mode:put": [None, "fill", "clip", "wrap"],
    "mode:take": [None, "fill", "clip", "wrap", "promise_in_bounds", "raise"],
    "mode:convolve": ["full", "same", "valid"],
    "mode:qr": ["reduced", "complete", "r", "raw"],
    "mode:pad": [
        "constant",
        "edge",
        "reflect",
        "symmetric",
        "wrap",
        "linear_ramp",
        "maximum",
        "mean",
        "minimum",
        "median",
        "empty",
    ],
    "ord:norm": [None, 1, 2, -1, -2, INF, -INF, "fro", "nuc", 0, 3, 0.5],
    "ord:matrix_norm": ["fro", "nuc", 1, -1, 2, -2, INF, -INF],
    "p:cond": [None, 1, -1, 2, -2, INF, -INF, "fro"],
    "norm": [None, "backward", "ortho", "forward"],
    "side": ["left", "right"],
    "UPLO": ["L", "U"],
    "kind": [None, "stable", "quicksort"],
    "indexing": ["xy", "ij"],
    "bitorder": ["big", "little"],
    "trim": ["fb", "f", "b"],
}


def _choice_key(fn: str, name: str) -> str:
    base = fn.split(":")[1]
    base = base.replace("nan", "") if base.startswith("nan") else base
    for key in (f"{name}:{base}", f"{name}:quantile" if base in ("percentile",) else "", name):
        if key in _CHOICES:
            return key
    if name == "method" and base == "digitize":
        return "method:searchsorted"
    if name == "mode" and base in ("take_along_axis",):
        return "mode:take"
    if name == "mode" and base == "correlate":
        return "mode:convolve"
    if name == "ord" and base == "vector_norm":
        return "ord:norm"
    return ""


def _axis(g: _G, fn: str) -> Any:
    r = g.r
    nd = len(g.shape)
    c = r.random()
    if c < 0.15:
        return None
    if c < 0.3 and nd >= 2:
        axes = r.sample(range(nd), r.randint(1, nd))
        return {"tuple": [a - nd if r.random() < 0.4 else a for a in axes]}
    if c < 0.36:
        return r.choice([nd, -nd - 1, 5])
    return r.randint(-nd, max(0, nd - 1)) if nd else r.choice([0, -1])


def _where(g: _G) -> Any:
    shape = list(g.shape)
    if shape and g.r.random() < 0.3:
        shape = shape[g.r.randint(1, len(shape)) :]
    return g.ints("bool", shape, 0, 1)


def _dtype(g: _G) -> Any:
    r = g.r
    if r.random() < 0.15:
        return {"py": r.choice(PYTYPES)}
    return {"dtype": r.choice(ALL_DTYPES if g.x64 else ALL_DTYPES[:11])}


def keyword(g: _G, fn: str, name: str) -> Any:
    """A random non-default value of keyword ``name`` of ``fn``, or ``...`` when the fuzzer has no
    generator for it."""
    r = g.r
    key = _choice_key(fn, name)
    if key:
        return r.choice(_CHOICES[key])
    nd = len(g.shape)
    if name in ("axis", "axes") and fn.startswith("fft:") and fn[-1] in "2n":
        k = r.randint(1, max(1, nd))
        return {"tuple": r.sample(range(-nd, 0), min(k, nd))} if nd else {"tuple": [0]}
    if name in ("axis", "axes"):
        if fn.endswith(("tensordot",)):
            return r.choice([0, 1, 2, {"tuple": [[0], [0]]}])
        if fn.endswith(("rot90",)):
            return {"tuple": r.sample(range(-nd, nd), 2)} if nd >= 2 else {"tuple": [0, 1]}
        return _axis(g, fn)
    if name in ("keepdims", "stable", "descending", "equal_nan", "assume_unique", "invert",
                "promote_integers", "return_index", "return_inverse", "return_counts", "sorted",
                "return_indices", "return_sign", "density", "returned", "include_initial",
                "endpoint", "retstep", "right", "increasing", "sparse", "copy", "rowvar", "bias",
                "full_matrices", "compute_uv", "hermitian", "upper", "approximate", "exact",
                "unique_indices", "indices_are_sorted", "numpy_resid"):  # fmt: skip
        return r.random() < 0.7 if name not in ("endpoint", "sorted", "promote_integers",
                                                "compute_uv", "full_matrices", "rowvar",
                                                "copy") else r.random() < 0.3  # fmt: skip
    if name == "dtype":
        return _dtype(g)
    if name in ("where", "mask"):
        return _where(g)
    if name == "initial":
        return r.choice([0, -1, 5, 2.5, float("nan"), -INF, INF, True, 1e30, -0.0])
    if name in ("ddof", "correction"):
        return r.choice([0, 1, 2, 1.5, 5])
    if name in ("size",):
        return r.choice([0, 1, 2, 3, 6])
    if name in ("fill_value",):
        return r.choice([None, 0, -1, 7, 2.5, float("nan"), 99999])
    if name == "bins":
        return r.choice([1, 2, 3, 5, [0.0, 1.0, 2.5], [-INF, 0.0, INF]])
    if name == "range":
        return r.choice([None, {"tuple": [0, 1]}, {"tuple": [-2.0, 2.0]}, {"tuple": [3, 3]}])
    if name in ("weights", "b", "aweights", "fweights"):
        if name == "fweights":
            return g.ints("int32", [g.shape[-1]] if g.shape else [1], 0, 3)
        if name == "aweights" or (fn.endswith("average") and nd and r.random() < 0.4):
            return g.add(g.pick_dtype("real"), [g.shape[-1]] if g.shape else [])
        return g.add(g.pick_dtype("real"), list(g.shape))
    if name == "total_repeat_length":
        return r.choice([0, 1, 3, 6, 10])
    if name in ("decimals",):
        return r.choice([-2, -1, 1, 2, 5])
    if name in ("k", "offset"):
        return r.choice([-2, -1, 1, 2, 5])
    if name in ("axis1", "axis2", "axisa", "axisb", "axisc"):
        return r.randint(-max(nd, 1), max(0, nd - 1))
    if name == "n":
        if fn in ("numpy:diff",):
            return r.choice([0, 1, 2, 3])
        return r.choice([1, 2, 3, 4, 6, 8])
    if name == "s":
        return {"tuple": [r.choice([1, 2, 3, 4]) for _ in range(min(nd, r.randint(1, 2)))]}
    if name in ("prepend", "append", "to_begin", "to_end"):
        return r.choice([0, 1.5, -INF, [1, 2]])
    if name in ("nan", "posinf", "neginf"):
        return r.choice([0.0, -1.0, 1e30, 7, None])
    if name in ("rtol", "atol"):
        return r.choice([0.0, 1e-3, 0.5, 2.0])
    if name in ("dx",):
        return r.choice([0.5, 2.0, -1.0])
    if name == "x" and fn == "numpy:trapezoid":
        return g.add("float32", [g.shape[-1]] if g.shape else [0])
    if name in ("period",):
        return r.choice([None, 1.0, 360.0, 2])
    if name in ("discont",):
        return r.choice([None, 0.5, 4.0])
    if name in ("left", "right") and fn == "numpy:interp":
        return r.choice([None, -1.0, float("nan"), 5])
    if name == "count":
        return r.choice([None, 0, 3, 8, -2])
    if name in ("minlength", "length"):
        return r.choice([0, 1, 3, 8])
    if name in ("num",):
        return r.choice([0, 1, 2, 5])
    if name in ("base",):
        return r.choice([2.0, 10.0, 0.5])
    if name in ("N", "M"):
        return r.choice([None, 0, 1, 2, 4]) if name == "M" else r.choice([0, 1, 3])
    if name in ("alpha", "negative_slope", "epsilon"):
        return r.choice([0.0, 0.1, 1.0, 2.5, -1.0])
    if name == "num_classes":
        return r.choice([0, 1, 3, 5])
    if name in ("mean", "variance") and fn.startswith("nn:"):
        return g.add(g.dtype, [], None)
    if name in ("min", "max"):
        return r.choice([None, 0, -1, 2.5, float("nan")])
    if name in ("constant_values", "end_values"):
        return r.choice([0, 1, -2.5, [1, 2]])
    if name in ("rcond", "rtol", "tol"):
        return r.choice([None, 0.0, 0.1, 1.0])
    if name in ("ind",):
        return r.choice([1, 2])
    if name in ("v",) and fn == "special:bessel_jn":
        return r.choice([0, 1, 2])
    if name in ("n_iter",):
        return r.choice([1, 10, 50])
    if name in ("m",) and fn in ("numpy:polyint", "numpy:polyder"):
        return r.choice([0, 1, 2, 3])
    if name in ("deg", "exact", "repetition", "wrap"):
        return r.random() < 0.6
    if name == "default":
        return r.choice([0, -1, 2.5, float("nan")])
    if name == "step":
        return r.choice([1, 0.5, -1, 2, 3])
    if name == "d":
        return r.choice([0.5, 2.0, 1])
    if name == "optimize":
        return r.choice([True, False, "greedy", "optimal"])
    if name == "unroll":
        return r.choice([1, 2, 16])
    if name in ("full",) and fn == "numpy:polyfit":
        return r.random() < 0.5
    return ...


def generate(seed: int) -> dict[str, Any]:
    """The program of ``seed``: one call with 1–4 keywords set, eagerly or under ``jit``."""
    rng = random.Random(f"kw{seed}")
    x64 = rng.random() < 0.5
    g = _G(rng, x64)
    fn = rng.choice(sorted(FUNCS))
    args = [g.arg(k) for k in FUNCS[fn]]
    mod, name = fn.split(":")
    params = PARAMS.get(f"{MOD_KEY[mod]}:{name}", [])
    pos_names = _positional(mod, name)[: len(args)]
    names = sorted(set(params) - SKIP - set(pos_names))
    rng.shuffle(names)
    kwargs: dict[str, Any] = {}
    for k in names:
        if rng.random() < 0.55 or (not kwargs and k is names[-1]):
            v = keyword(g, fn, k)
            if v is not ...:
                kwargs[k] = v
    transform = rng.choice(TRANSFORMS)
    return {"seed": seed, "x64": x64, "fn": fn, "transform": transform, "inputs": g.inputs,
            "args": args, "kwargs": kwargs}  # fmt: skip


_POSITIONAL: dict[str, list[str]] = json.loads(_PARAMS.read_text())["positional"]


def _positional(mod: str, name: str) -> list[str]:
    return _POSITIONAL.get(f"{MOD_KEY[mod]}:{name}", [])


# --------------------------------------------------------------------------------------------
# evaluating


def _value(v: Any, xs: list[Any]) -> Any:
    if isinstance(v, dict):
        if "in" in v:
            return xs[v["in"]]
        if "dtype" in v:
            return fp.np_dtype(v["dtype"])
        if "py" in v:
            return {"int": int, "float": float, "bool": bool, "complex": complex}[v["py"]]
        if "complex" in v:
            return complex(v["complex"])
        if "tuple" in v:
            return tuple(_value(x, xs) for x in v["tuple"])
    if isinstance(v, list):
        return [_value(x, xs) for x in v]
    return v


def _function(jax: Any, fn: str) -> Callable[..., Any]:
    mod, name = fn.split(":")
    module = importlib.import_module(f"{jax.__name__}.{MOD_PATH[mod]}")
    return getattr(module, name)  # type: ignore[no-any-return]


def evaluate(prog: dict[str, Any], jax: Any) -> Any:
    """The answer of ``prog`` computed with ``jax`` (64-bit mode set by the caller)."""
    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    xs = [fp.make_input(spec, jnp) for spec in prog["inputs"]]
    f = _function(jax, prog["fn"])

    def call(*a: Any) -> Any:
        kwargs = {key: _value(v, list(a)) for key, v in prog["kwargs"].items()}
        return f(*_value(prog["args"], list(a)), **kwargs)

    if prog["transform"] == "jit":
        return jax.jit(call)(*xs)
    return call(*xs)


def run(prog: dict[str, Any], jax: Any) -> Any:
    """``["ok", encoded answer]`` or ``["error", class name, [class and base names]]``."""
    return fp.run(prog, jax, evaluate)


def as_fuzz_program(prog: dict[str, Any]) -> dict[str, Any]:
    """The program in ``fuzz_programs``' form, for its comparison: a function outside
    :data:`EXACT` counts as ``matmul`` (compared within a tolerance), a ``dtype`` keyword joins
    the dtypes whose precision sets the tolerance."""
    op: list[Any] = ["max" if prog["fn"] in EXACT else "matmul"]
    dt = prog["kwargs"].get("dtype")
    if isinstance(dt, dict) and "dtype" in dt:
        op.append({"dtype": dt["dtype"]})
    return {"seed": prog["seed"], "x64": prog["x64"], "transform": "jit",
            "inputs": prog["inputs"], "ops": [op]}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(generate(int(sys.argv[1])), indent=1))
