"""Array references (``trellax.new_ref``, ``trellax.Ref``, ``trellax.ref``): JAX 0.10.2's
behaviour as its "array refs" guide shows it (values and error texts observed with JAX)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp


def test_indexed_reads_and_writes() -> None:
    r = trellax.new_ref(tnp.arange(12.0).reshape(3, 4))
    row = r[0]
    r[1] = row
    r[2, 3] = r[1, 2]
    r[0, :3] = r[:, 1]
    vals = r[tnp.array([0, 0, 1]), tnp.array([1, 2, 3])]
    r[tnp.array([1, 2, 1]), tnp.array([0, 0, 1])] = vals
    want = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    want[1] = want[0]
    want[2, 3] = want[1, 2]
    want[0, :3] = want[:, 1].copy()
    v = want[[0, 0, 1], [1, 2, 3]].copy()
    want[[1, 2, 1], [0, 0, 1]] = v
    np.testing.assert_array_equal(r[...], want)
    np.testing.assert_array_equal(row, np.arange(4.0))  # a read never changes afterwards
    assert repr(trellax.new_ref(tnp.zeros(2))) == "Ref([0., 0.], dtype=float32)"
    assert r.shape == (3, 4) and r.dtype == np.float32 and r.ndim == 2 and r.size == 12


def test_writes_need_the_reference_type() -> None:
    r = trellax.new_ref(tnp.zeros(2))
    with pytest.raises(
        ValueError,
        match=re.escape("Invalid dtype for `swap`. Ref dtype: float32. Value dtype: int32"),
    ):
        r[...] = tnp.arange(2)
    with pytest.raises(ValueError, match="Invalid shape for `swap`"):
        r[...] = 1.0  # no broadcasting
    i = trellax.new_ref(tnp.arange(3))
    with pytest.raises(ValueError, match="Value dtype: float32"):
        i[0] = 2.7
    b = trellax.new_ref(tnp.zeros((), "bfloat16"))
    b[...] = 1.5  # a weak scalar of the same kind converts
    assert b[...].dtype == tnp.bfloat16 and float(b[...]) == 1.5
    with pytest.raises(TypeError):
        tnp.sin(r)  # math needs a read first


def test_swap_get_addupdate_freeze() -> None:
    r = trellax.new_ref(tnp.arange(4.0))
    assert float(trellax.ref.swap(r, 1, 5.0)) == 1.0
    trellax.ref.addupdate(r, 0, 2.0)
    np.testing.assert_array_equal(trellax.ref.get(r, ...), [2.0, 5.0, 2.0, 3.0])
    np.testing.assert_array_equal(trellax.freeze(r), [2.0, 5.0, 2.0, 3.0])


def test_jit_closes_over_and_takes_references() -> None:
    x_ref = trellax.new_ref(tnp.zeros(3))

    @trellax.jit
    def f() -> None:
        x_ref[1] += 1.0

    f()
    f()  # the cached program reads the reference's current value each call
    np.testing.assert_array_equal(x_ref[...], [0.0, 2.0, 0.0])

    @trellax.jit
    def sin_inplace(r: Any, scale: Any) -> Any:
        r[...] = tnp.sin(r[...]) * scale
        return scale + 1

    y = trellax.new_ref(tnp.arange(3.0))
    out = sin_inplace(y, 2.0)
    assert float(out) == 3.0
    np.testing.assert_allclose(y[...], np.sin(np.arange(3.0, dtype=np.float32)) * 2, rtol=1e-6)
    z = trellax.new_ref(tnp.ones(3))
    sin_inplace(z, 1.0)  # same program, another reference
    np.testing.assert_allclose(z[...], np.sin(np.ones(3, np.float32)), rtol=1e-6)

    @trellax.jit
    def outer(r: Any) -> Any:
        inner = trellax.jit(lambda q: q.__setitem__(..., q[...] + x_ref[...]))
        inner(r)
        return r[...].sum()

    w = trellax.new_ref(tnp.ones(3))
    assert float(outer(w)) == 5.0  # nested jit, a closed-over reference lifted twice
    np.testing.assert_array_equal(w[...], [1.0, 3.0, 1.0])


def test_pure_functions_with_internal_references() -> None:
    def g(x: Any) -> Any:
        r = trellax.new_ref(0.0)
        r[...] = tnp.sin(x)
        return r[...]

    assert abs(float(trellax.grad(g)(1.0)) - np.cos(1.0)) < 1e-6

    @trellax.jit
    def pure(x: Any) -> Any:
        r = trellax.new_ref(x)
        r[...] = r[...] + r[...]
        return r[...]

    assert float(trellax.grad(pure)(3.0)) == 2.0
    np.testing.assert_array_equal(trellax.vmap(pure)(tnp.arange(3.0)), [0.0, 2.0, 4.0])


def test_vmap_over_reference_arguments() -> None:
    def dist(x: Any, y: Any, out_ref: Any) -> None:
        out_ref[...] = tnp.sum((x - y) ** 2)

    vecs = tnp.arange(12.0).reshape(3, 4)
    out_ref = trellax.new_ref(tnp.zeros((3, 3)))
    trellax.vmap(trellax.vmap(dist, (0, None, 0)), (None, 0, 0))(vecs, vecs, out_ref)
    np.testing.assert_array_equal(
        out_ref[...], [[0.0, 64.0, 256.0], [64.0, 0.0, 64.0], [256.0, 64.0, 0.0]]
    )


def test_plumbing_reference_under_grad() -> None:
    plumb = trellax.new_ref(0.0)

    def fine(x: Any, p: Any) -> Any:
        y = x + x
        p[...] += trellax.lax.stop_gradient(y)
        return y

    assert float(trellax.grad(fine)(1.0, plumb)) == 2.0
    assert float(plumb[...]) == 2.0

    def err(x: Any, p: Any) -> Any:
        y = x + x
        p[...] += y
        return y

    with pytest.raises(ValueError, match="differentiated value on a non-differentiated"):
        trellax.grad(err)(1.0, plumb)


def test_errors_of_jax() -> None:
    x_ref = trellax.new_ref(0.0)

    @trellax.jit
    def err1(r: Any) -> Any:
        return r

    with pytest.raises(
        ValueError, match=re.escape("cannot be returned.\n\nThe returned mutable array was")
    ):
        err1(x_ref)

    @trellax.jit
    def err2(a: Any, b: Any) -> None:
        pass

    with pytest.raises(ValueError, match="appeared at both a and b"):
        err2(x_ref, x_ref)

    @trellax.jit
    def err3(y_ref: Any) -> None:
        y_ref[...] = x_ref[...]

    with pytest.raises(ValueError, match="both closed over and passed as the argument y_ref"):
        err3(x_ref)

    def err5(x: Any) -> None:
        x_ref[...] = x

    with pytest.raises(ValueError, match="vmapped value on an unbatched array reference"):
        trellax.vmap(err5)(tnp.arange(3.0))


def test_scan_threads_closed_over_references() -> None:
    """JAX's ``foreach`` recipe: a scan body accumulating into a reference it closes over."""

    def foreach(*args: Any) -> Any:
        def decorator(body: Any) -> Any:
            return trellax.lax.scan(lambda _, elts: (None, body(*elts)), None, args)[1]

        return decorator

    r = trellax.new_ref(0)
    xs = tnp.arange(10)

    @foreach(xs)
    def ys(x: Any) -> Any:
        r[...] += x
        return x * 2

    assert repr(r) == "Ref(45, dtype=int32)"
    np.testing.assert_array_equal(ys, np.arange(10) * 2)

    acc = trellax.new_ref(tnp.zeros(3))

    def step(c: Any, x: Any) -> Any:
        acc[...] = acc[...] + x
        return c + 1, acc[...].sum()

    for want in ([3.0, 6.0], [9.0, 12.0]):  # the second call reads the updated reference
        _, sums = trellax.lax.scan(step, 0, tnp.ones((2, 3)))
        np.testing.assert_array_equal(sums, want)
    _, sums = trellax.jit(lambda v: trellax.lax.scan(step, 0, v))(tnp.ones((2, 3)))
    np.testing.assert_array_equal(sums, [15.0, 18.0])
    np.testing.assert_array_equal(acc[...], [6.0, 6.0, 6.0])


def test_other_bodies_refuse_closed_over_references() -> None:
    r = trellax.new_ref(0)

    def body(i: Any, c: Any) -> Any:
        r[...] += 1
        return c

    with pytest.raises(NotImplementedError, match="threads references through jit, vmap and scan"):
        trellax.lax.while_loop(lambda c: c < 3, lambda c: body(0, c + 1), 0)
    with pytest.raises(NotImplementedError, match="threads references"):
        trellax.lax.cond(True, lambda: r[...] + 1, lambda: r[...])
