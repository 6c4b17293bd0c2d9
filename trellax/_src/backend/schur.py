"""NumPy impls of ``hessenberg`` and ``schur`` (NumPy has neither), computed in float64 or
complex128 and rounded back to the operand's dtype.

* ``hessenberg``: Householder reduction ``A = Q H Q^H`` with LAPACK's gehrd conventions: the
  reflector ``H_k = I - tau_k v_k v_k^H`` has ``v_k[k+1] = 1`` and its other entries below the
  subdiagonal of the packed result, ``beta = -sign(Re alpha) ||x||`` (so the subdiagonal is
  real); returns the packed matrix and the ``n - 1`` taus.
* ``schur``: ``A = Z T Z^H`` from the Hessenberg form by shifted QR iterations with deflation at
  negligible subdiagonals. Complex matrices: single-shift (Wilkinson) QR with Givens rotations,
  ``T`` upper triangular. Real matrices: Francis double-shift QR with Householder 3-vectors,
  ``T`` quasi-triangular with 2x2 blocks only for complex-conjugate pairs, each in standard
  form (equal diagonal entries); a 2x2 block with real eigenvalues is split. A matrix with NaN
  or inf, or one that does not converge in ``30 n`` sweeps per eigenvalue, gives NaNs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = np.ndarray[Any, Any]
_EPS = float(np.finfo(np.float64).eps)


def _wide(a: Arr) -> Arr:
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _householder(x: Arr) -> tuple[Arr, complex, complex]:
    """``(v, tau, beta)`` with ``v[0] = 1`` and ``(I - tau v v^H)^H x = beta e_0`` (dlarfg)."""
    alpha = x[0]
    xnorm = float(np.linalg.norm(x[1:]))
    v = np.zeros_like(x)
    v[0] = 1
    if xnorm == 0.0 and np.imag(alpha) == 0:
        return v, 0.0, alpha
    beta = -np.copysign(float(np.hypot(np.abs(alpha), xnorm)), np.real(alpha))
    tau = (beta - alpha) / beta
    v[1:] = x[1:] / (alpha - beta)
    return v, tau, beta


def hessenberg_2d(a: Arr) -> tuple[Arr, Arr]:
    """Packed Householder vectors with ``H`` on and above the subdiagonal, and the taus."""
    h = _wide(a).copy()
    n = h.shape[0]
    taus = np.zeros(max(n - 1, 0), h.dtype)
    for k in range(n - 1):  # the last, 1x1 reflector makes a complex subdiagonal entry real
        v, tau, beta = _householder(h[k + 1 :, k].copy())
        taus[k] = tau
        # H_k^H applied on the left, H_k on the right (A <- H^H A H)
        block = h[k + 1 :, k:]
        block -= np.conj(tau) * np.outer(v, np.conj(v) @ block)
        cols = h[:, k + 1 :]
        cols -= tau * np.outer(cols @ v, np.conj(v))
        h[k + 1, k] = beta
        h[k + 2 :, k] = v[1:]
    return h, taus


def hessenberg_q(packed: Arr, taus: Arr) -> Arr:
    """``Q = H_0 H_1 ... H_{n-3}`` from :func:`hessenberg_2d`'s output."""
    n = packed.shape[0]
    q = np.eye(n, dtype=packed.dtype)
    for k in reversed(range(len(taus))):
        v = np.concatenate([[1], packed[k + 2 :, k]]).astype(packed.dtype)
        sub = q[k + 1 :, :]
        sub -= taus[k] * np.outer(v, np.conj(v) @ sub)
    return q


def _hess_and_q(a: Arr) -> tuple[Arr, Arr]:
    packed, taus = hessenberg_2d(a)
    q = hessenberg_q(packed, taus)
    return np.triu(packed, -1), q


def _small(h: Arr, k: int) -> bool:
    s = abs(h[k - 1, k - 1]) + abs(h[k, k])
    if s == 0:
        s = np.abs(h).sum()
    return bool(abs(h[k, k - 1]) <= _EPS * s)


def _deflation_point(h: Arr, hi: int) -> int:
    """The start of the unreduced block that ends at ``hi`` (zeroing a negligible subdiagonal)."""
    lo = hi
    while lo > 0:
        if _small(h, lo):
            h[lo, lo - 1] = 0
            break
        lo -= 1
    return lo


def _givens(x: complex, y: complex) -> Arr:
    """A unitary ``G`` with ``G @ [x, y] = [r, 0]``."""
    r = float(np.hypot(abs(x), abs(y)))
    if r == 0.0:
        return np.eye(2, dtype=np.result_type(x, y, np.float64))
    if x == 0:
        c, s = 0.0, np.conj(y) / abs(y)
    else:
        phase = x / abs(x)
        c, s = abs(x) / r, phase * np.conj(y) / r
    return np.array([[c, s], [-np.conj(s), c]])


