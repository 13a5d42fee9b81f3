//! Legal move generation for every variant from the piece data.
//!
//! Targets come from the tables of [`crate::rules::attacks`]: leap tables, slider
//! lookups, and for Robotic pieces (RULES.md §3) the hops, found set-wise
//! (one step beyond each first blocker of a rider, two steps over each
//! occupied screen of a range-1 line). Legality (§1: no move may leave a
//! royal piece attacked) is decided per node, by classifying the targets of
//! each piece into *sure* (legal, no test) and *test* (full test) sets:
//!
//! * no complex enemy attackers on the board (no hops, lame legs or bent
//!   riders): check and pin masks make every non-royal move legal by
//!   construction (with several royals, the check masks of all checked
//!   royals intersect, and a piece pinned to any royal is tested). A royal
//!   that stays royal only needs its destination tested, with itself lifted
//!   off the board, when it is the only royal (against any attackers) or,
//!   not in check, shields no other royal: Black's two Cores, Burden's many
//!   kings;
//! * against complex attackers, when not in check, a non-royal move is
//!   accepted without a test unless its origin is a *from-danger* square or
//!   its destination a *to-danger* square. Taking a piece off a square can
//!   open a rider line (the only blocker between a royal and the nearest
//!   enemy rider on that line, or the second one when the first is the hop
//!   screen next to the royal), or a lame leg; putting a piece on a square
//!   can only create an attack as the screen of a range-1 hop (a Core,
//!   Turret or Automaton two squares from a royal). Gryphons make every
//!   orthogonal line from a royal from-danger;
//! * against complex attackers in check, only a move that touches a
//!   *breaker* of every attack on a checked royal is tested (it captures the
//!   attacker, or lands on its line or lame leg, or lifts a hop screen): any
//!   other non-royal move leaves the check in place.
//!
//! The full test builds the occupancy after the move, lifts the captured
//! piece and tests every royal square after the move (no copy of the
//! position is made). Debug builds check every classification against
//! copy-make ([`Position::after`] and an attack test).
//!
//! Moves go to a sink: a [`MoveList`], or a counter for perft's last ply
//! that adds a piece's sure targets by popcount and counts kinds that move
//! by plain leaps (pawns, knights, Turrets, Automata) set-wise, one shift
//! per line for all their pieces, when the node masks alone classify them;
//! listing, those kinds emit their moves the same way.
//!
//! Whether a move gives check is answered without making it: on a view of
//! the placement after the move ([`Position::gives_check`]), or, for a
//! side without bent riders, from per-node check squares and
//! discovered-check blockers (`Position::checks`; moves that could change a
//! Robotic line, a lame leg or a hop screen there get the full test).

use crate::bitboard::BitSet;
use crate::board::captures::Shape;
use crate::board::position::{Position, EMPTY};
use crate::geometry::{dir_is_positive, NO_SQ};
use crate::moves::{Move, MoveList, Special};
use crate::piece::{Color, Kind, Piece};
use crate::rules::attacks::Placement;
use crate::rules::tables::shift;
use crate::rules::variant::KindSet;

/// A position's placement with some enemy pieces lifted (a captured piece),
/// for attack tests of the position after a move without making it.
struct Without<'a, B: BitSet> {
    pos: &'a Position<B>,
    keep: B,
}

impl<B: BitSet> Placement<B> for Without<'_, B> {
    #[inline(always)]
    fn pieces(&self, color: Color, kind: Kind) -> B {
        self.pos.pieces(color, kind) & self.keep
    }
    #[inline(always)]
    fn pieces_of(&self, color: Color, set: KindSet) -> B {
        self.pos.pieces_of(color, set) & self.keep
    }
    #[inline(always)]
    fn pieces_idx(&self, color: Color, ki: usize) -> B {
        self.pos.pieces_idx(color, ki) & self.keep
    }
}

/// A position's placement after a plain move, without making it: the mover
/// lifted from its origin and standing on its destination as `kind` (after
/// evolution or promotion), a captured piece lifted.
struct Moved<'a, B: BitSet> {
    pos: &'a Position<B>,
    lift: B,
    to: B,
    us: Color,
    kind: usize,
}

impl<B: BitSet> Placement<B> for Moved<'_, B> {
    #[inline(always)]
    fn pieces(&self, color: Color, kind: Kind) -> B {
        self.pieces_idx(color, kind.idx())
    }
    #[inline(always)]
    fn pieces_of(&self, color: Color, set: KindSet) -> B {
        let bb = self.pos.pieces_of(color, set) & !self.lift;
        if color == self.us && set.0 >> self.kind & 1 != 0 {
            bb | self.to
        } else {
            bb
        }
    }
    #[inline(always)]
    fn pieces_idx(&self, color: Color, ki: usize) -> B {
        let bb = self.pos.pieces_idx(color, ki) & !self.lift;
        if color == self.us && ki == self.kind {
            bb | self.to
        } else {
            bb
        }
    }
}

