"""``trellax.lax``: primitives that never promote (mirrors ``jax.lax``).

Operands must have identical dtypes; Python scalars become weak arrays of their default dtype
first. Dtype errors name the ``trellax.numpy`` function that promotes.
"""

from trellax._src.control_flow import cond, fori_loop, map, scan, switch, while_loop
from trellax._src.lax.conv import (
    ConvDimensionNumbers,
    conv_dimension_numbers,
    conv_general_dilated,
    conv_transpose,
    padtype_to_pads,
)
from trellax._src.lax.elementwise import (
    abs,
    acos,
    acosh,
    add,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    clz,
    complex,
    conj,
    cos,
    cosh,
    digamma,
    div,
    eq,
    erf,
    erfc,
    exp,
    exp2,
    expm1,
    floor,
    ge,
    gt,
    imag,
    integer_pow,
    is_finite,
    le,
    lgamma,
    log,
    log1p,
    logistic,
    lt,
    max,
    min,
    mul,
    ne,
    neg,
    nextafter,
    population_count,
    pow,
    real,
    reciprocal,
    rem,
    round,
    rsqrt,
    shift_left,
    shift_right_arithmetic,
    shift_right_logical,
    sign,
    sin,
    sinh,
    sqrt,
    square,
    sub,
    tan,
    tanh,
)
from trellax._src.lax.fft import FftType, fft
from trellax._src.lax.indexing import (
    GatherDimensionNumbers,
    GatherScatterMode,
    ScatterDimensionNumbers,
    gather,
    scatter,
    scatter_add,
    scatter_max,
    scatter_min,
    scatter_mul,
    scatter_sub,
)
from trellax._src.lax.reductions import (
    argmax,
    argmin,
    cummax,
    cummin,
    cumprod,
    cumsum,
    dot,
    dot_general,
    reduce_and,
    reduce_max,
    reduce_min,
    reduce_or,
    reduce_prod,
    reduce_sum,
    reduce_xor,
    sort,
)
from trellax._src.lax.stop_gradient import stop_gradient as stop_gradient
from trellax._src.lax.structural import (
    bitcast_convert_type,
    broadcast,
    broadcast_in_dim,
    broadcasted_iota,
    clamp,
    concatenate,
    convert_element_type,
    expand_dims,
    iota,
    pad,
    reshape,
    rev,
    select,
    select_n,
    slice,
    squeeze,
    transpose,
)
from trellax._src.parallel.collectives import (
    all_gather,
    axis_index,
    axis_size,
    pmax,
    pmean,
    pmin,
    psum,
)

__all__ = [
    "FftType",
    "GatherDimensionNumbers",
    "GatherScatterMode",
    "ScatterDimensionNumbers",
    "abs",
    "acos",
    "acosh",
    "add",
    "argmax",
    "argmin",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "bitcast_convert_type",
    "bitwise_and",
    "bitwise_not",
    "bitwise_or",
    "bitwise_xor",
    "broadcast",
    "broadcast_in_dim",
    "broadcasted_iota",
    "cbrt",
    "ceil",
    "clamp",
    "clz",
    "complex",
    "concatenate",
    "cond",
    "conj",
    "convert_element_type",
    "cos",
    "cosh",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "digamma",
    "div",
    "dot",
    "dot_general",
    "dynamic_slice",
    "dynamic_update_slice",
    "eq",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expand_dims",
    "expm1",
    "fft",
    "floor",
    "fori_loop",
    "gather",
    "ge",
    "gt",
    "imag",
    "index_take",
    "integer_pow",
    "iota",
    "is_finite",
    "le",
    "lgamma",
    "log",
    "log1p",
    "logistic",
    "lt",
    "map",
    "max",
    "min",
    "mul",
    "ne",
    "neg",
    "nextafter",
    "pad",
    "population_count",
    "pow",
    "real",
    "reciprocal",
    "reduce_and",
    "reduce_max",
    "reduce_min",
    "reduce_or",
    "reduce_prod",
    "reduce_sum",
    "reduce_xor",
    "rem",
    "reshape",
    "rev",
    "round",
    "rsqrt",
    "scan",
    "scatter",
    "scatter_add",
    "scatter_max",
    "scatter_min",
    "scatter_mul",
    "scatter_sub",
    "select",
    "select_n",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "sin",
    "sinh",
    "slice",
    "sort",
    "sqrt",
    "square",
    "squeeze",
    "stop_gradient",
    "sub",
    "switch",
    "tan",
    "tanh",
    "transpose",
    "while_loop",
]

