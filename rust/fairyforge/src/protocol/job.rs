//! One search request of a protocol loop, run by the search thread with the
//! loop's persistent [`Engine`], and UCI's `searchmoves` on top of the
//! search API.
//!
//! The search has no root-move filter, so a search restricted to some root
//! moves searches each of their children instead, under iterative
//! deepening on the same table: at child depth `d` every allowed move is
//! scored by a full search of the position after it (the child's score,
//! negated and one ply further), the lines are sorted best first and
//! reported at depth `d + 1`. The limits are shared out: the node and time
//! budgets count what the earlier children used, the optimum time stops
//! the deepening after a completed iteration, and an iteration cut short
//! by a limit or `stop` is dropped (the previous one stands). This costs
//! more than a filtered root (no alpha-beta between the root moves), which
//! is acceptable for an analysis feature.

use crate::board::game::AnyPosition;
use crate::moves::Move;
use crate::search::{Engine, Info, Limits, Score, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Deepest root depth of a restricted search without a depth limit.
const MAX_DEPTH: u32 = 64;

/// What to search.
#[derive(Clone)]
pub(crate) struct Job {
    /// The position.
    pub pos: AnyPosition,
    /// Zobrist keys of the earlier positions of the game, oldest first.
    pub history: Vec<u64>,
    /// The limits.
    pub limits: Limits,
    /// Root moves to consider (UCI `searchmoves`); empty: all.
    pub root: Vec<Move>,
}

/// Search a job: the engine's own search, or the restricted search of the
/// module documentation when `job.root` names some but not all legal moves.
pub(crate) fn run(engine: &mut Engine, job: &Job, stop: &AtomicBool, info: &mut dyn FnMut(&Info)) -> Vec<SearchResult> {
    let legal = job.pos.legal_moves();
    let root: Vec<Move> = legal.iter().copied().filter(|m| job.root.contains(m)).collect();
    if root.is_empty() || root.len() == legal.len() || job.pos.is_shocked() {
        return engine.search(&job.pos, &job.history, &job.limits, stop, info);
    }
    restricted(engine, job, &root, stop, info)
}

/// The score of the parent from the score of the child after its move.
fn negate(s: Score) -> Score {
    match s {
        Score::Cp(x) => Score::Cp(-x),
        // The child's side mates in n: we are mated in n.
        Score::Mate(n) if n > 0 => Score::Mate(-n),
        // The child's side is mated in n (0: at once): we mate in n + 1.
        Score::Mate(n) => Score::Mate(1 - n),
    }
}

/// A total order on scores, higher is better.
fn order(s: Score) -> i64 {
    match s {
        Score::Cp(x) => i64::from(x),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

fn restricted(
    engine: &mut Engine,
    job: &Job,
    root: &[Move],
    stop: &AtomicBool,
    info: &mut dyn FnMut(&Info),
) -> Vec<SearchResult> {
    let start = Instant::now();
    let elapsed = || start.elapsed().as_millis() as u64;
    let limits = &job.limits;
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(2, MAX_DEPTH);
    let mut history = job.history.clone();
    history.push(job.pos.key());
    let mut nodes = 0u64;
    let mut completed: Vec<SearchResult> = Vec::new();
    'deepen: for child_depth in 1..max_depth {
        let mut lines: Vec<SearchResult> = Vec::with_capacity(root.len());
        for &m in root {
            let child_limits = Limits {
                depth: Some(child_depth),
                nodes: limits.nodes.map(|n| n.saturating_sub(nodes)),
                movetime_ms: limits.movetime_ms.map(|t| t.saturating_sub(elapsed())),
                soft_ms: None,
                multipv: 1,
                ..limits.clone()
            };
            if child_limits.nodes == Some(0) || child_limits.movetime_ms == Some(0) {
                break 'deepen;
            }
            let child = job.pos.after(m);
            let results = engine.search(&child, &history, &child_limits, stop, &mut |_| {});
            let Some(r) = results.into_iter().next() else { break 'deepen };
            nodes += r.nodes;
            if r.best_move.is_some() && r.depth < child_depth {
                break 'deepen;
            }
            let mut pv = vec![m];
            pv.extend(r.pv);
            lines.push(SearchResult {
                best_move: Some(m),
                score: negate(r.score),
                pv,
                depth: child_depth + 1,
                seldepth: r.seldepth + 1,
                nodes: 0,
                nps: 0,
                time_ms: 0,
            });
            if stop.load(Ordering::Relaxed) && !completed.is_empty() {
                break 'deepen;
            }
        }
        lines.sort_by_key(|l| std::cmp::Reverse(order(l.score)));
        let time_ms = elapsed();
        let nps = nodes.saturating_mul(1000) / time_ms.max(1);
        let hashfull = engine.hashfull();
        for (i, l) in lines.iter_mut().enumerate() {
            (l.nodes, l.nps, l.time_ms) = (nodes, nps, time_ms);
            if i < limits.multipv.max(1) {
                info(&Info {
                    depth: l.depth,
                    seldepth: l.seldepth,
                    multipv: i + 1,
                    score: l.score,
                    nodes,
                    nps,
                    time_ms,
                    pv: l.pv.clone(),
                    hashfull,
                });
            }
        }
        completed = lines;
        let best = completed[0].score;
        let mate_found = matches!(best, Score::Mate(n) if n > 0) && limits.depth.is_none();
        if stop.load(Ordering::Relaxed) || mate_found || limits.soft_ms.is_some_and(|t| elapsed() >= t) {
            break;
        }
    }
    if completed.is_empty() {
        // Stopped inside the first iteration: the allowed moves in order.
        let time_ms = elapsed();
        completed = root
            .iter()
            .map(|&m| SearchResult {
                best_move: Some(m),
                score: Score::Cp(0),
                pv: vec![m],
                depth: 0,
                seldepth: 0,
                nodes,
                nps: nodes.saturating_mul(1000) / time_ms.max(1),
                time_ms,
            })
            .collect();
    }
    completed.truncate(limits.multipv.max(1));
    completed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn negated_scores_keep_the_mate_distance() {
        assert_eq!(negate(Score::Cp(35)), Score::Cp(-35));
        assert_eq!(negate(Score::Mate(0)), Score::Mate(1));
        assert_eq!(negate(Score::Mate(-2)), Score::Mate(3));
        assert_eq!(negate(Score::Mate(1)), Score::Mate(-1));
        assert!(order(Score::Mate(1)) > order(Score::Mate(2)));
        assert!(order(Score::Mate(2)) > order(Score::Cp(30_000)));
        assert!(order(Score::Mate(-3)) > order(Score::Mate(-1)));
        assert!(order(Score::Cp(-30_000)) > order(Score::Mate(-9)));
    }

    #[test]
    fn a_restricted_search_plays_only_allowed_moves() {
        let pos = AnyPosition::new(&Variant::chess(), None).unwrap();
        let allowed: Vec<Move> = ["a2a3", "h2h4", "b1c3"].iter().map(|t| pos.parse_uci(t).unwrap()).collect();
        let limits = Limits { depth: Some(3), multipv: 2, ..Limits::default() };
        let job = Job { pos, history: Vec::new(), limits, root: allowed.clone() };
        let mut infos = Vec::new();
        let r = run(&mut Engine::new(1).unwrap(), &job, &AtomicBool::new(false), &mut |i| infos.push(i.clone()));
        assert_eq!(r.len(), 2);
        assert!(r.iter().all(|l| allowed.contains(&l.best_move.unwrap())));
        assert_eq!(r[0].depth, 3);
        assert!(infos.iter().all(|i| allowed.contains(&i.pv[0]) && i.multipv <= 2));
        assert_eq!(infos.last().unwrap().depth, 3);
    }

    #[test]
    fn a_restricted_search_finds_the_mate_among_its_moves() {
        // Scholar's mate: Qxf7# is one of the allowed moves.
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        let pos = AnyPosition::new(&Variant::chess(), Some(fen)).unwrap();
        let allowed: Vec<Move> = ["h5f7", "h5e5", "a2a3"].iter().map(|t| pos.parse_uci(t).unwrap()).collect();
        let limits = Limits { depth: Some(4), ..Limits::default() };
        let job = Job { pos, history: Vec::new(), limits, root: allowed };
        let r = run(&mut Engine::new(1).unwrap(), &job, &AtomicBool::new(false), &mut |_| {});
        assert_eq!(pos.uci(r[0].best_move.unwrap()), "h5f7");
        assert_eq!(r[0].score, Score::Mate(1));
    }
}
