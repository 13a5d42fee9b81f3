//! Helpers shared by the integration tests.
#![allow(dead_code)]

use fairyforge::{AnyPosition, Color, Kind, Piece};

/// Owned, sorted copies of square or move names.
pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The position after a coordinate move that must be legal.
pub fn play(p: &AnyPosition, uci: &str) -> AnyPosition {
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", p.fen()));
    p.after(m)
}

/// A White piece of `kind`, as `piece_at` returns it.
pub fn white(kind: Kind) -> Option<Piece> {
    Some(Piece { color: Color::White, kind })
}

/// A Black piece of `kind`, as `piece_at` returns it.
pub fn black(kind: Kind) -> Option<Piece> {
    Some(Piece { color: Color::Black, kind })
}

/// A small seeded generator for random play.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
