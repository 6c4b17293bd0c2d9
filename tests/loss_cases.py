"""The loss cases shared by ``tools/gen_golden_losses.py`` (run under optax) and
``tests/test_optim_losses.py`` (run on ``trellax.optim``): each case names a loss, its arguments
as NumPy arrays built from a seeded generator (with large, zero and tied values mixed in), its
keyword arguments, and whether the gradient of the summed loss in the first argument is recorded."""

from __future__ import annotations

from typing import Any

import numpy as np

Case = tuple[str, str, tuple[Any, ...], dict[str, Any], bool]


def _logits(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float32) -> Any:
    x = rng.normal(size=shape).astype(np.float32) * 3
    flat = x.reshape(-1)
    flat[0] = 80.0  # large enough that a naive exp overflows in float32
    flat[-1] = -80.0
    if flat.size > 3:
        flat[2] = flat[1]  # a tie
    return x.astype(dtype)


def _probs(rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
    p = rng.random(size=shape).astype(np.float32)
    p.reshape(-1)[1] = 0.0  # a zero target (0 log 0 = 0)
    return (p / p.sum(axis=-1, keepdims=True)).astype(np.float32)


def cases() -> list[Case]:
    """Every case: (id, loss name, positional arguments, keyword arguments, record the grad)."""
    rng = np.random.default_rng(20261127)
    out: list[Case] = []
    x = _logits(rng, (4, 5))
    y = _logits(rng, (4, 5))
    p = _probs(rng, (4, 5))
    ints = np.array([0, 4, 2, 2], np.int32)
    signs = np.where(rng.random((4, 5)) > 0.5, 1.0, -1.0).astype(np.float32)
    bits = (rng.random((4, 5)) > 0.5).astype(np.float32)
    mask = rng.random((4, 5)) > 0.3
    mask[0] = False  # a row with nothing selected
    small = (x / 40).astype(np.float32)
    for name in ("squared_error", "l2_loss", "huber_loss", "log_cosh"):
        out.append((f"{name}/pair", name, (small, y / 40), {}, True))
        out.append((f"{name}/one", name, (small,), {}, True))
    out.append(("huber_loss/delta", "huber_loss", (small, y / 40), {"delta": 0.1}, True))
    out.append(("log_cosh/large", "log_cosh", (x,), {}, True))
    out.append(("l2_loss/bf16", "l2_loss", (small.astype("bfloat16"),), {}, False))
    for name in ("cosine_similarity", "cosine_distance"):
        out.append((f"{name}/plain", name, (x, y), {}, True))
        out.append((f"{name}/eps", name, (x * 0, y), {"epsilon": 1e-6}, False))
        out.append((f"{name}/axis0", name, (x, y), {"axis": 0}, True))
        out.append((f"{name}/where", name, (x, y), {"where": mask}, False))
    out.append(("sigmoid_bce/hard", "sigmoid_binary_cross_entropy", (x, bits), {}, True))
    out.append(("sigmoid_bce/soft", "sigmoid_binary_cross_entropy", (x, p), {}, True))
    out.append(("focal/plain", "sigmoid_focal_loss", (x, bits), {}, True))
    out.append(("focal/alpha", "sigmoid_focal_loss", (x, p), {"alpha": 0.25, "gamma": 1.5}, True))
    out.append(("hinge", "hinge_loss", (small, signs), {}, True))
    out.append(("perceptron", "perceptron_loss", (small, signs), {}, True))
    out.append(("sparsemax", "sparsemax_loss", (small, bits), {}, True))
    out.append(("mc_hinge", "multiclass_hinge_loss", (x, ints), {}, True))
    out.append(("mc_perceptron", "multiclass_perceptron_loss", (x, ints), {}, True))
    out.append(("sce/plain", "softmax_cross_entropy", (x, p), {}, True))
    out.append(("sce/axis0", "softmax_cross_entropy", (x, p), {"axis": 0}, True))
    out.append(("sce/where", "softmax_cross_entropy", (x, p), {"where": mask}, False))
    out.append(("sce/f16", "softmax_cross_entropy", (x.astype(np.float16), p), {}, False))
    out.append(("sce_int/plain", "softmax_cross_entropy_with_integer_labels", (x, ints), {}, True))
    x3 = _logits(rng, (3, 4, 5))
    out.append(
        ("sce_int/axis1", "softmax_cross_entropy_with_integer_labels",
         (x3, np.array([[0, 4], [1, 1], [3, 2]], np.int32)[:, :1].repeat(5, 1) % 4), {"axis": 1},
         True)
    )  # fmt: skip
    out.append(
        ("sce_int/axes", "softmax_cross_entropy_with_integer_labels",
         (x3, np.array([0, 19, 7], np.int32)), {"axis": (1, 2)}, True)
    )  # fmt: skip
    out.append(
        ("sce_int/where", "softmax_cross_entropy_with_integer_labels", (x, ints), {"where": mask},
         False)
    )  # fmt: skip
    x_inf = x.copy()
    x_inf[:, 3] = -np.inf
    p_zero = p.copy()
    p_zero[:, 3] = 0.0
    p_zero = (p_zero / p_zero.sum(axis=-1, keepdims=True)).astype(np.float32)
    out.append(("safe_sce/inf", "safe_softmax_cross_entropy", (x_inf, p_zero), {}, True))
    out.append(("safe_sce/plain", "safe_softmax_cross_entropy", (x, p), {}, True))
    out.append(("poly/plain", "poly_loss_cross_entropy", (x, p), {}, True))
    out.append(("poly/eps", "poly_loss_cross_entropy", (x, p), {"epsilon": -1.0}, True))
    logp = (x - np.log(np.exp(x.astype(np.float64)).sum(-1, keepdims=True))).astype(np.float32)
    out.append(("kl/plain", "kl_divergence", (logp, p), {}, True))
    out.append(("kl/where", "kl_divergence", (logp, p), {"where": mask}, False))
    out.append(("kl_log/plain", "kl_divergence_with_log_targets", (logp, np.log(p + 1e-3)), {},
                True))  # fmt: skip
    out.append(("gkl/plain", "generalized_kl_divergence", (logp / 4, p * 2), {}, True))
    out.append(("convex_kl/plain", "convex_kl_divergence", (logp / 4, p * 2), {}, False))
    out.append(("smooth/plain", "smooth_labels", (p, 0.1), {}, False))
    out.append(("smooth/axis0", "smooth_labels", (p, 0.2), {"axis": 0}, False))
    out.append(("smooth/where", "smooth_labels", (p, 0.2), {"where": mask}, False))
    return out + special_cases()


_BIG = float(np.finfo(np.float32).max)
#: NaN, ±inf, ±0, the extremes and the smallest normal, against targets of every kind
_SPECIAL = np.array(
    [np.nan, np.inf, -np.inf, -0.0, 0.0, _BIG, -_BIG, 1.2e-38, 1.0, -1.0, 0.5, 30.0], np.float32
)
_SPECIAL_TARGETS = np.array(
    [1.0, 0.0, 1.0, 0.0, -0.0, 1.0, 0.0, 1.0, np.inf, np.nan, -0.0, -1.0], np.float32
)
_ELEMENTWISE = (
    "squared_error",
    "l2_loss",
    "huber_loss",
    "log_cosh",
    "hinge_loss",
    "perceptron_loss",
    "sigmoid_binary_cross_entropy",
    "sigmoid_focal_loss",
)
_ROWWISE = (
    "softmax_cross_entropy",
    "safe_softmax_cross_entropy",
    "poly_loss_cross_entropy",
    "kl_divergence",
    "kl_divergence_with_log_targets",
    "generalized_kl_divergence",
    "convex_kl_divergence",
    "cosine_similarity",
    "cosine_distance",
    "sparsemax_loss",
)


def special_cases() -> list[Case]:
    """Every loss on NaN, ±inf, -0.0, the float32 extremes and empty arrays."""
    out: list[Case] = []
    empty = np.zeros((0,), np.float32)
    for name in _ELEMENTWISE:
        out.append((f"special/{name}", name, (_SPECIAL, _SPECIAL_TARGETS), {}, True))
        out.append((f"special/{name}/swapped", name, (_SPECIAL_TARGETS, _SPECIAL), {}, False))
        out.append((f"empty/{name}", name, (empty, empty), {}, True))
    rows = _SPECIAL.reshape(4, 3)
    probs = np.array(
        [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [1 / 3, 1 / 3, 1 / 3]], np.float32
    )
    for name in _ROWWISE:
        out.append((f"special/{name}", name, (rows, probs), {}, True))
        out.append((f"special/{name}/targets", name, (probs, rows), {}, False))
        out.append((f"empty/{name}/rows", name, (np.zeros((0, 3), np.float32),) * 2, {}, True))
        out.append((f"empty/{name}/classes", name, (np.zeros((4, 0), np.float32),) * 2, {}, False))
    labels = np.array([0, 2, 1, 2], np.int32)
    for name in ("softmax_cross_entropy_with_integer_labels", "multiclass_hinge_loss",
                 "multiclass_perceptron_loss"):  # fmt: skip
        out.append((f"special/{name}", name, (rows, labels), {}, True))
        out.append((f"special/{name}/bad_label", name, (rows, labels - 3), {}, False))
        out.append((f"empty/{name}", name, (np.zeros((0, 3), np.float32), labels[:0]), {}, True))
    out.append(("special/smooth_labels", "smooth_labels", (rows, 0.1), {}, False))
    out.append(("special/smooth_labels/alpha", "smooth_labels", (probs, 1.5), {}, False))
    out.append(("empty/smooth_labels", "smooth_labels", (np.zeros((0, 3), np.float32), 0.1),
                {}, False))  # fmt: skip
    return out
