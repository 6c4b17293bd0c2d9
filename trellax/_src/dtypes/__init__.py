"""Floor 1: the promotion lattice and the dtype universe built on it. Imports only ``config``."""
