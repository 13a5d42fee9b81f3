"""PGN reading and writing (fairyforge.pgn): round trips in every variant,
python-chess interoperability, streaming, and exact error reports."""

from __future__ import annotations

import doctest
import inspect
import io
import random

import chess
import chess.pgn
import pytest

import fairyforge
from fairyforge import pgn
from fairyforge.pgn import Game, PgnError, iter_games, read_game, write_games

VARIANTS = [
    ("chess", {}),
    ("shocking", {}),
    ("burden", {}),
    ("burden", {"royal": "maharajah", "cycle": "knight"}),
    ("burden", {"files": 6, "pawn_ranks": 2}),
    ("evolution", {}),
]
VARIANT_IDS = ["chess", "shocking", "burden", "burden-maharajah", "burden-6x6", "evolution"]

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def random_board(variant, seed, plies=60, fen=None, **options):
    """Seeded random play: up to ``plies`` legal moves, stopping at the end."""
    rng = random.Random(seed)
    board = fairyforge.Board(variant, fen, **options)
    for _ in range(plies):
        if board.outcome() is not None or not board.legal_moves:
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def random_line(node, rng, plies):
    """Extend ``node`` with up to ``plies`` random moves; returns the last node."""
    board = node.board()
    for _ in range(plies):
        if board.outcome() is not None or not board.legal_moves:
            break
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        node = node.add_variation(move)
    return node


def annotate(game, rng):
    """Deterministic comments, NAGs and (nested) variations on a game."""
    game.comment = "a game comment"
    for i, node in enumerate(list(game.mainline())):
        if i % 7 == 1:
            node.comment = f"comment {i}; with (parens), [brackets] and a {{ brace"
        if i == 4:
            node.comment = 'two lines\n[Event "not a tag"]\n\n%not an escape'
        if i % 5 == 2:
            node.nags.update({rng.randint(1, 6), rng.randint(10, 140)})
        if i % 9 == 3:
            others = [m for m in node.parent.board().legal_moves if m != node.move]
            if not others:
                continue
            alt = node.parent.add_variation(rng.choice(others), starting_comment="instead")
            alt.nags.add(5)
            random_line(alt, rng, 3)
            if alt.variations:
                taken = alt.variations[0].move
                nested = [m for m in alt.board().legal_moves if m != taken]
                if nested:
                    alt.add_variation(rng.choice(nested), comment="nested")


def dump(node):
    """The whole tree below a node (fairyforge or python-chess) as plain data."""
    return (
        node.move.uci() if node.move is not None else None,
        node.comment,
        node.starting_comment,
        sorted(node.nags),
        [dump(child) for child in node.variations],
    )


def uci_moves(game):
    return [move.uci() for move in game.mainline_moves()]


# --------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("variant", "options"), VARIANTS, ids=VARIANT_IDS)
def test_round_trip_random_game(variant, options, seed):
    board = random_board(variant, seed, **options)
    game = Game.from_board(board)
    info = board.variant
    assert game.headers.get("Variant") == (None if variant == "chess" else variant)
    expected_options = " ".join(f"{k}={v}" for k, v in dict(info.options).items()) or None
    assert game.headers.get("VariantOptions") == expected_options
    assert "FEN" not in game.headers and "SetUp" not in game.headers
    outcome = board.outcome()
    assert game.headers["Result"] == (outcome.result() if outcome is not None else "*")
    assert uci_moves(game) == [m.uci() for m in board.move_stack]

    plain = str(game)
    annotate(game, random.Random(seed))
    text = str(game)
    assert text.split()[-1] == game.headers["Result"]

    handle = io.StringIO(text + "\n\n" + plain + "\n\n")
    back = read_game(handle)
    assert dict(back.headers) == dict(game.headers)
    assert list(back.headers) == list(game.headers)
    assert dump(back) == dump(game)
    assert str(back) == text
    assert back.end().board().fen() == board.fen()
    assert back.board().variant.options == info.options

    again = read_game(handle)
    assert uci_moves(again) == uci_moves(game)
    assert dump(again) == dump(Game.from_board(board))
    assert read_game(handle) is None


