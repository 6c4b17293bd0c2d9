"""Weight reparametrizations of a wrapped layer: ``WeightNorm`` (each kernel divided by its L2
norm over the non-feature axes, times a learned ``scale``) and ``SpectralNorm`` (each matrix
divided by its largest singular value, estimated by power iteration whose vectors are kept in
``batch_stats``). Both run the layer under ``nn.map_variables``, so its parameters are stored as
usual, under the wrapper, at the layer's name."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

import trellax.numpy as jnp
from trellax import lax, tree_util
from trellax._src.nn import dtypes, initializers, transforms
from trellax._src.nn._random import random
from trellax._src.nn.module import Module, compact
from trellax._src.nn.normalization import _canonicalize_axes

Dtype = Any


def _l2_normalize(x: Any, axis: Any = None, eps: float = 1e-12) -> Any:
    return x * lax.rsqrt((x * x).sum(axis=axis, keepdims=True) + eps)


def _path_text(path: Any) -> str:
    return "/".join(str(getattr(k, "key", getattr(k, "idx", getattr(k, "name", k)))) for k in path)


class SpectralNorm(Module):
    """Runs ``layer_instance`` with every parameter of two or more axes (reshaped to a matrix
    over its last axis) divided by its spectral norm. ``update_stats=True`` stores the power
    iteration's vector ``u`` and ``sigma`` in ``collection_name`` (mutable)."""

    layer_instance: Module
    n_steps: int = 1
    epsilon: float = 1e-12
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    error_on_non_matrix: bool = False
    collection_name: str = "batch_stats"

    @compact
    def __call__(self, *args: Any, update_stats: bool, **kwargs: Any) -> Any:
        def forward(layer: Any) -> Any:
            return layer(*args, **kwargs)

        mapped: Any = transforms.map_variables(
            forward,
            trans_in_fn=lambda vs: tree_util.tree_map_with_path(
                lambda p, v: self._spectral_normalize(p, v, update_stats), vs
            ),
            init=self.is_initializing(),
            mutable=True,
        )
        return mapped(self.layer_instance)

    def _spectral_normalize(self, path: Any, vs: Any, update_stats: bool) -> Any:
        value = jnp.asarray(vs)
        value_shape = value.shape
        if value.ndim <= 1 or self.n_steps < 1:
            return value
        if value.ndim > 2:
            if self.error_on_non_matrix:
                raise ValueError(f"Input is {value.ndim}D but error_on_non_matrix is True")
            value = jnp.reshape(value, (-1, value.shape[-1]))
        base = f"{self.layer_instance.name}/{_path_text(path[1:])}"
        u_name, sigma_name = base + "/u", base + "/sigma"
        key = None if self.has_variable(self.collection_name, u_name) else self.make_rng("params")
        u_var = self.variable(
            self.collection_name,
            u_name,
            random().normal,
            key,
            (1, value.shape[-1]),
            self.param_dtype,
        )
        u0 = u_var.value
        sigma_var = self.variable(self.collection_name, sigma_name, jnp.ones, (), self.param_dtype)
        v0 = u0
        for _ in range(self.n_steps):
            v0 = _l2_normalize(jnp.matmul(u0, value.transpose([1, 0])), eps=self.epsilon)
            u0 = _l2_normalize(jnp.matmul(v0, value), eps=self.epsilon)
        u0 = lax.stop_gradient(u0)
        v0 = lax.stop_gradient(v0)
        sigma = jnp.matmul(jnp.matmul(v0, value), jnp.transpose(u0))[0, 0]
        value = value / jnp.where(sigma != 0, sigma, 1)
        value_bar = value.reshape(value_shape)
        if update_stats:
            u_var.value = u0
            sigma_var.value = sigma
        dtype = dtypes.canonicalize_dtype(vs, u0, v0, sigma, dtype=self.dtype)
        return jnp.asarray(value_bar, dtype)


class WeightNorm(Module):
    """Runs ``layer_instance`` with each parameter whose path contains a name of
    ``variable_filter`` (``{"kernel"}``) L2-normalized over its non-``feature_axes`` axes
    (all axes when ``None``) and, with ``use_scale``, multiplied by a learned ``scale``."""

    layer_instance: Module
    epsilon: float = 1e-12
    dtype: Dtype | None = None
    param_dtype: Dtype = jnp.float32
    use_scale: bool = True
    scale_init: Any = initializers.ones
    feature_axes: Any = -1
    variable_filter: Iterable[str] | None = dataclasses.field(
        default_factory=lambda: frozenset({"kernel"})
    )

    @compact
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        def forward(layer: Any) -> Any:
            return layer(*args, **kwargs)

        mapped: Any = transforms.map_variables(
            forward,
            trans_in_fn=lambda vs: tree_util.tree_map_with_path(self._l2_normalize, vs),
            init=self.is_initializing(),
        )
        return mapped(self.layer_instance)

    def _l2_normalize(self, path: Any, vs: Any) -> Any:
        value = jnp.asarray(vs)
        str_path = f"{self.layer_instance.name}/{_path_text(path[1:])}"
        if self.variable_filter and not any(n in str_path for n in self.variable_filter):
            return value
        if self.feature_axes is None:
            feature_axes: tuple[int, ...] = ()
            reduction = tuple(range(value.ndim))
        else:
            feature_axes = _canonicalize_axes(value.ndim, self.feature_axes)
            reduction = tuple(i for i in range(value.ndim) if i not in feature_axes)
        feature_shape = [1] * value.ndim
        reduced = []
        for ax in feature_axes:
            feature_shape[ax] = value.shape[ax]
            reduced.append(value.shape[ax])
        value_bar = _l2_normalize(value, axis=reduction, eps=self.epsilon)
        args = [vs]
        if self.use_scale:
            scale = self.param(
                str_path + "/scale", self.scale_init, tuple(reduced), self.param_dtype
            ).reshape(feature_shape)
            value_bar = value_bar * scale
            args.append(scale)
        dtype = dtypes.canonicalize_dtype(*args, dtype=self.dtype)
        return jnp.asarray(value_bar, dtype)
