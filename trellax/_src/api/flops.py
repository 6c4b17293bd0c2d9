"""FLOP counts of a traced function, by the conventions of XLA's HLO cost analysis (what
``jax.jit(f).lower(...).cost_analysis()['flops']`` reports and Flax's summary table shows):

- an elementwise operation costs one FLOP per output element; transcendental ones (``exp``,
  ``log``, ``tanh``, ``sqrt``, ``pow``, ``erf``, ...) cost none (XLA counts them apart), except
  ``logistic`` (three per element);
- ``integer_pow`` costs its multiplications per element (``x**3``: two);
- a conversion costs one per element when the dtype changes, none otherwise;
- data movement (reshape, broadcast, transpose, slicing, gather, padding, concatenation,
  iota, random bits) costs nothing;
- a reduction costs ``input size - output size``; a windowed reduction ``output size *
  (window size - 1)``; a cumulative one along an axis of length ``n`` ``size * (n - 1)``;
- ``dot_general`` costs ``2 * output size * contracted size``; a convolution ``2 * batch *
  output features * input features per group * taps``, where taps count the kernel positions
  that land on an input element (not on padding or dilation holes);
- ``cond`` costs its predicate work plus its most expensive branch; a loop's body (``scan``,
  ``while``) counts once, as XLA counts it when it does not unroll the loop;
- nested jaxprs (``jit``, custom derivatives, checkpointing) count their contents.

Sorting and ``argmax``-like reductions are counted as one FLOP per element (XLA counts their
comparator's operations instead); random-bit generation counts nothing (XLA counts the
threefry hash's operations). ``docs/nn.md`` lists these differences."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import Literal

_TRANSCENDENTAL = frozenset(
    [
        "exp",
        "exp2",
        "log",
        "log1p",
        "expm1",
        "tanh",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "sinh",
        "cosh",
        "asinh",
        "acosh",
        "atanh",
        "atan2",
        "pow",
        "sqrt",
        "rsqrt",
        "cbrt",
        "erf",
        "erfc",
        "erf_inv",
        "lgamma",
        "digamma",
        "igamma",
        "igammac",
        "igamma_grad_a",
        "random_gamma_grad",
        "bessel_i0e",
        "bessel_i1e",
        "polygamma",
        "zeta",
        "regularized_incomplete_beta",
    ]
)
_FREE = frozenset(
    [
        "reshape",
        "broadcast_in_dim",
        "transpose",
        "slice",
        "dynamic_slice",
        "dynamic_update_slice",
        "concatenate",
        "pad",
        "gather",
        "squeeze",
        "expand_dims",
        "iota",
        "copy",
        "copy_p",
        "stop_gradient",
        "real",
        "rev",
        "split",
        "random_seed",
        "random_bits",
        "random_wrap",
        "random_unwrap",
        "random_fold_in",
        "random_split",
        "threefry2x32",
        "sharding_constraint",
        "device_put",
        "bitcast_convert_type",
        "optimization_barrier",
        "axis_index",
        "pvary",
        "mesh_cast",
        "reshard",
        "name",
    ]
)
_REDUCE = frozenset(
    [
        "reduce_sum",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
        "reduce_and",
        "reduce_or",
        "reduce_xor",
        "argmax",
        "argmin",
        "reduce_precision_sum",
    ]
)
_CUMULATIVE = frozenset(["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"])
_LOOPS = frozenset(("scan", "while"))


def _size(var: Any) -> int:
    shape = getattr(getattr(var, "aval", None), "shape", ())
    return int(math.prod(shape))


def _inner_jaxprs(value: Any) -> Iterable[Any]:
    """The jaxprs held by one equation parameter (a jaxpr, a closed jaxpr, or a sequence)."""
    if hasattr(value, "eqns"):
        yield value
    elif hasattr(value, "jaxpr") and hasattr(value.jaxpr, "eqns"):
        yield value.jaxpr
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _inner_jaxprs(v)


def _integer_pow_flops(y: int) -> int:
    n = abs(int(y))
    if n <= 1:
        return 1 if y < 0 else 0
    mults = n.bit_length() - 1 + bin(n).count("1") - 1
    return mults + (1 if y < 0 else 0)


def _conv_taps(eqn: Any, lhs_shape: tuple[int, ...], rhs_shape: tuple[int, ...]) -> int:
    params = eqn.params
    dn = params["dimension_numbers"]
    lhs_spec, rhs_spec, out_spec = dn.lhs_spec, dn.rhs_spec, dn.out_spec
    out_shape = eqn.outvars[0].aval.shape
    taps = 1
    spatial = len(lhs_spec) - 2
    for d in range(spatial):
        n_in = lhs_shape[lhs_spec[2 + d]]
        n_k = rhs_shape[rhs_spec[2 + d]]
        n_out = out_shape[out_spec[2 + d]]
        stride = params["window_strides"][d]
        lo = params["padding"][d][0]
        lhs_dil = params["lhs_dilation"][d]
        rhs_dil = params["rhs_dilation"][d]
        o = np.arange(n_out)[:, None]
        k = np.arange(n_k)[None, :]
        pos = o * stride - lo + k * rhs_dil
        valid = (pos >= 0) & (pos <= (n_in - 1) * lhs_dil) & (pos % lhs_dil == 0)
        taps *= int(valid.sum())
    return taps


def _conv_flops(eqn: Any) -> int:
    lhs_shape = eqn.invars[0].aval.shape
    rhs_shape = eqn.invars[1].aval.shape
    dn = eqn.params["dimension_numbers"]
    batch = lhs_shape[dn.lhs_spec[0]]
    batch //= int(eqn.params.get("batch_group_count", 1) or 1)
    out_features = rhs_shape[dn.rhs_spec[0]]
    in_per_group = rhs_shape[dn.rhs_spec[1]]
    taps = _conv_taps(eqn, lhs_shape, rhs_shape)
    return 2 * int(batch) * int(out_features) * int(in_per_group) * taps


def _dot_flops(eqn: Any) -> int:
    (lhs_contract, _), _ = eqn.params["dimension_numbers"]
    lhs_shape = eqn.invars[0].aval.shape
    contracted = math.prod(lhs_shape[d] for d in lhs_contract)
    return 2 * _size(eqn.outvars[0]) * int(contracted)


def _convert_flops(eqn: Any) -> int:
    if isinstance(eqn.invars[0], Literal):  # folded into a constant, as XLA does
        return 0
    src = getattr(eqn.invars[0].aval, "dtype", None)
    dst = eqn.params.get("new_dtype")
    return 0 if src == dst else _size(eqn.outvars[0])


def _window_flops(eqn: Any) -> int:
    window = math.prod(eqn.params.get("window_dimensions", (1,)))
    return _size(eqn.outvars[0]) * (int(window) - 1)


def _cumulative_flops(eqn: Any) -> int:
    shape = eqn.outvars[0].aval.shape
    n = shape[eqn.params["axis"]] if shape else 1
    return _size(eqn.outvars[0]) * max(int(n) - 1, 0)


_RULES: dict[str, Callable[[Any], int]] = {
    "dot_general": _dot_flops,
    "conv_general_dilated": _conv_flops,
    "convert_element_type": _convert_flops,
    "integer_pow": lambda e: _size(e.outvars[0]) * _integer_pow_flops(e.params["y"]),
    "logistic": lambda e: 3 * _size(e.outvars[0]),
}


def _eqn_flops(eqn: Any) -> int:
    name = eqn.primitive.name
    inner = [j for v in eqn.params.values() for j in _inner_jaxprs(v)]
    if inner:
        costs = [jaxpr_flops(j) for j in inner]
        return max(costs) if name == "cond" else sum(costs)
    if name in _RULES:
        return _RULES[name](eqn)
    if name in _TRANSCENDENTAL or name in _FREE or name.startswith("random_"):
        return 0
    if not eqn.outvars:
        return 0
    if name in _REDUCE or (name.startswith("reduce_") and name != "reduce_precision"):
        return max(sum(_size(v) for v in eqn.invars[:1]) - _size(eqn.outvars[0]), 0)
    if name.startswith("reduce_window"):
        return _window_flops(eqn)
    if name in _CUMULATIVE:
        return _cumulative_flops(eqn)
    return _size(eqn.outvars[0])


def jaxpr_flops(jaxpr: Any) -> int:
    """The FLOP count of a jaxpr (see the module docstring for the conventions)."""
    return sum(_eqn_flops(eqn) for eqn in jaxpr.eqns)


def _eqn_transcendentals(eqn: Any) -> int:
    inner = [j for v in eqn.params.values() for j in _inner_jaxprs(v)]
    if inner:
        costs = [jaxpr_transcendentals(j) for j in inner]
        return max(costs) if eqn.primitive.name == "cond" else sum(costs)
    if eqn.primitive.name in _TRANSCENDENTAL and eqn.outvars:
        return _size(eqn.outvars[0])
    return 0


def jaxpr_transcendentals(jaxpr: Any) -> int:
    """The elements computed by transcendental operations (``exp``, ``tanh``, ...), which XLA's
    cost analysis counts apart from the FLOPs."""
    return sum(_eqn_transcendentals(eqn) for eqn in jaxpr.eqns)


def _nbytes(var: Any) -> int:
    aval = getattr(var, "aval", None)
    dtype = getattr(aval, "dtype", None)
    itemsize = getattr(dtype, "itemsize", 0) if dtype is not None else 0
    return _size(var) * int(itemsize)


def _eqn_bytes(eqn: Any) -> int:
    inner = [j for v in eqn.params.values() for j in _inner_jaxprs(v)]
    if inner:
        costs = [jaxpr_bytes_accessed(j) for j in inner]
        return max(costs) if eqn.primitive.name == "cond" else sum(costs)
    operands = sum(_nbytes(v) for v in eqn.invars if not isinstance(v, Literal))
    return operands + sum(_nbytes(v) for v in eqn.outvars)


def jaxpr_bytes_accessed(jaxpr: Any) -> int:
    """The bytes every operation reads and writes, each operation on its own (nothing fused):
    the sum over equations of their array operands' and results' sizes."""
    return sum(_eqn_bytes(eqn) for eqn in jaxpr.eqns)


def cost_analysis(jaxpr: Any) -> dict[str, float]:
    """``Lowered.cost_analysis()``'s estimate of a jaxpr: the keys of XLA's totals, ``flops``
    and ``transcendentals`` by the conventions above, ``bytes accessed`` with no fusion (XLA's
    count for a compiled program is lower where it fuses). XLA's per-operand entries
    (``bytes accessed0{}``, ``utilization0{}``, ...) are not given."""
    return {
        "flops": float(jaxpr_flops(jaxpr)),
        "transcendentals": float(jaxpr_transcendentals(jaxpr)),
        "bytes accessed": float(jaxpr_bytes_accessed(jaxpr)),
    }