@pytest.mark.parametrize(("variant", "options"), VARIANTS, ids=VARIANT_IDS)
def test_round_trip_from_fen_with_black_to_move(variant, options):
    played = random_board(variant, 11, plies=9, **options)
    fen = played.fen()
    assert not played.turn
    board = random_board(variant, 12, plies=20, fen=fen, **options)
    game = Game.from_board(board)
    assert game.headers["FEN"] == fen
    assert game.headers["SetUp"] == "1"
    assert list(game.headers)[-2:] == ["FEN", "SetUp"]
    text = str(game)
    movetext = text.split("\n\n", 1)[1]
    assert movetext.startswith(f"{played.fullmove_number}... ")
    back = read_game(io.StringIO(text))
    assert back.board().fen() == fen
    assert uci_moves(back) == [m.uci() for m in board.move_stack]
    assert back.end().board().fen() == board.fen()


def test_exact_export_with_comments_nags_and_variations():
    game = Game()
    game.headers["Event"] = "Test"
    e4 = game.add_variation("e2e4", comment="best by test")
    d4 = game.add_variation("d2d4")
    d4.add_variation("d7d5").add_variation("c2c4", nags=[2])
    d4.add_variation("g8f6", starting_comment="or")
    e4.add_variation("e7e5", nags=[1]).add_variation("g1f3")
    expected = (
        '[Event "Test"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n'
        '[Black "?"]\n[Result "*"]\n\n'
    )
    movetext = "1. e4 { best by test } ( 1. d4 d5 ( { or } 1... Nf6 ) 2. c4 $2 ) 1... e5 $1 2."
    assert len(movetext) == 78  # "Nf3 " does not fit after "2. "
    assert str(game) == expected + movetext + "\nNf3 *"
    assert pgn.export(game, columns=None) == expected + movetext + " Nf3 *"
    assert dump(read_game(io.StringIO(str(game)))) == dump(game)


def test_export_wraps_at_80_columns_and_columns_none_gives_one_line():
    # Chess games from random play last long enough to need several lines.
    game = Game.from_board(random_board("chess", 5, plies=60))
    lines = str(game).split("\n\n", 1)[1].splitlines()
    assert len(lines) > 2
    assert all(len(line) <= 80 for line in lines)
    assert all(len(line) > 70 for line in lines[:-1])
    single = pgn.export(game, columns=None).split("\n\n", 1)[1]
    assert "\n" not in single
    assert single == " ".join(lines)


def test_comment_braces_are_dropped_on_write():
    game = Game()
    game.add_variation("e2e4", comment="  a } b { c  ")
    assert str(game).endswith("1. e4 { a  b { c } *")
    assert read_game(io.StringIO(str(game))).next().comment == "a  b { c"


def test_tag_values_are_escaped_and_unescaped():
    game = Game()
    game.headers["White"] = 'Foo "Bar" \\ Baz'
    text = str(game)
    assert '[White "Foo \\"Bar\\" \\\\ Baz"]' in text.splitlines()
    assert read_game(io.StringIO(text)).headers["White"] == 'Foo "Bar" \\ Baz'


# --------------------------------------------------------------------------
# python-chess interoperability


def python_chess_game(seed, plies=80):
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(sorted(board.legal_moves, key=chess.Move.uci)))
    return board


@pytest.mark.parametrize("seed", range(8))
def test_reads_pgn_written_by_python_chess(seed):
    board = python_chess_game(seed)
    reference = chess.pgn.Game.from_board(board)
    reference.headers["Event"] = f"random {seed}"
    game = read_game(io.StringIO(str(reference)))
    assert uci_moves(game) == [m.uci() for m in board.move_stack]
    assert dict(game.headers) == dict(reference.headers)
    assert game.end().board().fen() == board.fen()


def mirror(ours, theirs):
    for child in ours.variations:
        copy = theirs.add_variation(
            chess.Move.from_uci(child.move.uci()),
            comment=child.comment,
            starting_comment=child.starting_comment,
            nags=child.nags,
        )
        mirror(child, copy)


