//! One search thread: iterative deepening with aspiration windows, the
//! root search and the principal-variation negamax (quiescence in
//! [`quiescence`]).

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::Move;
use crate::piece::Color;
use crate::search::eval::{Evaluator, PassedCache, EVAL_LIMIT};
use crate::search::eval_cache::EvalCache;
use crate::search::history::{Histories, HISTORY_MAX, NO_PIECE_TO};
use crate::search::ordering::{MoveBuf, Scorer, TT_MOVE_SCORE};
use crate::search::prune::{check_zones, cuts, lmr_table, may_check, null_move};
use crate::search::see::{evolution_gain, see_ge};
use crate::search::shared::{nps, Shared};
use crate::search::tt::{score_from_tt, score_to_tt, Bound};
use crate::search::{Info, Score, DEFAULT_DEPTH};
use crate::types::{MATE, MATE_BOUND, MAX_PLY};
use std::sync::atomic::Ordering;

mod quiescence;

pub(super) const INF: i32 = MATE + 1;
const DRAW: i32 = 0;
/// The static evaluation of a node in check (none is computed there).
const NO_EVAL: i32 = -INF;
/// Quiescence plies after which only recaptures are searched (this bounds
/// the capture trees of crowded boards such as Burden's and Evolution
/// Chess's, where every capture also evolves the capturer).
const QS_RECAPTURES: u32 = 4;

/// One line of a completed iteration.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
    pub(super) depth: u32,
    pub(super) seldepth: u32,
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Score in the current iteration (-INF: not better than the best).
    score: i32,
    /// Score in the last completed iteration.
    prev_score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

/// The best score and move of a node so far.
struct Best {
    score: i32,
    mv: Move,
}

impl Best {
    /// Take a searched move's score; true when it raises `alpha`, which
    /// then becomes the score (and the move the node's best).
    #[inline(always)]
    fn take(&mut self, m: Move, score: i32, alpha: &mut i32) -> bool {
        if score <= self.score {
            return false;
        }
        self.score = score;
        if score <= *alpha {
            return false;
        }
        *alpha = score;
        self.mv = m;
        true
    }
}

const PV_STRIDE: usize = MAX_PLY + 2;

/// One search thread.
pub(super) struct Worker<'a, B: BitSet> {
    id: usize,
    shared: &'a Shared<'a>,
    eval: &'a Evaluator<B>,
    plain: bool,
    /// Stalemate loses (Burden): quiescence must look for it.
    stalemate_loses: bool,
    /// Positions of the game and of the current path, the current last.
    keys: Vec<u64>,
    /// Repetitions are not looked for below this index (after a null move).
    rep_floor: usize,
    /// Scored moves of every node on the path, one slice per node.
    buf: MoveBuf,
    /// This thread's cache of the evaluation's passed-promoter term.
    passed: PassedCache<B>,
    /// This thread's static evaluations by position key.
    evals_seen: EvalCache,
    killers: Vec<[Move; 2]>,
    /// Per ply, the move a singular-extension search leaves out
    /// ([`Move::NONE`]: none).
    excluded: Vec<Move>,
    /// Quiet-move and continuation histories (carried over from the
    /// engine's last search, aged: [`Histories::aged`]).
    history: Histories,
    /// Per ply, the piece-target of the move made there ([`NO_PIECE_TO`]
    /// for a null move), which the continuation histories follow.
    played: Vec<u32>,
    /// Per ply, the static evaluation ([`NO_EVAL`] in check), which tells
    /// whether the side to move is improving on its last turn.
    evals: Vec<i32>,
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    stopped: bool,
    root: Vec<RootMove>,
    /// Late-move reductions by depth and move count ([`lmr_table`]).
    lmr: &'static [i32],
    /// Per colour and royal square, the squares a move of that colour must
    /// start or end on to give check to a royal there.
    check_zone: Vec<B>,
}

