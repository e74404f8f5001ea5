"""The multiclass learners with ``libol=True`` make LIBOL's predictions, mistakes and updates
on every round, and end with LIBOL's W, checked by running LIBOL's own ``M_*.m`` files in GNU
Octave on LIBOL's glass and segment, in the file's order and in LIBOL's orders of runs 1
and 2 (:mod:`olbench.streams.orders`).

Needs ``octave`` on the PATH and a LIBOL checkout (``$OLBENCH_LIBOL``, the folder holding
``algorithms/``; github.com/LIBOL/LIBOL), and LIBOL's data in ``../shared/data/libol``;
skips naming what is missing. Nothing of LIBOL is copied into olbench: the test reads the
user's checkout and writes its driver and a copy of the thirteen files into a temporary
folder, with one line changed in each (below).

**The one change.** LIBOL scores the classes with one mat-vec, ``F_t = W*x_t'``. Rows of W
that received the same updates are bit-identical, so their scores tie exactly, and which
class a tie goes to is part of every rule. Octave's mat-vec (OpenBLAS) does not score equal
rows alike: on segment, at round 8 of the file's order, rows 1 and 5 of W are equal and
W*x' scores them -1.359090466674 and -1.3590904666739996, which puts class 5 in
``M_PerceptronU``'s errorful set and changes every later round. The copies score row by row
(``W(r,:)*x_t'``), as olbench does, which scores equal rows alike; nothing else changes.

``M_CW`` (SCW-I's step without its cap) loses Sigma's positive definiteness on segment (at
rounds 987-1185 of these orders) and on glass in LIBOL's order 2 (round 206): olbench stops
with an error soon after, at the first row whose x' Sigma x it finds <= 0
(:mod:`olbench.rules.multiclass_covariance`), where LIBOL goes on (with complex square roots
on segment). There the check is every round up to the stop, and Sigma not positive definite
at it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import scipy.io

from olbench import make_learner, run
from olbench.breakdown import NumericBreakdownError
from olbench.paths import shared_data_dir
from olbench.streams.orders import permutation

LIBOL = Path(os.environ.get("OLBENCH_LIBOL", "")) / "algorithms"
DATA = shared_data_dir() / "libol"
OCTAVE = shutil.which("octave")

pytestmark = [
    pytest.mark.skipif(OCTAVE is None, reason="GNU Octave is not installed (apt-get install "
                                              "octave)"),
    pytest.mark.skipif(not (os.environ.get("OLBENCH_LIBOL") and LIBOL.is_dir()),
                       reason="no LIBOL checkout: set OLBENCH_LIBOL to the folder holding "
                              "LIBOL's algorithms/"),
    pytest.mark.skipif(not (DATA / "glass.mat").is_file(),
                       reason=f"LIBOL's data not found in {DATA}"),
]

#: LIBOL's file, the learner and its parameters (LIBOL's defaults, init_options.m; C, eta and
#: r also at a second value each)
CASES = {
    "M_PerceptronM": ("multiclass_perceptron", [{"scheme": "max"}], {}),
    "M_PerceptronU": ("multiclass_perceptron", [{"scheme": "uniform"}], {}),
    "M_PerceptronS": ("multiclass_perceptron", [{"scheme": "proportional"}], {}),
    "M_ROMMA": ("multiclass_romma", [{}], {}),
    "M_aROMMA": ("multiclass_aromma", [{}], {}),
    "M_OGD": ("multiclass_ogd", [{"eta": 1.0}, {"eta": 0.1}], {"eta": "C"}),
    "M_PA": ("multiclass_pa", [{"variant": "pa"}], {}),
    "M_PA1": ("multiclass_pa", [{"variant": "pa1", "C": 1.0}, {"variant": "pa1", "C": 0.01}],
              {"C": "C"}),
    "M_PA2": ("multiclass_pa", [{"variant": "pa2", "C": 1.0}, {"variant": "pa2", "C": 0.5}],
              {"C": "C"}),
    "M_CW": ("multiclass_cw", [{"confidence": 0.75}, {"confidence": 0.6}],
             {"confidence": "eta"}),
    "M_AROW": ("multiclass_arow", [{"r": 1.0}, {"r": 0.5}], {"r": "C"}),
    "M_SCW1": ("multiclass_scw", [{"C": 1.0, "confidence": 0.75},
                                  {"C": 0.5, "confidence": 0.9}], {"C": "C", "confidence": "eta"}),
    "M_SCW2": ("multiclass_scw2", [{"C": 1.0, "confidence": 0.75},
                                   {"C": 0.5, "confidence": 0.9}], {"C": "C", "confidence": "eta"}),
}
LIBOL_ONLY = {"multiclass_perceptron", "multiclass_romma", "multiclass_aromma"}
ORDERS = ("file", "libol1", "libol2")

# the driver: ol_train.m's loop for one model (init_model.m's fields for the multiclass
# task), the class predicted, l_t and the final W written out
DRIVER = r"""
addpath(ALGORITHMS);
S = load(DATA); X = S.data(:, 2:end); Y = S.data(:, 1);
[n, d] = size(X); k = max(Y);
ID = load('-ascii', ORDER); ID = ID(:)';
model = struct('task_type', 'mc', 'W', zeros(k, d), 'nb_class', k, 'C', C, 't', 1, ...
               'r', C, 'eta', ETA, 'phi', -sqrt(2) * erfcinv(2 * ETA), 'Sigma', eye(d));
