"""float0 values (gradients of integers) as results and arguments of ``jit``."""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax
from trellax import dtypes


def test_gradient_of_an_integer_comes_out_of_jit_as_a_numpy_float0_array() -> None:
    grad_f = trellax.grad(lambda x, i: x[i], argnums=(0, 1), allow_int=True)
    grad_x, grad_i = trellax.jit(grad_f)(np.ones(2, np.float32), 1)
    np.testing.assert_array_equal(np.asarray(grad_x), [0.0, 1.0])
    assert type(grad_i) is np.ndarray and grad_i.dtype == dtypes.float0 and grad_i.shape == ()
    single = trellax.jit(lambda: np.zeros((2,), dtypes.float0))()
    assert type(single) is np.ndarray and single.dtype == dtypes.float0 and single.shape == (2,)


def test_float0_cotangent_is_a_jit_argument() -> None:
    primal, fn_vjp = trellax.vjp(lambda x, y: x + y, 2, 1)
    tx, ti = trellax.jit(fn_vjp)(np.zeros((), dtypes.float0))
    assert int(primal) == 3
    for t in (tx, ti):
        assert t.dtype == dtypes.float0 and t.shape == ()
    out: Any = trellax.jit(lambda x: x)(np.zeros((3,), dtypes.float0))
    assert out.dtype == dtypes.float0 and out.shape == (3,)
