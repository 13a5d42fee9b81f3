"""fairyforge's own UCI loop (``fairyforge uci``) against a current
Fairy-Stockfish in Shocking Chess, both as ``uci:`` players of ``fairyforge
match``, refereed by fairyforge's Board: no illegal move, no time loss, no
protocol error. Skipped where the peer is missing (``scripts/peers`` builds
it into ``.peers/``, or set ``FAIRYFORGE_FSF``).

Fairy-Stockfish plays ``shocking-shock`` from ``tests/data/
fairy-stockfish.ini``, whose deviations are listed there: Black never
captures en passant (a subset of our legal moves), and its FEN writes an en
passant square after every White double step, so the match sends it the
game as ``position startpos moves ...``."""

from __future__ import annotations

import json
import shlex
import sys

import pytest
from peers import FSF_INI, black_took_en_passant, fairy_stockfish

from fairyforge.tools import cli

FSF = fairy_stockfish()
pytestmark = pytest.mark.skipif(FSF is None, reason="no current Fairy-Stockfish (scripts/peers)")


def uci_match(tmp_path, capsys, games: int, tc: str, max_plies: int) -> list[dict]:
    """Records of a match of ``fairyforge uci`` (as --a) against the peer."""
    assert FSF is not None
    ours = f"uci:{shlex.quote(sys.executable)} -m fairyforge uci"
    argv = ["match", "-v", "shocking", "--games", str(games), "--tc", tc]
    argv += ["--max-plies", str(max_plies), "--workers", "1", "--out", str(tmp_path / "m")]
    argv += ["--a", ours, "--a-option", "UCI_Variant=shocking", "--b", f"uci:{shlex.quote(FSF)}"]
    argv += ["--b-option", f"VariantPath={FSF_INI}", "--b-option", "UCI_Variant=shocking-shock"]
    assert cli.main(argv) == 0, capsys.readouterr()
    capsys.readouterr()
    with open(tmp_path / "m.shocking.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_a_short_game_against_fairy_stockfish(tmp_path, capsys) -> None:
    (record,) = uci_match(tmp_path, capsys, games=1, tc="1+0.02", max_plies=16)
    assert record["offender"] is None, record["detail"]
    assert record["white"].startswith("fairyforge") and "Fairy-Stockfish" in record["black"]
    assert len(record["moves"]) == 16 or record["termination"] != "adjudication"


@pytest.mark.slow
def test_two_games_at_3_plus_005_against_fairy_stockfish(tmp_path, capsys) -> None:
    records = uci_match(tmp_path, capsys, games=2, tc="3+0.05", max_plies=300)
    for r in records:
        # The peer's one known deviation: it never lets Black capture en
        # passant, so after such a capture by fairyforge it plays on from
        # another position; nothing else is excused.
        excused = r["offender"] != r["white" if r["white"].startswith("fairyforge") else "black"]
        assert r["offender"] is None or (excused and black_took_en_passant(r)), r["detail"]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["chess", "shocking"])
def test_two_games_at_10_plus_01_against_fairy_stockfish(tmp_path, capsys, variant) -> None:
    """The issue's clock: fairyforge's own player loses no game on time and
    plays no illegal move against the peer at 10+0.1."""
    assert FSF is not None
    argv = ["match", "-v", variant, "--games", "2", "--tc", "10+0.1", "--max-plies", "160"]
    argv += ["--workers", "1", "--out", str(tmp_path / "m"), "--b", f"uci:{shlex.quote(FSF)}"]
    if variant == "shocking":
        argv += ["--b-option", f"VariantPath={FSF_INI}", "--b-option", "UCI_Variant=shocking-shock"]
    assert cli.main(argv) == 0, capsys.readouterr()
    capsys.readouterr()
    with open(tmp_path / f"m.{variant}.jsonl", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    assert len(records) == 2
    for r in records:
        assert r["offender"] != "full", r["detail"]
