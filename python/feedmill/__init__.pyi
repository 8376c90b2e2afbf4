"""Type stubs of feedmill (the PyO3 module feedmill._feedmill)."""

from typing import Any, Iterator, Literal, Optional, TypedDict, overload

import pyarrow

__version__: str

class WarcRecord(TypedDict):
    source: str
    url: Optional[str]
    status: Optional[int]
    content_type: Optional[str]
    body: Optional[bytes]
    error_kind: Optional[str]
    error_message: Optional[str]

def parse(
    body: bytes,
    *,
    content_type: Optional[str] = None,
    url: Optional[str] = None,
    status: Optional[int] = None,
    extract: bool = False,
    sanitize: Literal["spec", "strict"] = "spec",
) -> dict[str, Any]:
    """Parses one feed body into a record dict (the CLI's JSON Lines record shape)."""

@overload
def parse_batch(
    batch: pyarrow.RecordBatch,
    *,
    layout: Literal["records", "entries"] = "records",
    extract: bool = False,
    sanitize: Literal["spec", "strict"] = "spec",
) -> pyarrow.RecordBatch: ...
@overload
def parse_batch(
    batch: pyarrow.Table,
    *,
    layout: Literal["records", "entries"] = "records",
    extract: bool = False,
    sanitize: Literal["spec", "strict"] = "spec",
) -> pyarrow.Table:
    """Parses a batch (or table) with a `body` column (and optional `content_type`, `url`,
    `status`, `source`, `error_kind`, `error_message`) into records with `schema(layout)`;
    a Table in gives a Table out (Ray Data `map_batches(..., batch_format="pyarrow")`)."""

def schema(layout: Literal["records", "entries"] = "records") -> pyarrow.Schema:
    """The Arrow schema of `parse_batch` output and of the CLI's Parquet files."""

class WarcRecords(Iterator[WarcRecord]):
    def __iter__(self) -> "WarcRecords": ...
    def __next__(self) -> WarcRecord: ...

class WarcBatches(Iterator[pyarrow.RecordBatch]):
    def __iter__(self) -> "WarcBatches": ...
    def __next__(self) -> pyarrow.RecordBatch: ...

def read_warc(path: str) -> WarcRecords:
    """The records of a WARC / WARC.gz file (or directory, tar, gzip, plain file), in order."""

def read_warc_batches(
    path: str, batch_size: int = 256, batch_bytes: int = 64 << 20
) -> WarcBatches:
    """The records of `read_warc(path)` as record batches `parse_batch` takes: at most
    `batch_size` rows and `batch_bytes` bytes of values each (a larger record is a batch of
    its own; at most 1 GiB)."""
