//! [`Board`]: a game in progress of any variant and board size, with its
//! move history. Boards of up to 64 squares run on `u64` bitboards, larger
//! ones on `u128`; the choice is made once, here, and hidden from callers.

use crate::bitboard::BitSet;
use crate::board::perft::Cancelled;
use crate::board::position::Position;
use crate::error::Error;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece};
use crate::rules::tables::Tables;
use crate::rules::terms::Weights;
use crate::rules::variant::Variant;
use std::sync::atomic::AtomicBool;

/// A position on either bitboard width. (The large one is kept inline, not
/// boxed: positions are copied on every move.)
#[derive(Clone, Copy)]
#[allow(clippy::large_enum_variant)]
pub enum AnyPosition {
    /// Up to 64 squares.
    Small(Position<u64>),
    /// 65 to 128 squares.
    Large(Position<u128>),
}

/// Run `$body` with `$p` bound to the inner position of an [`AnyPosition`].
macro_rules! with_pos {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::board::game::AnyPosition::Small($p) => $body,
            $crate::board::game::AnyPosition::Large($p) => $body,
        }
    };
}
pub(crate) use with_pos;

impl AnyPosition {
    /// Parse a FEN for a variant (None: the start position).
    pub fn new(variant: &Variant, fen: Option<&str>) -> Result<AnyPosition, Error> {
        let fen = fen.unwrap_or(&variant.start_fen);
        // The 8x8 fast path holds up to 16 kinds; a variant with more runs
        // on the wide words whatever its size.
        if variant.size.squares() <= 64 && variant.kinds.len() <= <u64 as BitSet>::KINDS {
            Ok(AnyPosition::Small(Position::from_fen(Tables::shared(variant), fen)?))
        } else {
            Ok(AnyPosition::Large(Position::from_fen(Tables::shared(variant), fen)?))
        }
    }
    /// Legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        with_pos!(self, p => p.legal_moves(&mut list));
        list.to_vec()
    }
    /// True when the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        with_pos!(self, p => p.has_legal_move())
    }
    /// The position after a move (assumed legal).
    pub fn after(&self, m: Move) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(p.after(m)),
            AnyPosition::Large(p) => AnyPosition::Large(p.after(m)),
        }
    }
    /// The same position under evaluation weights `w`
    /// ([`Position::with_weights`]).
    pub fn with_weights(&self, w: &Weights) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(p.with_weights(w)),
            AnyPosition::Large(p) => AnyPosition::Large(p.with_weights(w)),
        }
    }
    /// FEN text.
    pub fn fen(&self) -> String {
        with_pos!(self, p => p.fen())
    }
    /// Zobrist key.
    pub fn key(&self) -> u64 {
        with_pos!(self, p => p.key())
    }
    /// Side to move.
    pub fn turn(&self) -> Color {
        with_pos!(self, p => p.turn())
    }
    /// Piece on a square.
    pub fn piece_at(&self, sq: usize) -> Option<Piece> {
        with_pos!(self, p => p.piece_at(sq))
    }
    /// True when the side to move has a royal piece attacked.
    pub fn is_check(&self) -> bool {
        with_pos!(self, p => p.is_check())
    }
    /// True when a piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: usize, by: Color) -> bool {
        with_pos!(self, p => p.is_attacked(sq, by))
    }
    /// True when the shock rule has ended the game.
    pub fn is_shocked(&self) -> bool {
        with_pos!(self, p => p.is_shocked())
    }
    /// Coordinate text of a move.
    pub fn uci(&self, m: Move) -> String {
        with_pos!(self, p => p.uci(m))
    }
    /// Parse coordinate text into a legal move.
    pub fn parse_uci(&self, text: &str) -> Result<Move, Error> {
        with_pos!(self, p => p.parse_uci(text))
    }
    /// Single-threaded perft.
    pub fn perft(&self, depth: u32) -> u64 {
        with_pos!(self, p => p.perft(depth))
    }
    /// Multi-threaded perft, cancellable.
    pub fn perft_parallel(&self, depth: u32, threads: Option<usize>, stop: &AtomicBool) -> Result<u64, Cancelled> {
        with_pos!(self, p => p.perft_parallel(depth, threads, stop))
    }
    /// Divide: per-move counts sorted by coordinate text.
    pub fn divide(
        &self,
        depth: u32,
        threads: Option<usize>,
        stop: &AtomicBool,
    ) -> Result<Vec<(String, u64)>, Cancelled> {
        let rows = with_pos!(self, p => p.divide(depth, threads, stop))?;
        let mut named: Vec<(String, u64)> = rows.into_iter().map(|(m, n)| (self.uci(m), n)).collect();
        named.sort();
        Ok(named)
    }
    /// The variant of the position.
    pub fn variant(&self) -> &'static Variant {
        with_pos!(self, p => &p.tables.variant)
    }
    /// Board size.
    pub fn size(&self) -> crate::geometry::Size {
        with_pos!(self, p => p.tables.geo.size)
    }
    /// Halfmove clock.
    pub fn halfmove_clock(&self) -> u32 {
        with_pos!(self, p => p.halfmove_clock())
    }
    /// Fullmove number.
    pub fn fullmove_number(&self) -> u32 {
        with_pos!(self, p => p.fullmove_number())
    }
    /// Number of royal pieces of a side.
    pub fn royal_count(&self, c: Color) -> u32 {
        use crate::bitboard::BitSet;
        with_pos!(self, p => p.royals(c).count())
    }
    /// Squares of a side's royal pieces.
    pub fn royal_squares(&self, c: Color) -> Vec<usize> {
        use crate::bitboard::BitSet;
        with_pos!(self, p => p.royals(c).squares().collect())
    }
    /// Number of pieces of a side.
    pub fn piece_count(&self, c: Color) -> u32 {
        use crate::bitboard::BitSet;
        with_pos!(self, p => p.side(c).count())
    }
}

/// Divide output in the Stockfish format: `move: count` lines sorted by
/// move text, a blank line, then `Nodes searched: N`.
pub fn format_divide(rows: &[(String, u64)]) -> String {
    let mut s = String::new();
    for (m, n) in rows {
        s += &format!("{m}: {n}\n");
    }
    s += &format!("\nNodes searched: {}\n", rows.iter().map(|r| r.1).sum::<u64>());
    s
}

/// A game: the variant, the current position and the history of moves.
#[derive(Clone)]
pub struct Board {
    /// The variant being played.
    pub variant: Variant,
    /// The current position.
    pub pos: AnyPosition,
    /// Positions before each move, with the move played from them.
    pub history: Vec<(AnyPosition, Move)>,
}

impl Board {
    /// A board of a variant at a FEN (None: the start position).
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<Board, Error> {
        let pos = AnyPosition::new(&variant, fen)?;
        Ok(Board { variant, pos, history: Vec::new() })
    }
    /// Play a move that must be legal.
    pub fn push(&mut self, m: Move) -> Result<(), Error> {
        if !self.pos.legal_moves().contains(&m) {
            return Err(Error::mv(
                crate::error::ErrorKind::IllegalMove,
                &self.pos.uci(m),
                format!("not legal in {}", self.pos.fen()),
            ));
        }
        self.push_unchecked(m);
        Ok(())
    }
    /// Play a move known to be legal.
    pub fn push_unchecked(&mut self, m: Move) {
        let next = self.pos.after(m);
        self.history.push((self.pos, m));
        self.pos = next;
    }
    /// Take back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let (prev, m) = self.history.pop()?;
        self.pos = prev;
        Some(m)
    }
}
