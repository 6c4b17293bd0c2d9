"""The host property that decides the last bits of NumPy's transcendental kernels."""

from __future__ import annotations

import numpy as np


def host_simd() -> str:
    """NumPy's version and the widest x86 SIMD level it dispatches to here ("NumPy 2.4.6,
    AVX-512"): NumPy's float32 ``log1p``, ``tan``, ``cbrt``, ... give other last bits with AVX-512
    kernels than with AVX2 ones, so trellax's values, and their distances to JAX's, depend on it."""
    from numpy._core._multiarray_umath import __cpu_features__ as features

    level = "AVX-512" if features.get("AVX512F") else "AVX2" if features.get("AVX2") else "other"
    return f"NumPy {np.__version__}, {level}"
