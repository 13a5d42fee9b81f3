//! The state every thread of one search shares: the table, the stop flag,
//! the clock and the node counts.

use crate::search::tt::TranspositionTable;
use crate::search::Limits;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

pub(super) fn nps(nodes: u64, start: Instant) -> u64 {
    let us = start.elapsed().as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / us
}

/// State shared by all search threads.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) stop: &'a AtomicBool,
    /// Set when a limit is reached or the main thread is done.
    pub(super) abort: AtomicBool,
    pub(super) start: Instant,
    pub(super) limits: &'a Limits,
    /// Node counts per thread, published every 1024 nodes.
    pub(super) nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// True when the search must stop now.
    pub(super) fn must_stop(&self) -> bool {
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
