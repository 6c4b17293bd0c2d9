"""Runs one of Flax's examples (copied unchanged into ``upstream/<name>/``; see README.md) for a
few steps on synthetic data and prints its numbers as JSON on stdout.

    python tests/flax_examples/run_example.py mnist            # under JAX and Flax
    python -m trellax run tests/flax_examples/run_example.py mnist   # on trellax, unchanged

The examples read their data through TensorFlow Datasets and log through TensorBoard/CLU; those
modules are replaced here by small stand-ins (the data are NumPy arrays drawn from a fixed seed,
the same under both runs, and the writers keep the scalars they are given). The examples' sizes
come from their configs, shrunk here. Everything else (models, train steps, optimizers, rng
use) is the examples' own code. ``tools/gen_golden_flax_examples.py`` records the numbers under
Flax; ``tests/test_flax_examples.py`` compares trellax's.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import json
import random as pyrandom
import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import jax_utils
from flax import linen as nn
from flax.training import train_state

UPSTREAM = Path(__file__).resolve().parent / "upstream"
SCALARS: list[tuple[str, int, float]] = []  # what the examples' writers were given


# -- stand-ins for the modules the examples load data and log with -----------------------------


class ConfigDict(dict):  # type: ignore[type-arg]
    """``ml_collections.ConfigDict``'s attribute access (the configs only set and read)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


class _Writer:
    """TensorBoard's and CLU's writers: keep every scalar."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def scalar(self, tag: str, value: Any, step: int) -> None:
        SCALARS.append((tag, int(step), float(value)))

    def write_scalars(self, step: int, scalars: dict[str, Any]) -> None:
        for tag, value in scalars.items():
            SCALARS.append((tag, int(step), float(value)))

    def hparams(self, *args: Any) -> None:
        pass

    def flush(self) -> None:
        pass


def _module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, module)
    return module


class _Split:
    def __init__(self, n: int) -> None:
        self.num_examples = n


class _Builder:
    """``tfds.builder(name)``: the splits of a synthetic data set."""

    def __init__(self, data: dict[str, dict[str, np.ndarray]]) -> None:
        self.data = data
        n = {k: len(next(iter(v.values()))) for k, v in data.items()}
        self.info = types.SimpleNamespace(splits={k: _Split(v) for k, v in n.items()})

    def download_and_prepare(self) -> None:
        pass

    def as_dataset(self, split: str, batch_size: int = -1) -> dict[str, np.ndarray]:
        return {k: v.copy() for k, v in self.data[split].items()}


DATASETS: dict[str, _Builder] = {}


def install_stand_ins() -> None:
    try:
        importlib.import_module("ml_collections")
    except ImportError:
        _module("ml_collections", ConfigDict=ConfigDict)
    importlib.import_module("flax.io")  # (Flax's looks for TensorFlow's gfile once, at import)
    _module(
        "tensorflow",
        io=types.SimpleNamespace(gfile=types.SimpleNamespace(makedirs=lambda path: None)),
        data=types.SimpleNamespace(Dataset=object),
        float16="float16",
        bfloat16="bfloat16",
        float32="float32",
    )
    _module(
        "tensorflow_datasets",
        builder=lambda name: DATASETS[name],
        as_numpy=lambda x: x,
        Split=types.SimpleNamespace(TRAIN="train", TEST="test"),
    )
    _module("clu")
    _module(
        "clu.metric_writers", create_default_writer=lambda *a, **k: _Writer(), MetricWriter=_Writer
    )
    _module("clu.periodic_actions")
    importlib.import_module("flax")
    try:
        importlib.import_module("flax.metrics")
    except ImportError:
        _module("flax.metrics")
    _module("flax.metrics.tensorboard", SummaryWriter=_Writer)


def load(example: str, *names: str) -> list[types.ModuleType]:
    """Imports the example's modules (``models``, ``train``, ...) from its directory."""
    folder = UPSTREAM / example
    for path in folder.glob("*.py"):
        sys.modules.pop(path.stem, None)
    sys.path.insert(0, str(folder))
    try:
        return [importlib.import_module(n) for n in names]
    finally:
        sys.path.remove(str(folder))


# -- what is recorded ------------------------------------------------------------------------


