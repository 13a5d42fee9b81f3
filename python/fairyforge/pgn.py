"""PGN for every variant: games with comments, NAGs and variations.

A smaller cousin of python-chess's ``chess.pgn``:

>>> import io
>>> import fairyforge.pgn
>>> game = fairyforge.pgn.read_game(io.StringIO('[Variant "burden"]\\n\\n1. dxe5 fxe4 *'))
>>> game.board().variant.name
'burden'
>>> [node.san() for node in game.mainline()]
['dxe5', 'fxe4']
>>> game.end().board().fen()
'8/pppppppp/pppppppp/ppppN1pp/PPP1nPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 2'

Games
    :class:`Game` (the root: headers and the start position) holds a tree of
    :class:`ChildNode` objects, each with its ``move``, ``comment``,
    ``starting_comment`` (a comment before the first move of a variation),
    ``nags`` (a set of ints) and ``variations`` (main line first).
    ``str(game)`` is the PGN text, wrapped at 80 columns; for FIDE chess it is
    exactly what python-chess's exporters write for the same game
    (``export(game, columns=None)`` is python-chess's unwrapped ``str()``).

Variant tags
    ``[Variant "burden"]`` names the variant (case-insensitive; ``chess``,
    ``standard`` and ``fide`` mean FIDE chess, as does a game without the
    tag, which is how FIDE games are written). ``[VariantOptions "cycle=knight
    royal=maharajah"]`` holds the variant's options as space-separated
    ``key=value`` pairs. A start position other than the variant's own is
    given by ``[FEN "..."]`` with ``[SetUp "1"]``.

Reading
    :func:`read_game` reads the next game from a text handle and
    :func:`iter_games` is a generator over the games of a handle or a file.
    Both read line by line: memory is bounded by the size of one game. A game
    ends at its result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) outside
    variations, at a blank line after its movetext, at a tag line (``[`` in
    the first column) after its movetext, or at the end of the file.

Reading as python-chess does
    :func:`read_headers` reads the next game's tags and skips its moves.
    ``read_game(handle, Visitor=MyVisitor)`` walks the game with a
    :class:`BaseVisitor` (python-chess's method names: ``begin_game``,
    ``visit_header``, ``end_headers``, ``visit_move``, ``visit_board``,
    ``visit_comment``, ``visit_nag``, ``begin_variation``,
    ``end_variation``, ``visit_result``, ``end_game``) and returns its
    ``result()``; :meth:`GameNode.accept` does the same for a game in
    memory. With ``on_error="keep"`` a bad game is returned as python-chess
    returns it: the moves up to the error, the error in ``game.errors``
    (every game has the list, empty when nothing went wrong). Null moves are
    written and read as ``--``. ``[%eval 0.25]``, ``[%eval #-3,20]``,
    ``[%clk 0:01:30]`` and ``[%emt 0:00:05]`` in a move's comment are read by
    :meth:`ChildNode.eval` (a :class:`fairyforge.Score` from White's point of
    view), :meth:`ChildNode.eval_depth`, :meth:`ChildNode.clock` and
    :meth:`ChildNode.emt` (seconds), and written by ``set_eval`` and
    ``set_clock``.

Errors
    A malformed game raises :class:`PgnError` (a ``ValueError``) whose message
    starts with ``game N, line L:`` -- N is the 1-based index of the game in
    what has been read from the handle (bad games included), L the 1-based
    line number -- then says what is wrong and quotes the offending token:
    ``game 3, line 41: illegal move 'Nf6' in position <FEN>``. The error
    also has the attributes ``game``, ``line``, ``token`` and ``reason``.
    Before raising, the reader skips the rest of the bad game, so the next
    :func:`read_game` call continues with the next game. With
    ``on_error="skip"`` bad games are skipped instead of raised: each error is
    appended to the list given as ``errors=`` (when given) and logged as a
    warning on the ``fairyforge.pgn`` logger. Skipping resumes at the next tag
    line that follows a blank line or a line ending with a result token
    (outside comments).
"""

from __future__ import annotations

import logging
import os
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any, Generic, TypeVar, Union, overload

import fairyforge
from fairyforge import Move, Score

__all__ = [
    "SKIP",
    "NAG_BLUNDER",
    "NAG_BRILLIANT_MOVE",
    "NAG_DUBIOUS_MOVE",
    "NAG_GOOD_MOVE",
    "NAG_MISTAKE",
    "NAG_SPECULATIVE_MOVE",
    "BaseVisitor",
    "ChildNode",
    "Game",
    "GameNode",
    "Headers",
    "PgnError",
    "export",
    "format_variant_options",
    "iter_games",
    "parse_variant_options",
    "read_game",
    "read_headers",
    "variant_name",
    "write_games",
]

LOGGER = logging.getLogger(__name__)

NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6

#: Suffix annotations and the NAGs they stand for.
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

#: Result tokens.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: The seven-tag roster, written first in this order.
TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ROSTER_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}

#: Variant tag values (lower case, single spaces) that are not engine names.
VARIANT_ALIASES = {
    "standard": "chess",
    "fide": "chess",
    "shocking chess": "shocking",
    "burden of the royalty": "burden",
    "evolution chess": "evolution",
}

