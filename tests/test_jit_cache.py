"""numba's on-disk cache as olbench uses it (olbench._jit): an index naming a type that no
longer exists is stale, not an error."""

from __future__ import annotations

import pickle
import sys
import types

from numba.core import caching

import olbench._jit  # noqa: F401  (installs the tolerant index reader)


def _index_file(tmp_path, overloads) -> caching.IndexDataCacheFile:
    cache = caching.IndexDataCacheFile(str(tmp_path), "helper-1.py311", source_stamp="stamp")
    with open(cache._index_path, "wb") as f:
        pickle.dump(cache._version, f)
        f.write(pickle.dumps(("stamp", overloads)))
    return cache


def test_an_index_naming_a_type_that_is_gone_is_stale(tmp_path):
    # a rule's Params class, pickled in a helper's index, then renamed away (an edit)
    module = types.ModuleType("olbench_gone_rule")
    exec("from collections import namedtuple\nParams = namedtuple('Params', ['eta'])",
         module.__dict__)
    sys.modules[module.__name__] = module
    try:
        cache = _index_file(tmp_path, {(module.Params(1.0),): "entry"})
        del module.Params
        assert cache._load_index() == {}          # stale: compiled again, no AttributeError
    finally:
        del sys.modules[module.__name__]


def test_a_fresh_index_still_loads(tmp_path):
    assert _index_file(tmp_path, {("sig",): "entry"})._load_index() == {("sig",): "entry"}


def test_the_reader_is_installed_once():
    olbench._jit._tolerate_stale_indexes()
    assert caching.IndexDataCacheFile._load_index.tolerates_stale
