//! Perft (RULES.md §1): leaf counts with bulk counting at the last ply,
//! divide at the root, and a multi-threaded root split on rayon. A shocked
//! position has no legal moves, so it is a leaf.

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::moves::{Move, MoveList};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft the engine takes: the recursion keeps a move list per
/// ply on the thread's stack, and this bound keeps it well inside every
/// stack it runs on (such a depth is far beyond what finishes anyway).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Perft was stopped through its cancellation flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl<B: BitSet> Position<B> {
    /// Number of leaf nodes at `depth` (single thread).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal() as u64;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter().map(|&m| self.after(m).perft(depth - 1)).sum()
    }

    fn perft_cancellable(&self, depth: u32, stop: &AtomicBool) -> Result<u64, Cancelled> {
        if depth <= 3 {
            return if stop.load(Ordering::Relaxed) { Err(Cancelled) } else { Ok(self.perft(depth)) };
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let mut n = 0;
        for &m in list.iter() {
            n += self.after(m).perft_cancellable(depth - 1, stop)?;
        }
        Ok(n)
    }

    /// Per-root-move counts at `depth` (depth >= 1), computed on `threads`
    /// worker threads (None: all cores), sorted by `name` of the move.
    /// Returns `Err(Cancelled)` when `stop` is raised.
    pub fn divide(&self, depth: u32, threads: Option<usize>, stop: &AtomicBool) -> Result<Vec<(Move, u64)>, Cancelled> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let moves: Vec<Move> = list.to_vec();
        let run = || -> Result<Vec<(Move, u64)>, Cancelled> {
            moves
                .par_iter()
                .map(|&m| Ok((m, self.after(m).perft_cancellable(depth.saturating_sub(1), stop)?)))
                .collect()
        };
        match threads {
            Some(1) => moves
                .iter()
                .map(|&m| Ok((m, self.after(m).perft_cancellable(depth.saturating_sub(1), stop)?)))
                .collect(),
            Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
                Ok(pool) => pool.install(run),
                Err(_) => run(),
            },
            None => run(),
        }
    }

    /// Perft at `depth` on `threads` threads (None: all cores), cancellable.
    pub fn perft_parallel(&self, depth: u32, threads: Option<usize>, stop: &AtomicBool) -> Result<u64, Cancelled> {
        if depth <= 1 {
            return Ok(self.perft(depth));
        }
        Ok(self.divide(depth, threads, stop)?.iter().map(|&(_, n)| n).sum())
    }
}
