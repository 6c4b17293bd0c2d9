"""NumPy's abstract scalar types and the C-style aliases, as ``jax.numpy`` exports them.

The abstract types are NumPy's own classes (``tnp.floating is np.floating``), so
``tnp.issubdtype(tnp.bfloat16, tnp.floating)`` holds; the aliases name trellax's scalar types
(``tnp.single is tnp.float32``, ``tnp.cdouble is tnp.complex128``).

>>> import trellax.numpy as tnp
>>> tnp.issubdtype(tnp.int8, tnp.signedinteger), tnp.issubdtype(tnp.uint8, tnp.inexact)
(True, False)
"""

from __future__ import annotations

import numpy as np

from trellax._src.numpy.scalar_types import complex64, complex128, float32, float64

generic = np.generic
number = np.number
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating
character = np.character
flexible = np.flexible
object_ = np.object_

single = float32
double = float64
csingle = complex64
cdouble = complex128

ComplexWarning = np.exceptions.ComplexWarning