def tree_summary(tree: Any) -> dict[str, Any]:
    """Parameter paths with their shapes and sums, and the total count."""

    flat = jax.tree_util.tree_flatten_with_path(tree)[0]
    out: dict[str, Any] = {}
    count = 0
    for path, leaf in flat:
        a = np.asarray(leaf, dtype=np.float64)
        out[jax.tree_util.keystr(path)] = [list(a.shape), float(a.sum()), float(np.abs(a).sum())]
        count += a.size
    return {"leaves": out, "count": count}


def floats(tree: Any) -> Any:

    return jax.tree_util.tree_map(lambda x: float(np.asarray(x)), tree)


# -- the examples ----------------------------------------------------------------------------


def mnist() -> dict[str, Any]:
    (train, default) = load("mnist", "train", "default")
    rs = np.random.RandomState(0)
    DATASETS["mnist"] = _Builder(
        {
            split: {
                "image": rs.randint(0, 256, (n, 28, 28, 1)).astype(np.uint8),
                "label": rs.randint(0, 10, (n,)).astype(np.int64),
            }
            for split, n in (("train", 48), ("test", 16))
        }
    )
    config = default.get_config()
    config.batch_size = 16
    config.num_epochs = 2
    state = train.train_and_evaluate(config, tempfile.mkdtemp())
    return {"scalars": list(SCALARS), "params": tree_summary(state.params)}


def vae() -> dict[str, Any]:
    rs = np.random.RandomState(0)
    data = {
        s: rs.randint(0, 2, (n, 784)).astype(np.float32) for s, n in (("train", 32), ("test", 16))
    }
    # the example's input pipeline (TensorFlow) and image writer (PIL), replaced
    _module("input_pipeline")
    _module("utils", save_image=lambda *a, **k: None)
    (train, models, default) = load("vae", "train", "models", "default")

    config = default.get_config()
    config.latents = 4
    config.batch_size = 8
    # train_and_evaluate's set-up and loop, with the batches taken from `data`
    rng = jax.random.key(0)
    rng, key = jax.random.split(rng)
    init_data = jnp.ones((config.batch_size, 784), jnp.float32)
    params = models.model(config.latents).init(key, init_data, rng)["params"]
    state = train_state.TrainState.create(
        apply_fn=models.model(config.latents).apply,
        params=params,
        tx=optax.adam(config.learning_rate),
    )
    rng, z_key, eval_rng = jax.random.split(rng, 3)
    z = jax.random.normal(z_key, (64, config.latents))
    out: dict[str, Any] = {"init": tree_summary(params), "eval": []}
    for _epoch in range(2):
        for i in range(4):
            batch = data["train"][i * 8 : (i + 1) * 8]
            rng, key = jax.random.split(rng)
            state = train.train_step(state, batch, key, config.latents)
        metrics, comparison, sample = train.eval_f(
            state.params, data["test"], z, eval_rng, config.latents
        )
        out["eval"].append(
            {
                **floats(metrics),
                "comparison": float(comparison.sum()),
                "sample": float(sample.sum()),
            }
        )
    out["params"] = tree_summary(state.params)
    return out


def seq2seq() -> dict[str, Any]:
    (train,) = load("seq2seq", "train")
    argv = ["seq2seq", "--hidden_size=16", "--batch_size=8", "--num_train_steps=4"]
    argv += ["--decode_frequency=1", "--max_len_query_digit=2"]
    train.FLAGS(argv)
    pyrandom.seed(0)  # the example draws its additions with Python's random
    state = train.train_and_evaluate(tempfile.mkdtemp())
    return {"scalars": list(SCALARS), "params": tree_summary(state.params)}


def sst2() -> dict[str, Any]:
    _module("input_pipeline")  # TensorFlow Text's vocabulary and buckets, replaced
    (train, default) = load("sst2", "train", "default")

    config = default.get_config()
    config.embedding_size = 8
    config.hidden_size = 8
    config.vocab_size = 20
    config.output_size = 1
    rs = np.random.RandomState(0)
    lengths = rs.randint(2, 7, (6,)).astype(np.int32)
    tokens = rs.randint(2, 20, (6, 6)).astype(np.int32) * (np.arange(6) < lengths[:, None])
    labels = rs.randint(0, 2, (6,)).astype(np.float32)
    model = train.model_from_config(config)
    rng = jax.random.key(config.seed)
    rng, init_rng = jax.random.split(rng)
    state = train.create_train_state(init_rng, config, model)
    out: dict[str, Any] = {"init": tree_summary(state.params), "steps": []}
    rngs = {"dropout": jax.random.key(1)}
    for i in range(3):
        batch = {"token_ids": tokens[2 * i : 2 * i + 2], "length": lengths[2 * i : 2 * i + 2]}
        batch["label"] = labels[2 * i : 2 * i + 2]
        state, metrics = train.train_step(state, batch, rngs)
        out["steps"].append(floats(dict(metrics.__dict__)))
    batch = {"token_ids": tokens, "length": lengths, "label": labels}
    out["eval"] = floats(dict(train.eval_step(state, batch, rngs).__dict__))
    out["params"] = tree_summary(state.params)
    return out


