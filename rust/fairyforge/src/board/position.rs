//! Position state and making moves (copy-make): placement, side to move,
//! castling rights, en passant, clocks, the incremental Zobrist key, and the
//! variant hooks applied after a move (evolution §5.2/§6, promotion, shock
//! §4.3).

use crate::bitboard::BitSet;
use crate::geometry::NO_SQ;
use crate::moves::{Move, Special};
use crate::piece::{Color, Kind, Piece};
use crate::rules::attacks::Placement;
use crate::rules::psq::Psq;
use crate::rules::tables::Tables;
use crate::rules::terms::Weights;
use crate::rules::variant::KindSet;
use crate::zobrist;

/// Mailbox marker for an empty square.
pub const EMPTY: u8 = 255;

/// A position of a variant on a board that fits in `B`.
#[derive(Clone, Copy)]
pub struct Position<B: BitSet> {
    /// The variant's shared tables.
    pub tables: &'static Tables<B>,
    pub(crate) by_kind: B::ByKind,
    pub(crate) by_color: [B; 2],
    pub(crate) board: B::Bytes,
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    /// Square crossed by the last double step (en-passant target), or NO_SQ.
    pub(crate) ep: u8,
    /// Square of the piece that made that double step.
    pub(crate) ep_victim: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    /// Running material and piece-square sum ([`crate::rules::psq`]).
    pub(crate) psq: Psq,
    pub(crate) shocked: bool,
}

impl<B: BitSet> Placement<B> for Position<B> {
    #[inline(always)]
    fn pieces(&self, color: Color, kind: Kind) -> B {
        self.by_kind[kind.idx()] & self.by_color[color.idx()]
    }
    #[inline(always)]
    fn pieces_of(&self, color: Color, set: KindSet) -> B {
        let mut bb = B::EMPTY;
        crate::rules::attacks::any_kind(set, |i| {
            bb |= self.by_kind[i];
            false
        });
        bb & self.by_color[color.idx()]
    }
    #[inline(always)]
    fn pieces_idx(&self, color: Color, ki: usize) -> B {
        self.by_kind[ki] & self.by_color[color.idx()]
    }
}

impl<B: BitSet> Position<B> {
    /// An empty board of the variant with White to move.
    pub fn empty(tables: &'static Tables<B>) -> Position<B> {
        Position {
            tables,
            by_kind: B::by_kind(),
            by_color: [B::EMPTY; 2],
            board: B::bytes(EMPTY),
            turn: Color::White,
            castling: 0,
            ep: NO_SQ,
            ep_victim: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            psq: Psq::default(),
            shocked: false,
        }
    }

    /// The same position on other tables of the same rules (other
    /// evaluation weights), its material and piece-square sum recomputed.
    pub fn with_tables(&self, tables: &'static Tables<B>) -> Position<B> {
        let mut p = *self;
        p.tables = tables;
        p.psq = Psq::default();
        for sq in 0..tables.geo.size.squares() {
            if let Some(pc) = self.piece_at(sq) {
                p.psq.add(tables.psq.entry(pc.code(), sq));
            }
        }
        p
    }

    /// The same position under evaluation weights `w`: on its variant's
    /// tables with those weights (itself when they are already its own).
    pub fn with_weights(&self, w: &Weights) -> Position<B> {
        if *w == self.tables.psq.weights {
            return *self;
        }
        let mut v = self.tables.variant.clone();
        v.weights = Some(w.clone());
        self.with_tables(Tables::shared(&v))
    }

