"""``jit(f).lower(x).compiler_ir(dialect="hlo")``: the jaxpr in HLO text syntax
(``trellax._src.api.hlo_text``), as optax's numerics tests read it."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp


def _entry(f: Any, x: Any) -> str:
    """The ENTRY computation with the root's name blanked (what optax's test compares)."""
    text = trellax.jit(f).lower(x).compiler_ir(dialect="hlo").as_hlo_text()
    entry = re.search(r"ENTRY.*", text, re.DOTALL)
    assert entry is not None
    return re.sub("ROOT.*?=", "ROOT r =", entry.group())


@pytest.mark.parametrize("x", [3, 3.0, np.array([4, 5.2]), 1j])
def test_square_forms_have_one_text(x: Any) -> None:
    forms = [jnp.square, lambda x: x * x, lambda x: x**2]
    texts = {_entry(f, x) for f in forms}
    assert len(texts) == 1
    (text,) = texts
    assert "multiply(x.1, x.1)" in text


def test_complex_abs_sq_differs_from_square() -> None:
    def abs_sq(x: Any) -> Any:
        return (x.conj() * x).real

    assert _entry(abs_sq, 1j) != _entry(jnp.square, 1j)
    assert _entry(abs_sq, 3.0) == _entry(jnp.square, 3.0)  # conj/real vanish for reals


def test_module_layout() -> None:
    text = trellax.jit(lambda a, b: (a + b, jnp.sort(a))).lower(jnp.ones((2, 3)), jnp.ones((2, 3)))
    hlo = text.compiler_ir(dialect="hlo").as_hlo_text()
    lines = hlo.splitlines()
    assert lines[0] == (
        "HloModule jit__lambda, entry_computation_layout="
        "{(f32[2,3]{1,0}, f32[2,3]{1,0})->(f32[2,3]{1,0}, f32[2,3]{1,0})}"
    )
    assert "  a.1 = f32[2,3]{1,0} parameter(0)" in lines
    assert "  add.1 = f32[2,3]{1,0} add(a.1, b.1)" in lines
    assert any('custom_call_target="trellax.sort"' in line for line in lines)
    assert lines[-3] == "  ROOT tuple.2 = (f32[2,3]{1,0}, f32[2,3]{1,0}) tuple(add.1, sort.1)"
    assert str(text.compiler_ir(dialect="hlo")) == hlo


def test_other_dialects_are_refused() -> None:
    lowered = trellax.jit(jnp.sin).lower(1.0)
    with pytest.raises(NotImplementedError, match="StableHLO"):
        lowered.compiler_ir()
    with pytest.raises(ValueError, match="Unknown dialect"):
        lowered.compiler_ir(dialect="mhlo2")