impl<'a, B: BitSet> Worker<'a, B> {
    /// A thread of the search numbered `id` (0: the main thread), starting
    /// from the game's position keys `keys` and the `history` learnt so
    /// far and the evaluation cache `evals`.
    pub(super) fn new(
        id: usize,
        shared: &'a Shared<'a>,
        eval: &'a Evaluator<B>,
        keys: &[u64],
        history: Histories,
        evals: EvalCache,
    ) -> Worker<'a, B> {
        Worker {
            id,
            shared,
            eval,
            plain: shared.limits.plain,
            stalemate_loses: eval.tables().variant.stalemate_loses(),
            keys: keys.to_vec(),
            rep_floor: 0,
            buf: MoveBuf::new(),
            passed: PassedCache::new(),
            evals_seen: evals,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            excluded: vec![Move::NONE; MAX_PLY + 2],
            history,
            played: vec![NO_PIECE_TO; MAX_PLY + 2],
            evals: vec![NO_EVAL; MAX_PLY + 2],
            pv: vec![Move::NONE; PV_STRIDE * PV_STRIDE],
            pv_len: vec![0; PV_STRIDE],
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            stopped: false,
            root: Vec::new(),
            lmr: lmr_table(),
            check_zone: check_zones(eval.tables()),
        }
    }

    /// The histories learnt and the evaluations cached, for the engine to
    /// keep.
    pub(super) fn into_memory(self) -> (Histories, EvalCache) {
        (self.history, self.evals_seen)
    }

    /// Fill the root move list (ordered by MVV-LVA); returns its length.
    pub(super) fn root_moves(&mut self, pos: &Position<B>) -> usize {
        let start = self.buf.len();
        self.generate(pos, 0, pos.is_check(), Move::NONE, false, [NO_PIECE_TO; 2]);
        let mut moves: Vec<(Move, i32)> = self.buf.entries(start).collect();
        self.buf.truncate(start);
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        self.root = moves
            .into_iter()
            .map(|(mv, _)| RootMove { mv, score: -INF, prev_score: -INF, pv: vec![mv], seldepth: 0 })
            .collect();
        self.root.len()
    }

    /// Common entry of every node: reset the PV, count the node, and give
    /// the score to return at once when stopped (0) or after a shock.
    #[inline(always)]
    fn enter(&mut self, pos: &Position<B>, ply: usize) -> Option<i32> {
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        shock_score(pos, ply)
    }

    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.shared.must_stop() {
                self.stopped = true;
            }
        }
    }

    fn node_total(&self) -> u64 {
        self.shared
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| if i == self.id { self.nodes } else { n.load(Ordering::Relaxed) })
            .sum()
    }

    /// Iterative deepening; the main thread (with `info`) reports and
    /// returns the lines of the last completed iteration.
    pub(super) fn iterate(&mut self, pos: &Position<B>, mut info: Option<&mut dyn FnMut(&Info)>) -> Vec<Line> {
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(DEFAULT_DEPTH).clamp(1, (MAX_PLY / 2) as u32) as i32;
        let multipv = limits.multipv.clamp(1, self.root.len());
        let mut completed: Vec<Line> = Vec::new();
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            // Lazy SMP: odd helpers search one ply deeper than the others.
            let d = if self.id % 2 == 1 { (depth + 1).min(max_depth) } else { depth };
            self.root_depth = d;
            let mut lines = Vec::with_capacity(multipv);
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root[pv_idx].prev_score;
                let mut delta = 25;
                let (mut alpha, mut beta) = if d >= 5 && !self.plain && prev.abs() < MATE_BOUND {
                    (prev - delta, prev + delta)
                } else {
                    (-INF, INF)
                };
                loop {
                    let s = self.root_search(pos, alpha, beta, d, pv_idx);
                    if self.stopped {
                        break;
                    }
                    self.root[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if s <= alpha && alpha > -INF {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta && beta < INF {
                        beta = (s + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                    if delta > 1000 {
                        (alpha, beta) = (-INF, INF);
                    }
                }
                if self.stopped {
                    break;
                }
                let r = &self.root[pv_idx];
                lines.push(Line { score: r.score, pv: r.pv.clone(), depth: d as u32, seldepth: r.seldepth as u32 });
            }
            if self.stopped {
                self.adopt_partial(&mut completed);
                break;
            }
            // A later line may have scored above an earlier one (the table
            // changed under it): report and order them best first.
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            self.root[..multipv].sort_by_key(|r| std::cmp::Reverse(r.score));
            for r in &mut self.root {
                r.prev_score = r.score;
            }
            completed = lines;
            self.report(&mut info, &completed);
            if self.id == 0 {
                self.shared.nodes[0].store(self.nodes, Ordering::Relaxed);
                // A proven mate needs no deeper search (unless a depth was asked).
                let best = completed[0].score;
                if limits.depth.is_none() && best.abs() >= MATE_BOUND && MATE - best.abs() <= d {
                    break;
                }
                // A clock's optimum time is spent: the next iteration would
                // likely not finish before the hard limit.
                if limits.soft_ms.is_some_and(|t| self.shared.elapsed_ms() >= t) {
                    break;
                }
            }
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if completed.is_empty() {
            // Stopped inside the first iteration: the moves searched so far
            // (best first), then the rest in order, scored by the evaluation.
            self.root.sort_by_key(|r| std::cmp::Reverse(r.score));
            let fallback = self.evaluate(pos);
            for r in &self.root[..multipv] {
                let score = if r.score > -INF { r.score } else { fallback };
                completed.push(Line { score, pv: r.pv.clone(), depth: 0, seldepth: r.seldepth as u32 });
            }
            // Reported too, so that every search (a node limit below the
            // first iteration's cost included) gives its caller a line.
            self.report(&mut info, &completed);
        }
        completed
    }

    /// Give the caller (the main thread's `info`) one report per line.
    fn report(&self, info: &mut Option<&mut dyn FnMut(&Info)>, lines: &[Line]) {
        let Some(cb) = info else { return };
        let nodes = self.node_total();
        let hashfull = self.shared.tt.hashfull();
        for (i, l) in lines.iter().enumerate() {
            cb(&Info {
                depth: l.depth,
                seldepth: l.seldepth,
                multipv: i + 1,
                score: Score::from_internal(l.score),
                nodes,
                nps: nps(nodes, self.shared.start),
                time_ms: self.shared.elapsed_ms(),
                pv: l.pv.clone(),
                hashfull,
            });
        }
    }

    /// After a stop inside an iteration: when the previous best move was
    /// searched to the new depth and another move then beat it, that move
    /// is the better choice (single PV only).
    fn adopt_partial(&self, completed: &mut [Line]) {
        let [line] = completed else { return };
        let first = &self.root[0];
        if first.score == -INF {
            return;
        }
        let better = self.root[1..].iter().filter(|r| r.score > first.score).max_by_key(|r| r.score);
        if let Some(r) = better {
            *line = Line { score: r.score, pv: r.pv.clone(), depth: line.depth, seldepth: r.seldepth as u32 };
        }
    }

    /// Search the root moves from `pv_idx` on; moves that do not beat
    /// alpha keep the score -INF so that a stable sort keeps their order.
    fn root_search(&mut self, pos: &Position<B>, mut alpha: i32, beta: i32, depth: i32, pv_idx: usize) -> i32 {
        self.tick();
        self.pv_len[0] = 0;
        self.evals[0] = if pos.is_check() || self.plain { NO_EVAL } else { self.evaluate(pos) };
        for r in &mut self.root[pv_idx..] {
            r.score = -INF;
        }
        let mut best = -INF;
        for i in pv_idx..self.root.len() {
            let m = self.root[i].mv;
            self.played[0] = self.history.piece_to(pos.board[m.from()], m.to());
            let mut child = *pos;
            child.make(m);
            self.keys.push(child.key());
            let check = child.is_check();
            let depth = depth + i32::from(self.extends_check(pos, m, check, depth, 0));
            let score = if i == pv_idx || self.plain {
                -self.negamax(&child, -beta, -alpha, depth - 1, 1, true, false, check)
            } else {
                let s = -self.negamax(&child, -alpha - 1, -alpha, depth - 1, 1, true, true, check);
                if s > alpha && s < beta {
                    -self.negamax(&child, -beta, -alpha, depth - 1, 1, true, false, check)
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                break;
            }
            if i == pv_idx || score > alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[PV_STRIDE + 1..PV_STRIDE + self.pv_len[1]]);
                let r = &mut self.root[i];
                r.score = score;
                r.pv = pv;
                r.seldepth = self.seldepth;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Record `m` followed by the child's line as the PV of `ply`.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let row = ply * PV_STRIDE;
        let child = (ply + 1) * PV_STRIDE;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[row + ply] = m;
        self.pv.copy_within(child + ply + 1..child + child_len, row + ply + 1);
        self.pv_len[ply] = child_len;
    }

    /// Score of a node without legal moves: checkmate, or stalemate
    /// (a draw, or a loss where the variant says so, §5.4).
    pub(super) fn no_move_score(&self, in_check: bool, ply: usize) -> i32 {
        if in_check || self.stalemate_loses {
            -MATE + ply as i32
        } else {
            DRAW
        }
    }

    /// True when the current position (last key) repeats an earlier one
    /// within the reversible window.
    fn is_repetition(&self, halfmove: u32) -> bool {
        let last = self.keys.len() - 1;
        let key = self.keys[last];
        let lo = self.rep_floor.max(last.saturating_sub(halfmove as usize));
        // Keys include the side to move, so only same-side positions match.
        self.keys[lo..last].iter().rev().any(|&k| k == key)
    }

    /// Main search below the root (`in_check`: the side to move is in
    /// check, as found by the parent; `cut`: a null-window node expected
    /// to fail high, where late moves are reduced more).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        null_ok: bool,
        cut: bool,
        in_check: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0, NO_SQ as usize, in_check);
        }
        if let Some(s) = self.enter(pos, ply) {
            return s;
        }
        debug_assert_eq!(in_check, pos.is_check());
        let pv_node = beta - alpha > 1;
        let halfmove = pos.halfmove_clock();
        let move_rule = pos.tables.variant.move_rule;
        if (halfmove >= move_rule && !in_check) || self.is_repetition(halfmove) || pos.is_insufficient_material() {
            return DRAW;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY {
            return if in_check { DRAW } else { self.evaluate(pos) };
        }

        let key = pos.key();
        // A singular-extension search of this node without one move: it
        // neither reads nor writes the table, whose entry is the full node's.
        let excluded = self.excluded[ply];
        let mut tt_move = Move::NONE;
        let mut hit = None;
        // The node is or was a principal-variation node: reduced less.
        let mut tt_pv = pv_node;
        if !self.plain && excluded == Move::NONE {
            if let Some(e) = self.shared.tt.probe(key) {
                tt_move = e.mv;
                let s = score_from_tt(e.score, ply);
                if !pv_node && e.depth >= depth && cuts(e.bound, s, alpha, beta) {
                    return s;
                }
                tt_pv |= e.pv;
                hit = Some((s, e));
            }
        }

        // Internal iterative reduction: without a table move a deep node is
        // likely new to the search and poorly ordered; search it a ply
        // shallower (its result then seeds the table for the next visit).
        if !self.plain && depth >= 4 && tt_move == Move::NONE && excluded == Move::NONE {
            depth -= 1;
        }

        let prune = !self.plain
            && !pv_node
            && !in_check
            && excluded == Move::NONE
            && pos.allows_null_move()
            && beta.abs() < MATE_BOUND;
        // Only the pruning rules below read the static evaluation.
        // Futility and late-move pruning of quiet moves near the horizon.
        let futile_node = !self.plain && !pv_node && !in_check && alpha.abs() < MATE_BOUND;
        let futile = futile_node && depth <= 3;
        // Futility by the depth a late quiet move would be searched to
        // after its reduction (a ply less when not improving, as late
        // moves are reduced a ply more there), up to that depth 5.
        let futile_reduced = futile_node && depth <= 8;
        let static_eval = if self.plain || in_check {
            NO_EVAL
        } else if excluded != Move::NONE {
            self.evals[ply]
        } else {
            self.evaluate(pos)
        };
        self.evals[ply] = static_eval;
        let improving = self.improving(ply);
        // The node's value for reverse futility and the null move: the
        // table's score where its bound says the static evaluation is too
        // low (a lower bound above it) or too high (an upper bound below).
        let node_eval = match hit {
            Some((s, e)) if static_eval != NO_EVAL && s.abs() < MATE_BOUND => match e.bound {
                Bound::Exact => s,
                Bound::Lower if s > static_eval => s,
                Bound::Upper if s < static_eval => s,
                _ => static_eval,
            },
            _ => static_eval,
        };
        // Reverse futility: far above beta near the horizon.
        if prune && depth <= 4 && node_eval - 100 * (depth - i32::from(improving)) >= beta {
            return node_eval;
        }
        // Null move: if passing still beats beta, a real move will.
        if prune && null_ok && depth >= 3 && node_eval >= beta {
            let r = 3 + depth / 4;
            let child = null_move(pos);
            self.played[ply] = NO_PIECE_TO;
            self.keys.push(child.key());
            let floor = std::mem::replace(&mut self.rep_floor, self.keys.len() - 1);
            let s = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, false, !cut, child.is_check());
            self.rep_floor = floor;
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        let start = self.buf.len();
        let prev = self.prev(ply);
        // A legal TT move is searched before the other moves are generated:
        // when it refutes the node, no generation is needed at all.
        let mut generated =
            !(halfmove < move_rule && tt_move != Move::NONE && pos.is_legal_in(tt_move, Some(in_check)));
        // A capture as the table's move: the quiet moves after it are less
        // likely to matter and are reduced a ply more.
        let tt_capture = !generated && pos.is_capture(tt_move);
        // Singular extension: when the table's move holds a lower bound
        // from nearly this depth, and every other move searched shallower
        // fails below that bound less a margin, the move is the only good
        // one and gets a ply more. When even the others reach beta, the
        // node is cut at once (several moves refute it). Not where
        // stalemate loses (Burden: it lost there, as did the cut-node
        // reduction below).
        let mut extend_tt = false;
        if let Some((tt_score, e)) = hit {
            if !generated
                && !self.stalemate_loses
                && depth >= 6
                && ply < 2 * self.root_depth as usize
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
            {
                let singular_beta = tt_score - 2 * depth;
                self.excluded[ply] = tt_move;
                let s = self.negamax(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, cut, in_check);
                self.excluded[ply] = Move::NONE;
                if self.stopped {
                    return 0;
                }
                if s < singular_beta {
                    extend_tt = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        if excluded != Move::NONE {
            // Every move but the excluded one, which generation leaves out
            // as it would a table move already searched.
            generated = true;
            self.generate(pos, ply, in_check, excluded, true, prev);
        } else if generated {
            if !self.generate(pos, ply, in_check, tt_move, false, prev) {
                return self.no_move_score(in_check, ply);
            }
            if halfmove >= move_rule {
                self.buf.truncate(start);
                return DRAW;
            }
        } else {
            self.buf.push(tt_move, TT_MOVE_SCORE);
        }
        let us = pos.turn();
        // Squares a checking move must start or end on (pruning and
        // reductions skip the check test for the others).
        let zone = self.check_zone_of(pos);
        // Check squares where the side's attacks are all plain (else each
        // move is tested on its own), gathered when a second move needs
        // them (the first move alone is cheaper to test made).
        let checks = std::cell::OnceCell::new();
        let checks = || checks.get_or_init(|| pos.checks()).as_ref();
        let gives_check = |m: Move| checks().map_or_else(|| pos.gives_check(m), |c| c.gives_check(pos, m));
        let few_enemies = self.stalemate_loses && pos.side(us.flip()).count() <= 4;
        let stalemate_risk = futile_reduced && few_enemies;
        // SEE pruning near the horizon: a capture that loses material in
        // the exchange, or a quiet move onto a square where the mover is
        // lost, is skipped (never in check, never a move that may check,
        // nor where a stalemate might win).
        let see_prune = !self.plain && !pv_node && !in_check && depth <= 6 && !few_enemies;
        let mut best = Best { score: -INF, mv: Move::NONE };
        let mut quiets: [Move; 64] = [Move::NONE; 64];
        let mut nquiets = 0;
        let mut i = start;
        // Once late-move pruning applies, the moves left are all quiet
        // moves to skip (or search if they check): their order no longer
        // matters.
        let mut unordered = false;
        // The next move, already brought to the front of the rest (so its
        // table entry could be prefetched during the current child search).
        let mut picked = false;
        loop {
            if i == self.buf.len() {
                if generated {
                    break;
                }
                generated = true;
                self.generate(pos, ply, in_check, tt_move, true, prev);
                if i == self.buf.len() {
                    break;
                }
            }
            let end = self.buf.len();
            let m = if unordered || picked { self.buf.get(i) } else { self.buf.pick(i, end) };
            picked = false;
            let count = i - start;
            i += 1;
            let quiet = !pos.is_capture(m) && m.promotion().is_none();
            // A quiet move is skipped when it comes late, or when even what
            // it gains by evolving leaves the static evaluation far below
            // alpha (never the first move). A move outside the check zone
            // cannot give check and is skipped without being made, unless
            // stalemate loses and the opponent has so few pieces that it
            // might have no move left; a made move is skipped unless it
            // gives check or, where stalemate loses, leaves no move.
            let late_count = if improving { 4 + 2 * depth * depth } else { 3 + depth * depth };
            let late = futile && quiet && count as i32 >= late_count && !self.is_killer(ply, m);
            let prunable = futile_reduced
                && quiet
                && count > 0
                && (late || {
                    let reduced_depth = depth - 1 - self.lmr_base(depth, count) - i32::from(!improving);
                    reduced_depth <= 5
                        && static_eval + evolution_gain(pos, m, self.eval) + 120 * (reduced_depth + 1) <= alpha
                });
            let skipped = prunable && !may_check(zone, m) && !stalemate_risk;
            // The exchange test is left out for a move skipped anyway, but
            // for the first late one: a move it prunes leaves the order of
            // the rest as it was.
            let first_late = late && generated && !unordered;
            if (!skipped || first_late)
                && see_prune
                && count > 0
                && best.score > -MATE_BOUND
                && m.promotion().is_none()
                && !may_check(zone, m)
            {
                let threshold = if quiet { -30 * depth * depth } else { -100 * depth };
                if !see_ge(pos, m, self.eval, threshold - evolution_gain(pos, m, self.eval)) {
                    continue;
                }
            }
            // Moves come best first: captures, killers, then quiet moves.
            unordered |= late && generated;
            if skipped {
                debug_assert!(!pos.after(m).is_check(), "{m:?} gives check in {}", pos.fen());
                continue;
            }
            // Where stalemate cannot lose, the check test needs no copy.
            if prunable && !self.stalemate_loses && !gives_check(m) {
                continue;
            }
            if !self.plain && !prunable {
                self.prefetch(pos.key_after(m));
            }
            let pt = self.history.piece_to(pos.board[m.from()], m.to());
            self.played[ply] = pt;
            let mut child = *pos;
            child.make(m);
            // A prunable move still here where stalemate cannot lose was
            // just found to check.
            let check = (prunable && !self.stalemate_loses)
                || may_check(zone, m)
                    && if count > 0 && checks().is_some() { gives_check(m) } else { child.is_check() };
            if prunable && !check && (!self.stalemate_loses || child.has_legal_move()) {
                continue;
            }
            let new_depth = depth - 1
                + i32::from(extend_tt && count == 0)
                + i32::from(self.extends_check(pos, m, check, depth, ply));
            if !self.plain && prunable {
                self.prefetch(child.key());
            }
            self.keys.push(child.key());
            if !self.plain && !unordered && count > 0 && i < end {
                // Fetch the next move's entry while this child is searched
                // (not after the first move, which most often refutes).
                let next = self.buf.pick(i, end);
                self.prefetch(pos.key_after(next));
                picked = true;
            }
            let score = if count == 0 || self.plain {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true, !pv_node && !cut, check)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && count >= 3 && !self.is_killer(ply, m) && !check {
                    r = self.lmr_base(depth, count);
                    if tt_pv {
                        r -= 1;
                    }
                    if cut && !self.stalemate_loses {
                        r += 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if tt_capture {
                        r += 1;
                    }
                    // Good history reduces less, bad history more (up to two plies).
                    r -= (self.history.score(us, m.from(), m.to(), pt, prev) / (HISTORY_MAX / 2)).clamp(-2, 2);
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true, true, check);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, true, !cut, check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true, false, check);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                self.buf.truncate(start);
                return 0;
            }
            if best.take(m, score, &mut alpha) {
                self.update_pv(ply, m);
                if score >= beta {
                    if quiet && !self.plain {
                        self.reward(pos, ply, m, depth, prev, &quiets[..nquiets]);
                    }
                    break;
                }
            }
            if quiet && nquiets < quiets.len() {
                quiets[nquiets] = m;
                nquiets += 1;
            }
        }
        self.buf.truncate(start);
        if excluded != Move::NONE {
            // The excluded search stores nothing (the table entry is the
            // full node's); with no move but the excluded one it fails low.
            return if best.score == -INF { alpha } else { best.score };
        }
        if !self.plain {
            self.store(key, best.mv, best.score, beta, best.mv != Move::NONE, depth, ply, tt_pv);
            // The evaluation's correction learns from a quiet node's result
            // where its bound says something: a lower bound above the
            // evaluation, an upper bound below it, or an exact score.
            let quiet_best = best.mv == Move::NONE || !pos.is_capture(best.mv) && best.mv.promotion().is_none();
            let informative = if best.score >= beta {
                best.score > static_eval
            } else {
                best.mv != Move::NONE || best.score < static_eval
            };
            if static_eval != NO_EVAL && quiet_best && informative && best.score.abs() < MATE_BOUND {
                let keys = self.eval.correction_keys(pos);
                self.history.update_correction(pos.turn(), keys, best.score - static_eval, depth);
            }
        }
        best.score
    }

    /// Whether a move that gives `check` at `ply` is searched one ply
    /// deeper: only where the child is a full node (`depth` at least 2),
    /// within twice the root depth, and when the checking piece is not
    /// simply lost (a check that drops material is no forcing line).
    #[inline]
    fn extends_check(&self, pos: &Position<B>, m: Move, check: bool, depth: i32, ply: usize) -> bool {
        check && !self.plain && depth >= 2 && ply + 1 < 2 * self.root_depth as usize && see_ge(pos, m, self.eval, 0)
    }

    /// The squares a move of the side to move must start or end on to give
    /// check ([`Worker::check_zone`] of every enemy royal).
    #[inline(always)]
    fn check_zone_of(&self, pos: &Position<B>) -> B {
        let n = self.eval.tables().geo.size.squares();
        let zones = &self.check_zone[pos.turn().idx() * n..];
        pos.royals(pos.turn().flip()).squares().fold(B::EMPTY, |z, r| z | zones[r])
    }

    /// Store a node's result: a lower bound when it reached beta, exact when
    /// it `raised` alpha, else an upper bound.
    #[allow(clippy::too_many_arguments)]
    fn store(&self, key: u64, m: Move, best: i32, beta: i32, raised: bool, depth: i32, ply: usize, pv: bool) {
        let bound = if best >= beta {
            Bound::Lower
        } else if raised {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, m, score_to_tt(best, ply), depth, bound, pv);
    }

    /// Generate the legal moves (`in_check`: whether the side to move is in
    /// check) and append them with ordering scores to `buf` (without the TT
    /// move when `tt_searched`); returns false when there is no legal move
    /// at all. `prev`: the piece-targets of the moves one and two plies
    /// before, for the continuation histories.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn generate(
        &mut self,
        pos: &Position<B>,
        ply: usize,
        in_check: bool,
        tt_move: Move,
        tt_searched: bool,
        prev: [u32; 2],
    ) -> bool {
        let start = self.buf.len();
        let mut sink = Scorer::new(
            &mut self.buf,
            pos,
            self.eval,
            &self.history,
            prev,
            self.killers[ply],
            tt_move,
            tt_searched,
            self.plain,
        );
        pos.legal_moves_to(&mut sink, in_check);
        self.buf.len() > start || (tt_searched && tt_move != Move::NONE)
    }

    /// The static evaluation of `pos`, with this thread's cache, corrected
    /// by what searches found of its pawn structure (not in a plain search).
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position<B>) -> i32 {
        let key = pos.key();
        let e = match self.evals_seen.get(key) {
            Some(e) => e,
            None => {
                let e = self.eval.evaluate_cached(pos, &mut self.passed);
                self.evals_seen.put(key, e);
                e
            }
        };
        if self.plain {
            e
        } else {
            (e + self.correction(pos)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        }
    }

    /// The correction [`Worker::evaluate`] adds to the evaluation of `pos`.
    #[inline(always)]
    fn correction(&self, pos: &Position<B>) -> i32 {
        self.history.correction(pos.turn(), self.eval.correction_keys(pos))
    }

    /// Start loading the table's and the evaluation cache's entries of a
    /// child's `key` before the child is searched.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.shared.tt.prefetch(key);
        self.evals_seen.prefetch(key);
    }

    /// True when the static evaluation at `ply` is above the side's own
    /// two plies before (four when it was in check then; true when it was
    /// in check both times), false in check.
    #[inline(always)]
    fn improving(&self, ply: usize) -> bool {
        let now = self.evals[ply];
        if now == NO_EVAL {
            return false;
        }
        match (ply.checked_sub(2).map(|p| self.evals[p]), ply.checked_sub(4).map(|p| self.evals[p])) {
            (Some(e), _) if e != NO_EVAL => now > e,
            (Some(_), Some(e)) if e != NO_EVAL => now > e,
            _ => true,
        }
    }

    /// The piece-targets of the moves one and two plies before `ply`.
    #[inline(always)]
    fn prev(&self, ply: usize) -> [u32; 2] {
        let at = |back: usize| if ply >= back { self.played[ply - back] } else { NO_PIECE_TO };
        [at(1), at(2)]
    }

    /// The late-move reduction table's entry for a move at `depth`, the
    /// `count`-th tried (0: first).
    #[inline(always)]
    fn lmr_base(&self, depth: i32, count: usize) -> i32 {
        self.lmr[(depth as usize).min(63) * 64 + count.min(63)]
    }

    #[inline(always)]
    fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply][0] == m || self.killers[ply][1] == m
    }

    /// A quiet move caused a cutoff: killer, history bonus, and a malus for
    /// the quiet moves tried before it.
    fn reward(&mut self, pos: &Position<B>, ply: usize, m: Move, depth: i32, prev: [u32; 2], tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * (16 * depth + 64) - 64).min(2000);
        let us = pos.turn();
        for (q, b) in std::iter::once((m, bonus)).chain(tried.iter().map(|&q| (q, -bonus))) {
            let pt = self.history.piece_to(pos.board[q.from()], q.to());
            self.history.update(us, q.from(), q.to(), pt, prev, b);
        }
    }
}

/// Score of a shocked position (§4.3): the Network has lost.
#[inline(always)]
pub(super) fn shock_score<B: BitSet>(pos: &Position<B>, ply: usize) -> Option<i32> {
    if !pos.is_shocked() {
        return None;
    }
    let loser = pos.shock_side().unwrap_or(Color::Black);
    Some(if pos.turn() == loser { -MATE + ply as i32 } else { MATE - ply as i32 })
}
