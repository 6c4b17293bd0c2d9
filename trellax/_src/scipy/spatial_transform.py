"""``trellax.scipy.spatial.transform``: ``Rotation`` and ``Slerp``, as JAX has them.

A ``Rotation`` is a named tuple holding unit quaternions ``quat`` in SciPy's scalar-last order
``(x, y, z, w)``: shape ``(4,)`` for a single rotation, ``(N, 4)`` for several (a pytree, so it
passes through ``jit``/``vmap``/``grad``). Composition is the Hamilton product (``p * q`` applies
``q`` first, as SciPy's); ``inv`` is the conjugate; ``as_rotvec``/``as_mrp`` take the quaternion
with ``w >= 0`` first; ``magnitude`` is ``2 atan2(|v|, |w|)``. ``from_matrix`` picks, per matrix,
the best-conditioned of the four quaternion formulas (the largest of the diagonal and the
trace, as SciPy); ``as_euler`` is the quaternion method SciPy uses (Bernardes and Viollet 2022):
the middle angle from ``atan2``, the outer ones from half sums and differences; in gimbal lock
(the middle angle 0 or pi) the first angle carries the whole rotation and the third is 0, as in
SciPy (which warns; trellax, as JAX, does not). ``mean`` is the eigenvector of the largest eigenvalue of ``sum w_i q_i q_i^T``.
Operations between rotations and vectors broadcast as ``jnp.vectorize`` does (so
``jax_numpy_rank_promotion`` applies to a batch of rotations against a batch of vectors of
another rank, as in JAX). ``Slerp.init(times, rotations)`` interpolates along the relative
rotation vectors between consecutive key rotations.

Where JAX differs from SciPy, trellax follows JAX: ``from_euler`` with one axis takes ``(N,)``
angles as ``N`` rotations only when ``N > 1`` (a ``(1,)`` array is a single rotation),
``Rotation.random`` raises ``NotImplementedError``. ``identity(num)`` and ``concatenate`` of
single rotations are SciPy's (JAX asserts ``num is None`` and concatenates flat quaternions).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy.vectorize import vectorize

ArrayLike = Any

_AXES = "xyz"


def _check_seq(seq: str, sizes: tuple[int, ...]) -> bool:
    """Checks an axis sequence; True when it is extrinsic (lower case)."""
    if len(seq) not in sizes:
        if sizes == (3,):
            raise ValueError(f"Expected 3 axes, got {seq}.")
        raise ValueError(
            f"Expected axis specification to be a non-empty string of upto 3 characters, got {seq}"
        )
    extrinsic = all(c in "xyz" for c in seq)
    if not extrinsic and not all(c in "XYZ" for c in seq):
        raise ValueError(
            f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}"
        )
    if any(a == b for a, b in itertools.pairwise(seq)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return extrinsic


def _norm(v: Array) -> Array:
    return jnp.sqrt(jnp.sum(v * v, axis=-1))


def _normalize(quat: ArrayLike) -> Array:
    q = jnp.asarray(quat)
    if q.shape[-1:] != (4,):
        raise ValueError(f"Expected quaternions of shape (4,) or (N, 4), got {q.shape}.")
    return q / _norm(q)[..., None]


def _compose_one(p: Array, q: Array) -> Array:
    pv, pw, qv, qw = p[:3], p[3], q[:3], q[3]
    w = pw * qw - jnp.sum(pv * qv)
    v = pw * qv + qw * pv + jnp.cross(pv, qv)
    return jnp.concatenate([v, w[None]])


_compose = vectorize(_compose_one, signature="(n),(n)->(n)")


def _matrix(quat: Array) -> Array:
    x, y, z, w = (quat[..., i] for i in range(4))
    xx, yy, zz, ww = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    rows = [
        [xx - yy - zz + ww, 2 * (xy - zw), 2 * (xz + yw)],
        [2 * (xy + zw), -xx + yy - zz + ww, 2 * (yz - xw)],
        [2 * (xz - yw), 2 * (yz + xw), -xx - yy + zz + ww],
    ]
    return jnp.stack([jnp.stack(r, axis=-1) for r in rows], axis=-2)


def _apply_one(matrix: Array, vector: Array, inverse: Array) -> Array:
    return jnp.where(inverse, matrix.T, matrix) @ vector


_apply = vectorize(_apply_one, signature="(m,m),(m),()->(m)")


def _positive_w(quat: Array) -> Array:
    return jnp.where(quat[..., 3:] < 0, -quat, quat)


def _canonical(quat: Array) -> Array:
    neg, zero = quat < 0, quat == 0
    flip = neg[..., 3] | (zero[..., 3] & neg[..., 0])
    flip = flip | (zero[..., 3] & zero[..., 0] & neg[..., 1])
    flip = flip | (zero[..., 3] & zero[..., 0] & zero[..., 1] & neg[..., 2])
    return jnp.where(flip[..., None], -quat, quat)


def _rotvec(quat: Array, degrees: bool) -> Array:
    q = _positive_w(quat)
    angle = 2 * jnp.arctan2(_norm(q[..., :3]), q[..., 3])
    small = angle <= 1e-3
    safe = jnp.where(small, 1.0, angle)
    a2 = angle * angle
    scale = jnp.where(small, 2 + a2 / 12 + 7 * a2 * a2 / 2880, safe / jnp.sin(safe / 2))
    out = scale[..., None] * q[..., :3]
    return jnp.rad2deg(out) if degrees else out


def _from_rotvec(rotvec: ArrayLike, degrees: bool) -> Array:
    r = jnp.asarray(rotvec)
    if r.shape[-1:] != (3,):
        raise ValueError(f"Expected rotation vectors of shape (3,) or (N, 3), got {r.shape}.")
    if degrees:
        r = jnp.deg2rad(r)
    angle = _norm(r)
    small = angle <= 1e-3
    safe = jnp.where(small, 1.0, angle)
    a2 = angle * angle
    scale = jnp.where(small, 0.5 - a2 / 48 + a2 * a2 / 3840, jnp.sin(safe / 2) / safe)
    return jnp.concatenate([scale[..., None] * r, jnp.cos(angle / 2)[..., None]], axis=-1)


def _from_matrix(matrix: ArrayLike) -> Array:
    m = jnp.asarray(matrix)
    if m.shape[-2:] != (3, 3):
        raise ValueError(f"Expected rotation matrices of shape (3, 3) or (N, 3, 3), got {m.shape}.")
    diag = [m[..., i, i] for i in range(3)]
    trace = diag[0] + diag[1] + diag[2]
    candidates = []
    for i in range(3):  # the formula with q[i] largest
        j, k = (i + 1) % 3, (i + 2) % 3
        q: list[Any] = [None] * 4
        q[i] = 1 - trace + 2 * diag[i]
        q[j] = m[..., j, i] + m[..., i, j]
        q[k] = m[..., k, i] + m[..., i, k]
        q[3] = m[..., k, j] - m[..., j, k]
        candidates.append(jnp.stack(q, axis=-1))
    w_largest = [
        m[..., 2, 1] - m[..., 1, 2],
        m[..., 0, 2] - m[..., 2, 0],
        m[..., 1, 0] - m[..., 0, 1],
        1 + trace,
    ]
    candidates.append(jnp.stack(w_largest, axis=-1))
    choice = jnp.argmax(jnp.stack([*diag, trace], axis=-1), axis=-1)
    stacked = jnp.stack(candidates, axis=-2)  # (..., 4 formulas, 4 components)
    picked = jnp.take_along_axis(stacked, choice[..., None, None], axis=-2)[..., 0, :]
    return _normalize(picked)


def _from_mrp(mrp: ArrayLike) -> Array:
    p = jnp.asarray(mrp)
    if p.shape[-1:] != (3,):
        raise ValueError(f"Expected MRPs of shape (3,) or (N, 3), got {p.shape}.")
    n2 = jnp.sum(p * p, axis=-1)[..., None]
    return jnp.concatenate([2 * p, 1 - n2], axis=-1) / (1 + n2)


def _from_euler(seq: str, angles: ArrayLike, degrees: bool) -> Array:
    extrinsic = _check_seq(seq, (1, 2, 3))
    a = jnp.atleast_1d(jnp.asarray(angles))
    if not jnp.issubdtype(a.dtype, jnp.inexact):
        a = a.astype(jnp.result_type(float))
    if len(seq) == 1 and a.ndim == 1 and a.shape[0] != 1:
        a = a[:, None]  # several rotations about one axis
    if a.shape[-1] != len(seq):
        raise ValueError(
            f"inconsistent size for core dimension 'm': {a.shape[-1]} vs {len(seq)}: expected "
            f"angles of shape ({len(seq)},) or (N, {len(seq)}) for seq={seq!r}, got {a.shape}"
        )
    if degrees:
        a = jnp.deg2rad(a)
    quat = None
    for n, axis in enumerate(seq.lower()):
        half = a[..., n] / 2
        parts = [jnp.zeros_like(half)] * 3 + [jnp.cos(half)]
        parts[_AXES.index(axis)] = jnp.sin(half)
        elementary = jnp.stack(parts, axis=-1)
        if quat is None:
            quat = elementary
        else:  # extrinsic: each new rotation about the fixed axes acts after the others
            quat = _compose(elementary, quat) if extrinsic else _compose(quat, elementary)
    assert quat is not None
    return quat


def _euler(quat: Array, seq: str, degrees: bool) -> Array:
    extrinsic = _check_seq(seq, (3,))
    order = seq.lower() if extrinsic else seq.lower()[::-1]
    i, j, k = (_AXES.index(c) for c in order)
    symmetric = i == k
    if symmetric:
        k = 3 - i - j
    sign = (i - j) * (j - k) * (k - i) // 2
    x = [quat[..., n] for n in range(4)]
    if symmetric:
        a, b, c, d = x[3], x[i], x[j], x[k] * sign
    else:
        a, b, c, d = x[3] - x[j], x[i] + x[k] * sign, x[j] + x[3], x[k] * sign - x[i]
    middle = 2 * jnp.arctan2(jnp.hypot(c, d), jnp.hypot(a, b))
    eps = 1e-7
    at_zero = jnp.abs(middle) <= eps
    at_pi = jnp.abs(middle - math.pi) <= eps
    half_sum = jnp.arctan2(b, a)
    half_diff = jnp.arctan2(d, c)
    locked = at_zero | at_pi
    # gimbal lock: the rotation about the locked axis goes into the angle applied first (the
    # first of an extrinsic sequence, the last before the intrinsic reversal), the other is 0
    whole = jnp.where(at_zero, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    zero = jnp.zeros_like(half_sum)
    first = jnp.where(locked, whole if extrinsic else zero, half_sum - half_diff)
    third = jnp.where(locked, zero if extrinsic else whole, half_sum + half_diff)
    if not symmetric:
        third = third * sign
        middle = middle - math.pi / 2
    angles = [first, middle, third]
    if not extrinsic:
        angles = angles[::-1]
    out = jnp.stack(angles, axis=-1)
    out = jnp.where(out < -math.pi, out + 2 * math.pi, out)
    out = jnp.where(out > math.pi, out - 2 * math.pi, out)
    return jnp.rad2deg(out) if degrees else out


class Rotation(NamedTuple):
    """Rotations in three dimensions, as unit quaternions ``quat`` (scalar last); JAX's
    counterpart of :class:`scipy.spatial.transform.Rotation`.

    >>> r = Rotation.from_euler("z", 90.0, degrees=True)
    >>> r.apply(jnp.array([1.0, 0.0, 0.0])).round(6)
    Array([0., 1., 0.], dtype=float32)
    """

    quat: Array

    @classmethod
    def concatenate(cls, rotations: Sequence[Rotation]) -> Rotation:
        """The rotations of a sequence of ``Rotation`` objects, in order."""
        return cls(jnp.concatenate([jnp.atleast_2d(r.quat) for r in rotations]))

    @classmethod
    def from_euler(cls, seq: str, angles: ArrayLike, degrees: bool = False) -> Rotation:
        """From Euler angles about the axes of ``seq`` (lower case: extrinsic, upper: intrinsic)."""
        return cls(_from_euler(seq, angles, degrees))

    @classmethod
    def from_matrix(cls, matrix: ArrayLike) -> Rotation:
        """From rotation matrices, shape ``(3, 3)`` or ``(N, 3, 3)``."""
        return cls(_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp: ArrayLike) -> Rotation:
        """From modified Rodrigues parameters."""
        return cls(_from_mrp(mrp))

    @classmethod
    def from_quat(cls, quat: ArrayLike) -> Rotation:
        """From quaternions (scalar last), normalized."""
        return cls(_normalize(quat))

    @classmethod
    def from_rotvec(cls, rotvec: ArrayLike, degrees: bool = False) -> Rotation:
        """From rotation vectors (axis times angle)."""
        return cls(_from_rotvec(rotvec, degrees))

    @classmethod
    def identity(cls, num: int | None = None, dtype: Any = float) -> Rotation:
        """The identity rotation (``num`` of them when given)."""
        quat = jnp.array([0.0, 0.0, 0.0, 1.0], dtype=dtype)
        return cls(quat if num is None else jnp.tile(quat, (num, 1)))

    @classmethod
    def random(cls, random_key: Array, num: int | None = None) -> Rotation:
        """Not implemented, as in JAX."""
        raise NotImplementedError("Rotation.random is not implemented (as in JAX)")

    def __getitem__(self, indexer: Any) -> Rotation:  # type: ignore[override]
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self) -> int:
        if self.single:
            raise TypeError("Single rotation has no len().")
        return int(self.quat.shape[0])

    def __mul__(self, other: Any) -> Rotation:
        """The composition: ``other`` first, then ``self``."""
        return Rotation.from_quat(_compose(self.quat, other.quat))

    def apply(self, vectors: ArrayLike, inverse: bool = False) -> Array:
        """The rotated vectors (by the inverse rotation with ``inverse=True``)."""
        result: Array = _apply(self.as_matrix(), vectors, inverse)
        return result

    def as_euler(self, seq: str, degrees: bool = False) -> Array:
        """Euler angles about the three axes of ``seq``."""
        return _euler(self.quat, seq, degrees)

    def as_matrix(self) -> Array:
        """Rotation matrices."""
        return _matrix(self.quat)

    def as_mrp(self) -> Array:
        """Modified Rodrigues parameters (of the quaternion with ``w >= 0``)."""
        q = _positive_w(self.quat)
        return q[..., :3] / (1 + q[..., 3:])

    def as_rotvec(self, degrees: bool = False) -> Array:
        """Rotation vectors (axis times angle, angle in ``[0, pi]``)."""
        return _rotvec(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False) -> Array:
        """The quaternions; ``canonical`` picks ``w >= 0`` (then the first nonzero positive)."""
        quat = _canonical(self.quat) if canonical else self.quat
        return jnp.roll(quat, 1, axis=-1) if scalar_first else quat

    def inv(self) -> Rotation:
        """The inverse rotation(s)."""
        return Rotation(jnp.concatenate([-self.quat[..., :3], self.quat[..., 3:]], axis=-1))

    def magnitude(self) -> Array:
        """The rotation angle(s) in radians, in ``[0, pi]``."""
        return 2 * jnp.arctan2(_norm(self.quat[..., :3]), jnp.abs(self.quat[..., 3]))

    def mean(self, weights: ArrayLike | None = None) -> Rotation:
        """The (weighted) mean rotation."""
        quat = jnp.atleast_2d(self.quat)
        n = quat.shape[0]
        w = jnp.ones(n, quat.dtype) if weights is None else jnp.asarray(weights, quat.dtype)
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
        if w.shape[0] != n:
            raise ValueError(
                "Expected `weights` to have number of values equal to number of rotations, got "
                f"{w.shape[0]} values and {n} rotations."
            )
        k = (quat * w[:, None]).T @ quat
        _, vectors = jnp.linalg.eigh(k)
        return Rotation(vectors[:, -1])

    @property
    def single(self) -> bool:
        """Whether this holds one rotation (``quat`` of shape ``(4,)``)."""
        return bool(self.quat.ndim == 1)


class Slerp(NamedTuple):
    """Spherical linear interpolation between key rotations at increasing ``times``; JAX's
    counterpart of :class:`scipy.spatial.transform.Slerp` (made with :meth:`Slerp.init`)."""

    times: Array
    timedelta: Array
    rotations: Rotation
    rotvecs: Array

    @classmethod
    def init(cls, times: ArrayLike, rotations: Rotation) -> Slerp:
        """The interpolator through ``rotations`` at ``times``."""
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        t = jnp.asarray(times, dtype=rotations.quat.dtype)
        if t.ndim != 1:
            raise ValueError(
                f"Expected times to be specified in a 1 dimensional array, got {t.ndim} dimensions."
            )
        if t.shape[0] != len(rotations):
            raise ValueError(
                "Expected number of rotations to be equal to number of timestamps given, got "
                f"{len(rotations)} rotations and {t.shape[0]} timestamps."
            )
        starts = Rotation(rotations.quat[:-1])
        steps = (starts.inv() * Rotation(rotations.quat[1:])).as_rotvec()
        return cls(times=t, timedelta=jnp.diff(t), rotations=starts, rotvecs=steps)

    def __call__(self, times: ArrayLike) -> Rotation:
        """The interpolated rotation(s) at ``times`` (a scalar gives a single rotation)."""
        t = jnp.asarray(times, dtype=self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = jnp.asarray(jnp.atleast_1d(t))
        index = jnp.maximum(jnp.searchsorted(self.times, t) - 1, 0)
        alpha = (t - self.times[index]) / self.timedelta[index]
        step = Rotation.from_rotvec(self.rotvecs[index] * alpha[:, None])
        result = Rotation(self.rotations.quat[index]) * step
        return Rotation(result.quat[0]) if single else result
