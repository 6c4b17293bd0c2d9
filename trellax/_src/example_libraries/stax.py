"""``stax``: neural networks as pairs of functions ``(init_fun, apply_fun)``.

``init_fun(rng, input_shape) -> (output_shape, params)`` makes a layer's parameters for inputs of
``input_shape``; ``apply_fun(params, inputs, **kwargs) -> outputs`` runs it. Combinators
(``serial``, ``parallel``, ``FanOut``, ...) build networks from layers. This is the documented API
of ``jax.example_libraries.stax``: the same parameter shapes, initializers, key splitting and
formulas, so a network initialised from the same key has the same parameters as under JAX.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

from trellax import lax, random
from trellax import numpy as jnp
from trellax.nn import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    selu,
    sigmoid,
    softmax,
    softplus,
    standardize,
)
from trellax.nn.initializers import glorot_normal, normal, ones, zeros

Layer = tuple[Callable[..., Any], Callable[..., Any]]
Shape = tuple[int, ...]

logsoftmax = log_softmax
glorot = glorot_normal
randn = normal


def Dense(
    out_dim: int,
    W_init: Callable[..., Any] = glorot_normal(),  # noqa: B008 (stax's names, defaults)
    b_init: Callable[..., Any] = normal(),  # noqa: B008
) -> Layer:
    """A fully connected layer: ``inputs @ W + b`` with ``W`` of shape ``(in, out_dim)``."""

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        output_shape = (*input_shape[:-1], out_dim)
        k1, k2 = random.split(rng)
        W, b = W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,))
        return output_shape, (W, b)

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        W, b = params
        return jnp.dot(inputs, W) + b

    return init_fun, apply_fun


def _kernel_shape(
    rhs_spec: str, out_chan: int, in_chan: int, filter_shape: Sequence[int]
) -> list[int]:
    spatial = iter(filter_shape)
    return [out_chan if c == "O" else in_chan if c == "I" else next(spatial) for c in rhs_spec]


def GeneralConv(
    dimension_numbers: tuple[str, str, str],
    out_chan: int,
    filter_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
    W_init: Callable[..., Any] | None = None,
    b_init: Callable[..., Any] = normal(1e-6),  # noqa: B008
) -> Layer:
    """A convolution with ``lax.conv_general_dilated``; ``dimension_numbers`` are the layouts
    of the input, kernel and output, e.g. ``("NHWC", "HWIO", "NHWC")``."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    one = (1,) * len(filter_shape)
    strides = tuple(strides) if strides else one
    w_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        kernel_shape = _kernel_shape(
            rhs_spec, out_chan, input_shape[lhs_spec.index("C")], filter_shape
        )
        output_shape = lax.conv_general_shape_tuple(
            input_shape, kernel_shape, strides, padding, dimension_numbers
        )
        bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
        k1, k2 = random.split(rng)
        return tuple(output_shape), (w_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        W, b = params
        out = lax.conv_general_dilated(
            inputs, W, strides, padding, one, one, dimension_numbers=dimension_numbers
        )
        return out + b

    return init_fun, apply_fun


Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))


def GeneralConvTranspose(
    dimension_numbers: tuple[str, str, str],
    out_chan: int,
    filter_shape: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "VALID",
    W_init: Callable[..., Any] | None = None,
    b_init: Callable[..., Any] = normal(1e-6),  # noqa: B008
) -> Layer:
    """A transposed convolution with ``lax.conv_transpose``."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    one = (1,) * len(filter_shape)
    strides = tuple(strides) if strides else one
    w_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        kernel_shape = _kernel_shape(
            rhs_spec, out_chan, input_shape[lhs_spec.index("C")], filter_shape
        )
        output_shape = lax.conv_transpose_shape_tuple(
            input_shape, kernel_shape, strides, padding, dimension_numbers
        )
        bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
        k1, k2 = random.split(rng)
        return tuple(output_shape), (w_init(k1, kernel_shape), b_init(k2, bias_shape))

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        W, b = params
        out = lax.conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers)
        return out + b

    return init_fun, apply_fun


Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(
    axis: Any = (0, 1, 2),
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
    beta_init: Callable[..., Any] = zeros,
    gamma_init: Callable[..., Any] = ones,
) -> Layer:
    """Normalises over ``axis`` with the batch's own statistics (no running averages), then
    scales by ``gamma`` and shifts by ``beta`` (parameters over the other axes)."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axes)
        k1, k2 = random.split(rng)
        beta = beta_init(k1, shape) if center else ()
        gamma = gamma_init(k2, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params: Any, x: Any, **kwargs: Any) -> Any:
        beta, gamma = params
        expand = tuple(None if i in axes else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axes, epsilon=epsilon)
        if center and scale:
            return gamma[expand] * z + beta[expand]
        if center:
            return z + beta[expand]
        if scale:
            return gamma[expand] * z
        return z

    return init_fun, apply_fun


