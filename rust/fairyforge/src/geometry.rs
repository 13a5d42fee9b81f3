//! Board geometry: square numbering, directions, and the per-size tables
//! (rays, single steps, between/line masks) that sliding attacks use.
//!
//! Squares are numbered rank-major with stride `files`: `sq = rank * files +
//! file`, so `a1 = 0` and on 8x8 `h8 = 63` (the usual layout).

use crate::bitboard::BitSet;
use crate::error::Error;

/// Smallest and largest supported number of files and of ranks.
pub const MIN_SIDE: u8 = 4;
/// Largest supported number of files and of ranks.
pub const MAX_SIDE: u8 = 12;
/// Largest supported number of squares.
pub const MAX_SQUARES: usize = 128;
/// Marker for "no square" in step tables.
pub const NO_SQ: u8 = 255;

/// The eight line directions as (file delta, rank delta). Indices 0..4 are
/// orthogonal, 4..8 diagonal; `dir ^ 1` is the opposite direction.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)];

/// Index of the direction (df, dr), if it is one of the eight.
pub fn dir_index(df: i8, dr: i8) -> Option<usize> {
    DIRS.iter().position(|&d| d == (df, dr))
}

/// Board size: files x ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// Number of files (columns), 4..=12.
    pub files: u8,
    /// Number of ranks (rows), 4..=12.
    pub ranks: u8,
}

impl Size {
    /// A validated board size.
    pub fn new(files: u8, ranks: u8) -> Result<Size, Error> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&files) {
            return Err(Error::option("files", format!("{files} files is outside 4..12")));
        }
        if !(MIN_SIDE..=MAX_SIDE).contains(&ranks) {
            return Err(Error::option("ranks", format!("{ranks} ranks is outside 4..12")));
        }
        if files as usize * ranks as usize > MAX_SQUARES {
            return Err(Error::option("size", format!("{files}x{ranks} has more than {MAX_SQUARES} squares")));
        }
        Ok(Size { files, ranks })
    }
    /// Number of squares.
    #[inline(always)]
    pub const fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }
    /// Square index of (file, rank).
    #[inline(always)]
    pub const fn square(self, file: u8, rank: u8) -> usize {
        rank as usize * self.files as usize + file as usize
    }
    /// File of a square (0-based).
    #[inline(always)]
    pub const fn file_of(self, sq: usize) -> u8 {
        (sq % self.files as usize) as u8
    }
    /// Rank of a square (0-based).
    #[inline(always)]
    pub const fn rank_of(self, sq: usize) -> u8 {
        (sq / self.files as usize) as u8
    }
    /// The square (df, dr) away from `sq`, if it is on the board.
    pub fn offset(self, sq: usize, df: i32, dr: i32) -> Option<usize> {
        let f = self.file_of(sq) as i32 + df;
        let r = self.rank_of(sq) as i32 + dr;
        (f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32).then(|| self.square(f as u8, r as u8))
    }
    /// Square name such as `a1` or `j10`.
    pub fn square_name(self, sq: usize) -> String {
        format!("{}{}", (b'a' + self.file_of(sq)) as char, self.rank_of(sq) + 1)
    }
    /// Parse a square name such as `e4` or `l12`.
    pub fn parse_square(self, s: &str) -> Option<usize> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_lowercase() {
            return None;
        }
        let file = b[0] - b'a';
        let digits = &s[1..];
        if digits.starts_with('0') || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        (file < self.files && rank >= 1 && rank <= self.ranks).then(|| self.square(file, rank - 1))
    }
}

/// Per-size tables shared by every variant on a board of that size.
#[derive(Debug)]
pub struct Geometry<B: BitSet> {
    /// The board size.
    pub size: Size,
    /// All squares of the board.
    pub all: B,
    /// `rays[dir][sq]`: squares from `sq` (exclusive) to the edge in `dir`.
    pub rays: [Vec<B>; 8],
    /// `step[dir][sq]`: the adjacent square in `dir`, or [`NO_SQ`].
    pub step: [Vec<u8>; 8],
    /// Squares strictly between two aligned squares (empty otherwise),
    /// indexed `a * n + b`.
    between: Vec<B>,
    /// The whole line through two aligned squares (empty otherwise).
    line: Vec<B>,
    /// The square one step beyond `b` on the line from `a` through `b`
    /// ([`NO_SQ`] when not aligned or off the board), indexed `a * n + b`.
    beyond: Vec<u8>,
    /// Masks of each file.
    pub file_mask: Vec<B>,
    /// Masks of each rank.
    pub rank_mask: Vec<B>,
    /// Slider attack tables for the 8x8 fast path (pext or magic indexed,
    /// shared by all variants).
    magic: Option<&'static crate::magic::Magics>,
}

