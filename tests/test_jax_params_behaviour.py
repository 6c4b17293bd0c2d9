"""What the keyword parameters added for ``tests/test_jax_params.py`` do: optax's extra
``update`` arguments through ``chain``/``masked``/``partition``, lion's modes, Flax's
``promote_dtype`` and ``conv_general_dilated`` hooks and ``ConvTranspose``'s
``preferred_element_type``, and the older spellings (``lax.cond(operand=)``, ``jnp.round(a=)``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
import trellax.optim as optax
from trellax import lax


def _recorder(seen: list[dict[str, Any]]) -> optax.GradientTransformationExtraArgs:
    def update(updates: Any, state: Any, params: Any = None, **extra: Any) -> Any:
        seen.append(extra)
        return updates, state

    return optax.GradientTransformationExtraArgs(lambda p: (), update)


def test_chain_forwards_extra_args_to_transformations_that_take_them() -> None:
    seen: list[dict[str, Any]] = []
    tx = optax.chain(optax.sgd(1.0), _recorder(seen))  # sgd takes no extra args: not given any
    p = {"a": jnp.ones(2)}
    tx.update(p, tx.init(p), p, value=3.0)
    assert seen == [{"value": 3.0}]


@pytest.mark.parametrize("compatible", [False, True])
def test_masked_masks_extra_args_shaped_like_the_updates(compatible: bool) -> None:
    seen: list[dict[str, Any]] = []
    p = {"a": jnp.ones(2), "b": jnp.ones(3)}
    tx = optax.masked(
        _recorder(seen), {"a": True, "b": False}, mask_compatible_extra_args=compatible
    )
    tx.update(p, tx.init(p), p, grad=p, value=1.0)
    (extra,) = seen
    assert extra["value"] == 1.0
    assert isinstance(extra["grad"]["b"], optax.MaskedNode) == compatible


def test_partition_passes_extra_args() -> None:
    seen: list[dict[str, Any]] = []
    p = {"a": jnp.ones(2), "b": jnp.ones(3)}
    tx = optax.partition({"x": _recorder(seen), "y": optax.sgd(1.0)}, {"a": "x", "b": "y"})
    tx.update(p, tx.init(p), p, value=2.0)
    assert seen == [{"value": 2.0}]


def test_with_extra_args_support_drops_them() -> None:
    p = {"a": jnp.ones(2)}
    tx = optax.with_extra_args_support(optax.sgd(1.0))
    out, _ = tx.update(p, tx.init(p), p, value=1.0)
    np.testing.assert_array_equal(out["a"], [-1.0, -1.0])
    assert optax.with_extra_args_support(tx) is tx


def test_lion_modes() -> None:
    g = {"a": jnp.array([0.5, 30.0, -4.0])}
    mix = 0.1 * np.array([0.5, 30.0, -4.0], np.float32)
    expect = {
        "hard": np.sign(mix),
        "smooth": np.tanh(2.0 * mix),
        "refined": np.where(np.abs(mix) < 1, mix, np.sign(mix)),
    }
    for mode, want in expect.items():
        tx = optax.scale_by_lion(mode=mode, smooth_beta=2.0)
        out, _ = tx.update(g, tx.init(g))
        np.testing.assert_allclose(out["a"], want, rtol=1e-6)
    bad = optax.scale_by_lion(mode="bogus")
    with pytest.raises(ValueError, match="Unknown lion mode"):
        bad.update(g, bad.init(g))


def test_conv_hooks_and_promote_dtype() -> None:
    calls: list[str] = []

    def conv(*args: Any, **kwargs: Any) -> Any:
        calls.append("fn")
        return lax.conv_general_dilated(*args, **kwargs)

    class Cls:
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            calls.append("cls")
            return lax.conv_general_dilated(*args, **kwargs)

    def promote(*args: Any, dtype: Any = None, inexact: bool = True) -> list[Any]:
        calls.append("promote")
        return [None if a is None else jnp.asarray(a, jnp.float16) for a in args]

    x = jnp.ones((1, 5, 5, 2))
    key = trellax.random.key(0)
    for module, want in (
        (nn.Conv(3, (3, 3), conv_general_dilated=conv), ["fn"]),
        (nn.Conv(3, (3, 3), conv_general_dilated_cls=Cls), ["cls"]),
        (nn.Conv(3, (3, 3), conv_general_dilated=conv, conv_general_dilated_cls=Cls), ["cls"]),
    ):
        calls.clear()
        variables = module.init(key, x)
        module.apply(variables, x)
        assert calls == want * 2
    calls.clear()
    y = nn.Conv(3, (3, 3), promote_dtype=promote).apply(nn.Conv(3, (3, 3)).init(key, x), x)
    assert calls == ["promote"] and y.dtype == jnp.float16
    table = nn.Embed(4, 3, promote_dtype=promote)
    v = table.init(key, jnp.array([1]))
    calls.clear()
    assert table.apply(v, jnp.array([1])).dtype == jnp.float16 and calls == ["promote"]


def test_conv_transpose_preferred_element_type() -> None:
    x = jnp.ones((1, 4, 4, 2), jnp.bfloat16)
    module = nn.ConvTranspose(3, (3, 3), dtype=jnp.bfloat16, preferred_element_type=jnp.float32)
    y = module.apply(module.init(trellax.random.key(0), x), x)
    assert y.dtype == jnp.float32


def test_older_spellings() -> None:
    assert int(lax.cond(True, lambda v: v + 1, lambda v: v - 1, operand=1)) == 2
    assert int(lax.switch(1, [lambda v: v + 1, lambda v: v - 1], operand=1)) == 0
    with pytest.raises(TypeError, match="no positional operands"):
        lax.cond(True, lambda v: v, lambda v: v, 1, operand=1)
    assert float(jnp.round(a=1.25, decimals=1)) == float(np.float32(1.2))
    assert lax.reshape(operand=jnp.ones(4), new_sizes=(2, 2)).shape == (2, 2)
    with pytest.raises(NotImplementedError):
        trellax.vjp(jnp.sin, 1.0, reduce_axes=("i",))
    with pytest.raises(NotImplementedError):
        jnp.isposinf(1.0, out=jnp.zeros(()))
    with pytest.warns(UserWarning, match="host_id"):
        assert trellax.local_devices(host_id=0) == trellax.local_devices()