f = str2func(ALG); out = zeros(n, 3);
for t = 1:n
  [model, hat_y, l_t] = f(Y(ID(t)), X(ID(t), :), model);
  out(t, :) = [hat_y, real(l_t), imag(l_t) ~= 0];
end
dlmwrite(OUT, out, 'precision', '%.17g');
dlmwrite([OUT '.W'], model.W, 'precision', '%.17g');
"""

SCORES_AT_ONCE = "F_t = W*x_t';"
SCORES_BY_ROW = "F_t = zeros(size(W, 1), 1); for r_ = 1:size(W, 1), F_t(r_) = W(r_, :)*x_t'; end"



@pytest.fixture(scope="module")
def libol_runs(tmp_path_factory):
    """Every case run by LIBOL's code in one Octave process: {(dataset, order, alg, i):
    (hat_y, l_t, whether l_t was complex, W)}."""
    root = tmp_path_factory.mktemp("libol")
    algorithms = root / "algorithms"
    algorithms.mkdir()
    for name in CASES:
        source = (LIBOL / f"{name}.m").read_text(encoding="latin-1")
        assert source.count(SCORES_AT_ONCE) == 1, name
        (algorithms / f"{name}.m").write_text(source.replace(SCORES_AT_ONCE, SCORES_BY_ROW),
                                              encoding="latin-1")
    script, runs = [], {}
    for dataset in ("glass", "segment"):
        n = scipy.io.loadmat(DATA / f"{dataset}.mat")["data"].shape[0]
        for order in ORDERS:
            rows = np.arange(n) if order == "file" else permutation(n, int(order[-1]), "libol")
            np.savetxt(root / f"{dataset}_{order}.txt", rows + 1, fmt="%d")
            for alg, (_, settings, names) in CASES.items():
                for i, params in enumerate(settings):
                    C = next((params[p] for p, q in names.items() if q == "C"), 1.0)
                    eta = params.get("confidence", 0.75)
                    out = root / f"{dataset}_{order}_{alg}_{i}.csv"
                    script.append(f"ALGORITHMS='{algorithms}'; DATA='{DATA / dataset}.mat'; "
                                  f"ORDER='{root / f'{dataset}_{order}.txt'}'; ALG='{alg}'; "
                                  f"C={C!r}; ETA={eta!r}; OUT='{out}';\n{DRIVER}")
                    runs[dataset, order, alg, i] = out
    (root / "all.m").write_text("\n".join(script))
    subprocess.run([OCTAVE, "--no-gui", "--no-window-system", "-q", str(root / "all.m")],
                   check=True, capture_output=True, timeout=1800)
    return {key: (*np.loadtxt(out, delimiter=",", ndmin=2).T,
                  np.loadtxt(f"{out}.W", delimiter=",", ndmin=2))
            for key, out in runs.items()}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("dataset", ["glass", "segment"])
@pytest.mark.parametrize("alg", list(CASES))
def test_every_round_is_libols(libol_runs, alg, dataset, order):
    key, settings, _ = CASES[alg]
    data = scipy.io.loadmat(DATA / f"{dataset}.mat")["data"]
    n = data.shape[0]
    rows = np.arange(n) if order == "file" else permutation(n, int(order[-1]), "libol")
    X, y = data[rows, 1:], data[rows, 0]
    for i, params in enumerate(settings):
        hat_y, loss, complex_loss, W = libol_runs[dataset, order, alg, i]
        learner = make_learner(key, **params, **({"libol": True} if key in LIBOL_ONLY else {}))
        # (LIBOL counts hat_y != y: the tie rule "libol" whatever the learner's own)
        try:
            trace = run(learner, X, y, classes=int(y.max()), tie="libol")
        except NumericBreakdownError as error:
            # M_CW: Sigma no longer positive definite. LIBOL goes on; olbench stops, and up
            # to there it made LIBOL's rounds, with a Sigma that had indeed lost it
            assert alg == "M_CW" and re.search(r"loses positive definiteness", str(error))
            # (the row whose x' Sigma x was found <= 0 took a NaN step, which reaches the
            # output a row or two later: the last finite state is a few rows back)
            stop = int(re.search(r"at row (\d+)", str(error)).group(1))
            trace = None
            while trace is None:
                stop -= 1
                try:
                    trace = run(learner.clone(), X[:stop], y[:stop], classes=int(y.max()),
                                tie="libol")
                except NumericBreakdownError:
                    assert stop > 0
            assert np.linalg.eigvalsh(trace.state["A"]).min() <= 0.0
            # LIBOL's own rounds are real up to its first x' Sigma x < 0 (sqrt complex)
            stop = min(stop, int(np.argmax(complex_loss)) if complex_loss.any() else stop)
            trace = run(learner.clone(), X[:stop], y[:stop], classes=int(y.max()),
                        tie="libol")
            hat_y, loss = hat_y[:stop], loss[:stop]
            np.testing.assert_array_equal(trace.predictions, hat_y)
            np.testing.assert_array_equal(trace.updated, loss > 0)
            continue
        np.testing.assert_array_equal(trace.predictions, hat_y, err_msg=f"{alg} {params}")
        np.testing.assert_array_equal(trace.updated, loss > 0, err_msg=f"{alg} {params}")
        assert trace.n_mistakes == int((hat_y != y).sum())
        np.testing.assert_allclose(trace.state["w"], W, rtol=0, atol=1e-12 * np.abs(W).max())
