"""Out of core: a 1 GiB bfloat16 array (a .npy memmap, then a zarr store) through workers of
256 MiB each (512 MiB in all). A reduction and a vmap over it give exact results, and no worker
comes near Dask's spill or pause thresholds: chunks are read inside tasks and dropped after, so it
is not Dask's spilling that makes it fit.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import dask
import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
pytest.importorskip("zarr")
psutil = pytest.importorskip("psutil")

import trellax.dask as tdask  # noqa: E402
import trellax.numpy as jnp  # noqa: E402

LIMIT = 256 * 2**20
ROWS, COLS = 2**22, 128  # bfloat16: 1 GiB
CHUNK = 2**14  # rows: 4 MiB per chunk
BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        memory_limit=LIMIT,
    )
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def _rss() -> int:
    return int(psutil.Process().memory_info().rss)


class _MemoryWatch:
    """Polls every worker's resident memory while a computation runs."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.stop.is_set():
            try:
                rss = self.client.run(_rss)
                self.peak = max(self.peak, *rss.values())
            except Exception:  # a worker between tasks may not answer: poll again
                pass
            self.stop.wait(0.5)

    def __enter__(self) -> _MemoryWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


def _write_pattern(path: Any) -> None:
    """x[i, j] = (i + j) % 4 as bfloat16, stored as uint16 (a 4-row tile, written in blocks)."""
    mm = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint16, shape=(ROWS, COLS))
    tile = ((np.arange(4)[:, None] + np.arange(COLS)) % 4).astype(BF16).view(np.uint16)
    step = 2**18
    block = np.tile(tile, (step // 4, 1))
    for r0 in range(0, ROWS, step):
        mm[r0 : r0 + step] = block
    mm.flush()
    del mm


def _items_on_disk(dask_worker: Any) -> int:
    slow = getattr(dask_worker.data, "slow", None)
    return 0 if slow is None else len(slow)


def test_a_gibibyte_through_half_a_gibibyte_of_workers(client: Any, tmp_path: Any) -> None:
    path = tmp_path / "big.npy"
    _write_pattern(path)
    x = tdask.from_npy(path, chunks=CHUNK, dtype=jnp.bfloat16)
    assert x.nbytes == 2**30 > 2 * LIMIT
    column_sums = tdask.jit(lambda a: a.astype(jnp.float32).sum(axis=0))
    per_row = tdask.vmap(lambda r: (r.astype(jnp.float32) * 2).sum() + r[1])
    with _MemoryWatch(client) as watch:
        sums = column_sums(x).compute()
        tdask.to_zarr(per_row(x), tmp_path / "rows.zarr")
        tdask.to_zarr(x, tmp_path / "big.zarr", zarr_kwargs={"compressors": None})
        z = tdask.from_zarr(tmp_path / "big.zarr", chunks=CHUNK)
        zsums = column_sums(z).compute()
    # every column holds each of 0..3 ROWS/4 times: 6 * 2**20, exact in float32 partials
    np.testing.assert_array_equal(np.asarray(sums), np.full(COLS, 6 * 2**20, np.float32))
    np.testing.assert_array_equal(np.asarray(zsums), np.asarray(sums))
    rows = tdask.from_zarr(tmp_path / "rows.zarr").compute()
    assert rows.dtype == np.float32
    # row i holds 32 of each of 0..3: 2 * 192 = 384, plus x[i, 1] = (i + 1) % 4
    want = (384 + (np.arange(ROWS) + 1) % 4).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(rows), want)
    spill_fraction = float(dask.config.get("distributed.worker.memory.spill"))
    assert watch.peak < spill_fraction * LIMIT, (watch.peak / 2**20, "MiB")
    assert sum(client.run(_items_on_disk).values()) == 0
    logs = client.get_worker_logs()
    for lines in logs.values():
        for _, line in lines:
            for alarm in ("Pausing worker", "Memory use is high", "memory use is high"):
                assert alarm not in line, line