def elementwise(fun: Callable[..., Any], **fun_kwargs: Any) -> Layer:
    """A parameter-free layer applying ``fun(inputs, **fun_kwargs)``."""

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        return input_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return fun(inputs, **fun_kwargs)

    return init_fun, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _non_spatial_axes(spec: str | None, ndim: int) -> tuple[int, int]:
    return (spec.index("N"), spec.index("C")) if spec else (0, ndim - 1)


def _with_unit_axes(dims: Sequence[int], axes: Sequence[int]) -> tuple[int, ...]:
    out = list(dims)
    for i in sorted(axes):
        out.insert(i, 1)
    return tuple(out)


def _average_rescale(
    window: Sequence[int], strides: Sequence[int], padding: Any
) -> Callable[[Any, Any, str | None], Any]:
    def rescale(outputs: Any, inputs: Any, spec: str | None) -> Any:
        axes = _non_spatial_axes(spec, inputs.ndim)
        spatial = tuple(inputs.shape[i] for i in range(inputs.ndim) if i not in axes)
        counts = lax.reduce_window(
            jnp.ones(spatial, dtype=inputs.dtype), 0.0, lax.add, window, strides, padding
        )
        for i in sorted(axes):
            counts = jnp.expand_dims(counts, i)
        return outputs / counts

    return rescale


def _pooling_layer(
    reducer: Callable[..., Any],
    init_val: Any,
    rescaler: Callable[..., Callable[[Any, Any, str | None], Any]] | None = None,
) -> Callable[..., Layer]:
    def pool(
        window_shape: Sequence[int],
        strides: Sequence[int] | None = None,
        padding: Any = "VALID",
        spec: str | None = None,
    ) -> Layer:
        strides = tuple(strides) if strides else (1,) * len(window_shape)
        rescale = rescaler(window_shape, strides, padding) if rescaler else None

        def full_dims(ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
            axes = _non_spatial_axes(spec, ndim)
            return _with_unit_axes(window_shape, axes), _with_unit_axes(strides, axes)

        def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
            dims, full_strides = full_dims(len(input_shape))
            pads = padding
            if isinstance(padding, str):
                pads = lax.padtype_to_pads(input_shape, dims, full_strides, padding)
            out = lax.reduce_window_shape_tuple(input_shape, dims, full_strides, pads)
            return tuple(out), ()

        def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
            dims, full_strides = full_dims(inputs.ndim)
            out = lax.reduce_window(inputs, init_val, reducer, dims, full_strides, padding)
            return rescale(out, inputs, spec) if rescale else out

        return init_fun, apply_fun

    return pool


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)
AvgPool = _pooling_layer(lax.add, 0.0, _average_rescale)


