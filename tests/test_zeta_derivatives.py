"""docs/autodiff.md: ``lax.zeta`` has no derivative (its ``grad`` raises NotImplementedError in
either argument, as JAX 0.10.2's does), while ``scipy.special.zeta`` differentiates in ``x`` and
``q`` to any order (values against JAX in tests/silent3_cases.py; here against finite
differences of itself in float64)."""

from __future__ import annotations

import pytest

import trellax
from trellax import lax
from trellax.scipy.special import zeta


@pytest.mark.parametrize("argnums", [0, 1])
def test_lax_zeta_grad_raises(argnums: int) -> None:
    with pytest.raises(NotImplementedError, match="'zeta'"):
        trellax.grad(lambda x, q: lax.zeta(x, q), argnums=argnums)(3.0, 2.0)


@pytest.mark.parametrize("x, q", [(3.0, 2.0), (1.5, 0.5), (10.0, 1.25)])
def test_scipy_zeta_derivatives_in_x_and_q(x: float, q: float) -> None:
    h = 1e-5
    with trellax.enable_x64(True):
        f = lambda a, b: zeta(a, b)  # noqa: E731
        for argnums, (dx, dq) in ((0, (h, 0.0)), (1, (0.0, h))):
            got = float(trellax.grad(f, argnums=argnums)(x, q))
            fd = (float(f(x + dx, q + dq)) - float(f(x - dx, q - dq))) / (2 * h)
            assert got == pytest.approx(fd, rel=1e-7)
        second = float(trellax.grad(trellax.grad(f, argnums=1), argnums=1)(x, q))
        fd2 = (
            float(trellax.grad(f, argnums=1)(x, q + h))
            - float(trellax.grad(f, argnums=1)(x, q - h))
        ) / (2 * h)
        assert second == pytest.approx(fd2, rel=1e-7)
