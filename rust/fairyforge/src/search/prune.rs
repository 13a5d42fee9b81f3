//! Pruning and reduction rules of the main search: the late-move
//! reduction table, when passing (null move) is sound, and the check zones
//! that let quiet moves be pruned without a check test.

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, Special};
use crate::piece::Color;
use crate::rules::tables::Tables;
use crate::search::tt::Bound;

/// Late-move reductions indexed `depth * 64 + move count` (both capped at
/// 63), built once per process rather than for every search.
pub(super) fn lmr_table() -> &'static [i32] {
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
pub(super) fn may_check<B: BitSet>(zone: B, m: Move) -> bool {
    matches!(m.special(), Special::Castle | Special::EnPassant) || zone.has(m.from()) || zone.has(m.to())
}

/// [`Worker::check_zone`]: the lines through the royal square (rides,
/// Robotic hops and discovered attacks all run along them, and so does the
/// leg of a lame leap next to it) and the origins of every leaping, lame or
/// hopping attack onto it by any kind of the colour; every square when the
/// colour has a bent rider.
pub(super) fn check_zones<B: BitSet>(t: &Tables<B>) -> Vec<B> {
    let n = t.geo.size.squares();
    let mut zones = vec![B::EMPTY; 2 * n];
    for c in Color::BOTH {
        let kinds = &t.kind_list[c];
        let bent = kinds.iter().any(|k| t.kinds[c][k.idx()].walker);
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
pub(super) fn cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    }
}

/// The position with the side to move passing (no en passant afterwards).
pub(super) fn null_move<B: BitSet>(pos: &Position<B>) -> Position<B> {
    let mut p = *pos;
    p.set_state(p.castling, NO_SQ, NO_SQ);
    p.turn = p.turn.flip();
    p.key ^= crate::zobrist::side();
    p.halfmove = p.halfmove.saturating_add(1);
    p
}
