"""``trellax.example_libraries``: JAX's reference libraries ``stax`` (networks as function
pairs) and ``optimizers`` (optimizers as function triples), written for trellax."""
