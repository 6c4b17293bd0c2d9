"""Window primitives: ``conv_general_dilated`` (with ``conv_transpose`` built on it) and
``reduce_window`` (with its sum/max/min forms).

They never promote (operands share a dtype). Dimension numbers: ``None`` (``NCHW``/``OIHW``/
``NCHW``), spec strings (``("NHWC", "HWIO", "NHWC")``) or ``ConvDimensionNumbers``. Padding:
``"SAME"``, ``"SAME_LOWER"``, ``"VALID"`` or ``(low, high)`` per axis (negative: crops)."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from trellax._src.backend import conv as conv_kernels
from trellax._src.backend.array import ArrayImpl
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util, elementwise, sharding_rules, structural
from trellax._src.lax._base import asarray, check_dtype, num, same_dtypes_error
from trellax._src.lax.convenience import full
from trellax._src.lax.elementwise import (
    add_p,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    eq,
    max_p,
    min_p,
    mul_p,
)
from trellax._src.lax.shapes import Dims, axis_size, moveaxis
from trellax._src.lax.structural import (
    broadcast_in_dim_p,
    pad,
    pad_p,
    reshape_p,
    rev,
    slice_in_dim_static,
    transpose,
    transpose_p,
)

Pads = tuple[tuple[int, int], ...]


class ConvDimensionNumbers(NamedTuple):
    """Axis permutations: ``lhs_spec = (batch, feature, *spatial)``, ``rhs_spec = (out feature,
    in feature, *spatial)``, ``out_spec = (batch, feature, *spatial)``."""

    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


def _ints(
    name: str,
    what: str,
    xs: Any,
    n: int,
    count: type[Exception] = ValueError,
    sign: type[Exception] = ValueError,
) -> tuple[int, ...]:
    """``xs`` as ``n`` positive ints; a wrong count raises ``count``, a value below 1 ``sign``
    (JAX's classes differ by argument: a dilation below 1 is a ``TypeError``, a stride a
    ``ValueError``; ``reduce_window``'s wrong counts are mostly ``TypeError``)."""
    try:
        t = tuple(operator.index(x) for x in xs)
    except TypeError:
        raise TypeError(f"{name}: {what} must be a sequence of integers, got {xs!r}") from None
    if len(t) != n:
        raise count(f"{name}: {what} must have {n} entries (one per spatial axis), got {t}")
    if any(v < 1 for v in t):
        raise sign(f"{name}: {what} must be positive, got {t}")
    return t


def padtype_to_pads(
    in_shape: Sequence[int],
    window_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str,
) -> list[tuple[int, int]]:
    """``(low, high)`` pads of ``"SAME"`` (output ``ceil(in / stride)``, extra pad at the end),
    ``"SAME_LOWER"`` (extra pad at the start) or ``"VALID"`` (none)."""
    p = padding.upper()
    if p == "VALID":
        return [(0, 0)] * len(in_shape)
    if p not in ("SAME", "SAME_LOWER"):
        raise RuntimeError(
            f"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got {padding}."
        )
    pads = []
    for n, k, s in zip(in_shape, window_shape, window_strides):
        n, k, s = int(n), int(k), int(s)  # Python ints out, whatever ints came in (JAX)
        out = -(-n // s)
        total = max((out - 1) * s + k - n, 0)
        lo = total // 2 if p == "SAME" else total - total // 2
        pads.append((lo, total - lo))
    return pads


def _pads(
    name: str,
    padding: Any,
    in_shape: Any,
    window: Any,
    strides: Any,
    count: type[Exception] = ValueError,
) -> Pads:
    if isinstance(padding, str):
        return tuple(padtype_to_pads(in_shape, window, strides, padding))
    try:
        pads = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (TypeError, ValueError):
        if name == "conv_general_dilated":  # JAX's ValueError and words
            raise ValueError(
                "padding argument to conv_general_dilated should be a string or a sequence of "
                f"(low, high) pairs, got {padding!r}"
            ) from None
        raise TypeError(
            f"{name}: padding must be 'SAME', 'SAME_LOWER', 'VALID' or a sequence of (low, high) "
            f"integer pairs, got {padding!r}"
        ) from None
    if len(pads) != len(in_shape):
        raise count(f"{name}: padding needs {len(in_shape)} (low, high) pairs, got {len(pads)}")
    return pads


def conv_general_permutations(
    specs: tuple[str, str, str],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The axis permutations named by layout strings such as ``("NHWC", "HWIO", "NHWC")``
    (spatial axes in the kernel string's order)."""
    lhs, rhs, out = specs
    for i, (spec, (a, b)) in enumerate(zip(specs, (("N", "C"), ("O", "I"), ("N", "C")))):
        if not spec.count(a) == spec.count(b) == 1:
            raise TypeError(
                f"convolution dimension_numbers[{i}] must contain the characters '{a}' and "
                f"'{b}' exactly once, got {spec}."
            )
        if len(spec) != len(set(spec)):
            raise TypeError(
                f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}."
            )
    spatial = [c for c in rhs if c not in "OI"]
    if not set(lhs) - {"N", "C"} == set(spatial) == set(out) - {"N", "C"}:
        raise TypeError(
            "convolution dimension_numbers elements must each have the same set of spatial "
            f"characters, got {specs}."
        )

    def perm(spec: str, a: str, b: str) -> tuple[int, ...]:
        return (spec.index(a), spec.index(b), *(spec.index(c) for c in spatial))

    return perm(lhs, "N", "C"), perm(rhs, "O", "I"), perm(out, "N", "C")


def conv_dimension_numbers(
    lhs_shape: Sequence[int], rhs_shape: Sequence[int], dimension_numbers: Any
) -> ConvDimensionNumbers:
    """Normalizes ``dimension_numbers`` (None, spec strings, or permutations)."""
    nd = len(lhs_shape)
    if len(rhs_shape) != nd and isinstance(dimension_numbers, ConvDimensionNumbers):
        # numbers given in full: JAX's shape rule speaks (a ValueError)
        raise ValueError(
            "conv_general_dilated lhs and rhs must have the same number of dimensions, but got "
            f"{tuple(lhs_shape)} and {tuple(rhs_shape)}."
        )
    if len(rhs_shape) != nd:
        raise TypeError(
            "convolution requires lhs and rhs ndim to be equal, got "
            f"{len(lhs_shape)} and {len(rhs_shape)}."
        )
    if nd < 2:  # JAX fails indexing the missing axes: an IndexError
        raise IndexError(
            f"convolution requires operands of rank >= 2, got shape {tuple(lhs_shape)}"
        )
    if dimension_numbers is None:
        iota = tuple(range(nd))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if isinstance(dimension_numbers, tuple | list) and len(dimension_numbers) == 3:
        if all(isinstance(s, str) for s in dimension_numbers):
            for i, s in enumerate(dimension_numbers):
                if len(s) != nd:
                    raise TypeError(
                        f"convolution dimension_numbers[{i}] must have len equal to the ndim of "
                        f"lhs and rhs, got {len(s)} for lhs and rhs shapes {tuple(lhs_shape)} "
                        f"and {tuple(rhs_shape)}."
                    )
            return ConvDimensionNumbers(*conv_general_permutations(tuple(dimension_numbers)))
        return ConvDimensionNumbers(*(tuple(int(i) for i in p) for p in dimension_numbers))
    raise TypeError(
        f"convolution dimension_numbers must be tuple/list or None, got {type(dimension_numbers)}."
    )


# -- conv_general_dilated -----------------------------------------------------------------------

conv_general_dilated_p = Primitive("conv_general_dilated")
conv_general_dilated_p.def_impl(conv_kernels.conv_general_dilated)


@conv_general_dilated_p.def_abstract_eval
def _conv_abstract_eval(
    lhs: AbstractValue,
    rhs: AbstractValue,
    *,
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: ConvDimensionNumbers,
    feature_group_count: int,
    preferred_element_type: Any,
) -> ShapedArray:
    lspec, rspec, ospec = dimension_numbers
    ls, rs = tuple(lhs.shape), tuple(rhs.shape)
    n, c = ls[lspec[0]], ls[lspec[1]]
    o, i = rs[rspec[0]], rs[rspec[1]]
    g = feature_group_count
    if c != i * g:
        raise ValueError(
            "conv_general_dilated lhs feature dimension size divided by feature_group_count "
            f"must equal the rhs input feature dimension size, but {c} // {g} != {i}."
        )
    if o % g:
        raise ValueError(
            "conv_general_dilated rhs output feature dimension size must be a multiple of "
            f"feature_group_count, but {o} is not a multiple of {g}."
        )
    spatial = []
    for j, (s, p, ld, rd) in enumerate(zip(window_strides, padding, lhs_dilation, rhs_dilation)):
        x = ls[lspec[2 + j]]
        x = ((x - 1) * ld + 1 if x else 0) + p[0] + p[1]
        k = (rs[rspec[2 + j]] - 1) * rd + 1
        spatial.append(max(0, (x - k) // s + 1))
    logical = (n, o, *spatial)
    shape = [0] * len(logical)
    for j, ax in enumerate(ospec):
        shape[ax] = logical[j]
    return ShapedArray._fast(tuple(shape), preferred_element_type, lhs.weak_type and rhs.weak_type)


def conv_general_dilated(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """General n-d convolution (cross-correlation, as in XLA) with strides, padding, input
    (``lhs_dilation``) and kernel (``rhs_dilation``) dilation and feature groups.

    >>> import trellax.numpy as tnp, trellax.lax as lax
    >>> x = tnp.ones((1, 5, 5, 2)); w = tnp.ones((3, 3, 2, 4))
    >>> lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")).shape
    (1, 5, 5, 4)
    """
    if out_sharding is not None:
        check_out_sharding("lax.conv_general_dilated", out_sharding)
        whole: tuple[Any, ...] = (lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation)
        whole += (dimension_numbers, feature_group_count, batch_group_count, precision)
        whole += (preferred_element_type,)
        return sharding_rules.with_out_sharding(lambda: conv_general_dilated(*whole), out_sharding)
    name = "conv_general_dilated"
    x, y = asarray(lhs), asarray(rhs)
    if x.dtype != y.dtype:
        raise same_dtypes_error(name, [x.dtype, y.dtype])
    check_dtype(name, x.dtype, num, None)
    dn = conv_dimension_numbers(x.shape, y.shape, dimension_numbers)
    b = operator.index(batch_group_count)
    if b != 1:
        return _batch_grouped(
            x, y, b, dn, window_strides, padding, lhs_dilation, rhs_dilation,
            feature_group_count, preferred_element_type,
        )  # fmt: skip
    nsp = x.ndim - 2
    if hasattr(window_strides, "__len__") and len(window_strides) != nsp:
        raise ValueError(
            "conv_general_dilated window and window_strides must have the same number of "
            f"dimensions, but got {nsp} and {len(window_strides)}"
        )
    strides = _ints(name, "window_strides", window_strides, nsp)
    ld = _ints(name, "lhs_dilation", lhs_dilation or (1,) * nsp, nsp, sign=TypeError)
    rd = _ints(name, "rhs_dilation", rhs_dilation or (1,) * nsp, nsp, sign=TypeError)
    g = operator.index(feature_group_count)
    if g < 1:
        raise ValueError(f"{name}: feature_group_count must be positive, got {g}")
    if isinstance(padding, str) and any(d != 1 for d in ld):
        raise ValueError(
            "String padding is not implemented for transposed convolution using this op. Please "
            "either exactly specify the required padding or use conv_transpose."
        )
    in_sp = [(x.shape[dn.lhs_spec[2 + j]] - 1) * ld[j] + 1 for j in range(nsp)]
    k_sp = [(y.shape[dn.rhs_spec[2 + j]] - 1) * rd[j] + 1 for j in range(nsp)]
    pads = _pads(name, padding, in_sp, k_sp, strides, count=TypeError)
    sizes = [max(0, s) for s in in_sp]  # an empty axis stays empty when dilated
    if any(s + lo + hi < 0 for s, (lo, hi) in zip(sizes, pads, strict=True)):
        # a shape error: JAX reports it before the preferred type's (a dtype rule, later)
        raise ValueError(
            f"{name}: negative padding {list(pads)} removes more than the (dilated) spatial "
            f"sizes {sizes} of the lhs"
        )
    out = x.dtype
    if preferred_element_type is not None:
        out = dtypes.check_user_dtype(preferred_element_type, name)
        _check_preferred(x.dtype, out)
    return conv_general_dilated_p.bind(
        x,
        y,
        window_strides=strides,
        padding=pads,
        lhs_dilation=ld,
        rhs_dilation=rd,
        dimension_numbers=dn,
        feature_group_count=g,
        preferred_element_type=out,
    )


#: the kinds of preferred type a convolution of each input kind accepts (JAX 0.10.2, observed
#: over every pair of 13 dtypes): as wide as the input at least, of these kinds; bool anything
_PREFERRED_KINDS = {"i": ("i", "f"), "u": ("i", "u", "f"), "f": ("f",), "c": ("c",)}


def _check_preferred(inp: Any, pref: Any) -> None:
    """JAX's ``TypeError`` for a preferred type a convolution of ``inp`` does not take."""
    k = dtypes.kind(inp)
    if k not in _PREFERRED_KINDS:
        return
    if dtypes.kind(pref) not in _PREFERRED_KINDS[k] or dtypes.itemsize_bits(
        pref
    ) < dtypes.itemsize_bits(inp):
        raise TypeError(
            f"Input type is incompatible with `preferred_element_type`: {np.dtype(inp).name} "
            f"input, preferred {np.dtype(pref).name}"
        )


def _batch_grouped(
    x: Array,
    y: Array,
    b: int,
    dn: ConvDimensionNumbers,
    window_strides: Sequence[int],
    padding: Any,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    feature_group_count: int,
    preferred_element_type: DTypeLike | None,
) -> Array:
    """``batch_group_count=b``: the lhs batch and the rhs output features are split into ``b``
    groups, group ``k`` of the output features convolving batch group ``k`` (XLA's definition);
    one primitive convolution per group, concatenated along the output feature axis."""

    name = "conv_general_dilated"
    n, o = x.shape[dn.lhs_spec[0]], y.shape[dn.rhs_spec[0]]
    if b < 1 or n % b or o % b:
        raise ValueError(
            f"{name}: batch_group_count={b} must be positive and divide the lhs batch size {n} "
            f"and the rhs output feature size {o}"
        )
    if feature_group_count != 1:
        raise ValueError(
            f"{name}: at most one of feature_group_count and batch_group_count may be > 1, got "
            f"{feature_group_count} and {b}"
        )
    nb, ob = n // b, o // b
    parts = [
        conv_general_dilated(
            structural.slice_in_dim(x, k * nb, (k + 1) * nb, 1, dn.lhs_spec[0]),
            structural.slice_in_dim(y, k * ob, (k + 1) * ob, 1, dn.rhs_spec[0]),
            window_strides,
            padding,
            lhs_dilation,
            rhs_dilation,
            dn,
            preferred_element_type=preferred_element_type,
        )
        for k in range(b)
    ]
    return structural.concatenate(parts, dn.out_spec[1])


# The cotangents of the convolution's two operands are primitives of their own, so the three
# form a closed family under differentiation: F(x, w), Lt(ct, w) (input-shaped) and Rt(x, ct)
# (kernel-shaped) are all bilinear, and each one's transposes are the other two.

conv_lhs_transpose_p = Primitive("conv_lhs_transpose")
conv_lhs_transpose_p.def_impl(conv_kernels.conv_lhs_transpose)
conv_rhs_transpose_p = Primitive("conv_rhs_transpose")
conv_rhs_transpose_p.def_impl(conv_kernels.conv_rhs_transpose)


@conv_lhs_transpose_p.def_abstract_eval
def _lhs_t_abstract_eval(
    ct: AbstractValue, w: AbstractValue, *, lhs_shape: Any, preferred_element_type: Any, **_: Any
) -> ShapedArray:
    return ShapedArray._fast(tuple(lhs_shape), preferred_element_type, False)


@conv_rhs_transpose_p.def_abstract_eval
def _rhs_t_abstract_eval(
    x: AbstractValue, ct: AbstractValue, *, rhs_shape: Any, preferred_element_type: Any, **_: Any
) -> ShapedArray:
    return ShapedArray._fast(tuple(rhs_shape), preferred_element_type, False)


def _common(params: dict[str, Any]) -> dict[str, Any]:
    return {
        k: params[k]
        for k in (
            "window_strides",
            "padding",
            "lhs_dilation",
            "rhs_dilation",
            "dimension_numbers",
            "feature_group_count",
        )
    }


def _conv(x: Any, w: Any, out_dtype: Any, params: dict[str, Any]) -> Any:
    return conv_general_dilated_p.bind(x, w, preferred_element_type=out_dtype, **_common(params))


def _lhs_t(ct: Any, w: Any, x_aval: Any, params: dict[str, Any]) -> Any:
    return conv_lhs_transpose_p.bind(
        ct, w, lhs_shape=tuple(x_aval.shape), preferred_element_type=x_aval.dtype,
        **_common(params),
    )  # fmt: skip


def _rhs_t(x: Any, ct: Any, w_aval: Any, params: dict[str, Any]) -> Any:
    return conv_rhs_transpose_p.bind(
        x, ct, rhs_shape=tuple(w_aval.shape), preferred_element_type=w_aval.dtype,
        **_common(params),
    )  # fmt: skip


def _aval(x: Any) -> Any:
    return x.aval if ad_util.is_undefined(x) else ShapedArray._fast(x.shape, x.dtype, False)


def _conv_transpose_rule(ct: Any, x: Any, w: Any, **params: Any) -> list[Any]:
    if ad_util.is_undefined(x) and ad_util.is_undefined(w):
        raise TypeError("conv_general_dilated is not linear in both operands at once")
    if ad_util.is_undefined(x):
        return [_lhs_t(ct, w, x.aval, params), None]
    return [None, _rhs_t(x, ct, w.aval, params)]


def _lhs_t_transpose_rule(g: Any, c: Any, w: Any, **params: Any) -> list[Any]:
    if ad_util.is_undefined(c):
        return [_conv(g, w, c.aval.dtype, params), None]
    return [None, _rhs_t(g, c, w.aval, params)]


def _rhs_t_transpose_rule(h: Any, x: Any, c: Any, **params: Any) -> list[Any]:
    if ad_util.is_undefined(x):
        return [_lhs_t(c, h, x.aval, params), None]
    return [None, _conv(x, h, c.aval.dtype, params)]


ad_util.defjvp(
    conv_general_dilated_p,
    lambda t, ans, x, w, **p: _conv(t, w, ans.dtype, p),
    lambda t, ans, x, w, **p: _conv(x, t, ans.dtype, p),
)
conv_general_dilated_p.def_transpose(_conv_transpose_rule)
ad_util.defjvp(
    conv_lhs_transpose_p,
    lambda t, ans, c, w, **p: _lhs_t(t, w, _aval(ans), p),
    lambda t, ans, c, w, **p: _lhs_t(c, t, _aval(ans), p),
)
conv_lhs_transpose_p.def_transpose(_lhs_t_transpose_rule)
ad_util.defjvp(
    conv_rhs_transpose_p,
    lambda t, ans, x, c, **p: _rhs_t(t, c, _aval(ans), p),
    lambda t, ans, x, c, **p: _rhs_t(x, t, _aval(ans), p),
)
conv_rhs_transpose_p.def_transpose(_rhs_t_transpose_rule)


def _conv_transpose_padding(k: int, s: int, padding: Any) -> tuple[int, int]:
    if padding == "SAME":
        pad_len = k + s - 2
        pad_a = k - 1 if s > k - 1 else math.ceil(pad_len / 2)
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        pad_a = k - 1
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return pad_a, pad_len - pad_a


_TRANSPOSE_DEFAULT_DN = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def conv_transpose(
    lhs: ArrayLike,
    rhs: ArrayLike,
    strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    transpose_kernel: bool = False,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    use_consistent_padding: bool = False,
) -> Array:
    """The "deconvolution": a convolution of the ``strides``-dilated input, so the spatial
    size grows by ``strides``; ``transpose_kernel`` flips the kernel's spatial axes and swaps
    its in/out features (the gradient of a forward convolution). ``"SAME"``/``"VALID"`` name
    the forward convolution's padding; ``(low, high)`` pairs are the transposed convolution's
    own, or with ``use_consistent_padding`` the forward one's too (the input is then padded by
    ``dilation * (k - 1) - low`` and ``- high``, PyTorch's convention, as JAX)."""
    x, y = asarray(lhs), asarray(rhs)
    if dimension_numbers is None:
        if x.ndim not in _TRANSPOSE_DEFAULT_DN:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_DEFAULT_DN[x.ndim]
    dn = conv_dimension_numbers(x.shape, y.shape, dimension_numbers)
    nsp = x.ndim - 2
    k_sdims = [y.shape[a] for a in dn.rhs_spec[2:]]
    rd = tuple(rhs_dilation) if rhs_dilation is not None else (1,) * nsp
    eff_k = [(k - 1) * r + 1 for k, r in zip(k_sdims, rd)]
    if isinstance(padding, str):  # as JAX: only 'SAME'/'VALID' are transposed; another string
        pads: Any = padding  # is the dilated forward conv's (refused with a stride, else plain)
        if padding in ("SAME", "VALID"):
            pads = [_conv_transpose_padding(k, s, padding) for k, s in zip(eff_k, strides)]
    elif use_consistent_padding:
        pads = [(e - 1 - lo, e - 1 - hi) for e, (lo, hi) in zip(eff_k, padding)]
    else:
        pads = padding
    if transpose_kernel:
        y = rev(y, tuple(dn.rhs_spec[2:]))
        perm = list(range(y.ndim))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = perm[dn.rhs_spec[1]], perm[dn.rhs_spec[0]]
        y = transpose(y, tuple(perm))
    return conv_general_dilated(
        x,
        y,
        (1,) * nsp,
        pads,
        lhs_dilation=tuple(strides),
        rhs_dilation=rd,
        dimension_numbers=dn,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


# -- reduce_window ------------------------------------------------------------------------------

reduce_window_p = Primitive("reduce_window")
reduce_window_p.def_impl(conv_kernels.reduce_window)


@reduce_window_p.def_abstract_eval
def _reduce_window_abstract_eval(
    x: AbstractValue,
    init: AbstractValue,
    *,
    computation: str,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> ShapedArray:
    shape = []
    for n, k, s, p, bd, wd in zip(
        x.shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    ):
        size = ((n - 1) * bd + 1 if n else 0) + p[0] + p[1]
        shape.append(max(0, (size - ((k - 1) * wd + 1)) // s + 1))
    return ShapedArray._fast(tuple(shape), x.dtype, x.weak_type)


_COMPUTATIONS = {"add": "add", "max": "max", "min": "min", "mul": "mul",
                 "maximum": "max", "minimum": "min", "multiply": "mul"}  # fmt: skip


def reduce_window_computation(computation: Any) -> str | None:
    """The primitive's name for ``computation`` (``"add"``, ``"max"``, ...) or None."""
    return _COMPUTATIONS.get(getattr(computation, "__name__", ""))


def monoid_identity(computation: str, d: Any) -> Any:
    """The identity of ``add``/``mul``/``max``/``min`` in ``d``, a NumPy scalar array."""
    if computation in ("add", "mul"):
        return np.array(int(computation == "mul"), d)
    big = computation == "min"
    if dtypes.kind(d) == "b":
        return np.array(big, d)
    if dtypes.kind(d) in "iu":
        info = dtypes.iinfo(d)
        return np.array(info.max if big else info.min, d)
    return np.array(np.inf if big else -np.inf).astype(d)


def reduce_window(
    operand: ArrayLike,
    init_value: ArrayLike,
    computation: Callable[..., Any],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Array:
    """Folds every window of ``operand`` with ``computation`` (``lax.add``/``max``/``min``/
    ``mul`` or their ``trellax.numpy`` equivalents), starting from ``init_value``; padding
    elements equal ``init_value``.

    For ``lax.add``/``max``/``min``, a concrete scalar ``init_value`` equal to the computation's
    identity in its own dtype (``0.0`` for add, ``-inf`` for max) is used in the operand's
    dtype, as in JAX, so ``reduce_window(int_x, -inf, lax.max, ...)`` works on integers; any
    other init value must have the operand's dtype.
    """
    name = "reduce_window"
    x = asarray(operand)
    comp = reduce_window_computation(computation)
    if comp is None:
        raise NotImplementedError(
            f"{name}: computation must be lax.add, lax.max, lax.min or lax.mul, got {computation!r}"
        )
    init = asarray(init_value)
    if init.ndim != 0:
        raise TypeError(f"{name}: init_value must be a scalar, got shape {init.shape}")
    if comp in ("add", "mul") and dtypes.kind(x.dtype) == "b":
        # JAX folds bool windows with max/min (or and/or) only: lax.add/lax.mul refuse bool
        raise TypeError(f"{name}: {comp} does not accept dtype bool")

    # JAX's monoid windows: lax.add/max/min (not mul, not the jnp functions) with a concrete
    # init equal to the identity in its own dtype reduce in the operand's dtype
    monoid = computation in (elementwise.add, elementwise.max, elementwise.min)
    concrete = isinstance(init, ArrayImpl)
    if monoid and concrete and bool(np.asarray(init) == monoid_identity(comp, init.dtype)):
        dropped = True
    elif init.dtype != x.dtype:
        raise TypeError(
            f"{name}: init_value dtype {init.dtype} must equal the operand dtype {x.dtype}"
        )
    else:
        dropped = concrete and bool(np.asarray(init) == monoid_identity(comp, x.dtype))
    nd = x.ndim
    # JAX's classes: a wrong count is a TypeError (but of window_dilation a ValueError), a
    # dilation below 1 a TypeError
    dims = _ints(name, "window_dimensions", window_dimensions, nd, TypeError)
    strides = _ints(name, "window_strides", window_strides, nd, TypeError)
    bd = _ints(name, "base_dilation", base_dilation or (1,) * nd, nd, TypeError, TypeError)
    wd = _ints(name, "window_dilation", window_dilation or (1,) * nd, nd, sign=TypeError)
    in_shape = [(n - 1) * b + 1 if n else 0 for n, b in zip(x.shape, bd)]
    win = [(k - 1) * w + 1 for k, w in zip(dims, wd)]
    pads = _pads(name, padding, in_shape, win, strides)
    identity = ArrayImpl._new(monoid_identity(comp, x.dtype), x.dtype, False)
    out = reduce_window_p.bind(
        x,
        identity,
        computation=comp,
        window_dimensions=dims,
        window_strides=strides,
        padding=pads,
        base_dilation=bd,
        window_dilation=wd,
    )
    if dropped:
        return out
    # XLA's windows skip padding and dilation holes and start from the init value once: the
    # primitive pads with the identity, and another init value is combined with each window
    combine: Callable[[Array, Array], Array] = getattr(elementwise, comp)  # (here: a cycle)
    return combine(structural.broadcast(init, tuple(out.shape)), out)


# -- differentiation rules of reduce_window ------------------------------------------------------


def _window_offsets(params: dict[str, Any], ndim: int) -> list[tuple[list[int], list[int]]]:
    """Per window offset, the (start, limit) of its strided slice of the padded operand."""
    out = []
    for offs in np.ndindex(*params["window_dimensions"]):
        starts = [o * d for o, d in zip(offs, params["window_dilation"])]
        out.append((list(offs), starts))
    return out


def _padded(x: Any, fill: Any, params: dict[str, Any]) -> Any:
    cfg = [(lo, hi, bd - 1) for (lo, hi), bd in zip(params["padding"], params["base_dilation"])]
    return pad(x, fill, cfg)


def _reduce_window_jvp(t: Any, ans: Any, x: Any, init: Any, **params: Any) -> Any:
    comp = params["computation"]
    if comp == "add" or (comp in ("max", "min") and 0 in tuple(ans.shape)):
        # (an empty result's tangent is empty whatever the computation: the window sum's shape
        # rule gives it without slicing windows that may start past the operand)
        zero = ad_util.const(t, 0, weak_type=False)
        return reduce_window_p.bind(t, zero.reshape(()), **{**params, "computation": "add"})
    if comp not in ("max", "min"):
        # JAX's class: its generic reduce_window (any computation but the add/max/min monoids)
        # fails to linearize under grad with ValueError
        raise ValueError(
            f"reduce_window: no derivative for computation {comp!r} (only add, max and min "
            "windows are differentiable)"
        )
    # the tangent of the first element in each window that equals the result
    xp = _padded(x, init, params)
    tp = _padded(t, ad_util.const(t, 0, weak_type=False).reshape(()), params)
    shape, strides = tuple(ans.shape), params["window_strides"]
    out: Any = None
    found: Any = None
    for _, starts in _window_offsets(params, x.ndim):
        limits = [s + (n - 1) * st + 1 for s, n, st in zip(starts, shape, strides)]
        xs = structural.slice(xp, starts, limits, strides)
        ts = structural.slice(tp, starts, limits, strides)
        hit = eq(xs, ans)
        if found is None:
            out, found = structural.select(hit, ts, ad_util.zeros(_aval(ts))), hit
        else:
            take = bitwise_and(hit, bitwise_not(found))
            out, found = structural.select(take, ts, out), bitwise_or(found, hit)
    return out


def _reduce_window_transpose(ct: Any, x: Any, init: Any, **params: Any) -> list[Any]:
    """The window sum's transpose: each offset scatters ``ct`` back (an interior-padded copy),
    then padding and base dilation are undone."""
    if params["computation"] != "add":
        raise NotImplementedError("only the window sum is linear")
    aval = x.aval
    zero = ad_util.const(ct, 0, weak_type=False).reshape(())
    tiled = _tiling_transpose(ct, aval.shape, zero, params)
    if tiled is not None:
        return [tiled, None]
    dil = [(n - 1) * bd + 1 if n else 0 for n, bd in zip(aval.shape, params["base_dilation"])]
    size = [d + lo + hi for d, (lo, hi) in zip(dil, params["padding"])]
    shape, strides = tuple(ct.shape), params["window_strides"]
    total = None
    for _, starts in _window_offsets(params, aval.ndim):
        cfg = []
        for s, n, st, p in zip(starts, shape, strides, size):
            span = (n - 1) * st + 1 if n else 0
            cfg.append((s, p - s - span, st - 1))
        term = pad(ct, zero, cfg)
        total = term if total is None else ad_util.add_tangents(total, term)
    assert total is not None
    g = pad(total, zero, [(-lo, -hi, 0) for lo, hi in params["padding"]])
    g = structural.slice(g, [0] * aval.ndim, dil, params["base_dilation"])
    return [g, None]


def _tiling_transpose(ct: Any, shape: Sequence[int], zero: Any, params: dict[str, Any]) -> Any:
    """The window sum's transpose when the windows tile the operand (stride = window, no
    padding or dilation: average pooling): each element receives its one window's cotangent,
    so it is ``ct`` repeated over each window (a broadcast and a reshape, one copy), padded
    with zeros where the windows stop short of the operand's end. None: not that case."""
    win, strides = params["window_dimensions"], params["window_strides"]
    if (
        tuple(win) != tuple(strides)
        or any(d != 1 for d in (*params["base_dilation"], *params["window_dilation"]))
        or any(p != (0, 0) for p in params["padding"])
        or any(not n for n in ct.shape)
    ):
        return None
    pairs = tuple(v for h, k in zip(ct.shape, win) for v in (h, k))
    spread = broadcast_in_dim_p.bind(
        ct, shape=pairs, broadcast_dimensions=tuple(range(0, 2 * len(win), 2))
    )
    merged = tuple(h * k for h, k in zip(ct.shape, win))
    g = reshape_p.bind(spread, new_sizes=merged, dimensions=None)
    if merged != tuple(shape):
        config = tuple((0, n - m, 0) for n, m in zip(shape, merged))
        g = pad_p.bind(g, zero, padding_config=config)
    return g


ad_util.defjvp(reduce_window_p, _reduce_window_jvp, None)
reduce_window_p.def_transpose(_reduce_window_transpose)


# -- batch rules --------------------------------------------------------------------------------
# Batch rules (``vmap``) of the window primitives: one convolution over the whole batch.
#
# As in JAX, the batch axis is folded into one of the convolution's own axes, so a batched
# convolution is one call of the primitive (one im2col product) and never a loop over examples:
#
# * only the input batched: the batch joins the input's batch dimension ``N``;
# * only the kernel batched: it joins the kernel's output features ``O`` (inside each feature
#   group), and the output's features are split again;
# * both batched: the batch joins the input's features ``C`` and the kernel's ``O``, and the
#   feature groups multiply by the batch size (each example convolves only its own channels).
#
# The two transposes (the convolution's cotangents, ``conv_lhs_transpose(ct, w)`` and
# ``conv_rhs_transpose(x, ct)``) fold the same way, each as the transpose of the corresponding
# forward fold. ``reduce_window`` gains a window of size 1 along the batch axis; a batched initial
# value (a per-example padding value) pads explicitly and combines the initial value at the end.
#
# A batch axis merged into an axis of size ``n`` with ``g`` feature groups is laid out as
# ``(g, batch, n // g)`` (group-major, so each group stays contiguous); ``g = 1`` is batch-major.


def _fold(x: Any, bdim: int, axis: int, groups: int = 1) -> Any:
    """``x`` with its batch axis ``bdim`` merged into ``axis`` (numbered without the batch),
    laid out as ``(groups, batch, n // groups)``."""
    x = moveaxis(x, bdim, axis)  # (..., B, n, ...)
    shape = tuple(x.shape)
    b, n = shape[axis], shape[axis + 1]
    if groups > 1:
        split = (*shape[:axis], b, groups, n // groups, *shape[axis + 2 :])
        x = reshape_p.bind(x, new_sizes=split, dimensions=None)
        perm = list(range(len(split)))
        perm[axis], perm[axis + 1] = axis + 1, axis
        x = transpose_p.bind(x, permutation=tuple(perm))
    merged = (*shape[:axis], b * n, *shape[axis + 2 :])
    return reshape_p.bind(x, new_sizes=merged, dimensions=None)


def _unfold(x: Any, axis: int, size: int, groups: int = 1) -> Any:
    """Inverse of :func:`_fold`: axis ``axis`` (``(groups, size, m)``) split into a batch axis
    of ``size`` at ``axis`` followed by the axis of ``groups * m``."""
    shape = tuple(x.shape)
    n = shape[axis]
    if groups == 1:
        split = (*shape[:axis], size, n // size, *shape[axis + 1 :])
        return reshape_p.bind(x, new_sizes=split, dimensions=None)
    m = n // (groups * size)
    split = (*shape[:axis], groups, size, m, *shape[axis + 1 :])
    x = reshape_p.bind(x, new_sizes=split, dimensions=None)
    perm = list(range(len(split)))
    perm[axis], perm[axis + 1] = axis + 1, axis
    x = transpose_p.bind(x, permutation=tuple(perm))
    out = (*shape[:axis], size, groups * m, *shape[axis + 1 :])
    return reshape_p.bind(x, new_sizes=out, dimensions=None)


def _with_size(shape: Sequence[int], axis: int, factor: int) -> tuple[int, ...]:
    out = list(shape)
    out[axis] *= factor
    return tuple(out)


# -- the convolution and its two cotangent primitives ------------------------------------------------

#: Where a batch axis goes: (which spec of the dimension numbers: 0 lhs, 1 rhs, 2 out; position in
#: it: 0 the batch/out-feature axis, 1 the feature/in-feature axis; whether group-major).
Fold = tuple[int, int, bool]
_L, _R, _O = 0, 1, 2


def _empty_batch(
    rule: Callable[..., tuple[Any, int]], args: Sequence[Any], dims: Dims, params: dict[str, Any]
) -> tuple[Any, int]:
    """A batch rule over a batch of size 0: applied to a batch of one zero example (the
    folds divide by the batch size), its result sliced to size 0 along the batch axis."""
    one = []
    for x, d in zip(args, dims, strict=True):
        if d is not None:
            shape = list(x.shape)
            shape[d] = 1
            x = full(tuple(shape), 0, x.dtype)
        one.append(x)
    res, axis = rule(one, dims, **params)
    return slice_in_dim_static(res, 0, 0, axis), axis


def _fold_rule(
    prim: Primitive,
    shape_param: str | None,
    only_first: tuple[Fold, Fold],
    only_second: tuple[Fold, Fold],
    both: tuple[Fold, Fold, Fold],
) -> None:
    """Registers the batch rule of a two-operand window primitive: per case (which operand is
    batched), where each batched operand's batch is folded and where the result's is split off.
    With both batched, every example becomes a feature group of its own."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (a, b), (da, db) = args, dims
        size = axis_size(args, dims)
        if size == 0:  # an empty batch: one example of zeros gives the shapes, then none of it
            return _empty_batch(rule, args, dims, params)
        specs = params["dimension_numbers"]
        g = params["feature_group_count"]
        new = dict(params)

        def fold(x: Any, d: Any, where: Fold) -> Any:
            return _fold(x, d, specs[where[0]][where[1]], g if where[2] else 1)

        if db is None:
            a, out = fold(a, da, only_first[0]), only_first[1]
        elif da is None:
            b, out = fold(b, db, only_second[0]), only_second[1]
        else:
            a, b, out = fold(a, da, both[0]), fold(b, db, both[1]), both[2]
            new["feature_group_count"] = g * size
        axis = specs[out[0]][out[1]]
        if shape_param is not None:
            new[shape_param] = _with_size(params[shape_param], axis, size)
        res = prim.bind(a, b, **new)
        return _unfold(res, axis, size, g if out[2] else 1), axis

    prim.def_batch(rule)


# conv(x, w) -> (N, O, ...): x alone joins N; w alone joins each group's O; both: x's C and w's O.
_fold_rule(
    conv_general_dilated_p,
    None,
    only_first=((_L, 0, False), (_O, 0, False)),
    only_second=((_R, 0, True), (_O, 1, True)),
    both=((_L, 1, False), (_R, 0, False), (_O, 1, False)),
)
# conv_lhs_transpose(ct, w) -> input-shaped (N, C, ...): the transposes of the folds above (w
# alone: its input features carry the batch, as do the result's features within each group).
_fold_rule(
    conv_lhs_transpose_p,
    "lhs_shape",
    only_first=((_O, 0, False), (_L, 0, False)),
    only_second=((_R, 1, False), (_L, 1, True)),
    both=((_O, 1, False), (_R, 0, False), (_L, 1, False)),
)
# conv_rhs_transpose(x, ct) -> kernel-shaped (O, I, ...).
_fold_rule(
    conv_rhs_transpose_p,
    "rhs_shape",
    only_first=((_L, 1, True), (_R, 1, False)),
    only_second=((_O, 1, True), (_R, 0, True)),
    both=((_L, 1, False), (_O, 1, False), (_R, 0, False)),
)


# -- reduce_window ---------------------------------------------------------------------------------


_COMBINE = {"add": add_p, "max": max_p, "min": min_p, "mul": mul_p}


@reduce_window_p.def_batch
def _reduce_window_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    (x, init), (dx, di) = args, dims
    if di is None:  # a window of one along the batch axis
        assert dx is not None
        new = {
            "computation": params["computation"],
            "window_dimensions": _ins(params["window_dimensions"], dx, 1),
            "window_strides": _ins(params["window_strides"], dx, 1),
            "padding": _ins(params["padding"], dx, (0, 0)),
            "base_dilation": _ins(params["base_dilation"], dx, 1),
            "window_dilation": _ins(params["window_dilation"], dx, 1),
        }
        return reduce_window_p.bind(x, init, **new), dx
    # A per-example initial value: pad (and dilate) with it explicitly, fold the windows from
    # the identity, then combine the initial value once, as the fold would have started with it.
    pad_rule = pad_p.batch_rule
    assert pad_rule is not None
    cfg = tuple(
        (lo, hi, bd - 1) for (lo, hi), bd in zip(params["padding"], params["base_dilation"])
    )
    xp, dp = pad_rule([x, init], [dx, di], padding_config=cfg)
    ident = asarray(monoid_identity(params["computation"], x.dtype))
    new = {
        "computation": params["computation"],
        "window_dimensions": _ins(params["window_dimensions"], dp, 1),
        "window_strides": _ins(params["window_strides"], dp, 1),
        "padding": ((0, 0),) * xp.ndim,
        "base_dilation": (1,) * xp.ndim,
        "window_dilation": _ins(params["window_dilation"], dp, 1),
    }
    acc = moveaxis(reduce_window_p.bind(xp, ident, **new), dp, 0)
    first = moveaxis(init, di, 0)
    if acc.ndim > 1:
        first = broadcast_in_dim_p.bind(first, shape=tuple(acc.shape), broadcast_dimensions=(0,))
    return _COMBINE[params["computation"]].bind(acc, first), 0


def _ins(values: tuple[Any, ...], at: int, value: Any) -> tuple[Any, ...]:
    return (*values[:at], value, *values[at:])
