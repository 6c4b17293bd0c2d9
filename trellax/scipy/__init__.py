"""``trellax.scipy``: SciPy-style functions with JAX's dtype rules (mirrors ``jax.scipy``)."""

from trellax.scipy import cluster as cluster
from trellax.scipy import fft as fft
from trellax.scipy import integrate as integrate
from trellax.scipy import interpolate as interpolate
from trellax.scipy import linalg as linalg
from trellax.scipy import ndimage as ndimage
from trellax.scipy import optimize as optimize
from trellax.scipy import signal as signal
from trellax.scipy import sparse as sparse
from trellax.scipy import spatial as spatial
from trellax.scipy import special as special
from trellax.scipy import stats as stats

__all__ = [
    "cluster",
    "fft",
    "integrate",
    "interpolate",
    "linalg",
    "ndimage",
    "optimize",
    "signal",
    "sparse",
    "spatial",
    "special",
    "stats",
]
