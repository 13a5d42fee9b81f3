//! The targets of a piece, one computation for move generation and for
//! quiescence ([`Shape::targets`]), and the captures and promotions of the
//! side to move that quiescence searches ([`noisy_moves`]).

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, Special};
use crate::piece::Kind;
use crate::rules::attacks::Placement;
use crate::rules::tables::{KindTables, Tables};

/// Pseudo-legal captures and promotions of the side to move (promotions to
/// `promo` only), read from the same piece tables as move generation:
/// plain leaps, rides, the Gryphon's bent ride, lame leaps, Robotic hops and
/// en passant. The caller tests legality with [`Position::legal_child`].
pub(crate) fn noisy_moves<B: BitSet>(pos: &Position<B>, promo: Option<Kind>, out: &mut impl FnMut(Move)) {
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
        if kd.robotic || kd.walker || kd.lame_any {
            piece_captures::<B, true>(pos, kd, bb, theirs, promo_ok, promotes, promo, out);
        } else {
            piece_captures::<B, false>(pos, kd, bb, theirs, promo_ok, promotes, promo, out);
        }
    }
}

/// The captures and promotions of the pieces `bb` of one kind, piece by
/// piece, from the same [`Shape::targets`] as move generation; `FANCY` when
/// the kind has Robotic hops, a bent ride or lame leaps (two copies of the
/// loop, so plain kinds skip those tests).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn piece_captures<B: BitSet, const FANCY: bool>(
    pos: &Position<B>,
    kd: &KindTables<B>,
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
    let shape = Shape::of::<B, FANCY>(kd);
    for from in bb.squares() {
        for to in shape.targets::<B, FANCY>(t, kd, from, occ, promo_ok, theirs).squares() {
            let p = if promotes && last.has(to) { promo } else { None };
            out(Move::new(from, to, p, Special::Normal));
        }
    }
}

/// How a kind moves, as flags read once per kind so that the square loops
/// of move generation and of [`noisy_moves`] test none of them per piece.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    orth: bool,
    diag: bool,
    /// Robotic riders: one step beyond each first blocker (§3).
    rider_hops: bool,
    /// Robotic range-1 lines: over an occupied screen, two steps (§3).
    hops: bool,
    /// The Gryphon's bent ride (§2.1) or lame leaps.
    bent_or_lame: bool,
}

impl Shape {
    /// The shape of a kind; without `FANCY` (a kind with no hops, bent ride
    /// or lame leap), the tests of those are compiled out.
    #[inline(always)]
    pub(crate) fn of<B: BitSet, const FANCY: bool>(kd: &KindTables<B>) -> Shape {
        let robotic = FANCY && kd.robotic;
        Shape {
            orth: kd.orth,
            diag: kd.diag,
            rider_hops: robotic && (kd.orth || kd.diag),
            hops: robotic && !(kd.orth || kd.diag),
            bent_or_lame: FANCY && (kd.walker || kd.lame_any),
        }
    }

    /// The targets of a piece on `from`: quiet moves onto `quiet_ok`,
    /// captures onto `capture_ok` (move generation passes the empty squares
    /// and the opponent's pieces; quiescence only the promotion squares and
    /// the opponent's pieces). Legality is the caller's.
    /// `FANCY` as given to [`Shape::of`], so that the tests a plain kind
    /// never needs are compiled out rather than branched over.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn targets<B: BitSet, const FANCY: bool>(
        self,
        t: &Tables<B>,
        kd: &KindTables<B>,
        from: usize,
        occ: B,
        quiet_ok: B,
        capture_ok: B,
    ) -> B {
        let any_ok = quiet_ok | capture_ok;
        let mut targets = (kd.leap_quiet[from] & quiet_ok) | (kd.leap_capture[from] & capture_ok);
        if self.orth || self.diag {
            let mut seen = B::EMPTY;
            if self.orth {
                seen |= t.geo.rook_attacks(from, occ);
            }
            if self.diag {
                seen |= t.geo.bishop_attacks(from, occ);
            }
            targets |= seen & any_ok;
            if FANCY && self.rider_hops {
                for b in (seen & occ).squares() {
                    let h = t.geo.beyond(from, b);
                    if h != NO_SQ {
                        targets |= B::bit(h as usize) & any_ok;
                    }
                }
            }
        }
        if FANCY && self.hops {
            let mut quiet = B::EMPTY;
            for sc in (kd.hop_move_screens[from] & occ).squares() {
                quiet |= B::bit(2 * sc - from);
            }
            let mut capture = B::EMPTY;
            for sc in (kd.hop_capture_screens[from] & occ).squares() {
                capture |= B::bit(2 * sc - from);
            }
            targets |= (quiet & quiet_ok) | (capture & capture_ok);
        }
        if FANCY && self.bent_or_lame && (kd.walker || !(kd.lame_reach[from] & any_ok).is_empty()) {
            targets |= bent_and_lame(t, kd, from, occ, quiet_ok, capture_ok);
        }
        targets
    }
}

/// Targets of the rarer movement shapes of one piece: the Gryphon's bent
/// ride (§2.1) and lame leaps (the Rover's horse moves).
#[inline(never)]
fn bent_and_lame<B: BitSet>(t: &Tables<B>, kd: &KindTables<B>, from: usize, occ: B, quiet_ok: B, capture_ok: B) -> B {
    let mut targets = B::EMPTY;
    if kd.walker {
        targets |= t.walk_targets(kd, from, occ, quiet_ok, capture_ok);
    }
    for &(to, leg, mode) in &kd.lame[from] {
        let (to, leg) = (to as usize, leg as usize);
        if !occ.has(leg) && ((mode.moves() && quiet_ok.has(to)) || (mode.captures() && capture_ok.has(to))) {
            targets |= B::bit(to);
        }
    }
    targets
}
