"""Type stubs of feedmill (the PyO3 module feedmill._feedmill and its Python wrapper).

Checked against the package by ``stubtest`` (python/ci.sh) and by python/tests/test_values.py
(the options listed here are the library's, the TypedDicts the values ``parse`` returns).
"""

import datetime
import os
from typing import Iterator, List, Literal, Optional, TypedDict, Union, final, overload

import pyarrow
from typing_extensions import Buffer, Unpack

from .record import Capture
from .record import Record as Record
from .record import WarcRecord as WarcRecord

__version__: str
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

class Options(TypedDict, total=False):
    """The keyword options every function takes (the CLI's flags, ``_`` for ``-``)."""

    spec_exact: bool
    base_url: Optional[str]
    sanitize: Literal["spec", "strict"]
    allow_video_embeds: bool
    extract: bool
    as_of: Union[datetime.datetime, str, None]
    # The limits (`feedmill.limits()`), made from the Rust library's `Limits::ALL` by
    # tests/it/generated.rs; do not edit by hand.
# <!-- generated:limit-options -->
    max_input_bytes: int
    max_depth: int
    max_entries: int
    max_text_bytes: int
    max_attributes: int
    max_html_attributes: int
    max_namespace_bindings: int
    max_diagnostics: int
    max_url_growth: int
    max_extension_depth: int
    max_extension_elements: int
    max_extension_bytes: int
    max_inherited_bytes: int
# <!-- /generated:limit-options -->

def parse(
    body: Union[Buffer, str, None],
    *,
    content_type: Optional[str] = None,
    url: Optional[str] = None,
    status: Optional[int] = None,
    source: Optional[str] = None,
    error_kind: Optional[str] = None,
    error_message: Optional[str] = None,
    capture: Optional[Capture] = None,
    notes: Optional[List[str]] = None,
    **options: Unpack[Options],
) -> Record:
    """Parses one feed body (bytes-like, or an already decoded str) into a record: every key,
    None or [] when empty, dates as aware datetimes (UTC)."""

def parse_file(
    path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]], **options: Unpack[Options]
) -> Record:
    """Parses the feed document at `path` (a str, bytes or os.PathLike, as `open()` takes)
    into a record, as `parse` does."""

@overload
def parse_batch(
    batch: pyarrow.RecordBatch,
    *,
    layout: Literal["records", "entries"] = "records",
    **options: Unpack[Options],
) -> pyarrow.RecordBatch: ...
@overload
def parse_batch(
    batch: pyarrow.Table,
    *,
    layout: Literal["records", "entries"] = "records",
    **options: Unpack[Options],
) -> pyarrow.Table:
    """Parses a batch (or table) with a `body` column (and optional `content_type`, `url`,
    `status`, `source`, `error_kind`, `error_message`, `capture`, `notes`) into records with
    `schema(layout)`;
    a Table in gives a Table out (Ray Data `map_batches(..., batch_format="pyarrow")`)."""

def schema(layout: Literal["records", "entries"] = "records") -> pyarrow.Schema:
    """The Arrow schema of `parse_batch` output and of the CLI's Parquet files."""

def limits() -> dict[str, int]:
    """Every limit option by name, with its default."""

@final
class WarcRecords(Iterator[Union[WarcRecord, Record]]):
    def __iter__(self) -> "WarcRecords": ...
    def __next__(self) -> Union[WarcRecord, Record]: ...

@final
class WarcBatches(Iterator[pyarrow.RecordBatch]):
    def __iter__(self) -> "WarcBatches": ...
    def __next__(self) -> pyarrow.RecordBatch: ...

@overload
def read_warc(
    path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
    *,
    parse: Literal[False] = False,
    max_input_bytes: int = ...,
) -> Iterator[WarcRecord]: ...
@overload
def read_warc(
    path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
    *,
    parse: Literal[True],
    **options: Unpack[Options],
) -> Iterator[Record]:
    """The records of a WARC / WARC.gz file (or directory, tar, gzip, plain file), in order:
    raw (what `parse(**record)` takes), or parsed with `parse=True`."""

@overload
def read_warc_batches(
    path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
    batch_size: int = 256,
    batch_bytes: int = 64 << 20,
    *,
    parse: Literal[False] = False,
    max_input_bytes: int = ...,
) -> WarcBatches: ...
@overload
def read_warc_batches(
    path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
    batch_size: int = 256,
    batch_bytes: int = 64 << 20,
    *,
    parse: Literal[True],
    layout: Literal["records", "entries"] = "records",
    **options: Unpack[Options],
) -> WarcBatches:
    """The records of `read_warc(path)` as record batches: raw (the columns `parse_batch`
    takes) or parsed with `parse=True` (`schema(layout)`)."""
