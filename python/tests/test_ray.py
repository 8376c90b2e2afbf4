"""Ray Data: `map_batches(feedmill.parse_batch, batch_format="pyarrow")` gives the records of
`parse_batch` (row count and sources of a WARC.gz from corpus/real). Runs when `ray` is
importable; python/ci.sh does not install Ray (a large download), so CI skips it."""

import pyarrow as pa
import pytest

import feedmill

ray = pytest.importorskip("ray")


def test_ray_map_batches(warcs):
    raw = pa.Table.from_batches(list(feedmill.read_warc_batches(warcs[1])))
    want = feedmill.parse_batch(raw.combine_chunks().to_batches()[0])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ds = ray.data.from_arrow(raw).map_batches(
            feedmill.parse_batch, batch_format="pyarrow", batch_size=64
        )
        got = pa.concat_tables(ray.get(ds.to_arrow_refs()))
    finally:
        ray.shutdown()
    assert got.num_rows == want.num_rows == 300
    assert sorted(got.column("source").to_pylist()) == sorted(want.column("source").to_pylist())
    assert got.schema == feedmill.schema()
