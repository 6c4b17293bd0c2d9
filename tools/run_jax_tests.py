"""Runs JAX's own test files with ``jax`` resolved to trellax, and compares with real JAX.

JAX's tests (``tests/<name>.py`` of JAX 0.10.2) are taken from a checkout or a bare mirror of
JAX's repository (``--jax-repo``; the files are read at the tag ``jax-v0.10.2``). Each file runs
in its own pytest process through ``tools/jax_tests/shim.py`` (``jax`` -> trellax, internal
modules -> stand-ins, ``jax._src.test_util`` -> ``tools/jax_tests/jtu.py``). The pass list of
real JAX on each file is data, ``tests/golden/peer/jax/<file>.json`` (key ``jax_passes``), written
by ``--reference`` run with JAX installed (and no shim); ``--record`` adds trellax's side under the
key ``trellax``. One data file per test file keeps parallel work on different files apart. Usage::

    python tools/run_jax_tests.py --jax-repo /path/to/jax [--files tree_util_test ...]
    /path/to/jax-venv/bin/python tools/run_jax_tests.py --jax-repo /path/to/jax --reference

The report gives, per file, the tests real JAX passes and how many of those pass on trellax;
``--out results.json`` writes each test's outcome (``passed``/``failed``/``skipped``) and the
first line of its error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden" / "peer" / "jax"
#: The files with a recorded pass list (the default selection): one JSON file each.
FILES = tuple(sorted(p.stem for p in GOLDEN_DIR.glob("*.json")))
TAG = "jax-v0.10.2"
#: How a skip message starts for a test out of scope (``jtu``'s counters use it too).
OUT_OF_SCOPE_MARK = "out of scope for trellax:"


#: JAX's test-support modules some test files import (NumPy reference implementations of the
#: lax operations, the tables of operations the lax tests sweep): read from JAX's repository at
#: the tag, like the test files, into ``<dest>/_jax_support/<module>.py`` (see ``shim.py``).
SUPPORT = {
    "jax._src.lax_reference": "jax/_src/lax_reference.py",
    "jax._src.internal_test_util.lax_test_util": "jax/_src/internal_test_util/lax_test_util.py",
}


def _show(repo: Path, path: str) -> str:
    """One file of JAX's repository at the tag (a checkout's work tree when not a git dir)."""
    if (repo / path).exists() and not (repo / ".git").exists():
        return (repo / path).read_text()
    git = ["git", "--git-dir", str(repo / ".git" if (repo / ".git").exists() else repo)]
    return subprocess.run(
        [*git, "show", f"{TAG}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def extract(repo: Path, names: list[str], dest: Path) -> None:
    """Writes ``tests/<name>.py`` of the tagged version of JAX into ``dest`` (and the
    test-support modules of ``SUPPORT`` into ``dest/_jax_support``)."""
    (dest / "_jax_support").mkdir(exist_ok=True)
    for module, path in SUPPORT.items():
        (dest / "_jax_support" / f"{module}.py").write_text(_show(repo, path))
    for name in names:
        (dest / f"{name}.py").write_text(_show(repo, f"tests/{name}.py"))


class _SkipOutOfScope:
    """A pytest plugin: the tests of ``tools/jax_tests/out_of_scope.py`` are skipped."""

    def __init__(self, file: str) -> None:
        self.file = file

    def pytest_collection_modifyitems(self, items: list[Any]) -> None:
        import pytest
        from jax_tests.out_of_scope import reason

        for item in items:
            why = reason(self.file, f"{item.cls.__name__ if item.cls else ''}.{item.name}")
            if why is not None:
                item.add_marker(pytest.mark.skip(reason=f"{OUT_OF_SCOPE_MARK} {why}"))


def one(path: str, junit: str, reference: bool) -> int:
    """In the child process: install the shim (unless ``reference``) and run pytest."""
    import pytest

    plugins: list[Any] = []
    if not reference:
        sys.path.insert(0, str(ROOT / "tools"))
        from jax_tests import jtu, shim

        shim.install(jtu)
        plugins.append(_SkipOutOfScope(Path(path).stem))
    args = [path, "-v", "-p", "no:cacheprovider", f"--junitxml={junit}", "-o", "addopts="]
    if os.environ.get("TRELLAX_JAX_TESTS_K"):  # ``-k`` of the parent: a subset of the tests
        args += ["-k", os.environ["TRELLAX_JAX_TESTS_K"]]
    return int(pytest.main(args, plugins=plugins))


def outcomes(junit: Path) -> dict[str, tuple[str, str]]:
    """``{Class.test: (outcome, first line of the message)}`` from a JUnit XML report."""
    result: dict[str, tuple[str, str]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname', '').rpartition('.')[2]}.{case.get('name')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", (child.get("message") or "").split("\n")[0]
                break
            if child.tag == "skipped":
                outcome, message = "skipped", (child.get("message") or "").split("\n")[0]
        result[name] = (outcome, message[:300])
    return result


# a test name may hold spaces (``test_dtype_beta_<class 'numpy.float16'>``)
_VERBOSE_LINE = re.compile(r"^\S+?::(\w+)::(.+?) (PASSED|FAILED|ERROR|SKIPPED)(?: |$)")


def outcomes_from_log(log: Path) -> dict[str, tuple[str, str]]:
    """Outcomes from pytest's ``-v`` output (for a run cut short, which writes no JUnit file)."""
    result: dict[str, tuple[str, str]] = {}
    for line in log.read_text(errors="replace").splitlines():
        m = _VERBOSE_LINE.match(line)
        if m:
            kind = {"PASSED": "passed", "SKIPPED": "skipped"}.get(m.group(3), "failed")
            result[f"{m.group(1)}.{m.group(2)}"] = (kind, "")
    return result


