"""``stats.gaussian_kde``: a Gaussian kernel density estimate, as a pytree.

The estimate is ``sum_i w_i N(x; dataset_i, covariance)``, with the data covariance (weighted,
unbiased) scaled by the bandwidth factor squared. The class is an immutable dataclass whose
leaves are ``neff``, ``dataset``, ``weights``, ``covariance`` and ``inv_cov``, so estimates pass
through ``jit``, ``grad`` and ``tree_map``. Kernel sums are computed by broadcasting over all
(point, sample) pairs, so memory grows with their product.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import trellax.numpy as jnp
import trellax.random as random
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.util import check_arraylike, promote_args_inexact_keep_shapes
from trellax._src.scipy import linalg, special
from trellax.tree_util import register_pytree_node_class

BwMethod = None | str | Array | float | Callable[[Any], Any]


def _is_complex(x: Any) -> bool:
    return dtypes.kind(dtypes.dtype_and_weak_type(x)[0]) == "c"


@register_pytree_node_class
@dataclass(frozen=True, init=False, slots=True)
class gaussian_kde:
    """A Gaussian kernel density estimate of ``dataset`` (shape ``(d, n)``, or ``(n,)`` for
    one dimension), optionally weighted. ``bw_method`` is ``'scott'`` (the default),
    ``'silverman'``, a scalar factor, or a function of the estimate returning the factor.

    >>> import trellax.numpy as jnp
    >>> from trellax.scipy.stats import gaussian_kde
    >>> kde = gaussian_kde(jnp.array([0.0, 1.0, 3.0]))
    >>> kde.d, kde.n
    (1, 3)
    """

    neff: Any
    dataset: Any
    weights: Any
    covariance: Any
    inv_cov: Any

    def __init__(self, dataset: Any, bw_method: BwMethod = None, weights: Any = None) -> None:
        check_arraylike("gaussian_kde", dataset)
        data = jnp.atleast_2d(dataset)
        if _is_complex(data):
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not data.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = data.shape
        if weights is None:
            (data,) = promote_args_inexact_keep_shapes("gaussian_kde", data)
            w = jnp.full(n, 1.0 / n, dtype=data.dtype)
        else:
            check_arraylike("gaussian_kde", weights)
            data, w = promote_args_inexact_keep_shapes("gaussian_kde", data, weights)
            w = jnp.atleast_1d(w)
            w = w / jnp.sum(w)
            if w.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(w) != n:
                raise ValueError("`weights` input should be of length n")
        self._set("dataset", data)
        self._set("weights", w)
        neff = self._set("neff", 1 / jnp.sum(w**2))
        factor = self._factor("scott" if bw_method is None else bw_method, neff, d)
        data_cov = jnp.atleast_2d(jnp.cov(data, rowvar=True, bias=False, aweights=w))
        self._set("covariance", data_cov * factor**2)
        self._set("inv_cov", jnp.linalg.inv(data_cov) / factor**2)

    def _factor(self, bw_method: BwMethod, neff: Array, d: int) -> Any:
        if isinstance(bw_method, str):
            if bw_method == "scott":
                return jnp.power(neff, -1.0 / (d + 4))
            if bw_method == "silverman":
                return jnp.power(neff * (d + 2) / 4.0, -1.0 / (d + 4))
        elif jnp.isscalar(bw_method):
            return bw_method
        elif callable(bw_method):
            return bw_method(self)
        raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")

    def _set(self, name: str, value: Any) -> Any:
        object.__setattr__(self, name, value)
        return value

    # -- pytree --------------------------------------------------------------------------------

    def tree_flatten(self) -> tuple[tuple[Any, ...], None]:
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: Any) -> gaussian_kde:
        del aux_data
        kde = cls.__new__(cls)
        for name, value in zip(
            ("neff", "dataset", "weights", "covariance", "inv_cov"), children, strict=True
        ):
            kde._set(name, value)
        return kde

    # -- shape ---------------------------------------------------------------------------------

    @property
    def d(self) -> int:
        """The number of dimensions."""
        return int(self.dataset.shape[0])

    @property
    def n(self) -> int:
        """The number of data points."""
        return int(self.dataset.shape[1])

    # -- densities -----------------------------------------------------------------------------

    def evaluate(self, points: Any) -> Array:
        """The density at ``points`` (shape ``(d, m)``; ``(m,)`` for one dimension, ``(d,)``
        for one point)."""
        check_arraylike("evaluate", points)
        return _kernel_sum(False, self.dataset, self.weights, self._points(points), self.inv_cov)

    def __call__(self, points: Any) -> Array:
        return self.evaluate(points)

    def pdf(self, x: Any) -> Array:
        """The density at ``x`` (``evaluate``)."""
        return self.evaluate(x)

    def logpdf(self, x: Any) -> Array:
        """The log density at ``x``, summed in logarithms (finite far from the data)."""
        check_arraylike("logpdf", x)
        return _kernel_sum(True, self.dataset, self.weights, self._points(x), self.inv_cov)

    def _points(self, points: Any) -> Array:
        if _is_complex(points):
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        p = jnp.atleast_2d(points)
        d, m = p.shape
        if d != self.d:
            if d == 1 and m == self.d:
                return jnp.reshape(p, (self.d, 1))
            raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        out: Array = p
        return out

    # -- integrals -----------------------------------------------------------------------------

    def integrate_gaussian(self, mean: Any, cov: Any) -> Array:
        """The integral of the estimate times the Gaussian ``N(mean, cov)``."""
        mean = jnp.atleast_1d(jnp.squeeze(mean))
        cov = jnp.atleast_2d(cov)
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol, norm = self._joint_factor(cov)
        return _convolve(chol, norm, self.dataset, self.weights, mean[:, None])[0]

    def integrate_box_1d(self, low: Any, high: Any) -> Array:
        """The mass between the scalars ``low`` and ``high`` (one-dimensional estimates)."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if jnp.ndim(low) != 0 or jnp.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        sigma = jnp.squeeze(jnp.sqrt(self.covariance))
        lo = jnp.squeeze((low - self.dataset) / sigma)
        hi = jnp.squeeze((high - self.dataset) / sigma)
        return jnp.sum(self.weights * (special.ndtr(hi) - special.ndtr(lo)))

    def integrate_kde(self, other: gaussian_kde) -> Array:
        """The integral of the product of two estimates."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol, norm = self._joint_factor(other.covariance)
        small, large = (self, other) if self.n < other.n else (other, self)
        per_point = _convolve(chol, norm, large.dataset, large.weights, small.dataset)
        return jnp.sum(per_point * small.weights)

    def _joint_factor(self, cov: Any) -> tuple[tuple[Array, bool], Array]:
        """The Cholesky factor of ``covariance + cov`` and the Gaussian normalization."""
        chol = linalg.cho_factor(self.covariance + cov)
        norm = jnp.sqrt(2 * math.pi) ** self.d * jnp.prod(jnp.diag(chol[0]))
        return chol, 1.0 / norm

    def integrate_box(self, low_bounds: Any, high_bounds: Any, maxpts: Any = None) -> Array:
        """Not supported (as in JAX): use ``integrate_box_1d``."""
        del low_bounds, high_bounds, maxpts
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    # -- sampling ------------------------------------------------------------------------------

    def resample(self, key: Any, shape: tuple[int, ...] = ()) -> Array:
        """Draws of shape ``(d, *shape)``: a data point chosen by weight plus kernel noise
        (a ``trellax.random`` key; ``jax.random``'s streams, as in JAX)."""
        ind_key, eps_key = random.split(key)
        ind = random.choice(ind_key, self.n, shape=shape, p=self.weights)
        zero = jnp.zeros(self.d, self.covariance.dtype)
        eps = random.multivariate_normal(
            eps_key, zero, self.covariance, shape=shape, dtype=self.dataset.dtype
        )
        draws: Array = self.dataset[:, ind] + eps.T
        return draws

    def set_bandwidth(self, bw_method: BwMethod = None) -> None:
        """Not supported (as in JAX): estimates are immutable; build a new one."""
        del bw_method
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")


def _convolve(
    chol: tuple[Array, bool], norm: Array, target: Array, weights: Array, means: Array
) -> Array:
    """For each column of ``means`` (``(d, k)``), ``norm * sum_i w_i exp(-q_i / 2)`` with
    ``q_i`` the quadratic form of ``target_i - mean`` under the factored covariance."""
    d = means.shape[0]
    diff = target[:, :, None] - means[:, None, :]
    alpha = linalg.cho_solve(chol, diff.reshape(d, -1)).reshape(diff.shape)
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights[:, None], axis=0)


def _kernel_sum(in_log: bool, dataset: Array, weights: Array, xi: Array, precision: Array) -> Array:
    """``sum_i w_i N(x_j; dataset_i, inv(precision))`` for each column ``x_j`` of ``xi``
    (its logarithm, summed stably, when ``in_log``)."""
    data, w, x, prec = promote_args_inexact_keep_shapes(
        "gaussian_kde", dataset.T, weights, xi.T, precision
    )
    d = data.shape[1]
    if x.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if prec.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whitening = linalg.cholesky(prec, lower=True)
    data = jnp.dot(data, whitening)
    x = jnp.dot(x, whitening)
    log_norm = jnp.sum(jnp.log(jnp.diag(whitening))) - 0.5 * d * jnp.log(2 * math.pi)
    arg = log_norm - 0.5 * jnp.sum(jnp.square(data[None, :, :] - x[:, None, :]), axis=-1)
    if in_log:
        out: Array = special.logsumexp(jnp.log(w) + arg, axis=1)  # type: ignore[assignment]
        return out
    return jnp.sum(w * jnp.exp(arg), axis=1)
