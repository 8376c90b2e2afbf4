"""A date written by `feedmill -o FILE.parquet` reads back in pyarrow as the aware UTC
datetime it was: run by cli/tests/it/output.rs (a_date_round_trips_through_parquet_with_its_utc_zone)
with the Parquet file of a feed whose pubDate is `Tue, 10 Jun 2003 06:00:00 +0200`.

Usage: python3 cli/tests/parquet_dates.py FILE.parquet
"""

import datetime
import sys

import pyarrow as pa
import pyarrow.parquet as pq

table = pq.read_table(sys.argv[1])
feed_type = table.schema.field("feed").type
updated_type = feed_type.field("updated").type
assert pa.types.is_timestamp(updated_type), updated_type
assert updated_type.unit == "us" and updated_type.tz == "UTC", updated_type
updated = table.column("feed")[0].as_py()["updated"]
want = datetime.datetime(2003, 6, 10, 4, 0, tzinfo=datetime.timezone.utc)
assert updated == want, updated
assert updated.utcoffset() == datetime.timedelta(0), updated.tzinfo
print("ok", updated.isoformat())
