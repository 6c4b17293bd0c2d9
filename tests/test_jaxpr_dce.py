"""``dce_jaxpr`` (JAX's ``pe.dce_jaxpr``), ``subjaxprs`` and ``check_jaxpr``."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.api.core_names import eval_jaxpr
from trellax._src.core.jaxpr import Jaxpr
from trellax._src.interpreters.dce import check_jaxpr, dce_jaxpr, subjaxprs


def _count(jaxpr: Jaxpr) -> int:
    return len(jaxpr.eqns) + sum(len(j.eqns) for j in subjaxprs(jaxpr))


def _agrees(jaxpr: Jaxpr, used_out: list[bool], args: list[Any]) -> tuple[Jaxpr, list[bool]]:
    pruned, used_in = dce_jaxpr(jaxpr, used_out)
    check_jaxpr(pruned)
    full = [o for o, u in zip(eval_jaxpr(jaxpr, [], *args), used_out) if u]
    mine = eval_jaxpr(pruned, [], *[a for a, u in zip(args, used_in) if u])
    for a, b in zip(full, mine):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b))
    return pruned, used_in


def test_cond_prunes_branch_outputs_and_operands() -> None:
    def f(x1: Any, x2: Any) -> Any:
        return lax.cond(
            x1 > 0,
            lambda a, b: (jnp.sin(a), jnp.sin(b)),
            lambda a, b: (jnp.sin(a), jnp.sin(a)),
            x1,
            x2,
        )

    jaxpr = trellax.make_jaxpr(f)(1.0, 2.0).jaxpr
    assert _count(jaxpr) == 7
    pruned, used = _agrees(jaxpr, [True, False], [1.0, 2.0])
    assert used == [True, False] and _count(pruned) == 5
    pruned, used = _agrees(jaxpr, [False, False], [1.0, 2.0])
    assert used == [False, False] and _count(pruned) == 0


def test_scan_drops_carries_nobody_reads_and_unused_loops() -> None:
    def f(lst: Any) -> Any:
        def body(c: Any, _: Any) -> Any:
            return [c[0]] + [a + b for a, b in itertools.pairwise(c)], None

        return lax.scan(body, lst, None, length=len(lst))[0]

    jaxpr = trellax.make_jaxpr(f)([1.0, 2.0, 3.0, 4.0]).jaxpr
    args = [1.0, 2.0, 3.0, 4.0]
    pruned, used = _agrees(jaxpr, [True, True, False, False], args)
    assert used == [True, True, False, False] and _count(pruned) == 2
    pruned, used = _agrees(jaxpr, [False, False, False, True], args)
    assert used == [True, True, True, True] and _count(pruned) == 4

    def cumprod(xs: Any) -> Any:
        return lax.scan(lambda c, x: (c * x, c), jnp.float32(1.0), xs)

    jaxpr = trellax.make_jaxpr(cumprod)(jnp.arange(1.0, 5.0)).jaxpr
    pruned, used = dce_jaxpr(jaxpr, [False, False])
    assert used == [False] and _count(pruned) == 0


def test_effects_are_kept_and_bad_input_raises() -> None:
    def f(x: Any) -> Any:
        trellax.debug.callback(lambda v: None, x)
        return x * 2, x + 1

    jaxpr = trellax.make_jaxpr(f)(1.0).jaxpr
    pruned, used = dce_jaxpr(jaxpr, [False, False])
    assert [e.primitive.name for e in pruned.eqns] == [jaxpr.eqns[0].primitive.name]
    assert used == [True]
    assert dce_jaxpr(jaxpr, [False, False], instantiate=True)[1] == [True]
    with pytest.raises(ValueError, match="2 outputs"):
        dce_jaxpr(jaxpr, [True])
    bad = Jaxpr([], [], pruned.eqns[0].invars, [])
    with pytest.raises(TypeError, match="not defined"):
        check_jaxpr(bad)
