//! Legal move generation for every variant from the piece data.
//!
//! Pseudo-legal targets come from the attack tables; legality (RULES.md §1:
//! no move may leave a royal piece attacked) is decided per node:
//!
//! * one royal piece and no complex enemy attackers (no hops, lame legs or
//!   bent riders on the board): check and pin masks make every non-royal
//!   move legal by construction, and royal moves are tested against the
//!   attackers with the royal lifted off the board (the FIDE fast path);
//! * otherwise a move is accepted without a test when the side is not in
//!   check, the mover is not (and does not become) royal, and neither its
//!   origin nor its destination is a *danger* square: a pinned piece, or,
//!   against complex attackers, a square next to a royal or on a line from a
//!   royal that holds an enemy rider. Every other move is made on a copy and
//!   the royals are tested.

use crate::attacks::Placement;
use crate::bitboard::BitSet;
use crate::geometry::NO_SQ;
use crate::moves::{Move, MoveList, Special};
use crate::piece::{Color, Kind};
use crate::position::{Position, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, EMPTY};

/// How the moves of one piece are checked for legality.
#[derive(Clone, Copy)]
enum Policy<B> {
    /// Targets inside the mask are legal, the rest are not.
    Masked(B),
    /// The single royal of the fast path: test each target square.
    RoyalFast,
    /// Targets inside the mask are legal; the rest need a full test.
    Split(B),
    /// Every move needs a full test.
    TestAll,
}

struct Node<B: BitSet> {
    us: Color,
    them: Color,
    occ: B,
    theirs: B,
    in_check: bool,
    fast: bool,
    royal_sq: usize,
    check_mask: B,
    pinned: B,
    danger: B,
}

impl<B: BitSet> Position<B> {
    /// All legal moves, appended to `out`.
    pub fn legal_moves(&self, out: &mut MoveList) {
        if self.shocked {
            return;
        }
        let node = self.node();
        let t = self.tables;
        let v = &t.variant;
        let us = node.us;
        let kt = &t.kinds[us];
        let empty = !node.occ & t.geo.all;
        let targets_ok = empty | node.theirs;
        for &k in &t.kind_list[us] {
            let bb = self.pieces(us, k);
            if bb.is_empty() {
                continue;
            }
            let kd = &kt[k.idx()];
            let royal_mover = v.royal[us].has(k) || v.royal[us].has(v.evolve[k.idx()]);
            let promotes = v.promoters[us].has(k);
            for from in bb.squares() {
                let policy = self.policy(&node, from, k, royal_mover);
                let mut targets = (kd.leap_quiet[from] & empty) | (kd.leap_capture[from] & node.theirs);
                if kd.orth {
                    targets |= t.geo.rook_attacks(from, node.occ) & targets_ok;
                }
                if kd.diag {
                    targets |= t.geo.bishop_attacks(from, node.occ) & targets_ok;
                }
                if kd.bent {
                    targets |= t.bent_attacks(from, node.occ) & targets_ok;
                }
                self.emit_set(out, &node, from, targets, promotes, policy, royal_mover);
                if kd.robotic {
                    self.robotic_moves(out, &node, from, k, promotes, policy, royal_mover);
                }
                for &(to, leg, mode) in &kd.lame[from] {
                    let (to, leg) = (to as usize, leg as usize);
                    if !node.occ.has(leg)
                        && ((mode.moves() && empty.has(to)) || (mode.captures() && node.theirs.has(to)))
                    {
                        self.emit_one(out, &node, from, to, Special::Normal, promotes, policy, royal_mover);
                    }
                }
                if kd.double_step && t.double_rank[us].has(from) {
                    let files = t.geo.size.files as isize;
                    let step = files * kd.forward as isize;
                    let s1 = (from as isize + step) as usize;
                    let s2 = (s1 as isize + step) as usize;
                    if empty.has(s1) && empty.has(s2) {
                        self.emit_one(out, &node, from, s2, Special::DoubleStep, promotes, policy, royal_mover);
                    }
                }
                if kd.ep_taker && self.ep != NO_SQ && kd.leap_capture[from].has(self.ep as usize) {
                    let m = Move::new(from, self.ep as usize, None, Special::EnPassant);
                    if self.legal_after(m, royal_mover) {
                        out.push(m);
                    }
                }
            }
        }
        if v.castling[us] && !node.in_check {
            self.castling_moves(out, &node);
        }
    }

