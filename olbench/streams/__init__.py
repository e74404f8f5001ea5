"""Streams of examples: synthetic, bundled and file-backed (see :mod:`olbench.streams.base`)."""

from olbench.component import import_submodules
from olbench.streams.base import Stream, StreamMeta

import_submodules(__name__, __path__)

make_stream = Stream.registry.make

__all__ = ["Stream", "StreamMeta", "make_stream"]
