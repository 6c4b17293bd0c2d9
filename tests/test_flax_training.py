"""trellax.flax.training: TrainState, checkpoints (naming, keep, overwrite, atomic writes),
early stopping, common_utils and lr_schedule."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.nn as nn
import trellax.numpy as jnp
from trellax import optim, tree_util
from trellax._src.flax.training import common_utils as common_utils_impl
from trellax.flax import errors, jax_utils, serialization
from trellax.flax.core import freeze
from trellax.flax.training import (
    checkpoints,
    common_utils,
    dynamic_scale,
    early_stopping,
    lr_schedule,
    train_state,
)

# ----------------------------------------------------------------- TrainState


def make_state(tx: Any = None) -> train_state.TrainState:
    model = nn.Dense(2)
    variables = model.init(trellax.random.key(0), jnp.ones((1, 3)))
    return train_state.TrainState.create(
        apply_fn=model.apply, params=variables["params"], tx=tx or optim.sgd(0.1, momentum=0.9)
    )


def test_train_state_trains() -> None:
    state = make_state()
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 2))

    def loss(params: Any) -> Any:
        return jnp.mean((state.apply_fn({"params": params}, x) - y) ** 2)

    @trellax.jit
    def step(s: train_state.TrainState) -> train_state.TrainState:
        return s.apply_gradients(grads=trellax.grad(loss)(s.params))

    losses = []
    for _ in range(3):
        losses.append(float(loss(state.params)))
        state = step(state)
    assert int(state.step) == 3
    assert losses[2] < losses[1] < losses[0]
    leaves = tree_util.tree_leaves(state)
    assert len(leaves) == 1 + 2 + 2  # step, params, momentum trace


def test_train_state_matches_a_hand_written_sgd_step() -> None:
    state = make_state(optim.sgd(0.5))
    grads = tree_util.tree_map(jnp.ones_like, state.params)
    new = state.apply_gradients(grads=grads, apply_fn=None)
    assert new.apply_fn is None and new.step == 1
    for before, after in zip(
        tree_util.tree_leaves(state.params), tree_util.tree_leaves(new.params)
    ):
        assert jnp.allclose(after, before - 0.5)


def test_train_state_overwrite_with_gradient() -> None:
    params = {"params": {"w": jnp.ones(2)}, "_overwrite_with_gradient": {"scale": jnp.ones(1)}}
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optim.sgd(1.0))
    grads = {"params": {"w": jnp.ones(2)}, "_overwrite_with_gradient": {"scale": jnp.full(1, 7.0)}}
    new = state.apply_gradients(grads=grads)
    assert jnp.array_equal(new.params["params"]["w"], jnp.zeros(2))
    assert float(new.params["_overwrite_with_gradient"]["scale"][0]) == 7.0


def test_train_state_subclass_and_serialization() -> None:
    class WithStats(train_state.TrainState):
        batch_stats: Any = None

    state = WithStats.create(
        apply_fn=None,
        params={"w": jnp.ones(2)},
        tx=optim.adam(1e-3),
        batch_stats={"m": jnp.zeros(2)},
    )
    state_dict = serialization.to_state_dict(state)
    assert set(state_dict) == {"step", "params", "opt_state", "batch_stats"}
    restored = serialization.from_bytes(state, serialization.to_bytes(state.replace(step=5)))
    assert restored.step == 5 and restored.tx is state.tx


# ----------------------------------------------------------------- checkpoints


def obj(v: int) -> dict[str, Any]:
    return {"a": np.full(3, v, np.int32), "b": np.arange(3, dtype=np.float32) * v}


def check_eq(got: Any, want: Any) -> None:
    assert tree_util.tree_structure(got) == tree_util.tree_structure(want)
    for g, w in zip(tree_util.tree_leaves(got), tree_util.tree_leaves(want)):
        np.testing.assert_array_equal(g, w)


def test_save_restore_latest_and_keep(tmp_path: Path) -> None:
    assert checkpoints.restore_checkpoint(tmp_path, obj(0), prefix="test_") is not None
    check_eq(checkpoints.restore_checkpoint(tmp_path / "missing", obj(0)), obj(0))
    path = checkpoints.save_checkpoint(tmp_path, obj(1), 0, prefix="test_", keep=1)
    assert path == os.path.join(str(tmp_path), "test_0") and os.listdir(tmp_path) == ["test_0"]
    check_eq(checkpoints.restore_checkpoint(tmp_path, obj(0), prefix="test_"), obj(1))
    checkpoints.save_checkpoint(tmp_path, obj(1), 1, prefix="test_", keep=1)
    checkpoints.save_checkpoint(tmp_path, obj(2), 2, prefix="test_", keep=1)
    assert sorted(os.listdir(tmp_path)) == ["test_2"]
    checkpoints.save_checkpoint(tmp_path, obj(3), 3, prefix="test_", keep=2)
    checkpoints.save_checkpoint(tmp_path, obj(4), 4, prefix="test_", keep=2)
    assert sorted(os.listdir(tmp_path)) == ["test_3", "test_4"]
    check_eq(checkpoints.restore_checkpoint(tmp_path, obj(0), prefix="test_"), obj(4))
    check_eq(checkpoints.restore_checkpoint(tmp_path, obj(0), step=3, prefix="test_"), obj(3))
    check_eq(checkpoints.restore_checkpoint(tmp_path / "test_3", obj(0)), obj(3))
    check_eq(checkpoints.restore_checkpoint(tmp_path / "test_nope", obj(0)), obj(0))
    with pytest.raises(ValueError, match="Matching checkpoint not found"):
        checkpoints.restore_checkpoint(tmp_path, obj(0), step=5, prefix="test_")
    assert checkpoints.latest_checkpoint(tmp_path, "test_") == os.path.join(str(tmp_path), "test_4")
    assert checkpoints.available_steps(tmp_path, "test_") == [3, 4]


def test_overwrite(tmp_path: Path) -> None:
    checkpoints.save_checkpoint(tmp_path, obj(0), 0)
    with pytest.raises(errors.InvalidCheckpointError, match="outdated checkpoint"):
        checkpoints.save_checkpoint(tmp_path, obj(1), 0)
    checkpoints.save_checkpoint(tmp_path, obj(5), 5, keep=3)
    with pytest.raises(errors.InvalidCheckpointError):
        checkpoints.save_checkpoint(tmp_path, obj(2), 2, keep=3)
    checkpoints.save_checkpoint(tmp_path, obj(2), 2, keep=3, overwrite=True)  # removes step 5
    assert sorted(os.listdir(tmp_path)) == ["checkpoint_0", "checkpoint_2"]
    check_eq(checkpoints.restore_checkpoint(str(tmp_path) + "//", obj(0)), obj(2))


def test_keep_every_n_steps(tmp_path: Path) -> None:
    for step in range(17, 37, 5):  # 17, 22, 27, 32
        checkpoints.save_checkpoint(tmp_path, obj(step), step, keep=1, keep_every_n_steps=7)
    assert checkpoints.available_steps(tmp_path) == [17, 27, 32]


def test_float_steps_and_natural_sort(tmp_path: Path) -> None:
    checkpoints.save_checkpoint(tmp_path, obj(1), 0.0, prefix="test_")
    checkpoints.save_checkpoint(tmp_path, obj(2), 2.0, prefix="test_", keep=2)
    checkpoints.save_checkpoint(tmp_path, obj(3), 10.5, prefix="test_", keep=2)
    assert sorted(os.listdir(tmp_path)) == ["test_10.5", "test_2.0"]
    assert checkpoints.available_steps(tmp_path, "test_", step_type=float) == [2.0, 10.5]
    names = ["f_10", "f_2", "f_1e1", "f_-3.0", "f_0.1"]
    assert checkpoints.natural_sort(names) == ["f_-3.0", "f_0.1", "f_2", "f_10", "f_1e1"]
    assert checkpoints.safe_normpath("gs://a//b/./c") == "gs://a/b/c"


def test_target_none_singular_and_empty(tmp_path: Path) -> None:
    checkpoints.save_checkpoint(tmp_path, (np.zeros(2), np.ones(2)), 0)
    check_eq(
        checkpoints.restore_checkpoint(tmp_path, target=None), {"0": np.zeros(2), "1": np.ones(2)}
    )
    checkpoints.save_checkpoint(tmp_path, np.arange(3), 1)
    check_eq(checkpoints.restore_checkpoint(tmp_path, target=np.zeros(3)), np.arange(3))
    checkpoints.save_checkpoint(tmp_path, [], 2)
    assert checkpoints.restore_checkpoint(tmp_path, target=None) == {}
    assert checkpoints.restore_checkpoint(tmp_path, target=[]) == []


def test_complex_pytree_with_train_state(tmp_path: Path) -> None:
    state = make_state(optim.adam(1e-2))
    grads = tree_util.tree_map(jnp.ones_like, state.params)
    trained = state.apply_gradients(grads=grads)
    checkpoints.save_checkpoint(tmp_path, {"state": trained, "frozen": freeze({"x": 1})}, 1)
    restored = checkpoints.restore_checkpoint(
        tmp_path, {"state": state, "frozen": freeze({"x": 0})}
    )
    assert restored["state"].step == 1 and restored["frozen"]["x"] == 1
    for a, b in zip(tree_util.tree_leaves(restored["state"]), tree_util.tree_leaves(trained)):
        np.testing.assert_array_equal(a, b)


def test_a_crash_mid_write_leaves_the_previous_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoints.save_checkpoint(tmp_path, obj(1), 1)

    class Crash(Exception):
        pass

    real_replace = os.replace

    def crash_before_rename(src: str, dst: str) -> None:
        raise Crash("power cut")

    monkeypatch.setattr(os, "replace", crash_before_rename)
    with pytest.raises(Crash):
        checkpoints.save_checkpoint(tmp_path, {"a": np.zeros(10**5)}, 2)
    monkeypatch.setattr(os, "replace", real_replace)
    # The half-done save left only a temporary file, which readers ignore.
    assert sorted(os.listdir(tmp_path)) == ["checkpoint_1", "checkpoint_tmp"]
    assert checkpoints.latest_checkpoint(tmp_path) == os.path.join(str(tmp_path), "checkpoint_1")
    check_eq(checkpoints.restore_checkpoint(tmp_path, obj(0)), obj(1))
    # A truncated temporary file (a crash during the write itself) is ignored too.
    (tmp_path / "checkpoint_tmp").write_bytes(b"\x82\xa1a\xc7")
    check_eq(checkpoints.restore_checkpoint(tmp_path, obj(0)), obj(1))
    # The next save replaces it and proceeds normally.
    checkpoints.save_checkpoint(tmp_path, obj(3), 3)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint_3"]


def test_a_crash_while_serializing_writes_nothing(tmp_path: Path) -> None:
    checkpoints.save_checkpoint(tmp_path, obj(1), 1)
    with pytest.raises(ValueError, match="Object and structured"):
        checkpoints.save_checkpoint(tmp_path, {"a": np.array([object()])}, 2)
    assert os.listdir(tmp_path) == ["checkpoint_1"]


def test_async_manager(tmp_path: Path) -> None:
    manager = checkpoints.AsyncManager()
    checkpoints.save_checkpoint(tmp_path, obj(1), 1, async_manager=manager)
    checkpoints.save_checkpoint(tmp_path, obj(2), 2, async_manager=manager)
    manager.wait_previous_save()
    assert os.listdir(tmp_path) == ["checkpoint_2"]


def test_corrupted_checkpoint_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "checkpoint_1").write_bytes(b"\xdd\xff\xff\xff\xff")
    with pytest.raises(serialization.SerializedDataError):
        checkpoints.restore_checkpoint(tmp_path, obj(0))


def test_orbax_is_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / "checkpoint_1").mkdir()
    (tmp_path / "checkpoint_1" / "_METADATA").write_text("{}")
    with pytest.raises(NotImplementedError, match="Orbax"):
        checkpoints.restore_checkpoint(tmp_path, obj(0))
    with pytest.raises(NotImplementedError, match="Orbax"):
        checkpoints.save_checkpoint(tmp_path, obj(0), 2, orbax_checkpointer=object())
    with pytest.raises(NotImplementedError, match="local files"):
        checkpoints.save_checkpoint("gs://bucket/dir", obj(0), 2)


def test_convert_pre_linen() -> None:
    params = {
        "mod_0": {"submod1_0": {}, "submod2_1": {}, "submod1_2": {}},
        "mod2_2": {"submod2_2_0": {}},
        "mod2_11": {"submod2_11_0": {}},
        "mod2_1": {"submod2_1_0": {}},
    }
    assert checkpoints.convert_pre_linen(params) == {
        "mod_0": {"submod1_0": {}, "submod1_1": {}, "submod2_0": {}},
        "mod2_0": {"submod2_1_0": {}},
        "mod2_1": {"submod2_2_0": {}},
        "mod2_2": {"submod2_11_0": {}},
    }


# ----------------------------------------------------------------- the rest


def test_early_stopping() -> None:
    es = early_stopping.EarlyStopping(min_delta=0, patience=0)
    for round_ in range(2):
        no_improvement = 0
        for _ in range(10):
            es = es.update(1.0)
            if not es.has_improved:
                no_improvement += 1
            if es.should_stop:
                break
        assert no_improvement == 1, round_
        es = es.reset()
    es = early_stopping.EarlyStopping(min_delta=0.5, patience=1)
    for loss in [3.0, 2.8, 2.7, 2.6]:
        es = es.update(loss)
    assert es.best_metric == 3.0 and es.should_stop


def test_onehot_shard_and_metrics() -> None:
    hot = common_utils.onehot(jnp.array([[0, 2]]), 3, on_value=5.0, off_value=-1.0)
    assert hot.dtype == jnp.float32 and hot.shape == (1, 2, 3)
    assert hot.tolist() == [[[5.0, -1.0, -1.0], [-1.0, -1.0, 5.0]]]
    sharded = common_utils.shard({"x": jnp.arange(6).reshape(3, 2)})
    assert sharded["x"].shape == (1, 3, 2)
    keys = common_utils.shard_prng_key(trellax.random.key(0))
    assert keys.shape == (1,)
    steps = [{"loss": jnp.array([1.0])}, {"loss": jnp.array([3.0])}]
    metrics = common_utils.get_metrics(steps)
    assert metrics["loss"].tolist() == [1.0, 3.0]
    stacked = common_utils.stack_forest([{"a": jnp.ones(2)}, {"a": jnp.zeros(2)}])
    assert stacked["a"].shape == (2, 2)


def test_lr_schedules() -> None:
    constant = lr_schedule.create_constant_learning_rate_schedule(0.1, 10, warmup_length=1.0)
    assert float(constant(5)) == pytest.approx(0.05)
    assert float(constant(50)) == pytest.approx(0.1)
    stepped = lr_schedule.create_stepped_learning_rate_schedule(1.0, 10, [[1, 0.1], [2, 0.01]])
    assert [float(stepped(s)) for s in (5, 10, 15, 25)] == pytest.approx([1.0, 1.0, 0.1, 0.01])
    cosine = lr_schedule.create_cosine_learning_rate_schedule(1.0, 10, halfcos_epochs=2)
    assert float(cosine(0)) == pytest.approx(1.0)
    assert float(cosine(10)) == pytest.approx(0.5)
    assert float(cosine(20)) == pytest.approx(0.0, abs=1e-6)


def test_jax_utils_on_one_device() -> None:
    replicated = jax_utils.replicate({"w": jnp.ones(3), "n": np.zeros(2)})
    assert replicated["w"].shape == (1, 3) and replicated["n"].shape == (1, 2)
    assert jax_utils.unreplicate(replicated)["w"].shape == (3,)
    batches = list(jax_utils.prefetch_to_device(iter([{"a": jnp.ones((1, 2))}] * 3), 2))
    assert len(batches) == 3 and batches[0]["a"].shape == (1, 2)
    f = jax_utils.pad_shard_unpad(
        trellax.pmap(lambda p, x: x * p, in_axes=(None, 0)), static_argnums=(0,)
    )
    assert f(2.0, jnp.arange(5.0), min_device_batch=8).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]
    xs = jnp.arange(24.0).reshape(2, 3, 4)
    # Values from flax.jax_utils.scan_in_dim on JAX 0.10.2.
    carry, ys = jax_utils.scan_in_dim(
        lambda c, x: (c + x.sum(), x * 2), 0.0, xs, axis=(2, 1), keepdims=True
    )
    assert float(carry) == 276.0 and ys.shape == (2, 3, 4) and float(ys.sum()) == 552.0
    carry, ys = jax_utils.scan_in_dim(lambda c, x: (c + x.sum(), x * 2), 0.0, xs, axis=1)
    assert float(carry) == 276.0 and float(ys[0, 1, 2]) == 12.0


def test_dynamic_scale_matches_flax() -> None:
    # (finite, loss, grad, scale, fin_steps, loss dtype) per step, from Flax 0.12.8 on JAX 0.10.2.
    expected = [
        (False, float("nan"), float("inf"), 32768.0, 0, "float16"),
        (False, 1.0, float("inf"), 16384.0, 0, "float32"),
        (True, 1.0, 2.0, 16384.0, 1, "float32"),
        (True, 1.0390625, 2.0390625, 16384.0, 2, "float32"),
        (True, 1.08203125, 2.080078125, 16384.0, 3, "float32"),
        (True, 1.126953125, 2.123046875, 32768.0, 0, "float32"),
        (False, 1.1708984375, float("inf"), 16384.0, 0, "float32"),
        (True, 1.1708984375, 2.1640625, 16384.0, 1, "float32"),
    ]
    p = jnp.array(1.0, jnp.float32)
    ds = dynamic_scale.DynamicScale(growth_interval=3)
    f = trellax.jit(lambda ds, p: ds.value_and_grad(lambda q: jnp.asarray(q, jnp.float16) ** 2)(p))
    for want in expected:
        ds, finite, loss, grad = f(ds, p)
        p = p + jnp.where(finite, 0.01 * grad, 0.0)
        got = (bool(finite), float(loss), float(grad), float(ds.scale), int(ds.fin_steps))
        assert got == pytest.approx(want[:5], nan_ok=True)
        assert str(loss.dtype) == want[5] and grad.dtype == jnp.float32


def test_the_device_count_the_helpers_assume_is_trellax_s() -> None:
    assert trellax.local_device_count() == common_utils_impl.LOCAL_DEVICE_COUNT
