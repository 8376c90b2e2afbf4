"""Reads two Parquet files with pyarrow and DuckDB and compares rows and chunk statistics."""
import sys
import pyarrow.parquet as pq
import duckdb

a, b = sys.argv[1], sys.argv[2]
ta, tb = pq.read_table(a), pq.read_table(b)
assert ta.schema.equals(tb.schema, check_metadata=True), "schemas differ"
assert ta.num_rows == tb.num_rows, (ta.num_rows, tb.num_rows)
assert ta.equals(tb), "pyarrow tables differ"
ma, mb = pq.ParquetFile(a).metadata, pq.ParquetFile(b).metadata
assert ma.num_row_groups == mb.num_row_groups
nstats = 0
for g in range(ma.num_row_groups):
    ra, rb = ma.row_group(g), mb.row_group(g)
    assert ra.num_rows == rb.num_rows
    for c in range(ra.num_columns):
        ca, cb = ra.column(c), rb.column(c)
        assert ca.path_in_schema == cb.path_in_schema
        assert ca.compression == cb.compression, (ca.compression, cb.compression)
        assert ca.num_values == cb.num_values, (ca.path_in_schema, ca.num_values, cb.num_values)
        sa, sb = ca.statistics, cb.statistics
        assert (sa is None) == (sb is None), ca.path_in_schema
        if sa is not None:
            nstats += 1
            assert sa.has_min_max == sb.has_min_max, ca.path_in_schema
            assert sa.null_count == sb.null_count, ca.path_in_schema
            if sa.has_min_max:
                assert sa.min == sb.min and sa.max == sb.max, (ca.path_in_schema, sa, sb)
con = duckdb.connect()
n = con.execute(f"select count(*) from read_parquet('{a}')").fetchone()[0]
assert n == ta.num_rows
for x, y in [(a, b), (b, a)]:
    d = con.execute(f"select count(*) from (select * from read_parquet('{x}') except all select * from read_parquet('{y}'))").fetchone()[0]
    assert d == 0, f"duckdb: {d} rows of {x} not in {y}"
print(f"same: {ta.num_rows} rows, {ma.num_row_groups} row groups, {nstats} chunks with statistics; sizes {ma.serialized_size} / {mb.serialized_size} footer bytes")
