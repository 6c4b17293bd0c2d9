"""Random calls of ``lax`` primitives with random structured parameters (``tests/test_fuzz_lax.py``).

``tools/fuzz_programs.py`` composes ``jnp`` functions; this fuzzer aims at the strict primitive
layer below them and at its *parameters*: dimension numbers of ``dot_general``, convolutions,
``gather`` and the ``scatter`` family (batching dimensions included), window dimensions, strides,
paddings (negative and asymmetric) and dilations, ``sort``'s keys and stability, the target
dtypes of conversions and bitcasts, shift amounts out of range, integer division by zero, and so
on. The parameters are random but mostly valid (a few are made invalid on purpose, and JAX's
error class is then the answer). Inputs are of every dtype, with the special values of
``fuzz_programs`` (NaN, infinities, -0.0, dtype extremes) and empty and size-1 axes; a call runs
eagerly, under ``jit``, under ``vmap`` with random ``in_axes`` and, for float inputs, under
``jvp`` and ``grad``.

A program is data: ``{"seed", "x64", "prim", "transform", "inputs", "params", "in_axes"}``; the
inputs are ``fuzz_programs`` input specs (dtype, shape, every element as text). The values and
the encoding of outcomes are ``fuzz_programs``' own (imported, not copied). :func:`generate`
makes the program of a seed from ``random.Random(f"lax{seed}")``; :func:`run` encodes its outcome.
``tools/gen_golden_fuzz.py --lax`` records JAX's outcomes.

    python tools/fuzz_lax.py SEED          # prints the program of SEED
"""

from __future__ import annotations

import importlib
import json
import random
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import fuzz_programs as fp

INTS = ("int8", "int16", "int32", "uint8", "uint16", "uint32")
TRANSFORMS = ("eager", "jit", "vmap", "jvp", "grad")
#: primitives whose float results depend on an order of summation (compared within a tolerance)
APPROX_PRIMS = frozenset(
    {"dot_general", "conv_general_dilated", "reduce_window", "cumsum", "cumprod",
     "cumlogsumexp", "scatter_add", "scatter_mul", "scatter_sub", "integer_pow"}
)  # fmt: skip


def _text(v: np.ndarray) -> str:
    """A 0-d array's value as the text ``fuzz_programs`` reads back (any dtype)."""
    kind = v.dtype.kind
    return repr(bool(v) if kind == "b" else int(v) if kind in "iu" else complex(v) if kind == "c" else float(v))  # fmt: skip


class _G:
    """The generator's state: its random source and the 64-bit mode."""

    def __init__(self, rng: random.Random, x64: bool) -> None:
        self.r = rng
        self.x64 = x64

    def dtype(self, kinds: str = "any") -> str:
        r = self.r
        if kinds == "float":
            pool = [d for d in fp.FLOATS if self.x64 or d != "float64"]
        elif kinds == "int":
            pool = list(INTS) + (["int64", "uint64"] if self.x64 else [])
        elif kinds == "real":
            pool = [d for d in (fp.DTYPES_64 if self.x64 else fp.DTYPES_32) if "complex" not in d]
        else:
            pool = list(fp.DTYPES_64 if self.x64 else fp.DTYPES_32)
        if kinds != "any" and r.random() < 0.06:  # now and then a dtype the primitive refuses
            pool = list(fp.DTYPES_64 if self.x64 else fp.DTYPES_32)
        return r.choice(pool)

    def size(self) -> int:
        return self.r.choice([0, 1, 1, 2, 2, 3, 3, 4]) if self.r.random() < 0.93 else 5

    def shape(self, lo: int = 0, hi: int = 3) -> list[int]:
        return [self.size() for _ in range(self.r.randint(lo, hi))]

    def array(self, dtype: str, shape: list[int]) -> dict[str, Any]:
        n = int(np.prod(shape)) if shape else 1
        return {"dtype": dtype, "shape": list(shape), "values": [fp._element(self.r, dtype) for _ in range(n)]}  # fmt: skip

    def ints(self, dtype: str, shape: list[int], lo: int, hi: int) -> dict[str, Any]:
        n = int(np.prod(shape)) if shape else 1
        vals = [_text(np.array(self.r.randint(lo, hi)).astype(fp.np_dtype(dtype))) for _ in range(n)]  # fmt: skip
        return {"dtype": dtype, "shape": list(shape), "values": vals}

    def index_dtype(self) -> str:
        return self.r.choice(["int32", "int32", "int8", "uint8", "int16"] + (["int64"] * self.x64))

    def precision(self) -> Any:
        return self.r.choice([None, None, "DEFAULT", "HIGHEST", ["HIGH", "DEFAULT"]])

    def preferred(self, dtype: str) -> str | None:
        if self.r.random() < 0.7:
            return None
        return self.dtype("float" if dtype in fp.FLOATS else "any")