from trellax.lax import linalg  # the submodule, as jax.lax.linalg

__all__ += ["linalg"]

# -- issue 14 (drop-in completeness): one block per private module, names sorted ----------------

from trellax._src.lax.convenience import (  # noqa: E402
    Precision,
    RoundingMethod,
    batch_matmul,
    broadcast_like,
    broadcast_shapes,
    broadcast_to_rank,
    collapse,
    cumlogsumexp,
    dtype,
    dynamic_index_in_dim,
    dynamic_slice_in_dim,
    dynamic_update_index_in_dim,
    dynamic_update_slice_in_dim,
    empty,
    full,
    full_like,
    index_in_dim,
    mulhi,
    slice_in_dim,
    sort_key_val,
    split,
    stack,
    tile,
    top_k,
    unstack,
)
from trellax._src.lax.convenience import dynamic_slice as dynamic_slice  # noqa: E402
from trellax._src.lax.convenience import dynamic_update_slice as dynamic_update_slice  # noqa: E402
from trellax._src.lax.convolution import (  # noqa: E402
    ConvGeneralDilatedDimensionNumbers,
    conv,
    conv_general_permutations,
    conv_general_shape_tuple,
    conv_shape_tuple,
    conv_transpose_shape_tuple,
    conv_with_general_padding,
)
from trellax._src.lax.special import erf_inv  # noqa: E402
from trellax._src.lax.special_beta import betainc  # noqa: E402
from trellax._src.lax.special_gamma import igamma, igamma_grad_a, igammac  # noqa: E402
from trellax._src.lax.tree_ops import (  # noqa: E402
    approx_max_k,
    approx_min_k,
    associative_scan,
    optimization_barrier,
    reduce,
    reduce_window,
    reduce_window_shape_tuple,
)

__all__ += [
    "ConvDimensionNumbers",
    "ConvGeneralDilatedDimensionNumbers",
    "Precision",
    "RoundingMethod",
    "approx_max_k",
    "approx_min_k",
    "associative_scan",
    "batch_matmul",
    "betainc",
    "broadcast_like",
    "broadcast_shapes",
    "broadcast_to_rank",
    "collapse",
    "conv",
    "conv_dimension_numbers",
    "conv_general_dilated",
    "conv_general_permutations",
    "conv_general_shape_tuple",
    "conv_shape_tuple",
    "conv_transpose",
    "conv_with_general_padding",
    "cumlogsumexp",
    "dtype",
    "dynamic_index_in_dim",
    "dynamic_slice_in_dim",
    "dynamic_update_index_in_dim",
    "dynamic_update_slice_in_dim",
    "empty",
    "erf_inv",
    "full",
    "full_like",
    "igamma",
    "igamma_grad_a",
    "igammac",
    "index_in_dim",
    "mulhi",
    "optimization_barrier",
    "padtype_to_pads",
    "reduce",
    "reduce_window",
    "reduce_window_shape_tuple",
    "slice_in_dim",
    "sort_key_val",
    "split",
    "stack",
    "tile",
    "top_k",
    "unstack",
]

__all__ += ["all_gather", "axis_index", "axis_size", "pmax", "pmean", "pmin", "psum"]

# -- special functions that make digamma, i0 and bessel_i0e differentiable (issue 10) ------------
from trellax._src.lax.elementwise import bessel_i0e  # noqa: E402
from trellax._src.lax.special_prims import bessel_i1e, polygamma, zeta  # noqa: E402
from trellax._src.random.gamma_grad import random_gamma_grad  # noqa: E402

__all__ += ["bessel_i0e", "bessel_i1e", "polygamma", "random_gamma_grad", "zeta"]

