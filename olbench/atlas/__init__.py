"""The bound atlas (issue 30): how close a legal stream pushes each learner to each theorem
olbench checks. :func:`tightness` measures observed / bound on one stream, as a run's bound
check does; :mod:`olbench.atlas.scan` lists the problems (every declared theorem for every
learner setting declaring it) and the streams a search starts from;
:mod:`olbench.atlas.search` searches (``python -m olbench.atlas.search <folder>``);
:class:`Witness` keeps the stream, learner and horizon found, to be re-run (:func:`replay`);
:mod:`olbench.atlas.study` writes the study's config (``olbench experiment=bound_atlas``)."""

from olbench.atlas.tightness import Tightness, tightness
from olbench.atlas.witness import Witness, load, replay

__all__ = ["Tightness", "Witness", "load", "replay", "tightness"]
