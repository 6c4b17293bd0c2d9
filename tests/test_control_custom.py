"""Implicit derivatives and custom rules inside control flow, against JAX's values
(``tests/golden/control_custom.json``, written by ``tools/gen_golden_control_custom.py``), and
the errors of ``custom_root``/``custom_linear_solve``."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import numpy as np
import pytest
from control_custom_cases import CASES, measure

import trellax
import trellax.numpy as tnp
from trellax import lax

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "control_custom.json").read_text())[
    "cases"
]


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_jax(name: str) -> None:
    got = measure(trellax, name)
    want = GOLDEN[name]
    assert set(got) == set(want)
    for what, leaves in want.items():
        assert len(got[what]) == len(leaves), what
        for g, w in zip(got[what], leaves):
            np.testing.assert_allclose(g, w, rtol=2e-3, atol=2e-4, err_msg=f"{name} {what}")


def test_linear_solve_tree_and_shape_errors() -> None:
    solve = lambda f, x: x  # noqa: E731
    with pytest.raises(TypeError, match=re.escape("matvec() output pytree structure must match b")):
        lax.custom_linear_solve(lambda x: [x], 1.0, solve, solve)
    with pytest.raises(TypeError, match=re.escape("solve() output pytree")):
        lax.custom_linear_solve(lambda x: x, 1.0, lambda f, x: [x], solve)
    with pytest.raises(TypeError, match=re.escape("transpose_solve() output pytree")):
        lax.custom_linear_solve(lambda x: x, 1.0, solve, lambda f, x: [x])
    with pytest.raises(ValueError, match=re.escape("solve() output shapes must match b")):
        lax.custom_linear_solve(lambda x: x, 1.0, lambda f, x: tnp.ones(2), solve)
    with pytest.raises(ValueError, match=re.escape("matvec() output shapes")):
        lax.custom_linear_solve(lambda x: tnp.ones(2), 1.0, solve, solve)
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        lax.custom_linear_solve(lambda x: x, 1.0, solve, solve, has_aux=True)
    with pytest.raises(ValueError, match="too many values to unpack"):
        lax.custom_linear_solve(lambda x: x, 1.0, lambda f, x: (x, x, x), solve, has_aux=True)


def test_linear_solve_reverse_needs_transpose_solve() -> None:
    def loss(b: Any) -> Any:
        return tnp.sum(lax.custom_linear_solve(lambda x: 2.0 * x, b, lambda f, y: y / 2.0))

    assert float(trellax.jvp(loss, (tnp.ones(2),), (tnp.ones(2),))[1]) == 1.0
    with pytest.raises(TypeError, match="transpose_solve required"):
        trellax.grad(loss)(tnp.ones(2))


def test_linear_solve_vmap_stays_one_primitive() -> None:
    def one(a: Any, b: Any) -> Any:
        solve = lambda f, y: tnp.linalg.solve(a, y)  # noqa: E731
        return lax.custom_linear_solve(lambda x: a @ x, b, solve, symmetric=True)

    a = tnp.eye(2)[None] * tnp.array([2.0, 4.0])[:, None, None]
    jaxpr = trellax.make_jaxpr(trellax.vmap(one))(a, tnp.ones((2, 2)))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["custom_linear_solve"]
    np.testing.assert_allclose(trellax.vmap(one)(a, tnp.ones((2, 2))), [[0.5, 0.5], [0.25, 0.25]])


def test_root_errors() -> None:
    with pytest.raises(TypeError, match=re.escape("f() output pytree")):
        lax.custom_root(lambda x: (x, x), 0.0, lambda f, x: x, lambda f, x: x)
    with pytest.raises(TypeError, match=re.escape("solve() output pytree")):
        lax.custom_root(lambda x: x, 0.0, lambda f, x: (x, x), lambda f, x: x)
    with pytest.raises(TypeError, match=re.escape("tangent_solve() output pytree")):
        lax.custom_root(lambda x: 1.0 - x, 0.0, lambda f, x: x, lambda f, x: (x, x))


def test_root_has_aux() -> None:
    def f(a: Any) -> Any:
        solve = lambda fun, x: (a / 2.0, {"iters": 7})  # noqa: E731
        return lax.custom_root(lambda x: 2.0 * x - a, 0.0, solve, lambda g, y: y / g(1.0), True)

    (x, aux), (dx, daux) = trellax.jvp(f, (3.0,), (1.0,))
    assert (float(x), float(dx), int(aux["iters"])) == (1.5, 0.5, 7)
    assert daux["iters"].dtype == trellax.dtypes.float0


def _rule_scan() -> Any:
    @trellax.custom_jvp
    def f(x: Any) -> Any:
        return 3.0 * x

    f.defjvp(lambda p, t: (f(p[0]), 2.0 * t[0]))  # the rule, not the body, must be used

    def foo(x: Any) -> Any:
        return lax.scan(lambda c, _: (f(c), None), x, None, length=1)[0]

    return foo


@pytest.mark.parametrize("how", ["vmap", "vmap_jit", "jit_vmap", "jit_outside"])
def test_custom_jvp_rule_survives_vmap_of_a_traced_body(how: str) -> None:
    foo = _rule_scan()
    g = {
        "vmap": lambda x: trellax.vmap(foo)(x).sum(),
        "vmap_jit": lambda x: trellax.vmap(trellax.jit(foo))(x).sum(),
        "jit_vmap": lambda x: trellax.jit(trellax.vmap(foo))(x).sum(),
        "jit_outside": trellax.jit(lambda x: trellax.vmap(foo)(x).sum()),
    }[how]
    np.testing.assert_allclose(trellax.grad(g)(tnp.ones(3)), [2.0, 2.0, 2.0])
    np.testing.assert_allclose(trellax.vmap(foo)(tnp.ones(3)), [3.0, 3.0, 3.0])