# -- issue 14: the remaining jax.lax names (solvers, precision, stand-ins, options) ---------------
from trellax._src.custom.linear_solve import custom_linear_solve  # noqa: E402
from trellax._src.custom.root import custom_root  # noqa: E402
from trellax._src.lax.options import (  # noqa: E402
    AccuracyMode,
    DotAlgorithm,
    DotAlgorithmPreset,
    DotDimensionNumbers,
    PrecisionLike,
    RandomAlgorithm,
    Tolerance,
)
from trellax._src.lax.reduce_precision import reduce_precision  # noqa: E402
from trellax._src.lax.standins import (  # noqa: E402
    after_all,
    composite,
    create_token,
    dce_sink,
    platform_dependent,
    shape_as_value,
    stage,
    with_sharding_constraint,
)

__all__ += [
    "AccuracyMode",
    "DotAlgorithm",
    "DotAlgorithmPreset",
    "DotDimensionNumbers",
    "PrecisionLike",
    "RandomAlgorithm",
    "Tolerance",
    "after_all",
    "composite",
    "conv_transpose_shape_tuple",
    "create_token",
    "custom_linear_solve",
    "custom_root",
    "dce_sink",
    "platform_dependent",
    "reduce_precision",
    "shape_as_value",
    "stage",
    "with_sharding_constraint",
]

# -- issue 14: more collectives over named vmap axes ------------------------------------------------
from trellax._src.derived.collectives import (  # noqa: E402
    all_to_all,
    pbroadcast,
    pcast,
    ppermute,
    precv,
    psend,
    pshuffle,
    psum_scatter,
    pswapaxes,
    ragged_all_to_all,
)

__all__ += [
    "all_to_all",
    "pbroadcast",
    "pcast",
    "ppermute",
    "precv",
    "psend",
    "pshuffle",
    "psum_scatter",
    "pswapaxes",
    "ragged_all_to_all",
]

from trellax._src.derived.lax_ops import (  # noqa: E402
    RaggedDotDimensionNumbers,
    conv_general_dilated_local,
    conv_general_dilated_patches,
    index_take,
    ragged_dot,
    ragged_dot_general,
    scatter_apply,
)

__all__ += [
    "RaggedDotDimensionNumbers",
    "conv_general_dilated_local",
    "conv_general_dilated_patches",
    "ragged_dot",
    "ragged_dot_general",
    "scatter_apply",
]