impl<B: BitSet> Geometry<B> {
    /// Build the tables for a board size.
    pub fn new(size: Size) -> Geometry<B> {
        let n = size.squares();
        assert!(n <= B::CAPACITY);
        let mut rays: [Vec<B>; 8] = Default::default();
        let mut step: [Vec<u8>; 8] = Default::default();
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            for sq in 0..n {
                let mut ray = B::EMPTY;
                let mut k = 1;
                while let Some(t) = size.offset(sq, df as i32 * k, dr as i32 * k) {
                    ray |= B::bit(t);
                    k += 1;
                }
                rays[d].push(ray);
                step[d].push(size.offset(sq, df as i32, dr as i32).map_or(NO_SQ, |t| t as u8));
            }
        }
        let mut between = vec![B::EMPTY; n * n];
        let mut line = vec![B::EMPTY; n * n];
        let mut beyond = vec![NO_SQ; n * n];
        for a in 0..n {
            for d in 0..8 {
                for b in rays[d][a].squares() {
                    between[a * n + b] = rays[d][a] & rays[d ^ 1][b];
                    line[a * n + b] = rays[d][a] | rays[d ^ 1][a] | B::bit(a);
                    beyond[a * n + b] = step[d][b];
                }
            }
        }
        let file_mask =
            (0..size.files).map(|f| (0..size.ranks).fold(B::EMPTY, |m, r| m | B::bit(size.square(f, r)))).collect();
        let rank_mask =
            (0..size.ranks).map(|r| (0..size.files).fold(B::EMPTY, |m, f| m | B::bit(size.square(f, r)))).collect();
        let all = (0..n).fold(B::EMPTY, |m, s| m | B::bit(s));
        let mut geo = Geometry { size, all, rays, step, between, line, beyond, file_mask, rank_mask, magic: None };
        if size.files == 8 && size.ranks == 8 {
            static MAGICS: std::sync::OnceLock<crate::magic::Magics> = std::sync::OnceLock::new();
            geo.magic = Some(MAGICS.get_or_init(|| {
                crate::magic::Magics::new(|sq, occ, diag| geo.classical_slider(sq, B::from_low64(occ), diag).low64())
            }));
        }
        geo
    }

    /// Number of squares.
    #[inline(always)]
    pub fn n(&self) -> usize {
        self.all.count() as usize
    }

    /// Squares strictly between `a` and `b` when aligned, else empty.
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> B {
        self.between[a * self.size.squares() + b]
    }

    /// The square one step beyond `b` on the line from `a` through `b`, or
    /// [`NO_SQ`] (not aligned, or `b` at the edge).
    #[inline(always)]
    pub fn beyond(&self, a: usize, b: usize) -> u8 {
        self.beyond[a * self.size.squares() + b]
    }

    /// The full line through `a` and `b` when aligned, else empty.
    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> B {
        self.line[a * self.size.squares() + b]
    }

    /// Squares a rider reaches from `sq` in direction `dir` given the
    /// occupancy: the empty squares and the first occupied one.
    #[inline(always)]
    pub fn ray_attacks(&self, sq: usize, dir: usize, occ: B) -> B {
        let ray = self.rays[dir][sq];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let first = if dir_is_positive(dir) { blockers.lsb() } else { blockers.msb() };
        ray ^ self.rays[dir][first]
    }

    /// First occupied square from `sq` in direction `dir`, if any.
    #[inline(always)]
    pub fn first_blocker(&self, sq: usize, dir: usize, occ: B) -> Option<usize> {
        let blockers = self.rays[dir][sq] & occ;
        if blockers.is_empty() {
            None
        } else if dir_is_positive(dir) {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }

    fn classical_slider(&self, sq: usize, occ: B, diag: bool) -> B {
        let base = if diag { 4 } else { 0 };
        (base..base + 4).fold(B::EMPTY, |a, d| a | self.ray_attacks(sq, d, occ))
    }

    /// Rook (orthogonal rider) attacks from `sq`.
    #[inline(always)]
    pub fn rook_attacks(&self, sq: usize, occ: B) -> B {
        match &self.magic {
            Some(m) => B::from_low64(m.rook(sq, occ.low64())),
            None => self.classical_slider(sq, occ, false),
        }
    }

    /// Bishop (diagonal rider) attacks from `sq`.
    #[inline(always)]
    pub fn bishop_attacks(&self, sq: usize, occ: B) -> B {
        match &self.magic {
            Some(m) => B::from_low64(m.bishop(sq, occ.low64())),
            None => self.classical_slider(sq, occ, true),
        }
    }

    /// Squares within one king step of `sq`.
    pub fn ring(&self, sq: usize) -> B {
        (0..8).filter(|&d| self.step[d][sq] != NO_SQ).fold(B::EMPTY, |m, d| m | B::bit(self.step[d][sq] as usize))
    }
}

/// True for directions whose square index grows along the ray (north,
/// east, north-east, north-west with the rank-major numbering).
#[inline(always)]
pub const fn dir_is_positive(dir: usize) -> bool {
    matches!(dir, 0 | 2 | 4 | 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        let s = Size::new(12, 10).unwrap();
        for sq in 0..s.squares() {
            assert_eq!(s.parse_square(&s.square_name(sq)), Some(sq));
        }
        assert_eq!(s.parse_square("m1"), None);
        assert_eq!(s.parse_square("a11"), None);
        assert_eq!(s.parse_square("a0"), None);
        assert_eq!(s.parse_square("a01"), None);
    }

    #[test]
    fn magic_matches_classical() {
        let g: Geometry<u64> = Geometry::new(Size::new(8, 8).unwrap());
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            for sq in 0..64 {
                assert_eq!(g.rook_attacks(sq, occ), g.classical_slider(sq, occ, false));
                assert_eq!(g.bishop_attacks(sq, occ), g.classical_slider(sq, occ, true));
            }
        }
    }

    #[test]
    fn between_and_line() {
        let s = Size::new(8, 8).unwrap();
        let g: Geometry<u64> = Geometry::new(s);
        let a1 = 0;
        let h8 = 63;
        assert_eq!(g.between(a1, h8).count(), 6);
        assert_eq!(g.line(a1, 9).count(), 8);
        assert!(g.between(a1, 10).is_empty());
        assert_eq!(dir_index(1, 1), Some(4));
        assert!((0..8).all(|d| DIRS[d ^ 1] == (-DIRS[d].0, -DIRS[d].1)));
    }
}
