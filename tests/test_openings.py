"""Openings: files read and checked, books from MultiPV searches, trees
from games, and openings files used by studies, matches and analysis."""

from __future__ import annotations

import pytest

import fairyforge
from fairyforge import pgn
from fairyforge.tools import analysis, cli, match, pool, study
from fairyforge.tools import openings as openingsmod
from fairyforge.tools.players import Player


def test_a_multipv_book_round_trips_through_pgn_and_epd(tmp_path):
    lines = openingsmod.book("shocking", plies=2, multipv=2, depth=2, window=1000)
    assert 1 <= len(lines) <= 4 and all(len(o.moves) == 2 for o in lines)
    keys = {openingsmod.position_key(o.board("shocking")) for o in lines}
    assert len(keys) == len(lines)
    openingsmod.write(tmp_path / "book.pgn", lines, "shocking")
    openingsmod.write(tmp_path / "book.epd", lines, "shocking")
    from_pgn = openingsmod.read(tmp_path / "book.pgn", "shocking")
    from_epd = openingsmod.read(tmp_path / "book.epd", "shocking")
    assert [o.moves for o in from_pgn] == [o.moves for o in lines]
    assert [o.board("shocking").fen() for o in from_epd] == [
        o.board("shocking").fen() for o in lines
    ]


def test_a_study_from_a_book_starts_each_game_with_its_line(tmp_path):
    lines = openingsmod.book("evolution", plies=2, multipv=2, depth=1, window=1000)
    plan = study.make_plan("evolution", games=len(lines), nodes=200, max_plies=20, openings=lines)
    assert plan.random_plies == 0
    records = list(study.run(plan, workers=1))
    for r in records:
        assert tuple(r["moves"][: r["opening_plies"]]) == lines[r["index"]].moves
    roots = openingsmod.tree(records, 2)
    (root,) = roots.values()
    assert root.games == len(lines)
    assert sum(c.games for c in root.children.values()) == len(lines)
    assert openingsmod.tree_lines(root, None, min_games=1) != []


def test_a_match_takes_its_openings_from_a_file(tmp_path):
    path = tmp_path / "o.epd"
    path.write_text(
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 "e2e4";\n'
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
    )
    book = openingsmod.read(path, "chess")
    a, b = Player("a", nodes=200), Player("b", depth=1, eval="material", plain=True)
    games = match.pairings("chess", a, b, 4, openings=book, max_plies=12)
    assert [g.fen for g in games] == [book[0].fen, book[0].fen, book[1].fen, book[1].fen]
    record = match.play(games[0])
    assert record["fen"] == book[0].fen and record["opening_plies"] == 0
    assert "book" not in match.settings(match.pairings("chess", a, b, 2))


def test_cli_openings_book_and_tree(capsys, tmp_path):
    book = tmp_path / "book.pgn"
    code = cli.main(
        [
            "openings",
            "book",
            "-v",
            "chess",
            "--plies",
            "2",
            "--multipv",
            "2",
            "--depth",
            "2",
            "--window",
            "1000",
            "--out",
            str(book),
        ]
    )
    assert code == 0 and "lines of 2 plies" in capsys.readouterr().err
    out = tmp_path / "s"
    argv = ["study", "--openings", str(book), "--random-plies", "2", "--games", "6"]
    argv += ["--nodes", "200", "--max-plies", "20", "--workers", "1", "--out", str(out)]
    assert cli.main(argv) == 0
    capsys.readouterr()
    tree = tmp_path / "tree.epd"
    code = cli.main(
        ["openings", "tree", str(out), "--plies", "2", "--min-games", "1", "--out", str(tree)]
    )
    text = capsys.readouterr().out
    assert code == 0 and "chess: 6 games" in text and "1." in text
    assert len(openingsmod.read(tree, "chess")) >= 1


def test_analyse_refuses_other_settings_for_its_output(capsys, tmp_path):
    source = tmp_path / "g.pgn"
    board = fairyforge.Board("chess")
    board.push_uci("e2e4")
    pgn.write_games(source, [pgn.Game.from_board(board)])
    out = tmp_path / "a.jsonl"
    argv = ["analyse", str(source), "--out", str(out), "--workers", "1"]
    assert cli.main([*argv, "--depth", "1"]) == 0
    capsys.readouterr()
    assert cli.main([*argv, "--depth", "2"]) == 2
    assert "depth: 1 there, 2 now" in capsys.readouterr().err
    with pytest.raises(pool.SettingsMismatchError):
        analysis.run(list(analysis.tasks(source, nodes=100)), out=out, workers=1, source=source)
    assert cli.main(["analyse", str(tmp_path), "--out", str(out), "--depth", "1"]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert cli.main(["analyse", str(source), "--out", str(tmp_path), "--depth", "1"]) == 2
    assert "is a directory" in capsys.readouterr().err