    fn node(&self) -> Node<B> {
        let t = self.tables;
        let us = self.turn;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.side(us);
        let theirs = self.side(them);
        let royals = self.royals(us);
        let complex = !self.pieces_of(them, t.sets[them].complex).is_empty();
        let mut node = Node {
            us,
            them,
            occ,
            theirs,
            in_check: false,
            fast: false,
            royal_sq: 0,
            check_mask: t.geo.all,
            pinned: B::EMPTY,
            danger: B::EMPTY,
        };
        let orth = self.pieces_of(them, t.sets[them].orth);
        let diag = self.pieces_of(them, t.sets[them].diag);
        if complex {
            node.in_check = royals.squares().any(|r| t.is_attacked(self, r, them, occ));
            let bent = !self.pieces_of(them, t.sets[them].bent).is_empty();
            for r in royals.squares() {
                node.danger |= t.geo.ring(r);
                for d in 0..8 {
                    let ray = t.geo.rays[d][r];
                    let riders = if d < 4 { orth } else { diag };
                    if !(ray & riders).is_empty() || (bent && d < 4) {
                        node.danger |= ray;
                    }
                }
            }
            return node;
        }
        for r in royals.squares() {
            let snipers = (t.geo.rook_attacks(r, B::EMPTY) & orth) | (t.geo.bishop_attacks(r, B::EMPTY) & diag);
            for s in snipers.squares() {
                let b = t.geo.between(r, s) & occ;
                if !b.is_empty() && !b.more_than_one() && !(b & ours).is_empty() {
                    node.pinned |= b;
                }
            }
        }
        if royals.count() == 1 {
            let r = royals.lsb();
            let checkers = t.simple_attackers(self, r, them, occ);
            node.fast = true;
            node.royal_sq = r;
            node.in_check = !checkers.is_empty();
            if checkers.more_than_one() {
                node.check_mask = B::EMPTY;
            } else if node.in_check {
                let c = checkers.lsb();
                let block = if (orth | diag).has(c) { t.geo.between(r, c) } else { B::EMPTY };
                node.check_mask = block | checkers;
            }
        } else {
            node.in_check = royals.squares().any(|r| !t.simple_attackers(self, r, them, occ).is_empty());
        }
        node
    }

