"""Runs optax's own test files with ``jax`` resolved to trellax, and compares with real JAX.

    # under real JAX (the reference venv), writes the pass list as data:
    /tmp/jaxref/bin/python tools/run_peer_tests.py --backend jax --json tests/golden/peer/optax_jax_passes.json
    # under trellax (optax and chex installed with --no-deps, see docs/compat.md):
    .venv/bin/python tools/run_peer_tests.py --compare tests/golden/peer/optax_jax_passes.json

Each test module runs in its own subprocess (``--worker``) with unittest (optax's tests are
absltest/parameterized ``TestCase``s), which streams one JSON line per test. Under trellax the
worker calls ``trellax.compat.install()`` first, so optax, chex and the tests import trellax as
``jax``. ``--compare`` prints, per file, how many of the tests that pass under JAX pass here, and
lists the others with the first line of their error.

``--trellax-contrib`` (trellax backend) also resolves the optimizers of ``optax.contrib`` and of
its private modules to ``trellax.optim.contrib``'s (and ``optax.microbatching``'s to
``trellax.optim.microbatching``'s, ``optax.experimental.aggregating``'s likewise), so optax's tests of them exercise trellax's implementations
rather than optax's own code running on trellax.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
import traceback
import unittest
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[1]

GROUPS: dict[str, list[str]] = {
    "alias": ["optax._src.alias_test"],
    "transform": ["optax._src.transform_test"],
    "losses": [
        f"optax.losses._{name}_test"
        for name in (
            "classification",
            "fenchel_young",
            "ranking",
            "regression",
            "segmentation",
            "self_supervised",
            "smoothing",
        )
    ],
    "schedules": [f"optax.schedules._{name}_test" for name in ("inject", "join", "schedule")],
    "contrib": [
        f"optax.contrib._{name}_test"
        for name in (
            "common",
            "complex_valued",
            "galore",
            "mechanic",
            "muon",
            "privacy",
            "reduce_on_plateau",
            "sam",
            "schedule_free",
        )
    ],
    "src": [
        f"optax._src.{name}_test"
        for name in (
            "base",
            "combine",
            "factorized",
            "float64",
            "linear_algebra",
            "linesearch",
            "lookahead",
            "numerics",
            "sharding",
            "update",
            "utils",
        )
    ],
    "transforms": [
        f"optax.transforms._{name}_test"
        for name in (
            "accumulation",
            "adding",
            "clipping",
            "combining",
            "conditionality",
            "constraining",
            "freezing",
            "layouts",
            "masking",
            "monitoring",
        )
    ],
    "tree_utils": [
        f"optax.tree_utils._{name}_test"
        for name in ("casting", "random", "state_utils", "tree_math")
    ],
    "other": [
        "optax.optax_test",
        "optax.assignment._hungarian_algorithm_test",
        "optax.experimental._aggregating_test",
        "optax.microbatching._microbatching_test",
        "optax.perturbations._make_pert_test",
        "optax.projections._projections_test",
    ],
}


#: Modules with more tests than this are sampled by ``--sample``.
SAMPLE_ABOVE = 100


def test_key(test_id: str) -> str:
    """A test's id without absl's parameter description (which holds object addresses and
    class reprs that differ between runs and backends); the method name carries its index."""
    return test_id.split(" (", 1)[0]


class _StreamingResult(unittest.TestResult):
    """Writes one JSON line per finished test: ``{"id", "outcome", "error"}``."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out
        self._start = 0.0

    def _emit(self, test: unittest.TestCase, outcome: str, error: str = "") -> None:
        record = {
            "id": test_key(test.id()),
            "outcome": outcome,
            "error": error,
            "seconds": round(time.monotonic() - self._start, 3),
        }
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()

    @staticmethod
    def _summary(err: Any) -> str:
        kind, value, _ = err
        text = "".join(traceback.format_exception_only(kind, value)).strip()
        return text.splitlines()[-1][:300] if text else kind.__name__

    def startTest(self, test: unittest.TestCase) -> None:
        self._start = time.monotonic()
        self._failed = False
        super().startTest(test)

    def addSuccess(self, test: unittest.TestCase) -> None:
        if not self._failed:
            self._emit(test, "passed")

    def addFailure(self, test: unittest.TestCase, err: Any) -> None:
        self._failed = True
        self._emit(test, "failed", self._summary(err))

    def addError(self, test: unittest.TestCase, err: Any) -> None:
        self._failed = True
        self._emit(test, "error", self._summary(err))

    def addSkip(self, test: unittest.TestCase, reason: str) -> None:
        self._emit(test, "skipped", reason[:200])

    def addExpectedFailure(self, test: unittest.TestCase, err: Any) -> None:
        self._emit(test, "xfailed")

    def addUnexpectedSuccess(self, test: unittest.TestCase) -> None:
        self._emit(test, "failed", "unexpected success")

    def addSubTest(self, test: Any, subtest: Any, err: Any) -> None:
        if err is not None and not self._failed:
            self._failed = True
            kind = "failed" if issubclass(err[0], test.failureException) else "error"
            self._emit(test, kind, f"subtest {subtest._subDescription()}: {self._summary(err)}")


