"""Tokens (``lax.create_token``/``after_all``) as arguments and results of transformations."""

from __future__ import annotations

from typing import Any

import pytest

import trellax
import trellax.numpy as jnp
from trellax import lax
from trellax._src.lax.standins import Token


def test_tokens_pass_through_jit_as_new_tokens() -> None:
    token = lax.create_token()

    @trellax.jit
    def noop(arr: Any, tok: Any) -> Any:
        return arr, lax.after_all(tok)

    arr, out = noop(jnp.ones(3), token)
    assert isinstance(out, Token) and out is not token
    assert arr.shape == (3,)
    assert isinstance(trellax.jit(lax.create_token)(1.0), Token)
    _, y = trellax.jit(lambda x: (x + 2, token))(7)  # a closed-over token comes out
    assert isinstance(y, Token)


def test_tokens_carry_no_leaves_and_after_all_checks_its_operands() -> None:
    assert trellax.tree_util.tree_leaves((1.0, lax.create_token())) == [1.0]
    assert isinstance(
        trellax.vmap(lambda x, t: (x, t), in_axes=(0, None))(jnp.ones(2), lax.create_token())[1],
        Token,
    )
    with pytest.raises(TypeError, match="Arguments to after_all must be tokens"):
        lax.after_all(lax.create_token(), 1.0)
