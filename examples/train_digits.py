"""Train a small convolutional network on scikit-learn's 8x8 handwritten digits with trellax.

Mixed precision the Flax way: parameters are stored in float32 (``param_dtype``), every layer
computes in bfloat16 (``dtype=bfloat16``), the loss is taken in float32, and Adam keeps its
moments in float32. The jitted training step is then searched for implicit promotions
(``trellax.explain_promotions``; there are none, as every layer casts explicitly) and its explicit
casts between bfloat16 and float32 are listed by source line: where the two precisions meet.

Run with ``make demo`` (installs the ``demo`` extra: scikit-learn, tqdm, matplotlib)::

    python examples/train_digits.py [--epochs 12] [--plot digits_training.png]
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

# The network's matrix products are small (at most 4096 x 144): OpenBLAS's threads cost more than
# they save, and on a busy machine they make a training step about ten times slower
# (docs/nn.md, "Performance"). One BLAS thread, unless the environment says otherwise; this must
# be set before NumPy loads OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
import trellax.optim as optim
import trellax.random as random

BF16 = jnp.bfloat16


class CNN(nn.Module):
    """conv(16) → relu → max-pool → conv(32) → relu → dense(64) → relu → dense(10)."""

    dtype: Any = BF16

    @nn.compact
    def __call__(self, x: Any) -> Any:
        x = nn.relu(nn.Conv(16, (3, 3), dtype=self.dtype)(x))
        x = nn.max_pool(x, (2, 2), strides=(2, 2))
        x = nn.relu(nn.Conv(32, (3, 3), dtype=self.dtype)(x))
        x = x.reshape((x.shape[0], -1))
        x = nn.relu(nn.Dense(64, dtype=self.dtype)(x))
        return nn.Dense(10, dtype=self.dtype)(x)


def load_digits(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits as sk_load

    data = sk_load()
    x = (data.images / 16.0).astype(np.float32)[..., None]  # (1797, 8, 8, 1) in [0, 1]
    y = data.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    x, y = x[order], y[order]
    n_test = len(x) // 5
    return x[n_test:], y[n_test:], x[:n_test], y[:n_test]


def cross_entropy(logits: Any, labels: Any) -> Any:
    logp = nn.log_softmax(logits.astype(jnp.float32))  # the loss in float32
    return -jnp.mean(jnp.sum(nn.one_hot(labels, 10) * logp, axis=-1))


def bf16_casts(jaxpr: Any) -> list[str]:
    """``convert_element_type`` equations between bfloat16 and float32, counted per source line
    (the layers' explicit casts of parameters and inputs, the loss's cast back, the gradients)."""
    counts: dict[tuple[str, str], int] = {}
    for eqn in jaxpr.eqns:
        if eqn.primitive.name != "convert_element_type":
            continue
        pair = {str(eqn.invars[0].aval.dtype), str(eqn.outvars[0].aval.dtype)}
        if pair != {"bfloat16", "float32"}:
            continue
        where = (eqn.source or "?").rsplit("/", 1)[-1]
        arrow = f"{eqn.invars[0].aval.dtype} -> {eqn.outvars[0].aval.dtype}"
        counts[(where, arrow)] = counts.get((where, arrow), 0) + 1
    return [f"{where:36s} {n:2d} x {arrow}" for (where, arrow), n in counts.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--plot", default="digits_training.png")
    args = parser.parse_args()
    from tqdm import tqdm

    x_train, y_train, x_test, y_test = load_digits()
    model = CNN()
    params = model.init(random.PRNGKey(0), jnp.asarray(x_train[:1]))["params"]
    opt = optim.adam(args.lr)
    opt_state = opt.init(params)

    def loss_fn(params: Any, x: Any, y: Any) -> Any:
        return cross_entropy(model.apply({"params": params}, x), y)

    def train_step(params: Any, opt_state: Any, x: Any, y: Any) -> Any:
        loss, grads = trellax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optim.apply_updates(params, updates), opt_state, loss

    step = trellax.jit(train_step)
    predict = trellax.jit(lambda params, x: jnp.argmax(model.apply({"params": params}, x), -1))

    n_params = sum(int(np.prod(p.shape)) for p in trellax.tree_util.tree_leaves(params))
    print(
        f"\nTraining a CNN ({n_params} float32 parameters, bfloat16 compute) on "
        f"{len(x_train)} digits, testing on {len(x_test)}."
    )
    rng = np.random.default_rng(1)
    history: list[tuple[float, float]] = []
    start = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(x_train))
        batches = range(0, len(order) - args.batch + 1, args.batch)
        losses = []
        bar = tqdm(batches, desc=f"epoch {epoch:2d}", unit="step", leave=False)
        for i in bar:
            idx = order[i : i + args.batch]
            params, opt_state, loss = step(
                params, opt_state, jnp.asarray(x_train[idx]), jnp.asarray(y_train[idx])
            )
            losses.append(float(loss))
            bar.set_postfix(loss=f"{losses[-1]:.3f}")
        acc = float(np.mean(np.asarray(predict(params, jnp.asarray(x_test))) == y_test))
        history.append((float(np.mean(losses)), acc))
        print(f"epoch {epoch:2d}  loss {history[-1][0]:.4f}  held-out accuracy {acc:.2%}")
    elapsed = time.perf_counter() - start
    print(f"\nheld-out accuracy {history[-1][1]:.2%} after {elapsed:.1f} s of training")

    # Where bfloat16 meets float32: implicit promotions (none: every layer casts its float32
    # parameters to its bfloat16 dtype explicitly, Flax's rule) and the explicit casts.
    sample = (params, opt_state, jnp.asarray(x_train[:8]), jnp.asarray(y_train[:8]))
    report = trellax.explain_promotions(train_step, *sample)
    text = str(report)  # "No implicit promotions in train_step(<26 argument types>)." or a list
    print("\n" + (text if len(report) else text.split(" in train_step(")[0]))
    print("Explicit casts between bfloat16 and float32 in the jitted training step:")
    for line in bf16_casts(trellax.make_jaxpr(train_step)(*sample).jaxpr):
        print("  " + line)

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax1 = plt.subplots(figsize=(6, 3.5))
    epochs = range(1, len(history) + 1)
    ax1.plot(epochs, [h[0] for h in history], "o-", color="tab:blue", label="training loss")
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("loss", color="tab:blue")
    ax2 = ax1.twinx()
    ax2.plot(epochs, [h[1] for h in history], "s-", color="tab:green", label="held-out accuracy")
    ax2.set_ylabel("accuracy", color="tab:green")
    fig.suptitle("trellax CNN on 8x8 digits (bf16 compute, f32 params)")
    fig.tight_layout()
    fig.savefig(args.plot, dpi=120)
    print(f"\nwrote {args.plot}")


if __name__ == "__main__":
    main()