@pytest.mark.parametrize("seed", range(6))
def test_export_matches_python_chess_and_python_chess_reads_it(seed):
    game = Game.from_board(random_board("chess", seed, plies=70))
    annotate(game, random.Random(seed))
    reference = chess.pgn.Game()
    reference.headers["Result"] = game.headers["Result"]
    reference.comment = game.comment
    mirror(game, reference)
    text = str(game)
    # python-chess wraps at 80 columns in its exporters; its str() does not wrap.
    assert text == reference.accept(chess.pgn.StringExporter(columns=80))
    assert pgn.export(game, columns=None) == str(reference)
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in parsed.mainline_moves()] == uci_moves(game)
    assert dump(parsed.variations[0]) == dump(game.variations[0])


def test_python_chess_annotations_read_back():
    board = python_chess_game(42, plies=30)
    reference = chess.pgn.Game.from_board(board)
    node = reference.next().next()
    node.comment = "a comment"
    node.nags.add(chess.pgn.NAG_BLUNDER)
    alt = node.parent.add_variation(
        next(m for m in node.parent.board().legal_moves if m != node.move)
    )
    alt.starting_comment = "alternative"
    game = read_game(io.StringIO(str(reference)))
    assert dump(game.variations[0]) == dump(reference.variations[0])


# --------------------------------------------------------------------------
# Tokenizer


def test_tokens_comments_escapes_variations_and_results():
    text = (
        "% an escape line\n"
        '[Event "Tokens"]\n'
        '[Site "here"]\n'
        "\n"
        "; a line comment before the moves\n"
        "1.e4 {multi\n"
        "line comment} e5 2. Nf3 ; rest-of-line comment\n"
        "% escape inside the movetext\n"
        "Nc6 (2... d6 {nested (not a variation)} 3. d4 (3. Bc4) 3... exd4) 3. Bb5 $1 "
        "1-0 {after the result}\n"
    )
    game = read_game(io.StringIO(text))
    assert game.headers["Event"] == "Tokens"
    assert game.headers["Result"] == "1-0"
    assert game.comment == "a line comment before the moves"
    e4 = game.next()
    assert e4.comment == "multi\nline comment"
    nf3 = e4.next().next()
    assert nf3.comment == "rest-of-line comment"
    assert [n.san() for n in nf3.variations] == ["Nc6", "d6"]
    d6 = nf3.variations[1]
    assert d6.comment == "nested (not a variation)"
    assert [n.san() for n in d6.variations] == ["d4", "Bc4"]
    assert d6.next().next().san() == "exd4"
    bb5 = nf3.next().next()
    assert bb5.san() == "Bb5"
    assert bb5.nags == {1}
    assert bb5.comment == "after the result"
    assert bb5.is_end()


def test_suffix_annotations_map_to_nags():
    text = "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $10 ! *"
    game = read_game(io.StringIO(text))
    assert [sorted(n.nags) for n in game.mainline()] == [[1], [2], [3], [4], [5], [6], [1, 10]]
    assert str(game).endswith("1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $1 $10 *")


def test_castling_move_numbers_and_check_markers():
    text = "1.e4 1... e5 2 . Nf3 Nc6 3.Bc4 Bc5 4. 0-0 Nf6 5. d3 O-O 6. Bxf7+ Kh8 *"
    game = read_game(io.StringIO(text))
    expected = "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3 e8g8 c4f7 g8h8"
    assert uci_moves(game) == expected.split()


def test_game_boundaries():
    text = '1. e4 e5\n\n1. d4 d5\n[Event "third"]\n\n1. c4 *\n1. Nf3 1-0\n'
    games = list(iter_games(io.StringIO(text)))
    assert [uci_moves(g) for g in games] == [["e2e4", "e7e5"], ["d2d4", "d7d5"], ["c2c4"], ["g1f3"]]
    assert [g.headers["Event"] for g in games] == ["?", "?", "third", "?"]
    assert [g.headers["Result"] for g in games] == ["*", "*", "*", "1-0"]


def test_result_tag_wins_over_a_different_result_token():
    game = read_game(io.StringIO('[Result "0-1"]\n\n1. e4 1-0\n'))
    assert game.headers["Result"] == "0-1"
    assert read_game(io.StringIO("1. e4 1/2-1/2")).headers["Result"] == "1/2-1/2"


def test_empty_input_and_tags_only():
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n\n% only an escape\n\n")) is None
    games = list(iter_games(io.StringIO('[Event "a"]\n\n[Event "b"]\n')))
    assert [g.headers["Event"] for g in games] == ["a", "b"]
    assert all(g.variations == [] for g in games)