def _flatten_init(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
    return (input_shape[0], functools.reduce(operator.mul, input_shape[1:], 1)), ()


def _flatten_apply(params: Any, inputs: Any, **kwargs: Any) -> Any:
    return jnp.reshape(inputs, (inputs.shape[0], -1))


Flatten: Layer = (_flatten_init, _flatten_apply)
Identity: Layer = (lambda rng, input_shape: (input_shape, ()), lambda params, x, **kw: x)


def FanOut(num: int) -> Layer:
    """Sends the input to ``num`` branches (a list of ``num`` copies)."""
    return (
        lambda rng, input_shape: ([input_shape] * num, ()),
        lambda params, inputs, **kwargs: [inputs] * num,
    )


FanInSum: Layer = (
    lambda rng, input_shape: (input_shape[0], ()),
    lambda params, inputs, **kwargs: sum(inputs),
)


def FanInConcat(axis: int = -1) -> Layer:
    """Joins the branches' outputs along ``axis``."""

    def init_fun(rng: Any, input_shape: Sequence[Shape]) -> tuple[Shape, Any]:
        first = tuple(input_shape[0])
        ax = axis % len(first)
        size = sum(shape[ax] for shape in input_shape)
        return (*first[:ax], size, *first[ax + 1 :]), ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return jnp.concatenate(inputs, axis)

    return init_fun, apply_fun


_DROPOUT_NEEDS_KEY = (
    "Dropout layer requires apply_fun to be called with a PRNG key argument. That is, instead "
    "of `apply_fun(params, inputs)`, call it like `apply_fun(params, inputs, rng)` where `rng` "
    "is a PRNG key (e.g. from `jax.random.key`)."
)


def Dropout(rate: float, mode: str = "train") -> Layer:
    """Dropout in ``"train"`` mode (identity otherwise). As in stax, ``rate`` is the
    probability of *keeping* an element; kept elements are divided by it."""

    def init_fun(rng: Any, input_shape: Shape) -> tuple[Shape, Any]:
        return input_shape, ()

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.get("rng")
        if rng is None:
            raise ValueError(_DROPOUT_NEEDS_KEY)
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)

    return init_fun, apply_fun


def serial(*layers: Layer) -> Layer:
    """Layers one after the other; the key given to ``apply_fun`` is split among them."""
    count = len(layers)
    init_funs, apply_funs = zip(*layers, strict=True) if layers else ((), ())

    def init_fun(rng: Any, input_shape: Any) -> tuple[Any, Any]:
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, count) if rng is not None else (None,) * count
        for fun, param, layer_rng in zip(apply_funs, params, rngs, strict=True):
            inputs = fun(param, inputs, rng=layer_rng, **kwargs)
        return inputs

    return init_fun, apply_fun


def parallel(*layers: Layer) -> Layer:
    """Layers side by side: the i-th gets the i-th of a sequence of inputs (with ``FanOut``
    and ``FanInSum``/``FanInConcat`` this makes residual and branching blocks)."""
    count = len(layers)
    init_funs, apply_funs = zip(*layers, strict=True) if layers else ((), ())

    def init_fun(rng: Any, input_shape: Sequence[Any]) -> tuple[Any, Any]:
        rngs = random.split(rng, count)
        pairs = [init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)]
        shapes = tuple(p[0] for p in pairs)
        params = tuple(p[1] for p in pairs)
        return shapes, params

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        rng = kwargs.pop("rng", None)
        rngs = random.split(rng, count) if rng is not None else (None,) * count
        return [
            f(p, x, rng=r, **kwargs)
            for f, p, x, r in zip(apply_funs, params, inputs, rngs, strict=True)
        ]

    return init_fun, apply_fun


def shape_dependent(make_layer: Callable[[Any], Layer]) -> Layer:
    """A layer built from the input's shape by ``make_layer(shape)``."""

    def init_fun(rng: Any, input_shape: Any) -> tuple[Any, Any]:
        shape, params = make_layer(input_shape)[0](rng, input_shape)
        return shape, params

    def apply_fun(params: Any, inputs: Any, **kwargs: Any) -> Any:
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)

    return init_fun, apply_fun


__all__ = [
    "AvgPool",
    "BatchNorm",
    "Conv",
    "Conv1DTranspose",
    "ConvTranspose",
    "Dense",
    "Dropout",
    "Elu",
    "Exp",
    "FanInConcat",
    "FanInSum",
    "FanOut",
    "Flatten",
    "Gelu",
    "GeneralConv",
    "GeneralConvTranspose",
    "Identity",
    "LeakyRelu",
    "LogSoftmax",
    "MaxPool",
    "Relu",
    "Selu",
    "Sigmoid",
    "Softmax",
    "Softplus",
    "SumPool",
    "Tanh",
    "elementwise",
    "elu",
    "gelu",
    "glorot",
    "glorot_normal",
    "leaky_relu",
    "log_softmax",
    "logsoftmax",
    "normal",
    "ones",
    "parallel",
    "randn",
    "relu",
    "selu",
    "serial",
    "shape_dependent",
    "sigmoid",
    "softmax",
    "softplus",
    "standardize",
    "zeros",
]
