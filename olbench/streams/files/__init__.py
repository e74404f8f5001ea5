"""Streams read from files: svmlight/LIBSVM, CSV, and LIBOL's MATLAB .mat files.

Text files are read in blocks of whole lines (a few MiB) and each block is parsed by a
compiled parser (scikit-learn's ``load_svmlight_file`` for svmlight, pandas' C parser for
CSV), so a file larger than memory streams in constant memory. A stream makes up to three
passes, each in constant memory, the first one on first use (never in ``__init__``):

1. a *scan*, which validates every line (errors name ``file:line`` and what is wrong), counts
   the rows, collects the labels seen, infers the number of features and, for
   ``order="permuted"`` or ``"libol"``, records where each row starts (8 + 4 bytes per row);
2. for ``standardize=True`` only, a pass computing per-feature means and deviations;
3. the stream itself, as often as asked; ``meta`` streams it once to get R and the
   fingerprint, and caches the result.

Relative paths are tried against the working directory, then the repository root, so
``../shared/data/libsvm/a9a`` works from anywhere. Labels: see
:mod:`olbench.labels`; row transforms: :mod:`olbench.streams.preprocess`.

One module per format: :mod:`.svmlight`, :mod:`.csv_file` (both text read in blocks, on the
base :class:`~olbench.streams.files.text.TextFile` and the block reader of :mod:`.blocks`)
and :mod:`.matlab`. Paths are resolved by :mod:`olbench.paths`.
"""

from olbench.streams.files.blocks import read_blocks, rechunk
from olbench.streams.files.csv_file import Csv
from olbench.streams.files.matlab import MatFile
from olbench.streams.files.svmlight import Svmlight
from olbench.streams.files.text import TextFile

__all__ = ["Csv", "MatFile", "Svmlight", "TextFile", "read_blocks", "rechunk"]