    #[inline(always)]
    fn policy(&self, node: &Node<B>, from: usize, k: Kind, royal_mover: bool) -> Policy<B> {
        let t = self.tables;
        if royal_mover {
            return if node.fast && t.variant.evolve[k.idx()] == k { Policy::RoyalFast } else { Policy::TestAll };
        }
        if node.fast {
            let mut mask = node.check_mask;
            if node.pinned.has(from) {
                mask &= t.geo.line(node.royal_sq, from);
            }
            return Policy::Masked(mask);
        }
        if node.in_check || node.pinned.has(from) || node.danger.has(from) {
            Policy::TestAll
        } else {
            Policy::Split(!node.danger)
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn emit_set(
        &self,
        out: &mut MoveList,
        node: &Node<B>,
        from: usize,
        targets: B,
        promotes: bool,
        policy: Policy<B>,
        royal_mover: bool,
    ) {
        let (sure, test) = match policy {
            Policy::Masked(mask) => (targets & mask, B::EMPTY),
            Policy::Split(mask) => (targets & mask, targets & !mask),
            Policy::RoyalFast => {
                let t = self.tables;
                let occ = node.occ ^ B::bit(from);
                let mut ok = B::EMPTY;
                for to in targets.squares() {
                    if t.simple_attackers(self, to, node.them, occ).is_empty() {
                        ok |= B::bit(to);
                    }
                }
                (ok, B::EMPTY)
            }
            Policy::TestAll => (B::EMPTY, targets),
        };
        let last = self.tables.last_rank[node.us];
        if promotes && !((sure | test) & last).is_empty() {
            for to in (sure | test).squares() {
                let m = Move::new(from, to, None, Special::Normal);
                if sure.has(to) || self.legal_after(m, royal_mover) {
                    self.push_promotions(out, node.us, from, to, Special::Normal);
                }
            }
            return;
        }
        for to in sure.squares() {
            out.push(Move::new(from, to, None, Special::Normal));
        }
        for to in test.squares() {
            let m = Move::new(from, to, None, Special::Normal);
            if self.legal_after(m, royal_mover) {
                out.push(m);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn emit_one(
        &self,
        out: &mut MoveList,
        node: &Node<B>,
        from: usize,
        to: usize,
        special: Special,
        promotes: bool,
        policy: Policy<B>,
        royal_mover: bool,
    ) {
        let ok = match policy {
            Policy::Masked(mask) => mask.has(to),
            Policy::Split(mask) if mask.has(to) => true,
            _ => self.legal_after(Move::new(from, to, None, special), royal_mover),
        };
        if !ok {
            return;
        }
        if promotes && self.tables.last_rank[node.us].has(to) {
            self.push_promotions(out, node.us, from, to, special);
        } else {
            out.push(Move::new(from, to, None, special));
        }
    }

    fn push_promotions(&self, out: &mut MoveList, us: Color, from: usize, to: usize, special: Special) {
        for &p in &self.tables.variant.promotion_choices[us] {
            out.push(Move::new(from, to, Some(p), special));
        }
    }

    /// Robotic hops (§3): one square beyond the first occupied square of
    /// each line, quiet on lines that move, capturing on lines that capture.
    #[allow(clippy::too_many_arguments)]
    fn robotic_moves(
        &self,
        out: &mut MoveList,
        node: &Node<B>,
        from: usize,
        k: Kind,
        promotes: bool,
        policy: Policy<B>,
        royal_mover: bool,
    ) {
        let t = self.tables;
        let kd = &t.kinds[node.us][k.idx()];
        let mut land_on = |to: usize, moves: bool, captures: bool| {
            let ok = (moves && !node.occ.has(to)) || (captures && node.theirs.has(to));
            if ok {
                self.emit_one(out, node, from, to, Special::Normal, promotes, policy, royal_mover);
            }
        };
        for &(screen, land, mode) in &kd.hops[from] {
            if node.occ.has(screen as usize) {
                land_on(land as usize, mode.moves(), mode.captures());
            }
        }
        let dirs = match (kd.orth, kd.diag) {
            (true, true) => 0..8,
            (true, false) => 0..4,
            (false, true) => 4..8,
            (false, false) => 0..0,
        };
        for d in dirs {
            if let Some(b) = t.geo.first_blocker(from, d, node.occ) {
                let h = t.geo.step[d][b];
                if h != NO_SQ {
                    land_on(h as usize, true, true);
                }
            }
        }
    }

    fn castling_moves(&self, out: &mut MoveList, node: &Node<B>) {
        let t = self.tables;
        let size = t.geo.size;
        let (rank, ks, qs) = match node.us {
            Color::White => (0, CASTLE_WK, CASTLE_WQ),
            Color::Black => (size.ranks - 1, CASTLE_BK, CASTLE_BQ),
        };
        let king = size.square(4, rank);
        for (right, rook_file, cross_file, to_file) in [(ks, 7, 5, 6), (qs, 0, 3, 2)] {
            if self.castling & right == 0 {
                continue;
            }
            let rook = size.square(rook_file, rank);
            if !(t.geo.between(king, rook) & node.occ).is_empty() {
                continue;
            }
            let cross = size.square(cross_file, rank);
            let occ = node.occ ^ B::bit(king) ^ B::bit(cross);
            if t.is_attacked(self, cross, node.them, occ) {
                continue;
            }
            let m = Move::new(king, size.square(to_file, rank), None, Special::Castle);
            if self.legal_after(m, true) {
                out.push(m);
            }
        }
    }

    /// Full legality test: make the move on a copy and check that no royal
    /// of the mover is attacked; a royal that stops being royal by moving
    /// must still land safely unless `royal_may_move_into_check` (§5.5).
    pub(crate) fn legal_after(&self, m: Move, royal_mover: bool) -> bool {
        let t = self.tables;
        let us = self.turn;
        let them = us.flip();
        let p = self.after(m);
        let occ = p.occupied();
        let mut check = p.royals(us);
        if royal_mover && !t.variant.royal_may_move_into_check && self.royals(us).has(m.from()) {
            check |= B::bit(m.to());
        }
        !check.squares().any(|sq| t.is_attacked(&p, sq, them, occ))
    }

    /// True when `m` is one of the legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        if m.from() >= self.tables.geo.size.squares() || self.board[m.from()] == EMPTY {
            return false;
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.contains(&m)
    }

    /// Number of legal moves.
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }
}