# --------------------------------------------------------------------------
# Variant tags


@pytest.mark.parametrize(
    ("tag", "name"),
    [
        ("chess", "chess"),
        ("Standard", "chess"),
        ("standard", "chess"),
        ("STANDARD", "chess"),
        ("Shocking", "shocking"),
        ("BURDEN", "burden"),
        ("evolution", "evolution"),
        ("Evolution  Chess", "evolution"),
    ],
)
def test_variant_tag_names(tag, name):
    game = read_game(io.StringIO(f'[Variant "{tag}"]\n\n*\n'))
    assert game.headers["Variant"] == tag
    assert game.board().variant.name == name
    assert pgn.variant_name(tag) == name


def test_no_variant_tag_is_chess():
    assert pgn.variant_name(None) == "chess"
    assert read_game(io.StringIO("1. e4 *")).board().variant.name == "chess"


def test_variant_options_parsing():
    assert pgn.parse_variant_options("cycle=knight royal=maharajah") == {
        "cycle": "knight",
        "royal": "maharajah",
    }
    assert pgn.parse_variant_options("  files=6\tpawn_ranks=2 ") == {
        "files": "6",
        "pawn_ranks": "2",
    }
    assert pgn.parse_variant_options("") == {}
    for bad, message in [
        ("cycle", "malformed VariantOptions item 'cycle': expected key=value"),
        ("=knight", "malformed VariantOptions item '=knight': expected key=value"),
        ("cycle=", "malformed VariantOptions item 'cycle=': expected key=value"),
        ("a=b=c", "malformed VariantOptions item 'a=b=c': expected key=value"),
        ("cycle=knight cycle=pawn", "VariantOptions gives 'cycle' twice"),
    ]:
        with pytest.raises(fairyforge.InvalidOptionError) as info:
            pgn.parse_variant_options(bad)
        assert str(info.value) == message
    assert pgn.format_variant_options([("cycle", "knight"), ("royal", "maharajah")]) == (
        "cycle=knight royal=maharajah"
    )
    text = '[Variant "burden"]\n[VariantOptions "royal=gryphon cycle=pawn"]\n\n*'
    board = read_game(io.StringIO(text)).board()
    assert dict(board.variant.options) == {"cycle": "pawn", "royal": "gryphon"}


def test_game_board_errors_without_reading():
    with pytest.raises(fairyforge.InvalidOptionError):
        Game({"Variant": "atomic"}).board()
    with pytest.raises(fairyforge.InvalidFenError):
        Game({"FEN": "8/8 w - - 0 1"}).board()


# --------------------------------------------------------------------------
# Errors


def fen_error(variant, fen):
    with pytest.raises(fairyforge.InvalidFenError) as info:
        fairyforge.Board(variant, fen)
    return str(info.value)


def option_error(variant, **options):
    with pytest.raises(fairyforge.InvalidOptionError) as info:
        fairyforge.Board(variant, **options)
    return str(info.value)


AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"
BAD_EVOLUTION_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"

