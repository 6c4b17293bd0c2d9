"""Recurrent cells (``LSTMCell``, ``OptimizedLSTMCell``, ``GRUCell``, ``MGUCell``,
``SimpleCell``, ``ConvLSTMCell``), ``RNN``, which runs a cell over a sequence with ``nn.scan``
(its parameters broadcast to every step, unless ``variable_axes``/``split_rngs`` say otherwise),
and ``Bidirectional``.

Cells are built from ``Dense`` layers, so they follow the FLIP dtype rule; the carry starts in
``param_dtype`` (``initialize_carry``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import tree_util
from trellax._src.nn import initializers, transforms
from trellax._src.nn._random import random
from trellax._src.nn.activations import sigmoid, tanh
from trellax._src.nn.conv import Conv
from trellax._src.nn.dtypes import promote_dtype
from trellax._src.nn.lift import FrozenMapping
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


class DenseParams(Module):
    """A Dense layer's parameters without the product: returns ``(kernel, bias)``."""

    features: int
    use_bias: bool = True
    param_dtype: Dtype = jnp.float32
    precision: Any = None
    kernel_init: Any = default_kernel_init
    bias_init: Any = initializers.zeros

    @compact
    def __call__(self, inputs: Any) -> tuple[Any, Any]:
        k = self.param(
            "kernel", self.kernel_init, (inputs.shape[-1], self.features), self.param_dtype
        )
        b = (
            self.param("bias", self.bias_init, (self.features,), self.param_dtype)
            if self.use_bias
            else None
        )
        return k, b


class OptimizedLSTMCell(RNNCellBase):
    """``LSTMCell`` computed with one product for the four input gates and one for the four
    recurrent gates (the parameters, their names and keys are ``LSTMCell``'s)."""

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

        def concat_dense(x: Any, params: dict[str, Any], use_bias: bool) -> dict[str, Any]:
            kernels = [k for k, _ in params.values()]
            kernel = jnp.concatenate(kernels, axis=-1)
            bias = jnp.concatenate([b for _, b in params.values()], -1) if use_bias else None
            x, kernel, bias = promote_dtype(x, kernel, bias, dtype=self.dtype)
            y = jnp.dot(x, kernel)
            if bias is not None:
                y = y + jnp.reshape(bias, (1,) * (y.ndim - 1) + (-1,))
            splits = [int(i) for i in np.cumsum([k.shape[-1] for k in kernels[:-1]])]
            return dict(zip(params, jnp.split(y, splits, axis=-1)))

        params_i: dict[str, Any] = {}
        params_h: dict[str, Any] = {}
        for gate in "ifgo":
            params_i[gate] = DenseParams(
                hidden,
                use_bias=False,
                param_dtype=self.param_dtype,
                kernel_init=self.kernel_init,
                bias_init=self.bias_init,
                name=f"i{gate}",
            )(inputs)
            params_h[gate] = DenseParams(
                hidden,
                use_bias=True,
                param_dtype=self.param_dtype,
                kernel_init=self.recurrent_kernel_init,
                bias_init=self.bias_init,
                name=f"h{gate}",
            )(h)
        dh = concat_dense(h, params_h, True)
        di = concat_dense(inputs, params_i, False)
        i = self.gate_fn(dh["i"] + di["i"])
        f = self.gate_fn(dh["f"] + di["f"])
        g = self.activation_fn(dh["g"] + di["g"])
        o = self.gate_fn(dh["o"] + di["o"])
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


