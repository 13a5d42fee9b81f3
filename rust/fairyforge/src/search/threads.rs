//! The threads of one search (Lazy SMP): the helpers start, the main thread
//! reports, and the lines of its last completed iteration are the result.
//! Every thread starts from a copy of the engine's saved histories (aged);
//! the main thread's are saved for the next search, as is its evaluation
//! cache (helpers start with empty ones).

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::search::eval::Evaluator;
use crate::search::eval_cache::EvalCache;
use crate::search::history::Histories;
use crate::search::shared::{nps, Shared};
use crate::search::tt::TranspositionTable;
use crate::search::worker::{shock_score, Worker};
use crate::search::{Info, Limits, Score, SearchResult};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What an engine keeps from one search to the next.
#[derive(Default)]
pub(super) struct Memory {
    /// The last search's quiet-move and continuation histories.
    pub(super) history: Option<Histories>,
    /// The last search's main-thread evaluation cache.
    pub(super) evals: Option<EvalCache>,
}

/// [`search`] on a position of either bitboard width, with a given table
/// and what the last search `saved` (nothing: a fresh start), which is
/// replaced by this search's. With [`Limits::weights`], the position moves
/// to the tables of its variant with those weights first.
pub(super) fn search_position<B: BitSet>(
    tt: &TranspositionTable,
    saved: &mut Memory,
    pos: &Position<B>,
    history: &[u64],
    limits: &Limits,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Vec<SearchResult> {
    if let Some(w) = limits.weights.as_ref().filter(|&w| *w != pos.tables.psq.weights) {
        let moved = pos.with_weights(w);
        return search_position(tt, saved, &moved, history, &Limits { weights: None, ..limits.clone() }, stop, info);
    }
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

    let history = Histories::aged(saved.history.take(), pos.tables);
    let mut for_helpers: Vec<Histories> = (1..threads).map(|_| history.clone()).collect();
    let evals = EvalCache::reused(saved.evals.take(), eval.identity());
    let mut main = Worker::new(0, &shared, &eval, &keys, history, evals);
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
            let Some(history) = for_helpers.pop() else { break };
            let pos = *pos;
            let helper = std::thread::Builder::new()
                .name(format!("fairyforge-search-{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(s, move || {
                    let mut w = Worker::new(id, shared, eval, keys, history, EvalCache::new(eval.identity()));
                    w.root_moves(&pos);
                    w.iterate(&pos, None);
                });
            if helper.is_err() {
                // The system has no thread to give: search with those started.
                break;
            }
        }
        let lines = main.iterate(pos, Some(info));
        shared.abort.store(true, Ordering::Relaxed);
        lines
    });
    let (history, evals) = main.into_memory();
    *saved = Memory { history: Some(history), evals: Some(evals) };
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
