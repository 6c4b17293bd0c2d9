"""Which of two applicable errors trellax reports first, and what a convolution makes of its
filled zeros, against JAX 0.10.2 (``tests/golden/error_order.json`` from
``tools/gen_golden_error_order.py``; the programs are ``tests/error_order_cases.py``'s).

- A ``lax`` primitive without a derivative rule reports the missing rule
  (``NotImplementedError``) before its operand's dtype check under ``jvp``, as JAX does:
  ``population_count``, ``clz``, ``reduce_and``, ``reduce_xor``, ``rng_bit_generator``;
  ``reduce_or`` has a zero rule in reverse mode only (``grad``/``vjp``/``linearize`` reach its
  ``TypeError``). ``jnp.bitwise_count`` checks its dtype first, and integer operands (float0
  tangents) never look a rule up.
- ``conv_general_dilated`` refuses negative padding that removes more than the dilated spatial
  size (``ValueError``) before it looks at ``preferred_element_type``.
- Filled zeros: the difference kept on purpose (docs/semantics.md; ``tests/fuzz_lax_open.py``,
  ``CONV_FILL``) is pinned, so a change to either side shows.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from error_order_cases import FILL_DTYPES, outcome, programs

import trellax

GOLDEN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden" / "error_order.json").read_text("utf-8")
)["outcomes"]
with trellax.enable_x64(True):
    PROGRAMS = programs(trellax)

#: where trellax keeps its own value (docs/semantics.md, the convolution's filled zeros):
#: its forward GEMM multiplies every filled zero, padding and lhs-dilation holes alike
FILL_DIFFERS = {
    f"fill/{d}/{form}" for d in FILL_DTYPES for form in ("lhs dilation", "rhs dilation")
} | {"fill/float64/padding", "fill/complex128/padding"}

#: JAX's ``rng_bit_generator`` of a float state fails an ``assert`` when it runs (its abstract
#: evaluation accepts the state); trellax raises ``TypeError`` there, with the state's dtype
ASSERTS = {
    f"rule/rng_bit_generator/{mode}"
    for mode in ("eager f32", "jvp int float0", "grad through int", "grad(jit) int operand")
}


def _mine(name: str) -> list[Any]:
    with trellax.enable_x64(True), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return outcome(PROGRAMS[name])


def test_the_golden_covers_the_programs() -> None:
    assert set(GOLDEN) == set(PROGRAMS)
    assert len(GOLDEN) == 547
    rule = [v for k, v in GOLDEN.items() if k.startswith("rule/")]
    assert sum(1 for v in rule if v == ["error", "NotImplementedError"]) >= 40


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if not n.startswith("fill/")))
def test_outcome_is_jaxs(name: str) -> None:
    if name in ASSERTS:
        assert GOLDEN[name] == ["error", "AssertionError"]
        assert _mine(name) == ["error", "TypeError"]
        return
    assert _mine(name) == GOLDEN[name]


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if n.startswith("fill/")))
def test_filled_zeros(name: str) -> None:
    """JAX's values where trellax agrees; elsewhere the documented difference: NaN in trellax
    where JAX skips a filled zero."""
    mine, want = _mine(name), GOLDEN[name]
    if name in FILL_DIFFERS:
        assert mine != want
        assert mine[0] == want[0] == "ok" and len(mine[1]) == len(want[1])
        for m, w in zip(mine[1], want[1], strict=True):
            assert m == w or "nan" in m
    else:
        assert mine == want


def test_filled_zeros_as_the_docs_say() -> None:
    """conv([1, 1, 1, 1], [inf, 1, 1]) padded by (1, 1): [nan, inf, inf, inf] in float32 and
    [2, inf, inf, inf] in float64 (JAX); lhs dilation 2 keeps the holes out in JAX
    ([inf, 1, inf, 1, inf]), trellax multiplies them ([inf, nan, inf, nan, inf])."""
    num = {"(nan+0j)": "nan", "(inf+0j)": "inf", "(2+0j)": "2", "(1+0j)": "1"}

    def values(rec: list[Any]) -> list[str]:
        return [num[v] for v in rec[1]]

    assert values(GOLDEN["fill/float32/padding"]) == ["nan", "inf", "inf", "inf"]
    assert values(GOLDEN["fill/float64/padding"]) == ["2", "inf", "inf", "inf"]
    assert values(GOLDEN["fill/float32/lhs dilation"]) == ["inf", "1", "inf", "1", "inf"]
    assert values(_mine("fill/float32/lhs dilation")) == ["inf", "nan", "inf", "nan", "inf"]
