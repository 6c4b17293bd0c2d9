"""Part of the corpus matplotlib stand-in."""

from matplotlib import Recorder

Axes3D = Recorder("Axes3D")
