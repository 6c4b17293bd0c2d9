"""Differential probe of integers, casts and indexing: trellax against JAX 0.10.2.

    .venv/bin/python tools/probe_int_cast_index.py [PREFIX] [--list] [--regen] [--x64|--x32]

Runs every program of ``tests/probe_int_cases.py`` on trellax and compares it with JAX's outcome
(dtype, weak flag, shape, bits with NaN payloads ignored and the sign of zero kept, error class,
warning classes). JAX's outcomes come from ``tests/golden/probe_int{,_x64}.json`` or, with
``--regen``, from a fresh run of ``tools/gen_golden_probe_int.py`` under ``/tmp/jaxref/bin/python``
(exchanged through a JSON file in /tmp). The 64-bit half runs in a child process with
``TRELLAX_ENABLE_X64=1`` (JAX's side sets ``jax_enable_x64``). Prints the number of programs,
differences by class and by area; ``--list`` prints each differing program.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
JAX_PY = os.environ.get("JAX_PY", "/tmp/jaxref/bin/python")


def _golden(x64: bool, regen: bool) -> dict[str, object]:
    name = "probe_int_x64.json" if x64 else "probe_int.json"
    path = ROOT / "tests" / "golden" / name
    if regen:
        path = pathlib.Path("/tmp") / f"probe_int_regen_{os.getpid()}_{name}"
        cmd = [JAX_PY, str(ROOT / "tools" / "gen_golden_probe_int.py"), "--out", str(path)]
        subprocess.run(cmd + (["--x64"] if x64 else []), check=True)
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def _one(x64: bool, argv: list[str]) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    from probe_int_cases import CLASSES, PROGRAMS, classify, names, run

    import trellax

    assert trellax.config.read("jax_enable_x64") == x64
    args = [a for a in argv if not a.startswith("--")]
    prefix = args[0] if args else ""
    golden = _golden(x64, "--regen" in argv)
    env = names(trellax)
    by_class: collections.Counter[str] = collections.Counter()
    by_area: collections.Counter[tuple[str, str]] = collections.Counter()
    n = 0
    missing = 0
    for name, src in PROGRAMS.items():
        if not name.startswith(prefix):
            continue
        if name not in golden:  # a partial golden file (an interrupted generator run)
            missing += 1
            continue
        n += 1
        cls = classify(run(src, env), golden[name])
        if cls is not None:
            by_class[cls] += 1
            by_area[(name.split("/")[0], cls)] += 1
            if "--list" in argv:
                print(f"{cls:12} {name}")
    print(
        f"x64={x64}: {n} programs, {sum(by_class.values())} differ ({missing} without JAX's answer)"
    )
    for c in CLASSES:
        if by_class[c]:
            print(f"  {c:12} {by_class[c]}")
    for (area, c), k in sorted(by_area.items()):
        print(f"  {area:16} {c:12} {k}")


def main() -> None:
    argv = sys.argv[1:]
    if "--child" in argv:
        _one(os.environ.get("TRELLAX_ENABLE_X64") == "1", argv)
        return
    modes = [
        m for m in (False, True) if not (("--x64" in argv and not m) or ("--x32" in argv and m))
    ]
    for x64 in modes:
        env = dict(os.environ, TRELLAX_ENABLE_X64="1" if x64 else "0")
        subprocess.run([sys.executable, __file__, "--child", *argv], env=env, check=True)


if __name__ == "__main__":
    main()
