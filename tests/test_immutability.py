"""Immutability and aliasing: no trellax array shares writable memory with anyone.

A caller's NumPy buffer never ends up inside a result (``jit`` copies an output that views an
argument, as JAX copies arguments to the device), every buffer an array owns is read-only at its
root (so ``np.asarray(x)`` cannot be made writable again), and DLPack exports are read-only or
copies.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax._src.backend.array import ArrayImpl

# -- jit never returns a view of a caller's NumPy buffer ---------------------------------------

VIEWS: dict[str, Callable[[Any], Any]] = {
    "identity": lambda y: y,
    "reshape": lambda y: y.reshape(2, 2),
    "slice": lambda y: y[1:],
    "transpose": lambda y: y.T,
    "astype same dtype": lambda y: y.astype("float32"),
    "pytree": lambda y: {"a": [y, (y[::2],)]},
    "cond": lambda y: lax.cond(True, lambda z: z, lambda z: z * 2, y),
    "two outputs": lambda y: (y, y + 1),
    "broadcast": lambda y: tnp.broadcast_to(y, (3, 4)),
}


@pytest.mark.parametrize("name", VIEWS)
def test_jit_result_does_not_alias_numpy_argument(name: str) -> None:
    a = np.arange(4.0, dtype=np.float32)
    out = trellax.jit(VIEWS[name])(a)
    before = [np.array(leaf) for leaf in trellax.tree_util.tree_leaves(out)]
    a[:] = 100.0
    after = [np.asarray(leaf) for leaf in trellax.tree_util.tree_leaves(out)]
    for b, c in zip(before, after):
        np.testing.assert_array_equal(b, c)
    assert a.flags.writeable  # the caller's array keeps its flags


def test_jit_cached_call_copies_too() -> None:
    f = trellax.jit(lambda y: y)
    f(np.zeros(3, np.float32))
    a = np.arange(3, dtype=np.float32)
    out = f(a)  # second call: the cached program
    a[0] = 7.0
    assert float(out[0]) == 0.0


def test_jit_does_not_copy_immutable_trellax_buffers() -> None:
    """Copies are made only when needed: a trellax argument's buffer is already immutable."""
    x = tnp.arange(4.0)
    out = trellax.jit(lambda y: y)(x)
    assert np.shares_memory(np.asarray(out), np.asarray(x))


# -- buffers are read-only at the root ---------------------------------------------------------

MAKERS: dict[str, Callable[[], Any]] = {
    "arange": lambda: tnp.arange(6.0),
    "from list": lambda: tnp.asarray([1.0, 2.0, 3.0]),
    "from numpy": lambda: tnp.asarray(np.arange(3.0)),
    "binary op": lambda: tnp.arange(6.0) + 1,
    "basic index view": lambda: tnp.arange(6.0)[1:4],
    "reshape": lambda: tnp.arange(6.0).reshape(2, 3),
    "transpose": lambda: tnp.arange(6.0).reshape(2, 3).T,
    "reshape of a temporary": lambda: (tnp.arange(6.0) * 2).reshape(3, 2).T,
    "scalar": lambda: tnp.sum(tnp.arange(6.0)),
    "jit output": lambda: trellax.jit(lambda y: (y * 2).T)(tnp.ones((2, 3))),
    "jit output from numpy": lambda: trellax.jit(lambda y: y[1:])(np.arange(4.0)),
    "pickle round trip": lambda: pickle.loads(pickle.dumps(tnp.arange(3.0))),
    "broadcast_to": lambda: tnp.broadcast_to(tnp.arange(3.0), (2, 3)),
    "from_dlpack": lambda: tnp.from_dlpack(np.arange(3.0)),
}


@pytest.mark.parametrize("name", MAKERS)
def test_numpy_view_cannot_be_made_writable(name: str) -> None:
    x = MAKERS[name]()
    before = np.array(x)
    v = np.asarray(x)
    assert not v.flags.writeable
    with pytest.raises(ValueError, match="WRITEABLE"):
        v.flags.writeable = True
    with pytest.raises(ValueError):
        v[...] = 99
    np.testing.assert_array_equal(np.asarray(x), before)


def test_numpy_copy_is_the_users() -> None:
    x = tnp.arange(3.0)
    c = np.array(x)
    c[0] = 5.0
    assert c.flags.writeable and float(x[0]) == 0.0


def test_asarray_copies_a_writable_numpy_buffer() -> None:
    for copy in (None, False, True):
        a = np.arange(3.0, dtype=np.float32)
        x = tnp.asarray(a, copy=copy)
        a[0] = 9.0
        assert float(x[0]) == 0.0 and a.flags.writeable


def test_from_dlpack_is_read_only() -> None:
    x = tnp.arange(3.0)
    d = np.from_dlpack(x)
    assert not d.flags.writeable
    with pytest.raises(ValueError):
        d.flags.writeable = True
    np.testing.assert_array_equal(d, [0.0, 1.0, 2.0])


class _LegacyConsumer:
    """A producer wrapper that exports with the pre-1.0 protocol (no read-only flag)."""

    def __init__(self, x: Any) -> None:
        self.x = x

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.x.__dlpack__()

    def __dlpack_device__(self) -> Any:
        return self.x.__dlpack_device__()


def test_legacy_dlpack_export_is_a_copy() -> None:
    x = tnp.arange(3.0)
    d = np.from_dlpack(_LegacyConsumer(x))  # a pre-1.0 consumer might write to what it gets
    assert not np.shares_memory(d, np.asarray(x))
    np.testing.assert_array_equal(d, [0.0, 1.0, 2.0])


def test_new_refuses_a_buffer_of_another_dtype() -> None:
    with pytest.raises(AssertionError, match="float64 buffer was wrapped as a float32"):
        ArrayImpl._new(np.zeros(2), np.dtype("float32"))


# -- impls return the abstract dtype (ml_dtypes' narrow types computed wider, rounded once) ------

NARROW_OPS: dict[str, Callable[[Any], Any]] = {
    "and": lambda x: x & x,
    "neg": lambda x: -x,
    "max": lambda x: tnp.maximum(x, x),
    "sum": tnp.sum,
    "prod": tnp.prod,
    "amax": tnp.max,
    "matmul 2-D": lambda x: x.reshape(2, 2) @ x.reshape(2, 2),
    "matmul 1-D": lambda x: x @ x,
}


@pytest.mark.parametrize("dtype", ["int4", "uint4", "float8_e5m2", "float8_e4m3fn", "bfloat16"])
@pytest.mark.parametrize("op", NARROW_OPS)
def test_narrow_dtypes_keep_their_dtype(op: str, dtype: str) -> None:
    x = tnp.asarray([1, 2, 3, 0], dtype=dtype)
    f = NARROW_OPS[op]
    if op == "and" and "float" in dtype:
        pytest.skip("bitwise ops take integers")
    eager, jitted = f(x), trellax.jit(f)(x)
    assert eager.dtype == jitted.dtype
    if op not in ("sum", "prod") or "float" in dtype:  # integer sums widen to the default int
        assert eager.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(eager, np.float32), np.asarray(jitted, np.float32))
