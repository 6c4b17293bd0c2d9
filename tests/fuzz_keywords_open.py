"""Keyword fuzzer programs (``tests/test_fuzz_keywords.py``) where trellax and JAX differ.

Keyed ``(mode, seed)``; each value is ``(class of difference, cause)``. ``KNOWN``: trellax keeps
its own answer on purpose (a documented departure, or JAX's value is the wrong one). ``OPEN``:
found and not fixed yet, grouped by cause. The test fails when a listed program starts to agree
(or differs in another class), so both lists stay honest.
"""

from __future__ import annotations

UFUNC_WHERE = "the ufunc objects (add, multiply, maximum, bitwise_and, logaddexp) take no out=/where= call keywords, for call speed (trellax/_src/numpy/ufunc_objects.py): TypeError where JAX raises NotImplementedError for where="
HALF_LINALG = "jnp.linalg decompositions of float16/bfloat16 (and polyfit of them) raise NotImplementedError on CPU in JAX; trellax computes them in float32 and rounds back (docs/semantics.md)"
HALF_RFFT = "jnp.fft's real transforms of float16/bfloat16 raise ValueError in JAX; trellax computes them in float32, as fft of float16 is (docs/semantics.md)"
HIST_COMPLEX = "jnp.histogram of complex input bins it in lexicographic order and returns complex counts; trellax raises TypeError (docs/semantics.md)"
HIST0 = "histogram of an empty array: JAX fails on min of nothing; trellax NumPy's range (0, 1) (docs/semantics.md)"
GEOM0 = "geomspace with an end at zero: JAX's NaN row, trellax NumPy's ValueError eagerly (docs/semantics.md)"
ANYALL = "JAX 0.10.2's any/all of complex test the real part only (all(100j) is False); trellax tests x != 0 (docs/semantics.md)"
SPECIAL_ACCURACY = "bessel_jn, comb, factorial: trellax's value is at least as close to SciPy's float64 value (bessel_jn: JAX NaN or |J| > 1 at large x, e.g. J0(250) = 3.5; factorial(10.) 48 float32 ulps off in JAX, 7 here; comb(N, k) of uint32 extremes rounded to one float)"
FILL_PROMOTES = "JAX promotes nonzero/flatnonzero/argwhere/intersect1d results with a float fill_value (float index arrays, even with nothing filled); trellax keeps integer indices and the input's dtype"
TRI_FLOAT32 = "JAX's tri defaults to float32 even with x64 on (its docs say the default float); trellax the default float (float64)"
EMPTY_FILL = "nonzero/argwhere/flatnonzero of an empty input with size: JAX ignores fill_value (zeros); trellax fills (docs/semantics.md)"
PARTITION_ORDER = "partition/argpartition: the order within the two sides is unspecified (JAX's docs); JAX's top_k gives the bottom ascending and the top descending, trellax both sorted ascending"
FTZ = "XLA on CPU flushes subnormal operands and results to zero (a 1.2e-38 * 0.5 in gelu, a subnormal product in convolve, 5e-324 counted as zero by argwhere); trellax keeps IEEE subnormals"
VANDER_POWER = "JAX's complex vander forms x ** k through exp/log in complex64 (x ** 1 differs from x by 2e-6 at 42.6j); trellax multiplies, exactly"
CROSS_2VEC = "cross of a 3-vector with a 2-vector holding inf: JAX pads the 2-vector with 0 and forms inf * 0 = NaN; trellax (NumPy's) never multiplies by the missing component"
COMPLEX_PRODUCT_INF = "convolve/correlate/tensordot of complex values with inf or overflow: XLA's complex convolution (three real products) or the promotion of a real operand to complex forms inf - inf or inf * 0 = NaN; trellax's direct products keep the infinite part"
XLA_MUL_ONE = "leaky_relu(negative_slope=1.0) of complex -inf-22j under jit: XLA's simplifier drops x * 1, trellax's complex product (1 + 0j) * x gives NaN imaginary part"

