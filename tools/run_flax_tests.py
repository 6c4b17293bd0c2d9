"""Runs Flax's own test files against trellax (``jax``/``flax`` resolved by trellax.compat) and
against real Flax, and compares: of the tests that pass under Flax, how many pass on trellax.

    python tools/run_flax_tests.py \\
        --flax-python /tmp/fc_ref/bin/python --trellax-python /tmp/fc_harness/bin/python \\
        --json /tmp/flax_tests.json serialization_test.py struct_test.py traverse_util_test.py

The files are paths under Flax's ``tests/`` (``linen/linen_test.py`` works too), read from a git
copy of google/flax (``--flax-git``, default the ``fetch`` mirror) at ``--rev`` (default: tag
v0.12.8 if present, else the commit whose ``flax/version.py`` says 0.12.8). They are copied with
Flax's ``pyproject.toml`` (its pytest settings: warnings are errors, with Flax's exceptions) into
a scratch directory, and each file runs in its own ``python -m pytest`` subprocess per side:

- ``--flax-python``: a Python with flax 0.12.8, jax, optax, absl-py, msgpack and pytest;
- ``--trellax-python``: a Python with trellax, msgpack, pytest, absl-py, and optax/chex installed
  with ``--no-deps`` (they then run on trellax). Its pytest loads the plugin
  ``tools/flax_harness_plugin.py``, which calls ``trellax.compat.install()`` first.

``--flax-results FILE`` reuses a ``--json`` file of an earlier run for the Flax side (so the Flax
venv is needed once), and ``--trellax-results FILE`` (repeatable) the trellax side; ``tests/golden/flax/own_tests_under_flax.json`` holds it for serialization,
struct, traverse_util, configurations, early_stopping, jax_utils, checkpoints, io, cursor,
traceback_util, every ``core/`` file and the linen files of docs/nn.md's second table
(attention, combinators, dtypes, meta, activation, batch_apply, partitioning, summary,
initializers, kw_only_dataclasses). The table goes to stdout; ``--json`` keeps every test's outcome and the
first line of each trellax failure (docs/flax.md lists them with reasons). ``--only flax`` or
``--only trellax`` runs one side; ``--peer FILE`` writes both sides' pass lists of the files run
into FILE, keeping the other files it holds (``tests/golden/peer/flax_test_files.json``,
docs/nn.md's tables).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILES = ["serialization_test.py", "struct_test.py", "traverse_util_test.py"]
DEFAULT_GIT = Path("/work/.mirror/google+flax/repo")
DEFAULT_FLAX_RESULTS = ROOT / "tests" / "golden" / "flax" / "own_tests_under_flax.json"
FLAX_VERSION = "0.12.8"


def git(git_dir: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True, text=True
    ).stdout


def resolve_rev(git_dir: Path, rev: str | None) -> str:
    """The commit to read: ``rev``, else tag v0.12.8, else HEAD if it is version 0.12.8."""
    candidates = [rev] if rev else [f"v{FLAX_VERSION}", "HEAD"]
    for candidate in candidates:
        try:
            commit = git(git_dir, "rev-parse", "--verify", f"{candidate}^{{commit}}").strip()
        except subprocess.CalledProcessError:
            continue
        version = git(git_dir, "show", f"{commit}:flax/version.py")
        if rev or f"'{FLAX_VERSION}'" in version or f'"{FLAX_VERSION}"' in version:
            return commit
    raise SystemExit(f"no Flax {FLAX_VERSION} commit found in {git_dir} (pass --rev)")


def stage(git_dir: Path, commit: str, files: list[str], where: Path) -> None:
    """Writes Flax's test files (and its pytest settings) under ``where``."""
    (where / "pyproject.toml").write_text(git(git_dir, "show", f"{commit}:pyproject.toml"))
    for name in files:
        target = where / "tests" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(git(git_dir, "show", f"{commit}:tests/{name}"))


