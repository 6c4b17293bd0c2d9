"""Reports on dtype promotion for people: the engine behind the ``trellax`` command.

* :mod:`.spec` — dtype spellings (the JAX docs' byte-width codes, names, Python types);
* :mod:`.table` — binary promotion tables (op level and lattice level);
* :mod:`.formats` — tables as text, Markdown, CSV or a standalone HTML page;
* :mod:`.libraries` — NumPy's, PyTorch's, TensorFlow's and JAX's promotion, measured live;
* :mod:`.hasse` — the lattice's Hasse diagram, laid out and drawn as text, DOT or SVG;
* :mod:`.explain` — why a join is what it is, and how it changes with x64 and strict mode;
* :mod:`.check` — lattice laws of trellax's and other libraries' promotion.
"""
