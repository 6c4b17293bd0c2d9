"""trellax.dask on a LocalCluster of two worker processes: dtypes, weak flags and bits equal to
one-process trellax (elementwise, vmap, random, max/min/argmax/any/all), the accumulation contract
of sums, shard_map's data-parallel gradient, I/O round trips, errors, and a worker killed mid-run.
"""

from __future__ import annotations

import os
import signal
import time
import warnings
from collections.abc import Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pytest.importorskip("zarr")

import trellax  # noqa: E402
import trellax.dask as tdask  # noqa: E402
import trellax.numpy as jnp  # noqa: E402
from trellax import lax  # noqa: E402
from trellax.sharding import PartitionSpec as P  # noqa: E402

DTYPES = [
    np.dtype(np.float32),
    np.dtype(ml_dtypes.bfloat16),
    np.dtype(np.float16),
    np.dtype(np.int8),
    np.dtype(ml_dtypes.float8_e4m3fn),
]
IDS = [d.name for d in DTYPES]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
    )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def _data(d: np.dtype[Any], shape: tuple[int, ...], seed: int = 0) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    if d.kind == "i":
        return rng.integers(-100, 100, size=shape).astype(d)
    return (rng.normal(size=shape) * 3).astype(d)


def _bits(x: Any) -> np.ndarray[Any, Any]:
    v = np.asarray(x)
    return np.ascontiguousarray(v).view(np.uint8)


def _same(a: Any, b: Any) -> None:
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.weak_type == b.weak_type, (a.weak_type, b.weak_type)
    assert a.shape == b.shape
    np.testing.assert_array_equal(_bits(a), _bits(b))


