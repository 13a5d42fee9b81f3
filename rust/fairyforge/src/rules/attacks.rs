//! Attack queries ("is this square attacked by that side", RULES.md §1 and
//! §3) over the tables of [`crate::rules::tables`]: riders by the slider
//! lookups of [`crate::geometry::Geometry`], Robotic hops, lame leaps and the
//! Gryphon's bent ride by their own small tables.

use crate::bitboard::BitSet;
use crate::piece::{Color, Kind};
use crate::rules::tables::Tables;
use crate::rules::variant::KindSet;

/// The piece placement an attack test reads.
pub trait Placement<B: BitSet> {
    /// Pieces of `kind` of `color`.
    fn pieces(&self, color: Color, kind: Kind) -> B;
    /// Union of the given kinds of `color`.
    fn pieces_of(&self, color: Color, set: KindSet) -> B;
    /// Pieces of the kind with index `ki` (< [`NKINDS`]) of `color`.
    #[inline(always)]
    fn pieces_idx(&self, color: Color, ki: usize) -> B {
        self.pieces(color, Kind::from_idx(ki))
    }
}

/// Call `f` with the index of every kind in `set`, lowest first, until it
/// returns true; true when it did.
#[inline(always)]
pub(crate) fn any_kind(set: KindSet, mut f: impl FnMut(usize) -> bool) -> bool {
    let mut m = set.0;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        if f(i) {
            return true;
        }
    }
    false
}

impl<B: BitSet> Tables<B> {
    /// The squares from which a Robotic orthogonal (or, with `diag`,
    /// diagonal) rider attacks `sq` (§3): it also hops onto `sq` over its
    /// neighbour on the line, so the hopper is the first piece beyond that
    /// neighbour. Looking from `sq` with the neighbours lifted finds the
    /// hoppers and the riders that see `sq` from afar; a rider on a
    /// neighbouring square sees it too.
    #[inline(always)]
    pub(crate) fn robotic_sources(&self, sq: usize, occ: B, diag: bool) -> B {
        if diag {
            let ring = self.diag_ring[sq];
            self.geo.bishop_attacks(sq, occ & !ring) | ring
        } else {
            let ring = self.orth_ring[sq];
            self.geo.rook_attacks(sq, occ & !ring) | ring
        }
    }

    /// True when `by` attacks `sq` given occupancy `occ` (§1: a capturing
    /// move, ordinary or hop, to `sq` if it held an enemy piece).
    #[inline]
    pub fn is_attacked(&self, pos: &impl Placement<B>, sq: usize, by: Color, occ: B) -> bool {
        let s = &self.sets[by];
        let kt = &self.kinds[by];
        if any_kind(s.leapers, |i| !(kt[i].leap_capture_rev[sq] & pos.pieces_idx(by, i)).is_empty()) {
            return true;
        }
        let geo = &self.geo;
        let plain = pos.pieces_of(by, s.orth_plain);
        if !plain.is_empty() && !(geo.rook_attacks(sq, occ) & plain).is_empty() {
            return true;
        }
        let robotic = pos.pieces_of(by, s.robotic_orth);
        if !robotic.is_empty() && !(self.robotic_sources(sq, occ, false) & robotic).is_empty() {
            return true;
        }
        let plain = pos.pieces_of(by, s.diag_plain);
        if !plain.is_empty() && !(geo.bishop_attacks(sq, occ) & plain).is_empty() {
            return true;
        }
        let robotic = pos.pieces_of(by, s.robotic_diag);
        if !robotic.is_empty() && !(self.robotic_sources(sq, occ, true) & robotic).is_empty() {
            return true;
        }
        if s.irregular.0 == 0 {
            return false;
        }
        self.irregular_attack(pos, sq, by, occ)
    }