def _complex_schur(t: Arr, z: Arr) -> bool:
    n = t.shape[0]
    hi, its = n - 1, 0
    while hi > 0:
        lo = _deflation_point(t, hi)
        if lo == hi:
            hi, its = hi - 1, 0
            continue
        its += 1
        if its > 30 * n:
            return False
        a, b, c, d = t[hi - 1, hi - 1], t[hi - 1, hi], t[hi, hi - 1], t[hi, hi]
        if its % 11 == 0:  # exceptional shift
            mu = d + abs(c)
        else:
            half = (a - d) / 2
            root = np.sqrt(half * half + b * c)
            mu1, mu2 = d + half + root, d + half - root
            mu = mu1 if abs(mu1 - d) < abs(mu2 - d) else mu2
        x, y = t[lo, lo] - mu, t[lo + 1, lo]
        for k in range(lo, hi):
            if k > lo:
                x, y = t[k, k - 1], t[k + 1, k - 1]
            g = _givens(x, y)
            first = max(lo, k - 1)
            t[k : k + 2, first:] = g @ t[k : k + 2, first:]
            last = min(k + 2, hi)
            t[: last + 1, k : k + 2] = t[: last + 1, k : k + 2] @ g.conj().T
            z[:, k : k + 2] = z[:, k : k + 2] @ g.conj().T
            if k > lo:
                t[k + 1, k - 1] = 0
    return True


def _reflect(t: Arr, z: Arr, x: Arr, k: int, lo: int, hi: int) -> None:
    """Applies the real Householder reflector that maps ``x`` to a multiple of ``e_0`` to rows
    and columns ``k .. k + len(x) - 1``."""
    v, tau, _ = _householder(x.copy())
    tau = float(np.real(tau))
    if tau == 0.0:
        return
    m = len(x)
    first = max(lo, k - 1)
    rows = t[k : k + m, first:]
    rows -= tau * np.outer(v, v @ rows)
    last = min(k + m, hi)
    cols = t[: last + 1, k : k + m]
    cols -= tau * np.outer(cols @ v, v)
    zc = z[:, k : k + m]
    zc -= tau * np.outer(zc @ v, v)


def _real_schur(t: Arr, z: Arr) -> bool:
    n = t.shape[0]
    hi, its = n - 1, 0
    while hi > 0:
        lo = _deflation_point(t, hi)
        if lo == hi:
            hi, its = hi - 1, 0
            continue
        if lo == hi - 1:  # a 2x2 block: standardized afterwards
            hi, its = hi - 2, 0
            continue
        its += 1
        if its > 30 * n:
            return False
        if its % 11 == 0:  # exceptional shifts
            s = abs(t[hi, hi - 1]) + abs(t[hi - 1, hi - 2])
            tr, det = 1.5 * s, s * s
        else:
            a, b, c, d = t[hi - 1, hi - 1], t[hi - 1, hi], t[hi, hi - 1], t[hi, hi]
            tr, det = a + d, a * d - b * c
        h00, h10 = t[lo, lo], t[lo + 1, lo]
        x = np.array(
            [
                h00 * h00 + t[lo, lo + 1] * h10 - tr * h00 + det,
                h10 * (h00 + t[lo + 1, lo + 1] - tr),
                h10 * t[lo + 2, lo + 1],
            ]
        )
        for k in range(lo, hi - 1):
            _reflect(t, z, x, k, lo, hi)
            if k > lo:
                t[k + 1 : k + 3, k - 1] = 0
            x = t[k + 1 : k + 4, k].copy() if k + 3 <= hi else t[k + 1 : k + 3, k].copy()
        _reflect(t, z, x[:2], hi - 1, lo, hi)
        if hi - 2 >= lo:
            t[hi, hi - 2] = 0
    _standardize_blocks(t, z)
    return True


def _rotate(t: Arr, z: Arr, i: int, cs: float, sn: float) -> None:
    """``T <- G^T T G``, ``Z <- Z G`` with the rotation ``G = [[cs, -sn], [sn, cs]]`` on
    ``i, i + 1``."""
    g = np.array([[cs, -sn], [sn, cs]])
    t[i : i + 2, :] = g.T @ t[i : i + 2, :]
    t[:, i : i + 2] = t[:, i : i + 2] @ g
    z[:, i : i + 2] = z[:, i : i + 2] @ g


def _sign(x: float) -> float:
    return 1.0 if x >= 0 else -1.0


