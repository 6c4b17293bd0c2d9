"""``jax._src.dispatch``: the one name libraries use, ``wait_for_tokens`` (trellax computes
synchronously, so ordered effects are always done)."""

from __future__ import annotations


def wait_for_tokens() -> None:
    """Returns at once: no effect is ever pending."""
    return None