class MGUCell(RNNCellBase):
    """The minimal gated unit: one forget gate ``f``, ``h' = (1 - f) n + f h``."""

    features: int
    gate_fn: Callable[..., Any] = sigmoid
    activation_fn: Callable[..., Any] = tanh
    kernel_init: Any = default_kernel_init
    recurrent_kernel_init: Any = initializers.orthogonal()
    forget_bias_init: Any = initializers.ones
    activation_bias_init: Any = initializers.zeros
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    carry_init: Any = initializers.zeros
    reset_gate: bool = True

    @compact
    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        h = carry
        hidden = h.shape[-1]
        dense_h = functools.partial(
            Dense,
            features=hidden,
            use_bias=False,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            kernel_init=self.recurrent_kernel_init,
            bias_init=self.activation_bias_init,
        )
        dense_i = functools.partial(
            Dense,
            features=hidden,
            use_bias=True,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
            kernel_init=self.kernel_init,
        )
        f = self.gate_fn(
            dense_i(name="if", bias_init=self.forget_bias_init)(inputs) + dense_h(name="hf")(h)
        )
        x = dense_h(name="hn", use_bias=self.reset_gate)(h)
        if self.reset_gate:
            x = x * f
        n = self.activation_fn(dense_i(name="in", bias_init=self.activation_bias_init)(inputs) + x)
        new_h = (1.0 - f) * n + f * h
        return new_h, new_h

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        return self.carry_init(rng, (*input_shape[:-1], self.features), self.param_dtype)


class ConvLSTMCell(RNNCellBase):
    """An LSTM cell whose gates are convolutions (``ih`` of the input, ``hh`` of ``h``); the
    carry ``(c, h)`` has the input's spatial shape."""

    features: int
    kernel_size: Sequence[int]
    strides: Sequence[int] | None = None
    padding: Any = "SAME"
    use_bias: bool = True
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    carry_init: Any = initializers.zeros

    @compact
    def __call__(self, carry: Any, inputs: Any) -> tuple[Any, Any]:
        c, h = carry
        conv = functools.partial(
            Conv,
            features=4 * self.features,
            kernel_size=self.kernel_size,
            strides=self.strides,
            padding=self.padding,
            use_bias=self.use_bias,
            dtype=self.dtype,
            param_dtype=self.param_dtype,
        )
        gates = conv(name="ih")(inputs) + conv(name="hh")(h)
        i, g, f, o = jnp.split(gates, 4, axis=-1)
        f = sigmoid(f + 1)
        new_c = f * c + sigmoid(i) * jnp.tanh(g)
        new_h = sigmoid(o) * jnp.tanh(new_c)
        return (new_c, new_h), new_h

    @nowrap
    def initialize_carry(self, rng: Any, input_shape: tuple[int, ...]) -> Any:
        nfa = self.num_feature_axes
        shape = (*input_shape[:-nfa], *input_shape[-nfa:-1], self.features)
        k1, k2 = random().split(rng)
        return self.carry_init(k1, shape, self.param_dtype), self.carry_init(
            k2, shape, self.param_dtype
        )

    @property
    def num_feature_axes(self) -> int:
        return len(self.kernel_size) + 1


def flip_sequences(inputs: Any, seq_lengths: Any, num_batch_dims: int, time_major: bool) -> Any:
    """Reverses the time axis; with ``seq_lengths``, each row's first ``length`` steps are
    reversed and the padding, reversed too, follows them (Flax's roll: step ``t`` takes
    ``(length - 1 - t) mod steps``)."""
    time_axis = 0 if time_major else num_batch_dims
    steps = inputs.shape[time_axis]
    if seq_lengths is None:
        return jnp.flip(inputs, axis=time_axis)
    lengths = jnp.expand_dims(jnp.asarray(seq_lengths), axis=time_axis)
    idxs = jnp.arange(steps - 1, -1, -1)
    shape = [steps] + [1] * num_batch_dims if time_major else [1] * num_batch_dims + [steps]
    idxs = (jnp.reshape(idxs, shape) + lengths) % steps
    idxs = jnp.reshape(idxs, tuple(idxs.shape) + (1,) * (inputs.ndim - idxs.ndim))
    return jnp.take_along_axis(inputs, idxs, axis=time_axis)


def _select_last_carry(sequence: Any, seq_lengths: Any) -> Any:
    last = jnp.asarray(seq_lengths) - 1
    return tree_util.tree_map(lambda x: x[last, jnp.arange(x.shape[1])], sequence)