/// Most enemy royals [`Position::checks`] handles.
pub(crate) const MAX_CHECK_ROYALS: usize = 2;

/// [`Position::checks`]: per kind the squares from which a piece of that
/// kind attacks an enemy royal, and per enemy royal our pieces that alone
/// stand between it and one of our riders.
pub(crate) struct Checks<B: BitSet> {
    direct: B::ByKind,
    blockers: [(usize, B); MAX_CHECK_ROYALS],
    royals: usize,
    /// Origins whose lifting may open a Robotic line or a lame leg onto a
    /// royal: moves from there get the full test.
    test_from: B,
    /// Empty range-1 hop screens next to a royal: moves there get the full
    /// test.
    test_to: B,
}

impl<B: BitSet> Checks<B> {
    /// True when the legal move `m` of `pos` (the position these were
    /// gathered for) gives check.
    #[inline(always)]
    pub(crate) fn gives_check(&self, pos: &Position<B>, m: Move) -> bool {
        let t = pos.tables;
        let (from, to) = (m.from(), m.to());
        if matches!(m.special(), Special::Castle | Special::EnPassant) {
            return pos.gives_check(m);
        }
        let mover = Piece::from_code(pos.board[from]).kind;
        let kind = m.promotion().unwrap_or(t.variant.evolve[mover.idx()]);
        let royals = &self.blockers[..self.royals];
        // A rider moving away from a royal along their line sees it through
        // its own origin: the squares above were found with it in place.
        let check = if self.test_from.has(from)
            || self.test_to.has(to)
            || royals.iter().any(|&(r, _)| t.geo.between(r, to).has(from))
        {
            pos.gives_check(m)
        } else {
            self.direct[kind.idx()].has(to) || royals.iter().any(|&(r, b)| b.has(from) && !t.geo.line(r, from).has(to))
        };
        debug_assert_eq!(check, pos.after(m).is_check(), "{m:?} in {}", pos.fen());
        check
    }
}

/// Where generated moves go: a [`MoveList`], or a counter for perft's last
/// ply (bulk counting: a set of legal targets is counted by popcount).
pub(crate) trait Sink<B: BitSet> {
    /// True when the sink only counts (moves may be counted set-wise).
    const BULK: bool;
    /// `n` moves, when [`Sink::BULK`].
    fn add(&mut self, n: usize);
    /// One move.
    fn push(&mut self, m: Move);
    /// A plain move from `from` to every square of `set`.
    fn push_set(&mut self, from: usize, set: B);
    /// True when generation may stop (checked after each kind).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

impl<B: BitSet> Sink<B> for MoveList {
    const BULK: bool = false;
    fn add(&mut self, _: usize) {
        unreachable!("a move list is not a counter")
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline(always)]
    fn push_set(&mut self, from: usize, set: B) {
        for to in set.squares() {
            MoveList::push(self, Move::new(from, to, None, Special::Normal));
        }
    }
}

/// A [`Sink`] that only counts.
#[derive(Default)]
pub(crate) struct Counter(pub usize);

/// A counting [`Sink`] that stops at the first kind with a legal move.
struct AnyMove(Counter);

impl<B: BitSet> Sink<B> for AnyMove {
    const BULK: bool = true;
    #[inline(always)]
    fn add(&mut self, n: usize) {
        Sink::<B>::add(&mut self.0, n);
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Sink::<B>::push(&mut self.0, m);
    }
    #[inline(always)]
    fn push_set(&mut self, from: usize, set: B) {
        self.0.push_set(from, set);
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0 .0 > 0
    }
}

impl<B: BitSet> Sink<B> for Counter {
    const BULK: bool = true;
    #[inline(always)]
    fn add(&mut self, n: usize) {
        self.0 += n;
    }
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_set(&mut self, _: usize, set: B) {
        self.0 += set.count() as usize;
    }
}

struct Node<B: BitSet> {
    us: Color,
    them: Color,
    occ: B,
    theirs: B,
    in_check: bool,
    /// No complex enemy attackers: non-royal moves are legal exactly inside
    /// `check_mask` (pinned pieces are tested or, with one royal, kept on
    /// the pin line).
    masked: bool,
    /// Exactly one royal.
    single: bool,
    royal_sq: usize,
    check_mask: B,
    pinned: B,
    /// Against complex attackers, not in check: origins that may open an
    /// attack.
    from_danger: B,
    /// Against complex attackers: destinations that may close a hop screen.
    to_danger: B,
    /// For the targets of an ordinary piece (not royal, not in `special`):
    /// those legal without a test...
    sure: B,
    /// ...and those that need the full test.
    test: B,
    /// Pieces whose targets are classified one by one: pinned pieces,
    /// from-danger origins, or (in check against complex attackers) the
    /// hop screens whose lifting may end the check.
    special: B,
}

impl<B: BitSet> Position<B> {
    /// All legal moves, appended to `out`.
    pub fn legal_moves(&self, out: &mut MoveList) {
        self.generate(out, self.tables.geo.all, None);
    }

