"""Floor 0: pytrees (flatten, unflatten, key paths, the node registry). Imports nothing numeric."""
