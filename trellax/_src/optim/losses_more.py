"""More of optax's losses: the contrastive NT-Xent (``ntxent``), the segmentation Dice losses
(``dice_loss``, ``binary_dice_loss``, ``multiclass_generalized_dice_loss``) and the listwise
``ranking_softmax_loss``, with optax 0.2.8's arguments and formulas.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.nn import activations as nnf
from trellax._src.optim.losses import _require, cosine_similarity


def _same_shape(a: Any, b: Any) -> None:
    if np.shape(a) != np.shape(b):
        raise ValueError(f"Shape mismatch: got {np.shape(a)} and {np.shape(b)}.")


def ntxent(embeddings: ArrayLike, labels: ArrayLike, temperature: ArrayLike = 0.07) -> Array:
    """The normalized temperature-scaled cross entropy of SimCLR: for each pair of distinct
    examples with equal labels, minus the log-softmax of their cosine similarity (over
    ``temperature``) against the similarities to the examples of other labels, averaged over
    the pairs."""
    _require(embeddings, jnp.floating, "embeddings")
    e = jnp.asarray(embeddings)
    labels = jnp.asarray(labels)
    if labels.shape[0] != e.shape[0]:
        raise ValueError(
            "Labels and embeddings must have the same leading dimension, found "
            f"{labels.shape[0]} for labels and {e.shape[0]} for embeddings."
        )
    eps = jnp.finfo(e.dtype).eps
    sims = cosine_similarity(e[None, :, :], e[:, None, :], epsilon=eps) / temperature
    same = labels[:, None] == labels[None, :]
    other = same ^ 1
    pairs = jnp.bool_(same - jnp.eye(same.shape[0]))
    sims_other = jnp.where(other == 1, sims, -jnp.inf)
    sims_pairs = jnp.where(pairs == 1, sims, -jnp.inf)
    top = jnp.max(jnp.concatenate((sims_other, sims_pairs), axis=-1), axis=1, keepdims=True)
    shifted_other = sims_other - lax.stop_gradient(top)
    shifted_pairs = sims_pairs - lax.stop_gradient(top)
    denom = jnp.sum(jnp.exp(shifted_other), axis=1, keepdims=True)
    denom += jnp.exp(shifted_pairs)
    log_p = shifted_pairs - jnp.log(denom)
    return -jnp.where(pairs == 1, log_p, 0.0).sum() / pairs.sum()


def _reduce(loss: Array, reduction: str, axis: int | None = None) -> Array:
    if reduction == "mean":
        return jnp.mean(loss, axis=axis)
    if reduction == "sum":
        return jnp.sum(loss, axis=axis)
    if reduction == "none":
        return loss
    raise ValueError(f"Unsupported reduction: {reduction}")


def dice_loss(
    predictions: ArrayLike,
    targets: ArrayLike,
    *,
    class_weights: ArrayLike | None = None,
    smooth: ArrayLike = 1.0,
    alpha: ArrayLike = 0.5,
    beta: ArrayLike = 0.5,
    apply_softmax: bool = True,
    reduction: str = "mean",
    ignore_background: bool = False,
    axis: Any = None,
) -> Array:
    """The Tversky/Dice loss ``1 - (I + smooth) / (I + alpha * FP + beta * FN + smooth)`` per
    example and class (``I`` the soft intersection summed over the spatial axes, ``axis`` or
    every axis between the first and the last), weighted by ``class_weights`` and reduced over
    the classes by ``reduction`` (``"mean"``, ``"sum"`` or ``"none"``). The class axis is last;
    logits go through a softmax (a sigmoid for one class) unless ``apply_softmax`` is False,
    when they must be probabilities that sum to 1 (``ValueError`` otherwise)."""
    p, t = jnp.asarray(predictions), jnp.asarray(targets)
    if p.ndim == t.ndim - 1:
        p = p[..., None]
    if t.ndim == p.ndim - 1:
        t = t[..., None]
    _same_shape(p, t)
    if not apply_softmax:
        sums = jnp.sum(p, axis=-1)
        if not jnp.allclose(sums, 1.0, rtol=1e-05):
            raise ValueError(
                "When apply_softmax=False, predictions must be valid probability distributions "
                "that sum to 1 along the class axis. Found sum range: "
                f"[{float(jnp.min(sums)):.6f}, {float(jnp.max(sums)):.6f}]"
            )
    probs = p
    if apply_softmax:
        probs = nnf.sigmoid(p) if p.shape[-1] == 1 else nnf.softmax(p, axis=-1)
    axes = tuple(range(1, probs.ndim - 1)) if axis is None else axis
    inter = jnp.sum(probs * t, axis=axes)
    pred_sum = jnp.sum(probs, axis=axes)
    target_sum = jnp.sum(t, axis=axes)
    denom = inter + alpha * (pred_sum - inter) + beta * (target_sum - inter) + smooth
    loss = 1.0 - (inter + smooth) / denom
    if class_weights is not None:
        if jnp.ndim(class_weights) != 1:
            raise ValueError(
                f"Expected the input to have rank 1, got {jnp.ndim(class_weights)} instead"
            )
        loss = loss * class_weights
    if ignore_background and probs.shape[-1] > 1:
        loss = loss[..., 1:]
    return _reduce(loss, reduction, axis=-1)


def multiclass_generalized_dice_loss(
    predictions: ArrayLike,
    targets: ArrayLike,
    *,
    smooth: ArrayLike = 1.0,
    apply_softmax: bool = True,
    ignore_background: bool = False,
) -> Array:
    """``dice_loss`` with each class weighted by the inverse square of its frequency in
    ``targets`` (normalized to average 1), averaged over examples and classes."""
    _same_shape(predictions, targets)
    t = jnp.asarray(targets)
    freq = jnp.sum(t, axis=tuple(range(t.ndim - 1)))
    weights = 1.0 / (freq**2 + 1e-07)
    weights = weights / jnp.sum(weights) * len(weights)
    return jnp.mean(
        dice_loss(
            predictions,
            t,
            class_weights=weights,
            smooth=smooth,
            apply_softmax=apply_softmax,
            reduction="none",
            ignore_background=ignore_background,
        )
    )


def binary_dice_loss(
    predictions: ArrayLike,
    targets: ArrayLike,
    *,
    smooth: ArrayLike = 1.0,
    apply_sigmoid: bool = True,
) -> Array:
    """``dice_loss`` of one class (a sigmoid of the logits unless ``apply_sigmoid`` is False),
    averaged over the examples' single class."""
    p, t = jnp.asarray(predictions), jnp.asarray(targets)
    if p.ndim == t.ndim and p.shape[-1] != 1:
        p, t = p[..., None], t[..., None]
    return dice_loss(p, t, smooth=smooth, apply_softmax=apply_sigmoid, reduction="mean")


