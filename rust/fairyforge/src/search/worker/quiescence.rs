//! Quiescence: captures and promotions until the position is quiet, every
//! evasion in check, with stand-pat, SEE and delta pruning.

use super::{Best, Worker, INF, QS_RECAPTURES};
use crate::bitboard::BitSet;
use crate::board::captures::noisy_moves;
use crate::board::position::Position;
use crate::moves::Move;
use crate::search::history::NO_PIECE_TO;
use crate::search::ordering::mvv_lva;
use crate::search::prune::cuts;
use crate::search::prune::may_check;
use crate::search::see::{evolution_gain, see_ge, victim};
use crate::search::tt::score_from_tt;
use crate::types::MAX_PLY;

impl<'a, B: BitSet> Worker<'a, B> {
    /// Quiescence: captures and promotions, or every evasion in check.
    /// `qply` counts quiescence plies; from [`QS_RECAPTURES`] on, only
    /// captures on `last_to` (the previous move's square) are searched.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn qsearch(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        last_to: usize,
        in_check: bool,
    ) -> i32 {
        if let Some(s) = self.enter(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        debug_assert_eq!(in_check, pos.is_check());
        let in_check = !self.plain && in_check;
        // Where stalemate loses, standing pat needs a legal move to exist.
        if !in_check && self.stalemate_loses && !pos.has_free_leap() && !pos.has_legal_move() {
            return self.no_move_score(pos.is_check(), ply);
        }
        // Standing pat comes before the table: a node it decides never
        // waits for the table's memory.
        let stand = if in_check { -INF } else { self.evaluate(pos) };
        if !in_check && stand >= beta {
            return stand;
        }
        // The table: any stored result (quiescence stores depth 0) that
        // decides the node, else its move first.
        let use_tt = !self.plain;
        let key = pos.key();
        let mut tt_move = Move::NONE;
        let mut tt_pv = false;
        if use_tt {
            if let Some(e) = self.shared.tt.probe(key) {
                let s = score_from_tt(e.score, ply);
                if cuts(e.bound, s, alpha, beta) {
                    return s;
                }
                tt_move = e.mv;
                tt_pv = e.pv;
            }
        }
        let alpha0 = alpha;
        let start = self.buf.len();
        // Not in check: pseudo-legal captures, tested for legality only
        // when searched. In check: every legal evasion, so mate is seen.
        if !in_check {
            self.generate_noisy(pos);
            alpha = alpha.max(stand);
        } else if !self.generate(pos, ply, true, Move::NONE, false, [NO_PIECE_TO; 2]) {
            return self.no_move_score(true, ply);
        }
        let mut best = Best { score: stand, mv: Move::NONE };
        let zone = self.check_zone_of(pos);
        let end = self.buf.len();
        if tt_move != Move::NONE {
            self.buf.promote(start, tt_move);
        }
        for i in start..end {
            let m = self.buf.pick(i, end);
            if !in_check && qply >= QS_RECAPTURES && m.to() != last_to {
                continue;
            }
            if !in_check && !self.plain && m.promotion().is_none() {
                // A capture also evolves the capturer (Burden, Evolution
                // Chess): count that gain too, or equal trades whose
                // recapturer evolves look like losses and are pruned.
                let evo = evolution_gain(pos, m, self.eval);
                let gain = victim(pos, m).map_or(0, |k| self.eval.value(k)) + evo;
                if stand + gain + 200 <= alpha || !see_ge(pos, m, self.eval, -evo) {
                    continue;
                }
            }
            if !self.plain {
                self.prefetch(pos.key_after(m));
            }
            let mut child = *pos;
            child.make(m);
            if !in_check && !pos.legal_child(&child, m) {
                continue;
            }
            let check = may_check(zone, m) && child.is_check();
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1, m.to(), check);
            if self.stopped {
                self.buf.truncate(start);
                return 0;
            }
            if best.take(m, score, &mut alpha) {
                self.update_pv(ply, m);
                if score >= beta {
                    break;
                }
            }
        }
        self.buf.truncate(start);
        if use_tt {
            self.store(key, best.mv, best.score, beta, best.score > alpha0, 0, ply, tt_pv);
        }
        best.score
    }

    /// Append the pseudo-legal captures and promotions (to the best choice)
    /// of the side to move to `buf`, scored by MVV-LVA.
    pub(super) fn generate_noisy(&mut self, pos: &Position<B>) {
        let (buf, eval) = (&mut self.buf, self.eval);
        noisy_moves(pos, eval.best_promotion(pos.turn()), &mut |m| buf.push(m, mvv_lva(eval, pos, m)));
    }
}