# --------------------------------------------------------------------------------------------
# one generator per primitive: (inputs, params)

Made = tuple[list[dict[str, Any]], dict[str, Any]]


def _dot_general(g: _G) -> Made:
    r = g.r
    nb, nc = r.choice([0, 0, 1, 2]), r.choice([0, 1, 1, 2])
    bsz = [g.size() for _ in range(nb)]
    csz = [g.size() for _ in range(nc)]
    lf = g.shape(0, 2)
    rf = g.shape(0, 2)
    lroles = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + [("f", i) for i in range(len(lf))]  # fmt: skip
    rroles = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)] + [("f", i) for i in range(len(rf))]  # fmt: skip
    r.shuffle(lroles)
    r.shuffle(rroles)

    def sizes(roles: list[tuple[str, int]], free: list[int]) -> list[int]:
        return [bsz[i] if k == "b" else csz[i] if k == "c" else free[i] for k, i in roles]

    lc = [lroles.index(("c", i)) for i in range(nc)]
    rc = [rroles.index(("c", i)) for i in range(nc)]
    lb = [lroles.index(("b", i)) for i in range(nb)]
    rb = [rroles.index(("b", i)) for i in range(nb)]
    ls, rs = sizes(lroles, lf), sizes(rroles, rf)
    if r.random() < 0.05 and rs:  # a mismatched size
        rs[0] += 1
    dt = g.dtype()
    dt2 = dt if r.random() < 0.85 else g.dtype()
    params = {"dimension_numbers": [[lc, rc], [lb, rb]], "precision": g.precision(),
              "preferred_element_type": g.preferred(dt)}  # fmt: skip
    return [g.array(dt, ls), g.array(dt2, rs)], params


_SPATIAL = "HWD"


