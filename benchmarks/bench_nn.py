"""``trellax.nn``/``trellax.optim``: a jitted training step and a convolution forward pass.

Cases:

* ``CNN step``: the demo's network (examples/train_digits.py: two 3x3 convolutions, max-pool,
  two dense layers; bf16 compute, f32 params) plus Adam, on a batch of 64 8x8 images;
* ``MLP step``: Dense(256)-relu-Dense(256)-relu-Dense(10) in float32 with Adam, batch 128 of 784;
* ``Conv forward``: ``nn.Conv(16, (3, 3))`` on a float32 batch of 32x32x16 (8 images);
* ``CNN init``, ``CNN apply``, ``Adam update`` (eager, no jit): the module system's and the
  optimizer's own cost around the same operations.

NumPy's OpenBLAS threads matter here: the products are small, and on a busy machine two BLAS
threads made the CNN step about ten times slower than one (docs/nn.md, "Performance"); set
``OPENBLAS_NUM_THREADS=1`` to compare single-threaded.

Columns: ``trellax`` (``trellax.jit``, the baseline), ``flax`` (the same model in Flax + optax
under ``jax.jit``, results blocked on) and ``torch`` (PyTorch eager on CPU: forward, backward and
``torch.optim.Adam``; the CNN in float32, as CPU autocast to bf16 is not comparable) when those
are installed -- run with a JAX venv's Python and ``PYTHONPATH`` at the repository to include
Flax. Ratios are ``library / trellax``. Targets (issue 13): the CNN step within 2x of PyTorch's
eager step, the Conv forward within 2x of PyTorch's ``conv2d``. Run alone with
``python benchmarks/run.py nn``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from _harness import Row, best_time, optional_import, print_table

import trellax
import trellax.nn as tnn
import trellax.numpy as tnp
import trellax.optim as toptim
import trellax.random as trandom

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

RNG = np.random.default_rng(0)
CNN_X = RNG.random((64, 8, 8, 1), np.float32)
CNN_Y = RNG.integers(0, 10, 64).astype(np.int32)
MLP_X = RNG.random((128, 784), np.float32)
MLP_Y = RNG.integers(0, 10, 128).astype(np.int32)
CONV_X = RNG.random((8, 32, 32, 16), np.float32)


def _time(fn: Callable[[], object] | None) -> float | None:
    if fn is None:
        return None
    fn()
    return best_time(fn, repeat=3, min_time=0.5)


def _model_step(nn: Any, jnp: Any, optim: Any, jit: Any, vg: Any, model: Any, params: Any) -> Any:
    opt = optim.adam(1e-3)
    state = opt.init(params)

    def loss(p: Any, x: Any, y: Any) -> Any:
        logits = model.apply({"params": p}, x).astype(jnp.float32)
        return -jnp.mean(jnp.sum(nn.one_hot(y, 10) * nn.log_softmax(logits), -1))

    @jit
    def step(p: Any, s: Any, x: Any, y: Any) -> Any:
        value, g = vg(loss)(p, x, y)
        u, s = opt.update(g, s, p)
        return optim.apply_updates(p, u), s, value

    return step, state


def _models(nn: Any, jnp: Any) -> tuple[Any, Any, Any]:
    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            x = nn.relu(nn.Conv(16, (3, 3), dtype=jnp.bfloat16)(x))
            x = nn.max_pool(x, (2, 2), strides=(2, 2))
            x = nn.relu(nn.Conv(32, (3, 3), dtype=jnp.bfloat16)(x))
            x = x.reshape((x.shape[0], -1))
            x = nn.relu(nn.Dense(64, dtype=jnp.bfloat16)(x))
            return nn.Dense(10, dtype=jnp.bfloat16)(x)

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            x = nn.relu(nn.Dense(256)(x))
            x = nn.relu(nn.Dense(256)(x))
            return nn.Dense(10)(x)

    return CNN(), MLP(), nn.Conv(16, (3, 3))


def _library(
    nn: Any, jnp: Any, optim: Any, jit: Any, vg: Any, key: Any, block: Any
) -> dict[str, Any]:
    cnn, mlp, conv = _models(nn, jnp)
    out: dict[str, Any] = {}
    for name, model, x, y in (("CNN step", cnn, CNN_X, CNN_Y), ("MLP step", mlp, MLP_X, MLP_Y)):
        xa, ya = jnp.asarray(x), jnp.asarray(y)
        params = model.init(key, xa)["params"]
        step, state = _model_step(nn, jnp, optim, jit, vg, model, params)
        out[name] = lambda step=step, p=params, s=state, xa=xa, ya=ya: block(step(p, s, xa, ya))
    cx = jnp.asarray(CONV_X)
    cvars = conv.init(key, cx)
    fwd = jit(conv.apply)
    out["Conv forward 32x32x16"] = lambda: block(fwd(cvars, cx))
    # the module machinery and the optimizer without jit (every op dispatched eagerly)
    xa = jnp.asarray(CNN_X)
    params = cnn.init(key, xa)["params"]
    opt = optim.adam(1e-3)
    state = opt.init(params)
    out["CNN init (eager)"] = lambda: block(cnn.init(key, xa))
    out["CNN apply (eager)"] = lambda: block(cnn.apply({"params": params}, xa))
    out["Adam update (eager, CNN params)"] = lambda: block(opt.update(params, state, params))
    return out


def _torch_cases(torch: Any) -> dict[str, Any]:
    nnt = torch.nn
    torch.manual_seed(0)
    cnn = nnt.Sequential(
        nnt.Conv2d(1, 16, 3, padding=1), nnt.ReLU(), nnt.MaxPool2d(2),
        nnt.Conv2d(16, 32, 3, padding=1), nnt.ReLU(), nnt.Flatten(),
        nnt.Linear(512, 64), nnt.ReLU(), nnt.Linear(64, 10),
    )  # fmt: skip
    mlp = nnt.Sequential(
        nnt.Linear(784, 256), nnt.ReLU(), nnt.Linear(256, 256), nnt.ReLU(), nnt.Linear(256, 10)
    )
    out: dict[str, Any] = {}
    for name, model, x, y in (
        ("CNN step", cnn, torch.from_numpy(CNN_X).permute(0, 3, 1, 2).contiguous(), CNN_Y),
        ("MLP step", mlp, torch.from_numpy(MLP_X), MLP_Y),
    ):
        opt = torch.optim.Adam(model.parameters(), 1e-3)
        yt = torch.from_numpy(y).long()

        def step(model: Any = model, opt: Any = opt, x: Any = x, yt: Any = yt) -> None:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), yt).backward()
            opt.step()

        out[name] = step
    conv = nnt.Conv2d(16, 16, 3, padding=1)
    cx = torch.from_numpy(CONV_X).permute(0, 3, 1, 2).contiguous()

    def fwd() -> None:
        with torch.no_grad():
            conv(cx)

    out["Conv forward 32x32x16"] = fwd
    return out


def main() -> None:
    libs: dict[str, dict[str, Any]] = {
        "trellax": _library(
            tnn, tnp, toptim, trellax.jit, trellax.value_and_grad, trandom.PRNGKey(0), lambda r: r
        )
    }
    jax, flax_nn, optax = (optional_import(m) for m in ("jax", "flax.linen", "optax"))
    if jax is not None and flax_nn is not None and optax is not None:
        libs["flax"] = _library(
            flax_nn, jax.numpy, optax, jax.jit, jax.value_and_grad, jax.random.PRNGKey(0),
            jax.block_until_ready,
        )  # fmt: skip
    torch = optional_import("torch")
    if torch is not None:
        torch.set_num_threads(2)
        libs["torch"] = _torch_cases(torch)
    rows = [
        Row(case, {lib: _time(cases.get(case)) for lib, cases in libs.items()})
        for case in libs["trellax"]
    ]
    print_table("nn: jitted training steps and a convolution (per call)", rows, baseline="trellax")


if __name__ == "__main__":
    main()
