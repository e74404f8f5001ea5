"""The bound atlas (issue 30): how close a legal stream pushes each learner to each theorem
olbench checks. :func:`tightness` measures observed / bound on one stream;
:class:`Witness` keeps a stream, a learner and a horizon that reach a ratio, so that it can
be re-run (:func:`replay`); :mod:`olbench.atlas.scan` starts the atlas from the literature's
constructions and olbench's own generators (``python -m olbench.atlas.scan <folder>``)."""

from olbench.atlas.tightness import Tightness, tightness
from olbench.atlas.witness import Witness, load, record, replay

__all__ = ["Tightness", "Witness", "load", "record", "replay", "tightness"]