    /// All legal moves, sent to `out`; `in_check` is whether the side to
    /// move is in check, which the search knows already.
    #[inline(always)]
    pub(crate) fn legal_moves_to<S: Sink<B>>(&self, out: &mut S, in_check: bool) {
        self.generate(out, self.tables.geo.all, Some(in_check));
    }

    /// Number of legal moves (bulk counting, no move list is built).
    pub fn count_legal(&self) -> usize {
        let mut n = Counter(0);
        self.generate(&mut n, self.tables.geo.all, None);
        n.0
    }

    /// True when the side to move has a legal move (generation stops at the
    /// first piece kind that has one).
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnyMove(Counter(0));
        self.generate(&mut any, self.tables.geo.all, None);
        Sink::<B>::done(&any)
    }

    /// When the side to move is not in check: a cheap sufficient test for a
    /// legal move, true when a piece of a plain-leaping kind that never
    /// becomes royal, standing off every line through the side's royals
    /// (so unpinned), can step to an empty square, and the opponent has no
    /// complex attackers (whose attacks such a step could open). False
    /// means "not shown", not "no move".
    pub(crate) fn has_free_leap(&self) -> bool {
        let t = self.tables;
        let us = self.turn;
        let them = us.flip();
        if self.shocked || !self.pieces_of(them, t.sets[them].complex).is_empty() {
            return false;
        }
        let occ = self.occupied();
        let empty = !occ & t.geo.all;
        let lines = self
            .royals(us)
            .squares()
            .fold(B::EMPTY, |l, r| l | t.geo.rook_attacks(r, B::EMPTY) | t.geo.bishop_attacks(r, B::EMPTY));
        t.kind_list[us].iter().any(|&k| {
            let kd = &t.kinds[us][k.idx()];
            let bb = self.pieces(us, k) & !lines;
            if !kd.leaps_only || bb.is_empty() || t.royal_movers[us].has(k) {
                return false;
            }
            let mut found = false;
            kd.leap_targets(bb, occ, empty, B::EMPTY, |targets, _| found |= !targets.is_empty());
            debug_assert!(!found || self.is_check() || self.has_legal_move(), "{}", self.fen());
            found
        })
    }

    /// The legal moves of the pieces on `origins` (`in_check`: whether the
    /// side to move is in check, when known).
    #[inline(always)]
    fn generate<S: Sink<B>>(&self, out: &mut S, origins: B, in_check: Option<bool>) {
        if self.shocked {
            return;
        }
        let node = &self.node(in_check);
        let t = self.tables;
        let us = node.us;
        let kt = &t.kinds[us];
        for &k in &t.kind_list[us] {
            let bb = self.pieces(us, k) & origins;
            if bb.is_empty() {
                continue;
            }
            let kd = &kt[k.idx()];
            // Counting only, a kind that moves by plain leaps (and hops) is
            // counted set-wise when all its targets are classified by the
            // node masks alone (no royal, no special piece, nothing to test,
            // no en passant).
            let setwise = kd.leaps_only
                && bb.count() >= kd.bulk_min
                && node.test.is_empty()
                && (bb & node.special).is_empty()
                && !t.royal_movers[us].has(k)
                && !(kd.ep_taker && self.ep != NO_SQ);
            if S::BULK && setwise {
                let n = self.bulk_count(node, k, bb);
                #[cfg(debug_assertions)]
                {
                    let mut c = Counter(0);
                    self.kind_moves::<Counter, true>(&mut c, node, k, bb);
                    debug_assert_eq!(n, c.0, "bulk count of {k:?} in {}", self.fen());
                }
                out.add(n);
            } else if setwise {
                // Listing, the same kinds emit their moves line by line.
                self.leap_moves(out, node, k, bb);
                #[cfg(debug_assertions)]
                {
                    let (mut a, mut b) = (MoveList::new(), MoveList::new());
                    self.leap_moves(&mut a, node, k, bb);
                    self.kind_moves::<MoveList, true>(&mut b, node, k, bb);
                    let (mut a, mut b) = (a.to_vec(), b.to_vec());
                    a.sort_by_key(|m| m.0);
                    b.sort_by_key(|m| m.0);
                    debug_assert_eq!(a, b, "set-wise moves of {k:?} in {}", self.fen());
                }
            } else if kd.robotic || kd.walker || kd.lame_any {
                // Two copies of the square loop: the plain one for kinds
                // without hops, bent rides or lame leaps (all of FIDE chess)
                // skips them.
                self.kind_moves::<S, true>(out, node, k, bb);
            } else {
                self.kind_moves::<S, false>(out, node, k, bb);
            }
            if out.done() {
                return;
            }
        }
        if self.castling != 0 && !node.in_check {
            self.castling_moves(out, node, origins);
        }
    }

