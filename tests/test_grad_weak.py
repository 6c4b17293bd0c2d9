"""Weak flags of gradients against JAX 0.10.2 (``tests/grad_weak_cases.py``, golden
``tests/golden/grad_weak.json`` from ``tools/gen_golden_grad_weak.py``).

The case that failed: ``grad(lambda x, b: -x**b, argnums=(0, 1))`` at Python floats, where JAX's
exponent gradient is weak beside a strong base gradient (``pow``'s JVP in the exponent ends in a
cast to the strong dtype, whose transpose gives the cotangent back its weak flag).
"""

from __future__ import annotations

import json
import pathlib

from grad_weak_cases import outcomes

import trellax
import trellax.numpy as tnp

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "grad_weak.json").read_text())


def test_gradient_weak_flags_as_jax() -> None:
    got = outcomes(trellax, tnp)
    want = GOLDEN["cases"]
    assert set(got) == set(want)
    wrong = [f"{k}: {got[k]} (JAX: {want[k]})" for k in sorted(want) if got[k] != want[k]]
    assert not wrong, f"{len(wrong)} of {len(want)} differ:\n" + "\n".join(wrong[:30])
