//! The move statistics a search learns from its cutoffs, and an engine
//! keeps between the searches of a game: the quiet-move history by side,
//! origin and target, and two continuation histories by the piece and
//! target of the move one and two plies before and those of the quiet move,
//! and the corrections of the static evaluation by pawn structure and by
//! each side's other pieces.

use crate::bitboard::BitSet;
use crate::piece::{Color, NKINDS};
use crate::rules::tables::Tables;

/// Bound of every history score.
pub(crate) const HISTORY_MAX: i32 = 16_384;
/// Most continuation entries kept (8 MiB); larger boards with many kinds
/// go without continuation histories.
const CONT_MAX: usize = 1 << 22;
/// A ply whose move no continuation history follows (a null move, or the
/// moves before the root).
pub(crate) const NO_PIECE_TO: u32 = u32::MAX;
/// Slots of the correction table per side (a power of two).
const CORR_SLOTS: usize = 1 << 14;
/// Fractions of a centipawn a correction entry counts in.
const CORR_GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const CORR_MAX_CP: i32 = 48;
/// Weight of a search result in its correction entry, out of this.
const CORR_SCALE: i32 = 256;

/// Move a history score towards `bonus` (positive or negative), keeping it
/// within [`HISTORY_MAX`].
#[inline(always)]
pub(crate) fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// The quiet-move and continuation histories of one search thread.
#[derive(Clone)]
pub(crate) struct Histories {
    /// By side, origin and target.
    quiet: Vec<i32>,
    /// By side, plane (0: the previous ply's move, 1: the one before),
    /// that move's piece-target and the quiet move's piece-target; empty
    /// when the board is too large.
    cont: Vec<i16>,
    /// By side to move and pawn-structure slot, how far searches found the
    /// static evaluation off (in [`CORR_GRAIN`]s of a centipawn).
    corr: Vec<i32>,
    /// By side to move, the side whose other pieces are keyed, and their
    /// placement slot: the same, for the pieces that are not promoters.
    corr_pieces: Vec<i32>,
    squares: usize,
    /// Piece-targets: kinds of the variant times squares.
    stride: usize,
    /// Per piece code, the index of its kind among the variant's kinds
    /// (either colour).
    dense: [u8; 2 * NKINDS],
}

impl Histories {
    /// Empty histories for the variant of `t`.
    pub(crate) fn new<B: BitSet>(t: &Tables<B>) -> Histories {
        let (squares, kinds, dense) = Histories::shape(t);
        let stride = kinds * squares;
        let cont_len = 4 * stride * stride;
        let cont = if cont_len <= CONT_MAX { vec![0; cont_len] } else { Vec::new() };
        Histories {
            quiet: vec![0; 2 * squares * squares],
            cont,
            corr: vec![0; 2 * CORR_SLOTS],
            corr_pieces: vec![0; 4 * CORR_SLOTS],
            squares,
            stride,
            dense,
        }
    }

    /// The squares of `t`'s board, the number of kinds of its variant and
    /// the dense kind index of every piece code, which fix the tables'
    /// layout.
    fn shape<B: BitSet>(t: &Tables<B>) -> (usize, usize, [u8; 2 * NKINDS]) {
        let squares = t.geo.size.squares();
        let mut present = [false; NKINDS];
        for c in Color::BOTH {
            for k in &t.kind_list[c] {
                present[k.idx()] = true;
            }
        }
        let mut rank = [0u8; NKINDS];
        let mut kinds = 0;
        for (k, &p) in present.iter().enumerate() {
            if p {
                rank[k] = kinds as u8;
                kinds += 1;
            }
        }
        (squares, kinds, std::array::from_fn(|code| rank[code % NKINDS]))
    }

    /// The histories a search of `t`'s variant starts from: the `saved`
    /// ones with every entry halved, so that the new search's cutoffs soon
    /// outweigh the last one's, or empty ones when there are none or they
    /// are of another variant. Corrections are averages and kept as they
    /// are.
    pub(crate) fn aged<B: BitSet>(saved: Option<Histories>, t: &Tables<B>) -> Histories {
        let (squares, kinds, dense) = Histories::shape(t);
        match saved {
            Some(mut h) if (h.squares, h.stride, h.dense) == (squares, kinds * squares, dense) => {
                h.quiet.iter_mut().for_each(|v| *v /= 2);
                h.cont.iter_mut().for_each(|v| *v /= 2);
                h
            }
            _ => Histories::new(t),
        }
    }

    /// The piece-target index of a move of the piece `code` to `to`.
    #[inline(always)]
    pub(crate) fn piece_to(&self, code: u8, to: usize) -> u32 {
        (self.dense[code as usize] as usize * self.squares + to) as u32
    }

    #[inline(always)]
    fn quiet_idx(&self, us: Color, from: usize, to: usize) -> usize {
        (us.idx() * self.squares + from) * self.squares + to
    }

    /// Index of the continuation entry of plane `p` after `prev`, if any.
    #[inline(always)]
    fn cont_idx(&self, us: Color, p: usize, prev: u32, pt: u32) -> Option<usize> {
        if prev == NO_PIECE_TO || self.cont.is_empty() {
            return None;
        }
        Some(((us.idx() * 2 + p) * self.stride + prev as usize) * self.stride + pt as usize)
    }

    /// The history score of a quiet move from `from` to `to` by the side
    /// `us` (piece-target `pt`) after the moves `prev` (one and two plies
    /// before): the quiet-move history plus both continuations.
    #[inline(always)]
    pub(crate) fn score(&self, us: Color, from: usize, to: usize, pt: u32, prev: [u32; 2]) -> i32 {
        let mut s = self.quiet[self.quiet_idx(us, from, to)];
        for (p, &before) in prev.iter().enumerate() {
            if let Some(i) = self.cont_idx(us, p, before, pt) {
                s += i32::from(self.cont[i]);
            }
        }
        s
    }

