"""Run the ``>>>`` examples of a documentation page (Markdown or reStructuredText) in order, as
JAX's documentation build tests them (``pytest --doctest-glob='*.md' --doctest-glob='*.rst'
docs --doctest-continue-on-failure``), printing what each example prints or displays.

Usage: ``python run_doctest.py PAGE`` (under JAX) or
``python -m trellax run run_doctest.py PAGE`` (under trellax). Standard library only.

As under pytest, the whole page is one doctest: its examples share one namespace, which starts
with what JAX's ``conftest.py`` puts there (``jax``, ``lax``, ``jnp``, ``np``). Before each
example the runner prints ``## example N``; an example runs as the ``doctest`` module runs it
(compiled in ``single`` mode, so an expression's value is displayed with its ``repr``). An
example that raises prints ``## example N raised ExceptionName`` (the message goes to stderr)
and the run goes on, as with ``--doctest-continue-on-failure``. Examples marked
``# doctest: +SKIP`` are not run. The expected outputs written in the page are not compared
here: what is compared is what the examples print under JAX and under trellax.
"""

from __future__ import annotations

import doctest
import random
import sys
import traceback
from pathlib import Path


def examples(text: str) -> list[doctest.Example | None]:
    """The page's examples in order (None for one marked ``+SKIP``)."""
    found = doctest.DocTestParser().get_examples(text)
    return [None if ex.options.get(doctest.SKIP) else ex for ex in found]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: run_doctest.py PAGE.md", file=sys.stderr)
        return 2
    path = Path(argv[0])
    import jax  # the conftest's namespace (trellax's under `trellax run`)
    import numpy

    random.seed(0)
    numpy.random.seed(0)
    namespace: dict[str, object] = {
        "__name__": "__main__",
        "jax": jax,
        "lax": jax.lax,
        "jnp": jax.numpy,
        "np": numpy,
    }
    for index, example in enumerate(examples(path.read_text(encoding="utf-8")), 1):
        print(f"## example {index}", flush=True)
        if example is None:
            continue
        try:
            code = compile(example.source, f"<{path.name} example {index}>", "single")
            exec(code, namespace)
        except Exception as exc:  # the run goes on, as --doctest-continue-on-failure
            sys.stdout.flush()
            print(f"## example {index} raised {type(exc).__name__}", flush=True)
            traceback.print_exc(limit=-3, file=sys.stderr)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
