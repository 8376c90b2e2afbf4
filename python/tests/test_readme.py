"""The Python blocks of python/README.md (the package's page) run as written: the ten-line
example, the ported feedparser script, the errors, options and batch examples. Each runs in a
scratch directory holding `corpus` (the repository's) and `crawl.warc.gz` (a WARC built from
corpus/real)."""

import os
import re
import shutil

import pytest

from conftest import ROOT

README = os.path.join(ROOT, "python", "README.md")


def python_blocks():
    with open(README) as fh:
        text = fh.read()
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_readme_has_the_ported_script():
    blocks = python_blocks()
    assert len(blocks) >= 5
    assert any("feedparser" in b and "feedmill.parse(" in b for b in blocks)


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_block_runs(index, warcs, tmp_path, monkeypatch, capsys):
    os.symlink(os.path.join(ROOT, "corpus"), tmp_path / "corpus")
    shutil.copy(warcs[0], tmp_path / "crawl.warc.gz")
    monkeypatch.chdir(tmp_path)
    code = python_blocks()[index]
    exec(compile(code, f"python/README.md block {index}", "exec"), {"__name__": "__readme__"})
