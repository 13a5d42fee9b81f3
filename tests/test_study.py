"""Balance studies: records and summaries, fair distinct openings, grids,
resumption and refused settings, the same games on every executor, and
jobs that survive Ctrl-C, a killed worker and a killed parent."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import chess
import psutil
import pytest

import fairyforge
from fairyforge import pgn
from fairyforge.tools import cli, jobs, players, pool, stats, study
from fairyforge.tools import openings as openingsmod

SMALL_BURDEN = {"files": "6", "pawn_ranks": "2"}


def quick(variant: str = "chess", **settings) -> study.Plan:
    """A plan of short, cheap games."""
    base = {"games": 3, "nodes": 300, "max_plies": 40, "random_plies": 4, "window_nodes": 300}
    return study.make_plan(variant, **{**base, **settings})


def moves_by_game(records: list[dict]) -> dict[tuple[str, int], list[str]]:
    return {(r["config"], r["index"]): r["moves"] for r in records}


def workers_of(pid: int) -> list[psutil.Process]:
    """The worker processes of a run (multiprocessing's resource tracker,
    which lives as long as its parent, is not one)."""
    return [
        p
        for p in psutil.Process(pid).children(recursive=True)
        if "resource_tracker" not in " ".join(p.cmdline())
    ]


def alive(processes: list[psutil.Process]) -> list[int]:
    out = []
    for p in processes:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p.pid)
        except psutil.NoSuchProcess:
            pass
    return out


def lines_of(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_records_carry_what_the_summary_needs():
    plan = quick("chess", games=4, max_plies=60)
    records = list(study.run(plan, workers=1))
    assert sorted(r["index"] for r in records) == [0, 1, 2, 3]
    for r in records:
        assert len(r["legal"]) == len(r["eval_cp"]) == len(r["moves"])
        assert r["opening_plies"] == 4 and r["eval_cp"][:4] == [None] * 4
        assert all(isinstance(v, int) for v in r["eval_cp"][4:])
        board = chess.Board()
        captures = 0
        for move, legal in zip(r["moves"], r["legal"]):
            assert legal == board.legal_moves.count()
            captures += board.is_capture(chess.Move.from_uci(move))
            board.push_uci(move)
        assert r["captures"] == captures
        assert r["kings"] == [1, 1] and r["points"] is None
    # No two games start from the same position.
    keys = {study._opening_key(r) for r in records}
    assert len(keys) == 4
    (s,) = study.summarize(records)
    assert s["games"] == 4 and s["white_wins"] + s["draws"] + s["black_wins"] == 4
    lo, hi = s["interval"]
    assert 0 <= lo <= s["white_score"] <= hi <= 1
    assert sum(s["terminations"].values()) == 4
    assert s["length"]["q1"] <= s["length"]["median"] <= s["length"]["q3"]
    assert s["branching"]["mean"][0] == 20 and s["branching"]["games"][0] == 4


def test_fair_openings_stay_within_the_window():
    # Every ply is the first of its seeded tries within the window of the
    # best score, or, when none of them is, the best of the tries.
    task = openingsmod.FairLine("chess", {}, None, (), 6, "7/0/0", window=60, nodes=1000)
    line = openingsmod.fair_line(task)
    assert len(line.moves) == 6
    assert openingsmod.fair_line(task) == line  # seeded: the same line again
    board = fairyforge.Board("chess")
    engine = players.engine(openingsmod.CHECKER, board)
    rng = random.Random(task.seed)
    for move in line.moves:
        best = openingsmod._score(engine, board, 1000)
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        rng.shuffle(moves)
        scores = []
        for m in moves[: openingsmod.TRIES]:
            board.push(m)
            if not board.is_game_over(claim_draw=True):
                scores.append((-openingsmod._score(engine, board, 1000), m.uci()))
            board.pop()
        inside = [u for s, u in scores if s >= best - 60]
        assert move == (inside[0] if inside else max(scores, key=lambda t: t[0])[1])
        board.push_uci(move)


def test_grid_plays_every_combination_into_files_of_their_own(tmp_path):
    plan = quick(
        "burden",
        options=SMALL_BURDEN,
        grid=study.parse_grid(["royal=king,gryphon", "cycle=none,knight"]),
        games=2,
    )
    assert [c.label for c in plan.configs] == [
        "royal=king cycle=none",
        "royal=king cycle=knight",
        "royal=gryphon cycle=none",
        "royal=gryphon cycle=knight",
    ]
    records = list(study.run(plan, out=tmp_path, workers=1))
    assert len(records) == 8
    for config in plan.configs:
        path = tmp_path / f"{config.file_name}.jsonl"
        assert [r["index"] for r in pool.read(path)] == [0, 1]
        games = list(pgn.iter_games(path.with_suffix(".pgn")))
        assert len(games) == 2
        assert games[0].headers["Variant"] == "burden"
        assert pgn.parse_variant_options(games[0].headers["VariantOptions"]) == config.options
        assert games[0].headers["Event"] == "fairyforge study"
    summaries = study.summarize(records)
    assert [s["config"] for s in summaries] == [c.label for c in plan.configs]
    for s in summaries:
        decisive = s["white_wins"] + s["black_wins"]
        assert (s["points"] is not None) == (decisive > 0)


def test_rerun_continues_and_other_settings_are_refused(tmp_path):
    first = list(study.run(quick("evolution", games=2), out=tmp_path, workers=1))
    again = list(study.run(quick("evolution", games=4), out=tmp_path, workers=1))
    assert [r["index"] for r in again[:2]] == [0, 1] and again[:2] == first
    assert sorted(r["index"] for r in again[2:]) == [2, 3]
    path = tmp_path / "evolution.jsonl"
    assert sorted(r["index"] for r in pool.read(path)) == [0, 1, 2, 3]
    assert lines_of(path) == 4
    with pytest.raises(pool.SettingsMismatchError, match="player.nodes: 300 there, 400 now"):
        study.run(quick("evolution", games=4, nodes=400), out=tmp_path, workers=1)
    with pytest.raises(pool.SettingsMismatchError, match="seed: 1 there, 2 now"):
        study.run(quick("evolution", seed=2), out=tmp_path, workers=1)


def test_a_torn_last_line_is_cut_off_and_its_game_played_again(tmp_path, caplog):
    plan = quick("evolution", games=3)
    list(study.run(plan, out=tmp_path, workers=1))
    path = tmp_path / "evolution.jsonl"
    text = path.read_text().splitlines(keepends=True)
    path.write_text("".join(text[:2]) + text[2][: len(text[2]) // 2])
    records = list(study.run(plan, out=tmp_path, workers=1))
    assert "cut off a torn last line" in caplog.text
    assert sorted(r["index"] for r in records) == [0, 1, 2]
    assert lines_of(path) == 3
    assert len(list(pgn.iter_games(path.with_suffix(".pgn")))) == 3


def test_a_second_run_on_the_same_output_is_refused(tmp_path):
    path = tmp_path / "x.jsonl"
    with pool.lock(path), pytest.raises(pool.OutputBusyError, match="another run"):
        with pool.lock(path):
            pass


def test_the_same_games_in_process_on_threads_and_on_a_process_pool():
    plan = quick("shocking", games=3)
    alone = moves_by_game(list(study.run(plan, workers=1)))
    with ThreadPoolExecutor(2) as executor:
        threads = moves_by_game(list(study.run(plan, executor=executor)))
    processes = moves_by_game(list(study.run(plan, workers=2)))
    assert alone == threads == processes


def test_a_dask_local_cluster_plays_the_same_games_as_the_local_pool():
    distributed = pytest.importorskip("dask.distributed")
    plan = quick(
        "burden",
        options=SMALL_BURDEN,
        grid=study.parse_grid(["royal=king,maharajah"]),
        games=3,
    )
    local = moves_by_game(list(study.run(plan, workers=2)))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = moves_by_game(
            list(
                fairyforge.study(
                    "burden",
                    options=SMALL_BURDEN,
                    grid={"royal": ["king", "maharajah"]},
                    games=3,
                    nodes=300,
                    max_plies=40,
                    random_plies=4,
                    window_nodes=300,
                    executor=client,
                )
            )
        )
    assert len(local) == 6
    assert on_dask == local


def test_leaving_the_iteration_ends_the_workers():
    games = fairyforge.study("chess", games=30, nodes=300, max_plies=60, workers=2)
    next(games)
    assert workers_of(os.getpid())
    games.close()
    assert workers_of(os.getpid()) == []


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_cli_study_tables_json_and_plots(capsys, tmp_path):
    argv = ["study", "-v", "evolution", "--games", "2", "--nodes", "300", "--max-plies", "30"]
    code, out = run_cli(capsys, *argv, "--workers", "1", "--out", str(tmp_path), "--plot")
    assert code == 0
    assert "White's score" in out and "how games end" in out and "legal moves" in out
    for name in ("score", "terminations", "lengths", "branching", "eval"):
        assert (tmp_path / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["configs"][0]["games"] == 2 and len(summary["configs"][0]["fingerprint"]) == 16
    code, out = run_cli(capsys, *argv, "--workers", "1", "--out", str(tmp_path), "--json")
    assert code == 0
    assert json.loads(out)["configs"][0]["games"] == 2


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--grid", "royal"], "expected KEY=V1,V2"),
        (["--grid", "royal=king,", "-v", "burden"], "expected KEY=V1,V2"),
        (["--grid", "royal=king", "--grid", "royal=gryphon", "-v", "burden"], "given twice"),
        (["--grid", "royal=king,emperor", "-v", "burden"], "invalid option royal"),
        (["--opt", "royal=king", "--grid", "royal=gryphon", "-v", "burden"], "also fixed"),
        (["--grid", "cycle=none", "-v", "chess"], "takes no options"),
        (["--games", "0"], "--games: 0 (at least 1)"),
        (["--window", "-5"], "--window: -5"),
        (["--tc", "fast"], "invalid time control"),
        (["--openings", "{missing}"], "no file"),
        (["--openings", "{dir}"], "is a directory"),
        (["--openings", "{bad_epd}"], "line 2: invalid FEN"),
        (["--openings", "{short_epd}"], "line 1: expected a FEN or an EPD record"),
        (["--openings", "{empty}"], "no openings in the file"),
        (["--openings", "{bad_pgn}"], "illegal move"),
        (["--openings", "{burden_pgn}"], "variant 'burden', not the 'chess'"),
        (["--openings", "{over_epd}"], "already over"),
        (["--openings", "{two_epd}", "--random-plies", "0"], "2 openings"),
        (["--out", "{file}"], "is a file, not a directory"),
        (["--out", "{missing}/deeper"], "no directory"),
        (["--out", "/proc"], "cannot be written"),
    ],
)
def test_bad_input_is_one_clear_line(capsys, tmp_path, argv, fragment):
    paths = {
        "missing": str(tmp_path / "missing"),
        "dir": str(tmp_path),
        "file": write(tmp_path, "file.txt", "x"),
        "bad_epd": write(
            tmp_path,
            "bad.epd",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n",
        ),
        "short_epd": write(tmp_path, "short.epd", "rnbqkbnr/pppppppp w\n"),
        "empty": write(tmp_path, "empty.epd", "# nothing\n\n"),
        "bad_pgn": write(tmp_path, "bad.pgn", '[Event "x"]\n\n1. e4 e5 2. Ke3 *\n'),
        "burden_pgn": write(tmp_path, "b.pgn", '[Variant "burden"]\n\n1. dxe5 *\n'),
        "over_epd": write(tmp_path, "over.epd", "7k/6Q1/6K1/8/8/8/8/8 b - -\n"),
        "two_epd": write(
            tmp_path,
            "two.epd",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
        ),
    }
    argv = [a.format(**paths) for a in argv]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "out")]
    code, out = run_cli(capsys, "study", *argv)
    assert code == 2
    assert fragment in out
    assert out.count("\n") == 1 and out.startswith("error:")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_plot_without_matplotlib_is_refused_before_any_work(capsys, tmp_path, monkeypatch):
    real = jobs.importlib.util.find_spec
    monkeypatch.setattr(
        jobs.importlib.util, "find_spec", lambda name: None if name == "matplotlib" else real(name)
    )
    code, out = run_cli(capsys, "study", "--out", str(tmp_path / "o"), "--plot")
    assert code == 2
    assert "pip install fairyforge[plot]" in out and out.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_score_interval_with_draws_and_at_the_edges():
    lo, hi = stats.score_interval(10, 80, 10)
    wide = stats.score_interval(50, 0, 50)
    assert hi - lo < wide[1] - wide[0]  # draws narrow the interval
    assert stats.score_interval(20, 0, 0)[0] > 0.8 and stats.score_interval(20, 0, 0)[1] == 1
    assert stats.score_interval(0, 0, 0) == (0.0, 1.0)
    beta, cov = stats.least_squares([[1, 0], [1, 1], [1, -1]], [0, 2, -2], [1, 1, 1])
    assert beta == pytest.approx([0, 2]) and cov[1][1] == pytest.approx(0.5)


# --------------------------------------------------------------------------
# Jobs that survive real use: a study in a process of its own.


def start(out: Path, games: int, *extra: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "fairyforge", "study", "-v", "chess", "--games", str(games)]
    command += ["--nodes", "300", "--max-plies", "80", "--workers", "2", "--out", str(out)]
    return subprocess.Popen(
        [*command, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # A test run started in the background (`cmd &`) ignores SIGINT and its
        # children would inherit that; the job must see Ctrl-C as in a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for(path: Path, games: int, process: subprocess.Popen, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while lines_of(path) < games:
        assert process.poll() is None, process.communicate()[0]
        assert time.monotonic() < deadline, "no games recorded in time"
        time.sleep(0.02)


def test_ctrl_c_stops_at_once_keeps_the_games_and_leaves_no_worker(tmp_path):
    path = tmp_path / "chess.jsonl"
    process = start(tmp_path, 400)
    wait_for(path, 2, process)
    workers = workers_of(process.pid)
    assert len(workers) == 2
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    output = process.communicate(timeout=10)[0]
    latency = time.monotonic() - sent
    assert process.returncode == 130, output
    assert latency < 1.5, latency
    assert "interrupted" in output and "the same command continues" in output
    time.sleep(0.2)
    assert alive(workers) == []
    records = pool.read(path)
    assert len(records) == lines_of(path) >= 2
    assert len(list(pgn.iter_games(tmp_path / "chess.pgn"))) == len(records)


def test_killing_a_worker_and_the_parent_then_rerunning_plays_each_game_once(tmp_path):
    path = tmp_path / "chess.jsonl"
    games = 24
    process = start(tmp_path, games)
    wait_for(path, 2, process)
    first = workers_of(process.pid)
    first[0].kill()  # the pool breaks; its unfinished games go to a new one
    wait_for(path, lines_of(path) + 2, process)
    second = workers_of(process.pid)
    assert {p.pid for p in second}.isdisjoint({p.pid for p in first})
    process.kill()  # kill -9 of the parent: its workers see it gone and exit
    process.communicate()
    deadline = time.monotonic() + 3
    while alive(first + second) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert alive(first + second) == []
    done = lines_of(path)
    assert 4 <= done < games
    rerun = start(tmp_path, games)
    output = rerun.communicate(timeout=120)[0]
    assert rerun.returncode == 0, output
    indices = [json.loads(line)["index"] for line in path.read_text().splitlines()]
    assert sorted(indices) == list(range(games))
    assert len(list(pgn.iter_games(tmp_path / "chess.pgn"))) == games


def test_every_option_of_the_designer_commands_states_its_default():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    openings = next(a for a in sub.choices["openings"]._actions if a.dest == "openings_command")
    commands = [sub.choices["study"], sub.choices["values"], *openings.choices.values()]
    for command in commands:
        for action in command._actions:
            if action.dest in ("help", "source"):
                continue
            assert action.help and ("(default: " in action.help or "(required)" in action.help), (
                command.prog,
                action.dest,
            )
