"""``trellax.numpy.linalg``: the Array API linalg extension plus ``eig``, ``eigvals``, ``lstsq``,
``norm``, ``cond`` and ``multi_dot`` (mirrors ``jax.numpy.linalg``).

>>> import trellax.numpy as tnp
>>> tnp.linalg.det(tnp.asarray([[2.0, 0.0], [0.0, 3.0]]))
Array(6., dtype=float32)
"""

from trellax._src.numpy.linalg import (
    EighResult,
    EigResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    cond,
    cross,
    det,
    diagonal,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
    matrix_transpose,
    multi_dot,
    norm,
    outer,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensordot,
    trace,
    vecdot,
    vector_norm,
)

__all__ = [
    "EigResult",
    "EighResult",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]

# -- issue 14 (drop-in completeness) ----------------------------------------------------------------

from trellax._src.numpy.linalg_tensor import tensorinv, tensorsolve

__all__ += ["tensorinv", "tensorsolve"]