def _lanv2(a: float, b: float, c: float, d: float) -> tuple[float, ...]:
    """The standardized 2x2 block ``(a, b, c, d)`` and the rotation ``(cs, sn)`` that makes it
    (``new = G^T old G``, ``G = [[cs, -sn], [sn, cs]]``), as LAPACK's lanv2: real eigenvalues
    give an upper-triangular block, complex ones equal diagonal entries with ``b c < 0``."""
    cs, sn = 1.0, 0.0
    if c == 0:
        return a, b, c, d, cs, sn
    if b == 0:  # swap the rows and columns
        return d, -c, 0.0, a, 0.0, 1.0
    if a - d == 0 and _sign(b) != _sign(c):
        return a, b, c, d, cs, sn
    temp = a - d
    p = 0.5 * temp
    bcmax = max(abs(b), abs(c))
    bcmis = min(abs(b), abs(c)) * _sign(b) * _sign(c)
    scale = max(abs(p), bcmax)
    z = p / scale * p + bcmax / scale * bcmis
    if z >= 4.0 * _EPS:  # real eigenvalues
        z = p + _sign(p) * np.sqrt(scale) * np.sqrt(z)
        a = d + z
        d = d - bcmax / z * bcmis
        tau = float(np.hypot(c, z))
        return a, b - c, 0.0, d, z / tau, c / tau
    sigma = b + c
    tau = float(np.hypot(sigma, temp))
    cs = float(np.sqrt(0.5 * (1.0 + abs(sigma) / tau)))
    sn = -(p / (tau * cs)) * _sign(sigma)
    aa, bb = a * cs + b * sn, -a * sn + b * cs
    cc, dd = c * cs + d * sn, -c * sn + d * cs
    a, b = aa * cs + cc * sn, bb * cs + dd * sn
    c, d = -aa * sn + cc * cs, -bb * sn + dd * cs
    temp = 0.5 * (a + d)
    a = d = temp
    if c != 0:
        if b != 0:
            if _sign(b) == _sign(c):  # real eigenvalues after all: triangularize
                sab, sac = np.sqrt(abs(b)), np.sqrt(abs(c))
                p = _sign(c) * sab * sac
                tau = 1.0 / np.sqrt(abs(b + c))
                a, d = temp + p, temp - p
                b, c = b - c, 0.0
                cs1, sn1 = sab * tau, sac * tau
                cs, sn = cs * cs1 - sn * sn1, cs * sn1 + sn * cs1
        else:
            b, c = -c, 0.0
            cs, sn = -sn, cs
    return a, b, c, d, cs, sn


def _standardize_blocks(t: Arr, z: Arr) -> None:
    n = t.shape[0]
    i = 0
    while i < n - 1:
        if t[i + 1, i] == 0:
            i += 1
            continue
        a, b, c, d, cs, sn = _lanv2(t[i, i], t[i, i + 1], t[i + 1, i], t[i + 1, i + 1])
        _rotate(t, z, i, cs, sn)
        t[i, i], t[i, i + 1], t[i + 1, i], t[i + 1, i + 1] = a, b, c, d
        i += 2


def schur_2d(a: Arr, compute_schur_vectors: bool) -> tuple[Arr, Arr]:
    """``(T, Z)`` of one square matrix (``Z`` the identity when vectors are not wanted)."""
    n = a.shape[0]
    w = _wide(a)
    if not np.all(np.isfinite(w)):
        nan = np.full((n, n), np.nan, w.dtype)
        return nan, nan.copy()
    t, z = _hess_and_q(w)
    ok = _complex_schur(t, z) if w.dtype.kind == "c" else _real_schur(t, z)
    if not ok:
        t[...] = np.nan
        z[...] = np.nan
    return np.triu(t, -1) if w.dtype.kind != "c" else np.triu(t), z


def _batched(fn: Any, a: Arr, nout: int) -> tuple[Arr, ...]:
    batch = a.shape[:-2]
    flat = a.reshape((-1, *a.shape[-2:]))
    outs = [fn(m) for m in flat]
    return tuple(
        np.stack([o[j] for o in outs]).reshape(batch + outs[0][j].shape)
        if outs
        else np.zeros((*batch, 0), a.dtype)
        for j in range(nout)
    )


def schur(x: Any, *, compute_schur_vectors: bool) -> tuple[Arr, ...]:
    a = np.asarray(x)
    if a.size == 0:
        return (a.copy(), a.copy()) if compute_schur_vectors else (a.copy(),)
    t, z = _batched(lambda m: schur_2d(m, compute_schur_vectors), a, 2)
    t, z = t.astype(a.dtype), z.astype(a.dtype)
    return (t, z) if compute_schur_vectors else (t,)


def hessenberg(x: Any) -> tuple[Arr, Arr]:
    a = np.asarray(x)
    n = a.shape[-1]
    if a.size == 0:
        return a.copy(), np.zeros((*a.shape[:-2], max(n - 1, 0)), a.dtype)
    packed, taus = _batched(hessenberg_2d, a, 2)
    return packed.astype(a.dtype), taus.astype(a.dtype)
