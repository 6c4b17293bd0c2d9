"""trellax.dask is optional: ``import trellax`` (and its public modules) never imports Dask, and
without Dask installed ``import trellax.dask`` fails with an ImportError naming the extra."""

from __future__ import annotations

import subprocess
import sys

_BLOCK_DASK = (
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('dask', 'distributed', 'zarr'):\n"
    "            raise ImportError(f'No module named {name!r} (blocked by the test)')\n"
    "sys.meta_path.insert(0, Block())\n"
)


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _BLOCK_DASK + code], capture_output=True, text=True, timeout=300
    )


def test_import_trellax_works_without_dask() -> None:
    out = _run(
        "import trellax, trellax.numpy, trellax.random, trellax.nn, trellax.sharding\n"
        "assert not any(m.split('.')[0] in ('dask', 'distributed', 'zarr') for m in sys.modules)\n"
        "print(trellax.numpy.ones(2) + 1)\n"
    )
    assert out.returncode == 0, out.stderr
    assert "[2. 2.]" in out.stdout


def test_import_trellax_dask_without_dask_names_the_extra() -> None:
    out = _run("import trellax.dask\n")
    assert out.returncode != 0
    assert "ImportError" in out.stderr or "ModuleNotFoundError" in out.stderr
    assert "trellax[dask]" in out.stderr
