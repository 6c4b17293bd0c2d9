"""optax's connectionist temporal classification loss (``ctc_loss`` and
``ctc_loss_with_forward_probs``), computed by a forward recursion over time in log space.

The recursion keeps two tables per sequence: ``blank[n]``, the log probability of having emitted
the first ``n`` labels and being in a blank (``n = 0 .. N``), and ``label[n]``, that of being on
label ``n`` (``n = 0 .. N-1``). Impossible states start at ``log_epsilon`` instead of ``-inf``,
which keeps every value finite (and the gradient free of NaNs). A padded frame leaves the tables
unchanged; padded labels are at the end of each row.
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.nn import activations as nn


def _check(logits: Any, logit_paddings: Any, labels: Any, label_paddings: Any) -> None:
    if logits.ndim != 3:
        raise ValueError(f"logits must be of rank 3 (B, T, K), got shape {logits.shape}")
    if labels.ndim != 2:
        raise ValueError(f"labels must be of rank 2 (B, N), got shape {labels.shape}")
    if labels.shape != label_paddings.shape:
        raise ValueError(
            f"labels {labels.shape} and label_paddings {label_paddings.shape} differ in shape"
        )
    if logits.shape[:2] != logit_paddings.shape:
        raise ValueError(
            f"logits {logits.shape} and logit_paddings {logit_paddings.shape} differ in (B, T)"
        )
    if labels.shape[0] != logits.shape[0]:
        raise ValueError(
            f"Expected `labels` to have batch size {logits.shape[0]}, got {labels.shape[0]}."
        )


def _after_label(blank: Any, arriving: Any) -> Any:
    """``blank`` with ``arriving`` (one entry per label) log-added to entries 1..N."""
    return jnp.concatenate([blank[:, :1], jnp.logaddexp(blank[:, 1:], arriving)], axis=-1)


def ctc_loss_with_forward_probs(
    logits: Any,
    logit_paddings: Any,
    labels: Any,
    label_paddings: Any,
    *,
    blank_id: int = 0,
    log_epsilon: Any = -1e5,
) -> tuple[Any, Any, Any]:
    """The per-sequence CTC loss ``(B,)``, and the forward tables: the blank table ``(T, B,
    N+1)`` and the label table ``(T, B, N)`` after each frame (log probabilities)."""
    logits = jnp.asarray(logits)
    logit_paddings = jnp.asarray(logit_paddings)
    labels = jnp.asarray(labels)
    label_paddings = jnp.asarray(label_paddings)
    _check(logits, logit_paddings, labels, label_paddings)
    batch, _, _ = logits.shape
    n_labels = labels.shape[1]
    logprobs = nn.log_softmax(logits)
    lengths = n_labels - jnp.sum(label_paddings, axis=1).astype(jnp.int32)
    # 1.0 where a label equals the next one: the path must pass through a blank between them
    repeated = jnp.pad((labels[:, :-1] == labels[:, 1:]).astype(jnp.float32), ((0, 0), (0, 1)))
    blank_lp = jnp.transpose(logprobs[:, :, blank_id : blank_id + 1], (1, 0, 2))  # [T, B, 1]
    label_lp = jnp.transpose(
        jnp.take_along_axis(logprobs, labels[:, None, :].astype(jnp.int32), axis=2), (1, 0, 2)
    )  # [T, B, N]
    blank0 = (jnp.ones((batch, n_labels + 1)) * log_epsilon).at[:, 0].set(0.0)
    label0 = jnp.ones((batch, n_labels)) * log_epsilon

    def frame(carry: tuple[Any, Any], xs: tuple[Any, Any, Any]) -> tuple[Any, Any]:
        blank, label = carry
        emit, stay, pad = xs
        # leaving label n for blank n+1 without a frame (not allowed before a repeat)
        entered = _after_label(blank, label + log_epsilon * repeated)
        new_label = jnp.logaddexp(entered[:, :-1] + emit, label + emit)
        new_blank = _after_label(entered + stay, label + stay + log_epsilon * (1.0 - repeated))
        pad = pad.reshape((batch, 1))
        new_label = pad * label + (1.0 - pad) * new_label
        new_blank = pad * blank + (1.0 - pad) * new_blank
        return (new_blank, new_label), (new_blank, new_label)

    frames = (label_lp, blank_lp, jnp.transpose(logit_paddings, (1, 0)))
    _, (blanks, labels_tab) = lax.scan(frame, (blank0, label0), frames)
    final = _after_label(blanks[-1], labels_tab[-1])
    blanks = blanks.at[-1].set(final)
    loss = -jnp.take_along_axis(final, lengths[:, None], axis=1)[:, 0]
    return loss, blanks, labels_tab


def ctc_loss(
    logits: Any,
    logit_paddings: Any,
    labels: Any,
    label_paddings: Any,
    *,
    blank_id: int = 0,
    log_epsilon: Any = -1e5,
) -> Any:
    """The CTC loss of each sequence, ``(B,)`` (see :func:`ctc_loss_with_forward_probs`)."""
    return ctc_loss_with_forward_probs(
        logits, logit_paddings, labels, label_paddings, blank_id=blank_id, log_epsilon=log_epsilon
    )[0]