def use_trellax_contrib() -> int:
    """Replaces, in ``optax.contrib`` and its private modules, every name that
    ``trellax.optim.contrib`` also defines by trellax's object (so optax's contrib tests call
    trellax's optimizers; optax's own helpers stay where trellax has none). Returns how many
    attributes were replaced."""
    import pkgutil  # only this mode needs them

    import optax.contrib

    import trellax.optim.contrib as ours
    from trellax._src.optim.muon import orthogonalize_via_newton_schulz

    names = {n: getattr(ours, n) for n in dir(ours) if not n.startswith("_")}
    names["orthogonalize_via_newton_schulz"] = orthogonalize_via_newton_schulz
    replaced = 0
    modules = [optax.contrib]
    for info in pkgutil.iter_modules(optax.contrib.__path__, "optax.contrib."):
        if not info.name.endswith("_test"):
            modules.append(importlib.import_module(info.name))
    for module in modules:
        for name, obj in names.items():
            if hasattr(module, name):
                setattr(module, name, obj)
                replaced += 1
    # optax.microbatching's and optax.experimental.aggregating's names likewise (their tests
    # import the private modules)
    import optax.experimental._aggregating as their_agg
    import optax.microbatching._microbatching as their_mb

    import trellax.optim.experimental.aggregating as my_agg
    import trellax.optim.microbatching as my_mb

    for theirs, mine in ((their_mb, my_mb), (their_agg, my_agg)):
        for name in dir(mine):
            if not name.startswith("_") and hasattr(theirs, name):
                setattr(theirs, name, getattr(mine, name))
                replaced += 1
    return replaced


def worker(module_name: str, backend: str, only: list[str], sample: int) -> int:
    """Runs the tests of one module, streaming results to stdout."""
    if backend == "trellax":
        import trellax.compat  # the point of the worker: imports below get trellax as jax

        trellax.compat.install()
        if os.environ.get("TRELLAX_PEER_CONTRIB") == "trellax":
            use_trellax_contrib()
    from absl import flags  # optax's tests read absl flags; parse the defaults

    flags.FLAGS(sys.argv[:1], known_only=True)
    try:
        module = importlib.import_module(module_name)
    except BaseException as e:
        line = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()[-1]
        record = {"id": f"{module_name}.<import>", "outcome": "error", "error": line[:300]}
        sys.stdout.write(json.dumps(record) + "\n")
        return 0
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    if only:
        wanted = {test_key(t) for t in only}
        suite = unittest.TestSuite(t for t in _iter_tests(suite) if test_key(t.id()) in wanted)
    tests = _iter_tests(suite)
    if sample > 1 and len(tests) > SAMPLE_ABOVE:  # every sample-th test, in the loader's order
        suite = unittest.TestSuite(t for k, t in enumerate(tests) if k % sample == 0)
    suite.run(_StreamingResult(sys.stdout))
    return 0


def _iter_tests(suite: unittest.TestSuite) -> list[unittest.TestCase]:
    out: list[unittest.TestCase] = []
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            out.extend(_iter_tests(t))
        else:
            out.append(t)
    return out


def run_module(
    module_name: str, backend: str, timeout: float, sample: int = 1
) -> dict[str, dict[str, Any]]:
    """Runs one module's tests in a subprocess; tests not reached in time are missing."""
    cmd = [sys.executable, __file__, "--worker", module_name, "--backend", backend]
    cmd += ["--sample", str(sample)]
    env = dict(os.environ)
    if backend == "trellax":
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    results: dict[str, dict[str, Any]] = {}
    try:
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
        stdout, stderr, status = done.stdout, done.stderr, done.returncode
    except subprocess.TimeoutExpired as e:
        raw = e.stdout or b""
        stdout = raw.decode() if isinstance(raw, bytes) else raw
        stderr, status = "timeout", -1
    for line in stdout.splitlines():
        if line.startswith('{"id"'):  # a test may print other lines
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            results[test_key(record.pop("id"))] = record
    if status != 0:
        tail = stderr.strip().splitlines()[-1:] if stderr else ["?"]
        results[f"{module_name}.<worker>"] = {"outcome": "error", "error": tail[0][:300]}
    return results


