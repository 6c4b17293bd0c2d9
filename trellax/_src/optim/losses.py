"""Loss functions with optax's names, arguments and formulas (``optax.losses``).

Each loss is written with ``trellax.numpy`` and ``trellax.nn``, so it promotes, traces and
differentiates like any other trellax code; results are per example (no reduction over the batch),
as optax's are. Floating inputs are required where optax requires them (``TypeError`` otherwise).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.custom.derivatives import custom_jvp
from trellax._src.nn import activations as nnf
from trellax._src.scipy import special as scipy_special

Axis = int | tuple[int, ...] | None

__all__ = [
    "convex_kl_divergence",
    "cosine_distance",
    "cosine_similarity",
    "generalized_kl_divergence",
    "hinge_loss",
    "huber_loss",
    "kl_divergence",
    "kl_divergence_with_log_targets",
    "l2_loss",
    "log_cosh",
    "multiclass_hinge_loss",
    "multiclass_perceptron_loss",
    "perceptron_loss",
    "poly_loss_cross_entropy",
    "safe_softmax_cross_entropy",
    "sigmoid_binary_cross_entropy",
    "sigmoid_focal_loss",
    "smooth_labels",
    "softmax_cross_entropy",
    "softmax_cross_entropy_with_integer_labels",
    "sparsemax_loss",
    "squared_error",
]


def _logsumexp(x: Array, axis: Axis, b: Array | None = None, where: Any = None) -> Array:
    """``scipy.special.logsumexp`` without the sign (typed as one array)."""
    out = scipy_special.logsumexp(x, axis=axis, b=b, where=where)
    assert not isinstance(out, tuple)
    return out


def _require(x: ArrayLike, kind: Any, what: str) -> None:
    """Raises ``TypeError`` unless ``x``'s dtype is a subtype of ``kind`` (optax's check)."""
    dtype = jnp.result_type(x)
    if not jnp.issubdtype(dtype, kind):
        name = "floating" if kind is jnp.floating else "integer"
        raise TypeError(f"{what} must have a {name} dtype, got {dtype}")


def _errors(predictions: ArrayLike, targets: ArrayLike | None) -> Array:
    """``predictions - targets`` (or ``predictions`` alone), floating inputs only."""
    _require(predictions, jnp.floating, "predictions")
    p = jnp.asarray(predictions)
    return p if targets is None else p - jnp.asarray(targets)


def squared_error(predictions: ArrayLike, targets: ArrayLike | None = None) -> Array:
    """Elementwise ``(predictions - targets) ** 2``; the shapes must be equal."""
    if targets is not None and jnp.shape(predictions) != jnp.shape(targets):
        raise ValueError(
            "squared_error needs predictions and targets of one shape, got "
            f"{jnp.shape(predictions)} and {jnp.shape(targets)}"
        )
    return _errors(predictions, targets) ** 2


def l2_loss(predictions: ArrayLike, targets: ArrayLike | None = None) -> Array:
    """Half the squared error (optax's convention: the gradient is the plain error)."""
    return 0.5 * squared_error(jnp.asarray(predictions), targets)


def huber_loss(
    predictions: ArrayLike, targets: ArrayLike | None = None, *, delta: ArrayLike = 1.0
) -> Array:
    """Quadratic for errors up to ``delta`` in size, linear beyond (continuous slope)."""
    size = jnp.abs(_errors(predictions, targets))
    inner = jnp.minimum(size, delta)
    return 0.5 * inner**2 + delta * (size - inner)


def log_cosh(predictions: ArrayLike, targets: ArrayLike | None = None) -> Array:
    """``log(cosh(error))``, written as ``logaddexp(e, -e) - log 2`` so large errors stay finite."""
    e = _errors(predictions, targets)
    return jnp.logaddexp(e, -e) - jnp.log(2.0).astype(e.dtype)


def cosine_similarity(
    predictions: ArrayLike,
    targets: ArrayLike,
    *,
    epsilon: ArrayLike = 0.0,
    axis: Axis = -1,
    where: ArrayLike | None = None,
) -> Array:
    """Cosine of the angle between ``predictions`` and ``targets`` along ``axis``.

    Each squared norm is clipped from below at ``epsilon`` before the square root.
    """
    _require(predictions, jnp.floating, "predictions")
    _require(targets, jnp.floating, "targets")
    a, b = jnp.asarray(predictions), jnp.asarray(targets)
    # squares, not products: their derivatives at the float32 extremes are optax's (NaN)
    a_norm2 = jnp.sum(jnp.square(a), axis=axis, where=where, keepdims=True)
    b_norm2 = jnp.sum(jnp.square(b), axis=axis, where=where, keepdims=True)
    a_norm = jnp.sqrt(jnp.clip(a_norm2, epsilon))
    b_norm = jnp.sqrt(jnp.clip(b_norm2, epsilon))
    return jnp.sum((a / a_norm) * (b / b_norm), axis=axis, where=where)


def cosine_distance(
    predictions: ArrayLike,
    targets: ArrayLike,
    *,
    epsilon: ArrayLike = 0.0,
    axis: Axis = -1,
    where: ArrayLike | None = None,
) -> Array:
    """``1 - cosine_similarity``."""
    return 1.0 - cosine_similarity(predictions, targets, epsilon=epsilon, axis=axis, where=where)


def sigmoid_binary_cross_entropy(logits: ArrayLike, labels: ArrayLike) -> Array:
    """Binary cross entropy of ``sigmoid(logits)`` against (possibly soft) ``labels``."""
    _require(logits, jnp.floating, "logits")
    z = jnp.asarray(logits)
    y = jnp.asarray(labels).astype(z.dtype)
    loss: Array = -y * nnf.log_sigmoid(z) - (1.0 - y) * nnf.log_sigmoid(-z)
    return loss


def sigmoid_focal_loss(
    logits: ArrayLike,
    labels: ArrayLike,
    *,
    alpha: ArrayLike | None = None,
    gamma: ArrayLike = 2.0,
) -> Array:
    """Focal loss: the binary cross entropy weighted by ``(1 - p_t) ** gamma`` (and ``alpha``)."""
    _require(logits, jnp.floating, "logits")
    z = jnp.asarray(logits)
    y = jnp.asarray(labels).astype(z.dtype)
    ce = sigmoid_binary_cross_entropy(z, y)
    log_p, log_q = nnf.log_sigmoid(z), nnf.log_sigmoid(-z)
    # log(1 - p_t) = log((1 - y) p + y (1 - p)), computed in log space for soft labels too.
    log_miss = _logsumexp(
        jnp.stack([log_p, log_q], axis=-1), axis=-1, b=jnp.stack([1 - y, y], axis=-1)
    )
    loss = ce * jnp.exp(gamma * log_miss)
    if alpha is None:
        return loss
    return (alpha * y + (1.0 - alpha) * (1.0 - y)) * loss


def hinge_loss(predictor_outputs: ArrayLike, targets: ArrayLike) -> Array:
    """``max(0, 1 - outputs * targets)`` for targets in {-1, 1}."""
    return jnp.maximum(0, 1 - jnp.asarray(predictor_outputs) * jnp.asarray(targets))


def perceptron_loss(predictor_outputs: ArrayLike, targets: ArrayLike) -> Array:
    """``max(0, -outputs * targets)``; the shapes must be equal."""
    if jnp.shape(predictor_outputs) != jnp.shape(targets):
        raise ValueError(
            "perceptron_loss needs outputs and targets of one shape, got "
            f"{jnp.shape(predictor_outputs)} and {jnp.shape(targets)}"
        )
    return jnp.maximum(0, -jnp.asarray(predictor_outputs) * jnp.asarray(targets))


def sparsemax_loss(logits: ArrayLike, labels: ArrayLike) -> Array:
    """Binary sparsemax loss: ``sparse_plus`` of the logit signed by the label."""
    z = jnp.asarray(logits)
    loss: Array = nnf.sparse_plus(jnp.where(jnp.asarray(labels), -z, z))
    return loss


def _one_hot_dot(scores: Array, labels: ArrayLike) -> tuple[Array, Array]:
    """The one-hot labels of ``scores``' last axis and the score of each label."""
    hot = nnf.one_hot(labels, scores.shape[-1])
    return hot, jnp.sum(scores * hot, axis=-1)


def multiclass_hinge_loss(scores: ArrayLike, labels: ArrayLike) -> Array:
    """``max_k(scores_k + 1 - [k == label]) - scores_label``."""
    s = jnp.asarray(scores)
    hot, picked = _one_hot_dot(s, labels)
    return jnp.max(s + 1.0 - hot, axis=-1) - picked


def multiclass_perceptron_loss(scores: ArrayLike, labels: ArrayLike) -> Array:
    """``max_k scores_k - scores_label``."""
    s = jnp.asarray(scores)
    _, picked = _one_hot_dot(s, labels)
    return jnp.max(s, axis=-1) - picked


def _expand_where(where: ArrayLike | None, ndim: int, axis: Axis) -> Array | None:
    """A mask with one dimension less than the logits gets the reduced axis back."""
    if where is None:
        return None
    w = jnp.asarray(where)
    if w.ndim != ndim:
        if axis is None:
            raise ValueError("a mask of lower rank needs an axis to expand along")
        w = jnp.expand_dims(w, axis)
    return w


def softmax_cross_entropy(
    logits: ArrayLike, labels: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None
) -> Array:
    """Cross entropy of ``softmax(logits)`` against probability ``labels`` along ``axis``."""
    _require(logits, jnp.floating, "logits")
    z = jnp.asarray(logits)
    mask = _expand_where(where, z.ndim, axis)
    log_probs = nnf.log_softmax(z, axis, mask)
    return -jnp.sum(jnp.asarray(labels) * log_probs, axis=axis, where=mask)


def _canonical_axis(axis: int, ndim: int) -> int:
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise ValueError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def softmax_cross_entropy_with_integer_labels(
    logits: ArrayLike,
    labels: ArrayLike,
    axis: int | tuple[int, ...] = -1,
    where: ArrayLike | None = None,
) -> Array:
    """Cross entropy of ``softmax(logits)`` against integer class ``labels``.

    ``axis`` names the class axis (or axes, flattened together in the order given); ``labels``
    has the logits' shape without it. Computed as ``logsumexp(logits) - logits[label]``, which
    stays finite for large logits.
    """
    _require(logits, jnp.floating, "logits")
    _require(labels, jnp.integer, "labels")
    z = jnp.asarray(logits)
    mask = None if where is None else jnp.asarray(where)
    if mask is not None and mask.ndim != z.ndim:
        mask = jnp.expand_dims(mask, axis)
    if isinstance(axis, int):
        ax = _canonical_axis(axis, z.ndim)
    elif isinstance(axis, tuple):
        class_axes = tuple(_canonical_axis(a, z.ndim) for a in axis)
        batch_axes = tuple(d for d in range(z.ndim) if d not in class_axes)
        order = batch_axes + class_axes
        ax = len(batch_axes)
        z = jnp.transpose(z, order).reshape((*_batch_shape(z, batch_axes), -1))
        if mask is not None:
            mask = jnp.transpose(mask, order).reshape((*_batch_shape(mask, batch_axes), -1))
    else:
        raise ValueError(
            f"axis must be an int or a tuple of ints, got {type(axis).__name__}: {axis!r}"
        )
    label_logits = jnp.take(
        jnp.take_along_axis(z, jnp.expand_dims(jnp.asarray(labels), ax), axis=ax), 0, axis=ax
    )
    out = _logsumexp(z, axis=ax, where=mask) - label_logits
    if mask is not None:
        out = jnp.where(jnp.any(mask, axis=ax), out, 0.0)
    return out


def _batch_shape(x: Array, batch_axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(x.shape[d] for d in batch_axes)


@custom_jvp
def _weighted_log_softmax(x: Array, weights: Array) -> Array:
    """``weights * log_softmax(x)``, exactly 0 where the weight is 0 (even at ``x = -inf``)."""
    log_sm = nnf.log_softmax(x, axis=-1)
    return jnp.where(weights != 0.0, weights * log_sm, jnp.zeros_like(log_sm))


@_weighted_log_softmax.defjvp
def _weighted_log_softmax_jvp(
    primals: tuple[Array, Array], tangents: tuple[Array, Array]
) -> tuple[Array, Array]:
    x, w = primals
    tx, tw = tangents
    out = _weighted_log_softmax(x, w)
    log_sm = nnf.log_softmax(x, axis=-1)
    zero = jnp.zeros_like(log_sm)
    # d/dx of w_i log_softmax(x)_i is w_i (t_i - <softmax(x), t>); terms with w_i = 0 are 0.
    centred = tx - jnp.sum(nnf.softmax(x, axis=-1) * tx, axis=-1, keepdims=True)
    dx = jnp.where(w != 0.0, w * centred, zero)
    dw = jnp.where(w != 0.0, tw * log_sm, zero)
    return out, dx + dw


def safe_softmax_cross_entropy(logits: ArrayLike, labels: ArrayLike) -> Array:
    """Softmax cross entropy that gives 0 (not NaN) where a label is 0 and its logit ``-inf``."""
    _require(logits, jnp.floating, "logits")
    z = jnp.asarray(logits)
    return -jnp.sum(_weighted_log_softmax(z, jnp.asarray(labels, dtype=z.dtype)), axis=-1)


def poly_loss_cross_entropy(
    logits: ArrayLike,
    labels: ArrayLike,
    *,
    epsilon: ArrayLike = 2.0,
    axis: Axis = -1,
    where: ArrayLike | None = None,
) -> Array:
    """PolyLoss: softmax cross entropy plus ``epsilon * (1 - p_t)``."""
    _require(logits, jnp.floating, "logits")
    _require(labels, jnp.floating, "labels")
    z, y = jnp.asarray(logits), jnp.asarray(labels)
    p = nnf.softmax(z, axis=axis, where=None if where is None else jnp.asarray(where))
    miss = jnp.sum(y * (1 - p), axis=axis, where=where)
    return softmax_cross_entropy(z, y, axis=axis, where=where) + epsilon * miss


def kl_divergence(
    log_predictions: ArrayLike, targets: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None
) -> Array:
    """``sum(targets * (log targets - log_predictions))``, with ``0 log 0 = 0``."""
    _require(log_predictions, jnp.floating, "log_predictions")
    _require(targets, jnp.floating, "targets")
    t = jnp.asarray(targets)
    log_t = jnp.where(t == 0, 0, jnp.log(t))
    return jnp.sum(t * (log_t - jnp.asarray(log_predictions)), axis=axis, where=where)


def kl_divergence_with_log_targets(
    log_predictions: ArrayLike,
    log_targets: ArrayLike,
    axis: Axis = -1,
    where: ArrayLike | None = None,
) -> Array:
    """KL divergence with the targets given as log-probabilities."""
    _require(log_predictions, jnp.floating, "log_predictions")
    _require(log_targets, jnp.floating, "log_targets")
    lt = jnp.asarray(log_targets)
    return jnp.sum(jnp.exp(lt) * (lt - jnp.asarray(log_predictions)), axis=axis, where=where)


def generalized_kl_divergence(
    log_predictions: ArrayLike, targets: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None
) -> Array:
    """KL divergence plus ``sum(exp(log_predictions) - targets)`` (for unnormalized measures)."""
    kl = kl_divergence(log_predictions, targets, axis=axis, where=where)
    mass = jnp.sum(
        jnp.exp(jnp.asarray(log_predictions)) - jnp.asarray(targets), axis=axis, where=where
    )
    return kl + mass


def convex_kl_divergence(
    log_predictions: ArrayLike, targets: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None
) -> Array:
    """The old name of :func:`generalized_kl_divergence` (optax keeps it, deprecated)."""
    return generalized_kl_divergence(log_predictions, targets, axis=axis, where=where)


def smooth_labels(
    labels: ArrayLike, alpha: ArrayLike, *, axis: Axis = -1, where: ArrayLike | None = None
) -> Array:
    """Label smoothing: ``(1 - alpha) * labels + alpha / number_of_classes``."""
    _require(labels, jnp.floating, "labels")
    y = jnp.asarray(labels)
    if where is None:
        count: Any = np.prod([y.shape[a] for a in _axes(axis, y.ndim)], dtype=int)
        count = int(count)
    else:
        count = jnp.sum(where, axis, keepdims=True)
    smoothed: Array = (1.0 - alpha) * y + alpha / count
    return smoothed


def _axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        return (_canonical_axis(axis, ndim),)
    return tuple(_canonical_axis(a, ndim) for a in axis)


def triplet_margin_loss(
    anchors: ArrayLike,
    positives: ArrayLike,
    negatives: ArrayLike,
    axis: int = -1,
    norm_degree: ArrayLike = 2,
    margin: ArrayLike = 1.0,
    eps: ArrayLike = 1e-6,
) -> Array:
    """``max(d(a, p) - d(a, n) + margin, 0)`` per example, with the distance
    ``d(x, y) = (sum((x - y) ** norm_degree, axis) + eps) ** (1 / norm_degree)`` (floating
    inputs only)."""
    for x in (anchors, positives, negatives):
        _require(x, jnp.floating, "triplet_margin_loss's embeddings")
    a = jnp.asarray(anchors)

    def distance(other: ArrayLike) -> Array:
        powered = jnp.power(a - jnp.asarray(other), norm_degree).sum(axis)
        return jnp.power(powered + eps, 1 / norm_degree)

    return jnp.maximum(distance(positives) - distance(negatives) + margin, 0)
