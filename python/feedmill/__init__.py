"""feedmill: spec-exact RSS/Atom feed processing from Python (a Rust engine, PyO3 bindings).

- ``parse(body, *, content_type=None, url=None)`` -> dict: one record, the shape of a JSON
  Lines record of the ``feedmill`` CLI.
- ``parse_batch(batch)`` -> ``pyarrow.RecordBatch``: bodies in, records out with feedmill's
  Arrow schema (``schema()``), for Spark ``mapInArrow``, Ray Data ``map_batches`` and pyarrow.
- ``read_warc(path)`` / ``read_warc_batches(path)``: the records of a WARC(.gz) file.

The GIL is released while parsing and reading.
"""

from ._feedmill import (  # noqa: F401
    WarcBatches,
    WarcRecords,
    __version__,
    parse,
    parse_batch,
    read_warc,
    read_warc_batches,
    schema,
)

__all__ = [
    "parse",
    "parse_batch",
    "schema",
    "read_warc",
    "read_warc_batches",
    "WarcRecords",
    "WarcBatches",
    "__version__",
]