FFT_NONFINITE = "FFT of inputs with inf or NaN: a NaN reaches every output of XLA's DUCC transform as NaN + NaN j (rfft of [1, nan, inf, -3]: five NaN + NaN j), while NumPy's pocketfft keeps the parts it does not reach (that rfft's first and last imaginary parts 0, a -inf real part); both are valid roundings of an undefined sum (docs/semantics.md)"
SLOGDET_QR_COMPLEX = "slogdet(method='qr') of complex matrices: JAX 0.10.2 raises NotImplementedError; trellax computes it (the same sign and log|det| as method='lu') (docs/semantics.md)"
PARTITION_SUPERSET = "partition/argpartition of complex and bool: JAX refuses them (NotImplementedError for complex, checked before kth and axis; TypeError from neg for bool); trellax partitions them, a superset (docs/semantics.md), so its errors for other arguments come later"
SET_SIZE0 = "setxor1d/intersect1d/setdiff1d with size=0 (no fill_value): JAX fails forming its default fill from an empty result (ValueError; setdiff1d IndexError); trellax returns the empty result (docs/semantics.md)"
FFT_NO_AXES = "an N-D FFT of a 0-d input with s=(): JAX's zero-padding step fails (ifftn: ValueError from pad) or indexes an empty list (irfftn: IndexError); trellax returns the input (ifftn) or raises ValueError (irfftn: a real transform needs an axis) (docs/semantics.md)"
QUANTILE_X64 = "quantile/nanquantile/percentile with method='inverted_cdf' in 64-bit mode: JAX multiplies q and the sample in two float dtypes with lax.mul (TypeError) whenever they differ; trellax promotes them (docs/semantics.md)"
TRAPEZOID_EMPTY = "trapezoid along an empty axis with a scalar dx: JAX's constant-spacing path indexes the first sample (IndexError); trellax gives 0, the integral over no interval, as NumPy (docs/semantics.md)"
UNPACKBITS_EMPTY = "unpackbits along an axis of an array with another empty dimension: JAX divides by the zero size (ZeroDivisionError); trellax returns the empty result (docs/semantics.md)"
NANARG_COMPLEX_EMPTY = "nanargmin/nanargmax of complex: JAX refuses complex (argmin's comparison, TypeError) except when the result is empty, where its where() of nothing drops the argmin before its dtype is checked; trellax refuses complex always (docs/semantics.md)"
LINALG_NONFINITE = "matrices with inf, NaN or entries near the float range: LAPACK through NumPy and XLA's kernels spread NaN and overflow differently (pinv, qr(raw), cond give NaN or inf at other places); slogdet of [[-1, -1.8e308], [2.7, 1e4]] is 710.79 here (log|det| of the LU pivots, exact) and inf in JAX"
LINALG_BASIS = "singular vectors and eigenvectors are unique only up to a phase (a sign for real input) and within repeated values: LAPACK through NumPy and XLA's kernels pick other ones (the values agree within the tolerance)"
LINALG_ILL = "(nearly) singular matrices with rcond=0 or a tolerance at a singular value: the solution scales with 1 / s for the smallest singular value, which LAPACK's SVD and XLA's compute with other rounding (6.6e-8 and 1.0e-16 for [[1, 2], [2, 4]] in float32)"
CONVERT_FOLD = "a Python float out of an integer type's range converted inside a jit program (full's fill value, initial=): XLA's constant folder converts with C++'s cast (x86's int32 'indefinite' 0x80000000, then wrapped: inf is 0 in int16, -2**31 in int32), JAX's eager conversion and every runtime one saturate, as trellax does on both paths (docs/semantics.md, Float -> integer conversion saturates)"
ISIN_NOT_UNIQUE = "isin(assume_unique=True, method='sort') of inputs with repeated values: the caller's promise is broken and the result is unspecified (NumPy's and JAX's docs); JAX's sort-based method marks -inf as a member of an int32 set, trellax returns the exact membership"
COMPLEX_C99 = "complex log/sqrt of NaN +- inf j (inside logsumexp with an infinite weight): C99 Annex G's inf + NaN j here, NaN + NaN j in JAX (docs/semantics.md)"
INT_NORM = "vector_norm/norm of integer arrays: JAX squares, sums and takes powers in the integer type (uint16 [65532, 65522, 3] has norm 14.9: the squares wrap; int8 rows give NaN; ord=1 returns an integer); trellax computes the norm of the values in JAX's inexact type (92669.2 in float32)"
RANK_RTOL = "JAX 0.10.2's matrix_rank compares the singular values with rtol itself, not rtol times the largest (its docs and the Array API say relative): singular values [103.3, 3.0, 0.53] with rtol=0.5 give rank 3 there, 1 here"
EXCESS_ONE = "matrix_norm of a one-element float16 matrix [[1e4]]: XLA removes the one-element reduction and computes square and square root in float32 (excess precision), 1e4; any larger float16 matrix overflows to inf in JAX as in trellax"
UNIQUE_EMPTY = "unique/unique_counts/intersect1d of an input with no elements and size=: JAX pads the values to size but returns the index and count outputs unpadded ((0,), or counts (1,) holding the axis length), against size's promise of static shapes; trellax pads every output to size (docs/semantics.md)"