ERROR_CASES = [
    ("1. e4 e5\n2. Nf6 *", 2, "Nf6", f"illegal move 'Nf6' in position {AFTER_E4_E5}"),
    (
        f'[FEN "{TWO_KNIGHTS}"]\n[SetUp "1"]\n\n1. Nd2 *',
        4,
        "Nd2",
        f"ambiguous move 'Nd2' in position {TWO_KNIGHTS}",
    ),
    ("1. e4 Xyz *", 1, "Xyz", "unparsable move 'Xyz'"),
    ("1. e4 & e5 *", 1, "&", "unexpected text '&'"),
    ("1. e4 --- e5 *", 1, "---", "unexpected text '---'"),
    ('[Event "x"]\n[Site unquoted]\n\n1. e4 *', 2, "[Site unquoted]", None),
    ('[Event "x"]\n[Variant "atomic"]\n\n1. e4 *', 2, "atomic", "unknown variant 'atomic'"),
    ('[Variant "Chess960"]\n\n1. e4 *', 1, "Chess960", "unknown variant 'Chess960'"),
    (
        f'[Variant "evolution"]\n[FEN "{BAD_EVOLUTION_FEN}"]\n\n*',
        2,
        BAD_EVOLUTION_FEN,
        f"bad FEN '{BAD_EVOLUTION_FEN}': " + fen_error("evolution", BAD_EVOLUTION_FEN),
    ),
    (
        '[Variant "burden"]\n[VariantOptions "files=99"]\n\n*',
        2,
        "files=99",
        "bad VariantOptions 'files=99': " + option_error("burden", files="99"),
    ),
    (
        '[Variant "burden"]\n[VariantOptions "cycle"]\n\n*',
        2,
        "cycle",
        "malformed VariantOptions item 'cycle': expected key=value",
    ),
    ("1. e4 ) e5 *", 1, ")", "unbalanced ')': no variation to close"),
    ("1. e4 ( 1. d4\n*", 2, "*", "result '*' inside a variation: '(' on line 1 is not closed"),
    (
        "1. e4 ( 1. d4\nd5\n",
        1,
        "(",
        "unbalanced '(': the variation opened on line 1 is not closed",
    ),
    ("( 1. e4 ) *", 1, "(", "variation '(' before any move"),
    ("1. e4 ( ( 1. d4 ) ) *", 1, "(", "variation '(' before any move"),
    ("$1 1. e4 *", 1, "$1", "NAG $1 before any move"),
    ("1. e4 $x *", 1, "$x", "malformed NAG '$x'"),
    ("1. e4!!! *", 1, "e4!!!", "invalid annotation '!!!'"),
    ("1. e4 e5 ?!? *", 1, "?!?", "invalid annotation '?!?'"),
    ("\n1. e4 { never\nclosed\n", 2, "{", "unterminated comment '{'"),
    ("1. e4 * e5\n", 1, "e5", "unexpected 'e5' after the result"),
    ("1. e4 1-0 {fine} $2\n", 1, "$2", "unexpected '$2' after the result"),
    ("1. e4 1-0 (\n", 1, "(", "unexpected '(' after the result"),
]


@pytest.mark.parametrize(("text", "line", "token", "reason"), ERROR_CASES)
def test_malformed_game_raises_pgn_error(text, line, token, reason):
    if reason is None:
        reason = f"malformed tag {token!r}"
    with pytest.raises(PgnError) as info:
        read_game(io.StringIO(text))
    error = info.value
    assert isinstance(error, ValueError)
    assert str(error) == f"game 1, line {line}: {reason}"
    assert (error.game, error.line, error.token, error.reason) == (1, line, token, reason)


GOOD = '[Event "{name}"]\n[Site "?"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'


def test_error_names_game_index_and_file_line():
    text = (
        GOOD.format(name="one")  # lines 1-5
        + GOOD.format(name="two")  # lines 6-10
        + '[Event "three"]\n\n1. e4 e5\n2. Nf3 Nf6 3. Nxe5 Ke6 4. Qh5 *\n\n'  # lines 11-15
        + GOOD.format(name="four")  # lines 16-20
    )
    handle = io.StringIO(text)
    assert read_game(handle).headers["Event"] == "one"
    assert read_game(handle).headers["Event"] == "two"
    with pytest.raises(PgnError) as info:
        read_game(handle)
    fen = "rnbqkb1r/pppp1ppp/5n2/4N3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3"
    assert str(info.value) == f"game 3, line 14: illegal move 'Ke6' in position {fen}"
    # The reader went past the bad game: the next call reads the next one.
    assert read_game(handle).headers["Event"] == "four"
    assert read_game(handle) is None


def test_read_game_starts_again_after_a_seek():
    handle = io.StringIO(GOOD.format(name="one") + "1. e4 e4 *\n")
    assert read_game(handle).headers["Event"] == "one"
    with pytest.raises(PgnError, match=r"^game 2, line 6: "):
        read_game(handle)
    handle.seek(0)
    assert read_game(handle).headers["Event"] == "one"
    with pytest.raises(PgnError, match=r"^game 2, line 6: "):
        read_game(handle)


def test_iter_games_raise_stops_at_the_first_bad_game():
    text = GOOD.format(name="one") + "1. e4 e4 *\n\n" + GOOD.format(name="three")
    games = iter_games(io.StringIO(text))
    assert next(games).headers["Event"] == "one"
    with pytest.raises(PgnError, match=r"^game 2, line 6: illegal move 'e4' "):
        next(games)
    with pytest.raises(StopIteration):
        next(games)


