//! Static exchange evaluation, valuing each capturer as what it evolves or
//! promotes into.

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, Special};
use crate::piece::{Color, Kind};
use crate::search::eval::Evaluator;

/// The kind the move captures, if any.
#[inline(always)]
pub(super) fn victim<B: BitSet>(pos: &Position<B>, m: Move) -> Option<Kind> {
    let sq = if m.special() == Special::EnPassant { pos.ep_victim as usize } else { m.to() };
    if sq == NO_SQ as usize {
        return None;
    }
    pos.piece_at(sq).filter(|p| p.color != pos.turn()).map(|p| p.kind)
}

/// Value of a piece for exchange evaluation: royals count as priceless, so
/// a royal never "captures into" a defended square.
#[inline(always)]
pub(super) fn see_value<B: BitSet>(pos: &Position<B>, eval: &Evaluator<B>, c: Color, k: Kind) -> i32 {
    if pos.is_royal_kind(c, k) {
        10_000
    } else {
        eval.value(k)
    }
}

/// What the mover gains in value by evolving (zero where pieces do not
/// evolve; negative for a Burden queen crowning into a king).
#[inline(always)]
pub(super) fn evolution_gain<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>) -> i32 {
    let Some(p) = pos.piece_at(m.from()) else { return 0 };
    let next = pos.evolves_to(p.kind);
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
pub(super) fn see_ge<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>, threshold: i32) -> bool {
    let us = pos.turn();
    let Some(mover) = pos.piece_at(m.from()) else { return 0 >= threshold };
    let gain = victim(pos, m).map_or(0, |k| see_value(pos, eval, us.flip(), k));
    if gain < threshold {
        return false;
    }
    let became = m.promotion().unwrap_or(pos.evolves_to(mover.kind));
    gain - see_value(pos, eval, us, became) >= threshold || see(pos, m, eval) >= threshold
}

/// Static exchange evaluation of a capture on its target square (the
/// swap algorithm), from the mover's side. Attackers are the plain leapers
/// and riders ([`crate::rules::tables::Tables::simple_attackers`]; hops, lame and
/// bent attackers are not seen), x-rays appear as pieces leave the board,
/// and each capturer is valued as what it evolves or promotes into.
pub(super) fn see<B: BitSet>(pos: &Position<B>, m: Move, eval: &Evaluator<B>) -> i32 {
    let t = pos.tables;
    let (from, to) = (m.from(), m.to());
    let us = pos.turn();
    let Some(mover) = pos.piece_at(from) else { return 0 };
    let mut occ = pos.occupied() ^ B::bit(from);
    if m.special() == Special::EnPassant && pos.ep_victim != NO_SQ {
        occ ^= B::bit(pos.ep_victim as usize);
    }
    let became = |c: Color, k: Kind, promo: Option<Kind>| {
        let k = promo.unwrap_or(pos.evolves_to(k));
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
            (pos.promotes(side, best_kind) && last_rank[side].has(to)).then(|| eval.best_promotion(side)).flatten();
        on_square = became(side, best_kind, promo);
        side = side.flip();
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}
