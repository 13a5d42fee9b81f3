//! Search: iterative deepening over a principal-variation (PVS) negamax
//! with aspiration windows, a shared transposition table ([`crate::search::tt`]),
//! quiescence, check extensions, move ordering (TT move, MVV-LVA, killers,
//! history), null-move pruning, reverse futility, futility and late-move
//! pruning, late-move reductions, MultiPV and Lazy SMP.
//!
//! # Game ends inside the tree
//!
//! Scores are from the side to move. A node where the game is over scores
//! a win or loss at its ply (`MATE - ply`), so shorter wins are preferred:
//! no legal move and in check is a loss (checkmate, including several
//! Burden kings attacked at once); no legal move and not in check is a draw
//! or a loss per the variant's stalemate rule (Burden stalemate and
//! extinction lose, RULES.md §5.4); a shocked position (§4.3) is a loss for
//! the Network whoever is to move. Repetition of any earlier position of
//! the path or of the game history (within the 50-move window), the 50-move
//! rule (100 plies, unless the side to move is checkmated) and, in FIDE
//! chess, insufficient material are draws.
//!
//! # Pruning per variant
//!
//! * **Null-move pruning** and **reverse futility pruning** assume that
//!   passing is never better than the best move (no zugzwang). They are
//!   *off* in variants where stalemate loses (Burden: positions are
//!   zugzwang-prone, and having to move can lose outright), when the side
//!   to move is in check, and when it has fewer than two pieces besides
//!   royals and pawn-like promoters (three for the side subject to the
//!   shock rule, whose moves are restricted by it). They are on otherwise
//!   (FIDE, Shocking, Evolution Chess middlegames).
//! * **Late-move reductions** reduce late quiet moves that neither give nor
//!   escape check and re-search at full depth when they beat alpha, so they
//!   are on in every variant.
//! * **Futility and late-move pruning** skip quiet moves that do not give
//!   check (or stalemate, where that wins) in the last three plies of
//!   non-PV nodes not in check: moves after
//!   the first `4 + 2 * depth^2` (killers excepted), and moves whose static
//!   evaluation plus what the mover gains by evolving plus `120 * depth` is
//!   still at most alpha. They never skip the first move, so a node with a
//!   legal move is never scored as stalemate, and they do not assume that
//!   passing is possible, so they are on in every variant, Burden included
//!   (where most of a small search is quiescence: at 5000 nodes Burden
//!   searches reach depth 2 to 4 and 98% of the nodes are quiescence nodes,
//!   so pruning frontier moves is what buys depth).
//! * **Check extensions** add a ply at a node in check, up to twice the
//!   iteration depth.
//! * **Quiescence** searches captures and promotions (to the most valuable
//!   choice only) with stand-pat and delta pruning; at a node in check it
//!   searches every evasion instead. Where stalemate loses, it checks that a
//!   legal move exists before standing pat (generation stops at the first
//!   piece kind with one), so that a stalemate is scored as the loss it is.
//!   Where pieces evolve as they move (Burden, Evolution Chess), the SEE and
//!   delta tests add what the capturer gains by evolving: an equal trade
//!   whose recapturer evolves (PxP, PxP=N in Burden) otherwise looks like a
//!   loss and was pruned, which made the full search weaker than plain
//!   alpha-beta in Burden at equal nodes (50% over 100 games; about 62%
//!   with the evolution gain counted, no SEE pruning at all gave 60%).
//!   Quiescence nodes probe and store the transposition table (depth 0):
//!   capture sequences transpose often on crowded boards. They stand pat
//!   before probing, so a node decided by standing pat never waits for the
//!   table's memory.
//! * **A stopped iteration** is not thrown away: when the previous best
//!   move was searched to the new depth and another root move then beat it,
//!   that move is played (with one PV line).
//!
//! [`Limits::plain`] turns all of that off for comparison matches: plain
//! full-window alpha-beta under iterative deepening, captures first by
//! MVV-LVA, no TT, killers or history, no aspiration, extensions, pruning or
//! reductions, and a quiescence search of captures and promotions only
//! (stand-pat even in check, no SEE or delta pruning; the recapture-only
//! tail is kept, since without it capture trees on crowded boards do not
//! finish even at depth 2).
//!
//! With one thread, a fixed-depth search from a fresh table is fully
//! deterministic: same best move, score and node count.
//!
//! # Memory
//!
//! A table probe is the search's largest single stall (memory latency, not
//! instructions). The child's entry is prefetched from
//! [`Position::key_after`] before the move is made, and from the second
//! move on the next move's entry is prefetched while the current child is
//! searched. Moves are scored as the generator emits them, straight into
//! one shared buffer.

pub(crate) mod eval;
pub(crate) mod ordering;
pub(crate) mod tt;