class RNN(Module):
    """Runs ``cell`` over the time axis of ``inputs`` (``[*batch, time, *features]``, or
    time first with ``time_major``) with ``nn.scan``; returns the outputs (and the final carry
    with ``return_carry``: with ``seq_lengths``, each row's carry after its last valid step).
    ``reverse`` runs backwards through each row's valid steps (``keep_order`` flips the outputs
    back). The scan's ``variable_axes``, ``variable_broadcast``, ``variable_carry`` and
    ``split_rngs`` are Flax's (parameters broadcast by default)."""

    cell: RNNCellBase
    time_major: bool = False
    return_carry: bool = False
    reverse: bool = False
    keep_order: bool = False
    unroll: int = 1
    variable_axes: Mapping[Any, Any] = FrozenMapping()
    variable_broadcast: Any = "params"
    variable_carry: Any = False
    split_rngs: Mapping[Any, bool] = FrozenMapping({"params": False})

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
        nfa = self.cell.num_feature_axes
        time_axis = 0 if time_major else inputs.ndim - (nfa + 1)
        if time_axis < 0:
            time_axis += inputs.ndim
        batch_dims = inputs.shape[1:-nfa] if time_major else inputs.shape[:time_axis]
        if reverse:
            inputs = tree_util.tree_map(
                lambda x: flip_sequences(x, seq_lengths, len(batch_dims), time_major), inputs
            )
        if initial_carry is None:
            key = init_key if init_key is not None else random().PRNGKey(0)
            step_shape = inputs.shape[:time_axis] + inputs.shape[time_axis + 1 :]
            carry = self.cell.initialize_carry(key, step_shape)
        else:
            carry = initial_carry
        slice_carry = seq_lengths is not None and return_carry

        def scan_fn(cell: Any, carry: Any, x: Any) -> Any:
            carry, y = cell(carry, x)
            return (carry, (carry, y)) if slice_carry else (carry, y)

        scan = transforms.scan(
            scan_fn,
            in_axes=time_axis,
            out_axes=(0, time_axis) if slice_carry else time_axis,
            unroll=self.unroll,
            variable_axes=self.variable_axes,
            variable_broadcast=self.variable_broadcast,
            variable_carry=self.variable_carry,
            split_rngs=self.split_rngs,
        )
        out = scan(self.cell, carry, inputs)
        if slice_carry:
            _, (carries, outputs) = out
            carry = _select_last_carry(carries, seq_lengths)
        else:
            carry, outputs = out
        if reverse and keep_order:
            outputs = tree_util.tree_map(
                lambda x: flip_sequences(x, seq_lengths, len(batch_dims), time_major), outputs
            )
        return (carry, outputs) if return_carry else outputs


def _concatenate(a: Any, b: Any) -> Any:
    return jnp.concatenate([a, b], axis=-1)


class Bidirectional(Module):
    """Runs ``forward_rnn`` forwards and ``backward_rnn`` backwards (keeping the order) over
    the inputs and merges their outputs (concatenation by default); the carry is the pair."""

    forward_rnn: Any
    backward_rnn: Any
    merge_fn: Callable[[Any, Any], Any] = _concatenate
    time_major: bool = False
    return_carry: bool = False

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
        time_major = self.time_major if time_major is None else time_major
        return_carry = self.return_carry if return_carry is None else return_carry
        if init_key is not None:
            key_f, key_b = random().split(init_key)
        else:
            key_f = key_b = None
        if initial_carry is not None:
            carry_f, carry_b = initial_carry
        else:
            carry_f = carry_b = None
        if self.forward_rnn is self.backward_rnn:
            logging.warning(
                "forward_rnn and backward_rnn is the same object, so they will share parameters."
            )
        carry_fwd, out_fwd = self.forward_rnn(
            inputs,
            initial_carry=carry_f,
            init_key=key_f,
            seq_lengths=seq_lengths,
            return_carry=True,
            time_major=time_major,
            reverse=False,
        )
        carry_bwd, out_bwd = self.backward_rnn(
            inputs,
            initial_carry=carry_b,
            init_key=key_b,
            seq_lengths=seq_lengths,
            return_carry=True,
            time_major=time_major,
            reverse=True,
            keep_order=True,
        )
        outputs = tree_util.tree_map(self.merge_fn, out_fwd, out_bwd)
        return ((carry_fwd, carry_bwd), outputs) if return_carry else outputs