    /// The number of moves of the pieces `bb` of kind `k`, a kind that
    /// moves by plain leaps (and Robotic hops), counted with one shift per
    /// line for all of them; the targets are legal inside `node.sure`.
    #[inline(always)]
    fn bulk_count(&self, node: &Node<B>, k: Kind, bb: B) -> usize {
        let t = self.tables;
        let v = &t.variant;
        let us = node.us;
        let kd = &t.kinds[us][k.idx()];
        let empty = !node.occ & t.geo.all;
        let quiet_ok = empty & node.sure;
        let capture_ok = node.theirs & node.sure;
        // A promotion counts once per choice.
        let (last, extra) = if v.promoters[us].has(k) {
            (t.last_rank[us], v.promotion_choices[us].len().saturating_sub(1))
        } else {
            (B::EMPTY, 0)
        };
        let count = |targets: B| {
            let promoting = targets & last;
            targets.count() as usize + if promoting.is_empty() { 0 } else { extra * promoting.count() as usize }
        };
        let mut n = 0;
        kd.leap_targets(bb, node.occ, quiet_ok, capture_ok, |targets, _| n += count(targets));
        if kd.double_step {
            let step = t.geo.size.files as i32 * kd.forward as i32;
            let s1 = shift(bb & t.double_rank[us], step) & empty;
            n += count(shift(s1, step) & empty & node.sure);
        }
        n
    }

    /// The moves of the pieces `bb` of kind `k` under the conditions of
    /// [`Position::bulk_count`], emitted with one shift per line for all of
    /// them (pawns: pushes, captures and double steps as whole sets).
    #[inline(always)]
    fn leap_moves<S: Sink<B>>(&self, out: &mut S, node: &Node<B>, k: Kind, bb: B) {
        let t = self.tables;
        let us = node.us;
        let kd = &t.kinds[us][k.idx()];
        let empty = !node.occ & t.geo.all;
        let quiet_ok = empty & node.sure;
        let capture_ok = node.theirs & node.sure;
        let last = if t.variant.promoters[us].has(k) { t.last_rank[us] } else { B::EMPTY };
        let mut emit = |targets: B, back: i32| {
            for to in targets.squares() {
                let from = (to as i32 - back) as usize;
                if last.has(to) {
                    self.push_promotions(out, us, from, to, Special::Normal);
                } else {
                    out.push(Move::new(from, to, None, Special::Normal));
                }
            }
        };
        kd.leap_targets(bb, node.occ, quiet_ok, capture_ok, &mut emit);
        if kd.double_step {
            let step = t.geo.size.files as i32 * kd.forward as i32;
            let s1 = shift(bb & t.double_rank[us], step) & empty;
            for to in (shift(s1, step) & empty & node.sure).squares() {
                out.push(Move::new((to as i32 - 2 * step) as usize, to, None, Special::DoubleStep));
            }
        }
    }

    /// The moves of every piece of kind `k` (on `bb`) of the side to move.
    #[inline(always)]
    fn kind_moves<S: Sink<B>, const FANCY: bool>(&self, out: &mut S, node: &Node<B>, k: Kind, bb: B) {
        let t = self.tables;
        let v = &t.variant;
        let us = node.us;
        let kt = &t.kinds[us];
        let empty = !node.occ & t.geo.all;
        let kd = &kt[k.idx()];
        let royal_mover = t.royal_movers[us].has(k);
        let promotes = v.promoters[us].has(k);
        let shape = Shape::of::<B, FANCY>(kd);
        let ep = kd.ep_taker && self.ep != NO_SQ;
        let double = if kd.double_step { t.double_rank[us] } else { B::EMPTY };
        for from in bb.squares() {
            let targets = shape.targets::<B, FANCY>(t, kd, from, node.occ, empty, node.theirs);
            let (sure, test) = self.classify(node, from, k, royal_mover, targets);
            #[cfg(debug_assertions)]
            for to in (targets & !test).squares() {
                let m = Move::new(from, to, None, Special::Normal);
                debug_assert_eq!(sure.has(to), self.legal_child(&self.after(m), m), "{m:?} in {}", self.fen());
            }
            self.emit(out, node, from, sure, test, promotes, royal_mover);
            if double.has(from) {
                let step = t.geo.size.files as isize * kd.forward as isize;
                let s1 = (from as isize + step) as usize;
                let s2 = (s1 as isize + step) as usize;
                if empty.has(s1) && empty.has(s2) {
                    let m = Move::new(from, s2, None, Special::DoubleStep);
                    let (sure, test) = self.classify(node, from, k, royal_mover, B::bit(s2));
                    let ok = !sure.is_empty() || (!test.is_empty() && self.legal_after(m, royal_mover));
                    debug_assert_eq!(ok, self.legal_child(&self.after(m), m));
                    if ok {
                        out.push(m);
                    }
                }
            }
            if ep && kd.leap_capture[from].has(self.ep as usize) {
                let m = Move::new(from, self.ep as usize, None, Special::EnPassant);
                if self.legal_after(m, royal_mover) {
                    out.push(m);
                }
            }
        }
    }

