//! Search: iterative deepening over a principal-variation (PVS) negamax
//! with aspiration windows, a shared transposition table ([`crate::search::tt`]),
//! quiescence, check extensions, move ordering (TT move, MVV-LVA, killers,
//! quiet-move and continuation histories), null-move pruning, reverse futility, futility and late-move
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
//!   escape check (a ply more when the table's move is a capture) and
//!   re-search at full depth when they beat alpha, so they are on in every
//!   variant.
//! * **Futility and late-move pruning** skip quiet moves that do not give
//!   check (or stalemate, where that wins) in non-PV nodes not in check:
//!   in the last three plies the moves after the first `4 + 2 * depth^2`
//!   (`3 + depth^2` when not improving; killers excepted), and up to depth
//!   8 the moves whose static evaluation plus what the mover gains by
//!   evolving plus `120 * (d + 1)` is still at most alpha, where `d`, at
//!   most 5, is the depth the move would be searched to after its
//!   late-move reduction (the table's, without the history and node-type
//!   terms). They never skip the first move, so a node with a
//!   legal move is never scored as stalemate, and they do not assume that
//!   passing is possible, so they are on in every variant, Burden included
//!   (where most of a small search is quiescence: at 5000 nodes Burden
//!   searches reach depth 2 to 4 and 98% of the nodes are quiescence nodes,
//!   so pruning frontier moves is what buys depth).
//! * **Check extensions** search a checking move a ply deeper when its
//!   exchange loses nothing (SEE >= 0), the child is a full node and the
//!   ply is within twice the iteration depth.
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
//! deterministic: same best move, score and node count. An [`Engine`]
//! carries the move histories (halved) from one search of a game to the
//! next, as it does its table; [`Engine::new_game`] forgets both, so its
//! next search is a fresh one.
//!
//! # Memory
//!
//! A table probe is the search's largest single stall (memory latency, not
//! instructions). The child's entry is prefetched from
//! [`Position::key_after`] before the move is made, and from the second
//! move on the next move's entry is prefetched while the current child is
//! searched. Moves are scored as the generator emits them, straight into
//! one shared buffer.
//! Each thread caches the static evaluations it computes by position key
//! ([`eval_cache`]): the same tree, fewer evaluations. A child's slot there
//! is prefetched with its table entry. The engine keeps the main thread's
//! cache for its next search (the next move's tree overlaps the last
//! one's).

pub(crate) mod clock;
pub(crate) mod eval;
mod eval_cache;
mod history;
pub(crate) mod ordering;
mod prune;
pub(crate) mod see;
mod shared;
mod threads;
pub(crate) mod tt;
pub(crate) mod tune;
mod worker;

#[cfg(test)]
mod tests;

use crate::board::game::AnyPosition;
use crate::error::Error;
use crate::moves::Move;
use crate::rules::terms::Weights;
use crate::search::eval::EvalKind;
use crate::search::threads::{search_position, Memory};
use crate::search::tt::TranspositionTable;
use crate::types::{MATE, MATE_BOUND};
use std::sync::atomic::AtomicBool;

/// Deepest iteration when no depth limit is given.
pub const DEFAULT_DEPTH: u32 = 64;

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
    /// Evaluation weights replacing the variant's (a tuned weights file).
    pub weights: Option<Weights>,
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
            weights: None,
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

/// Progress report, sent after each completed iteration for each line (and
/// once for the partial first iteration when a limit stops the search in it).
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
) -> Result<Vec<SearchResult>, Error> {
    Ok(Engine::new(limits.hash_mb)?.search(pos, history, limits, stop, info))
}

/// A searcher that keeps its transposition table, its move histories and
/// its evaluation cache between searches, as a UCI engine does between the
/// moves of a game (each search starts from the last one's histories,
/// halved).
pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    /// What the last search learnt.
    memory: Memory,
}

impl Engine {
    /// An engine with an empty table of about `hash_mb` MiB (1 to
    /// [`MAX_HASH_MB`](crate::MAX_HASH_MB)); an error when the size is out of range or the
    /// memory cannot be had.
    pub fn new(hash_mb: usize) -> Result<Engine, Error> {
        Ok(Engine { tt: TranspositionTable::new(hash_mb)?, hash_mb, memory: Memory::default() })
    }

    /// Size of the table in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Replace the table by an empty one of `hash_mb` MiB and forget the
    /// history (a no-op when the size is unchanged); on an error the old
    /// table is kept.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), Error> {
        if hash_mb != self.hash_mb {
            self.tt = TranspositionTable::new(hash_mb)?;
            self.hash_mb = hash_mb;
            self.memory.history = None;
        }
        Ok(())
    }

    /// Forget everything learnt (table and history): the next search
    /// starts as a fresh one. (Cached evaluations are kept: they are the
    /// same in every game.)
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.memory.history = None;
    }

    /// Transposition-table fill in permille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// [`search`] with this engine's table and history (`limits.hash_mb`
    /// is ignored: see [`Engine::resize`]).
    pub fn search(
        &mut self,
        pos: &AnyPosition,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Vec<SearchResult> {
        match pos {
            AnyPosition::Small(p) => search_position(&self.tt, &mut self.memory, p, history, limits, stop, info),
            AnyPosition::Large(p) => search_position(&self.tt, &mut self.memory, p, history, limits, stop, info),
        }
    }
}