# fmt: off
KNOWN: dict[tuple[str, int], tuple[str, str]] = {
    **{("x32", s): ("error_class", UFUNC_WHERE) for s in (
        102, 114, 226, 380, 413, 428, 530, 556, 752, 824, 1262, 1270, 1299, 1343, 1418, 1422,
        1519, 1707, 1743, 1838, 1923, 1926, 2065, 2092, 2102, 2121, 2298, 2310, 2596, 2611,
        2638, 2738, 2883, 3083, 3121, 3401, 3416, 3464, 3631, 3685, 3705, 3822, 3830, 3858,
        3866, 4371, 4445, 4625, 4660, 4706, 4761, 4794, 5027, 5095, 5150, 5198, 5218, 5240,
        5260, 5336, 5357, 5403, 5409, 5616, 5632, 5687, 5745, 5752, 5879, 5880, 5949
    )},
    **{("x64", s): ("error_class", UFUNC_WHERE) for s in (
        95, 163, 290, 292, 362, 402, 408, 440, 442, 563, 753, 772, 803, 879, 920, 992, 1024,
        1078, 1122, 1294, 1306, 1322, 1401, 1429, 1569, 1592, 1787, 1798, 1886, 1942, 1971,
        2063, 2074, 2075, 2277, 2297, 2317, 2571, 2712, 3016, 3094, 3151, 3248, 3352, 3386,
        3572, 3575, 3753, 3853, 3886, 4028, 4049, 4151, 4312, 4326, 4359, 4369, 4455, 4620,
        4633, 4649, 4683, 4707, 4729, 4855, 4864, 4871, 4917, 4932, 4992, 5020, 5026, 5060,
        5068, 5142, 5309, 5362, 5427, 5432, 5517, 5625, 5628, 5629, 5631, 5771, 5834, 5945
    )},
    **{("x32", s): ("accepts", HALF_LINALG) for s in (
        72, 134, 138, 166, 239, 263, 270, 455, 500, 673, 697, 1030, 1040, 1045, 1051, 1264,
        1280, 1346, 1407, 1428, 1505, 1558, 1717, 1915, 1952, 2306, 2327, 2360, 2391, 2461,
        2568, 2623, 2656, 2657, 2701, 2817, 2858, 2910, 2914, 2969, 2988, 3237, 3311, 3514,
        3534, 3694, 3799, 4036, 4095, 4116, 4194, 4204, 4295, 4736, 4749, 4816, 4861, 4927,
        4931, 5100, 5106, 5135, 5514, 5735
    )},
    **{("x64", s): ("accepts", HALF_LINALG) for s in (
        1, 210, 247, 256, 285, 366, 368, 887, 994, 1055, 1474, 1489, 1709, 1728, 2012, 2191,
        2268, 2288, 2335, 2390, 2480, 2659, 2663, 2703, 2953, 3245, 3462, 3474, 3488, 3569,
        3954, 4008, 4143, 4159, 4182, 4189, 4217, 4235, 4303, 4364, 4395, 4415, 4436, 4884,
        4944, 5082, 5429, 5539, 5604, 5656
    )},
    **{("x32", s): ("accepts", HALF_RFFT) for s in (1191, 2495, 2496, 2580, 2740, 2941, 3184, 3277, 3762, 4100, 4131, 4740)},
    **{("x64", s): ("accepts", HALF_RFFT) for s in (642, 978, 2576, 2651, 3404, 4027, 4365, 4856, 5232)},
    **{("x64", s): ("crash", HIST_COMPLEX) for s in (2431,)},
    **{("x32", s): ("accepts", HIST0) for s in (3353, 3366)},
    **{("x64", s): ("accepts", HIST0) for s in (1193, 1986, 2802, 3737, 5205)},
    **{("x64", s): ("crash", GEOM0) for s in (1564, 2548)},
    **{("x32", s): ("value", SPECIAL_ACCURACY) for s in (171, 533, 764, 1605, 1700, 2940, 3927, 4484, 4731, 5046)},
    **{("x64", s): ("value", SPECIAL_ACCURACY) for s in (862, 1487, 2182, 2788, 2938, 3148, 3373, 3812, 4968, 5069)},
    **{("x32", s): ("dtype", FILL_PROMOTES) for s in (1146, 4979, 5203)},
    **{("x64", s): ("dtype", FILL_PROMOTES) for s in (728, 3620, 3643, 4132, 5766)},
    **{("x64", s): ("dtype", TRI_FLOAT32) for s in (1834, 3189, 3431)},
    **{("x64", s): ("value", ANYALL) for s in (1741, 5365)},
    **{("x32", s): ("value", EMPTY_FILL) for s in (2207, 4006)},
    **{("x64", s): ("value", EMPTY_FILL) for s in (2763,)},
    **{("x32", s): ("value", PARTITION_ORDER) for s in (4661,)},
    **{("x64", s): ("value", PARTITION_ORDER) for s in (2323,)},
    **{("x32", s): ("value", FTZ) for s in (4778, 5858)},
    **{("x64", s): ("shape", FTZ) for s in (2522,)},
    **{("x32", s): ("value", VANDER_POWER) for s in (1953, 2392, 2642, 4385)},
    **{("x32", s): ("value", CROSS_2VEC) for s in (309,)},
    **{("x32", s): ("value", COMPLEX_PRODUCT_INF) for s in (1228, 3001, 4480, 5920)},
    **{("x64", s): ("value", COMPLEX_PRODUCT_INF) for s in (4176, 4699, 5241, 5762)},
    **{("x32", s): ("value", XLA_MUL_ONE) for s in (1855,)},
    **{("x32", s): ("accepts", SLOGDET_QR_COMPLEX) for s in (465, 4152, 5030)},
    **{("x64", s): ("accepts", SLOGDET_QR_COMPLEX) for s in (227, 1954, 5238)},
    **{("x32", s): ("error_class", PARTITION_SUPERSET) for s in (796,)},
    **{("x64", s): ("error_class", PARTITION_SUPERSET) for s in (1799, 3674, 4039, 5374)},
    **{("x32", s): ("accepts", PARTITION_SUPERSET) for s in (3441,)},
    **{("x64", s): ("accepts", PARTITION_SUPERSET) for s in (4370,)},
    **{("x32", s): ("accepts", SET_SIZE0) for s in (216,)},
    **{("x64", s): ("accepts", SET_SIZE0) for s in (4830,)},
    **{("x32", s): ("error_class", PARTITION_SUPERSET) for s in (4558,)},
    **{("x64", s): ("error_class", PARTITION_SUPERSET) for s in (2942,)},
    **{("x64", s): ("accepts", FFT_NO_AXES) for s in (2629,)},
    **{("x32", s): ("accepts", PARTITION_SUPERSET) for s in (1069,)},
    **{("x32", s): ("accepts", SET_SIZE0) for s in (4301,)},
    **{("x64", s): ("accepts", QUANTILE_X64) for s in (2924,)},
    **{("x64", s): ("accepts", QUANTILE_X64) for s in (1475,)},
    **{("x64", s): ("accepts", QUANTILE_X64) for s in (681,)},
    **{("x32", s): ("accepts", SET_SIZE0) for s in (1106,)},
    **{("x64", s): ("accepts", TRAPEZOID_EMPTY) for s in (1830,)},
    **{("x64", s): ("accepts", UNPACKBITS_EMPTY) for s in (2208,)},
    **{("x32", s): ("crash", NANARG_COMPLEX_EMPTY) for s in (1001,)},
    **{("x32", s): ("error_class", FFT_NO_AXES) for s in (1478,)},
    **{("x32", s): ("value", FTZ) for s in (2239, 4513, 4594)},
    **{("x64", s): ("value", FTZ) for s in (897,)},
    **{("x32", s): ("value", FFT_NONFINITE) for s in (317, 2715, 3141, 5890)},
    **{("x64", s): ("value", FFT_NONFINITE) for s in (1616, 3372)},
    **{("x32", s): ("value", LINALG_NONFINITE) for s in (4344, 4518)},
    **{("x64", s): ("value", LINALG_NONFINITE) for s in (672, 2977, 3885, 4284)},
    **{("x32", s): ("value", LINALG_BASIS) for s in (5249,)},
    **{("x64", s): ("value", LINALG_BASIS) for s in (132,)},
    **{("x32", s): ("value", LINALG_ILL) for s in (1379, 5335)},
    **{("x32", s): ("value", CONVERT_FOLD) for s in (1222, 3836)},
    **{("x64", s): ("value", CONVERT_FOLD) for s in (4346, 5338)},
    **{("x64", s): ("value", ISIN_NOT_UNIQUE) for s in (2020,)},
    **{("x32", s): ("value", COMPLEX_C99) for s in (2262,)},
    **{("x64", s): ("dtype", INT_NORM) for s in (3174,)},
    **{("x64", s): ("value", RANK_RTOL) for s in (4296,)},
    **{("x32", s): ("value", EXCESS_ONE) for s in (4806,)},
    **{("x32", s): ("shape", UNIQUE_EMPTY) for s in (2479, 3555)},
    **{("x64", s): ("shape", UNIQUE_EMPTY) for s in (3129, 4380)},
}

OPEN: dict[tuple[str, int], tuple[str, str]] = {}
# fmt: on