# The primitives JAX exports from ``jax.lax`` (rules are registered on them; a jaxpr's
# equations name them), under JAX's names.
from trellax._src.control_flow.conditionals import cond_p as cond_p  # noqa: E402
from trellax._src.control_flow.loops import while_p as while_p  # noqa: E402
from trellax._src.control_flow.scan import scan_p as scan_p  # noqa: E402
from trellax._src.lax.conv import conv_general_dilated_p as conv_general_dilated_p  # noqa: E402
from trellax._src.lax.conv import reduce_window_p as reduce_window_p  # noqa: E402
from trellax._src.lax.elementwise import abs_p as abs_p  # noqa: E402
from trellax._src.lax.elementwise import acos_p as acos_p  # noqa: E402
from trellax._src.lax.elementwise import acosh_p as acosh_p  # noqa: E402
from trellax._src.lax.elementwise import add_p as add_p  # noqa: E402
from trellax._src.lax.elementwise import and_p as and_p  # noqa: E402
from trellax._src.lax.elementwise import asin_p as asin_p  # noqa: E402
from trellax._src.lax.elementwise import asinh_p as asinh_p  # noqa: E402
from trellax._src.lax.elementwise import atan2_p as atan2_p  # noqa: E402
from trellax._src.lax.elementwise import atan_p as atan_p  # noqa: E402
from trellax._src.lax.elementwise import atanh_p as atanh_p  # noqa: E402
from trellax._src.lax.elementwise import bessel_i0e_p as bessel_i0e_p  # noqa: E402
from trellax._src.lax.elementwise import cbrt_p as cbrt_p  # noqa: E402
from trellax._src.lax.elementwise import ceil_p as ceil_p  # noqa: E402
from trellax._src.lax.elementwise import clz_p as clz_p  # noqa: E402
from trellax._src.lax.elementwise import complex_p as complex_p  # noqa: E402
from trellax._src.lax.elementwise import conj_p as conj_p  # noqa: E402
from trellax._src.lax.elementwise import cos_p as cos_p  # noqa: E402
from trellax._src.lax.elementwise import cosh_p as cosh_p  # noqa: E402
from trellax._src.lax.elementwise import digamma_p as digamma_p  # noqa: E402
from trellax._src.lax.elementwise import div_p as div_p  # noqa: E402
from trellax._src.lax.elementwise import eq_p as eq_p  # noqa: E402
from trellax._src.lax.elementwise import erf_p as erf_p  # noqa: E402
from trellax._src.lax.elementwise import erfc_p as erfc_p  # noqa: E402
from trellax._src.lax.elementwise import exp2_p as exp2_p  # noqa: E402
from trellax._src.lax.elementwise import exp_p as exp_p  # noqa: E402
from trellax._src.lax.elementwise import expm1_p as expm1_p  # noqa: E402
from trellax._src.lax.elementwise import floor_p as floor_p  # noqa: E402
from trellax._src.lax.elementwise import ge_p as ge_p  # noqa: E402
from trellax._src.lax.elementwise import gt_p as gt_p  # noqa: E402
from trellax._src.lax.elementwise import imag_p as imag_p  # noqa: E402
from trellax._src.lax.elementwise import integer_pow_p as integer_pow_p  # noqa: E402
from trellax._src.lax.elementwise import is_finite_p as is_finite_p  # noqa: E402
from trellax._src.lax.elementwise import le_p as le_p  # noqa: E402
from trellax._src.lax.elementwise import lgamma_p as lgamma_p  # noqa: E402
from trellax._src.lax.elementwise import log1p_p as log1p_p  # noqa: E402
from trellax._src.lax.elementwise import log_p as log_p  # noqa: E402
from trellax._src.lax.elementwise import logistic_p as logistic_p  # noqa: E402
from trellax._src.lax.elementwise import lt_p as lt_p  # noqa: E402
from trellax._src.lax.elementwise import max_p as max_p  # noqa: E402
from trellax._src.lax.elementwise import min_p as min_p  # noqa: E402
from trellax._src.lax.elementwise import mul_p as mul_p  # noqa: E402
from trellax._src.lax.elementwise import ne_p as ne_p  # noqa: E402
from trellax._src.lax.elementwise import neg_p as neg_p  # noqa: E402
from trellax._src.lax.elementwise import nextafter_p as nextafter_p  # noqa: E402
from trellax._src.lax.elementwise import not_p as not_p  # noqa: E402
from trellax._src.lax.elementwise import or_p as or_p  # noqa: E402
from trellax._src.lax.elementwise import population_count_p as population_count_p  # noqa: E402
from trellax._src.lax.elementwise import pow_p as pow_p  # noqa: E402
from trellax._src.lax.elementwise import real_p as real_p  # noqa: E402
from trellax._src.lax.elementwise import rem_p as rem_p  # noqa: E402
from trellax._src.lax.elementwise import round_p as round_p  # noqa: E402
from trellax._src.lax.elementwise import rsqrt_p as rsqrt_p  # noqa: E402
from trellax._src.lax.elementwise import shift_left_p as shift_left_p  # noqa: E402
from trellax._src.lax.elementwise import shift_right_arithmetic_p as shift_right_arithmetic_p  # noqa: E402
from trellax._src.lax.elementwise import shift_right_logical_p as shift_right_logical_p  # noqa: E402
from trellax._src.lax.elementwise import sign_p as sign_p  # noqa: E402
from trellax._src.lax.elementwise import sin_p as sin_p  # noqa: E402
from trellax._src.lax.elementwise import sinh_p as sinh_p  # noqa: E402
from trellax._src.lax.elementwise import sqrt_p as sqrt_p  # noqa: E402
from trellax._src.lax.elementwise import sub_p as sub_p  # noqa: E402
from trellax._src.lax.elementwise import tan_p as tan_p  # noqa: E402
from trellax._src.lax.elementwise import tanh_p as tanh_p  # noqa: E402
from trellax._src.lax.elementwise import xor_p as xor_p  # noqa: E402
from trellax._src.lax.fft import fft_p as fft_p  # noqa: E402
from trellax._src.lax.indexing import gather_p as gather_p  # noqa: E402
from trellax._src.lax.indexing import scatter_add_p as scatter_add_p  # noqa: E402
from trellax._src.lax.indexing import scatter_max_p as scatter_max_p  # noqa: E402
from trellax._src.lax.indexing import scatter_min_p as scatter_min_p  # noqa: E402
from trellax._src.lax.indexing import scatter_mul_p as scatter_mul_p  # noqa: E402
from trellax._src.lax.indexing import scatter_p as scatter_p  # noqa: E402
from trellax._src.lax.reduce_precision import reduce_precision_p as reduce_precision_p  # noqa: E402
from trellax._src.lax.reductions import argmax_p as argmax_p  # noqa: E402
from trellax._src.lax.reductions import argmin_p as argmin_p  # noqa: E402
from trellax._src.lax.reductions import cummax_p as cummax_p  # noqa: E402
from trellax._src.lax.reductions import cummin_p as cummin_p  # noqa: E402
from trellax._src.lax.reductions import cumprod_p as cumprod_p  # noqa: E402
from trellax._src.lax.reductions import cumsum_p as cumsum_p  # noqa: E402
from trellax._src.lax.reductions import dot_general_p as dot_general_p  # noqa: E402
from trellax._src.lax.reductions import reduce_and_p as reduce_and_p  # noqa: E402
from trellax._src.lax.reductions import reduce_max_p as reduce_max_p  # noqa: E402
from trellax._src.lax.reductions import reduce_min_p as reduce_min_p  # noqa: E402
from trellax._src.lax.reductions import reduce_or_p as reduce_or_p  # noqa: E402
from trellax._src.lax.reductions import reduce_prod_p as reduce_prod_p  # noqa: E402
from trellax._src.lax.reductions import reduce_sum_p as reduce_sum_p  # noqa: E402
from trellax._src.lax.reductions import reduce_xor_p as reduce_xor_p  # noqa: E402
from trellax._src.lax.reductions import sort_p as sort_p  # noqa: E402
from trellax._src.lax.select_n import select_n_p as select_n_p  # noqa: E402
from trellax._src.lax.shapes import bitcast_convert_type_p as bitcast_convert_type_p  # noqa: E402
from trellax._src.lax.shapes import broadcast_in_dim_p as broadcast_in_dim_p  # noqa: E402
from trellax._src.lax.shapes import convert_element_type_p as convert_element_type_p  # noqa: E402
from trellax._src.lax.shapes import reshape_p as reshape_p  # noqa: E402
from trellax._src.lax.shapes import rev_p as rev_p  # noqa: E402
from trellax._src.lax.shapes import squeeze_p as squeeze_p  # noqa: E402
from trellax._src.lax.shapes import transpose_p as transpose_p  # noqa: E402
from trellax._src.lax.special_beta import (  # noqa: E402
    regularized_incomplete_beta_p as regularized_incomplete_beta_p,
)
from trellax._src.lax.special_gamma import igamma_grad_a_p as igamma_grad_a_p  # noqa: E402
from trellax._src.lax.special_gamma import igamma_p as igamma_p  # noqa: E402
from trellax._src.lax.special_gamma import igammac_p as igammac_p  # noqa: E402
from trellax._src.lax.special_prims import bessel_i1e_p as bessel_i1e_p  # noqa: E402
from trellax._src.lax.special_prims import polygamma_p as polygamma_p  # noqa: E402
from trellax._src.lax.special_prims import zeta_p as zeta_p  # noqa: E402
from trellax._src.lax.stop_gradient import stop_gradient_p as stop_gradient_p  # noqa: E402
from trellax._src.lax.structural import clamp_p as clamp_p  # noqa: E402
from trellax._src.lax.structural import concatenate_p as concatenate_p  # noqa: E402
from trellax._src.lax.structural import dynamic_slice_p as dynamic_slice_p  # noqa: E402
from trellax._src.lax.structural import dynamic_update_slice_p as dynamic_update_slice_p  # noqa: E402
from trellax._src.lax.structural import iota_p as iota_p  # noqa: E402
from trellax._src.lax.structural import pad_p as pad_p  # noqa: E402
from trellax._src.lax.structural import slice_p as slice_p  # noqa: E402
from trellax._src.parallel.collectives import all_gather_p as all_gather_p  # noqa: E402
from trellax._src.parallel.collectives import axis_index_p as axis_index_p  # noqa: E402
from trellax._src.parallel.collectives import pmax_p as pmax_p  # noqa: E402
from trellax._src.parallel.collectives import pmin_p as pmin_p  # noqa: E402
from trellax._src.parallel.collectives import psum_p as psum_p  # noqa: E402
