#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ (gitignored) from the repository's corpus/ and fuzz/regressions/.
#   parse_document  corpus/real/**, every #data of corpus/conformance/tests-web/*.dat,
#                   corpus/fixtures/**
#   parse_response  the same documents, each behind a ResponseCase header (status 200 mostly,
#                   a rotating Content-Type and base URL; see fuzz/src/checks/mod.rs)
#   parse_limits    the conformance documents and fixtures behind rotating SmallLimits bytes
#   decode          fixtures and conformance documents behind rotating transport labels
#   escaped_html    the type="html" values of the conformance cases (unescaped) + snippets
#   dates           the date values of the conformance cases + hand-written forms
#   bulk            small generated WARC / WARC.gz streams and a document
#   parquet         generated multi-document inputs (only when asked for: `seed.sh parquet`)
#   <t>_heavy       a copy of <t>'s corpus (when both are asked for, e.g. `seed.sh parse_document parse_document_heavy`)
# Idempotent (files are named by content hash). Usage: fuzz/seed.sh [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/fuzz/corpus
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(parse_document parse_response parse_limits decode escaped_html dates bulk)
want() { local t; for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

# put TARGET FILE: copy FILE into the target's corpus under its hash.
put() {
  mkdir -p "$OUT/$1"
  cp "$2" "$OUT/$1/seed-$(sha1sum < "$2" | cut -c1-16)"
}
# put_with_header TARGET HEADER_PRINTF_FORMAT FILE
put_with_header() {
  { printf "$2"; cat "$3"; } > "$TMP/h"
  put "$1" "$TMP/h"
}

# 1. Documents: the real corpus, the conformance #data sections, the fixtures.
mkdir -p "$TMP/conf"
awk -v dir="$TMP/conf" '
  /^#data$/ { n++; f = sprintf("%s/%05d.xml", dir, n); inside = 1; first = 1; next }
  /^#[a-z-]+$/ { inside = 0; next }
  inside { if (!first) printf "\n" >> f; printf "%s", $0 >> f; first = 0 }
' corpus/conformance/tests-web/*.dat
i=0
find corpus/real corpus/fixtures -type f ! -name 'README.md' ! -name 'MANIFEST.tsv' | sort > "$TMP/doclist"
ls "$TMP"/conf/* >> "$TMP/doclist"

cts=("" "application/rss+xml" "application/atom+xml; charset=utf-8" "text/html; charset=windows-1252" "text/xml"
     "text/plain" "application/xml; charset=\"koi8-r\"" "application/octet-stream")
labels=("" "utf-8" "windows-1252" "latin1" "shift_jis" "utf-16" "UTF-16BE" "x-user-defined" "replacement" "iso-2022-jp" "bogus")
while IFS= read -r f; do
  i=$((i + 1))
  want parse_document && put parse_document "$f"
  if want parse_response; then
    ct=${cts[$((i % ${#cts[@]}))]}
    flags=$(( (i % 3) << 1 ))          # URL index 0..2 (never the invalid one)
    [ -n "$ct" ] && flags=$(( flags | 1 ))  # bit 0: a Content-Type header is present
    hdr=$(printf '\\x00\\x%02x\\x%02x' "$flags" "${#ct}")
    put_with_header parse_response "$hdr$(printf '%s' "$ct" | sed 's/%/%%/g; s/\\/\\\\/g')" "$f"
  fi
  case "$f" in corpus/real/*) continue ;; esac   # the big documents only seed the two main targets
  if want parse_limits; then
    hdr=$(printf '\\x%02x\\x%02x\\x%02x\\x00' $((i % 6 + 1)) $((i % 4)) $((i * 37 % 256)))
    put_with_header parse_limits "$hdr" "$f"
  fi
  if want decode; then
    l=${labels[$((i % ${#labels[@]}))]}
    if [ -z "$l" ]; then hdr='\x00'; else hdr=$(printf '\\x%02x%s' $((${#l} + 1)) "$l"); fi
    put_with_header decode "$hdr" "$f"
  fi
done < "$TMP/doclist"

# 2. Escaped HTML: type="html" element values of the conformance cases, XML-unescaped.
if want escaped_html; then
  n=0
  grep -ho 'type="html">[^<]*<' "$TMP"/conf/* | sed 's/^type="html">//; s/<$//; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' |
  while IFS= read -r v; do n=$((n + 1)); printf '%s' "$v" > "$TMP/h"; put escaped_html "$TMP/h"; done
  while IFS= read -r v; do printf '%s' "$v" > "$TMP/h"; put escaped_html "$TMP/h"; done <<'EOF'
<p>Hello <b>world</b> &amp; friends</p>
<img src="x.gif" width="1" height="1"><p>tracked</p>
<a href="http://example.com/">link</a> text<br>more
<table><tr><td>cell</td></tr></table>
<svg><circle r="1"/></svg><math><mi>x</mi></math>
<ul><li>one<li>two</ul><!-- comment --><?pi data?>
<div><p>unclosed <i>nested <b>deep</div>
<script>alert(1)</script><style>p{}</style><template><p>t</p></template>
&lt;escaped&gt; &nbsp; &copy; &#x1F600; &#0; &notin; &notit;
<p title='a"b' data-x=&amp;>attrs</p><textarea>
text</textarea><pre>
pre</pre>
<select><option>a<option>b</select><noscript><p>n</p></noscript>
EOF
fi

# 3. Dates: values of date elements in the conformance cases + forms the parsers document.
if want dates; then
  grep -hoE '<(updated|published|issued|modified|created|pubDate|lastBuildDate|dc:date|date)>[^<]*<' "$TMP"/conf/* |
    sed -E 's/^<[^>]*>//; s/<$//' | sort -u > "$TMP/dates"
  cat >> "$TMP/dates" <<'EOF'
2024-01-15T10:20:30Z
2024-01-15T10:20:30.123456789+05:30
1985-04-12t23:20:50.52z
1990-12-31T23:59:60Z
2024-02-29
2024-02
2024
2024-01-15T10:20+01:00
Mon, 15 Jan 2024 10:20:30 GMT
15 Jan 24 10:20 EST
Sun, 06 Nov 1994 08:49:37 +9900
Thu, 01 Jan 1970 00:00:00 (comment) -0000
Jan 15, 2024
15 January 2024 10:20
2024-Jan-15
Sun Aug 17 16:51:14 UTC 2008
15.01.2024
2024/01/15 10:20:30 PM
1705314030
1705314030123
9999-12-31T23:59:59.9999999999999999999999999999999999Z
0000-01-01T00:00:00Z
EOF
  while IFS= read -r v; do printf '%s' "$v" > "$TMP/h"; put dates "$TMP/h"; done < "$TMP/dates"
fi

# 4. Archives (bulk): small WARC streams built from conformance documents (response records
#    with plain, chunked and gzip-coded bodies, a non-200 status, a request record, a
#    truncated record), as plain WARC (mode 0), to be gzipped by the target (mode 1), as
#    WARC.gz members (mode 2), and a plain document (mode 3). See check_bulk.
if want bulk; then
  mkdir -p "$OUT/bulk"
  python3 - "$OUT/bulk" "$TMP"/conf/00001.xml "$TMP"/conf/00120.xml "$TMP"/conf/00200.xml <<'PY'
import gzip, hashlib, sys
out, docs = sys.argv[1], [open(p, 'rb').read() for p in sys.argv[2:]]
def record(kind, uri, block):
    h = (b"WARC/1.0\r\nWARC-Type: " + kind + b"\r\nWARC-Target-URI: " + uri +
         b"\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " + str(len(block)).encode() + b"\r\n\r\n")
    return h + block + b"\r\n\r\n"
def http(status, ctype, body, extra=b""):
    return (b"HTTP/1.1 " + status + b"\r\nContent-Type: " + ctype + b"\r\n" + extra +
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
def chunked(body):
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n" +
            b"%x\r\n" % len(body[:20]) + body[:20] + b"\r\n" + b"%x\r\n" % len(body[20:]) + body[20:] + b"\r\n0\r\n\r\n")
recs = [record(b"response", b"http://example.com/a.xml", http(b"200 OK", b"application/rss+xml; charset=utf-8", docs[0])),
        record(b"request", b"http://example.com/a.xml", b"GET /a.xml HTTP/1.1\r\n\r\n"),
        record(b"response", b"<http://example.com/b>", chunked(docs[1])),
        record(b"response", b"http://example.com/c", http(b"200 OK", b"application/atom+xml", gzip.compress(docs[2]), b"Content-Encoding: gzip\r\n")),
        record(b"response", b"http://example.com/404", http(b"404 Not Found", b"text/html", b"<html/>"))]
plain = b"".join(recs)
members = b"".join(gzip.compress(r) for r in recs)
seeds = [b"\x00" + plain, b"\x01" + plain, b"\x02" + members, b"\x02" + members[:len(members) // 2] + b"garbage" + members,
         b"\x00" + plain[:-40], b"\x03" + docs[0]]
seeds += [b"\x00" + r for r in recs] + [b"\x02" + gzip.compress(r) for r in recs]
for s in seeds:
    open("%s/seed-%s" % (out, hashlib.sha1(s).hexdigest()[:16]), "wb").write(s)
PY
fi

# 5. Parquet: 150 inputs of 1-6 documents (those of step 1 under 12,000 bytes; now and then
#    a non-feed) joined by \xff\xff\xff, behind random settings bytes (flags, records per row
#    group, column limit, held bytes; see check_parquet). Fixed random seed.
if want parquet; then
  mkdir -p "$OUT/parquet"
  python3 - "$OUT/parquet" "$TMP/doclist" <<'PY'
import hashlib, os, random, sys
random.seed(7)
docs = [f for f in open(sys.argv[2]).read().splitlines() if os.path.getsize(f) < 12000]
for n in range(150):
    parts = [open(random.choice(docs), "rb").read() for _ in range(random.choice([1, 1, 2, 3, 4, 6]))]
    if random.random() < 0.15:
        parts.append(b"not a feed")
    header = bytes([random.randrange(64), random.randrange(256), random.choice([0, 0, 0, 1, 2, 8, 40]),
                    random.choice([0, 0, 1, 4, 50])])
    s = header + b"\xff\xff\xff".join(parts)[:24000]
    open("%s/seed-%s" % (sys.argv[1], hashlib.sha1(s).hexdigest()[:16]), "wb").write(s)
PY
fi

# 6. The committed regressions are seeds too.
for t in "${targets[@]}"; do
  if [ -d "fuzz/regressions/$t" ]; then
    for f in fuzz/regressions/"$t"/*; do [ -f "$f" ] && put "$t" "$f"; done
  fi
done

for t in "${targets[@]}"; do
  printf '%-15s %6d seeds\n' "$t" "$(ls "$OUT/$t" 2>/dev/null | wc -l)"
done

# A `*_heavy` target reads its light target's input layout: seeded from its corpus.
for t in parse_document document_lint parse_response parse_limits escaped_html json_feed; do
  if want "${t}_heavy" && [ -d "$OUT/$t" ]; then
    mkdir -p "$OUT/${t}_heavy"
    cp "$OUT/$t"/* "$OUT/${t}_heavy/" 2>/dev/null || true
  fi
done
