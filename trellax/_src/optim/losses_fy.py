"""optax's Fenchel-Young losses: ``make_fenchel_young_loss`` (a loss ``max_fun(s) - <y, s>``
over the last axis from any max function, e.g. ``logsumexp``) and ``multiclass_sparsemax_loss``
(the Fenchel-Young loss of the Gini negentropy, whose prediction is ``sparsemax``: the
Euclidean projection of the scores onto the probability simplex).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import trellax.numpy as jnp
from trellax._src.api.vmap import vmap


def make_fenchel_young_loss(max_fun: Callable[..., Any]) -> Callable[..., Any]:
    """The Fenchel-Young loss of ``max_fun``: ``fenchel_young_loss(scores, targets, *args,
    **kwargs) = max_fun(scores, *args, **kwargs) - <targets, scores>``, both over the last
    axis (leading axes are batch axes)."""
    inner = jnp.vectorize(jnp.vdot, signature="(n),(n)->()")
    maximum = jnp.vectorize(max_fun, signature="(n)->()")

    def fenchel_young_loss(scores: Any, targets: Any, *args: Any, **kwargs: Any) -> Any:
        return maximum(scores, *args, **kwargs) - inner(targets, scores)

    return fenchel_young_loss


def _simplex_projection(x: Any) -> Any:
    """The Euclidean projection of a vector onto the probability simplex: ``max(x - t, 0)``
    with the threshold ``t`` that makes it sum to 1 (found from the sorted entries).
    Half-precision input is computed and returned in float32, as optax's projection does."""
    x = x.astype(jnp.promote_types(x.dtype, jnp.float32))
    desc = -jnp.sort(-x)
    excess = jnp.cumsum(desc) - 1.0
    counts = jnp.arange(1, x.shape[0] + 1, dtype=x.dtype)
    support = jnp.sum(desc - excess / counts > 0)
    threshold = excess[support - 1] / support.astype(x.dtype)
    return jnp.maximum(x - threshold, 0.0)


def _one_sparsemax_loss(scores: Any, label: Any) -> Any:
    scores = jnp.asarray(scores)
    proba = _simplex_projection(scores)
    # <p, s> - s_label + (1 - |p|^2) / 2, the scores taken relative to the label's
    gap = jnp.where(proba > 0, scores - scores[label], 0.0)
    return jnp.dot(proba, gap) + 0.5 * (1.0 - jnp.dot(proba, proba))


def multiclass_sparsemax_loss(scores: Any, labels: Any) -> Any:
    """The multiclass sparsemax loss (Martins and Astudillo, 2016) of each row of ``scores``
    (``(batch, classes)``) for the integer ``labels`` (``(batch,)``): 0 when ``sparsemax``
    puts all its mass on the label."""
    return vmap(_one_sparsemax_loss)(scores, labels)
