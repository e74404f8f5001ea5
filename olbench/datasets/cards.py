"""The dataset catalogue: one :class:`Card` per dataset users can name.

A new dataset is one entry of :data:`CARDS` below (nothing else to edit). Numbers come from
two places, and each card says which (``verified``):

* ``verified=True``: computed from the copy in ``../shared/data/`` (rows, non-zeros, label
  coding, sha256; see that folder's MANIFEST.tsv), and checked again by
  ``tests/test_dataset_catalogue.py`` whenever that folder is present;
* ``verified=False``: as stated by the source's page (LIBSVM's lists give rows, features and
  classes, not non-zeros); the checksum is then unknown (``None``), never guessed.

``sha256`` is the sha256 of the file's text with line endings normalised to ``\\n`` (so a
copy checked out with CRLF endings and the original LF file agree); for LF files it is the
plain sha256 (MANIFEST.tsv's column).

>>> CARDS["a9a"].train.rows, CARDS["a9a"].features, CARDS["a9a"].test.rows
(32561, 123, 16281)
"""

from __future__ import annotations

from dataclasses import dataclass

#: LIBSVM's dataset collection (Chang & Lin); files live in binary/, multiclass/, regression/
LIBSVM_URL = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets"
#: LIBOL's data folder, pinned at the commit our shared copies were taken from
LIBOL_URL = ("https://raw.githubusercontent.com/LIBOL/LIBOL/"
             "d7e11b5f58a7e3babb68614e06dd5a5b2a53b735/data")
LIBSVM_CITATION = ("C.-C. Chang and C.-J. Lin, LIBSVM: a library for support vector machines, "
                   "ACM TIST 2(3), 2011")
LIBOL_CITATION = ("S. C. H. Hoi, J. Wang and P. Zhao, LIBOL: a library for online learning "
                  "algorithms, JMLR 15, 2014")


@dataclass(frozen=True)
class DataFile:
    """One file of a dataset (its training or its test part)."""

    file: str                   # its name in <data folder>/<collection>/ (decompressed)
    rows: int | None
    nnz: int | None = None      # stored non-zeros (features only)
    sha256: str | None = None   # of the text, line endings normalised; None: unknown
    url: str | None = None      # where to download it (may end in .bz2); None: local only


@dataclass(frozen=True)
class Card:
    """What is known about a dataset before reading it."""

    name: str
    collection: str             # "libsvm" or "libol": also the sub-folder of the data folder
    task: str                   # "binary", "multiclass" or "regression"
    features: int
    train: DataFile
    test: DataFile | None = None
    classes: int | None = 2     # None for regression
    labels: str = "{-1,+1}"     # label coding as stored in the file
    format: str = "svmlight"    # "svmlight", "mat" (LIBOL: label first column) or "arff"
    positive: str | None = None  # default positive class when labels are names (sonar)
    source: str = ""
    citation: str = LIBSVM_CITATION
    verified: bool = False
    notes: str = ""

    def parts(self) -> dict[str, DataFile]:
        return {"train": self.train, **({"test": self.test} if self.test else {})}

    def label_values(self) -> list[str] | None:
        """The labels of :attr:`labels` one by one (as written; ``+1`` as ``1``), or None
        where the card does not list them all (regression, a shortened list).

        >>> CARDS["mushrooms"].label_values(), CARDS["dna"].label_values()
        (['1', '2'], ['1', '2', '3'])
        """
        text = self.labels.strip()
        if "..." in text or self.classes is None:
            return None
        if ".." in text:     # "1..26": every integer in between
            low, high = text.split("..")
            return [str(v) for v in range(int(low), int(high) + 1)]
        return [v.strip().lstrip("+") for v in text.strip("{}").split(",")]


def _libsvm(folder: str, remote: str) -> str:
    return f"{LIBSVM_URL}/{folder}/{remote}"


def _bin(name, features, train, test=None, **kw) -> Card:
    return Card(name, "libsvm", "binary", features, train, test, **kw)


def _multi(name, features, classes, labels, train, test=None, **kw) -> Card:
    return Card(name, "libsvm", "multiclass", features, train, test, classes=classes,
                labels=labels, **kw)


def _reg(name, features, train, test=None, **kw) -> Card:
    return Card(name, "libsvm", "regression", features, train, test, classes=None,
                labels="real", **kw)


def _f(file, rows, folder, remote=None, nnz=None, sha256=None) -> DataFile:
    return DataFile(file, rows, nnz, sha256, _libsvm(folder, remote or file))


