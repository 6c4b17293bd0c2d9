"""Floor 6: host callbacks (``pure_callback``, ``debug.callback``/``print``) as primitives."""