    /// Side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: usize) -> Option<Piece> {
        let c = self.board[sq];
        (c != EMPTY).then(|| Piece::from_code(c))
    }
    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// Squares of one side.
    #[inline(always)]
    pub fn side(&self, c: Color) -> B {
        self.by_color[c.idx()]
    }
    /// Royal pieces of a side.
    #[inline(always)]
    pub fn royals(&self, c: Color) -> B {
        self.pieces_of(c, self.tables.variant.royal[c])
    }
    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Castling rights bits.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    /// En-passant target square kept internally (set only when a capture
    /// onto it is pseudo-legal).
    pub fn ep_square(&self) -> Option<usize> {
        (self.ep != NO_SQ).then_some(self.ep as usize)
    }
    /// Halfmove clock (plies since the last capture or clock-resetting move).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// Fullmove number.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// True when the shock rule has ended the game (§4.3).
    #[inline(always)]
    pub fn is_shocked(&self) -> bool {
        self.shocked
    }
    /// True when the side to move has a royal piece attacked.
    pub fn is_check(&self) -> bool {
        let us = self.turn;
        let occ = self.occupied();
        self.royals(us).squares().any(|sq| self.tables.is_attacked(self, sq, us.flip(), occ))
    }
    /// True when `by` attacks `sq` in this position.
    pub fn is_attacked(&self, sq: usize, by: Color) -> bool {
        self.tables.is_attacked(self, sq, by, self.occupied())
    }

    /// True when `m` captures (its target is occupied, or en passant).
    #[inline(always)]
    pub fn is_capture(&self, m: Move) -> bool {
        m.special() == Special::EnPassant || self.board[m.to()] != EMPTY
    }

    /// The running material and piece-square sum.
    #[inline(always)]
    pub fn psq(&self) -> Psq {
        self.psq
    }

    /// Put a piece on an empty square, updating the key and the sum.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: usize, p: Piece) {
        let b = B::bit(sq);
        self.by_kind[p.kind.idx()] |= b;
        self.by_color[p.color.idx()] |= b;
        self.board[sq] = p.code();
        self.key ^= zobrist::piece(p.code(), sq);
        self.psq.add(self.tables.psq.entry(p.code(), sq));
    }

    /// Remove the piece on `sq` (which must be occupied), updating the key
    /// and the sum.
    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: usize) -> Piece {
        let p = Piece::from_code(self.board[sq]);
        let b = B::bit(sq);
        self.by_kind[p.kind.idx()] ^= b;
        self.by_color[p.color.idx()] ^= b;
        self.board[sq] = EMPTY;
        self.key ^= zobrist::piece(p.code(), sq);
        self.psq.sub(self.tables.psq.entry(p.code(), sq));
        p
    }

    /// Set castling rights and en passant, keeping the key in step.
    pub(crate) fn set_state(&mut self, castling: u8, ep: u8, ep_victim: u8) {
        self.key ^= zobrist::castling(self.castling) ^ zobrist::ep(self.ep);
        self.castling = castling;
        self.ep = ep;
        self.ep_victim = ep_victim;
        self.key ^= zobrist::castling(self.castling) ^ zobrist::ep(self.ep);
    }

    /// Recompute derived state (shock flag) after setting up a position.
    pub(crate) fn refresh(&mut self) {
        self.shocked = self.shock_pair();
    }

    /// True when the shock side has a piece on the left file and one on the
    /// right file at most one rank apart (§4.3), by shifting file masks.
    #[inline(always)]
    fn shock_pair(&self) -> bool {
        let Some((side, left, right)) = self.tables.shock_files else { return false };
        let ours = self.by_color[side.idx()];
        let l = ours & left;
        let r = ours & right;
        if l.is_empty() || r.is_empty() {
            return false;
        }
        let files = self.tables.geo.size.files as u32;
        let shift = self.tables.variant.shock.map_or(1, |s| (s.right_file - s.left_file) as u32);
        let spread = r | (r << files) | (r >> files);
        !((spread >> shift) & l).is_empty()
    }

    /// The rook's origin and destination for a castling king move of the
    /// side to move, read from the variant's castling data.
    pub fn castle_rook_squares(&self, king_to: usize) -> (usize, usize) {
        match self.tables.castle_paths[self.turn].iter().find(|p| p.king_to == king_to) {
            Some(p) => (p.rook, p.rook_to),
            None => (king_to, king_to),
        }
    }

    /// Play a move assumed legal (copy-make callers keep the old value).
    pub fn make(&mut self, m: Move) {
        let t = self.tables;
        let v = &t.variant;
        let us = self.turn;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let mover = self.remove(from);
        let mut halfmove = self.halfmove.saturating_add(1);
        let capture_sq = if m.special() == Special::EnPassant { self.ep_victim as usize } else { to };
        if self.board[capture_sq] != EMPTY {
            self.remove(capture_sq);
            halfmove = 0;
        }
        if v.clock_resetters.has(mover.kind) {
            halfmove = 0;
        }
        let kind = m.promotion().unwrap_or(v.evolve[mover.kind.idx()]);
        self.put(to, Piece { color: us, kind });
        if m.special() == Special::Castle {
            let (rf, rt) = self.castle_rook_squares(to);
            let rook = self.remove(rf);
            self.put(rt, rook);
        }
        let mut castling = self.castling;
        if castling != 0 {
            castling &= t.castle_keep[from] & t.castle_keep[to];
        }
        let (mut ep, mut ep_victim) = (NO_SQ, NO_SQ);
        if m.special() == Special::DoubleStep {
            let crossed = (from + to) / 2;
            // Keep the target only when an enemy could take onto it.
            let kt = &t.kinds[them];
            let takers = t.kind_list[them]
                .iter()
                .filter(|k| kt[k.idx()].ep_taker)
                .any(|k| !(kt[k.idx()].leap_capture_rev[crossed] & self.pieces(them, *k)).is_empty());
            if takers {
                ep = crossed as u8;
                ep_victim = to as u8;
            }
        }
        if castling != self.castling || ep != self.ep || ep_victim != self.ep_victim {
            self.set_state(castling, ep, ep_victim);
        }
        self.halfmove = halfmove;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.key ^= zobrist::side();
        self.shocked = self.shock_pair();
        if ep != NO_SQ && !self.ep_capture_legal() {
            // The square is kept (and hashed) only when the capture is legal,
            // so the key agrees with the FEN, which shows only legal ones.
            self.set_state(castling, NO_SQ, NO_SQ);
        }
    }

    /// True when the side to move has a legal en-passant capture onto the
    /// kept en-passant square (false in a shocked position: it is over).
    pub(crate) fn ep_capture_legal(&self) -> bool {
        if self.ep == NO_SQ || self.shocked {
            return false;
        }
        let t = self.tables;
        let us = self.turn;
        let kt = &t.kinds[us];
        let ep = self.ep as usize;
        t.kind_list[us].iter().filter(|k| kt[k.idx()].ep_taker).any(|&k| {
            let royal_mover = t.royal_movers[us].has(k);
            (kt[k.idx()].leap_capture_rev[ep] & self.pieces(us, k))
                .squares()
                .any(|from| self.legal_after(Move::new(from, ep, None, Special::EnPassant), royal_mover))
        })
    }

    /// Rule question: does a side with no legal move, not in check, lose
    /// (Burden's stalemate and extinction, §5.4) rather than draw?
    #[inline(always)]
    pub fn stalemate_loses(&self) -> bool {
        self.tables.variant.stalemate_loses()
    }

    /// Rule question: must a piece of kind `k` of side `c` promote on its
    /// last rank?
    #[inline(always)]
    pub fn promotes(&self, c: Color, k: Kind) -> bool {
        self.tables.variant.promoters[c].has(k)
    }

    /// Rule question: the side the shock rule (§4.3) defeats, if the
    /// variant has the rule.
    #[inline(always)]
    pub fn shock_side(&self) -> Option<Color> {
        self.tables.variant.shock.map(|s| s.side)
    }

    /// Rule question: is kind `k` royal for side `c`?
    #[inline(always)]
    pub fn is_royal_kind(&self, c: Color, k: Kind) -> bool {
        self.tables.variant.royal[c].has(k)
    }

    /// Rule question: the kind a piece of kind `k` becomes when it moves
    /// without promoting (itself where pieces do not evolve).
    #[inline(always)]
    pub fn evolves_to(&self, k: Kind) -> Kind {
        self.tables.variant.evolve[k.idx()]
    }

    /// Rule question: may the side to move pass, as far as the search's
    /// null-move and reverse-futility pruning are concerned? Not where
    /// stalemate loses (zugzwang-prone, having to move can lose outright),
    /// nor with fewer than two pieces besides royals, pawns and promoters
    /// (three for the side the shock rule restricts).
    pub fn allows_null_move(&self) -> bool {
        if self.stalemate_loses() {
            return false;
        }
        let us = self.turn;
        let promoters = self.tables.variant.promoters[us];
        let pieces = self.side(us) & !self.royals(us) & !self.pieces_of(us, promoters) & !self.pieces(us, Kind::Pawn);
        let needed = if self.shock_side() == Some(us) { 3 } else { 2 };
        pieces.count() >= needed
    }

    /// The key after `m` as far as the pieces and the side to move go
    /// (castling and en-passant changes left out): cheap enough to prefetch
    /// the child's table entry before making the move.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mover = Piece::from_code(self.board[from]);
        let kind = m.promotion().unwrap_or(self.tables.variant.evolve[mover.kind.idx()]);
        let moved = Piece { color: mover.color, kind };
        let mut key =
            self.key ^ zobrist::side() ^ zobrist::piece(mover.code(), from) ^ zobrist::piece(moved.code(), to);
        if self.board[to] != EMPTY {
            key ^= zobrist::piece(self.board[to], to);
        }
        key
    }

    /// Play a move in place on a copy and return it.
    #[inline(always)]
    pub fn after(&self, m: Move) -> Position<B> {
        let mut p = *self;
        p.make(m);
        p
    }
}