use crate::bitboard::BitSet;
use crate::board::game::AnyPosition;
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, Special};
use crate::piece::{Color, Kind};
use crate::rules::attacks::{Placement, Tables};
use crate::rules::variant::StalemateRule;
use crate::search::eval::{EvalKind, Evaluator, PassedCache};
use crate::search::ordering::{gravity, mvv_lva, MoveBuf, Scorer, HISTORY_MAX, TT_MOVE_SCORE};
use crate::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use crate::types::{MATE, MATE_BOUND, MAX_PLY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Deepest iteration when no depth limit is given.
pub const DEFAULT_DEPTH: u32 = 64;
const INF: i32 = MATE + 1;
const DRAW: i32 = 0;
/// Quiescence plies after which only recaptures are searched (this bounds
/// the capture trees of crowded boards such as Burden's and Evolution
/// Chess's, where every capture also evolves the capturer).
const QS_RECAPTURES: u32 = 4;

/// What to search and for how long. Every limit is optional; without any,
/// the search runs to [`DEFAULT_DEPTH`] unless stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every 1024 nodes).
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds (all of them are used, as UCI's
    /// `go movetime`: an iteration still running when they are up is cut
    /// short, and a better root move it found is kept).
    pub movetime_ms: Option<u64>,
    /// Start no new iteration after this many milliseconds (a clock's
    /// optimum time; `movetime_ms` stays the hard limit).
    pub soft_ms: Option<u64>,
    /// Number of best lines to report (at least 1).
    pub multipv: usize,
    /// Search threads (Lazy SMP; 1 is deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Evaluation to use.
    pub eval: EvalKind,
    /// Plain alpha-beta: no TT, pruning, reductions or extensions.
    pub plain: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            movetime_ms: None,
            soft_ms: None,
            multipv: 1,
            threads: 1,
            hash_mb: 16,
            eval: EvalKind::Full,
            plain: false,
        }
    }
}

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// The game ends within `n` moves of the side to move: positive, it
    /// wins (mate in `n`); negative, it loses. `Mate(0)`: the game is over
    /// and the side to move has lost. (A finished game that the side to
    /// move has won, possible only after a shock, is reported as
    /// `Cp(MATE)`.) Every game end counts as mate here: checkmate, a
    /// stalemate that loses, extinction and shock.
    Mate(i32),
}

impl Score {
    /// Convert an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s.abs() >= MATE_BOUND {
            let plies = MATE - s.abs();
            if plies == 0 && s > 0 {
                // The game is over and the side to move has already won
                // (only after a shock): no mate count fits.
                return Score::Cp(MATE);
            }
            let moves = (plies + 1) / 2;
            Score::Mate(if s > 0 { moves } else { -moves })
        } else {
            Score::Cp(s)
        }
    }
}

/// Progress report, sent after each completed iteration for each line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Line number, 1 for the best.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
}

/// The outcome of a search for one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The line's first move; `None` when there is no legal move.
    pub best_move: Option<Move>,
    /// Score of the line.
    pub score: Score,
    /// Principal variation (starting with `best_move`).
    pub pv: Vec<Move>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached in it.
    pub seldepth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds used.
    pub time_ms: u64,
}

/// Search a position with a fresh transposition table of
/// `limits.hash_mb` MiB. `history`: Zobrist keys ([`Position::key`]) of the
/// earlier positions of the game, oldest first, for repetition detection.
/// Returns one result per MultiPV line, best first; when the side to move
/// has no legal move, a single result with `best_move: None` and the score
/// of the finished game. Stops at the first of the limits, or when `stop`
/// becomes true; the move returned is always legal, and some legal move is
/// returned whenever one exists.
pub fn search(
    pos: &AnyPosition,
    history: &[u64],
    limits: &Limits,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Vec<SearchResult> {
    Engine::new(limits.hash_mb).search(pos, history, limits, stop, info)
}

/// A searcher that keeps its transposition table between searches, as a
/// UCI engine does between the moves of a game.
pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
}

impl Engine {
    /// An engine with an empty table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Engine {
        Engine { tt: TranspositionTable::new(hash_mb), hash_mb }
    }

    /// Size of the table in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Replace the table by an empty one of `hash_mb` MiB (a no-op when
    /// the size is unchanged).
    pub fn resize(&mut self, hash_mb: usize) {
        if hash_mb != self.hash_mb {
            self.tt = TranspositionTable::new(hash_mb);
            self.hash_mb = hash_mb;
        }
    }

    /// Forget everything learnt: the next search starts as a fresh one.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Transposition-table fill in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// [`search`] with this engine's table (`limits.hash_mb` is ignored:
    /// see [`Engine::resize`]).
    pub fn search(
        &mut self,
        pos: &AnyPosition,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Vec<SearchResult> {
        match pos {
            AnyPosition::Small(p) => search_position(&self.tt, p, history, limits, stop, info),
            AnyPosition::Large(p) => search_position(&self.tt, p, history, limits, stop, info),
        }
    }
}

