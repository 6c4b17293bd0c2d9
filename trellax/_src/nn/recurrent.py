"""Recurrent cells (``LSTMCell``, ``GRUCell``, ``SimpleCell``) and ``RNN``, which runs a cell
over a sequence with ``lax.scan`` (one set of parameters for every step).

Cells are built from ``Dense`` layers, so they follow the FLIP dtype rule; the carry starts in
``param_dtype`` (``initialize_carry``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax import lax, tree_util
from trellax._src.nn import initializers
from trellax._src.nn._random import random
from trellax._src.nn.activations import sigmoid, tanh
from trellax._src.nn.linear import Dense, default_kernel_init
from trellax._src.nn.module import Module, compact, nowrap

Dtype = Any


class RNNCellBase(Module):
    """A cell maps ``(carry, inputs)`` to ``(new_carry, output)``."""

    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        raise NotImplementedError

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        raise NotImplementedError

    @property
    def num_feature_axes(self) -> int:
        return 1


class LSTMCell(RNNCellBase):
    """The long short-term memory cell; the carry is ``(c, h)``."""

    features: int
    gate_fn: Callable[..., Any] = sigmoid
    activation_fn: Callable[..., Any] = tanh
    kernel_init: Any = default_kernel_init
    recurrent_kernel_init: Any = initializers.orthogonal()
    bias_init: Any = initializers.zeros
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    carry_init: Any = initializers.zeros

    @compact
    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        c, h = carry
        hidden = h.shape[-1]
        dense_h = functools.partial(
            Dense,
            features=hidden,
            use_bias=True,
            kernel_init=self.recurrent_kernel_init,
            bias_init=self.bias_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
        )
        dense_i = functools.partial(
            Dense,
            features=hidden,
            use_bias=False,
            kernel_init=self.kernel_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
        )
        i = self.gate_fn(dense_i(name="ii")(inputs) + dense_h(name="hi")(h))
        f = self.gate_fn(dense_i(name="if")(inputs) + dense_h(name="hf")(h))
        g = self.activation_fn(dense_i(name="ig")(inputs) + dense_h(name="hg")(h))
        o = self.gate_fn(dense_i(name="io")(inputs) + dense_h(name="ho")(h))
        new_c = f * c + i * g
        new_h = o * self.activation_fn(new_c)
        return (new_c, new_h), new_h

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        shape = (*input_shape[:-1], self.features)
        k1, k2 = random().split(rng)
        return self.carry_init(k1, shape, self.param_dtype), self.carry_init(
            k2, shape, self.param_dtype
        )


class GRUCell(RNNCellBase):
    """The gated recurrent unit; the carry is ``h``."""

    features: int
    gate_fn: Callable[..., Any] = sigmoid
    activation_fn: Callable[..., Any] = tanh
    kernel_init: Any = default_kernel_init
    recurrent_kernel_init: Any = initializers.orthogonal()
    bias_init: Any = initializers.zeros
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    carry_init: Any = initializers.zeros

    @compact
    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        h = carry
        hidden = h.shape[-1]
        dense_h = functools.partial(
            Dense,
            features=hidden,
            use_bias=False,
            kernel_init=self.recurrent_kernel_init,
            bias_init=self.bias_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
        )
        dense_i = functools.partial(
            Dense,
            features=hidden,
            use_bias=True,
            kernel_init=self.kernel_init,
            bias_init=self.bias_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
        )
        r = self.gate_fn(dense_i(name="ir")(inputs) + dense_h(name="hr")(h))
        z = self.gate_fn(dense_i(name="iz")(inputs) + dense_h(name="hz")(h))
        n = self.activation_fn(
            dense_i(name="in")(inputs) + r * dense_h(name="hn", use_bias=True)(h)
        )
        new_h = (1.0 - z) * n + z * h
        return new_h, new_h

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        return self.carry_init(rng, (*input_shape[:-1], self.features), self.param_dtype)


class SimpleCell(RNNCellBase):
    """``h' = activation(W_i x + W_h h + b)`` (plus ``h`` when ``residual``)."""

    features: int
    activation_fn: Callable[..., Any] = tanh
    kernel_init: Any = default_kernel_init
    recurrent_kernel_init: Any = initializers.orthogonal()
    bias_init: Any = initializers.zeros
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    carry_init: Any = initializers.zeros
    residual: bool = False

    @compact
    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        hidden = carry.shape[-1]
        new = Dense(
            hidden,
            use_bias=True,
            kernel_init=self.kernel_init,
            bias_init=self.bias_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            name="i",
        )(inputs) + Dense(
            hidden,
            use_bias=False,
            kernel_init=self.recurrent_kernel_init,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            name="h",
        )(carry)
        if self.residual:
            new = new + carry
        new = self.activation_fn(new)
        return new, new

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        return self.carry_init(rng, (*input_shape[:-1], self.features), self.param_dtype)


