"""The calls of ``tests/test_edge_sweep.py`` where trellax and JAX 0.10.2 still differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where trellax differs
from JAX, on purpose"), each with the reason. ``OPEN``: divergences the sweep found that are not
fixed yet, by class; the test fails when one starts matching JAX, so the list only shrinks.
"""

from __future__ import annotations

NEG = "lax counts negative axes from the end (a superset; docs/semantics.md)"
BERN = "JAX's bernoulli pmf is nonzero off the integers; trellax gives SciPy's 0"
RANK = "matrix_rank of an empty matrix is 0 (NumPy); JAX fails on a max of nothing"
NOISE = "float32 rounding noise of an exact zero differs (both are zero to rounding)"
PPERM = "a partial ppermute under vmap: ValueError (JAX: AssertionError; docs/semantics.md)"
FLOAT = "a float size is a TypeError; JAX builds a matrix from arange(2.5)"
NOAXES = "rfftn/irfftn over no axes: JAX returns the input with the other kind (real/complex)"
BSHAPES = "broadcast_shapes: JAX returns an argument as it is (an array) or asserts on none"
BID = "broadcast_in_dim with dims () returns the operand unchecked in JAX (even for shape (4,))"
STRIDE0 = "a zero slice stride: JAX divides by it (ZeroDivisionError); trellax a TypeError"
FORWARD = "JAX returns an unchanged scan carry as the init object itself (a Python float)"
TYPED = "JAX returns its internal TypedInt literal for a Python int; trellax the int itself"
SLICE_N = "slice with too few indices: JAX eager ValueError (an internal zip), jit TypeError"
PPERM0 = "ppermute outside vmap: NameError as every collective (JAX eager: no eval rule)"
DSM = (
    "double_sided_maxwell(shape=()) appends JAX's parameter shape twice; trellax once (documented)"
)
CHOICE0 = "choice of an n-d array with no draws: JAX drops a's other axes; trellax keeps them"
TRIDIAG = "eigh_tridiagonal of a d that is not 1-D: ValueError; JAX returns d itself"
LUBATCH = "scipy lu of a batch: JAX documents (..., M, N) but fails to unpack the shape"
SCHUR0 = "a 0x0 matrix: JAX indexes its empty Schur form (IndexError); trellax returns empty"
ISTFT0 = "istft of zero segments: JAX's reshape fails (size -4); trellax returns empty signals"
MGL = "multigammaln of a non-integral or negative d: ValueError (SciPy); JAX truncates with int()"
BESSEL = "bessel_jn: JAX's float32 recurrence is NaN / n_iter=0 a wrong shape; trellax exact"
EXPNX = "expn of a negative or non-integer order at 0 < x <= 1: JAX NaN; trellax E_n(x) (mpmath)"
SPH = "sph_harm_y broadcasts 0-d args and needs no n_max; JAX needs 1-D n, m and max(n)"