    /// The masks of the node; `in_check`, when known, spares the attack
    /// tests of a royal that is not in check.
    fn node(&self, in_check: Option<bool>) -> Node<B> {
        debug_assert!(in_check.is_none_or(|c| c == self.is_check()), "{}", self.fen());
        let t = self.tables;
        let us = self.turn;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.side(us);
        let theirs = self.side(them);
        let royals = self.royals(us);
        let sets = &t.sets[them];
        let complex = !self.pieces_of(them, sets.complex).is_empty();
        let mut node = Node {
            us,
            them,
            occ,
            theirs,
            in_check: false,
            masked: false,
            single: false,
            royal_sq: 0,
            check_mask: t.geo.all,
            pinned: B::EMPTY,
            from_danger: B::EMPTY,
            to_danger: B::EMPTY,
            sure: B::EMPTY,
            test: t.geo.all,
            special: B::EMPTY,
        };
        let orth = self.pieces_of(them, sets.orth);
        let diag = self.pieces_of(them, sets.diag);
        if royals.count() == 1 {
            node.single = true;
            node.royal_sq = royals.lsb();
        }
        if complex {
            // In check, only a move touching the breakers of every attack
            // on an attacked royal may be legal; those are tested.
            let (mut to, mut from) = (B::EMPTY, B::EMPTY);
            for r in royals.squares() {
                if in_check != Some(false) && t.is_attacked(self, r, them, occ) {
                    node.in_check = true;
                    let (bt, bf) = t.breakers(self, r, them, occ).unwrap_or((t.geo.all, B::EMPTY));
                    to |= bt;
                    from |= bf;
                }
            }
            if node.in_check {
                node.test = to;
                node.special = from;
            } else {
                self.danger(&mut node, royals, orth, diag);
                node.sure = t.geo.all & !node.to_danger;
                node.test = node.to_danger;
                node.special = node.from_danger;
            }
            return node;
        }
        node.masked = true;
        for r in royals.squares() {
            node.pinned |= self.lone_blockers(r, orth, diag, ours, occ);
            if in_check == Some(false) {
                continue;
            }
            let checkers = t.simple_attackers(self, r, them, occ);
            if checkers.is_empty() {
                continue;
            }
            node.in_check = true;
            if checkers.more_than_one() {
                node.check_mask = B::EMPTY;
            } else {
                let c = checkers.lsb();
                let block = if (orth | diag).has(c) { t.geo.between(r, c) } else { B::EMPTY };
                node.check_mask &= block | checkers;
            }
        }
        node.sure = node.check_mask;
        node.test = B::EMPTY;
        node.special = node.pinned;
        node
    }

    /// The pieces of `side` that alone stand between the royal on `r` and
    /// an orthogonal rider of `orth` or a diagonal one of `diag`: pinned
    /// pieces when the riders are the enemy's, discovered-check candidates
    /// when they are the side's own.
    #[inline(always)]
    fn lone_blockers(&self, r: usize, orth: B, diag: B, side: B, occ: B) -> B {
        let geo = &self.tables.geo;
        let snipers = (geo.rook_attacks(r, B::EMPTY) & orth) | (geo.bishop_attacks(r, B::EMPTY) & diag);
        let mut blockers = B::EMPTY;
        for s in snipers.squares() {
            let b = geo.between(r, s) & occ;
            if !b.is_empty() && !b.more_than_one() && !(b & side).is_empty() {
                blockers |= b;
            }
        }
        blockers
    }

    /// The squares whose lifting may let an orthogonal rider of `orth` or a
    /// diagonal one of `diag` attack the royal on `r`, by ride or Robotic
    /// hop: the only blocker between them, or, when the square next to the
    /// royal is occupied (a hop screen), the one other blocker.
    fn line_openers(&self, r: usize, orth: B, diag: B, occ: B) -> B {
        let geo = &self.tables.geo;
        let mut openers = B::EMPTY;
        for d in 0..8 {
            let riders = geo.rays[d][r] & if d < 4 { orth } else { diag };
            if riders.is_empty() {
                continue;
            }
            let h = if dir_is_positive(d) { riders.lsb() } else { riders.msb() };
            let b = geo.between(r, h) & occ;
            if !b.more_than_one() {
                openers |= b;
            } else {
                // The hop screen next to the royal and one more blocker:
                // lifting that one lets the rider hop onto the royal.
                let a = geo.step[d][r];
                let rest = b & !B::bit(a as usize);
                if b.has(a as usize) && !rest.more_than_one() {
                    openers |= rest;
                }
            }
        }
        openers
    }