def _flip_sequences(x: Any, seq_lengths: Any, time_axis: int) -> Any:
    """Reverses each batch row's first ``seq_lengths[b]`` steps (the padding stays at the end)."""
    n = x.shape[time_axis]
    t = jnp.arange(n)
    if seq_lengths is None:
        return jnp.flip(x, time_axis)
    lengths = jnp.asarray(seq_lengths)[:, None]  # (batch, time)
    idx = jnp.where(t[None, :] < lengths, lengths - 1 - t[None, :], t[None, :])
    idx = jnp.reshape(idx, idx.shape + (1,) * (x.ndim - 2))
    return jnp.take_along_axis(x, jnp.broadcast_to(idx, x.shape), axis=time_axis)


class RNN(Module):
    """Runs ``cell`` over the time axis of ``inputs`` (``[batch, time, features]``, or
    ``[time, batch, features]`` with ``time_major``); returns the outputs (and the final carry
    with ``return_carry``). ``seq_lengths`` stops each row's carry after its length."""

    cell: RNNCellBase
    time_major: bool = False
    return_carry: bool = False
    reverse: bool = False
    keep_order: bool = False
    unroll: int = 1

    def __call__(
        self,
        inputs: Any,
        *,
        initial_carry: Any = None,
        init_key: Any = None,
        seq_lengths: Any = None,
        return_carry: bool | None = None,
        time_major: bool | None = None,
        reverse: bool | None = None,
        keep_order: bool | None = None,
    ) -> Any:
        return_carry = self.return_carry if return_carry is None else return_carry
        time_major = self.time_major if time_major is None else time_major
        reverse = self.reverse if reverse is None else reverse
        keep_order = self.keep_order if keep_order is None else keep_order
        inputs = jnp.asarray(inputs)
        nfa = self.cell.num_feature_axes
        time_axis = 0 if time_major else inputs.ndim - (nfa + 1)
        if time_axis < 0:
            raise ValueError(f"inputs of shape {inputs.shape} have no time axis")
        if seq_lengths is not None and time_major:
            raise ValueError("seq_lengths needs batch-major inputs (time_major=False)")
        if reverse:
            inputs = _flip_sequences(inputs, seq_lengths, time_axis)
        step_shape = inputs.shape[:time_axis] + inputs.shape[time_axis + 1 :]
        if initial_carry is None:
            key = init_key if init_key is not None else random().PRNGKey(0)
            initial_carry = self.cell.initialize_carry(key, step_shape)
        xs = jnp.moveaxis(inputs, time_axis, 0)
        if self.is_initializing():
            self.cell(initial_carry, xs[0])  # creates the parameters outside the loop

        def step(carry: Any, x: Any) -> tuple[Any, Any]:
            new_carry, y = self.cell(carry, x)
            return new_carry, (new_carry if seq_lengths is not None else None, y)

        carry, (carries, ys) = lax.scan(step, initial_carry, xs)
        if seq_lengths is not None:
            # each row's carry after its last valid step (later steps still run, as in Flax)
            last = jnp.asarray(seq_lengths) - 1
            carry = tree_util.tree_map(lambda cs: cs[last, jnp.arange(cs.shape[1])], carries)
        outputs = jnp.moveaxis(ys, 0, time_axis) if not time_major else ys
        if reverse and keep_order:
            outputs = _flip_sequences(outputs, seq_lengths, time_axis)
        return (carry, outputs) if return_carry else outputs