def test_skip_reports_and_continues():
    text = (
        GOOD.format(name="g1")  # lines 1-5
        + '[Event "g2"]\n\n1. e4 Ke3 e5 1-0\n\n'  # lines 6-9: illegal move
        + '[Event "g3"]\n[Site "no closing quote]\n\n1. e4 *\n\n'  # lines 10-14: bad tag
        + GOOD.format(name="g4")  # lines 15-19
        + '[Event "g5"]\n[Variant "xiangqi"]\n\n1. e4 *\n\n'  # lines 20-24
        + '[Event "g6"]\n\n1. e4 {unclosed ( } ( 1. d4 ) (\n2. Nf3 *\n\n'  # lines 25-29
        + GOOD.format(name="g7")  # lines 30-34
        + '[Event "g8"]\n\n1. e4 Qxf7\n'  # lines 35-37: no result, no blank line
        + GOOD.format(name="g9, swallowed by the bad game before it")  # 38-42
        + GOOD.format(name="g10")  # 43-47
    )
    errors = []
    games = iter_games(io.StringIO(text), on_error="skip", errors=errors)
    assert inspect.isgenerator(games)
    events = [g.headers["Event"] for g in games]
    assert events == ["g1", "g4", "g7", "g10"]
    assert [str(e) for e in errors] == [
        "game 2, line 8: illegal move 'Ke3' in position "
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "game 3, line 11: malformed tag '[Site \"no closing quote]'",
        "game 5, line 21: unknown variant 'xiangqi'",
        "game 6, line 28: result '*' inside a variation: '(' on line 27 is not closed",
        "game 8, line 37: illegal move 'Qxf7' in position "
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    ]
    assert [(e.game, e.line) for e in errors] == [(2, 8), (3, 11), (5, 21), (6, 28), (8, 37)]


def test_read_game_skip_returns_the_next_good_game(caplog):
    text = "1. e4 e4 *\n\n" + GOOD.format(name="good")
    errors = []
    with caplog.at_level("WARNING", logger="fairyforge.pgn"):
        game = read_game(io.StringIO(text), on_error="skip", errors=errors)
    assert game.headers["Event"] == "good"
    assert [e.line for e in errors] == [1]
    assert [r.getMessage() for r in caplog.records] == [f"skipped {errors[0]}"]


def test_on_error_must_be_raise_skip_or_keep():
    with pytest.raises(ValueError, match="must be 'raise', 'skip' or 'keep', not 'ignore'"):
        iter_games(io.StringIO(""), on_error="ignore")
    with pytest.raises(ValueError, match="on_error must be 'raise', 'skip' or 'keep'"):
        read_game(io.StringIO(""), on_error="warn")


# --------------------------------------------------------------------------
# Streaming and files


class LineHandle:
    """A text handle that serves lines only and counts them."""

    def __init__(self, text):
        self._io = io.StringIO(text)
        self.lines = 0

    def readline(self):
        line = self._io.readline()
        if line:
            self.lines += 1
        return line

    def read(self, *args):
        raise AssertionError("the reader must not read the whole file")

    def __iter__(self):
        raise AssertionError("the reader must use readline")


def test_iter_games_streams_200_games(tmp_path):
    boards = []
    for i in range(200):
        variant, options = VARIANTS[i % len(VARIANTS)]
        boards.append(random_board(variant, 1000 + i, plies=30, **options))
    path = tmp_path / "many.pgn"
    games = (Game.from_board(b) for b in boards)
    assert write_games(path, games) == 200

    stream = iter_games(path)
    assert inspect.isgenerator(stream)
    count = 0
    for board, game in zip(boards, stream):
        assert game.board().variant.name == board.variant.name
        assert uci_moves(game) == [m.uci() for m in board.move_stack]
        count += 1
    assert count == 200
    assert next(stream, None) is None

    # One game at a time: the first game costs only its own lines.
    text = path.read_text(encoding="utf-8")
    first_game_lines = str(Game.from_board(boards[0])).count("\n") + 1
    handle = LineHandle(text)
    stream = iter_games(handle)
    assert handle.lines == 0
    assert uci_moves(next(stream)) == [m.uci() for m in boards[0].move_stack]
    assert handle.lines == first_game_lines
    next(stream)
    assert handle.lines == first_game_lines + 1 + str(Game.from_board(boards[1])).count("\n") + 1


