"""The example and the scripts of the Python package run, on tiny settings."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[3]


def run(*args):
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_tiny_network_trains_and_plays():
    out = run(ROOT / "crates/python/examples/train_tiny.py", "--quick")
    assert "round 1/1" in out and "against plain UCT" in out


def test_the_tiny_network_saves_and_loads(tmp_path):
    weights = tmp_path / "net.npz"
    run(ROOT / "crates/python/examples/train_tiny.py", "--quick", "--save", weights)
    out = run(ROOT / "crates/python/examples/train_tiny.py", "--quick", "--load", weights)
    assert "round 1/1" in out


def test_the_othello_sweep_prints_its_table(tmp_path):
    table = tmp_path / "sweep.csv"
    out = run(ROOT / "scripts/python/othello6_sweep.py", "--games", "2", "--csv", table)
    assert out.count("\n| ") == 7  # the header and six rows of c
    assert len(table.read_text().splitlines()) == 1 + 66


def test_the_speed_script_runs():
    out = run(ROOT / "scripts/python/speed.py", "--quick")
    assert "overhead" in out