def _file_of(test_id: str) -> str:
    for group in GROUPS.values():
        for module in group:
            if test_id.startswith(module + "."):
                return module
    return test_id.rsplit(".", 2)[0]


def compare(reference: dict[str, Any], ours: dict[str, dict[str, Any]]) -> tuple[int, int, str]:
    """(passed here among JAX's passes, JAX's passes, the per-file table and failure list)."""
    jax_pass = set(reference["passed"])
    lines = ["| file | trellax passes / JAX passes | rate |", "|---|---|---|"]
    by_file: dict[str, list[str]] = {}
    for test_id in sorted(jax_pass):
        by_file.setdefault(_file_of(test_id), []).append(test_id)
    total_ok = 0
    failures: list[str] = []
    for module, ids in sorted(by_file.items()):
        ok = [t for t in ids if ours.get(t, {}).get("outcome") == "passed"]
        total_ok += len(ok)
        lines.append(f"| `{module}` | {len(ok)} / {len(ids)} | {100 * len(ok) / len(ids):.0f} % |")
        for t in ids:
            if t not in ok:
                got = ours.get(t, {"outcome": "not run", "error": ""})
                failures.append(f"- `{t}`: {got['outcome']} {got.get('error', '')}".rstrip())
    rate = 100 * total_ok / max(1, len(jax_pass))
    lines.append(f"| **all** | **{total_ok} / {len(jax_pass)}** | **{rate:.1f} %** |")
    return total_ok, len(jax_pass), "\n".join([*lines, "", *failures]) + "\n"


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--backend", choices=("trellax", "jax"), default="trellax")
    p.add_argument("--groups", nargs="*", default=list(GROUPS), choices=list(GROUPS))
    p.add_argument("--modules", nargs="*", default=None, help="module names instead of groups")
    p.add_argument("--json", help="write {passed, results} to this file")
    p.add_argument("--compare", help="a JAX pass list written with --backend jax --json")
    p.add_argument("--report", help="write the comparison (markdown) to this file")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds per module")
    p.add_argument(
        "--sample",
        type=int,
        default=1,
        help=f"in modules of more than {SAMPLE_ABOVE} tests, run every SAMPLE-th test only",
    )
    p.add_argument("--stream", help="append each module's results (JSON lines) to this file")
    p.add_argument(
        "--results",
        nargs="*",
        help="read results from these --stream files instead of running the tests",
    )
    p.add_argument(
        "--trellax-contrib",
        action="store_true",
        help="resolve optax.contrib's and optax.microbatching's names to trellax.optim's",
    )
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--only", nargs="*", default=[], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.trellax_contrib:
        os.environ["TRELLAX_PEER_CONTRIB"] = "trellax"  # read by the workers
    if args.worker:
        return worker(args.worker, args.backend, args.only, args.sample)
    modules = args.modules or [m for g in args.groups for m in GROUPS[g]]
    results: dict[str, dict[str, Any]] = {}
    for stream in args.results or []:
        for line in Path(stream).read_text().splitlines():
            record = json.loads(line)
            results[test_key(record.pop("id"))] = record
    for module in [] if args.results else modules:
        start = time.monotonic()
        got = run_module(module, args.backend, args.timeout, args.sample)
        results.update(got)
        if args.stream:
            with open(args.stream, "a") as f:
                for test_id, record in got.items():
                    f.write(json.dumps({"id": test_id, **record}) + "\n")
        n_pass = sum(r["outcome"] == "passed" for r in got.values())
        print(f"{module}: {n_pass}/{len(got)} passed ({time.monotonic() - start:.0f} s)")
        sys.stdout.flush()
    if args.json:
        passed = sorted(t for t, r in results.items() if r["outcome"] == "passed")
        data = {
            "backend": args.backend,
            "modules": modules,
            "sample": args.sample,
            "passed": passed,
        }
        data["not_passed"] = {
            t: f"{r['outcome']}: {r.get('error', '')}"
            for t, r in sorted(results.items())
            if r["outcome"] != "passed"
        }
        Path(args.json).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    if args.compare:
        reference = json.loads(Path(args.compare).read_text())
        reference["passed"] = [test_key(t) for t in reference["passed"] if _file_of(t) in modules]
        ok, total, text = compare(reference, results)
        print(text)
        if args.report:
            Path(args.report).write_text(text)
        print(
            f"trellax passes {ok} of the {total} tests JAX passes ({100 * ok / max(1, total):.1f} %)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