def _conv(g: _G) -> Made:
    r = g.r
    ns = r.choice([1, 1, 2])
    sp = _SPATIAL[:ns]
    fgc = r.choice([1, 1, 1, 2])
    bgc = r.choice([1, 1, 1, 2]) if fgc == 1 or r.random() < 0.1 else 1
    n = bgc * r.choice([0, 1, 1, 2])
    cin = fgc * r.choice([1, 1, 2])
    cout = fgc * bgc * r.choice([1, 1, 2])
    insz = {c: r.choice([0, 1, 2, 3, 4, 5]) for c in sp}
    ksz = {c: r.choice([1, 1, 2, 3]) for c in sp}
    lhs_spec = list("NC" + sp)
    rhs_spec = list("OI" + sp)
    out_spec = list("NC" + sp)
    use_dn = r.random() < 0.5
    if use_dn:
        r.shuffle(lhs_spec)
        r.shuffle(rhs_spec)
        r.shuffle(out_spec)
    lsz = {"N": n, "C": cin, **insz}
    rsz = {"O": cout, "I": cin // fgc, **ksz}
    ls = [lsz[c] for c in lhs_spec]
    rs = [rsz[c] for c in rhs_spec]
    pad: Any
    c = r.random()
    if c < 0.3:
        pad = r.choice(["SAME", "VALID", "SAME_LOWER"])
    else:
        pad = [[r.randint(-1, 2), r.randint(-1, 2)] for _ in sp]
    dt = g.dtype("float") if r.random() < 0.8 else g.dtype()
    params = {
        "window_strides": [r.choice([1, 1, 2, 3]) for _ in sp],
        "padding": pad,
        "lhs_dilation": None if r.random() < 0.5 else [r.choice([1, 2]) for _ in sp],
        "rhs_dilation": None if r.random() < 0.5 else [r.choice([1, 2]) for _ in sp],
        "dimension_numbers": ["".join(lhs_spec), "".join(rhs_spec), "".join(out_spec)]
        if use_dn
        else None,
        "feature_group_count": fgc,
        "batch_group_count": bgc,
        "precision": g.precision(),
        "preferred_element_type": g.preferred(dt),
    }
    return [g.array(dt, ls), g.array(dt, rs)], params


_MONOIDS = {"add": "0", "max": "-inf", "min": "inf", "mul": "1"}


def _reduce_window(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    nd = len(shape)
    comp = r.choice(["add", "add", "max", "max", "min", "mul"])
    init = _MONOIDS[comp] if r.random() < 0.85 else r.choice(["0", "1", "-1", "2"])
    pad: Any
    if r.random() < 0.3:
        pad = r.choice(["SAME", "VALID"])
    else:
        pad = [[r.randint(-1, 2), r.randint(-1, 2)] for _ in range(nd)]
    params = {
        "computation": comp,
        "init": init,
        "window_dimensions": [r.choice([1, 1, 2, 3]) for _ in range(nd)],
        "window_strides": [r.choice([1, 1, 2]) for _ in range(nd)],
        "padding": pad,
        "base_dilation": None if r.random() < 0.6 else [r.choice([1, 2]) for _ in range(nd)],
        "window_dilation": None if r.random() < 0.6 else [r.choice([1, 2]) for _ in range(nd)],
    }
    return [g.array(g.dtype("real"), shape)], params


def _pad(g: _G) -> Made:
    r = g.r
    shape = g.shape(0, 3)
    dt = g.dtype()
    cfg = [[r.randint(-3, 3), r.randint(-3, 3), r.choice([0, 0, 1, 2])] for _ in shape]
    return [g.array(dt, shape), g.array(dt, [])], {"padding_config": cfg}


def _slice(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    start, limit = [], []
    for s in shape:
        a = r.randint(0, s)
        b = r.randint(a, s)
        if r.random() < 0.04:
            a, b = b + 1, a
        start.append(a)
        limit.append(b)
    strides = None if r.random() < 0.5 else [r.choice([1, 1, 2, 3]) for _ in shape]
    params = {"start_indices": start, "limit_indices": limit, "strides": strides}
    return [g.array(g.dtype(), shape)], params


def _dynamic_slice(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    idt = g.index_dtype()
    starts = [g.ints(idt, [], -6, 6) for _ in shape]
    sizes = [r.randint(0, s) if r.random() < 0.95 else s + 1 for s in shape]
    return [g.array(g.dtype(), shape), *starts], {"slice_sizes": sizes}


def _dynamic_update_slice(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    dt = g.dtype()
    idt = g.index_dtype()
    upd = [r.randint(0, s) if r.random() < 0.95 else s + 1 for s in shape]
    starts = [g.ints(idt, [], -6, 6) for _ in shape]
    dt2 = dt if r.random() < 0.9 else g.dtype()
    return [g.array(dt, shape), g.array(dt2, upd), *starts], {}


def _gather_structure(g: _G, shape: list[int]) -> dict[str, Any]:
    """Random valid gather/scatter dimension numbers for an operand of ``shape``: batching dims,
    the dims indexed (their order), those collapsed, the slice sizes, the batch shape of the
    indices and the output positions of the window dims."""
    r = g.r
    nd = len(shape)
    dims = list(range(nd))
    obatch = sorted(r.sample(dims, r.choice([0, 0, 0, 1]) if nd > 1 else 0))
    rest = [d for d in dims if d not in obatch]
    k = r.randint(0, len(rest)) if r.random() < 0.2 else r.randint(min(1, len(rest)), len(rest))
    sim = r.sample(rest, k)
    collapsed = sorted(d for d in sim if r.random() < 0.6)
    sizes = []
    for d in dims:
        if d in obatch or d in collapsed:
            sizes.append(1 if shape[d] else 0)
        else:
            sizes.append(r.randint(0, shape[d]))
    # indices batch shape: the operand batch dims' sizes plus free batch dims, shuffled
    free_b = g.shape(0, 2)
    roles = [("o", d) for d in obatch] + [("f", i) for i in range(len(free_b))]
    r.shuffle(roles)
    ibatch_shape = [shape[i] if kind == "o" else free_b[i] for kind, i in roles]
    ibatch_dims = [roles.index(("o", d)) for d in obatch]
    window = [d for d in dims if d not in obatch and d not in collapsed]
    out_rank = len(ibatch_shape) + len(window)
    offset = sorted(r.sample(range(out_rank), len(window)))
    return {"obatch": obatch, "sim": sim, "collapsed": collapsed, "sizes": sizes,
            "ibatch_shape": ibatch_shape, "ibatch_dims": ibatch_dims, "window": window,
            "offset": offset}  # fmt: skip


def _indices(g: _G, st: dict[str, Any], shape: list[int], in_range: bool) -> dict[str, Any]:
    ishape = [*st["ibatch_shape"], len(st["sim"])]
    n = int(np.prod(ishape))
    vals = []
    for j in range(n):
        d = st["sim"][j % len(st["sim"])] if st["sim"] else 0
        hi = shape[d] - st["sizes"][d] if st["sim"] else 0
        v = g.r.randint(0, max(hi, 0)) if in_range else g.r.randint(-2, shape[d] + 1 if st["sim"] else 1)  # fmt: skip
        vals.append(repr(v))
    return {"dtype": g.index_dtype(), "shape": ishape, "values": vals}


def _mode(g: _G) -> str:
    return g.r.choice(["clip", "fill", "fill", "promise_in_bounds"])


def _gather(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    st = _gather_structure(g, shape)
    mode = _mode(g)
    idx = _indices(g, st, shape, mode == "promise_in_bounds" or r.random() < 0.4)
    params = {
        "offset_dims": st["offset"], "collapsed_slice_dims": st["collapsed"],
        "start_index_map": st["sim"], "operand_batching_dims": st["obatch"],
        "start_indices_batching_dims": st["ibatch_dims"], "slice_sizes": st["sizes"],
        "mode": mode, "fill_value": None if r.random() < 0.7 else r.choice(["0", "-1", "nan"]),
    }  # fmt: skip
    return [g.array(g.dtype(), shape), idx], params


_SCATTERS = ("scatter", "scatter_add", "scatter_mul", "scatter_min", "scatter_max", "scatter_sub")


def _scatter(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    st = _gather_structure(g, shape)
    mode = r.choice(["clip", "fill", "promise_in_bounds"])
    idx = _indices(g, st, shape, mode == "promise_in_bounds" or r.random() < 0.4)
    # the updates: the indices' batch dims with the window dims at the offset positions
    ushape: list[int] = []
    bi = iter(st["ibatch_shape"])
    wi = iter(st["window"])
    for p in range(len(st["ibatch_shape"]) + len(st["window"])):
        ushape.append(st["sizes"][next(wi)] if p in st["offset"] else next(bi))
    dt = g.dtype()
    params = {
        "update_window_dims": st["offset"], "inserted_window_dims": st["collapsed"],
        "scatter_dims_to_operand_dims": st["sim"], "operand_batching_dims": st["obatch"],
        "scatter_indices_batching_dims": st["ibatch_dims"], "mode": mode,
        "unique_indices": r.random() < 0.1,
    }  # fmt: skip
    return [g.array(dt, shape), idx, g.array(dt, ushape)], params


def _sort(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    n = r.choice([1, 1, 2, 3])
    ops = [g.array(g.dtype(), shape) for _ in range(n)]
    params = {"dimension": r.randint(-len(shape), len(shape) - 1), "is_stable": r.random() < 0.5,
              "num_keys": r.randint(1, n)}  # fmt: skip
    return ops, params


def _cumulative(g: _G) -> Made:
    shape = g.shape(1, 3)
    return [g.array(g.dtype(), shape)], {"axis": g.r.randint(-len(shape), len(shape) - 1),
                                          "reverse": g.r.random() < 0.5}  # fmt: skip


def _argminmax(g: _G) -> Made:
    shape = g.shape(1, 3)
    return [g.array(g.dtype(), shape)], {"axis": g.r.randint(0, len(shape) - 1),
                                          "index_dtype": g.dtype("int")}  # fmt: skip


def _reduce_precision(g: _G) -> Made:
    r = g.r
    return [g.array(g.dtype("float"), g.shape())], {
        "exponent_bits": r.choice([1, 2, 4, 5, 8, 11, r.randint(1, 11)]),
        "mantissa_bits": r.choice([0, 1, 2, 3, 7, 10, 23, 52, r.randint(0, 52)]),
    }


def _clamp(g: _G) -> Made:
    r = g.r
    shape = g.shape()
    dt = g.dtype("real")
    lo = g.array(dt, [] if r.random() < 0.6 else shape)
    hi = g.array(dt, [] if r.random() < 0.6 else shape)
    return [lo, g.array(dt, shape), hi], {}


def _select_n(g: _G) -> Made:
    r = g.r
    shape = g.shape()
    n = r.choice([1, 2, 2, 3, 4])
    dt = g.dtype()
    wshape = shape if r.random() < 0.8 else []
    if n <= 2 and r.random() < 0.6:
        which = g.array("bool", wshape)
    else:
        which = g.ints(r.choice(["int32", "int32", "uint8"]), wshape, 0, n - 1)
    return [which, *[g.array(dt, shape) for _ in range(n)]], {}


def _rev(g: _G) -> Made:
    shape = g.shape(0, 3)
    dims = [d for d in range(len(shape)) if g.r.random() < 0.5]
    return [g.array(g.dtype(), shape)], {"dimensions": dims}


def _transpose(g: _G) -> Made:
    shape = g.shape(0, 3)
    perm = list(range(len(shape)))
    g.r.shuffle(perm)
    return [g.array(g.dtype(), shape)], {"permutation": perm}


def _squeeze(g: _G) -> Made:
    shape = [1 if g.r.random() < 0.5 else s for s in g.shape(0, 3)]
    dims = [d for d, s in enumerate(shape) if (s == 1 and g.r.random() < 0.7) or g.r.random() < 0.03]  # fmt: skip
    return [g.array(g.dtype(), shape)], {"dimensions": dims}


def _expand_dims(g: _G) -> Made:
    shape = g.shape(0, 2)
    k = g.r.randint(1, 2)
    dims = g.r.sample(range(-len(shape) - k, len(shape) + k), k)
    return [g.array(g.dtype(), shape)], {"dimensions": dims}


def _broadcast_in_dim(g: _G) -> Made:
    r = g.r
    shape = g.shape(0, 2)
    out_nd = len(shape) + r.randint(0, 2)
    bd = sorted(r.sample(range(out_nd), len(shape)))
    out = [g.size() for _ in range(out_nd)]
    for s, d in zip(shape, bd):
        out[d] = s if s != 1 or r.random() < 0.5 else out[d]
    return [g.array(g.dtype(), shape)], {"shape": out, "broadcast_dimensions": bd}


def _reshape(g: _G) -> Made:
    r = g.r
    shape = g.shape(0, 3)
    size = int(np.prod(shape))
    cands = [[size], [1, size], [size, 1], list(reversed(shape)), [*shape, 1], []]
    new = r.choice([c for c in cands if int(np.prod(c)) == size] or [[size]])
    dims = None
    if r.random() < 0.5:
        dims = list(range(len(shape)))
        r.shuffle(dims)
    return [g.array(g.dtype(), shape)], {"new_sizes": new, "dimensions": dims}


def _iota(g: _G) -> Made:
    r = g.r
    if r.random() < 0.4:
        return [], {"dtype": g.dtype("real"), "size": r.choice([0, 1, 3, 5, 300])}
    shape = g.shape(1, 3)
    return [], {"dtype": g.dtype("real"), "shape": shape, "dimension": r.randint(0, len(shape) - 1)}  # fmt: skip


def _convert(g: _G) -> Made:
    return [g.array(g.dtype(), g.shape())], {"new_dtype": g.dtype()}


def _bitcast(g: _G) -> Made:
    r = g.r
    dt = g.dtype()
    width = fp.np_dtype(dt).itemsize
    new = g.dtype()
    nw = fp.np_dtype(new).itemsize
    shape = g.shape(0, 2)
    if nw > width and r.random() < 0.8:
        shape = [*shape, nw // width]
    return [g.array(dt, shape)], {"new_dtype": new}


def _unary_int(g: _G) -> Made:
    return [g.array(g.dtype("int"), g.shape())], {}


def _shift(g: _G) -> Made:
    dt = g.dtype("int")
    bits = 8 * fp.np_dtype(dt).itemsize
    shape = g.shape()
    amount = g.ints(dt, shape if g.r.random() < 0.7 else [], -2, bits + 2)
    return [g.array(dt, shape), amount], {}


def _divrem(g: _G) -> Made:
    r = g.r
    dt = g.dtype("int") if r.random() < 0.75 else g.dtype("real")
    shape = g.shape()
    a, b = g.array(dt, shape), g.array(dt, shape)
    if fp.np_dtype(dt).kind in "iu":
        info = np.iinfo(fp.np_dtype(dt))
        for j in range(len(b["values"])):  # zeros and INT_MIN / -1 more often
            c = r.random()
            if c < 0.25:
                b["values"][j] = "0"
            elif c < 0.45:
                a["values"][j] = repr(int(info.min))
                b["values"][j] = repr(int(np.array(-1).astype(fp.np_dtype(dt))))
    return [a, b], {}


def _nextafter(g: _G) -> Made:
    dt = g.dtype("float")
    shape = g.shape()
    return [g.array(dt, shape), g.array(dt, shape)], {}


def _integer_pow(g: _G) -> Made:
    return [g.array(g.dtype(), g.shape())], {"y": g.r.randint(-3, 6)}


def _top_k(g: _G) -> Made:
    shape = g.shape(1, 3)
    k = g.r.randint(0, shape[-1] + (1 if g.r.random() < 0.05 else 0))
    return [g.array(g.dtype("real"), shape)], {"k": k}


def _reduce_bits(g: _G) -> Made:
    shape = g.shape(0, 3)
    dt = "bool" if g.r.random() < 0.5 else g.dtype("int")
    axes = [d for d in range(len(shape)) if g.r.random() < 0.6]
    return [g.array(dt, shape)], {"axes": axes}


def _approx_k(g: _G) -> Made:
    r = g.r
    shape = g.shape(1, 3)
    dim = r.randint(-1, len(shape) - 1)
    k = r.randint(0, shape[dim])
    params = {"k": k, "reduction_dimension": dim, "recall_target": r.choice([0.95, 0.5, 1.0]),
              "aggregate_to_topk": r.random() < 0.8}  # fmt: skip
    return [g.array(g.dtype("float") if r.random() < 0.8 else g.dtype("real"), shape)], params


PRIMS: dict[str, Callable[[_G], Made]] = {
    "dot_general": _dot_general,
    "conv_general_dilated": _conv,
    "reduce_window": _reduce_window,
    "pad": _pad,
    "slice": _slice,
    "dynamic_slice": _dynamic_slice,
    "dynamic_update_slice": _dynamic_update_slice,
    "gather": _gather,
    **{s: _scatter for s in _SCATTERS},
    "sort": _sort,
    **{c: _cumulative for c in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp")},
    "argmax": _argminmax,
    "argmin": _argminmax,
    "reduce_precision": _reduce_precision,
    "clamp": _clamp,
    "select_n": _select_n,
    "rev": _rev,
    "transpose": _transpose,
    "squeeze": _squeeze,
    "expand_dims": _expand_dims,
    "broadcast_in_dim": _broadcast_in_dim,
    "reshape": _reshape,
    "iota": _iota,
    "convert_element_type": _convert,
    "bitcast_convert_type": _bitcast,
    "population_count": _unary_int,
    "clz": _unary_int,
    **{s: _shift for s in ("shift_left", "shift_right_logical", "shift_right_arithmetic")},
    "rem": _divrem,
    "div": _divrem,
    "nextafter": _nextafter,
    "integer_pow": _integer_pow,
    "top_k": _top_k,
    **{s: _reduce_bits for s in ("reduce_and", "reduce_or", "reduce_xor")},
    "approx_max_k": _approx_k,
    "approx_min_k": _approx_k,
}


def generate(seed: int) -> dict[str, Any]:
    """The program of ``seed``: one primitive, its inputs and parameters, a transformation."""
    rng = random.Random(f"lax{seed}")
    x64 = rng.random() < 0.5
    g = _G(rng, x64)
    prim = rng.choice(sorted(PRIMS))
    transform = rng.choice(TRANSFORMS)
    if transform in ("jvp", "grad"):  # differentiate: prefer float inputs (regenerate a few)
        for _ in range(4):
            inputs, params = PRIMS[prim](g)
            if any(i["dtype"] in fp.FLOATS for i in inputs):
                break
    else:
        inputs, params = PRIMS[prim](g)
    if not inputs and transform not in ("eager", "jit"):
        transform = rng.choice(["eager", "jit"])
    in_axes: list[int | None] = []
    if transform == "vmap":
        b = rng.choice([1, 2, 3])
        for spec in inputs:
            last = spec is inputs[-1] and all(a is None for a in in_axes)
            if rng.random() < 0.6 or last:
                ax = rng.randint(0, len(spec["shape"]))
                base = {k: spec[k] for k in ("dtype", "shape")}
                base["shape"] = [*spec["shape"][:ax], b, *spec["shape"][ax:]]
                vals = [fp._element(rng, spec["dtype"]) for _ in range(int(np.prod(base["shape"])))]  # fmt: skip
                if spec["dtype"] not in fp.FLOATS and "complex" not in spec["dtype"]:
                    # integer operands stay in the range the generator chose (indices, amounts)
                    src = spec["values"] or ["0"]
                    vals = [rng.choice(src) for _ in vals]
                spec.clear()
                spec.update(base, values=vals)
                in_axes.append(ax)
            else:
                in_axes.append(None)
    return {"seed": seed, "x64": x64, "prim": prim, "transform": transform, "inputs": inputs,
            "params": params, "in_axes": in_axes}  # fmt: skip


# --------------------------------------------------------------------------------------------
# evaluating


def _call(prog: dict[str, Any], jax: Any, xs: list[Any]) -> Any:
    lax = importlib.import_module(f"{jax.__name__}.lax")
    name, p = prog["prim"], dict(prog["params"])
    for key in ("preferred_element_type", "index_dtype", "new_dtype", "dtype"):
        if p.get(key) is not None:
            p[key] = fp.np_dtype(p[key])
    if isinstance(p.get("precision"), str):
        p["precision"] = getattr(lax.Precision, p["precision"])
    elif isinstance(p.get("precision"), list):
        p["precision"] = tuple(getattr(lax.Precision, q) for q in p["precision"])
    if name == "dot_general":
        dn = p.pop("dimension_numbers")
        dn = ((tuple(dn[0][0]), tuple(dn[0][1])), (tuple(dn[1][0]), tuple(dn[1][1])))
        return lax.dot_general(xs[0], xs[1], dn, **p)
    if name == "conv_general_dilated":
        if p["dimension_numbers"] is not None:
            p["dimension_numbers"] = tuple(p["dimension_numbers"])
        if isinstance(p["padding"], list):
            p["padding"] = [tuple(q) for q in p["padding"]]
        return lax.conv_general_dilated(xs[0], xs[1], **p)
    if name == "reduce_window":
        comp = getattr(lax, p.pop("computation"))
        init = np.array(fp._literal(p.pop("init"))).astype(xs[0].dtype)
        if isinstance(p["padding"], list):
            p["padding"] = [tuple(q) for q in p["padding"]]
        return lax.reduce_window(xs[0], init, comp, **p)
    if name == "pad":
        return lax.pad(xs[0], xs[1], [tuple(c) for c in p["padding_config"]])
    if name == "dynamic_slice":
        return lax.dynamic_slice(xs[0], xs[1:], p["slice_sizes"])
    if name == "dynamic_update_slice":
        return lax.dynamic_update_slice(xs[0], xs[1], xs[2:])
    if name == "gather":
        dn = lax.GatherDimensionNumbers(
            offset_dims=tuple(p["offset_dims"]), collapsed_slice_dims=tuple(p["collapsed_slice_dims"]),
            start_index_map=tuple(p["start_index_map"]),
            operand_batching_dims=tuple(p["operand_batching_dims"]),
            start_indices_batching_dims=tuple(p["start_indices_batching_dims"]),
        )  # fmt: skip
        fill = None if p["fill_value"] is None else fp._literal(p["fill_value"])
        return lax.gather(xs[0], xs[1], dn, tuple(p["slice_sizes"]), mode=p["mode"], fill_value=fill)  # fmt: skip
    if name in _SCATTERS:
        dn = lax.ScatterDimensionNumbers(
            update_window_dims=tuple(p["update_window_dims"]),
            inserted_window_dims=tuple(p["inserted_window_dims"]),
            scatter_dims_to_operand_dims=tuple(p["scatter_dims_to_operand_dims"]),
            operand_batching_dims=tuple(p["operand_batching_dims"]),
            scatter_indices_batching_dims=tuple(p["scatter_indices_batching_dims"]),
        )
        return getattr(lax, name)(xs[0], xs[1], xs[2], dn, mode=p["mode"], unique_indices=p["unique_indices"])  # fmt: skip
    if name == "sort":
        return lax.sort(tuple(xs) if len(xs) > 1 else xs[0], **p)
    if name in ("reduce_precision", "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp",
                "argmax", "argmin", "slice", "rev", "transpose", "squeeze", "expand_dims",
                "broadcast_in_dim", "reshape", "convert_element_type", "bitcast_convert_type",
                "integer_pow", "top_k", "reduce_and", "reduce_or", "reduce_xor"):  # fmt: skip
        return getattr(lax, name)(xs[0], **p)
    if name in ("approx_max_k", "approx_min_k"):
        return getattr(lax, name)(xs[0], p.pop("k"), **p)
    if name == "iota":
        if "size" in p:
            return lax.iota(p["dtype"], p["size"])
        return lax.broadcasted_iota(p["dtype"], tuple(p["shape"]), p["dimension"])
    return getattr(lax, name)(*xs, **p)


def evaluate(prog: dict[str, Any], jax: Any) -> Any:
    """The answer of ``prog`` computed with ``jax`` (64-bit mode set by the caller)."""
    jnp = importlib.import_module(f"{jax.__name__}.numpy")
    xs = [fp.make_input(spec, jnp) for spec in prog["inputs"]]

    def f(*a: Any) -> Any:
        return _call(prog, jax, list(a))

    t = prog["transform"]
    if t == "eager":
        return f(*xs)
    if t == "jit":
        return jax.jit(f)(*xs)
    if t == "vmap":
        return jax.vmap(f, in_axes=tuple(prog["in_axes"]))(*xs)
    diff = [j for j, s in enumerate(prog["inputs"]) if s["dtype"] in fp.FLOATS] or [0]

    def g(*d: Any) -> Any:
        full = list(xs)
        for j, v in zip(diff, d):
            full[j] = v
        return f(*full)

    primals = tuple(xs[j] for j in diff)
    if t == "jvp":
        return jax.jvp(g, primals, tuple(jnp.ones_like(x) for x in primals))

    def scalar(*d: Any) -> Any:
        y = jax.tree_util.tree_leaves(g(*d))[0]
        return jnp.sum(jnp.real(y).astype(d[0].dtype))

    return jax.grad(scalar, argnums=tuple(range(len(diff))))(*primals)


def run(prog: dict[str, Any], jax: Any) -> Any:
    """``["ok", encoded answer]`` or ``["error", class name, [class and base names]]``."""
    return fp.run(prog, jax, evaluate)


def as_fuzz_program(prog: dict[str, Any]) -> dict[str, Any]:
    """The program in ``fuzz_programs``' form, for its comparison: a derivative counts as ``grad``
    (compared within a tolerance), a primitive that sums in some order as ``matmul``; a target
    dtype of the parameters joins the dtypes whose precision sets the tolerance."""
    name = prog["prim"]
    op: list[Any] = ["matmul" if name in APPROX_PRIMS else name]
    p = prog["params"]
    for key in ("preferred_element_type", "new_dtype"):
        if p.get(key):
            op.append({"dtype": p[key]})
    t = "grad" if prog["transform"] in ("jvp", "grad") else "jit"
    return {"seed": prog["seed"], "x64": prog["x64"], "transform": t, "inputs": prog["inputs"],
            "ops": [op]}  # fmt: skip


if __name__ == "__main__":
    print(json.dumps(generate(int(sys.argv[1])), indent=1))
