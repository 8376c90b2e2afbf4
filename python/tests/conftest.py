"""Shared fixtures: the repository root, the CLI binary, WARC.gz archives built from
corpus/real by perf/gen_archive.py, and the CLI's output for them."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("FEEDMILL_BIN", os.path.join(ROOT, "target", "release", "feedmill"))
    if not os.path.exists(path):
        pytest.skip(f"the feedmill CLI is not built ({path}); cargo build --release")
    return path


@pytest.fixture(scope="session")
def warcs(tmp_path_factory):
    """Two WARC.gz files from the real corpus (different seeds: different responses)."""
    d = tmp_path_factory.mktemp("warc")
    out = []
    for seed, n in [(1, 400), (2, 300)]:
        p = str(d / f"crawl-{seed}.warc.gz")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "perf", "gen_archive.py"), "--records", str(n),
             "--seed", str(seed), "-o", p],
            check=True, capture_output=True,
        )
        out.append(p)
    return out


def run_cli(cli, args):
    r = subprocess.run([cli, "--quiet", *args], capture_output=True)
    assert r.returncode == 0, r.stderr.decode()
    return r
