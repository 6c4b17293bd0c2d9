"""The calls of ``tests/test_edge_public.py`` where trellax and JAX 0.10.2 still differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where trellax differs
from JAX, on purpose"), each with the reason. ``OPEN``: divergences not fixed yet, by class
(``value``: another value; ``crash``: trellax raises where JAX returns; ``accepts``: trellax
returns where JAX raises; ``class``: another error class); the test fails when one starts
matching JAX, so the list only shrinks.
"""

from __future__ import annotations

ALLC = "JAX's all/any of complex test the real part only (all([-0.5j]) is False); trellax != 0"
EQUIV = "array_equiv of unbroadcastable shapes: JAX's broadcast raises TypeError; trellax False"
NOAXES = "dctn/idctn of a 0-d bool over no axes: JAX returns the input; trellax a float32"
HIST0 = "histogram of an empty array: JAX fails on min of nothing; trellax NumPy's range (0, 1)"
GATHER = "median of an empty axis: JAX's internal gather TypeError; trellax an IndexError"
GEOM0 = "geomspace through zero: JAX returns NaN rows; trellax NumPy's ValueError"
POLYNAN = "polymul: JAX's convolution spreads a NaN into coefficients it is not part of"
POLY1D = "poly* of N-D coefficients: JAX broadcasts them without meaning; trellax wants 1-D"
QINT = "quantile with an integer q: JAX fails in floor (TypeError, even q=1); trellax accepts"
SPACING = "spacing(-0.0): JAX follows the sign bit (-tiny); trellax NumPy's +tiny"
LEX1D = "lexsort of one 1-D array: JAX reads 0-d keys and returns a 0-d 0; trellax ValueError"
UNRAVEL = "unravel_index of float indices or a float shape: JAX computes; trellax TypeError"
HISTC = "histogram of complex: JAX bins lexicographically, complex counts; trellax TypeError"
ROLLAXIS2 = "rollaxis(t, v, axis=5) passes axis twice: Python's TypeError; JAX's jit ValueError"
TRAP0 = "trapezoid of an empty axis: JAX's IndexError (yet 0.0 with x=e); trellax NumPy's 0.0"
TAKE0 = "take of empty indices from an empty axis: JAX returns the flat input; trellax (3, 0)"

KNOWN: dict[str, str] = {
    "cv.all()": ALLC,
    "jnp.all(cv)": ALLC,
    "jnp.array_equiv(e2, e3)": EQUIV,
    "jnp.geomspace(u8, u8)": GEOM0,
    "jnp.geomspace(xv, xv)": GEOM0,
    "jnp.histogram(e)": HIST0,
    "jnp.histogram(e2)": HIST0,
    "jnp.histogram2d(e, e)": HIST0,
    "jnp.histogram(cv)": HISTC,
    "jnp.histogram_bin_edges(e)": HIST0,
    "jnp.histogram_bin_edges(e2)": HIST0,
    "jnp.histogramdd(e2)": HIST0,
    "jnp.lexsort(u8)": LEX1D,
    "jnp.lexsort(xv)": LEX1D,
    "jnp.lexsort(cv)": LEX1D,
    "jnp.median(e, axis=0)": GATHER,
    "jnp.nanquantile(u8, u8)": QINT,
    "jnp.polyadd(e2, e3)": POLY1D,
    "jnp.polyder(t)": POLY1D,
    "jnp.polydiv(e2, e3)": POLY1D,
    "jnp.polydiv(t, v)": POLY1D,
    "jnp.polymul(xv, xv)": POLYNAN,
    "jnp.polysub(e2, e3)": POLY1D,
    "jnp.quantile(u8, u8)": QINT,
    "jnp.rollaxis(t, v, axis=5)": ROLLAXIS2,
    "jnp.rollaxis(t, v, axis=-5)": ROLLAXIS2,
    "jnp.spacing(xv)": SPACING,
    "jnp.take(e2, e3)": TAKE0,
    "jnp.trapezoid(e)": TRAP0,
    "jnp.trapezoid(e, axis=0)": TRAP0,
    "jnp.unravel_index(s, s)": UNRAVEL,
    "jnp.unravel_index(e, e)": UNRAVEL,
    "jnp.unravel_index(t, v)": UNRAVEL,
    "jnp.unravel_index(xv, xv)": UNRAVEL,
    "sfft.dctn(b)": NOAXES,
    "sfft.idctn(b)": NOAXES,
}

#: not yet fixed, by class
OPEN: dict[str, str] = {}
