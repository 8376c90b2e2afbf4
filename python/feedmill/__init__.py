"""feedmill: spec-exact RSS/Atom/JSON Feed processing from Python (a Rust engine, PyO3
bindings). The package's page is python/README.md.

- ``parse(body, ...)`` -> ``Record``: one record as Python values (every key; ``None`` or
  ``[]`` when empty; dates as aware ``datetime``s); ``parse_file(path)`` likewise.
- ``parse_batch(batch)`` -> ``pyarrow.RecordBatch``: bodies in, records out with feedmill's
  Arrow schema (``schema()``), for Spark ``mapInArrow`` and pyarrow; a ``pyarrow.Table`` in
  gives a ``pyarrow.Table`` out (Ray Data ``map_batches(parse_batch, batch_format="pyarrow")``).
- ``read_warc(path)`` / ``read_warc_batches(path)``: the records of a WARC(.gz) file, raw or
  (``parse=True``) parsed.

Every function takes the CLI's processing options as keyword arguments, ``_`` for ``-``
(``Options``): ``spec_exact``, ``base_url``, ``sanitize``, ``allow_video_embeds``,
``extract``, ``as_of`` and every limit (``limits()``). The GIL is released while parsing and reading.
"""

import datetime
from typing import Optional, TypedDict, Union

from ._feedmill import (  # noqa: F401
    WarcBatches,
    WarcRecords,
    __version__,
    limits,
    parse,
    parse_file,
    read_warc,
    read_warc_batches,
    schema,
)
from ._feedmill import parse_batch as _parse_batch
from .record import Record, WarcRecord  # noqa: F401

# The keyword options, for type checkers: the flags, then every limit under the name the
# Rust library gives it (`limits()`), so this list cannot miss one.
Options = TypedDict(  # type: ignore[misc]
    "Options",
    {
        "spec_exact": bool,
        "base_url": Optional[str],
        "sanitize": str,
        "allow_video_embeds": bool,
        "extract": bool,
        "as_of": Union[datetime.datetime, str, None],
        **{name: int for name in limits()},
    },
    total=False,
)
Options.__doc__ = """The keyword options every function takes (the CLI's flags, ``_`` for ``-``):
``spec_exact`` (no web recovery rule), ``base_url`` (for documents without a URL of their own),
``sanitize`` (``"spec"`` or ``"strict"``), ``allow_video_embeds`` (with ``"strict"``),
``extract`` (the extraction keys), ``as_of`` (with ``extract``: the instant ``future`` dates are
compared with when a record has no capture date, an aware ``datetime`` or an RFC 3339 / W3C-DTF
str; default: the time of the call), and every limit of ``limits()``."""


def parse_batch(batch, *, layout="records", **options):
    """Parses a ``pyarrow.RecordBatch`` (or ``pyarrow.Table``) with a ``body`` column (binary
    or string; and optional string columns ``content_type``, ``url``, ``source``,
    ``error_kind``, ``error_message``, an integer ``status``, and ``capture`` and ``notes`` as
    ``read_warc_batches`` gives them) into records with
    ``schema(layout)``: a RecordBatch for a RecordBatch, a Table (one batch per input batch)
    for a Table. A column of another type raises TypeError. Takes the options of ``parse``.
    The GIL is released while parsing."""
    import pyarrow

    if isinstance(batch, pyarrow.Table):
        out = [_parse_batch(b, layout=layout, **options) for b in batch.to_batches()]
        return pyarrow.Table.from_batches(out, schema=schema(layout))
    return _parse_batch(batch, layout=layout, **options)


__all__ = [
    "parse",
    "parse_file",
    "parse_batch",
    "schema",
    "limits",
    "read_warc",
    "read_warc_batches",
    "Record",
    "WarcRecord",
    "Options",
    "WarcRecords",
    "WarcBatches",
    "__version__",
]
