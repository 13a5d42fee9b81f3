//! Castling as variant data (RULES.md §6 for FIDE chess): per side, the
//! king's start file and, for the king side and the queen side, the rook's
//! start file and the king's and the rook's destination files, all on the
//! side's back rank. Move generation, making moves, FEN and SAN read these
//! files; nothing assumes an 8-file board.

use crate::geometry::Size;
use crate::piece::{ByColor, Color};

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
    /// The king's start file.
    pub king_from: u8,
    /// The king-side and the queen-side move.
    pub moves: [CastleMove; 2],
}

impl Castling {
    /// FIDE castling: king on e, rooks on h and a; O-O ends with the king on
    /// g and the rook on f, O-O-O with the king on c and the rook on d.
    pub const FIDE: Castling = Castling {
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
