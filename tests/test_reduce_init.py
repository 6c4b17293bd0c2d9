"""``lax.reduce`` / ``lax.reduce_window`` against JAX 0.10.2 over init values of every kind
(``tests/reduce_init_cases.py``, golden ``tests/golden/reduce_init.json`` from
``tools/gen_golden_reduce_init.py``).

JAX's rules, which these cases pin: with ``lax.add``/``mul``/``max``/``min``/``bitwise_*`` and a
concrete scalar init equal to the computation's identity *in the init's own dtype* (``-inf``,
``-2**31`` and ``False`` are identities of ``max``), ``reduce`` is the reduction primitive and the
init is dropped, whatever the operand's dtype; otherwise the init's dtype (a Python scalar's
default dtype: int32/float32, or int64/float64 with x64) must equal the operand's, else
``TypeError``. ``reduce_window`` has such monoids for ``lax.add``/``max``/``min`` only (not
``mul``, not the ``numpy`` functions), and its windows skip padding and dilation holes, folding the
init in once.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from reduce_init_cases import outcomes

import trellax
import trellax.numpy as tnp
from trellax import lax

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "reduce_init.json").read_text())


@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_reduce_init_values_as_jax(mode: str) -> None:
    with trellax.enable_x64(mode == "x64"):
        got = outcomes(trellax, lax, tnp, mode == "x64")
    want = GOLDEN[mode]
    assert set(got) == set(want)
    wrong = [f"{k}: {got[k]} (JAX: {want[k]})" for k in sorted(want) if got[k] != want[k]]
    assert not wrong, f"{len(wrong)} of {len(want)} differ:\n" + "\n".join(wrong[:30])


def test_monoid_identity_is_read_in_the_init_dtype() -> None:
    # 2**31 - 1 is min's identity in int32 (its dtype), so it is dropped: not wrapped to int8 -1
    x = tnp.asarray([[1, 0], [1, 1]], "int8")
    assert lax.reduce(x, 2**31 - 1, lax.min, (0,)).tolist() == [1, 0]
    # -inf is max's identity: reduce works on integers
    assert lax.reduce(x, -tnp.inf, lax.max, (0,)).tolist() == [1, 1]
    # another init must have the operand's dtype
    with pytest.raises(TypeError, match="init values' dtypes"):
        lax.reduce(x, 1, lax.max, (0,))


def test_windows_skip_padding_and_fold_a_non_identity_init_once() -> None:
    x = tnp.ones(3)
    s = lax.reduce_window(x, 1.0, lax.add, (2,), (1,), ((1, 0),))
    assert s.tolist() == [2.0, 3.0, 3.0]  # the padded position adds nothing
    m = lax.reduce_window(x, 2.0, lambda a, b: a * b, (3,), (3,), ((2, 0),))
    assert m.tolist() == [2.0]  # generic computations skip padding too
    # the derivative in the init value is the init's share (JAX refuses it; docs/semantics.md)
    g = trellax.grad(lambda i: lax.reduce_window(x, i, lax.add, (2,), (1,), ((1, 0),)).sum())
    assert float(g(1.0)) == 3.0