/// [`search`] on a position of either bitboard width, with a given table.
fn search_position<B: BitSet>(
    tt: &TranspositionTable,
    pos: &Position<B>,
    history: &[u64],
    limits: &Limits,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Vec<SearchResult> {
    let start = Instant::now();
    let threads = limits.threads.max(1);
    tt.new_search();
    let eval = Evaluator::new(pos.tables, limits.eval);
    let shared = Shared {
        tt,
        stop,
        abort: AtomicBool::new(false),
        start,
        limits,
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let mut keys: Vec<u64> = history.to_vec();
    if keys.last() == Some(&pos.key()) {
        keys.pop();
    }
    keys.push(pos.key());

    let mut main = Worker::new(0, &shared, &eval, &keys);
    if main.root_moves(pos) == 0 {
        let in_check = pos.is_check();
        let s = if let Some(s) = shock_score(pos, 0) { s } else { main.no_move_score(in_check, 0) };
        return vec![SearchResult {
            best_move: None,
            score: Score::from_internal(s),
            pv: Vec::new(),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            time_ms: start.elapsed().as_millis() as u64,
        }];
    }
    let lines = std::thread::scope(|s| {
        for id in 1..threads {
            let (shared, eval, keys) = (&shared, &eval, &keys);
            let pos = *pos;
            std::thread::Builder::new()
                .name(format!("fairyforge-search-{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(s, move || {
                    let mut w = Worker::new(id, shared, eval, keys);
                    w.root_moves(&pos);
                    w.iterate(&pos, None);
                })
                .expect("spawn search thread");
        }
        let lines = main.iterate(pos, Some(info));
        shared.abort.store(true, Ordering::Relaxed);
        lines
    });
    let nodes = shared.total_nodes();
    let time_ms = start.elapsed().as_millis() as u64;
    let nps = nps(nodes, start);
    lines
        .into_iter()
        .map(|l| SearchResult {
            best_move: Some(l.pv[0]),
            score: Score::from_internal(l.score),
            pv: l.pv,
            depth: l.depth,
            seldepth: l.seldepth,
            nodes,
            nps,
            time_ms,
        })
        .collect()
}

fn nps(nodes: u64, start: Instant) -> u64 {
    let us = start.elapsed().as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / us
}

/// State shared by all search threads.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    /// Set when a limit is reached or the main thread is done.
    abort: AtomicBool,
    start: Instant,
    limits: &'a Limits,
    /// Node counts per thread, published every 1024 nodes.
    nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// True when the search must stop now.
    fn must_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.abort.load(Ordering::Relaxed) {
            return true;
        }
        let out = self.limits.movetime_ms.is_some_and(|t| self.elapsed_ms() >= t)
            || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n);
        if out {
            self.abort.store(true, Ordering::Relaxed);
        }
        out
    }
}