    /// Move every history of the quiet move towards `bonus`.
    #[inline(always)]
    pub(crate) fn update(&mut self, us: Color, from: usize, to: usize, pt: u32, prev: [u32; 2], bonus: i32) {
        let i = self.quiet_idx(us, from, to);
        gravity(&mut self.quiet[i], bonus);
        for (p, &before) in prev.iter().enumerate() {
            if let Some(i) = self.cont_idx(us, p, before, pt) {
                let mut v = i32::from(self.cont[i]);
                gravity(&mut v, bonus);
                self.cont[i] = v as i16;
            }
        }
    }

    /// The index of `hash`'s slot in correction table number `table`.
    #[inline(always)]
    fn corr_idx(table: usize, hash: u64) -> usize {
        table * CORR_SLOTS + (hash >> (64 - CORR_SLOTS.trailing_zeros())) as usize
    }

    /// The table of the other pieces' corrections for the side to move
    /// `us` and the side `side` whose pieces are keyed.
    #[inline(always)]
    fn pieces_table(us: Color, side: usize) -> usize {
        us.idx() * 2 + side
    }

    /// The correction of the static evaluation (centipawns, the side to
    /// move's view) for the side `us` and the placement `keys`
    /// ([`crate::search::eval::Evaluator::correction_keys`]): the promoters'
    /// entry and half of each side's other pieces' entry.
    #[inline(always)]
    pub(crate) fn correction(&self, us: Color, keys: [u64; 3]) -> i32 {
        let pieces = self.corr_pieces[Histories::corr_idx(Histories::pieces_table(us, 0), keys[1])]
            + self.corr_pieces[Histories::corr_idx(Histories::pieces_table(us, 1), keys[2])];
        (self.corr[Histories::corr_idx(us.idx(), keys[0])] + pieces / 2) / CORR_GRAIN
    }

    /// Move the correction entries of `keys` by `diff`, a search's score
    /// less the corrected static evaluation, with more weight the deeper
    /// the search (`depth`).
    #[inline(always)]
    pub(crate) fn update_correction(&mut self, us: Color, keys: [u64; 3], diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let step = diff * CORR_GRAIN * w / CORR_SCALE;
        let bound = CORR_MAX_CP * CORR_GRAIN;
        let e = &mut self.corr[Histories::corr_idx(us.idx(), keys[0])];
        *e = (*e + step).clamp(-bound, bound);
        for side in 0..2 {
            let e = &mut self.corr_pieces[Histories::corr_idx(Histories::pieces_table(us, side), keys[1 + side])];
            *e = (*e + step).clamp(-bound, bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{Kind, Piece};
    use crate::rules::variant::Variant;

    #[test]
    fn a_cutoff_raises_its_move_after_the_same_moves_only() {
        let t = Tables::<u64>::new(Variant::chess());
        let mut h = Histories::new(&t);
        let knight = Piece { color: Color::White, kind: Kind::Knight }.code();
        let pawn = Piece { color: Color::Black, kind: Kind::Pawn }.code();
        let before = [h.piece_to(pawn, 36), h.piece_to(knight, 21)];
        let pt = h.piece_to(knight, 36);
        h.update(Color::White, 21, 36, pt, before, 400);
        assert_eq!(h.score(Color::White, 21, 36, pt, before), 1200);
        // Another reply: only the quiet-move history and the second plane.
        let other = [h.piece_to(pawn, 35), before[1]];
        assert_eq!(h.score(Color::White, 21, 36, pt, other), 800);
        assert_eq!(h.score(Color::White, 21, 36, pt, [NO_PIECE_TO; 2]), 400);
        assert_eq!(h.score(Color::Black, 21, 36, pt, before), 0);
        let aged = Histories::aged(Some(h), &t);
        assert_eq!(aged.score(Color::White, 21, 36, pt, before), 600);
    }

    #[test]
    fn corrections_follow_search_results_within_their_bound() {
        let t = Tables::<u64>::new(Variant::chess());
        let mut h = Histories::new(&t);
        let keys = [0xdead_beef_0000_0000, 0x1111 << 40, 0x2222 << 40];
        // Weight 16/256 at depth 15: 100 cp off moves each entry 6.25 cp;
        // the pawn entry counts whole, each side's pieces' entry half.
        h.update_correction(Color::White, keys, 100, 15);
        assert_eq!(h.correction(Color::White, keys), 12);
        assert_eq!(h.correction(Color::Black, keys), 0);
        assert_eq!(h.correction(Color::White, [keys[0] ^ 1 << 63, keys[1], keys[2]]), 6);
        assert_eq!(h.correction(Color::White, [keys[0], keys[1] ^ 1 << 63, keys[2]]), 9);
        for _ in 0..200 {
            h.update_correction(Color::White, keys, 1000, 20);
        }
        assert_eq!(h.correction(Color::White, keys), 2 * CORR_MAX_CP);
        // Searches that keep finding the corrected evaluation 30 cp high
        // bring the correction to about -30.
        for _ in 0..400 {
            let c = h.correction(Color::White, keys);
            h.update_correction(Color::White, keys, -30 - c, 20);
        }
        assert!((-31..=-29).contains(&h.correction(Color::White, keys)), "{}", h.correction(Color::White, keys));
        let kept = h.correction(Color::White, keys);
        let aged = Histories::aged(Some(h), &t);
        assert_eq!(aged.correction(Color::White, keys), kept);
    }
}
