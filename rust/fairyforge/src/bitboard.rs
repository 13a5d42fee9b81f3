//! Square sets as machine words: `u64` for boards of up to 64 squares (the
//! 8x8 fast path) and `u128` for the larger boards (up to 128 squares).
//!
//! The engine is generic over [`BitSet`], so each width is monomorphised and
//! the 8x8 path pays nothing for the existence of large boards.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr};

/// A set of squares, one bit per square (bit `i` is square `i`).
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const EMPTY: Self;
    /// Number of squares the word can hold.
    const CAPACITY: usize;
    /// One byte per square the word can hold (a position's mailbox): sized
    /// to the width, so an 8x8 position stays small enough to copy inline.
    type Bytes: Copy + Send + Sync + Index<usize, Output = u8> + IndexMut<usize>;
    /// A [`BitSet::Bytes`] with every byte set to `fill`.
    fn bytes(fill: u8) -> Self::Bytes;
    /// Most kinds a position on this width holds (16 on the 8x8 fast path,
    /// so its positions stay small; [`crate::piece::NKINDS`] otherwise).
    const KINDS: usize;
    /// One set per kind (a position's pieces by kind).
    type ByKind: Copy + Send + Sync + Index<usize, Output = Self> + IndexMut<usize>;
    /// An empty [`BitSet::ByKind`].
    fn by_kind() -> Self::ByKind;
    /// The set holding only `sq`.
    fn bit(sq: usize) -> Self;
    /// True when no square is set.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest square in a non-empty set.
    fn lsb(self) -> usize;
    /// Highest square in a non-empty set.
    fn msb(self) -> usize;
    /// True when `sq` is in the set.
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        !(self & Self::bit(sq)).is_empty()
    }
    /// True when the set holds more than one square.
    fn more_than_one(self) -> bool;
    /// The set without its lowest square.
    fn without_lsb(self) -> Self;
    /// The low 64 bits (used by the 8x8 slider tables).
    fn low64(self) -> u64;
    /// A set from the low 64 bits.
    fn from_low64(v: u64) -> Self;
    /// Iterate over the squares, lowest first.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

macro_rules! impl_bitset {
    ($t:ty, $bits:expr, $kinds:expr) => {
        impl BitSet for $t {
            const EMPTY: Self = 0;
            const CAPACITY: usize = $bits;
            type Bytes = [u8; $bits];
            #[inline(always)]
            fn bytes(fill: u8) -> Self::Bytes {
                [fill; $bits]
            }
            const KINDS: usize = $kinds;
            type ByKind = [$t; $kinds];
            #[inline(always)]
            fn by_kind() -> Self::ByKind {
                [0; $kinds]
            }
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                ($bits - 1) - self.leading_zeros() as usize
            }
            #[inline(always)]
            fn more_than_one(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline(always)]
            fn without_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn low64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_low64(v: u64) -> Self {
                v as Self
            }
        }
    };
}

impl_bitset!(u64, 64, 16);
impl_bitset!(u128, 128, crate::piece::NKINDS);

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: BitSet> Iterator for Squares<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let sq = self.0.lsb();
            self.0 = self.0.without_lsb();
            Some(sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_counts() {
        let b: u128 = (1 << 3) | (1 << 70) | (1 << 127);
        assert_eq!(b.squares().collect::<Vec<_>>(), vec![3, 70, 127]);
        assert_eq!(b.count(), 3);
        assert_eq!(b.msb(), 127);
        assert!(b.more_than_one());
        assert!(!(1u64 << 5).more_than_one());
    }
}