    /// The danger squares around each royal against complex attackers (see
    /// the module comment), when not in check.
    fn danger(&self, node: &mut Node<B>, royals: B, orth: B, diag: B) {
        let t = self.tables;
        let geo = &t.geo;
        let them = node.them;
        let sets = &t.sets[them];
        let kt = &t.kinds[them];
        let occ = node.occ;
        let bent = !self.pieces_of(them, sets.walkers).is_empty();
        if !self.pieces_of(them, sets.general).is_empty() {
            // A walked line can be opened or closed by any move.
            node.from_danger = geo.all;
            node.to_danger = geo.all;
            return;
        }
        let hoppers = !self.pieces_of(them, sets.hoppers).is_empty();
        for r in royals.squares() {
            node.from_danger |= self.line_openers(r, orth, diag, occ);
            if hoppers {
                node.from_danger |= geo.rook_attacks(r, B::EMPTY) | geo.bishop_attacks(r, B::EMPTY);
                node.to_danger |= t.orth_ring[r] | t.diag_ring[r];
            }
            if bent {
                node.from_danger |= geo.rook_attacks(r, B::EMPTY);
            }
            for k in sets.hop_leapers.kinds() {
                let from = kt[k.idx()].hop_rev_mask[r] & self.pieces(them, k);
                for o in from.squares() {
                    node.to_danger |= B::bit((o + r) / 2);
                }
            }
            for k in sets.lame.kinds() {
                let kd = &kt[k.idx()];
                let bb = self.pieces(them, k);
                if !(kd.lame_rev_mask[r] & bb).is_empty() {
                    for &(o, leg) in &kd.lame_rev[r] {
                        if bb.has(o as usize) {
                            node.from_danger |= B::bit(leg as usize);
                        }
                    }
                }
            }
        }
    }

    /// Split the `targets` of the piece on `from` into those legal without
    /// a test and those that need the full test.
    #[inline(always)]
    fn classify(&self, node: &Node<B>, from: usize, k: Kind, royal_mover: bool, targets: B) -> (B, B) {
        if !royal_mover && !node.special.has(from) {
            return (targets & node.sure, targets & node.test);
        }
        self.classify_special(node, from, k, royal_mover, targets)
    }

    /// [`Position::classify`] for royal movers and special pieces.
    #[inline(never)]
    fn classify_special(&self, node: &Node<B>, from: usize, k: Kind, royal_mover: bool, targets: B) -> (B, B) {
        let t = self.tables;
        if royal_mover {
            // A royal that stays royal: only its destination needs a test
            // (with the royal lifted) when it is the only royal, or, against
            // simple attackers, when no other royal can be exposed (none in
            // check, and it shields none).
            let alone = node.single || (node.masked && !node.in_check && !node.pinned.has(from));
            if alone && t.variant.evolve[k.idx()] == k {
                // (A piece on the destination never attacks its own square,
                // so the captured piece need not be lifted.)
                let occ = node.occ ^ B::bit(from);
                let mut ok = B::EMPTY;
                for to in targets.squares() {
                    let attacked = if node.masked {
                        !t.simple_attackers(self, to, node.them, occ).is_empty()
                    } else {
                        t.is_attacked(self, to, node.them, occ)
                    };
                    if !attacked {
                        ok |= B::bit(to);
                    }
                }
                return (ok, B::EMPTY);
            }
            return (B::EMPTY, targets);
        }
        if node.masked && node.single {
            // Pinned to the only royal: it may move between the royal and
            // the pinner, capturing the pinner included. Not the rest of the
            // line: a Robotic rider can hop over its royal or its pinner and
            // land there, leaving the royal attacked.
            let (r, f) = (node.royal_sq, from);
            let dir = (0..8).find(|&d| t.geo.rays[d][r].has(f));
            let pin = match dir.and_then(|d| t.geo.first_blocker(f, d, node.occ)) {
                Some(pinner) => t.geo.between(r, pinner) | B::bit(pinner),
                None => B::EMPTY,
            };
            return (targets & node.check_mask & pin, B::EMPTY);
        }
        (B::EMPTY, targets)
    }

