"""``trellax.test_util`` follows ``jax.test_util``: the same checks, directions and tolerances."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax.test_util import check_grads, check_jvp, check_vjp


@trellax.custom_jvp
def _bad(x: Any) -> Any:
    return tnp.sin(x)


@_bad.defjvp
def _bad_jvp(primals: Any, tangents: Any) -> Any:
    (x,), (t,) = primals, tangents
    return tnp.sin(x), 1.1 * tnp.cos(x) * t  # 10 % off


def test_all_modes_and_orders() -> None:
    x = np.linspace(-1.0, 1.0, 5, dtype=np.float32)
    check_grads(lambda v: tnp.sin(v) * v, (x,), order=2, modes=["fwd", "rev", "lin"])


def test_wrong_rule_is_caught_with_the_check_named() -> None:
    x = np.float32(0.3)
    with pytest.raises(AssertionError, match="JVP tangent"):
        check_grads(_bad, (x,), order=1, modes=["fwd"])
    with pytest.raises(AssertionError, match="VJP cotangent projection"):
        check_grads(_bad, (x,), order=1, modes=["rev"])


def test_second_order_forward_checks_the_jvp_as_a_function_of_primals_and_tangents() -> None:
    # the order-2 forward check differentiates (x, t) -> jvp(f, x, t); its message says so
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return x * x * x

    @f.defjvp
    def f_jvp(primals: Any, tangents: Any) -> Any:
        (x,), (t,) = primals, tangents
        return f(x), 3.0 * trellax.lax.stop_gradient(x * x) * t  # right at first order only

    with pytest.raises(AssertionError, match="JVP of JVP tangent"):
        check_grads(f, (np.float32(0.5),), order=2, modes=["fwd"])


def test_tolerance_scales_with_size_and_dtype_dicts() -> None:
    # JAX multiplies the tolerances by the number of elements compared
    f = lambda v: v  # noqa: E731
    x = np.zeros(1000, np.float32)
    check_jvp(f, lambda p, t: (f(*p), t[0] + 1e-3), (x,), atol=1e-6, rtol=1e-6)
    with pytest.raises(AssertionError):
        check_jvp(f, lambda p, t: (f(*p), t[0] + 1e-2), (x[:1],), atol=1e-6, rtol=1e-6)
    check_vjp(tnp.sin, lambda v: trellax.vjp(tnp.sin, v), (np.float64(0.5),), atol={np.float32: 1})


def test_dtype_mismatch_of_primal_and_tangent_fails() -> None:
    with pytest.raises(AssertionError):
        check_jvp(
            tnp.sin, lambda p, t: (tnp.sin(p[0]), tnp.cos(p[0]).astype("float16")), (np.float32(1),)
        )