def _out_of_scope(file: str, test: str) -> bool:
    sys.path.insert(0, str(ROOT / "tools"))
    from jax_tests.out_of_scope import reason

    return reason(file, test) is not None


def run_file(
    src: Path, name: str, reference: bool, timeout: float, logs: Path
) -> dict[str, tuple[str, str]]:
    """Runs one test file in a child process; its ``-v`` log and JUnit XML go to ``logs``."""
    junit = logs / f"{name}.xml"
    log = logs / f"{name}.log"
    junit.unlink(missing_ok=True)
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, __file__, "--one", str(src / f"{name}.py"), "--junit", str(junit)]
    if reference:
        cmd.append("--reference")
    with log.open("w") as out:
        try:
            subprocess.run(cmd, cwd=src, env=env, timeout=timeout, stdout=out, stderr=out)
        except subprocess.TimeoutExpired:
            print(f"{name}: timed out after {timeout:.0f} s (partial results)", file=sys.stderr)
    if junit.exists():
        return outcomes(junit)
    return outcomes_from_log(log)


def _num_cases() -> int:
    """How many cases JAX's ``sample_product`` draws per test (the names depend on it)."""
    return int(os.environ.get("JAX_NUM_GENERATED_CASES", "10"))


def golden_path(name: str) -> Path:
    """The pass-list file of one JAX test file."""
    return GOLDEN_DIR / f"{name}.json"


def load_golden(name: str) -> dict[str, Any]:
    """One test file's pass lists (empty when JAX's side was never recorded)."""
    path = golden_path(name)
    return dict(json.loads(path.read_text())) if path.exists() else {}


def save_golden(name: str, data: dict[str, Any]) -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    golden_path(name).write_text(json.dumps(data, indent=1) + "\n")


