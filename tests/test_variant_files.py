"""Variant definitions from files and dicts: loading, registering, the
tools and protocols that take them, errors that name file, line and key,
and random definitions that must load and play (hypothesis)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fairyforge

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "rust" / "fairyforge" / "variants"

MINE = """
name = "mine"
description = "Chess with nightriders."
base = "chess"
[piece.knight]
betza = "NN"
"""


def test_load_file_registers_the_name(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE)
    info = fairyforge.load_variant(path)
    assert (info.name, info.description, info.builtin) == ("mine", "Chess with nightriders.", False)
    assert ("knight", "N", "NN", False, 320) in info.kinds
    assert "mine" in fairyforge.variant_names()
    # The name, the path, the info and a derived dict all make the board.
    for source in ("mine", str(path), path, info):
        assert fairyforge.Board(source).perft(2) == 24 * 24
    derived = fairyforge.Board({"name": "mine2", "base": "mine", "castling": "none"})
    assert derived.variant.name == "mine2" and derived.perft(1) == 24


def test_shipped_examples_are_listed_with_their_pieces() -> None:
    infos = {v.name: v for v in fairyforge.variants()}
    assert list(infos)[:4] == fairyforge.BUILTIN_VARIANTS
    assert {"capablanca", "grasshopper", "losalamos", "almost", "burden-6x6-knights"} <= set(infos)
    cap = infos["capablanca"]
    assert (cap.files, cap.ranks) == (10, 8)
    assert [k[1] for k in cap.kinds] == ["K", "Q", "R", "B", "N", "P", "A", "C"]
    assert infos["burden"].option_names[0] == "royal"


@pytest.mark.parametrize("path", sorted(SHIPPED.glob("*.toml")), ids=lambda p: p.stem)
def test_every_shipped_file_loads_as_shipped(path: Path) -> None:
    if path.stem == "kinds":
        return
    text = path.read_text()
    name = text.split('name = "')[1].split('"')[0]
    shipped = fairyforge.variant(name)
    if shipped.builtin:
        with pytest.raises(fairyforge.InvalidVariantError, match="built-in variant"):
            fairyforge.load_variant(path)
    else:
        assert fairyforge.load_variant(path).definition == shipped.definition


def test_written_definitions_load_back_equal() -> None:
    tomllib = pytest.importorskip("tomllib")
    for name in ("shocking", "capablanca", "grasshopper", "burden-6x6-knights"):
        info = fairyforge.variant(name)
        table = tomllib.loads(info.definition)
        table["name"] = f"{name}-copy"
        copy = fairyforge.load_variant(table)
        assert copy.definition == info.definition.replace(
            f'name = "{name}"', f'name = "{name}-copy"'
        )
        assert fairyforge.Board(copy).perft(3) == fairyforge.Board(name).perft(3)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('name = "x"\nfiles = [', "bad.toml:2", "not valid TOML"),
        ('name = "x"\nbase = "chess"\nfiles = 13\n', "bad.toml:3: files", "outside 4..12"),
        ('name = "x"\nbase = "chess"\nroyal = []\n', "royal", "no royal kind"),
        (
            'name = "x"\nbase = "chess"\n'
            'kinds = ["king", "queen", "rook", "bishop", "knight", "pawn", "amazon"]\n',
            "kinds",
            "never placed",
        ),
        (
            'name = "x"\nbase = "chess"\npromotion = ["dragon"]\n',
            "promotion",
            "not one of the variant's kinds",
        ),
        (
            'name = "x"\nbase = "chess"\n[piece.rook]\nbetza = "pR"\n',
            "bad.toml:4: piece.rook.betza",
            "'p'",
        ),
        ('name = "x"\nbase = "chess"\nspeed = 3\n', "speed", "unknown key"),
    ],
)
def test_bad_definitions_name_file_line_and_key(
    tmp_path: Path, text: str, where: str, what: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(fairyforge.InvalidVariantError) as info:
        fairyforge.load_variant(str(path))
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert where in message and what in message, message


def test_bad_dicts_and_sources_are_value_errors() -> None:
    with pytest.raises(fairyforge.InvalidVariantError, match="files"):
        fairyforge.load_variant({"name": "y", "base": "chess", "files": object()})
    with pytest.raises(fairyforge.InvalidVariantError, match="keys must be strings"):
        fairyforge.load_variant({"name": "y", 3: 4})
    with pytest.raises(fairyforge.InvalidVariantError, match="cannot read"):
        fairyforge.load_variant("/nonexistent/x.toml")
    with pytest.raises(fairyforge.InvalidOptionError, match="expected a name"):
        fairyforge.Board(3.5)  # type: ignore[arg-type]


def test_primed_symbols_in_fen_san_and_coordinates() -> None:
    board = fairyforge.Board(
        {
            "name": "primed",
            "base": "chess",
            "castling": "none",
            "kinds": ["king"],
            "white": {"kinds": ["king", "pawn", "wizard"], "promotion": ["wizard"]},
            "black": {"promoters": [], "promotion": []},
            "start": "4k3/P7/8/8/8/8/8/W'3K3 w - - 0 1",
            "piece": {"wizard": {"symbol": "W'", "betza": "CF", "value": 400}},
        }
    )
    assert board.fen().startswith("4k3/P7/8/8/8/8/8/W'3K3")
    assert board.san("a1b2") == "W'b2"
    move = board.parse_san("a8=W'")
    assert move.uci() == "a7a8w'" and move.promotion == "w'"
    board.push(move)
    assert board.piece_at("a8").symbol() == "W'" and board.piece_at("a8").name == "wizard"


def test_cli_lists_and_shows_variants(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE)
    cli = [sys.executable, "-m", "fairyforge"]
    out = subprocess.run(
        [*cli, "variants", "--load", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    records = {r["name"]: r for r in json.loads(out.stdout)}
    assert records["mine"]["kinds"][4] == {
        "name": "knight",
        "symbol": "N",
        "betza": "NN",
        "robotic": False,
        "value": 320,
    }
    shown = subprocess.run(
        [*cli, "variants", "--show", "losalamos"], capture_output=True, text=True, check=True
    )
    assert 'start = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"' in shown.stdout
    perft = subprocess.run(
        [*cli, "perft", "3", "-v", str(path)], capture_output=True, text=True, check=True
    )
    assert perft.stdout.strip() == str(fairyforge.Board(path).perft(3))


def test_uci_variant_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE)
    script = (
        f"uci\nsetoption name VariantPath value {path}\nsetoption name UCI_Variant value mine\n"
        "position startpos moves b1d5\ngo depth 2\nisready\nquit\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "fairyforge", "uci"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.splitlines()
    combos = [line for line in out if line.startswith("option name UCI_Variant")]
    assert "var mine" not in combos[0] and combos[-1].endswith("var mine")
    assert any(line.startswith("bestmove ") for line in out), out
    assert not any("error" in line for line in out), out


# -- random definitions ------------------------------------------------------

ATOMS = [
    "W",
    "F",
    "D",
    "N",
    "A",
    "H",
    "C",
    "Z",
    "WW",
    "FF",
    "NN",
    "R2",
    "gQ",
    "gR",
    "nN",
    "B",
    "R",
    "K",
    "Q",
]
MODS = ["", "", "", "f", "b", "fs", "ff", "m", "c", "fm", "fc", "v", "s", "l", "r"]


@st.composite
def definitions(draw: st.DrawFn) -> dict:
    files = draw(st.integers(5, 9))
    ranks = draw(st.integers(5, 8))
    nkinds = draw(st.integers(1, 6))
    pieces = {}
    kinds = ["king"]
    for i in range(nkinds):
        parts = draw(
            st.lists(
                st.tuples(st.sampled_from(MODS), st.sampled_from(ATOMS)), min_size=1, max_size=3
            )
        )
        betza = "".join(m + a for m, a in parts)
        if "g" in betza and any(m in ("m", "c", "fm", "fc") for m, _ in parts):
            betza = betza.replace("g", "")
        pieces[f"k{i}"] = {
            "symbol": "ABCDEFGHIJ"[i],
            "betza": betza,
            "value": draw(st.integers(50, 900)),
        }
        kinds.append(f"k{i}")
    squares = [(f, r) for r in range(ranks) for f in range(files)]
    white = draw(
        st.lists(
            st.sampled_from(squares[: 2 * files]),
            min_size=nkinds + 1,
            max_size=nkinds + 1,
            unique=True,
        )
    )
    black = draw(
        st.lists(
            st.sampled_from(squares[-2 * files :]),
            min_size=nkinds + 1,
            max_size=nkinds + 1,
            unique=True,
        )
    )
    grid = [["" for _ in range(files)] for _ in range(ranks)]
    for i, (f, r) in enumerate(white):
        grid[r][f] = "K" if i == 0 else pieces[f"k{i - 1}"]["symbol"]
    for i, (f, r) in enumerate(black):
        grid[r][f] = "k" if i == 0 else pieces[f"k{i - 1}"]["symbol"].lower()
    rows = []
    for r in reversed(range(ranks)):
        row, run = "", 0
        for f in range(files):
            if grid[r][f]:
                row += (str(run) if run else "") + grid[r][f]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return {
        "name": "random",
        "files": files,
        "ranks": ranks,
        "start": "/".join(rows) + " w - - 0 1",
        "kinds": kinds,
        "royal": ["king"],
        "stalemate": draw(st.sampled_from(["draw", "loss"])),
        "piece": pieces,
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(definitions(), st.randoms(use_true_random=False))
def test_random_definitions_load_and_play(definition: dict, rng) -> None:
    try:
        board = fairyforge.Board(definition)
    except fairyforge.InvalidVariantError as e:
        # Only a start position that is no legal position (a king in check
        # with the other side to move, overlapping kings) may refuse it.
        assert "start" in str(e) or "betza" in str(e), e
        return
    for _ in range(40):
        moves = list(board.legal_moves)
        assert board.perft(1) == len(moves)
        assert len(set(m.uci() for m in moves)) == len(moves)
        if not moves or board.outcome() is not None:
            break
        move = rng.choice(moves)
        san = board.san(move)
        assert board.parse_san(san) == move
        board.push(move)
        assert fairyforge.Board(definition, board.fen()).fen() == board.fen()


def test_svg_draws_a_variants_own_kinds_by_name() -> None:
    import fairyforge.svg

    svg = fairyforge.svg.board(fairyforge.Board("capablanca"))
    # Capablanca's A is an archbishop (a disc with its letter), not the
    # Network's Automaton that the catalogue letter would draw.
    assert 'id="white-letter-A"' in svg and "automaton" not in svg
    assert 'id="white-queen"' in svg and 'data-piece="a"' in svg


def test_pgn_reader_can_be_given_the_definitions(tmp_path: Path) -> None:
    import io

    from fairyforge import pgn

    path = tmp_path / "nightriders.toml"
    path.write_text(MINE.replace('"mine"', '"nightriders"'))
    text = '[Variant "nightriders"]\n\n1. Nd5 Nd4 *\n'
    game = pgn.read_game(io.StringIO(text), variants=[path])
    assert game is not None and [m.uci() for m in game.mainline_moves()] == ["b1d5", "b8d4"]


def test_a_kind_without_a_value_is_valued_by_its_mobility() -> None:
    definition = {
        "name": "valued",
        "base": "chess",
        "kinds": ["king", "queen", "rook", "bishop", "knight", "pawn", "ferz2"],
        "promotion": ["queen", "ferz2"],
        "piece": {"ferz2": {"symbol": "F", "betza": "F"}},
    }
    info = fairyforge.load_variant(definition)
    values = {name: value for name, _, _, _, value in info.kinds}
    # Four diagonal steps: 60 + 38 * 4 * (7/8)^2.
    assert values["ferz2"] == round(60 + 38 * 4 * 49 / 64)


def test_match_plays_a_definition_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE)
    out = tmp_path / "m"
    cmd = [sys.executable, "-m", "fairyforge", "match", "-v", str(path), "--games", "2"]
    cmd += ["--nodes", "200", "--workers", "1", "--out", str(out), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    summary = json.loads(done.stdout)
    assert summary["variants"][0]["games"] == 2
    pgn_text = (tmp_path / "m.mine.pgn").read_text()
    assert '[Variant "mine"]' in pgn_text


def test_workers_know_the_variants_loaded_before_the_pool_started() -> None:
    from fairyforge.tools import jobs

    fairyforge.load_variant({"name": "worker-seen", "base": "chess", "description": "seen"})
    pool = jobs.local_pool(1)
    try:
        assert pool.submit(_perft_of, "worker-seen", 2).result(timeout=120) == 400
    finally:
        jobs.stop_pool(pool)


def _perft_of(variant: str, depth: int) -> int:
    return fairyforge.Board(variant).perft(depth)