def resnet() -> dict[str, Any]:
    _module("input_pipeline")
    try:
        importlib.import_module("orbax.checkpoint")
    except ImportError:  # (imported by the example, used only to save checkpoints)
        _module("orbax")
        _module("orbax.checkpoint")
    (train, models, default) = load("imagenet", "train", "models", "default")

    config = default.get_config()
    config.model = "_ResNet1"
    config.num_epochs = 1.0
    config.warmup_epochs = 0.5
    config.batch_size = 4
    model_cls = functools.partial(models._ResNet1, num_filters=4)
    model = train.create_model(model_cls=model_cls, half_precision=False)
    lr_fn = train.create_learning_rate_fn(config, config.learning_rate, steps_per_epoch=4)
    state = train.create_train_state(jax.random.key(0), config, model, 16, lr_fn)
    out: dict[str, Any] = {
        "init": tree_summary(state.params),
        "batch_stats": tree_summary(state.batch_stats),
    }
    state = jax_utils.replicate(state)
    p_train_step = jax.pmap(
        functools.partial(train.train_step, learning_rate_fn=lr_fn), axis_name="batch"
    )
    rs = np.random.RandomState(0)
    out["steps"] = []
    for _ in range(3):
        batch = {
            "image": rs.standard_normal((1, 4, 16, 16, 3)).astype(np.float32),
            "label": rs.randint(0, 1000, (1, 4)).astype(np.int32),
        }
        state, metrics = p_train_step(state, batch)
        out["steps"].append(floats(jax.tree_util.tree_map(lambda x: x[0], metrics)))
    state = jax_utils.unreplicate(state)
    out["params"] = tree_summary(state.params)
    out["batch_stats_after"] = tree_summary(state.batch_stats)
    return out


def lm1b() -> dict[str, Any]:
    _module("input_pipeline")
    (train, models) = load("lm1b", "train", "models")

    # train_and_evaluate's configuration (lm1b/configs/default.py's fields), at toy size
    config = models.TransformerConfig(
        vocab_size=32,
        output_vocab_size=32,
        logits_via_embedding=False,
        dtype=jnp.float32,
        emb_dim=16,
        num_heads=2,
        num_layers=2,
        qkv_dim=16,
        mlp_dim=32,
        max_len=16,
        dropout_rate=0.1,
        attention_dropout_rate=0.1,
        deterministic=False,
        decode=False,
        kernel_init=nn.initializers.xavier_uniform(),
        bias_init=nn.initializers.normal(stddev=1e-6),
    )
    _, init_rng = jax.random.split(jax.random.PRNGKey(0))
    learning_rate_fn = train.create_learning_rate_schedule(learning_rate=0.0016, warmup_steps=2)
    optimizer = optax.adamw(learning_rate_fn, b1=0.9, b2=0.98, eps=1e-9, weight_decay=0.1)
    model = models.TransformerLM(config.replace(deterministic=True))
    variables = model.init(init_rng, jnp.ones((2, 8), jnp.int32))
    params = nn.unbox(variables["params"])
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optimizer)
    out: dict[str, Any] = {"init": tree_summary(params), "steps": []}
    rs = np.random.RandomState(0)
    dropout_rng = jax.random.key(1)
    step = jax.jit(train.train_step, static_argnums=(2, 3))
    for _ in range(3):
        batch = {"inputs": rs.randint(0, 32, (2, 8)).astype(np.int32)}
        state, metrics = step(state, batch, config, learning_rate_fn, 0.0, dropout_rng)
        out["steps"].append(floats(metrics))
    out["params"] = tree_summary(state.params)
    return out


EXAMPLES: dict[str, Callable[[], dict[str, Any]]] = {
    "mnist": mnist,
    "vae": vae,
    "seq2seq": seq2seq,
    "sst2": sst2,
    "resnet": resnet,
    "lm1b": lm1b,
}


def main() -> None:
    install_stand_ins()
    name = sys.argv[1]
    result = EXAMPLES[name]()
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