def record(results: dict[str, dict[str, tuple[str, str]]]) -> None:
    """Writes trellax's side into each file's pass list: the commit measured, the tests that
    pass and those skipped as out of scope."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    for name, res in results.items():
        data = load_golden(name)
        data["trellax"] = {
            "commit": commit,
            "passes": sorted(t for t, (o, _) in res.items() if o == "passed"),
            "out_of_scope": sorted(
                t for t, (_, m) in res.items() if m.startswith(OUT_OF_SCOPE_MARK)
            ),
        }
        save_golden(name, data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jax-repo", type=Path, help="a JAX checkout or bare mirror")
    parser.add_argument("--src", type=Path, help="a folder already holding the test files")
    parser.add_argument("--files", nargs="*", default=list(FILES))
    parser.add_argument("--reference", action="store_true", help="run real JAX; write golden")
    parser.add_argument("--out", type=Path, help="write every test's outcome here (JSON)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="per file, seconds")
    parser.add_argument(
        "--logs",
        type=Path,
        default=Path(tempfile.gettempdir()) / "trellax_jax_tests",
        help="where each file's pytest log and JUnit XML go",
    )
    parser.add_argument(
        "--reference-junit",
        type=Path,
        help="with --reference: read JAX's outcomes from <dir>/ref_<file>.xml (made by pytest "
        "--junitxml on the same files) instead of running them",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="also write trellax's passes and the tests out of scope, per file, into the "
        "pass-list file (key 'trellax')",
    )
    parser.add_argument("-k", help="only the tests pytest's -k expression selects")
    parser.add_argument(
        "--trellax-junit",
        type=Path,
        help="read trellax's outcomes from <dir>/<file>*.xml (JUnit reports of runs of parts "
        "of a file, e.g. in parallel processes, joined) instead of running the files",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--junit", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        sys.exit(one(args.one, args.junit, args.reference))
    if args.k:
        os.environ["TRELLAX_JAX_TESTS_K"] = args.k
    with tempfile.TemporaryDirectory() as tmp:
        src = args.src or Path(tmp)
        if args.src is None:
            if args.jax_repo is None:
                parser.error("give --jax-repo (or --src)")
            extract(args.jax_repo, args.files, src)
        if args.trellax_junit is not None:
            results = {}
            for n in args.files:
                joined: dict[str, tuple[str, str]] = {}
                for xml in sorted(args.trellax_junit.glob(f"{n}*.xml")):
                    joined.update(outcomes(xml))
                results[n] = joined
        elif args.reference_junit is not None:
            results = {}
            for n in args.files:
                xml = args.reference_junit / f"ref_{n}.xml"
                log = args.reference_junit / f"ref_{n}.log"
                found = outcomes(xml) if xml.exists() else {}
                results[n] = found or outcomes_from_log(log)  # a run cut short: its -v log
        else:
            args.logs.mkdir(parents=True, exist_ok=True)
            results = {
                n: run_file(src, n, args.reference, args.timeout, args.logs) for n in args.files
            }
    if args.reference:
        for name, res in results.items():
            data = load_golden(name)
            data["jax_version"] = TAG
            data["jax_passes"] = sorted(t for t, (o, _) in res.items() if o == "passed")
            data["num_generated_cases"] = _num_cases()
            save_golden(name, data)
            print(f"{name}: JAX passes {len(data['jax_passes'])} of {len(res)}")
        return
    total_ok = total = 0
    for name, res in results.items():
        golden = load_golden(name)
        if "jax_passes" in golden and golden.get("num_generated_cases", 10) != _num_cases():
            print(
                f"{name}: JAX's side ran with JAX_NUM_GENERATED_CASES="
                f"{golden.get('num_generated_cases', 10)}, this run with {_num_cases()}: set the same",
                file=sys.stderr,
            )
        jax_passes = set(golden.get("jax_passes", ()))
        out = {t for t in jax_passes if res.get(t, ("", ""))[1].startswith(OUT_OF_SCOPE_MARK)}
        # a file that does not even import (no outcomes) still has its out-of-scope tests
        out |= {t for t in jax_passes if t not in res and _out_of_scope(name, t)}
        in_scope = jax_passes - out
        if args.k:  # a subset was run: the tests JAX passes among those
            in_scope &= set(res)
        ok = sum(1 for t in in_scope if res.get(t, ("missing", ""))[0] == "passed")
        total_ok, total = total_ok + ok, total + len(in_scope)
        rate = 100.0 * ok / max(len(in_scope), 1)
        print(
            f"{name}: {ok} / {len(in_scope)} of JAX's passing tests in scope pass ({rate:.1f} %)"
            f"; {len(out)} of JAX's {len(jax_passes)} skipped as out of scope"
        )
    print(f"all: {total_ok} / {total} ({100.0 * total_ok / max(total, 1):.1f} %)")
    if args.record:
        record(results)
    if args.out:
        args.out.write_text(json.dumps({n: r for n, r in results.items()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