def _safe_reduce(a: Array, where: Any, reduce_fn: Callable[..., Any] | None) -> Array:
    out = reduce_fn(a, where=where) if reduce_fn is not None else a
    if reduce_fn is jnp.mean:
        # the mean over no valid list is 0, not NaN, unless a loss itself is NaN
        valid = jnp.logical_not(jnp.any(jnp.isnan(a)))
        out = jnp.where(jnp.isnan(out) & valid, 0.0, out)
    if reduce_fn is None and where is not None:
        out = jnp.where(where, out, 0.0)
    return jnp.asarray(out)


def ranking_softmax_loss(
    logits: ArrayLike,
    labels: ArrayLike,
    *,
    where: ArrayLike | None = None,
    weights: ArrayLike | None = None,
    reduce_fn: Callable[..., Any] | None = jnp.mean,
) -> Array:
    """The listwise softmax cross entropy ``-sum(labels * log_softmax(logits))`` over the last
    axis (items outside ``where`` left out, ``labels`` times ``weights``), reduced over the
    lists by ``reduce_fn`` (``None`` keeps one loss per list)."""
    _require(logits, jnp.floating, "logits")
    x = jnp.asarray(logits)
    y = jnp.asarray(labels).astype(x.dtype)
    w = None if where is None else jnp.asarray(where)
    if w is not None:
        y = jnp.where(w, y, jnp.zeros_like(y))
        x = jnp.where(w, x, -jnp.ones_like(x) * jnp.inf)
    if weights is not None:
        y = y * weights
    loss = -jnp.sum(y * nnf.log_softmax(x, axis=-1), axis=-1, where=w)
    if w is not None:
        w = jnp.any(w, axis=-1)
    return _safe_reduce(loss, w, reduce_fn)


__all__ = [
    "binary_dice_loss",
    "dice_loss",
    "multiclass_generalized_dice_loss",
    "ntxent",
    "ranking_softmax_loss",
]
