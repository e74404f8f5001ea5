"""Streams of examples: synthetic, bundled and file-backed (see :mod:`olbench.streams.base`),
and streams made from another stream (:mod:`olbench.streams.transforms`: kernel map, passes).

Every registered stream class is also importable from here (``olbench.streams.Separable``),
which is what the ``_target_`` of each ``conf/stream/<key>.yaml`` names.
"""

from olbench.component import import_submodules
from olbench.streams.base import Stream, StreamMeta

import_submodules(__name__, __path__)

make_stream = Stream.registry.make

_registered = {cls.__name__: cls for cls in Stream.registry._classes.values()}
globals().update(_registered)

__all__ = ["Stream", "StreamMeta", "make_stream", *sorted(_registered)]