def _elementwise(x: Any) -> Any:
    if x.dtype == np.int8:
        return (x * 3 + 1.5, x // 7, jnp.abs(x), x > 0)
    return (x * 2 + 1.5, jnp.tanh(x.astype(jnp.float32)), jnp.exp(x) - x, x > 0)


@pytest.mark.parametrize("d", DTYPES, ids=IDS)
def test_elementwise_bits_dtypes_and_weak_flags(client: Any, d: np.dtype[Any]) -> None:
    x = _data(d, (103, 5))
    want = _elementwise(jnp.asarray(x))
    for chunks in (17, 103):
        got = tdask.compute(*tdask.jit(_elementwise)(tdask.from_array(x, chunks=chunks)))
        for g, w in zip(got, want):
            _same(g, w)


def test_operators_keep_trellax_dtypes(client: Any) -> None:
    x = tdask.from_array(np.arange(10, dtype=np.int8), chunks=3)
    y = x + 1.5
    assert (y.dtype, y.weak_type) == (np.dtype(np.float32), True)  # Dask alone gives float64
    _same(y.compute(), jnp.arange(10, dtype=jnp.int8) + 1.5)
    _same((2 * x).compute(), 2 * jnp.arange(10, dtype=jnp.int8))
    _same((-x)[2:7].compute(), (-jnp.arange(10, dtype=jnp.int8))[2:7])


@pytest.mark.parametrize("d", DTYPES, ids=IDS)
def test_exact_reductions(client: Any, d: np.dtype[Any]) -> None:
    x = _data(d, (203, 4), seed=1)
    x[50, 1] = x[150, 1] = x.max()  # a tie: argmax gives the first index, as one process
    want = _exact(jnp.asarray(x))
    got = tdask.compute(*tdask.jit(_exact)(tdask.from_array(x, chunks=40)))
    for g, w in zip(got, want):
        _same(g, w)


def _exact(x: Any) -> Any:
    return (x.max(axis=0), x.min(axis=0), jnp.argmax(x, axis=0), jnp.argmin(x, axis=0),
            jnp.any(x > 2, axis=0), jnp.all(x > -5, axis=0), x.max())  # fmt: skip


@pytest.mark.parametrize("d", DTYPES, ids=IDS)
def test_sums_within_the_accumulation_contract(client: Any, d: np.dtype[Any]) -> None:
    x = _data(d, (501, 3), seed=2)
    f = lambda x: (x.sum(axis=0), jnp.mean(x.astype(jnp.float32), axis=0))  # noqa: E731
    want = f(jnp.asarray(x))
    lazy = tdask.jit(f)(tdask.from_array(x, chunks=60))
    got = tdask.compute(*lazy)
    again = tdask.compute(*tdask.jit(f)(tdask.from_array(x, chunks=60)))
    n_chunks = 9
    for g, w, a in zip(got, want, again):
        assert (g.dtype, g.weak_type, g.shape) == (w.dtype, w.weak_type, w.shape)
        np.testing.assert_array_equal(_bits(g), _bits(a))  # same chunking: same bits
        if np.dtype(g.dtype).kind in "iu":
            np.testing.assert_array_equal(_bits(g), _bits(w))  # integer sums wrap exactly
            continue
        # |tdask - one process| <= n * eps(float32) * sum|x| (per term of a mean: / N) plus one
        # rounding to the output dtype (docs/dask.md, "Accumulation contract")
        out = np.asarray(g).astype(np.float64)
        ref = np.asarray(w).astype(np.float64)
        is_mean = g.dtype == np.float32 and w is want[1]
        abs_sum = np.abs(x.astype(np.float64)).sum(axis=0) / (len(x) if is_mean else 1)
        out_eps = float(ml_dtypes.finfo(g.dtype).eps)
        bound = n_chunks * float(np.finfo(np.float32).eps) * abs_sum + out_eps * np.abs(ref)
        assert np.all(np.abs(out - ref) <= bound), (out, ref, bound)


def test_bf16_sum_of_ones_is_exact_in_float32_partials(client: Any) -> None:
    ones = np.ones(65536, ml_dtypes.bfloat16)
    got = tdask.jit(jnp.sum)(tdask.from_array(ones, chunks=4096)).compute()
    _same(got, jnp.sum(jnp.asarray(ones)))  # 65536, not bfloat16's running-sum 256 or 4096
    assert float(got) == 65536.0


@pytest.mark.parametrize("d", DTYPES, ids=IDS)
def test_vmap_rows_are_bit_identical(client: Any, d: np.dtype[Any]) -> None:
    x = _data(d, (97, 6), seed=3)
    w = jnp.asarray(_data(np.dtype(np.float32), (6, 3), seed=4))

    def per_row(r: Any, w: Any) -> Any:
        h = r.astype(jnp.float32) @ w
        return jnp.tanh(h).sum() * 0.5, h.astype(r.dtype)

    want = trellax.vmap(per_row, in_axes=(0, None))(jnp.asarray(x), w)
    for chunks in (10, 33):
        got = tdask.vmap(per_row, in_axes=(0, None))(tdask.from_array(x, chunks=chunks), w)
        for g, v in zip(tdask.compute(*got), want):
            _same(g, v)


@pytest.mark.parametrize("d", ["float32", "bfloat16", "float16"])
def test_random_draws_are_bit_identical(client: Any, d: str) -> None:
    key = trellax.random.key(7)
    dt = jnp.dtype(d)
    cases = [
        ("normal", ((1000, 3), dt)),
        ("uniform", ((999,), dt, -2.0, 3.0)),
        ("exponential", ((700, 2), dt)),
    ]
    for name, args in cases:
        want = getattr(trellax.random, name)(key, *args)
        for chunks in (101, 256):
            got = getattr(tdask.random, name)(key, *args, chunks=chunks)
            assert len(got.chunks[0]) > 1
            _same(got.compute(), want)
    _same(tdask.random.bits(key, (5000,), chunks=999).compute(), trellax.random.bits(key, (5000,)))
    _same(
        tdask.random.bernoulli(key, 0.3, (800,), chunks=99).compute(),
        trellax.random.bernoulli(key, 0.3, (800,)),
    )


def test_shard_map_gradient_step_equals_full_batch(client: Any) -> None:
    rng = np.random.default_rng(5)
    data = rng.normal(size=(256, 5)).astype(np.float32)
    params = {"w": jnp.asarray(rng.normal(size=(4,)).astype(np.float32)), "b": jnp.float32(0.5)}

    def loss(p: Any, d: Any) -> Any:
        pred = d[:, :4] @ p["w"] + p["b"]
        return jnp.mean((pred - d[:, 4]) ** 2)

    def step(p: Any, d: Any) -> Any:
        value, grads = trellax.value_and_grad(loss)(p, d)
        return lax.pmean(value, "batch"), lax.pmean(grads, "batch")

    mesh = tdask.Mesh(("batch",))
    sharded = tdask.shard_map(step, mesh=mesh, in_specs=(P(), P("batch")), out_specs=(P(), P()))
    lazy_loss, lazy_grads = sharded(params, tdask.from_array(data, chunks=64))
    got_loss, got_grads = tdask.compute(lazy_loss, lazy_grads)
    want_loss, want_grads = trellax.value_and_grad(loss)(params, jnp.asarray(data))
    assert got_loss.dtype == want_loss.dtype and got_loss.shape == ()
    np.testing.assert_allclose(np.asarray(got_loss), np.asarray(want_loss), rtol=1e-5)
    for k in ("w", "b"):
        assert got_grads[k].dtype == want_grads[k].dtype
        np.testing.assert_allclose(np.asarray(got_grads[k]), np.asarray(want_grads[k]), rtol=1e-5)
    # max/min collectives are exact; a collective in the middle splits the program in stages
    x = tdask.from_array(data, chunks=32)
    top = tdask.shard_map(
        lambda d: (lax.pmax(d.max(), "batch"), lax.pmin(d.min(), "batch")),
        mesh=mesh,
        in_specs=P("batch"),
        out_specs=(P(), P()),
    )(x)
    assert [float(v) for v in tdask.compute(*top)] == [data.max(), data.min()]
    centered = tdask.shard_map(
        lambda d: d - lax.pmean(d.mean(0), "batch"), mesh=mesh, in_specs=P("batch"),
        out_specs=P("batch"),
    )(x)  # fmt: skip
    np.testing.assert_allclose(np.asarray(centered.compute()), data - data.mean(0), atol=1e-5)
    gathered = tdask.shard_map(
        lambda d: lax.all_gather(d.sum(0), "batch"), mesh=mesh, in_specs=P("batch"),
        out_specs=P(),
    )(x)  # fmt: skip
    want = data.reshape(8, 32, 5).sum(1)
    np.testing.assert_allclose(np.asarray(gathered.compute()), want, rtol=1e-5)


def test_shard_map_uneven_chunks_say_how_to_rechunk(client: Any) -> None:
    x = tdask.from_array(np.zeros((100, 2), np.float32), chunks=30)
    mesh = tdask.Mesh("batch")
    f = tdask.shard_map(lambda d: d, mesh=mesh, in_specs=P("batch"), out_specs=P("batch"))
    with pytest.raises(ValueError, match=r"equal chunks.*rechunk\(25\)"):
        f(x)


def test_npy_and_zarr_round_trips_keep_bits(client: Any, tmp_path: Any) -> None:
    for d in (np.dtype(ml_dtypes.bfloat16), np.dtype(ml_dtypes.float8_e4m3fn), np.dtype("f4")):
        x = _data(d, (300, 4), seed=6)
        lazy = tdask.from_array(x, chunks=64)
        tdask.to_npy(lazy, tmp_path / f"{d.name}.npy")
        stored = np.load(tmp_path / f"{d.name}.npy")
        assert stored.dtype.kind in "uf" and stored.dtype.itemsize == d.itemsize
        back = tdask.from_npy(tmp_path / f"{d.name}.npy", chunks=50, dtype=d)
        _same(back.compute(), jnp.asarray(x))
        tdask.to_zarr(lazy, tmp_path / f"{d.name}.zarr")
        z = tdask.from_zarr(tmp_path / f"{d.name}.zarr")
        assert z.dtype == d  # recorded in the store's attributes
        _same(z.compute(), jnp.asarray(x))


def test_npy_reader_validates(tmp_path: Any) -> None:
    np.save(tmp_path / "x.npy", np.zeros((10, 2), np.float32))
    with pytest.raises(ValueError, match="same size"):
        tdask.from_npy(tmp_path / "x.npy", chunks=5, dtype=jnp.bfloat16)
    np.save(tmp_path / "o.npy", np.array([object()], dtype=object))
    with pytest.raises(ValueError, match="object arrays"):
        tdask.from_npy(tmp_path / "o.npy")
    raw = (tmp_path / "x.npy").read_bytes()
    (tmp_path / "short.npy").write_bytes(raw[:-8])
    with pytest.raises(ValueError, match="header promises"):
        tdask.from_npy(tmp_path / "short.npy")


def test_errors_reach_the_caller_with_trellax_messages(client: Any) -> None:
    x = tdask.from_array(np.ones((20, 3), np.float32), chunks=5)
    bad = lambda a: a @ jnp.ones((4, 2))  # noqa: E731
    with pytest.raises(TypeError) as one_process:
        bad(jnp.ones((20, 3)))
    with pytest.raises(TypeError) as on_dask:
        tdask.jit(bad)(x)
    assert str(on_dask.value) == str(one_process.value)

    def fail(v: Any) -> Any:
        raise ValueError("boom from a chunk")

    def f(a: Any) -> Any:
        return trellax.pure_callback(fail, trellax.ShapeDtypeStruct(a.shape, a.dtype), a) * 2

    with pytest.warns(tdask.ChunkingWarning, match="pure_callback"):
        lazy = tdask.jit(f)(x)
    with pytest.raises(ValueError, match="boom from a chunk"):
        lazy.compute()


def test_non_local_primitive_warns_and_is_still_right(client: Any) -> None:
    x = np.random.default_rng(8).normal(size=(40,)).astype(np.float32)
    with pytest.warns(tdask.ChunkingWarning, match="'sort'.*MiB"):
        lazy = tdask.jit(jnp.sort)(tdask.from_array(x, chunks=10))
    _same(lazy.compute(), jnp.sort(jnp.asarray(x)))


def test_worker_killed_mid_run_gives_the_same_bits(client: Any) -> None:
    key = trellax.random.key(11)
    draw = tdask.random.normal(key, (24, 200_000), jnp.bfloat16, chunks=1)

    def slow(r: Any) -> Any:
        def nap(v: Any) -> Any:
            time.sleep(0.15)
            return v

        out = trellax.ShapeDtypeStruct(r.shape, r.dtype)
        r = trellax.pure_callback(nap, out, r, vmap_method="expand_dims")
        return jnp.tanh(r.astype(jnp.float32)).sum()

    sums = tdask.vmap(slow)(draw)
    future = client.compute(sums.dask)
    deadline = time.monotonic() + 60
    while not any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    pids = client.run(os.getpid)
    victim = next(iter(pids.values()))
    os.kill(victim, signal.SIGKILL)
    got = np.asarray(future.result(timeout=120))
    want = trellax.vmap(lambda r: jnp.tanh(r.astype(jnp.float32)).sum())(
        trellax.random.normal(key, (24, 200_000), jnp.bfloat16)
    )
    np.testing.assert_array_equal(got.view(np.uint8), np.asarray(want).view(np.uint8))


def test_without_a_client_the_threaded_scheduler_runs_it() -> None:
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = tdask.jit(lambda a: (a * 2).sum(0))(tdask.from_array(x, chunks=2))
    import dask

    with dask.config.set(scheduler="threads"):
        _same(got.compute(), (jnp.asarray(x) * 2).sum(0))
