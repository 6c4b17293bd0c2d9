"""``trellax.distributed``: one process, so there is nothing to initialize (mirrors
``jax.distributed``)."""

from typing import Any


def initialize(*args: Any, **kwargs: Any) -> None:
    """Multi-process computation is not supported: trellax runs in one process."""
    raise NotImplementedError(
        "trellax runs in one process on one CPU device; there is no distributed runtime to "
        "initialize (run the program in a single process)"
    )


def is_initialized() -> bool:
    """False: there is no distributed runtime."""
    return False


def shutdown() -> None:
    """Nothing to shut down."""
    return None
