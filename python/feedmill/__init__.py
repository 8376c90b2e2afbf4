"""feedmill: spec-exact RSS/Atom feed processing from Python (a Rust engine, PyO3 bindings).

- ``parse(body, *, content_type=None, url=None)`` -> dict: one record, the shape of a JSON
  Lines record of the ``feedmill`` CLI.
- ``parse_batch(batch)`` -> ``pyarrow.RecordBatch``: bodies in, records out with feedmill's
  Arrow schema (``schema()``), for Spark ``mapInArrow`` and pyarrow; a ``pyarrow.Table`` in
  gives a ``pyarrow.Table`` out (Ray Data ``map_batches(parse_batch, batch_format="pyarrow")``).
- ``read_warc(path)`` / ``read_warc_batches(path)``: the records of a WARC(.gz) file.

The GIL is released while parsing and reading.
"""

from ._feedmill import (  # noqa: F401
    WarcBatches,
    WarcRecords,
    __version__,
    parse,
    read_warc,
    read_warc_batches,
    schema,
)
from ._feedmill import parse_batch as _parse_batch


def parse_batch(batch, *, layout="records", extract=False, sanitize="spec"):
    """Parses a ``pyarrow.RecordBatch`` (or ``pyarrow.Table``) with a ``body`` column (and
    optional ``content_type``, ``url``, ``status``, ``source``, ``error_kind``,
    ``error_message``) into records with ``schema(layout)``: a RecordBatch for a RecordBatch,
    a Table (one batch per input batch) for a Table. The GIL is released while parsing."""
    import pyarrow

    if isinstance(batch, pyarrow.Table):
        out = [
            _parse_batch(b, layout=layout, extract=extract, sanitize=sanitize)
            for b in batch.to_batches()
        ]
        return pyarrow.Table.from_batches(out, schema=schema(layout))
    return _parse_batch(batch, layout=layout, extract=extract, sanitize=sanitize)


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
