"""Synthetic streams whose properties hold by construction: margin, radius, noise, drift.

Every stream here is deterministic in its ``seed`` (numpy ``default_rng``; one child
generator per random ingredient, so e.g. :class:`Noisy` with any noise level has the same
clean points as :class:`Separable` with the same seed) and is built in memory on first use.

* :class:`Separable`: linearly separable, margin >= gamma and radius <= R *guaranteed*.
* :class:`NovikoffTight`: x_t = R e_t with random labels; the Perceptron makes exactly
  (R/gamma)^2 mistakes, so Novikoff's bound (Novikoff 1962) is tight.
* :class:`Noisy`: :class:`Separable` with label flips (rate p) and Gaussian feature noise.
* :class:`Outliers`: :class:`Separable` with a few points of one class displaced far away.
* :class:`SugiyamaClusters`, :class:`SugiyamaOutliers`: the two-Gaussian 2-D sets of the
  PA and PA-vs-AROW figures (Sugiyama 2015, *Introduction to Statistical Machine Learning*,
  ch. 31), with and without outliers.
* :class:`Drift`: the generating vector rotates gradually or switches at chosen rounds.
* :class:`LinearRegression`, :class:`Sinc`: regression streams (Sinc: the textbook's curve
  y = sin(pi x)/(pi x) + 0.1 x + noise).
* :class:`MulticlassSeparable`, :class:`MulticlassTight`: k classes with a multiclass
  margin >= gamma and radius <= R; orthogonal rows on which the multiclass Perceptron errs
  on every round.
* :class:`LowRank`, :class:`DriftingSubspace`, :class:`PCAFTLAdversary`: online PCA rows
  (task ``"pca"``): low rank plus noise with a chosen spectrum, on a fixed or moving subspace;
  the sequence on which follow the leader's regret is linear.
* :class:`PlantedSparse`: sparse rows (n, d up to 2^24) labelled by a planted sparse
  separator, with label noise; generated block by block in constant memory, not in memory.

One module per family: :mod:`.draw` (the random ingredients), :mod:`.margin`, :mod:`.outliers`,
:mod:`.drift`, :mod:`.regression`, :mod:`.multiclass`,
:mod:`.subspace`, :mod:`.sparse`.
"""

from olbench.streams.synthetic.draw import DISTRIBUTIONS, separable_points
from olbench.streams.synthetic.drift import Drift
from olbench.streams.synthetic.margin import Noisy, NovikoffTight, Separable
from olbench.streams.synthetic.multiclass import MulticlassSeparable, MulticlassTight
from olbench.streams.synthetic.outliers import (
    Outliers,
    SugiyamaClusters,
    SugiyamaOutliers,
    generating_labels,
)
from olbench.streams.synthetic.regression import LinearRegression, Sinc, sinc_target
from olbench.streams.synthetic.sparse import PlantedSparse
from olbench.streams.synthetic.subspace import (
    DriftingSubspace,
    LowRank,
    PCAFTLAdversary,
)

__all__ = ["DISTRIBUTIONS", "Drift", "DriftingSubspace", "LinearRegression", "LowRank",
           "MulticlassSeparable", "MulticlassTight", "Noisy", "NovikoffTight", "Outliers",
           "PCAFTLAdversary", "PlantedSparse", "Separable", "Sinc", "SugiyamaClusters",
           "SugiyamaOutliers", "generating_labels", "separable_points", "sinc_target"]