    /// Range-1 hops, lame leaps, bent rides and walked lines onto `sq`.
    #[inline(never)]
    fn irregular_attack(&self, pos: &impl Placement<B>, sq: usize, by: Color, occ: B) -> bool {
        let s = &self.sets[by];
        let kt = &self.kinds[by];
        // A range-1 hop lands two steps away: its screen is the midpoint.
        if any_kind(s.hop_leapers, |i| {
            (kt[i].hop_rev_mask[sq] & pos.pieces_idx(by, i)).squares().any(|o| occ.has((o + sq) / 2))
        }) {
            return true;
        }
        if any_kind(s.lame, |i| {
            let t = &kt[i];
            let bb = pos.pieces_idx(by, i);
            !(t.lame_rev_mask[sq] & bb).is_empty()
                && t.lame_rev[sq].iter().any(|&(from, leg)| bb.has(from as usize) && !occ.has(leg as usize))
        }) {
            return true;
        }
        let target = B::bit(sq);
        any_kind(s.walkers, |i| {
            let bb = pos.pieces_idx(by, i);
            if bb.is_empty() {
                return false;
            }
            match &kt[i].hop_dirs {
                // A hopper moving along `d` lands on `sq` over the piece just
                // before it: look back from `sq` past that hurdle.
                Some(dirs) => dirs.iter().any(|&d| {
                    let back = d ^ 1;
                    let h = self.geo.step[back][sq];
                    h != crate::geometry::NO_SQ
                        && occ.has(h as usize)
                        && self.geo.first_blocker(h as usize, back, occ).is_some_and(|g| bb.has(g))
                }),
                None => bb.squares().any(|g| !self.walk_targets(&kt[i], g, occ, B::EMPTY, target).is_empty()),
            }
        })
    }

    /// What a move of the other side must touch to end the attacks of `by`
    /// on `sq`: `(to, from)`, where a move ending on `to` captures an
    /// attacker or closes a line or a lame leg, and a move starting from
    /// `from` lifts a hop screen. A move doing neither leaves every attack
    /// in place. `None` when `by` has a walker (its paths are not
    /// gathered).
    pub fn breakers(&self, pos: &impl Placement<B>, sq: usize, by: Color, occ: B) -> Option<(B, B)> {
        let s = &self.sets[by];
        if !pos.pieces_of(by, s.walkers).is_empty() {
            return None;
        }
        let kt = &self.kinds[by];
        let geo = &self.geo;
        let (mut to, mut from) = (B::EMPTY, B::EMPTY);
        // Leapers and riders seeing `sq`, and Robotic riders seeing it over
        // one neighbouring screen: capture, block, or lift the screen (a
        // leaper has no line to block).
        let mut attackers = self.simple_attackers(pos, sq, by, occ);
        attackers |= pos.pieces_of(by, s.robotic_orth) & self.robotic_sources(sq, occ, false);
        attackers |= pos.pieces_of(by, s.robotic_diag) & self.robotic_sources(sq, occ, true);
        for a in attackers.squares() {
            let line = geo.between(sq, a);
            to |= line | B::bit(a);
            from |= line & occ;
        }
        any_kind(s.hop_leapers, |i| {
            for o in (kt[i].hop_rev_mask[sq] & pos.pieces_idx(by, i)).squares() {
                let screen = (o + sq) / 2;
                if occ.has(screen) {
                    to |= B::bit(o);
                    from |= B::bit(screen);
                }
            }
            false
        });
        any_kind(s.lame, |i| {
            let bb = pos.pieces_idx(by, i);
            if !(kt[i].lame_rev_mask[sq] & bb).is_empty() {
                for &(o, leg) in &kt[i].lame_rev[sq] {
                    if bb.has(o as usize) && !occ.has(leg as usize) {
                        to |= B::bit(o as usize) | B::bit(leg as usize);
                    }
                }
            }
            false
        });
        Some((to, from))
    }

    /// Pieces of `by` attacking `sq` by plain leaps and rides (the whole
    /// answer when `by` has no complex attackers on the board).
    #[inline(always)]
    pub fn simple_attackers(&self, pos: &impl Placement<B>, sq: usize, by: Color, occ: B) -> B {
        let s = &self.sets[by];
        let kt = &self.kinds[by];
        let mut att = B::EMPTY;
        any_kind(s.leapers, |i| {
            att |= kt[i].leap_capture_rev[sq] & pos.pieces_idx(by, i);
            false
        });
        let orth = pos.pieces_of(by, s.orth);
        if !orth.is_empty() {
            att |= self.geo.rook_attacks(sq, occ) & orth;
        }
        let diag = pos.pieces_of(by, s.diag);
        if !diag.is_empty() {
            att |= self.geo.bishop_attacks(sq, occ) & diag;
        }
        att
    }
}