B, M, R = "binary", "multiclass", "regression"
ADULT = "UCI Adult (Kohavi 1996), preprocessed by J. Platt (SMO, 1998)"
WEB = "web page classification, preprocessed by J. Platt (SMO, 1998)"

CARDS_LIST: list[Card] = [
    # ------------------------------------------------------------------ LIBSVM binary
    _bin("a1a", 123,
         _f("a1a", 1605, B, nnz=22249,
            sha256="eb54c45f1bdb51286f803dd092eb8202b44637a858fc6c4e533a2d64a0d94b4e"),
         _f("a1a.t", 30956, B, nnz=429272,
            sha256="b98244653c31ac5b151097866216831b962cb5a2857c91e8b276cdfcc4c44771"),
         source=ADULT, verified=True, notes="indices seen go to 119 of 123"),
    _bin("a8a", 123,
         _f("a8a", 22696, B, nnz=314815,
            sha256="d08a37b3fadd4bd3c8b3fc30bdc93b54d7c0f371265c90cbfb931a7efe97cd28"),
         _f("a8a.t", 9865, B), source=ADULT, verified=True),
    _bin("a9a", 123,
         _f("a9a", 32561, B, nnz=451592,
            sha256="4358ce9fdb93244de6857eb82178919eb425544ecc85110674c9fd4d86cef87b"),
         _f("a9a.t", 16281, B), source=ADULT, verified=True),
    _bin("w1a", 300,
         _f("w1a", 2477, B, nnz=28410,
            sha256="0ae2b1c40f6a99061d1c6f4a1f3b50eea58a2f3b8bf851a337c25c2a65a49d32"),
         _f("w1a.t", 47272, B), source=WEB, verified=True),
    _bin("w8a", 300,
         _f("w8a", 49749, B, nnz=579586,
            sha256="b464b4f6ce6a5d9e181ffc793e19a04751036273722312398ef7673705014902"),
         _f("w8a.t", 14951, B), source=WEB, verified=True),
    _bin("mushrooms", 112,
         _f("mushrooms", 8124, B, nnz=170604,
            sha256="51919a59d92e6ec922259e77afd91d9a809299613ee0da052a19abe746aa2244"),
         labels="{1,2}", source="UCI Mushroom (Schlimmer 1981)", verified=True),
    _bin("phishing", 68,
         _f("phishing", 11055, B, nnz=331650,
            sha256="0b0ca40e17bc95e909bfa587c408bf69904571ace01dea26e34cafc464f2da93"),
         labels="{0,1}", source="UCI Phishing Websites (Mohammad, Thabtah, McCluskey 2012)",
         verified=True),
    _bin("breast-cancer_scale", 10,
         _f("breast-cancer_scale", 683, B, nnz=6830,
            sha256="3c90cd8f884810a0ff2eaf2cc7aabf09073f33c2dfcf113d826a13ca60b257ad"),
         labels="{2,4}", source="UCI Breast Cancer Wisconsin (Wolberg & Mangasarian 1990)",
         verified=True),
    _bin("german.numer_scale", 24,
         _f("german.numer_scale", 1000, B, nnz=23001,
            sha256="e461161650598fda2988f2a4c3b592634bbcae1c0eec382c94ceda5f30d4dab4"),
         source="UCI Statlog German Credit", verified=True),
    _bin("heart_scale", 13,
         _f("heart_scale", 270, B, nnz=3378,
            sha256="5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9"),
         source="UCI Statlog Heart", verified=True),
    _bin("splice_all", 60,
         DataFile("splice_all", 3175, 190500,
                  "321beb218f0fe9d5bb6ff09abb94f33a0f21cde5f79887b46d124b9bddd4f940"),
         source="Delve splice (LIBSVM's splice + splice.t in one file)", verified=True,
         notes="local only: LIBSVM ships the two parts as splice and splice.t"),
    _bin("svmguide1", 4,
         _f("svmguide1", 3089, B, nnz=12356,
            sha256="2b9ab55b6236f62cee6b7739b52f9e7cb033771f39b9c22c1f1790d80ef14d7f"),
         _f("svmguide1.t", 4000, B), labels="{0,1}",
         source="Hsu, Chang & Lin, A practical guide to SVM classification (2003)",
         verified=True),
    _bin("australian", 14, _f("australian", 690, B), source="UCI Statlog Australian Credit"),
    _bin("cod-rna", 8, _f("cod-rna", 59535, B), _f("cod-rna.t", 271617, B),
         source="Uzilov, Keegan & Mathews (2006)"),
    _bin("covtype.binary", 54, _f("covtype.libsvm.binary", 581012, B,
                                  "covtype.libsvm.binary.bz2"),
         labels="{1,2}", source="UCI Covertype (Blackard 1998), class 2 vs rest "
                                "(Collobert, Bengio & Bengio 2002)"),
    _bin("gisette", 5000, _f("gisette_scale", 6000, B, "gisette_scale.bz2"),
         _f("gisette_scale.t", 1000, B, "gisette_scale.t.bz2"),
         source="NIPS 2003 feature selection challenge (Guyon et al.)"),
    _bin("ijcnn1", 22, _f("ijcnn1", 49990, B, "ijcnn1.bz2"),
         _f("ijcnn1.t", 91701, B, "ijcnn1.t.bz2"), source="IJCNN 2001 challenge (Prokhorov)"),
    _bin("madelon", 500, _f("madelon", 2000, B), _f("madelon.t", 600, B),
         source="NIPS 2003 feature selection challenge (Guyon et al.)"),
    _bin("news20.binary", 1355191, _f("news20.binary", 19996, B, "news20.binary.bz2"),
         source="20 Newsgroups, two halves of the groups (Keerthi & DeCoste 2005)"),
    _bin("rcv1.binary", 47236, _f("rcv1_train.binary", 20242, B, "rcv1_train.binary.bz2"),
         _f("rcv1_test.binary", 677399, B, "rcv1_test.binary.bz2"),
         source="RCV1-v2 (Lewis, Yang, Rose & Li 2004), CCAT+ECAT vs GCAT+MCAT"),
    _bin("real-sim", 20958, _f("real-sim", 72309, B, "real-sim.bz2"),
         source="real vs simulated Usenet articles (McCallum)"),
    _bin("skin_nonskin", 3, _f("skin_nonskin", 245057, B), labels="{1,2}",
         source="UCI Skin Segmentation (Bhatt & Dhall)"),
    _bin("url", 3231961, _f("url_combined", 2396130, B, "url_combined.bz2"),
         source="malicious URLs (Ma, Saul, Savage & Voelker 2009)"),
    _bin("epsilon", 2000, _f("epsilon_normalized", 400000, B, "epsilon_normalized.bz2"),
         _f("epsilon_normalized.t", 100000, B, "epsilon_normalized.t.bz2"),
         source="PASCAL large scale learning challenge 2008"),
    _bin("SUSY", 18, _f("SUSY", 5000000, B, "SUSY.bz2"), labels="{0,1}",
         source="UCI SUSY (Baldi, Sadowski & Whiteson 2014)"),
    _bin("HIGGS", 28, _f("HIGGS", 11000000, B, "HIGGS.bz2"), labels="{0,1}",
         source="UCI HIGGS (Baldi, Sadowski & Whiteson 2014)"),
    # ------------------------------------------------------------------ LIBSVM multiclass
    _multi("letter.scale", 16, 26, "1..26",
           _f("letter.scale", 15000, M, nnz=240000,
              sha256="ce2c7df15cc5742dc4382d59079181c97c21e0beaa0af53c84cc5745c69f1020"),
           _f("letter.scale.t", 5000, M), source="UCI Letter Recognition (Frey & Slate 1991)",
           verified=True),
    _multi("segment.scale", 19, 7, "1..7",
           _f("segment.scale", 2310, M, nnz=41469,
              sha256="7c25c4529b8c84d047bc546e1e1f9a3f671c36d77f5469fb845b6e4a15bdd629"),
           source="UCI Statlog Image Segmentation", verified=True),
    _multi("vowel", 10, 11, "0..10",
           _f("vowel", 528, M, nnz=5277,
              sha256="01b1a89b501891723d3584af89007d4ca776ebec7a198b59111c67d3b5ab667a"),
           _f("vowel.t", 462, M), source="UCI Vowel Recognition (Deterding 1989)",
           verified=True),
    _multi("dna", 180, 3, "1..3", _f("dna.scale", 2000, M), _f("dna.scale.t", 1186, M),
           source="Statlog DNA"),
    _multi("mnist", 780, 10, "0..9", _f("mnist", 60000, M, "mnist.bz2"),
           _f("mnist.t", 10000, M, "mnist.t.bz2"), source="MNIST (LeCun et al. 1998)"),
    _multi("usps", 256, 10, "1..10", _f("usps", 7291, M, "usps.bz2"),
           _f("usps.t", 2007, M, "usps.t.bz2"), source="USPS zip codes (Hull 1994)"),
    _multi("pendigits", 16, 10, "0..9", _f("pendigits", 7494, M), _f("pendigits.t", 3498, M),
           source="UCI Pen-Based Digits (Alimoglu & Alpaydin 1996)"),
    _multi("satimage.scale", 36, 6, "{1,2,3,4,5,7}", _f("satimage.scale", 4435, M),
           _f("satimage.scale.t", 2000, M), source="UCI Statlog Landsat Satellite"),
    _multi("news20", 62061, 20, "1..20", _f("news20", 15935, M, "news20.bz2"),
           _f("news20.t", 3993, M, "news20.t.bz2"), source="20 Newsgroups (Lang 1995)"),
    _multi("covtype", 54, 7, "1..7", _f("covtype", 581012, M, "covtype.bz2"),
           source="UCI Covertype (Blackard 1998)"),
    # ------------------------------------------------------------------ LIBSVM regression
    _reg("abalone", 8, _f("abalone", 4177, R), source="UCI Abalone (Nash et al. 1994)"),
    _reg("cadata", 8, _f("cadata", 20640, R), source="California housing (Pace & Barry 1997)"),
    _reg("cpusmall", 12, _f("cpusmall", 8192, R), source="Delve Computer Activity"),
    _reg("housing", 13, _f("housing", 506, R),
         source="Boston housing (Harrison & Rubinfeld 1978)"),
    _reg("space_ga", 6, _f("space_ga", 3107, R), source="StatLib (Pace & Barry 1997)"),
    _reg("E2006-tfidf", 150360, _f("E2006.train", 16087, R, "E2006.train.bz2"),
         _f("E2006.test", 3308, R, "E2006.test.bz2"),
         source="10-K reports, volatility (Kogan et al. 2009)"),
    _reg("YearPredictionMSD", 90, _f("YearPredictionMSD", 463715, R, "YearPredictionMSD.bz2"),
         _f("YearPredictionMSD.t", 51630, R, "YearPredictionMSD.t.bz2"),
         source="Million Song Dataset (Bertin-Mahieux et al. 2011)"),
    # ------------------------------------------------------------------ LIBOL's shipped sets
    Card("svmguide3", "libol", "binary", 21,
         DataFile("svmguide3.mat", 1243, 22014,
                  "fbbaf13c47138420a895429a15384080e40927db2b4f15d315b7372bc63c3e1e",
                  f"{LIBOL_URL}/svmguide3.mat"),
         format="mat", citation=LIBOL_CITATION, verified=True,
         source="LIBOL's data/ (from LIBSVM's svmguide3, Hsu, Chang & Lin 2003)",
         notes="variable data: label column first; LIBSVM's svmlight copy states 22 features"),
    Card("glass", "libol", "multiclass", 9,
         DataFile("glass.mat", 214, 1923,
                  "c3d968f6d85df1b498a605b4dcce4fccb1e5d1b1e5a3ddaccb88ae8f4a12b5c7",
                  f"{LIBOL_URL}/glass.mat"),
         classes=6, labels="1..6", format="mat", citation=LIBOL_CITATION, verified=True,
         source="LIBOL's data/ (UCI Glass Identification)",
         notes="also holds ID_ALL, 20 fixed permutations no LIBOL code reads (order=ids of "
               "stream=mat; LIBOL's runs: order=libol)"),
    Card("segment", "libol", "multiclass", 19,
         DataFile("segment.mat", 2310, 41469,
                  "726457be4727fc6801c72d60e41956c951a88f8a62ce82ad6acae997b148f613",
                  f"{LIBOL_URL}/segment.mat"),
         classes=7, labels="1..7", format="mat", citation=LIBOL_CITATION, verified=True,
         source="LIBOL's data/ (UCI Image Segmentation)",
         notes="variable data: label column first; feature 3 is 0 on every row"),
    Card("sonar", "libol", "binary", 60,
         DataFile("sonar.arff", 208, 12471,
                  "bfd26fdabb55f092db0ad81642bd171b511b1cd48e3179a1c2262fb5dc87b944"),
         labels="{Mine,Rock}", format="arff", positive="Mine", citation=LIBOL_CITATION,
         verified=True,
         source="UCI Sonar (Gorman & Sejnowski 1988), ARFF copy shipped with LIBOL",
         notes="local only; labels are names, Mine is the positive class by default"),
]

#: name -> card, in catalogue order
CARDS: dict[str, Card] = {card.name: card for card in CARDS_LIST}