KNOWN: dict[str, str] = {
    "sp.expn(s, s)": EXPNX,
    "sp.expn(jnp.int32(-1), s)": EXPNX,
    "jax.vmap(lambda x: lax.ppermute(x, 'i', [(0, 1)]), axis_name='i')(v)": PPERM,
    "fft.fftfreq(2.5)": FLOAT,
    "fft.fftfreq(s)": FLOAT,
    "fft.rfftfreq(s)": FLOAT,
    "fft.rfftn(s)": NOAXES,
    "fft.rfftn(i)": NOAXES,
    "fft.rfftn(b)": NOAXES,
    "fft.irfftn(s)": NOAXES,
    "fft.irfftn(i)": NOAXES,
    "fft.irfftn(b)": NOAXES,
    "lax.broadcast_shapes()": BSHAPES,
    "lax.broadcast_shapes(e)": BSHAPES,
    "lax.broadcast_shapes(e2)": BSHAPES,
    "lax.broadcast_in_dim(v, (3,), ())": BID,
    "lax.slice(v, (0,), (3,), (0,))": STRIDE0,
    "lax.slice(m23, (0,), (1,))": SLICE_N,
    "lax.scan(lambda c, x: (c, x), 0.0, e, unroll=0)": FORWARD,
    "lax.scan(lambda c, x: (c, x), 0.0, [], length=2)": FORWARD,
    "lax.stop_gradient(1)": TYPED,
    "lax.ppermute(s, 'i', [])": PPERM0,
    "lax.reduce_sum(v, (-1,))": NEG,
    "lax.reduce_max(v, (-1,))": NEG,
    "lax.reduce_min(v, (-1,))": NEG,
    "lax.reduce_prod(v, (-1,))": NEG,
    "lax.argmax(v, -1, jnp.int32)": NEG,
    "lax.argmin(v, -1, jnp.int32)": NEG,
    "lax.cumsum(v, -1)": NEG,
    "lax.cumprod(v, -1)": NEG,
    "lax.cummax(v, -1)": NEG,
    "lax.cummin(v, -1)": NEG,
    "lax.cumlogsumexp(v, -1)": NEG,
    "lax.broadcasted_iota(jnp.float32, (3,), -1)": NEG,
    "lax.rev(v, (-1,))": NEG,
    "lax.dot_general(r3, r3, (((-1,), (1,)), ((0,), (0,))))": NEG,
    "la.lstsq(m, m)": NOISE,
    "la.matrix_rank(e2)": RANK,
    "la.matrix_rank(ee)": RANK,
    "la.matrix_rank(e3)": RANK,
    "la.lstsq(m23, jnp.ones(2))": NOISE,
    "sl.pascal(2.5)": FLOAT,
    "sl.dft(2.5)": FLOAT,
    "sl.helmert(2.5)": FLOAT,
    "sl.invhilbert(2.5)": FLOAT,
    "sl.invpascal(2.5)": FLOAT,
    "sig.detrend(r3)": NOISE,
    "sig.detrend(v, bp=[1])": NOISE,
    "st.bernoulli.pmf(s, s)": BERN,
    "st.bernoulli.logpmf(s, s)": BERN,
    "st.multinomial.logpmf(ie, 0, e)": NOISE,
    "random.double_sided_maxwell(K, e, e)": DSM,
    "random.double_sided_maxwell(K, e, s)": DSM,
    "random.choice(K, e2, (0,))": CHOICE0,
    "sl.eigh_tridiagonal(ee, e)": TRIDIAG,
    "sl.eigh_tridiagonal(eb, eb)": TRIDIAG,
    "sl.eigh_tridiagonal(ee, ee)": TRIDIAG,
    "sl.lu(r3)": LUBATCH,
    "sl.lu(eb)": LUBATCH,
    "sl.rsf2csf(ee, ee)": SCHUR0,
    "sl.sqrtm(ee)": SCHUR0,
    "sl.funm(ee, jnp.exp)": SCHUR0,
    "sl.solve_sylvester(ee, ee, ee)": SCHUR0,
    "sig.istft(jnp.ones((3, 0), jnp.complex64), nperseg=4)": ISTFT0,
    "sp.gammaln(b)": NOISE,
    "sp.loggamma(b)": NOISE,
    "sp.multigammaln(s, s)": MGL,
    "sp.multigammaln(e, s)": MGL,
    "sp.multigammaln(i, s)": MGL,
    "sp.multigammaln(jnp.float32(3), -1)": MGL,
    "sp.multigammaln(jnp.float32(3), 2.5)": MGL,
    "sp.bessel_jn(s, v=0)": BESSEL,
    "sp.bessel_jn(s, v=2, n_iter=0)": BESSEL,
    "sp.sph_harm_y(jnp.int32(1), jnp.int32(1), s, s)": SPH,
    "sp.sph_harm_y(ie, ie, e, e)": SPH,
    "sp.sph_harm_y(jnp.int32(1), jnp.int32(1), s, s, n_max=0)": SPH,
    "sp.sph_harm_y(jnp.int32(2), jnp.int32(1), s, s, n_max=1)": SPH,
}

#: not yet fixed; the classes are those of the test's report
OPEN: dict[str, str] = {}
