"""``vjp(...)[1].with_refs``: each cotangent delivered as its spec asks (JAX 0.10.2's behaviour,
observed: ``DontWant`` gives ``DidntWant()``, a reference accumulates and gives ``GradRef()``,
``GradValue`` or any other object gives the value; specs are pytree prefixes of the arguments)."""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import ad


def _vjp() -> object:
    f = trellax.jit(lambda x, y: x * y)
    return trellax.vjp(f, tnp.arange(3.0), tnp.arange(3.0))[1]


def test_markers_and_values() -> None:
    ct = tnp.ones(3)
    out = _vjp().with_refs(ad.DontWant(), ad.DontWant())(ct)  # type: ignore[attr-defined]
    assert out == (ad.DidntWant(), ad.DidntWant())
    value, skipped = _vjp().with_refs(ad.GradValue(), ad.DontWant())(ct)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(np.asarray(value), [0.0, 1.0, 2.0])
    assert isinstance(skipped, ad.DidntWant)
    assert trellax.tree.leaves(ad.DidntWant()) == [] and trellax.tree.leaves(ad.GradRef()) == []


def test_references_accumulate() -> None:
    ref = trellax.new_ref(tnp.ones(3))
    got, value = _vjp().with_refs(ref, ad.GradValue())(tnp.ones(3))  # type: ignore[attr-defined]
    assert isinstance(got, ad.GradRef)
    np.testing.assert_array_equal(np.asarray(ref[...]), [1.0, 2.0, 3.0])  # 1 + [0, 1, 2]
    np.testing.assert_array_equal(np.asarray(value), [0.0, 1.0, 2.0])
    acc = trellax.new_ref(tnp.zeros((), tnp.float32))
    f_vjp = trellax.vjp(lambda d: d["a"] * 2, {"a": 1.0})[1]
    assert f_vjp.with_refs({"a": acc})(1.0) == ({"a": ad.GradRef()},)
    f_vjp.with_refs({"a": acc})(1.0)
    assert float(acc[...]) == 4.0


def test_through_checkpoint_and_wrong_arity() -> None:
    f = trellax.checkpoint(tnp.sin)
    p = tnp.array(2.0, dtype=tnp.float32)
    _, f_vjp = trellax.vjp(f, p)
    acc = trellax.ref.new_ref(tnp.zeros_like(p))
    f_vjp.with_refs(acc)(tnp.array(1.0, dtype=p.dtype))
    assert float(trellax.ref.get(acc)) == float(trellax.grad(f)(p))
    with pytest.raises(TypeError, match="one spec per primal argument"):
        f_vjp.with_refs(ad.GradValue(), ad.GradValue())(1.0)
