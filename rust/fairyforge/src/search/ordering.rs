//! Move ordering for the search: the scored move buffer shared by every
//! node of a thread, the sink that scores moves as the generator emits them
//! (TT move, captures and promotions by MVV-LVA, killers, the histories), and
//! selection of the best remaining move.

use crate::bitboard::BitSet;
use crate::board::movegen::Sink;
use crate::board::position::{Position, EMPTY};
use crate::moves::{Move, Special};
use crate::search::eval::Evaluator;
use crate::search::history::Histories;
use crate::search::see::{evolution_gain, see_ge};

/// Ordering score of the TT move.
pub(crate) const TT_MOVE_SCORE: i32 = 1 << 30;
/// Base score of captures and promotions.
const NOISY_SCORE: i32 = 1 << 26;
/// Score of the second killer (the first scores one more).
const KILLER_SCORE: i32 = 1 << 24;
/// Offset of captures that lose material in the exchange: after every
/// quiet move.
const BAD_CAPTURE_SCORE: i32 = -(1 << 21);

/// The scored moves of every node on a thread's path, one slice per node
/// (a node appends its moves and truncates back to where it started).
pub(crate) struct MoveBuf {
    entries: Vec<(Move, i32)>,
}

impl MoveBuf {
    /// An empty buffer with room for typical paths.
    pub(crate) fn new() -> MoveBuf {
        MoveBuf { entries: Vec::with_capacity(1 << 14) }
    }

    /// Number of moves held.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Append a move with its score.
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move, score: i32) {
        self.entries.push((m, score));
    }

    /// Drop the moves from `len` on.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
    }

    /// The move at `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Move {
        self.entries[i].0
    }

    /// The moves from `start` on, with their scores.
    pub(crate) fn entries(&self, start: usize) -> impl Iterator<Item = (Move, i32)> + '_ {
        self.entries[start..].iter().copied()
    }

    /// Give `m`, when it is among the moves from `start` on, the TT move's
    /// score.
    pub(crate) fn promote(&mut self, start: usize, m: Move) {
        if let Some(e) = self.entries[start..].iter_mut().find(|e| e.0 == m) {
            e.1 = TT_MOVE_SCORE;
        }
    }

    /// Bring the best-scored move of `i..end` to `i` (the first of equals)
    /// and return it.
    #[inline(always)]
    pub(crate) fn pick(&mut self, i: usize, end: usize) -> Move {
        // The best score first (a reduction without a dependency on where
        // it is, which vectorises), then its first position.
        let rest = &self.entries[i..end];
        let score = rest.iter().fold(i32::MIN, |s, e| s.max(e.1));
        let best = rest.iter().position(|e| e.1 == score).unwrap_or(0);
        self.entries.swap(i, i + best);
        self.entries[i].0
    }
}

/// MVV-LVA ordering score of a capture or promotion.
#[inline(always)]
pub(crate) fn mvv_lva<B: BitSet>(e: &Evaluator<B>, pos: &Position<B>, m: Move) -> i32 {
    // Read from the mailbox: a move's target holds an enemy piece or
    // nothing, and its origin the mover.
    let sq = if m.special() == Special::EnPassant { pos.ep_victim as usize } else { m.to() };
    let victim = if pos.board[sq] == EMPTY { 0 } else { e.code_value(pos.board[sq]) };
    let mover = e.code_value(pos.board[m.from()]);
    NOISY_SCORE + 16 * victim + m.promotion().map_or(0, |k| e.value(k)) - mover / 16
}

/// A move [`Sink`] that appends the legal moves with their ordering scores
/// straight to the search's buffer: the TT move first (or left out when
/// already searched), captures and promotions by MVV-LVA, then killers, then
/// quiet moves by their histories ([`Histories::score`]).
pub(crate) struct Scorer<'a, B: BitSet> {
    buf: &'a mut MoveBuf,
    pos: &'a Position<B>,
    eval: &'a Evaluator<B>,
    history: &'a Histories,
    /// Piece-targets of the moves one and two plies before.
    prev: [u32; 2],
    killers: [Move; 2],
    tt_move: Move,
    tt_searched: bool,
    /// No ordering beyond captures first (plain alpha-beta).
    plain: bool,
    /// The opponent's pieces.
    theirs: B,
}

impl<'a, B: BitSet> Scorer<'a, B> {
    /// A scorer appending to `buf` (`prev`: the piece-targets of the moves
    /// one and two plies before, for the continuation histories;
    /// `tt_searched`: leave the TT move out).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn new(
        buf: &'a mut MoveBuf,
        pos: &'a Position<B>,
        eval: &'a Evaluator<B>,
        history: &'a Histories,
        prev: [u32; 2],
        killers: [Move; 2],
        tt_move: Move,
        tt_searched: bool,
        plain: bool,
    ) -> Scorer<'a, B> {
        let theirs = pos.side(pos.turn().flip());
        Scorer { buf, pos, eval, history, prev, killers, tt_move, tt_searched, plain, theirs }
    }

    /// The score of a quiet move.
    #[inline(always)]
    fn quiet(&self, m: Move) -> i32 {
        if self.plain {
            0
        } else if m == self.killers[0] {
            KILLER_SCORE + 1
        } else if m == self.killers[1] {
            KILLER_SCORE
        } else {
            let pt = self.history.piece_to(self.pos.board[m.from()], m.to());
            self.history.score(self.pos.turn(), m.from(), m.to(), pt, self.prev)
        }
    }

    /// The score of a capture or promotion: by MVV-LVA, after the quiet
    /// moves when it loses material in the exchange (net of what the
    /// capturer gains by evolving).
    #[inline(always)]
    fn noisy(&self, m: Move) -> i32 {
        let score = mvv_lva(self.eval, self.pos, m);
        if self.plain || m.promotion().is_some() || m == self.tt_move {
            return score;
        }
        if see_ge(self.pos, m, self.eval, -evolution_gain(self.pos, m, self.eval)) {
            score
        } else {
            score - NOISY_SCORE + BAD_CAPTURE_SCORE
        }
    }

    /// Append `m` with `score`, or as the TT move.
    #[inline(always)]
    fn add(&mut self, m: Move, score: i32) {
        if m != self.tt_move {
            self.buf.push(m, score);
        } else if !self.tt_searched {
            self.buf.push(m, TT_MOVE_SCORE);
        }
    }
}

impl<B: BitSet> Sink<B> for Scorer<'_, B> {
    const BULK: bool = false;
    fn add(&mut self, _: usize) {
        unreachable!("the scorer keeps moves")
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        let score = if self.pos.is_capture(m) || m.promotion().is_some() { self.noisy(m) } else { self.quiet(m) };
        Scorer::add(self, m, score);
    }
    #[inline(always)]
    fn push_set(&mut self, from: usize, set: B) {
        for to in set.squares() {
            let m = Move::new(from, to, None, Special::Normal);
            let score = if self.theirs.has(to) { self.noisy(m) } else { self.quiet(m) };
            Scorer::add(self, m, score);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_takes_the_best_first_of_equals() {
        let mut buf = MoveBuf::new();
        for (i, s) in [3, 9, 1, 9, 4].into_iter().enumerate() {
            buf.push(Move(i as u32 + 1), s);
        }
        let order: Vec<u32> = (0..5).map(|i| buf.pick(i, 5).0).collect();
        assert_eq!(order, vec![2, 4, 5, 1, 3]);
    }
}