def test_lazy_reading_stops_before_a_malformed_tail(tmp_path):
    path = tmp_path / "tail.pgn"
    path.write_text(GOOD.format(name="fine") + "[Event broken\n\n1. e4 e4 *\n", encoding="utf-8")
    stream = iter_games(path)
    assert next(stream).headers["Event"] == "fine"
    with pytest.raises(PgnError, match=r"^game 2, line 6: malformed tag '\[Event broken'$"):
        next(stream)


def test_iter_games_opens_the_path_lazily(tmp_path):
    stream = iter_games(tmp_path / "missing.pgn")
    with pytest.raises(FileNotFoundError):
        next(stream)


def test_write_games_appends_and_keeps_games_before_an_error(tmp_path):
    path = tmp_path / "out.pgn"
    first = Game.from_board(random_board("evolution", 1, plies=10))
    second = Game.from_board(random_board("shocking", 2, plies=10))
    assert write_games(path, [first]) == 1
    assert write_games(str(path), [second]) == 1
    assert path.read_text(encoding="utf-8") == str(first) + "\n\n" + str(second) + "\n\n"

    broken = Game()
    broken.add_variation("e2e5")

    def games():
        yield first
        yield broken
        yield second

    with pytest.raises(fairyforge.IllegalMoveError):
        write_games(path, games())
    back = list(iter_games(path))
    assert [dump(g) for g in back] == [dump(first), dump(second), dump(first)]


def test_bom_and_crlf():
    text = '\ufeff[Event "bom"]\r\n\r\n1. e4 {a\r\nb} e5 *\r\n'
    game = read_game(io.StringIO(text, newline=""))
    assert game.headers["Event"] == "bom"
    assert game.next().comment == "a\nb"
    assert uci_moves(game) == ["e2e4", "e7e5"]


# --------------------------------------------------------------------------
# The game tree


def test_headers_order_and_validation():
    headers = pgn.Headers({"Variant": "burden", "White": "w", "Event": "e"})
    assert list(headers) == ["Event", "White", "Variant"]
    game = Game()
    game.headers["Annotator"] = "me"
    del game.headers["Site"]
    game.headers["Site"] = "again"
    assert list(game.headers) == [*pgn.TAG_ROSTER, "Annotator"]
    with pytest.raises(ValueError, match="invalid tag name"):
        game.headers["bad name"] = "x"
    with pytest.raises(ValueError, match="invalid value for tag Event"):
        game.headers["Event"] = "two\nlines"


def test_setup_writes_variant_tags_in_order():
    board = fairyforge.Board("burden", royal="maharajah", cycle="knight")
    game = Game()
    game.headers["Annotator"] = "me"
    game.setup(board)
    assert list(game.headers)[7:] == ["Annotator", "Variant", "VariantOptions"]
    board.push(board.legal_moves[0])
    game.setup(board)
    assert list(game.headers)[7:] == ["Annotator", "Variant", "VariantOptions", "FEN", "SetUp"]
    assert game.headers["FEN"] == board.fen()
    game.setup(fairyforge.Board("chess"))
    assert list(game.headers)[7:] == ["Annotator"]


def test_node_api():
    game = Game()
    e4 = game.add_variation("e2e4")
    d4 = game.add_main_variation(fairyforge.Move.from_uci("d2d4"), comment="main")
    assert [n.move.uci() for n in game.variations] == ["d2d4", "e2e4"]
    assert game.next() is d4 and d4.comment == "main"
    game.promote_to_main("e2e4")
    assert game.variations == [e4, d4]
    end = e4.add_line(["e7e5", "g1f3"])
    assert game.end() is end
    assert end.ply() == 3 and end.game() is game and end.root() is game
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert [m.uci() for m in e4.next().mainline_moves()] == ["g1f3"]
    assert end.is_mainline() and not d4.is_mainline()
    assert end.board().fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert len(end.board().move_stack) == 3
    assert game.board().fen() == START
    assert end.san() == "Nf3" and end.uci() == "g1f3"
    assert game.variation(1) is d4 and game.variation("d2d4") is d4
    assert game.has_variation("d2d4") and not game.has_variation("c2c4")
    with pytest.raises(KeyError):
        game.variation("c2c4")
    game.remove_variation("d2d4")
    assert game.variations == [e4]
    assert end.parent.parent is e4 and e4.parent is game and game.parent is None


