"""Runs every ``benchmarks/bench_*.py`` module's ``main()`` in one process (``make bench``)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys


def main() -> None:
    here = pathlib.Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    only = set(sys.argv[1:])
    for path in sorted(here.glob("bench_*.py")):
        if only and path.stem not in only and path.stem.removeprefix("bench_") not in only:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"\n# {path.name}")
        module.main()


if __name__ == "__main__":
    main()
