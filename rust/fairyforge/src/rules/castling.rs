//! Castling as variant data (RULES.md §6 for FIDE chess): per side, the
//! king's start file and, for the king side and the queen side, the rook's
//! start file and the king's and the rook's destination files, all on the
//! side's back rank. Move generation, making moves, FEN and SAN read these
//! files; nothing assumes an 8-file board.

use crate::bitboard::BitSet;
use crate::geometry::{Geometry, Size};
use crate::piece::{ByColor, Color, Kind};

/// One castling move: the rook's start file and where king and rook go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastleMove {
    /// The rook's start file.
    pub rook_from: u8,
    /// The king's destination file.
    pub king_to: u8,
    /// The rook's destination file.
    pub rook_to: u8,
}

/// The castling of one side: its king's start file and its two moves,
/// king side first (index 0), queen side second (index 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// The kind that castles as the king.
    pub king: Kind,
    /// The kind that castles as the rook.
    pub rook: Kind,
    /// The king's start file.
    pub king_from: u8,
    /// The king-side and the queen-side move.
    pub moves: [CastleMove; 2],
}

impl Castling {
    /// FIDE castling: king on e, rooks on h and a; O-O ends with the king on
    /// g and the rook on f, O-O-O with the king on c and the rook on d.
    pub const FIDE: Castling = Castling {
        king: Kind::King,
        rook: Kind::Rook,
        king_from: 4,
        moves: [
            CastleMove { rook_from: 7, king_to: 6, rook_to: 5 },
            CastleMove { rook_from: 0, king_to: 2, rook_to: 3 },
        ],
    };
}

/// The right bit of `color`'s castling move `side` (0: king side, 1: queen
/// side): 1, 2, 4 and 8 for a FEN's `K`, `Q`, `k` and `q`.
pub const fn right(color: Color, side: usize) -> u8 {
    1 << (2 * color as usize + side)
}

/// The FEN letter of a right bit.
pub const fn letter(color: Color, side: usize) -> char {
    match (color, side) {
        (Color::White, 0) => 'K',
        (Color::White, _) => 'Q',
        (Color::Black, 0) => 'k',
        (Color::Black, _) => 'q',
    }
}

/// One castling move compiled for a board: its squares and the masks its
/// legality reads, so that move generation does no geometry per node.
#[derive(Clone, Copy, Debug)]
pub struct CastlePath<B> {
    /// The right bit the move needs.
    pub right: u8,
    /// The king's start square.
    pub king: usize,
    /// The king's destination square.
    pub king_to: usize,
    /// The rook's start square.
    pub rook: usize,
    /// The rook's destination square.
    pub rook_to: usize,
    /// Squares that must be empty (all between king and rook and both
    /// destinations, the king and the rook themselves excepted).
    pub empty: B,
    /// Squares the king crosses, which must not be attacked.
    pub crossed: B,
}

/// The castling moves of side `color` compiled for a board.
pub fn paths<B: BitSet>(castling: &Option<Castling>, color: Color, geo: &Geometry<B>) -> Vec<CastlePath<B>> {
    let Some(cs) = castling else { return Vec::new() };
    let size = geo.size;
    let rank = back_rank(color, size.ranks);
    let king = size.square(cs.king_from, rank);
    cs.moves
        .iter()
        .enumerate()
        .map(|(side, m)| {
            let (rook, king_to, rook_to) =
                (size.square(m.rook_from, rank), size.square(m.king_to, rank), size.square(m.rook_to, rank));
            let path = geo.between(king, rook) | geo.between(king, king_to) | B::bit(king_to) | B::bit(rook_to);
            CastlePath {
                right: right(color, side),
                king,
                king_to,
                rook,
                rook_to,
                empty: path & !B::bit(king) & !B::bit(rook),
                crossed: geo.between(king, king_to),
            }
        })
        .collect()
}

/// The rank a side castles on: its back rank.
pub const fn back_rank(color: Color, ranks: u8) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => ranks - 1,
    }
}

/// The castling rights kept when a move starts or ends on `sq`: a king's
/// start square clears both of its side's rights, a rook's start square
/// the right of its move.
pub fn keep_mask(castling: &ByColor<Option<Castling>>, size: Size, sq: usize) -> u8 {
    let mut keep = 0xff;
    for c in Color::BOTH {
        let Some(cs) = castling[c] else { continue };
        let rank = back_rank(c, size.ranks);
        if sq == size.square(cs.king_from, rank) {
            keep &= !(right(c, 0) | right(c, 1));
        }
        for (side, m) in cs.moves.iter().enumerate() {
            if sq == size.square(m.rook_from, rank) {
                keep &= !right(c, side);
            }
        }
    }
    keep
}
