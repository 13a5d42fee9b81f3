//! Moves and move lists.

use crate::piece::Kind;

/// How a move is carried out beyond "from -> to".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// An ordinary move or capture (with optional promotion).
    Normal = 0,
    /// A pawn double step (sets the en-passant square).
    DoubleStep = 1,
    /// An en-passant capture.
    EnPassant = 2,
    /// Castling: the king's two-square move.
    Castle = 3,
}

/// A move packed in 32 bits: from (7), to (7), promotion kind + 1 (6),
/// special (2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u32);

impl Move {
    /// The null move (never legal; used as "no move").
    pub const NONE: Move = Move(0);

    /// Build a move.
    #[inline(always)]
    pub fn new(from: usize, to: usize, promo: Option<Kind>, special: Special) -> Move {
        let p = promo.map_or(0, |k| k.idx() as u32 + 1);
        Move(from as u32 | (to as u32) << 7 | p << 14 | (special as u32) << 20)
    }
    /// Origin square.
    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0 & 0x7f) as usize
    }
    /// Destination square (for castling, the king's destination).
    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0 >> 7 & 0x7f) as usize
    }
    /// Promotion choice, if any.
    #[inline(always)]
    pub fn promotion(self) -> Option<Kind> {
        let p = (self.0 >> 14 & 0x3f) as usize;
        (p != 0).then(|| Kind::from_idx(p - 1))
    }
    /// The kind of move.
    #[inline(always)]
    pub fn special(self) -> Special {
        match self.0 >> 20 & 3 {
            0 => Special::Normal,
            1 => Special::DoubleStep,
            2 => Special::EnPassant,
            _ => Special::Castle,
        }
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Move({}->{} {:?} {:?})", self.from(), self.to(), self.promotion(), self.special())
    }
}

/// Capacity of a [`MoveList`]: comfortably above the legal-move count of any
/// position on a board of at most 128 squares.
pub const MAX_MOVES: usize = 4096;

/// A fixed-capacity list of moves living on the stack.
pub struct MoveList {
    len: usize,
    moves: [std::mem::MaybeUninit<Move>; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { len: 0, moves: [std::mem::MaybeUninit::uninit(); MAX_MOVES] }
    }
    /// Append a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = std::mem::MaybeUninit::new(m);
        self.len += 1;
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Remove every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let m = Move::new(127, 100, Some(Kind::Gryphon), Special::Castle);
        assert_eq!((m.from(), m.to(), m.promotion(), m.special()), (127, 100, Some(Kind::Gryphon), Special::Castle));
        let m = Move::new(0, 5, None, Special::EnPassant);
        assert_eq!((m.from(), m.to(), m.promotion(), m.special()), (0, 5, None, Special::EnPassant));
    }
}
