"""``trellax.scipy.spatial.transform`` (``Rotation``, ``Slerp``) against SciPy's, which it mirrors
as JAX's does (``scipy_spatial_test`` of JAX 0.10.2 found the module missing)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation as SpRotation
from scipy.spatial.transform import Slerp as SpSlerp

import trellax
import trellax.numpy as tnp
from trellax.scipy.spatial.transform import Rotation, Slerp

RNG = np.random.default_rng(7)
QUATS = RNG.standard_normal((6, 4)).astype(np.float32)


def close(got: object, want: object, tol: float = 2e-5) -> None:
    np.testing.assert_allclose(np.asarray(got), np.asarray(want, np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("q", [QUATS, QUATS[0]])
def test_conversions_match_scipy(q: np.ndarray) -> None:
    r, s = Rotation.from_quat(q), SpRotation.from_quat(q.astype(np.float64))
    close(r.as_quat(), s.as_quat())
    close(r.as_quat(canonical=True), s.as_quat(canonical=True))
    close(r.as_quat(scalar_first=True), s.as_quat(scalar_first=True))
    close(r.as_matrix(), s.as_matrix())
    close(r.as_rotvec(), s.as_rotvec())
    close(r.as_rotvec(degrees=True), s.as_rotvec(degrees=True), 2e-3)
    close(r.as_mrp(), s.as_mrp())
    close(r.magnitude(), s.magnitude())
    close(r.inv().as_quat(), s.inv().as_quat())
    for seq in ["xyz", "zyx", "XYZ", "ZXZ", "xyx", "YZY"]:
        close(r.as_euler(seq), s.as_euler(seq), 1e-4)
    v = RNG.standard_normal(3).astype(np.float32)
    close(r.apply(v), s.apply(v), 1e-4)
    close(r.apply(v, inverse=True), s.apply(v, inverse=True), 1e-4)
    assert r.single == s.single


def test_constructors_match_scipy() -> None:
    rotvec = RNG.standard_normal((5, 3)).astype(np.float32)
    rotvec[0] = [1e-5, -2e-5, 0.0]  # the small-angle series
    close(Rotation.from_rotvec(rotvec).as_quat(), SpRotation.from_rotvec(rotvec).as_quat())
    close(Rotation.from_rotvec(rotvec).as_rotvec(), SpRotation.from_rotvec(rotvec).as_rotvec())
    close(
        Rotation.from_rotvec(rotvec * 10, degrees=True).as_quat(),
        SpRotation.from_rotvec(rotvec * 10, degrees=True).as_quat(),
    )
    mrp = RNG.standard_normal((4, 3)).astype(np.float32)
    close(Rotation.from_mrp(mrp).as_rotvec(), SpRotation.from_mrp(mrp).as_rotvec())
    for seq in ["x", "xy", "xyz", "XYZ", "zxz"]:
        angles = RNG.uniform(-3, 3, (3, len(seq))).astype(np.float32)
        close(
            Rotation.from_euler(seq, angles).as_quat(), SpRotation.from_euler(seq, angles).as_quat()
        )
        close(
            Rotation.from_euler(seq, angles * 50, degrees=True).as_rotvec(),
            SpRotation.from_euler(seq, angles * 50, degrees=True).as_rotvec(),
            1e-4,
        )
    assert Rotation.from_euler("z", 90.0, degrees=True).single
    close(Rotation.identity().as_rotvec(), np.zeros(3))


def test_from_matrix_every_branch() -> None:
    # each of the four formulas (largest trace, largest m00, m11, m22) and reflections
    angles = [[0.1, 0.2, 0.3], [np.pi - 0.1, 0.0, 0.0], [0.0, np.pi - 0.1, 0.0], [0, 0, 3.0]]
    mats = SpRotation.from_rotvec(np.array(angles)).as_matrix().astype(np.float32)
    close(Rotation.from_matrix(mats).as_rotvec(), SpRotation.from_matrix(mats).as_rotvec(), 1e-4)
    q, _ = np.linalg.qr(RNG.standard_normal((3, 3, 3)))
    close(
        Rotation.from_matrix(q).as_quat(canonical=True),
        SpRotation.from_matrix(q).as_quat(canonical=True),
        1e-4,
    )


def test_euler_gimbal_lock() -> None:
    # the middle angle 0 or pi (proper Euler) or +-pi/2 (Tait-Bryan): SciPy's angles, the
    # locked rotation in the first angle (its sign and place differ between extrinsic and
    # intrinsic sequences)
    for seq in ["xyz", "XYZ", "ZYX", "zxz", "ZXZ", "yzy"]:
        mid = np.pi / 2 if seq[0] != seq[2] else 0.0
        angles = np.array([[0.3, mid, 0.0], [0.3, -mid if mid else np.pi, 0.0]])
        q = SpRotation.from_euler(seq, angles).as_quat()
        with pytest.warns(UserWarning):
            want = SpRotation.from_quat(q).as_euler(seq)
        close(Rotation.from_quat(q.astype(np.float32)).as_euler(seq), want, 1e-4)


def test_compose_mean_slicing_and_slerp() -> None:
    a, b = Rotation.from_quat(QUATS), Rotation.from_quat(QUATS[::-1])
    sa, sb = SpRotation.from_quat(QUATS), SpRotation.from_quat(QUATS[::-1])
    close((a * b).as_quat(), (sa * sb).as_quat())
    close((a[1:3] * b[0]).as_rotvec(), (sa[1:3] * sb[0]).as_rotvec())
    assert len(a) == 6 and len(Rotation.concatenate([a, b[0]])) == 7
    w = np.abs(RNG.standard_normal(6)).astype(np.float32)
    close(a.mean(w).as_rotvec(), sa.mean(w).as_rotvec(), 1e-4)
    close(a.mean().as_rotvec(), sa.mean().as_rotvec(), 1e-4)
    times = np.arange(6.0, dtype=np.float32)
    at = np.array([0.0, 0.5, 2.25, 5.0], np.float32)
    close(
        Slerp.init(times, a)(at).as_quat(canonical=True),
        SpSlerp(times, sa)(at).as_quat(canonical=True),
        1e-4,
    )
    assert Slerp.init(times, a)(1.5).single
    with pytest.raises(TypeError, match="Single rotation is not subscriptable"):
        a[0][0]
    with pytest.raises(TypeError, match="Single rotation has no len"):
        len(a[0])
    with pytest.raises(ValueError, match="Expected consecutive axes to be different"):
        Rotation.from_euler("xxy", [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Expected 3 axes"):
        a.as_euler("xy")
    with pytest.raises(ValueError, match="must be a sequence of at least 2 rotations"):
        Slerp.init([0.0], a[0:1])


def test_is_a_pytree_and_traces() -> None:
    r = Rotation.from_quat(QUATS)
    leaves = trellax.tree_util.tree_leaves(r)
    assert len(leaves) == 1
    f = trellax.jit(lambda q, v: Rotation.from_quat(q).apply(v))
    v = RNG.standard_normal((6, 3)).astype(np.float32)
    close(f(QUATS, v), SpRotation.from_quat(QUATS).apply(v), 1e-4)
    g = trellax.grad(lambda q: Rotation.from_quat(q).magnitude().sum())(tnp.asarray(QUATS))
    assert np.all(np.isfinite(np.asarray(g)))


def test_no_rank_promotion_inside() -> None:
    with trellax.numpy_rank_promotion("raise"):
        r = Rotation.from_quat(QUATS)
        r.inv().as_rotvec()
        r.as_euler("xyz")
        r.mean().as_matrix()