_TAG_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")
_TAG_RE = re.compile(r'\s*\[\s*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_UNESCAPE_RE = re.compile(r"\\(.)")


class PgnError(ValueError):
    """A malformed game: ``game`` (1-based index), ``line`` (1-based line
    number), ``token`` (the offending text, or None) and ``reason``."""

    def __init__(self, reason: str, *, game: int, line: int, token: str | None = None):
        super().__init__(f"game {game}, line {line}: {reason}")
        self.reason = reason
        self.game = game
        self.line = line
        self.token = token


# --------------------------------------------------------------------------
# Variant tags


Definition = Union[str, "os.PathLike[str]", Mapping[str, Any]]
"""A variant definition: a TOML file's path or a dict (docs/VARIANTS.md)."""


def _load_definitions(variants: Iterable[Definition]) -> None:
    """Load and register definitions, so that ``[Variant]`` tags can name
    them."""
    for definition in variants:
        fairyforge.load_variant(definition)


def variant_name(tag: str | None) -> str:
    """Engine name for a ``Variant`` tag value (None: no tag, FIDE chess).

    Matching ignores case and repeated spaces; names the engine does not know
    are returned as given (lower case) and rejected when a board is made.
    """
    if tag is None:
        return "chess"
    key = " ".join(tag.split()).lower()
    return VARIANT_ALIASES.get(key, key)


def parse_variant_options(text: str) -> dict[str, str]:
    """Options from a ``VariantOptions`` value: ``"cycle=knight royal=maharajah"``
    gives ``{"cycle": "knight", "royal": "maharajah"}``. Raises
    :class:`fairyforge.InvalidOptionError` for an item that is not
    ``key=value`` or a key given twice (the values are checked by the engine)."""
    options: dict[str, str] = {}
    for item in text.split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value or "=" in value:
            raise fairyforge.InvalidOptionError(
                f"malformed VariantOptions item {item!r}: expected key=value"
            )
        if key in options:
            raise fairyforge.InvalidOptionError(f"VariantOptions gives {key!r} twice")
        options[key] = value
    return options


def format_variant_options(options: Mapping[str, str] | Iterable[tuple[str, str]]) -> str:
    """``VariantOptions`` value for options (a mapping or ``(key, value)`` pairs)."""
    pairs = options.items() if isinstance(options, Mapping) else options
    return " ".join(f"{key}={value}" for key, value in pairs)


# --------------------------------------------------------------------------
# Headers


class Headers(MutableMapping):
    """Tag pairs: the seven-tag roster first (in roster order), then the other
    tags in insertion order. ``Headers()`` holds the roster with its unknown
    values (``?``, ``????.??.??``, ``*``); ``Headers(data)`` holds ``data`` only."""

    def __init__(self, data: Mapping[str, str] | Iterable[tuple[str, str]] | None = None):
        self._tags: dict[str, str] = {}
        self.update(_ROSTER_DEFAULTS if data is None else data)

    def __setitem__(self, name: str, value: str) -> None:
        if not isinstance(name, str) or not _TAG_NAME_RE.match(name):
            raise fairyforge.InvalidOptionError(f"invalid tag name {name!r}")
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise fairyforge.InvalidOptionError(f"invalid value for tag {name}: {value!r}")
        self._tags[name] = value

    def __getitem__(self, name: str) -> str:
        return self._tags[name]

    def __delitem__(self, name: str) -> None:
        del self._tags[name]

    def __iter__(self) -> Iterator[str]:
        for name in TAG_ROSTER:
            if name in self._tags:
                yield name
        for name in self._tags:
            if name not in _ROSTER_DEFAULTS:
                yield name

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        return Headers(self.items())

    def __repr__(self) -> str:
        pairs = ", ".join(f"{k}={v!r}" for k, v in self.items())
        return f"Headers({pairs})"


# --------------------------------------------------------------------------
# The game tree


_EVAL_RE = re.compile(
    r"\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))(?:,(\d+))?\]"
)
_CLOCK_RE = re.compile(r"\[%clk\s+(\d+):(\d+):(\d+(?:\.\d*)?)\]")
_EMT_RE = re.compile(r"\[%emt\s+(\d+):(\d+):(\d+(?:\.\d*)?)\]")


def _seconds(m: re.Match[str] | None) -> float | None:
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def _hms(seconds: float) -> str:
    seconds = max(0.0, seconds)
    hours, minutes, rest = int(seconds // 3600), int(seconds % 3600 // 60), seconds % 60
    return f"{hours:d}:{minutes:02d}:" + f"{rest:06.3f}".rstrip("0").rstrip(".")


def _set_annotation(comment: str, pattern: re.Pattern[str], text: str) -> str:
    if pattern.search(comment):
        return " ".join(pattern.sub(text, comment, count=1).split())
    return f"{text} {comment}".strip() if text else comment


def _as_move(move: Move | str) -> Move:
    return Move.from_uci(move) if isinstance(move, str) else move


#: What :meth:`BaseVisitor.end_headers` returns to skip the moves.
SKIP = "skip"

T = TypeVar("T")


class BaseVisitor(Generic[T]):
    """Walks a game (python-chess's visitor): override the ``visit_*``,
    ``begin_*`` and ``end_*`` methods that matter and :meth:`result`. The
    board given to :meth:`visit_move` is the position before the move; the
    one given to :meth:`visit_board` the position after it."""

    def begin_game(self) -> None:
        """A game begins."""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """One tag pair."""

    def end_headers(self) -> str | None:
        """The tags are done; return :data:`SKIP` to skip the moves."""
        return None

    def visit_move(self, board: fairyforge.Board, move: Move) -> None:
        """A move, with the board before it."""

    def visit_board(self, board: fairyforge.Board) -> None:
        """The board after a move."""

    def visit_comment(self, comment: str) -> None:
        """The comment after a move (or before the first one)."""

    def visit_nag(self, nag: int) -> None:
        """A NAG of the move just visited."""

    def begin_variation(self) -> None:
        """A side line begins (its moves follow)."""

    def end_variation(self) -> None:
        """The side line ends."""

    def visit_result(self, result: str) -> None:
        """The game's result token."""

    def end_game(self) -> None:
        """The game is done."""

    def result(self) -> T:
        """What the walk produced."""
        raise NotImplementedError


class GameNode:
    """A node of the game tree. :class:`Game` is the root; every other node
    is a :class:`ChildNode` reached by its ``move``."""

    parent: GameNode | None
    move: Move | None

    def __init__(self, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()):
        self.parent = None
        self.move = None
        self.variations: list[ChildNode] = []
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags: set[int] = set(nags)

    def game(self) -> Game:
        """The root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    root = game

    def ply(self) -> int:
        """Number of moves from the root to this node."""
        n, node = 0, self
        while node.parent is not None:
            n, node = n + 1, node.parent
        return n

    def board(self) -> fairyforge.Board:
        """A new board at this node, with the moves from the root on its stack."""
        moves: list[Move] = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        board = node.board()
        for move in reversed(moves):
            board.push(move)
        return board

    def add_variation(
        self,
        move: Move | str,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        """Append a continuation (a Move or coordinate text) and return its node.
        The move is not checked here; :meth:`board` and writing check it."""
        node = ChildNode(
            self, _as_move(move), comment=comment, starting_comment=starting_comment, nags=nags
        )
        self.variations.append(node)
        return node

    def add_main_variation(
        self, move: Move | str, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add a continuation as the new main line and return its node."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[Move | str]) -> GameNode:
        """Add a chain of moves from this node; returns the last node."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move)
        return node

    def variation(self, key: int | Move | str) -> ChildNode:
        """A continuation by index or by move."""
        if isinstance(key, int):
            return self.variations[key]
        move = _as_move(key)
        for node in self.variations:
            if node.move == move:
                return node
        raise KeyError(move)

    def has_variation(self, move: Move | str) -> bool:
        move = _as_move(move)
        return any(node.move == move for node in self.variations)

    def promote_to_main(self, move: Move | str) -> None:
        """Make the continuation with this move the main line."""
        node = self.variation(move)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def remove_variation(self, move: Move | str) -> None:
        self.variations.remove(self.variation(move))

    def next(self) -> ChildNode | None:
        """The main continuation, or None at the end of a line."""
        return self.variations[0] if self.variations else None

    def is_end(self) -> bool:
        return not self.variations

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[ChildNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line after this node."""
        return [node.move for node in self.mainline()]

    def accept(self, visitor: BaseVisitor[T]) -> T:
        """Walk the game from this node with ``visitor`` (tags and result
        only from the root) and return its ``result()``."""
        root = isinstance(self, Game)
        if root:
            visitor.begin_game()
            for name, value in self.game().headers.items():
                visitor.visit_header(name, value)
            skip = visitor.end_headers() == SKIP
            if self.comment and not skip:
                visitor.visit_comment(self.comment)
        else:
            skip = False
        if self.variations and not skip:
            _visit_line(self.variations[0], self.board(), visitor)
        if root:
            visitor.visit_result(self.game().headers.get("Result", "*"))
            visitor.end_game()
        return visitor.result()

    def is_mainline(self) -> bool:
        """True when every node from the root to here is a main continuation."""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True


def _visit_move(node: ChildNode, board: fairyforge.Board, visitor: BaseVisitor[T]) -> None:
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(board, node.move)
    board.push(node.move)
    visitor.visit_board(board)
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


def _visit_line(first: ChildNode, board: fairyforge.Board, visitor: BaseVisitor[T]) -> None:
    """The line from ``first`` on, each move's side lines after it (as
    PGN writes them); recursion only as deep as the side lines nest."""
    node: ChildNode | None = first
    while node is not None:
        _visit_move(node, board, visitor)
        main = node.parent.variations[0] is node
        for side in node.parent.variations[1:] if main else ():
            visitor.begin_variation()
            line = board.copy()
            line.pop()
            _visit_line(side, line, visitor)
            visitor.end_variation()
        node = node.next()


class ChildNode(GameNode):
    """A node reached by a move from its parent."""

    parent: GameNode
    move: Move

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ):
        super().__init__(comment=comment, starting_comment=starting_comment, nags=nags)
        self.parent = parent
        self.move = move

    def san(self) -> str:
        """SAN of the move in the parent position."""
        return self.parent.board().san(self.move)

    def uci(self) -> str:
        """Coordinate text of the move."""
        return self.move.uci()

    def eval(self) -> Score | None:
        """The ``[%eval ...]`` annotation of the comment as a Score from
        White's point of view (``0.25`` is 25 centipawns, ``#-3`` mate in 3
        for Black), or None."""
        m = _EVAL_RE.search(self.comment)
        if m is None:
            return None
        if m.group(1) is not None:
            return Score(mate=int(m.group(1)))
        return Score(cp=round(float(m.group(2)) * 100))

    def eval_depth(self) -> int | None:
        """The depth of the ``[%eval score,depth]`` annotation, or None."""
        m = _EVAL_RE.search(self.comment)
        return int(m.group(3)) if m is not None and m.group(3) is not None else None

    def set_eval(self, score: Score | None, depth: int | None = None) -> None:
        """Replace (None: remove) the comment's ``[%eval]`` annotation."""
        text = ""
        if score is not None:
            value = f"#{score.mate}" if score.mate is not None else f"{(score.cp or 0) / 100:.2f}"
            text = f"[%eval {value}{'' if depth is None else f',{depth}'}]"
        self.comment = _set_annotation(self.comment, _EVAL_RE, text)

    def clock(self) -> float | None:
        """Seconds left on the mover's clock by ``[%clk h:mm:ss]``, or None."""
        return _seconds(_CLOCK_RE.search(self.comment))

    def emt(self) -> float | None:
        """Seconds the move took by ``[%emt h:mm:ss]``, or None."""
        return _seconds(_EMT_RE.search(self.comment))

    def set_clock(self, seconds: float | None) -> None:
        """Replace (None: remove) the comment's ``[%clk]`` annotation."""
        text = "" if seconds is None else f"[%clk {_hms(seconds)}]"
        self.comment = _set_annotation(self.comment, _CLOCK_RE, text)

    def __repr__(self) -> str:
        return f"<ChildNode at {id(self):#x} ({self.ply()}: {self.move.uci()})>"


class Game(GameNode):
    """The root of a game: ``headers`` and the start position they describe
    (``Variant``, ``VariantOptions``, ``FEN``)."""

    def __init__(self, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None):
        super().__init__()
        self.headers = Headers(headers)
        #: Errors met while reading the game with ``on_error="keep"``.
        self.errors: list[PgnError] = []

    def board(self) -> fairyforge.Board:
        """A new board at the start position. Raises
        :class:`fairyforge.InvalidOptionError` for an unknown variant or bad
        options and :class:`fairyforge.InvalidFenError` for a bad FEN tag."""
        name = variant_name(self.headers.get("Variant"))
        options = parse_variant_options(self.headers.get("VariantOptions", ""))
        return fairyforge.Board(name, self.headers.get("FEN"), **options)

    def setup(self, board: fairyforge.Board) -> None:
        """Describe the current position of ``board`` (not its move stack) as
        the start: ``Variant`` (left out for FIDE chess), ``VariantOptions``
        (when the variant has options), ``FEN`` and ``SetUp "1"`` (when the
        position is not the variant's start position)."""
        for name in ("Variant", "VariantOptions", "FEN", "SetUp"):
            self.headers.pop(name, None)
        variant = board.variant
        if variant.name != "chess":
            self.headers["Variant"] = variant.name
        if variant.options:
            self.headers["VariantOptions"] = format_variant_options(variant.options)
        fen = board.fen()
        if fen != variant.start_fen:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"

    @classmethod
    def from_board(cls, board: fairyforge.Board) -> Game:
        """A game of the moves on the board's stack from its first position,
        with ``Result`` from ``board.outcome()`` (``*`` while the game goes on)."""
        start = board.copy()
        while start.move_stack:
            start.pop()
        game = cls()
        game.setup(start)
        game.add_line(board.move_stack)
        outcome = board.outcome()
        game.headers["Result"] = outcome.result() if outcome is not None else "*"
        return game

    def __str__(self) -> str:
        return export(self)

    def __repr__(self) -> str:
        h = self.headers
        return (
            f"<Game at {id(self):#x} ({h.get('White', '?')!r} vs. {h.get('Black', '?')!r}, "
            f"{h.get('Date', '????.??.??')}, {variant_name(h.get('Variant'))})>"
        )


# --------------------------------------------------------------------------
# Writing


class _Writer:
    """Movetext tokens wrapped at ``columns`` (python-chess's exporter)."""

    def __init__(self, columns: int | None):
        self.columns = columns
        self.lines: list[str] = []
        self.current = ""
        self.force_number = True

    def flush(self) -> None:
        if self.current:
            self.lines.append(self.current.rstrip())
        self.current = ""

    def line(self, text: str = "") -> None:
        self.flush()
        self.lines.append(text.rstrip())

    def token(self, text: str) -> None:
        if self.columns is not None and self.columns - len(self.current) < len(text):
            self.flush()
        self.current += text

    def comment(self, text: str) -> None:
        self.token("{ " + text.replace("}", "").strip() + " } ")
        self.force_number = True

    def move(self, board: fairyforge.Board, move: Move) -> None:
        if move and not board.is_legal(move):
            raise fairyforge.IllegalMoveError(f"illegal move {move.uci()!r} in {board.fen()}")
        if board.turn:
            self.token(f"{board.fullmove_number}. ")
        elif self.force_number:
            self.token(f"{board.fullmove_number}... ")
        self.token(board.san(move) + " ")
        self.force_number = False

    def node(self, board: fairyforge.Board, node: ChildNode) -> None:
        if node.starting_comment.strip():
            self.comment(node.starting_comment)
        self.move(board, node.move)
        for nag in sorted(node.nags):
            self.token(f"${nag} ")
        if node.comment.strip():
            self.comment(node.comment)

    def open(self) -> None:
        self.token("( ")
        self.force_number = True

    def close(self) -> None:
        self.token(") ")
        self.force_number = True

    def text(self) -> str:
        self.flush()
        return "\n".join(self.lines).rstrip()


class _Frame:
    __slots__ = ("node", "siblings", "state", "in_variation")

    def __init__(self, node: ChildNode, sidelines: bool):
        self.node = node
        self.siblings = iter(node.parent.variations[1:] if sidelines else ())
        self.state = "pre"
        self.in_variation = False


def _write_tree(first: ChildNode, board: fairyforge.Board, w: _Writer) -> None:
    # The main move, its annotations, its sidelines, then the main line on.
    stack = [_Frame(first, sidelines=True)]
    while stack:
        top = stack[-1]
        if top.in_variation:
            top.in_variation = False
            w.close()
        if top.state == "pre":
            w.node(board, top.node)
            top.state = "variations"
        elif top.state == "variations":
            sideline = next(top.siblings, None)
            if sideline is not None:
                w.open()
                stack.append(_Frame(sideline, sidelines=False))
                top.in_variation = True
            elif top.node.variations:
                board.push(top.node.move)
                stack.append(_Frame(top.node.variations[0], sidelines=True))
                top.state = "post"
            else:
                top.state = "end"
        elif top.state == "post":
            board.pop()
            top.state = "end"
        else:
            stack.pop()


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def export(game: Game, *, columns: int | None = 80) -> str:
    """PGN text of a game: tag pairs, a blank line, the movetext wrapped at
    ``columns`` (None: one line) ending with the ``Result`` tag's token. No
    newline at the end. Raises the engine's error for an illegal move."""
    w = _Writer(columns)
    for name, value in game.headers.items():
        w.line(f'[{name} "{_escape(value)}"]')
    if game.headers:
        w.line()
    if game.comment.strip():
        w.comment(game.comment)
    if game.variations:
        _write_tree(game.variations[0], game.board(), w)
    # The movetext ends with a result token; a Result tag that is none is
    # kept as a tag but the game ends with "*", so the text reads back.
    result = game.headers.get("Result", "*")
    w.token((result if result in RESULTS else "*") + " ")
    return w.text()


def write_games(path: str | os.PathLike[str], games: Iterable[Game]) -> int:
    """Append games to a file (UTF-8), each followed by a blank line; returns
    how many were written. Each game is written whole once its text is
    ready, so the games before one that fails stay in the file."""
    count = 0
    with open(path, "a", encoding="utf-8") as handle:
        for game in games:
            text = export(game)
            handle.write(text + "\n\n")
            handle.flush()
            count += 1
    return count


# --------------------------------------------------------------------------
# Reading


class _Source:
    """Numbered lines of a text handle, with one line of push-back and the
    count of games started."""

    def __init__(self, handle):
        # Weakly where the handle allows: _SOURCES keeps this source under
        # the handle as a weak key, which a strong reference would keep alive.
        try:
            self._handle: Callable[[], object] = weakref.ref(handle)
        except TypeError:
            self._handle = lambda: handle
        self.lineno = 0
        self.pending: tuple[int, str] | None = None
        self.games = 0
        #: The game being read (for ``on_error="keep"``).
        self.current: Game | None = None

    @property
    def handle(self):
        """The handle (alive while a caller reads from it)."""
        return self._handle()

    def readline(self) -> tuple[int, str] | None:
        if self.pending is not None:
            item, self.pending = self.pending, None
            return item
        text = self.handle.readline()
        if not text:
            return None
        if self.lineno == 0:
            text = text.lstrip("\ufeff")
        self.lineno += 1
        return self.lineno, text.rstrip("\r\n")

    def unread(self, item: tuple[int, str]) -> None:
        self.pending = item


# Reading state of the handles given to read_game(), so that game indices and
# line numbers go on across calls. An entry is used again only when the
# handle is still where the last call left it (or cannot tell).
_SOURCES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tell(handle) -> int | None:
    try:
        return handle.tell()
    except (AttributeError, OSError, ValueError):
        return None


def _source_for(handle) -> _Source:
    try:
        entry = _SOURCES.get(handle)
    except TypeError:
        return _Source(handle)
    if entry is not None:
        source, position = entry
        if position is None or position == _tell(handle):
            return source
    return _Source(handle)


def _remember(source: _Source) -> None:
    try:
        _SOURCES[source.handle] = (source, _tell(source.handle))
    except TypeError:
        pass


class _GameError(Exception):
    """An error in the current game. ``rest`` is the unread text of the
    current line; ``boundary`` tells that the text read so far ends where a
    new game may begin; ``at_end`` that the whole game has been read."""

    def __init__(
        self,
        reason: str,
        line: int,
        token: str | None,
        *,
        rest: str = "",
        boundary: bool = False,
        at_end: bool = False,
    ):
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.token = token
        self.rest = rest
        self.boundary = boundary
        self.at_end = at_end


_RESULT_RE = re.compile(r"(?:1-0|0-1|1/2-1/2|\*)(?=$|[\s(){};])")
_MOVE_RE = re.compile(r"([A-Za-z][A-Za-z0-9=+#:@-]*|0-0(?:-0)?[+#]*|--(?=$|[\s(){};!?]))([!?]+)?")
_NUMBER_RE = re.compile(r"\d+\.*|\.+")
_NAG_RE = re.compile(r"\$(\d+)")
_ANNOTATION_RE = re.compile(r"[!?]+")
_JUNK_RE = re.compile(r"[^\s(){};]+|\S")


class _Lexer:
    """Movetext tokens of one game: ``(kind, value, line)`` with kind one of
    ``move`` (value ``(san, nag or None)``), ``comment``, ``nag``, ``open``,
    ``close``, ``result`` and ``end`` (value ``eof``, ``blank`` or ``tag``)."""

    def __init__(self, source: _Source):
        self.source = source
        self.text = ""
        self.pos = 0
        self.line = 0
        self.started = False

    def rest(self) -> str:
        return self.text[self.pos :]

    def fail(self, reason: str, line: int, token: str | None) -> _GameError:
        return _GameError(reason, line, token, rest=self.rest())

    def next(self, same_line: bool = False) -> tuple[str, object, int] | None:
        """The next token; None at the end of the line when ``same_line``."""
        while True:
            text = self.text
            while self.pos < len(text) and text[self.pos].isspace():
                self.pos += 1
            if self.pos >= len(text):
                if same_line:
                    return None
                item = self.source.readline()
                if item is None:
                    return "end", "eof", self.source.lineno
                line, text = item
                if text.startswith("%"):
                    continue
                if not text.strip():
                    if self.started:
                        return "end", "blank", line
                    continue
                if text.startswith("["):
                    self.source.unread(item)
                    return "end", "tag", line
                self.text, self.pos, self.line = text, 0, line
                continue
            self.started = True
            token = self._token()
            if token is not None:
                return token

    def _token(self) -> tuple[str, object, int] | None:
        """The token at ``pos`` (None for a move number, which is skipped)."""
        text, pos, line = self.text, self.pos, self.line
        c = text[pos]
        if c == "{":
            return "comment", self._comment(), line
        if c == ";":
            self.pos = len(text)
            return "comment", text[pos + 1 :].strip(), line
        if c == "(":
            self.pos += 1
            return "open", "(", line
        if c == ")":
            self.pos += 1
            return "close", ")", line
        if c == "$":
            m = _NAG_RE.match(text, pos)
            if m is None:
                junk = _JUNK_RE.match(text, pos).group()
                self.pos += len(junk)
                raise self.fail(f"malformed NAG {junk!r}", line, junk)
            self.pos = m.end()
            return "nag", int(m.group(1)), line
        m = _RESULT_RE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return "result", m.group(), line
        m = _MOVE_RE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            suffix = m.group(2)
            nag = None
            if suffix is not None:
                nag = SUFFIX_NAGS.get(suffix)
                if nag is None:
                    raise self.fail(f"invalid annotation {suffix!r}", line, m.group())
            return "move", (m.group(1), nag), line
        m = _NUMBER_RE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return None
        m = _ANNOTATION_RE.match(text, pos)
        if m is not None:
            self.pos = m.end()
            nag = SUFFIX_NAGS.get(m.group())
            if nag is None:
                raise self.fail(f"invalid annotation {m.group()!r}", line, m.group())
            return "nag", nag, line
        junk = _JUNK_RE.match(text, pos).group()
        self.pos += len(junk)
        raise self.fail(f"unexpected text {junk!r}", line, junk)

    def _comment(self) -> str:
        text, start = self.text, self.pos + 1
        end = text.find("}", start)
        if end >= 0:
            self.pos = end + 1
            return text[start:end].strip()
        first_line = self.line
        parts = [text[start:]]
        while True:
            item = self.source.readline()
            if item is None:
                self.text, self.pos = "", 0
                raise _GameError("unterminated comment '{'", first_line, "{", at_end=True)
            line, text = item
            end = text.find("}")
            if end >= 0:
                parts.append(text[:end])
                self.text, self.pos, self.line = text, end + 1, line
                return "\n".join(parts).strip()
            parts.append(text)


def _parse_tags(text: str, line: int, headers: Headers, tag_lines: dict[str, int]) -> None:
    pos = 0
    while pos < len(text):
        m = _TAG_RE.match(text, pos)
        if m is None:
            raise _GameError(f"malformed tag {text.strip()!r}", line, text.strip())
        try:
            headers[m.group(1)] = _UNESCAPE_RE.sub(r"\1", m.group(2))
        except fairyforge.InvalidOptionError as e:  # a line break inside the value
            raise _GameError(str(e), line, text.strip()) from None
        tag_lines[m.group(1)] = line
        pos = m.end()


def _start_board(headers: Headers, tag_lines: dict[str, int], end_line: int) -> fairyforge.Board:
    def fail(reason: str, tag: str, token: str) -> _GameError:
        return _GameError(reason, tag_lines.get(tag, end_line), token, boundary=True)

    tag = headers.get("Variant")
    name = variant_name(tag)
    if name not in fairyforge.variant_names():
        raise fail(f"unknown variant {tag!r}", "Variant", tag or "")
    text = headers.get("VariantOptions", "")
    try:
        options = parse_variant_options(text)
    except fairyforge.InvalidOptionError as e:
        raise fail(str(e), "VariantOptions", text) from e
    fen = headers.get("FEN")
    try:
        return fairyforge.Board(name, fen, **options)
    except fairyforge.InvalidFenError as e:
        raise fail(f"bad FEN {fen!r}: {e}", "FEN", fen or "") from e
    except fairyforge.InvalidOptionError as e:
        where = "VariantOptions" if "VariantOptions" in tag_lines else "Variant"
        raise fail(f"bad VariantOptions {text!r}: {e}", where, text) from e


def _add_comment(node: GameNode, text: str) -> None:
    node.comment = f"{node.comment} {text}" if node.comment else text


def _read_tags(source: _Source, game: Game) -> tuple[dict[str, int], int] | None:
    """Tag pairs into ``game.headers``, from the first tag line to a blank
    line or a movetext line: the line of each tag and the last line read;
    None at the end of the input."""
    headers = game.headers
    tag_lines: dict[str, int] = {}
    found = False
    end_line = source.lineno
    while True:
        item = source.readline()
        if item is None:
            break
        line, text = item
        end_line = line
        if text.startswith("%"):
            continue
        if not found and (not text.strip() or text.lstrip().startswith(";")):
            continue
        if found and not text.strip():
            break
        if not found:
            found = True
            source.games += 1
        if not text.lstrip().startswith("["):
            source.unread(item)
            break
        _parse_tags(text, line, headers, tag_lines)
    return (tag_lines, end_line) if found else None


def _parse_game(source: _Source) -> Game | None:
    game = source.current = Game()
    tags = _read_tags(source, game)
    if tags is None:
        return None
    headers = game.headers
    board = _start_board(headers, *tags)
    lexer = _Lexer(source)
    node: GameNode = game
    saved: list[tuple[GameNode, fairyforge.Board, int]] = []
    var_start = False
    starting: list[str] = []
    while True:
        kind, value, line = lexer.next()
        if kind == "move":
            san, nag = value
            try:
                move = board.push_san(san)
            except fairyforge.IllegalMoveError as e:
                raise lexer.fail(
                    f"illegal move {san!r} in position {board.fen()}", line, san
                ) from e
            except fairyforge.AmbiguousMoveError as e:
                raise lexer.fail(
                    f"ambiguous move {san!r} in position {board.fen()}", line, san
                ) from e
            except fairyforge.InvalidMoveError as e:
                raise lexer.fail(f"unparsable move {san!r}", line, san) from e
            node = node.add_variation(move)
            if starting:
                node.starting_comment = " ".join(starting)
                starting = []
            if nag is not None:
                node.nags.add(nag)
            var_start = False
        elif kind == "comment":
            if value:
                if var_start:
                    starting.append(value)
                else:
                    _add_comment(node, value)
        elif kind == "nag":
            if var_start or node is game:
                raise lexer.fail(f"NAG ${value} before any move", line, f"${value}")
            node.nags.add(value)
        elif kind == "open":
            if var_start or node is game:
                raise lexer.fail("variation '(' before any move", line, "(")
            saved.append((node, board, line))
            board = board.copy()
            board.pop()
            node = node.parent
            var_start = True
        elif kind == "close":
            if not saved:
                raise lexer.fail("unbalanced ')': no variation to close", line, ")")
            node, board, _ = saved.pop()
            var_start = False
            starting = []
        elif kind == "result":
            if saved:
                raise _GameError(
                    f"result {value!r} inside a variation: '(' on line {saved[-1][2]} "
                    "is not closed",
                    line,
                    value,
                    rest=lexer.rest(),
                    boundary=True,
                )
            if headers.get("Result", "*") == "*":
                headers["Result"] = value
            while True:
                token = lexer.next(same_line=True)
                if token is None:
                    return game
                kind, value, line = token
                if kind != "comment":
                    text = value[0] if kind == "move" else f"${value}" if kind == "nag" else value
                    raise lexer.fail(f"unexpected {text!r} after the result", line, text)
                if value:
                    _add_comment(node, value)
        else:
            if saved:
                raise _GameError(
                    f"unbalanced '(': the variation opened on line {saved[-1][2]} is not closed",
                    saved[-1][2],
                    "(",
                    at_end=True,
                )
            return game


def _scan(text: str, in_comment: bool) -> tuple[bool, bool]:
    """Comment state at the end of a line and whether its last token outside
    comments is a result token."""
    last = None
    i, n = 0, len(text)
    while i < n:
        if in_comment:
            j = text.find("}", i)
            if j < 0:
                return True, False
            in_comment, i = False, j + 1
        elif text[i] == "{":
            in_comment, i = True, i + 1
        elif text[i] == ";":
            break
        elif text[i].isspace():
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "{;":
                j += 1
            last, i = text[i:j], j
    return in_comment, last in RESULTS


def _skip_game(source: _Source, error: _GameError) -> None:
    """Read past the rest of a bad game: up to the next tag line that follows
    a blank line or a line ending with a result token."""
    if error.at_end:
        return
    in_comment, boundary = _scan(error.rest, False)
    boundary = boundary or (error.boundary and not error.rest.strip())
    while True:
        item = source.readline()
        if item is None:
            return
        _, text = item
        if not in_comment:
            if not text.strip():
                boundary = True
                continue
            if text.startswith("%"):
                continue
            if boundary and text.lstrip().startswith("["):
                source.unread(item)
                return
        in_comment, boundary = _scan(text, in_comment)


def _check_on_error(on_error: str) -> None:
    if on_error not in ("raise", "skip", "keep"):
        raise fairyforge.InvalidOptionError(
            f"on_error must be 'raise', 'skip' or 'keep', not {on_error!r}"
        )


def _next_game(source: _Source, on_error: str, errors: list[PgnError] | None) -> Game | None:
    while True:
        try:
            return _parse_game(source)
        except _GameError as e:
            error = PgnError(e.reason, game=source.games, line=e.line, token=e.token)
            _skip_game(source, e)
            if on_error == "raise":
                raise error from e.__cause__
            if errors is not None:
                errors.append(error)
            if on_error == "keep" and source.current is not None:
                LOGGER.warning("kept up to the error: %s", error)
                source.current.errors.append(error)
                return source.current
            LOGGER.warning("skipped %s", error)


@overload
def read_game(
    handle: object,
    *,
    on_error: str = "raise",
    errors: list[PgnError] | None = None,
    variants: Iterable[Definition] = (),
) -> Game | None: ...
@overload
def read_game(
    handle: object,
    *,
    Visitor: Callable[[], BaseVisitor[T]],
    on_error: str = "raise",
    errors: list[PgnError] | None = None,
    variants: Iterable[Definition] = (),
) -> T | None: ...
def read_game(
    handle: object,
    *,
    Visitor: Callable[[], BaseVisitor[T]] | None = None,
    on_error: str = "raise",
    errors: list[PgnError] | None = None,
    variants: Iterable[Definition] = (),
) -> Game | T | None:
    """Read the next game from a text handle; None at the end of the file.
    With ``Visitor`` (a :class:`BaseVisitor` class, as python-chess's
    ``Visitor=``), the game is walked by a new one and its ``result()`` is
    returned instead of the game.

    Reads line by line, no further than the end of the game (one line beyond
    it when the game has no result token and the next game follows at once,
    which the next call reads first). Game indices and line numbers in errors
    continue across calls on the same handle, counted from where the first
    call started. ``on_error``: ``"raise"`` (:class:`PgnError`, after reading
    past the bad game), ``"skip"`` (skip bad games, append their errors to
    ``errors`` when given, and return the next good game) or ``"keep"``
    (python-chess's way: return the bad game with the moves before the
    error, the error in ``game.errors`` and in ``errors``). ``variants``:
    definitions (paths or dicts, docs/VARIANTS.md) to load first, so that
    ``[Variant]`` tags can name them."""
    _check_on_error(on_error)
    _load_definitions(variants)
    source = _source_for(handle)
    try:
        game = _next_game(source, on_error, errors)
    finally:
        _remember(source)
    if game is None or Visitor is None:
        return game
    return game.accept(Visitor())


def read_headers(handle: object) -> Headers | None:
    """The tags of the next game of a text handle, its moves skipped
    unread (python-chess's ``read_headers``); None at the end of the file.
    Raises :class:`PgnError` for a malformed tag."""
    source = _source_for(handle)
    try:
        game = Game()
        try:
            tags = _read_tags(source, game)
        except _GameError as e:
            _skip_game(source, e)
            raise PgnError(e.reason, game=source.games, line=e.line, token=e.token) from None
        if tags is None:
            return None
        _skip_game(source, _GameError("", tags[1], None, boundary=True))
        return game.headers
    finally:
        _remember(source)


def iter_games(
    source: str | os.PathLike[str] | object,
    *,
    on_error: str = "raise",
    errors: list[PgnError] | None = None,
    variants: Iterable[Definition] = (),
) -> Iterator[Game]:
    """Generator over the games of a text handle or a file path (opened as
    UTF-8 at the first ``next()`` and closed at the end), reading one game at a
    time. ``on_error`` and ``errors`` as in :func:`read_game`: with ``"skip"``,
    bad games are left out and their :class:`PgnError` appended to
    ``errors``; with ``"keep"`` they are given up to the error, with it in
    ``game.errors``; with ``"raise"`` the first bad game ends the iteration
    with its error. ``variants`` as in :func:`read_game`."""
    _check_on_error(on_error)
    _load_definitions(variants)
    if isinstance(source, (str, os.PathLike)):
        return _iter_path(source, on_error, errors)
    return _iter_handle(source, on_error, errors)


def _iter_path(
    path: str | os.PathLike[str], on_error: str, errors: list[PgnError] | None
) -> Iterator[Game]:
    with open(path, encoding="utf-8") as handle:
        yield from _iter_handle(handle, on_error, errors)


def _iter_handle(handle, on_error: str, errors: list[PgnError] | None) -> Iterator[Game]:
    source = _source_for(handle)
    while True:
        try:
            game = _next_game(source, on_error, errors)
        finally:
            _remember(source)
        if game is None:
            return
        yield game