def run_side(
    python: str, files: list[str], where: Path, trellax: bool, timeout: float
) -> dict[str, dict[str, Any]]:
    """Runs each file with pytest; returns ``{test id: {"outcome", "message"}}``."""
    results: dict[str, dict[str, Any]] = {}
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONDONTWRITEBYTECODE="1")
    if trellax:
        # This checkout's trellax, and the plugin next to this script.
        paths = [str(ROOT), str(ROOT / "tools"), env.get("PYTHONPATH", "")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    for name in files:
        report = where / f"report_{'trellax' if trellax else 'flax'}_{name.replace('/', '_')}.xml"
        cmd = [python, "-m", "pytest", f"tests/{name}", "-q", "-p", "no:cacheprovider"]
        cmd += ["--junitxml", str(report), "-o", "junit_family=xunit1"]
        if trellax:
            cmd += ["-p", "flax_harness_plugin"]
        start = time.time()
        try:
            proc = subprocess.run(
                cmd, cwd=where, env=env, capture_output=True, text=True, timeout=timeout
            )
            lines = (proc.stdout + proc.stderr).strip().splitlines()
            # The last "E   ..." line says why a file failed to import; else pytest's summary.
            errors = [line[1:].strip() for line in lines if line.startswith("E   ")]
            tail = errors[-1:] or lines[-1:] or [""]
        except subprocess.TimeoutExpired:
            tail = [f"timed out after {timeout:.0f} s"]
        side = "trellax" if trellax else "flax"
        print(f"  [{side}] {name}: {tail[0]} ({time.time() - start:.0f} s)", file=sys.stderr)
        parsed = parse_junit(report, name) if report.exists() else {}
        if all(test_id.endswith("::") or "::::" in test_id for test_id in parsed):
            # Nothing ran: the file failed to import (or timed out). Say why once per test.
            parsed = {f"{name}::<file>": {"outcome": "error", "message": tail[0]}}
        results.update(parsed)
    return results


def parse_junit(report: Path, name: str) -> dict[str, dict[str, Any]]:
    results = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        cls = (case.get("classname") or "").rsplit(".", 1)[-1]
        test_id = f"{name}::{cls}::{case.get('name')}"
        outcome, message = "passed", ""
        for kind in ("failure", "error", "skipped"):
            node = case.find(kind)
            if node is not None:
                outcome = "skipped" if kind == "skipped" else "failed"
                text = node.get("message") or (node.text or "")
                message = text.strip().splitlines()[0][:300] if text.strip() else kind
                break
        results[test_id] = {"outcome": outcome, "message": message}
    return results


def compare(
    flax: dict[str, dict[str, Any]], trellax: dict[str, dict[str, Any]], files: list[str]
) -> dict[str, Any]:
    summary: dict[str, Any] = {"files": {}, "failures": {}}
    total_ref = total_ok = 0
    for name in files:
        ref = [t for t, r in flax.items() if t.startswith(f"{name}::") and r["outcome"] == "passed"]
        ok = [t for t in ref if trellax.get(t, {}).get("outcome") == "passed"]
        extra = [
            t
            for t, r in trellax.items()
            if t.startswith(f"{name}::") and r["outcome"] == "passed" and t not in ref
        ]
        summary["files"][name] = {
            "flax_passed": len(ref),
            "trellax_passed_of_those": len(ok),
            "trellax_passed_not_under_flax": len(extra),
        }
        file_error = trellax.get(f"{name}::<file>")
        for t in ref:
            if t not in ok:
                got = trellax.get(t) or file_error or {"outcome": "not run", "message": "not run"}
                summary["failures"][t] = f"{got['outcome']}: {got['message']}"
        total_ref += len(ref)
        total_ok += len(ok)
    summary["total"] = {"flax_passed": total_ref, "trellax_passed_of_those": total_ok}
    return summary


def print_table(summary: dict[str, Any]) -> None:
    print(f"{'file':40} {'Flax':>6} {'trellax':>8} {'rate':>7}")
    for name, row in summary["files"].items():
        ref, ok = row["flax_passed"], row["trellax_passed_of_those"]
        print(f"{name:40} {ref:6d} {ok:8d} {100 * ok / max(ref, 1):6.1f}%")
    ref, ok = summary["total"]["flax_passed"], summary["total"]["trellax_passed_of_those"]
    print(f"{'total':40} {ref:6d} {ok:8d} {100 * ok / max(ref, 1):6.1f}%")
    if summary["failures"]:
        print("\npass under Flax, not on trellax (grouped by the first line of the error):")
        groups: dict[str, list[str]] = {}
        for test_id, why in summary["failures"].items():
            groups.setdefault(why, []).append(test_id)
        for why, ids in sorted(groups.items(), key=lambda item: -len(item[1])):
            shown = ", ".join(ids[:4]) + (f", ... ({len(ids)} tests)" if len(ids) > 4 else "")
            print(f"  {why}\n      {shown}")


def write_peer(
    path: Path,
    commit: str,
    files: list[str],
    flax: dict[str, dict[str, Any]],
    trellax: dict[str, dict[str, Any]],
) -> None:
    """The harness measurement kept in the tree: per file, the tests that pass under Flax and
    those that pass on trellax, and why each test passing under Flax fails on trellax."""

    def passed(side: dict[str, dict[str, Any]], name: str) -> list[str]:
        return sorted(
            t.split("::", 1)[1]
            for t, r in side.items()
            if t.startswith(f"{name}::") and r["outcome"] == "passed"
        )

    data: dict[str, Any] = {
        "about": "tools/run_flax_tests.py --peer: Flax's test files at this commit of "
        f"google/flax, run under flax {FLAX_VERSION} and on trellax",
        "commit": commit,
        "files": {},
    }
    if path.exists():  # keep the files measured earlier (each run updates its own files)
        old = json.loads(path.read_text())
        if old.get("commit") == commit:
            data["files"].update(old.get("files", {}))
    for name in files:
        ref = passed(flax, name)
        ok = passed(trellax, name)
        data["files"][name] = {
            "flax_passed": ref,
            "trellax_passed": ok,
            "not_on_trellax": {
                t: (trellax.get(f"{name}::{t}") or {}).get("message", "not run")[:200]
                for t in ref
                if t not in ok
            },
        }
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", default=DEFAULT_FILES, help="paths under tests/")
    parser.add_argument("--flax-git", type=Path, default=DEFAULT_GIT)
    parser.add_argument("--rev", default=None)
    parser.add_argument("--flax-python", default=None)
    parser.add_argument("--flax-results", type=Path, default=None)
    parser.add_argument("--trellax-python", default=sys.executable)
    parser.add_argument(
        "--trellax-results",
        type=Path,
        action="append",
        default=None,
        help="reuse the trellax outcomes of --json files of earlier runs (later files win)",
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--peer",
        type=Path,
        default=None,
        help="write the pass lists of both sides (tests/golden/peer/flax_test_files.json)",
    )
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per file and side")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    parser.add_argument(
        "--only",
        choices=("flax", "trellax"),
        default=None,
        help="run one side only (keep its outcomes with --json; compare later with --flax-results)",
    )
    args = parser.parse_args()
    if args.flax_python is None and args.flax_results is None and args.only != "trellax":
        args.flax_results = DEFAULT_FLAX_RESULTS  # the Flax side recorded for this files

    commit = resolve_rev(args.flax_git, args.rev)
    where = Path(tempfile.mkdtemp(prefix="flax_tests_"))
    try:
        stage(args.flax_git, commit, args.files, where)
        if args.only == "trellax":
            flax: dict[str, dict[str, Any]] = {}
        elif args.flax_results is not None:
            flax = json.loads(args.flax_results.read_text())["flax"]
            unknown = [f for f in args.files if not any(t.startswith(f"{f}::") for t in flax)]
            if unknown:
                raise SystemExit(
                    f"{args.flax_results} has no Flax results for {unknown}: "
                    "pass --flax-python to run them under Flax"
                )
        else:
            flax = run_side(args.flax_python, args.files, where, False, args.timeout)
        if args.only == "flax":
            trellax: dict[str, dict[str, Any]] = {}
        elif args.trellax_results:
            trellax = {}
            for results in args.trellax_results:
                trellax.update(json.loads(results.read_text())["trellax"])
        else:
            trellax = run_side(args.trellax_python, args.files, where, True, args.timeout)
    finally:
        if args.keep:
            print(f"scratch directory: {where}", file=sys.stderr)
        else:
            shutil.rmtree(where, ignore_errors=True)
    summary = compare(flax, trellax, args.files)
    print(f"Flax tests at {commit[:12]} (flax {FLAX_VERSION})")
    print_table(summary)
    if args.peer is not None:
        write_peer(args.peer, commit, args.files, flax, trellax)
    if args.json is not None:
        data = {"commit": commit, "files": args.files, "summary": summary}
        data.update(flax=flax, trellax=trellax)
        args.json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