def test_module_doctests():
    assert doctest.testmod(pgn).failed == 0


# --- python-chess's reader shape (issue 20) ------------------------------------

PC_TEXT = (
    '[Event "one"]\n\n1. e4 {[%eval 0.30,12] [%clk 0:01:00]} e5 {[%eval #-3] [%emt 0:00:05]}'
    " 2. -- Nc6 3. Qxh7 Nf6 *\n\n"
    '[Event "two"]\n[Variant "shocking"]\n\n1. e4 *\n'
)


def test_keep_returns_the_game_up_to_an_illegal_move_as_python_chess():
    import chess.pgn

    errors: list[PgnError] = []
    game = read_game(io.StringIO(PC_TEXT), on_error="keep", errors=errors)
    theirs = chess.pgn.read_game(io.StringIO(PC_TEXT))
    assert [n.san() for n in game.mainline()] == [n.san() for n in theirs.mainline()]
    assert len(game.errors) == len(theirs.errors) == 1 and errors == game.errors
    assert "illegal move 'Qxh7'" in str(game.errors[0])
    assert Game().errors == []


def test_null_moves_eval_and_clock_read_as_python_chess():
    import chess.pgn

    ours = read_game(io.StringIO(PC_TEXT), on_error="keep")
    theirs = chess.pgn.read_game(io.StringIO(PC_TEXT))
    for a, b in zip(ours.mainline(), theirs.mainline()):
        assert a.uci() == b.uci()
        pov = b.eval()
        if pov is None:
            assert a.eval() is None
        else:
            white = pov.white()
            assert (a.eval().cp, a.eval().mate) == (white.score(), white.mate())
        assert a.eval_depth() == b.eval_depth()
        assert a.clock() == b.clock() and a.emt() == b.emt()
    null = ours.next().next().next()
    assert null.move == fairyforge.Move.null() and null.san() == "--"
    assert "2. -- Nc6" in str(ours)
    node = ours.next()
    node.set_eval(fairyforge.Score(cp=-45), 10)
    node.set_clock(90.5)
    assert node.eval() == fairyforge.Score(cp=-45) and node.eval_depth() == 10
    assert node.clock() == 90.5 and node.comment == "[%eval -0.45,10] [%clk 0:01:30.5]"
    node.set_eval(None)
    assert node.eval() is None and node.clock() == 90.5


def test_read_headers_skips_the_moves():
    from fairyforge.pgn import read_headers

    handle = io.StringIO(PC_TEXT)
    first, second = read_headers(handle), read_headers(handle)
    assert (first["Event"], second["Event"], second["Variant"]) == ("one", "two", "shocking")
    assert read_headers(handle) is None


def test_visitors_walk_the_game_as_pgn_writes_it():
    from fairyforge.pgn import SKIP, BaseVisitor

    class Sans(BaseVisitor[list[str]]):
        def __init__(self) -> None:
            self.out: list[str] = []

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.out.append(f"{tagname}={tagvalue}")

        def visit_move(self, board, move) -> None:
            self.out.append(board.san(move))

        def begin_variation(self) -> None:
            self.out.append("(")

        def end_variation(self) -> None:
            self.out.append(")")

        def visit_result(self, result: str) -> None:
            self.out.append(result)

        def result(self) -> list[str]:
            return self.out

    text = '[Event "v"]\n\n1. e4 (1. d4 d5 (1... Nf6) 2. c4) e5 2. Nf3 1-0\n'
    assert read_game(io.StringIO(text), Visitor=Sans)[7:] == [
        "e4", "(", "d4", "d5", "(", "Nf6", ")", "c4", ")", "e5", "Nf3", "1-0",
    ]  # fmt: skip

    class Tags(Sans):
        def end_headers(self) -> str:
            return SKIP

    assert read_game(io.StringIO(text), Visitor=Tags)[-2:] == ["Result=1-0", "1-0"]