    /// Emit the moves from `from` to `sure` (legal) and to those squares of
    /// `test` that pass the full test, with promotions on the last rank.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn emit<S: Sink<B>>(
        &self,
        out: &mut S,
        node: &Node<B>,
        from: usize,
        mut sure: B,
        mut test: B,
        promotes: bool,
        royal_mover: bool,
    ) {
        if promotes {
            // Only the targets on the last rank promote (a Robotic hop can
            // reach it from two ranks away, next to ordinary targets).
            let last = self.tables.last_rank[node.us];
            for to in ((sure | test) & last).squares() {
                let m = Move::new(from, to, None, Special::Normal);
                if sure.has(to) || self.legal_after(m, royal_mover) {
                    self.push_promotions(out, node.us, from, to, Special::Normal);
                }
            }
            sure &= !last;
            test &= !last;
        }
        out.push_set(from, sure);
        for to in test.squares() {
            let m = Move::new(from, to, None, Special::Normal);
            if self.legal_after(m, royal_mover) {
                out.push(m);
            }
        }
    }

    fn push_promotions<S: Sink<B>>(&self, out: &mut S, us: Color, from: usize, to: usize, special: Special) {
        for &p in &self.tables.variant.promotion_choices[us] {
            out.push(Move::new(from, to, Some(p), special));
        }
    }

    /// Castling (§6) from the variant's data, compiled per board: the
    /// squares between king and rook and the destinations empty but for
    /// those two, no square the king crosses attacked; the destination is
    /// tested as any royal move.
    fn castling_moves<S: Sink<B>>(&self, out: &mut S, node: &Node<B>, origins: B) {
        let t = self.tables;
        for p in &t.castle_paths[node.us] {
            if self.castling & p.right == 0 || !origins.has(p.king) || !(p.empty & node.occ).is_empty() {
                continue;
            }
            if p.crossed.squares().any(|c| t.is_attacked(self, c, node.them, node.occ ^ B::bit(p.king) ^ B::bit(c))) {
                continue;
            }
            let m = Move::new(p.king, p.king_to, None, Special::Castle);
            if self.legal_after(m, true) {
                out.push(m);
            }
        }
    }

    /// Full legality test without making the move: the occupancy after it,
    /// the captured piece lifted, and an attack test on every royal square
    /// after it. A royal that stops being royal by moving must still land
    /// safely unless `royal_may_move_into_check` (§5.5).
    pub(crate) fn legal_after(&self, m: Move, royal_mover: bool) -> bool {
        let t = self.tables;
        let v = &t.variant;
        let us = self.turn;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let (fb, tb) = (B::bit(from), B::bit(to));
        let mut occ = (self.occupied() ^ fb) | tb;
        let mut gone = self.side(them) & tb;
        match m.special() {
            Special::EnPassant => {
                gone = B::bit(self.ep_victim as usize);
                occ ^= gone;
            }
            Special::Castle => {
                let (rf, rt) = self.castle_rook_squares(to);
                occ ^= B::bit(rf) | B::bit(rt);
            }
            _ => {}
        }
        let mut check = self.royals(us);
        if royal_mover {
            let kind = Piece::from_code(self.board[from]).kind;
            let royal_after = v.royal[us].has(m.promotion().unwrap_or(v.evolve[kind.idx()]));
            if check.has(from) {
                check ^= fb;
                if royal_after || !v.royal_may_move_into_check {
                    check |= tb;
                }
            } else if royal_after {
                check |= tb;
            }
        }
        let view = Without { pos: self, keep: !gone };
        let ok = !check.squares().any(|sq| t.is_attacked(&view, sq, them, occ));
        debug_assert_eq!(ok, self.legal_child(&self.after(m), m), "{:?} in {}", m, self.fen());
        ok
    }

    /// True when `child` (the position after the pseudo-legal move `m`) is
    /// legal: no royal of the mover attacked, and a royal that stopped being
    /// royal by moving did not land on an attacked square unless the variant
    /// allows it (RULES.md §1, §5.3, §5.5). With `child` made on a copy this
    /// is the reference that debug builds check [`Position::legal_after`]
    /// against.
    #[inline(always)]
    pub(crate) fn legal_child(&self, child: &Position<B>, m: Move) -> bool {
        let t = self.tables;
        let us = self.turn;
        let mut check = child.royals(us);
        if !t.variant.royal_may_move_into_check && self.royals(us).has(m.from()) {
            check |= B::bit(m.to());
        }
        let occ = child.occupied();
        !check.squares().any(|sq| t.is_attacked(child, sq, us.flip(), occ))
    }

    /// True when the move `m` (legal) gives check: an enemy royal attacked
    /// after it. Plain moves are tested on the placement after the move
    /// without making it; castling and en passant are made on a copy.
    pub fn gives_check(&self, m: Move) -> bool {
        if matches!(m.special(), Special::Castle | Special::EnPassant) {
            return self.after(m).is_check();
        }
        let t = self.tables;
        let us = self.turn;
        let (fb, tb) = (B::bit(m.from()), B::bit(m.to()));
        let mover = Piece::from_code(self.board[m.from()]).kind;
        let kind = m.promotion().unwrap_or(t.variant.evolve[mover.idx()]);
        let occ = (self.occupied() ^ fb) | tb;
        let view = Moved { pos: self, lift: fb | tb, to: tb, us, kind: kind.idx() };
        let check = (self.royals(us.flip()) & !tb).squares().any(|sq| t.is_attacked(&view, sq, us, occ));
        debug_assert_eq!(check, self.after(m).is_check(), "{m:?} in {}", self.fen());
        check
    }

    /// What a move of the side to move must do to give check, gathered once
    /// for a node (Stockfish's check squares and discovered-check
    /// blockers), or `None` when the side has a bent rider or the opponent
    /// more than [`MAX_CHECK_ROYALS`] royals.
    ///
    /// Robotic hops and lame leaps count among the check squares as the
    /// board stands; moves that could change them otherwise (lifting a
    /// piece that opens a Robotic line or a lame leg, filling a range-1 hop
    /// screen) are left to the full test.
    pub(crate) fn checks(&self) -> Option<Checks<B>> {
        let t = self.tables;
        let us = self.turn;
        let sets = &t.sets[us];
        let royals = self.royals(us.flip());
        if sets.walkers.0 != 0 || royals.count() as usize > MAX_CHECK_ROYALS {
            return None;
        }
        let occ = self.occupied();
        let ours = self.side(us);
        let orth = self.pieces_of(us, sets.orth_plain);
        let diag = self.pieces_of(us, sets.diag_plain);
        let mut c = Checks {
            direct: B::by_kind(),
            blockers: [(0, B::EMPTY); MAX_CHECK_ROYALS],
            royals: 0,
            test_from: B::EMPTY,
            test_to: B::EMPTY,
        };
        for r in royals.squares() {
            let (rook, bishop) = (t.geo.rook_attacks(r, occ), t.geo.bishop_attacks(r, occ));
            for &k in &t.kind_list[us] {
                let kd = &t.kinds[us][k.idx()];
                let mut d = kd.leap_capture_rev[r];
                if kd.orth {
                    d |= rook;
                }
                if kd.diag {
                    d |= bishop;
                }
                if sets.irregular.has(k) {
                    d |= self.irregular_check_squares(&mut c, r, k, occ);
                }
                c.direct[k.idx()] |= d;
            }
            c.blockers[c.royals] = (r, self.lone_blockers(r, orth, diag, ours, occ));
            if sets.robotic_orth.0 | sets.robotic_diag.0 != 0 {
                // A Robotic rider also hops onto `r` over a neighbouring
                // screen (by kind, not by the pieces on the board: a
                // promotion can bring the first one).
                let (orth_hop, diag_hop) = (t.robotic_sources(r, occ, false), t.robotic_sources(r, occ, true));
                for k in sets.robotic_orth.kinds() {
                    c.direct[k.idx()] |= orth_hop;
                }
                for k in sets.robotic_diag.kinds() {
                    c.direct[k.idx()] |= diag_hop;
                }
                let robotic = (self.pieces_of(us, sets.robotic_orth), self.pieces_of(us, sets.robotic_diag));
                c.test_from |= self.line_openers(r, robotic.0, robotic.1, occ);
            }
            c.royals += 1;
        }
        Some(c)
    }

    /// The squares from which a piece of kind `k` of the side to move
    /// attacks the enemy royal on `r` by a range-1 hop (over an occupied
    /// screen) or a lame leap (over an empty leg). A move that fills an
    /// empty screen in front of such a piece, or lifts a piece from a leg,
    /// is marked for the full test in `c`.
    fn irregular_check_squares(&self, c: &mut Checks<B>, r: usize, k: Kind, occ: B) -> B {
        let us = self.turn;
        let kd = &self.tables.kinds[us][k.idx()];
        let mut d = B::EMPTY;
        for o in kd.hop_rev_mask[r].squares() {
            let screen = (o + r) / 2;
            if occ.has(screen) {
                d |= B::bit(o);
            } else if self.pieces(us, k).has(o) {
                c.test_to |= B::bit(screen);
            }
        }
        for &(o, leg) in &kd.lame_rev[r] {
            if occ.has(leg as usize) {
                c.test_from |= B::bit(leg as usize);
            } else {
                d |= B::bit(o as usize);
            }
        }
        d
    }

    /// True when `m` is one of the legal moves.
    /// (Only the moves of the piece on its origin are generated.)
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_legal_in(m, None)
    }

    /// [`Position::is_legal`], told whether the side to move is in check
    /// when the caller knows.
    pub(crate) fn is_legal_in(&self, m: Move, in_check: Option<bool>) -> bool {
        if m.from() >= self.tables.geo.size.squares() || self.board[m.from()] == EMPTY {
            return false;
        }
        let mut list = MoveList::new();
        self.generate(&mut list, B::bit(m.from()), in_check);
        list.contains(&m)
    }
}
