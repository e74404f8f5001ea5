"""Real data by name: the catalogue (:mod:`.cards`) and offline-first resolution (:mod:`.fetch`).

``make_stream("dataset", name="a9a")`` (or ``olbench stream=dataset stream.name=a9a``) reads
a dataset of the catalogue; ``olbench --datasets`` prints :func:`catalogue_table`.

>>> get_card("mushrooms").labels
'{1,2}'
"""

from __future__ import annotations

from olbench.datasets.cards import CARDS, Card, DataFile
from olbench.datasets.fetch import (
    ChecksumError,
    DatasetNotFound,
    cache_dir,
    data_dir,
    download,
    find_local,
    get_card,
    locate,
    search_path,
)


def _num(value) -> str:
    return "?" if value is None else f"{value:,}"


def catalogue_rows(explicit=None) -> list[dict]:
    """One row per card, with where its training part is found locally (or ``-``)."""
    rows = []
    for card in CARDS.values():
        found = find_local(card, "train", explicit)
        test = card.test
        rows.append({
            "name": card.name, "task": card.task,
            "rows": _num(card.train.rows) + (f" / {_num(test.rows)}" if test else ""),
            "features": _num(card.features), "nnz": _num(card.train.nnz),
            "classes": "-" if card.classes is None else str(card.classes),
            "labels": card.labels, "local": found[0] if found else "-",
            "source": card.collection})
    return rows


def catalogue_table(explicit=None, markdown: bool = False) -> str:
    """The catalogue as a text table (``markdown=True``: the README's table)."""
    rows = catalogue_rows(explicit)
    columns = ["name", "task", "rows", "features", "nnz", "classes", "labels", "local",
               "source"]
    if markdown:
        columns.remove("local")
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(str(r[c]) for c in columns) + " |" for r in rows]
        return "\n".join(lines)
    width = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
    lines = ["  ".join(c.ljust(width[c]) for c in columns)]
    lines += ["  ".join(str(r[c]).ljust(width[c]) for c in columns).rstrip() for r in rows]
    here = sum(r["local"] != "-" for r in rows)
    folders = "; ".join(f"{label}: {root}" for label, root in search_path(explicit))
    lines += ["", f"{len(rows)} datasets, {here} present locally ({folders}).",
              "rows: training part / test part. local: where the training file was found; "
              "'-': downloaded on first use (set OLBENCH_OFFLINE=1 to forbid).",
              "Use: olbench stream=dataset stream.name=<name> [stream.split=train+test] "
              "[stream.positive_label=<class>]",
              "OpenML (not listed here): stream.name=openml:<name> or openml:<id>, through "
              "scikit-learn's fetch_openml, cached under <folder>/openml"]
    return "\n".join(lines)


__all__ = ["CARDS", "Card", "DataFile", "ChecksumError", "DatasetNotFound", "cache_dir",
           "catalogue_rows", "catalogue_table", "data_dir", "download", "find_local",
           "get_card", "locate", "search_path"]
