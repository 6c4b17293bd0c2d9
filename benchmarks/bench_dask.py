"""trellax.dask: overhead per task, out-of-core throughput against plain dask.array + NumPy, and
scaling from one worker process to two.

Run alone with ``python benchmarks/bench_dask.py [--mib N]`` (default 256 MiB of bfloat16 on
disk) or through ``make bench``. Needs the ``dask`` extra; skipped without it. Workers are local
processes bound to 127.0.0.1, started and stopped here.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from typing import Any

import numpy as np


def _cluster(n: int) -> Any:
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=n, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    )
    return Client(cluster), cluster


def _best(fn: Any, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _write(path: str, rows: int, cols: int) -> None:
    import ml_dtypes

    mm = np.lib.format.open_memmap(path, mode="w+", dtype=np.uint16, shape=(rows, cols))
    rng = np.random.default_rng(0)
    step = 2**16
    block = rng.normal(size=(step, cols)).astype(ml_dtypes.bfloat16).view(np.uint16)
    for r0 in range(0, rows, step):
        mm[r0 : r0 + step] = block[: min(step, rows - r0)]
    mm.flush()
    del mm


def main(mib: int = 256) -> None:
    try:
        import dask.array as da  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        print("bench_dask: skipped (install trellax[dask])")
        return
    import trellax.dask as tdask
    import trellax.numpy as jnp

    cols = 256
    rows = mib * 2**20 // (2 * cols)
    chunk = 2**13  # rows: 4 MiB of bfloat16
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.npy")
        _write(path, rows, cols)
        mb = rows * cols * 2 / 1e6
        column_sums = tdask.jit(lambda a: a.astype(jnp.float32).sum(axis=0))
        for n in (1, 2):
            client, cluster = _cluster(n)
            try:
                x = tdask.from_npy(path, chunks=chunk, dtype=jnp.bfloat16)
                column_sums(x[:16]).compute()  # workers import trellax once
                # overhead per task: 256 one-row chunks of an elementwise program
                small = tdask.from_array(np.ones((256, 4), np.float32), chunks=1)
                inc = tdask.jit(lambda a: a + 1)
                t_small = _best(lambda: inc(small).compute())  # noqa: B023
                plain_small = small.dask.map_blocks(lambda b: b + np.float32(1))
                t_plain_small = _best(lambda: plain_small.compute())  # noqa: B023
                t_tdask = _best(lambda: column_sums(x).compute(), repeat=2)  # noqa: B023
                plain = x.dask.map_blocks(lambda b: b.astype(np.float32), dtype=np.float32)
                t_plain = _best(lambda: plain.sum(axis=0).compute(), repeat=2)  # noqa: B023
            finally:
                client.close()
                cluster.close()
            print(
                f"dask {n} worker(s): per task {t_small / 256 * 1e3:.2f} ms "
                f"(plain dask.array {t_plain_small / 256 * 1e3:.2f} ms); "
                f"column sums of {mb:.0f} MB bf16 from .npy: trellax.dask {mb / t_tdask:.0f} MB/s, "
                f"dask.array+NumPy {mb / t_plain:.0f} MB/s (ratio {t_tdask / t_plain:.2f})"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, default=256, help="size of the array on disk")
    main(parser.parse_args().mib)