/// One line of a completed iteration.
#[derive(Clone, Debug)]
struct Line {
    score: i32,
    pv: Vec<Move>,
    depth: u32,
    seldepth: u32,
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
struct Worker<'a, B: BitSet> {
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
    killers: Vec<[Move; 2]>,
    /// History by side, from and to square.
    history: Vec<i32>,
    squares: usize,
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
    fn new(id: usize, shared: &'a Shared<'a>, eval: &'a Evaluator<B>, keys: &[u64]) -> Worker<'a, B> {
        let squares = eval.tables().geo.size.squares();
        Worker {
            id,
            shared,
            eval,
            plain: shared.limits.plain,
            stalemate_loses: eval.tables().variant.stalemate == StalemateRule::Loss,
            keys: keys.to_vec(),
            rep_floor: 0,
            buf: MoveBuf::new(),
            passed: PassedCache::new(),
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * squares * squares],
            squares,
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

    /// Fill the root move list (ordered by MVV-LVA); returns its length.
    fn root_moves(&mut self, pos: &Position<B>) -> usize {
        let start = self.buf.len();
        self.generate(pos, 0, pos.is_check(), Move::NONE, false);
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
    fn iterate(&mut self, pos: &Position<B>, mut info: Option<&mut dyn FnMut(&Info)>) -> Vec<Line> {
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
            for r in &mut self.root {
                r.prev_score = r.score;
            }
            completed = lines;
            if let Some(cb) = info.as_deref_mut() {
                let nodes = self.node_total();
                let hashfull = self.shared.tt.hashfull();
                for (i, l) in completed.iter().enumerate() {
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
        }
        completed
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
        for r in &mut self.root[pv_idx..] {
            r.score = -INF;
        }
        let mut best = -INF;
        for i in pv_idx..self.root.len() {
            let m = self.root[i].mv;
            let mut child = *pos;
            child.make(m);
            self.keys.push(child.key());
            let check = child.is_check();
            let score = if i == pv_idx || self.plain {
                -self.negamax(&child, -beta, -alpha, depth - 1, 1, true, check)
            } else {
                let s = -self.negamax(&child, -alpha - 1, -alpha, depth - 1, 1, true, check);
                if s > alpha && s < beta {
                    -self.negamax(&child, -beta, -alpha, depth - 1, 1, true, check)
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
    fn no_move_score(&self, in_check: bool, ply: usize) -> i32 {
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
    /// check, as found by the parent).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position<B>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        null_ok: bool,
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
        if (halfmove >= 100 && !in_check) || self.is_repetition(halfmove) || insufficient_material(pos) {
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
        if in_check && !self.plain && ply < 2 * self.root_depth as usize {
            depth += 1;
        }

        let key = pos.key();
        let mut tt_move = Move::NONE;
        if !self.plain {
            if let Some(e) = self.shared.tt.probe(key) {
                tt_move = e.mv;
                let s = score_from_tt(e.score, ply);
                if !pv_node && e.depth >= depth && cuts(e.bound, s, alpha, beta) {
                    return s;
                }
            }
        }

        let prune = !self.plain && !pv_node && !in_check && null_move_allowed(pos) && beta.abs() < MATE_BOUND;
        // Only the pruning rules below read the static evaluation.
        // Futility and late-move pruning of quiet moves near the horizon.
        let futile = !self.plain && !pv_node && !in_check && depth <= 3 && alpha.abs() < MATE_BOUND;
        let static_eval = if prune || futile { self.evaluate(pos) } else { -INF };
        // Reverse futility: far above beta near the horizon.
        if prune && depth <= 4 && static_eval - 100 * depth >= beta {
            return static_eval;
        }
        // Null move: if passing still beats beta, a real move will.
        if prune && null_ok && depth >= 3 && static_eval >= beta {
            let r = 3 + depth / 4;
            let child = null_move(pos);
            self.keys.push(child.key());
            let floor = std::mem::replace(&mut self.rep_floor, self.keys.len() - 1);
            let s = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, false, child.is_check());
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
        // A legal TT move is searched before the other moves are generated:
        // when it refutes the node, no generation is needed at all.
        let mut generated = !(halfmove < 100 && tt_move != Move::NONE && pos.is_legal_in(tt_move, Some(in_check)));
        if generated {
            if !self.generate(pos, ply, in_check, tt_move, false) {
                return self.no_move_score(in_check, ply);
            }
            if halfmove >= 100 {
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
        let stalemate_risk = futile && self.stalemate_loses && pos.side(us.flip()).count() <= 4;
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
                self.generate(pos, ply, in_check, tt_move, true);
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
            let late = futile && quiet && count as i32 >= 4 + 2 * depth * depth && !self.is_killer(ply, m);
            // Moves come best first: captures, killers, then quiet moves.
            unordered |= late && generated;
            let prunable = futile
                && quiet
                && count > 0
                && (late || static_eval + evolution_gain(pos, m, self.eval) + 120 * depth <= alpha);
            if prunable && !may_check(zone, m) && !stalemate_risk {
                debug_assert!(!pos.after(m).is_check(), "{m:?} gives check in {}", pos.fen());
                continue;
            }
            // Where stalemate cannot lose, the check test needs no copy.
            if prunable && !self.stalemate_loses && !gives_check(m) {
                continue;
            }
            if !self.plain && !prunable {
                self.shared.tt.prefetch(pos.key_after(m));
            }
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
            let new_depth = depth - 1;
            if !self.plain && prunable {
                self.shared.tt.prefetch(child.key());
            }
            self.keys.push(child.key());
            if !self.plain && !unordered && count > 0 && i < end {
                // Fetch the next move's entry while this child is searched
                // (not after the first move, which most often refutes).
                self.shared.tt.prefetch(pos.key_after(self.buf.pick(i, end)));
                picked = true;
            }
            let score = if count == 0 || self.plain {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true, check)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && count >= 3 && !self.is_killer(ply, m) && !check {
                    r = self.lmr[(depth as usize).min(63) * 64 + count.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if self.history[self.hist_idx(us, m)] > HISTORY_MAX / 2 {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true, check);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, true, check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true, check);
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
                        self.reward(us, ply, m, depth, &quiets[..nquiets]);
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
        if !self.plain {
            self.store(key, best.mv, best.score, beta, best.mv != Move::NONE, depth, ply);
        }
        best.score
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
    fn store(&self, key: u64, m: Move, best: i32, beta: i32, raised: bool, depth: i32, ply: usize) {
        let bound = if best >= beta {
            Bound::Lower
        } else if raised {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, m, score_to_tt(best, ply), depth, bound);
    }

    /// Quiescence: captures and promotions, or every evasion in check.
    /// `qply` counts quiescence plies; from [`QS_RECAPTURES`] on, only
    /// captures on `last_to` (the previous move's square) are searched.
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
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
        if use_tt {
            if let Some(e) = self.shared.tt.probe(key) {
                let s = score_from_tt(e.score, ply);
                if cuts(e.bound, s, alpha, beta) {
                    return s;
                }
                tt_move = e.mv;
            }
        }
        let alpha0 = alpha;
        let start = self.buf.len();
        // Not in check: pseudo-legal captures, tested for legality only
        // when searched. In check: every legal evasion, so mate is seen.
        if !in_check {
            self.generate_noisy(pos);
            alpha = alpha.max(stand);
        } else if !self.generate(pos, ply, true, Move::NONE, false) {
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
                self.shared.tt.prefetch(pos.key_after(m));
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
            self.store(key, best.mv, best.score, beta, best.score > alpha0, 0, ply);
        }
        best.score
    }

    /// Append the pseudo-legal captures and promotions (to the best choice)
    /// of the side to move to `buf`, scored by MVV-LVA.
    fn generate_noisy(&mut self, pos: &Position<B>) {
        let (buf, eval) = (&mut self.buf, self.eval);
        noisy_moves(pos, eval.best_promotion(pos.turn()), &mut |m| buf.push(m, mvv_lva(eval, pos, m)));
    }

    /// Generate the legal moves (`in_check`: whether the side to move is in
    /// check) and append them with ordering scores to `buf` (without the TT
    /// move when `tt_searched`); returns false when there is no legal move
    /// at all.
    fn generate(&mut self, pos: &Position<B>, ply: usize, in_check: bool, tt_move: Move, tt_searched: bool) -> bool {
        let us = pos.turn();
        let n = self.squares;
        let start = self.buf.len();
        let history = &self.history[us.idx() * n * n..(us.idx() + 1) * n * n];
        let mut sink =
            Scorer::new(&mut self.buf, pos, self.eval, history, self.killers[ply], tt_move, tt_searched, self.plain);
        pos.legal_moves_to(&mut sink, in_check);
        self.buf.len() > start || (tt_searched && tt_move != Move::NONE)
    }

    /// The static evaluation of `pos`, with this thread's cache.
    #[inline(always)]
    fn evaluate(&mut self, pos: &Position<B>) -> i32 {
        self.eval.evaluate_cached(pos, &mut self.passed)
    }

    #[inline(always)]
    fn hist_idx(&self, us: Color, m: Move) -> usize {
        (us.idx() * self.squares + m.from()) * self.squares + m.to()
    }

    #[inline(always)]
    fn is_killer(&self, ply: usize, m: Move) -> bool {
        self.killers[ply][0] == m || self.killers[ply][1] == m
    }

    /// A quiet move caused a cutoff: killer, history bonus, and a malus for
    /// the quiet moves tried before it.
    fn reward(&mut self, us: Color, ply: usize, m: Move, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let bonus = (depth * depth).min(400);
        let i = self.hist_idx(us, m);
        gravity(&mut self.history[i], bonus);
        for &q in tried {
            let i = self.hist_idx(us, q);
            gravity(&mut self.history[i], -bonus);
        }
    }
}

/// Late-move reductions indexed `depth * 64 + move count` (both capped at
/// 63), built once per process rather than for every search.
fn lmr_table() -> &'static [i32] {
    static TABLE: std::sync::OnceLock<Vec<i32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut lmr = vec![0; 64 * 64];
        for d in 1..64 {
            for m in 1..64 {
                lmr[d * 64 + m] = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
            }
        }
        lmr
    })
}

/// False when `m` certainly gives no check: neither its origin nor its
/// destination is in `zone` (castling moves a rook, and en passant removes
/// a piece elsewhere, so those are always tested).
#[inline(always)]
fn may_check<B: BitSet>(zone: B, m: Move) -> bool {
    matches!(m.special(), Special::Castle | Special::EnPassant) || zone.has(m.from()) || zone.has(m.to())
}

/// [`Worker::check_zone`]: the lines through the royal square (rides,
/// Robotic hops and discovered attacks all run along them, and so does the
/// leg of a lame leap next to it) and the origins of every leaping, lame or
/// hopping attack onto it by any kind of the colour; every square when the
/// colour has a bent rider.
fn check_zones<B: BitSet>(t: &Tables<B>) -> Vec<B> {
    let n = t.geo.size.squares();
    let mut zones = vec![B::EMPTY; 2 * n];
    for c in Color::BOTH {
        let kinds = &t.kind_list[c];
        let bent = kinds.iter().any(|k| t.kinds[c][k.idx()].bent);
        for r in 0..n {
            let mut z = t.geo.rook_attacks(r, B::EMPTY) | t.geo.bishop_attacks(r, B::EMPTY);
            for k in kinds {
                let kd = &t.kinds[c][k.idx()];
                z |= kd.leap_capture_rev[r] | kd.lame_rev_mask[r] | kd.hop_rev_mask[r];
            }
            zones[c.idx() * n + r] = if bent { t.geo.all } else { z };
        }
    }
    zones
}

/// True when a stored bound decides the node.
#[inline(always)]
fn cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    }
}

/// Score of a shocked position (§4.3): the Network has lost.
#[inline(always)]
fn shock_score<B: BitSet>(pos: &Position<B>, ply: usize) -> Option<i32> {
    if !pos.is_shocked() {
        return None;
    }
    let loser = pos.tables.variant.shock.map_or(Color::Black, |s| s.side);
    Some(if pos.turn() == loser { -MATE + ply as i32 } else { MATE - ply as i32 })
}

/// The kind the move captures, if any.
#[inline(always)]
fn victim<B: BitSet>(pos: &Position<B>, m: Move) -> Option<Kind> {
    let sq = if m.special() == Special::EnPassant { pos.ep_victim as usize } else { m.to() };
    if sq == NO_SQ as usize {
        return None;
    }
    pos.piece_at(sq).filter(|p| p.color != pos.turn()).map(|p| p.kind)
}

/// The position with the side to move passing (no en passant afterwards).
fn null_move<B: BitSet>(pos: &Position<B>) -> Position<B> {
    let mut p = *pos;
    p.set_state(p.castling, NO_SQ, NO_SQ);
    p.turn = p.turn.flip();
    p.key ^= crate::zobrist::side();
    p.halfmove += 1;
    p
}

/// Null move (and reverse futility) pruning is sound enough here: the
/// variant does not make stalemate a loss, and the side to move has enough
/// pieces besides royals and pawn-like promoters that zugzwang is unlikely.
fn null_move_allowed<B: BitSet>(pos: &Position<B>) -> bool {
    let v = &pos.tables.variant;
    if v.stalemate == StalemateRule::Loss {
        return false;
    }
    let us = pos.turn();
    let pieces = pos.side(us) & !pos.royals(us) & !pos.pieces_of(us, v.promoters[us]) & !pos.pieces(us, Kind::Pawn);
    let needed = if v.shock.is_some_and(|s| s.side == us) { 3 } else { 2 };
    pieces.count() >= needed
}

/// FIDE insufficient material (§7): no pawns, rooks or queens, and at most
/// one minor piece, or one bishop each on squares of one colour.
fn insufficient_material<B: BitSet>(pos: &Position<B>) -> bool {
    if !pos.tables.variant.insufficient_material {
        return false;
    }
    let occ = pos.occupied();
    if occ.count() > 4 {
        return false;
    }
    let kings = pos.pieces(Color::White, Kind::King) | pos.pieces(Color::Black, Kind::King);
    let knights = pos.pieces(Color::White, Kind::Knight) | pos.pieces(Color::Black, Kind::Knight);
    let bishops = pos.pieces(Color::White, Kind::Bishop) | pos.pieces(Color::Black, Kind::Bishop);
    if !(occ & !(kings | knights | bishops)).is_empty() {
        return false;
    }
    let minors = knights | bishops;
    if minors.count() <= 1 {
        return true;
    }
    let size = pos.tables.geo.size;
    let colour = |sq: usize| (size.file_of(sq) + size.rank_of(sq)) % 2;
    knights.is_empty()
        && !pos.pieces(Color::White, Kind::Bishop).is_empty()
        && !pos.pieces(Color::Black, Kind::Bishop).is_empty()
        && bishops.squares().all(|sq| colour(sq) == colour(bishops.lsb()))
}

/// Pseudo-legal captures and promotions of the side to move (promotions to
/// `promo` only), read from the same piece tables as move generation:
/// plain leaps, rides, the Gryphon's bent ride, lame leaps, Robotic hops and
/// en passant. The caller tests legality with [`Position::legal_child`].
fn noisy_moves<B: BitSet>(pos: &Position<B>, promo: Option<Kind>, out: &mut impl FnMut(Move)) {
    let t = pos.tables;
    let v = &t.variant;
    let us = pos.turn();
    let occ = pos.occupied();
    let theirs = pos.side(us.flip());
    let empty = !occ & t.geo.all;
    let last = t.last_rank[us];
    for &k in &t.kind_list[us] {
        let bb = pos.pieces(us, k);
        if bb.is_empty() {
            continue;
        }
        let kd = &t.kinds[us][k.idx()];
        let promotes = v.promoters[us].has(k);
        if kd.ep_taker && pos.ep != NO_SQ {
            for from in (kd.leap_capture_rev[pos.ep as usize] & bb).squares() {
                out(Move::new(from, pos.ep as usize, None, Special::EnPassant));
            }
        }
        if kd.leaps_only && bb.count() >= kd.bulk_min {
            // One shift per line for all the pieces of the kind (when they
            // are enough to beat a lookup per piece).
            let last = if promotes { last } else { B::EMPTY };
            let mut emit = |targets: B, back: i32| {
                for to in targets.squares() {
                    let p = if last.has(to) { promo } else { None };
                    out(Move::new((to as i32 - back) as usize, to, p, Special::Normal));
                }
            };
            kd.leap_targets(bb, occ, empty & last, theirs, &mut emit);
            continue;
        }
        // Promotions land on empty squares of the last rank.
        let promo_ok = if promotes { empty & last } else { B::EMPTY };
        if kd.robotic || kd.bent || kd.lame_any {
            piece_captures::<B, true>(pos, kd, bb, theirs, promo_ok, promotes, promo, out);
        } else {
            piece_captures::<B, false>(pos, kd, bb, theirs, promo_ok, promotes, promo, out);
        }
    }
}

/// The captures and promotions of the pieces `bb` of one kind, piece by
/// piece; `FANCY` when the kind has Robotic hops, a bent ride or lame leaps
/// (two copies of the loop, so plain kinds skip those tests).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn piece_captures<B: BitSet, const FANCY: bool>(
    pos: &Position<B>,
    kd: &crate::rules::attacks::KindTables<B>,
    bb: B,
    theirs: B,
    promo_ok: B,
    promotes: bool,
    promo: Option<Kind>,
    out: &mut impl FnMut(Move),
) {
    let t = pos.tables;
    let occ = pos.occupied();
    let last = t.last_rank[pos.turn()];
    for from in bb.squares() {
        let mut targets = (kd.leap_capture[from] & theirs) | (kd.leap_quiet[from] & promo_ok);
        let mut seen = B::EMPTY;
        if kd.orth {
            seen |= t.geo.rook_attacks(from, occ);
        }
        if kd.diag {
            seen |= t.geo.bishop_attacks(from, occ);
        }
        targets |= seen & theirs;
        if FANCY && kd.bent {
            targets |= t.bent_attacks(from, occ) & theirs;
        }
        if FANCY && !(kd.lame_reach[from] & (theirs | promo_ok)).is_empty() {
            for &(to, leg, mode) in &kd.lame[from] {
                let (to, leg) = (to as usize, leg as usize);
                if !occ.has(leg) && ((mode.captures() && theirs.has(to)) || (mode.moves() && promo_ok.has(to))) {
                    targets |= B::bit(to);
                }
            }
        }
        if FANCY && kd.robotic {
            // Range-1 hops over an occupied screen, two steps away.
            for sc in (kd.hop_capture_screens[from] & occ).squares() {
                targets |= B::bit(2 * sc - from) & theirs;
            }
            for sc in (kd.hop_move_screens[from] & occ).squares() {
                targets |= B::bit(2 * sc - from) & promo_ok;
            }
            // Rider hops: one step beyond each first blocker.
            for b in (seen & occ).squares() {
                let h = t.geo.beyond(from, b);
                if h != NO_SQ {
                    targets |= B::bit(h as usize) & theirs;
                }
            }
        }
        for to in targets.squares() {
            let p = if promotes && last.has(to) { promo } else { None };
            out(Move::new(from, to, p, Special::Normal));
        }
    }
}

/// Value of a piece for exchange evaluation: royals count as priceless, so
/// a royal never "captures into" a defended square.
#[inline(always)]
fn see_value<B: BitSet>(pos: &Position<B>, eval: &Evaluator<B>, c: Color, k: Kind) -> i32 {
    if pos.tables.variant.royal[c].has(k) {
        10_000
    } else {
        eval.value(k)
    }
}

/// What the mover gains in value by evolving (zero where pieces do not
/// evolve; negative for a Burden queen crowning into a king).
#[inline(always)]
fn evolution_gain<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>) -> i32 {
    let Some(p) = pos.piece_at(m.from()) else { return 0 };
    let next = pos.tables.variant.evolve[p.kind.idx()];
    if next == p.kind {
        0
    } else {
        eval.value(next) - eval.value(p.kind)
    }
}

/// True when `see(m) >= threshold`, deciding from the first capture alone
/// when it can: the opponent may stop the exchange after any capture, so
/// the value lies between the victim minus the capturer's value after the
/// move and the victim.
fn see_ge<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>, threshold: i32) -> bool {
    let us = pos.turn();
    let Some(mover) = pos.piece_at(m.from()) else { return 0 >= threshold };
    let gain = victim(pos, m).map_or(0, |k| see_value(pos, eval, us.flip(), k));
    if gain < threshold {
        return false;
    }
    let became = m.promotion().unwrap_or(pos.tables.variant.evolve[mover.kind.idx()]);
    gain - see_value(pos, eval, us, became) >= threshold || see(pos, m, eval) >= threshold
}

/// Static exchange evaluation of a capture on its target square (the
/// swap algorithm), from the mover's side. Attackers are the plain leapers
/// and riders ([`crate::rules::attacks::Tables::simple_attackers`]; hops, lame and
/// bent attackers are not seen), x-rays appear as pieces leave the board,
/// and each capturer is valued as what it evolves or promotes into.
fn see<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>) -> i32 {
    let t = pos.tables;
    let v = &t.variant;
    let (from, to) = (m.from(), m.to());
    let us = pos.turn();
    let Some(mover) = pos.piece_at(from) else { return 0 };
    let mut occ = pos.occupied() ^ B::bit(from);
    if m.special() == Special::EnPassant && pos.ep_victim != NO_SQ {
        occ ^= B::bit(pos.ep_victim as usize);
    }
    let became = |c: Color, k: Kind, promo: Option<Kind>| {
        let k = promo.unwrap_or(v.evolve[k.idx()]);
        see_value(pos, eval, c, k)
    };
    let mut gain = [0i32; 48];
    gain[0] = victim(pos, m).map_or(0, |k| see_value(pos, eval, us.flip(), k));
    let mut on_square = became(us, mover.kind, m.promotion());
    let mut side = us.flip();
    let last_rank = &t.last_rank;
    let mut d = 0;
    loop {
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d + 1 >= gain.len() {
            break;
        }
        let attackers = t.simple_attackers(pos, to, side, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        let (mut best_sq, mut best_val, mut best_kind) = (usize::MAX, i32::MAX, Kind::Pawn);
        for sq in attackers.squares() {
            if let Some(p) = pos.piece_at(sq) {
                let val = see_value(pos, eval, side, p.kind);
                if val < best_val {
                    (best_sq, best_val, best_kind) = (sq, val, p.kind);
                }
            }
        }
        if best_sq == usize::MAX {
            break;
        }
        occ ^= B::bit(best_sq);
        let promo =
            (v.promoters[side].has(best_kind) && last_rank[side].has(to)).then(|| eval.best_promotion(side)).flatten();
        on_square = became(side, best_kind, promo);
        side = side.flip();
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveList;
    use crate::rules::variant::Variant;

    fn variants() -> Vec<Variant> {
        let o = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        vec![
            Variant::new("chess", &[]).unwrap(),
            Variant::new("shocking", &[]).unwrap(),
            Variant::new("evolution", &[]).unwrap(),
            Variant::new("burden", &[]).unwrap(),
            Variant::new("burden", &o(&[("royal", "gryphon"), ("cycle", "pawn"), ("royal_may_move_into_check", "1")]))
                .unwrap(),
            Variant::new("burden", &o(&[("royal", "maharajah"), ("cycle", "knight")])).unwrap(),
            Variant::new("burden", &o(&[("files", "10"), ("middle_gap", "2"), ("army", "knights")])).unwrap(),
        ]
    }

    /// The noisy moves quiescence searches, as move generation sees them.
    fn expected<B: BitSet>(pos: &Position<B>, promo: Option<Kind>) -> Vec<Move> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut v: Vec<Move> = list
            .iter()
            .copied()
            .filter(|&m| {
                (pos.is_capture(m) && m.promotion().is_none()) || (m.promotion().is_some() && m.promotion() == promo)
            })
            .collect();
        v.sort();
        v
    }

    fn generated<B: BitSet>(pos: &Position<B>, promo: Option<Kind>) -> Vec<Move> {
        let mut v = Vec::new();
        noisy_moves(pos, promo, &mut |m| v.push(m));
        v.retain(|&m| pos.legal_child(&pos.after(m), m));
        v.sort();
        v
    }

    /// Over random playouts of every variant: the noisy generator against
    /// legal moves, SEE against its threshold test, and both check tests
    /// against copy-make.
    #[test]
    fn random_positions_agree_with_reference() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        let (mut checks_found, mut with_squares, mut complex_squares) = (0, 0, 0);
        for v in variants() {
            for _game in 0..40 {
                let mut p = AnyPosition::new(&v, None).unwrap();
                for _ply in 0..150 {
                    let moves = p.legal_moves();
                    assert_eq!(p.has_legal_move(), !moves.is_empty(), "{}", p.fen());
                    if moves.is_empty() {
                        break;
                    }
                    crate::with_pos!(&p, q => {
                        let e = Evaluator::new(q.tables, EvalKind::Full);
                        let promo = e.best_promotion(q.turn());
                        assert_eq!(generated(q, promo), expected(q, promo), "{} {}", v.name, q.fen());
                        let squares = q.checks();
                        for &m in &moves {
                            let check = q.after(m).is_check();
                            assert_eq!(q.gives_check(m), check, "{m:?} in {}", q.fen());
                            if let Some(c) = &squares {
                                assert_eq!(c.gives_check(q, m), check, "{m:?} in {}", q.fen());
                                with_squares += 1;
                                // Robotic hops and lame leaps among the check squares.
                                complex_squares += usize::from(q.tables.sets[q.turn()].complex.0 != 0);
                            }
                            checks_found += check as usize;
                            if q.is_capture(m) {
                                let s = see(q, m, &e);
                                assert!(s.abs() <= 20_000);
                                for th in [-300, -evolution_gain(q, m, &e), 0, 1, 150] {
                                    assert_eq!(see_ge(q, m, &e, th), s >= th, "{m:?} {th} in {}", q.fen());
                                }
                            }
                        }
                    });
                    checked += 1;
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    p = p.after(moves[(x % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 10_000);
        assert!(checks_found > 1000 && with_squares > 100_000, "{checks_found} checks, {with_squares} moves");
        assert!(complex_squares > 10_000, "{complex_squares} moves by a side with complex attacks");
    }

    /// A Turret promoting to the side's first Missile checks by a hop over
    /// the knight next to the king (b1), or from next to the king after
    /// taking the knight (c1): the check squares must see both.
    #[test]
    fn check_squares_cover_a_promotion_to_a_robotic_rider() {
        let v = Variant::new("shocking", &[]).unwrap();
        let p = AnyPosition::new(&v, Some("c6c/8/8/8/8/8/1t6/2NK4 b - - 0 1")).unwrap();
        let AnyPosition::Small(q) = &p else { panic!("8x8") };
        let c = q.checks().expect("no bent riders");
        let mut checking = Vec::new();
        for &m in &p.legal_moves() {
            let check = q.after(m).is_check();
            assert_eq!(c.gives_check(q, m), check, "{m:?}");
            if check {
                checking.push(p.uci(m));
            }
        }
        assert_eq!(checking, ["b2b1m", "b2c1m"]);
    }

    #[test]
    fn see_values_exchanges() {
        let v = Variant::new("chess", &[]).unwrap();
        let p = AnyPosition::new(&v, Some("4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1")).unwrap();
        crate::with_pos!(&p, q => {
            let e = Evaluator::new(q.tables, EvalKind::Full);
            // dxe5 dxe5: pawn for pawn.
            assert_eq!(see(q, q.parse_uci("d4e5").unwrap(), &e), 0);
        });
        let p = AnyPosition::new(&v, Some("4k3/8/3p4/4p3/8/8/7Q/4K3 w - - 0 1")).unwrap();
        crate::with_pos!(&p, q => {
            let e = Evaluator::new(q.tables, EvalKind::Full);
            // Qxe5?? dxe5 loses the queen for a pawn.
            assert!(see(q, q.parse_uci("h2e5").unwrap(), &e) < -500);
        });
    }
}
