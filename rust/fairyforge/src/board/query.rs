//! Questions and edits that scripting front ends ask of a position beyond
//! playing it (python-chess's vocabulary): which pieces attack a square,
//! the pseudo-legal moves, what a move is (hop, capture, evolution,
//! shock), null moves, positions set up by hand piece by piece with a list
//! of what is wrong with them, and mirrored or transformed copies.
//!
//! A position edited by hand may break the rules a FEN is checked against
//! (RULES.md §2.2): a side without its royal piece, a pawn on its first
//! rank, the side not to move in check. [`Position::problems`] names each
//! such problem. Edits keep the state the move generator relies on
//! consistent: a castling right whose king or rook has left its square is
//! dropped, and the en-passant square is cleared.

use crate::bitboard::BitSet;
use crate::board::game::{with_pos, AnyPosition, Board};
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, MoveList, Special};
use crate::piece::{ByColor, Color, Kind, Piece};
use crate::rules::attacks::Placement;
use crate::rules::castling;
use crate::rules::tables::Tables;
use crate::rules::variant::KindSet;

/// A placement with only the pieces on `keep`, every other piece still
/// occupying its square (for "does this one piece attack that square").
struct Only<'a, B: BitSet> {
    pos: &'a Position<B>,
    keep: B,
}

impl<B: BitSet> Placement<B> for Only<'_, B> {
    fn pieces(&self, color: Color, kind: Kind) -> B {
        self.pos.pieces(color, kind) & self.keep
    }
    fn pieces_of(&self, color: Color, set: KindSet) -> B {
        self.pos.pieces_of(color, set) & self.keep
    }
}

/// One problem of a position set up by hand: a python-chess status flag
/// name (`no_white_king`, `too_many_kings`, `pawns_on_backrank`,
/// `opposite_check`, `empty`) and a sentence saying what is wrong.
pub type Problem = (&'static str, String);

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl<B: BitSet> Position<B> {
    /// Pieces of `by` that attack `sq` (RULES.md §1: a capturing move,
    /// ordinary or hop, to `sq` if it held an enemy piece), pinned pieces
    /// included, as python-chess's `attackers`.
    pub fn attackers(&self, sq: usize, by: Color) -> B {
        let occ = self.occupied();
        let mut out = B::EMPTY;
        for s in self.side(by).squares() {
            let view = Only { pos: self, keep: B::bit(s) };
            if self.tables.is_attacked(&view, sq, by, occ) {
                out |= B::bit(s);
            }
        }
        out
    }

    /// Enemy pieces attacking a royal piece of the side to move.
    pub fn checkers(&self) -> B {
        let them = self.turn.flip();
        self.royals(self.turn).squares().fold(B::EMPTY, |acc, r| acc | self.attackers(r, them))
    }

    /// The pseudo-legal moves: every move of the side to move's pieces,
    /// whether or not it leaves a royal piece attacked (castling still only
    /// when legal, as python-chess). `ep` is the square a double step just
    /// crossed and the square of the piece that made it, when known (the
    /// position itself keeps it only when the capture is legal).
    pub fn pseudo_legal_moves(&self, ep: Option<(usize, usize)>) -> Vec<Move> {
        let mut free = self.tables.variant.clone();
        free.royal = ByColor([KindSet::EMPTY; 2]);
        let mut p = Position::empty(Tables::<B>::shared(&free));
        for sq in self.occupied().squares() {
            if let Some(piece) = self.piece_at(sq) {
                p.put(sq, piece);
            }
        }
        p.set_turn(self.turn);
        let (ep, victim) = ep.map_or((self.ep, self.ep_victim), |(e, v)| (e as u8, v as u8));
        let victim_ok = victim != NO_SQ && self.piece_at(victim as usize).is_some_and(|v| v.color != self.turn);
        p.set_state(0, if victim_ok { ep } else { NO_SQ }, if victim_ok { victim } else { NO_SQ });
        p.halfmove = self.halfmove;
        p.fullmove = self.fullmove;
        p.refresh();
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut moves = list.to_vec();
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        moves.extend(legal.iter().filter(|m| m.special() == Special::Castle));
        moves
    }

    /// True when `m` is a Robotic hop (RULES.md §3): a Robotic piece's
    /// move over the first occupied square of its line.
    pub fn is_hop(&self, m: Move) -> bool {
        let Some(p) = self.piece_at(m.from()) else { return false };
        if !self.tables.kinds[p.color][p.kind.idx()].robotic {
            return false;
        }
        let line = self.tables.geo.between(m.from(), m.to());
        !(line & self.occupied()).is_empty()
    }

    /// The piece that stands on the destination after `m`: the mover after
    /// its promotion or evolution (RULES.md §5.2).
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        let p = self.piece_at(m.from())?;
        Some(Piece { color: p.color, kind: m.promotion().unwrap_or(self.evolves_to(p.kind)) })
    }

    /// True when `m` resets the halfmove clock: a capture, or a move of one
    /// of the variant's clock-resetting kinds.
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m) || self.piece_at(m.from()).is_some_and(|p| self.tables.variant.clock_resetters.has(p.kind))
    }

    /// True when no position before `m` can occur again after it: it resets
    /// the clock, loses a castling right, gives up a legal en-passant
    /// capture, or changes the mover's kind where kinds never come back
    /// (evolution without a `cycle`).
    pub fn is_irreversible(&self, m: Move) -> bool {
        let after = self.after(m);
        let cycles = self.tables.variant.option("cycle").is_some_and(|c| c != "none");
        let evolves = !cycles && self.moved_piece(m).map(|p| p.kind) != self.piece_at(m.from()).map(|p| p.kind);
        self.is_zeroing(m) || after.castling != self.castling || self.ep != NO_SQ || evolves
    }

    /// The position after passing the move (python-chess's null move): the
    /// other side to move, no en-passant square, the clocks advanced.
    pub fn after_null(&self) -> Position<B> {
        let mut p = *self;
        p.set_state(p.castling, NO_SQ, NO_SQ);
        p.set_turn(self.turn.flip());
        p.halfmove = p.halfmove.saturating_add(1);
        if self.turn == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        p
    }

    /// Set the side to move (the en-passant square is cleared).
    pub fn set_turn(&mut self, c: Color) {
        if self.turn != c {
            self.turn = c;
            self.key ^= crate::zobrist::side();
        }
        self.set_state(self.castling, NO_SQ, NO_SQ);
    }

    /// Put `piece` on `sq` (None: empty it). Refuses a piece outside the
    /// variant's set for its side, naming it; anything else the position
    /// can hold is accepted and reported by [`Position::problems`].
    pub fn set_piece(&mut self, sq: usize, piece: Option<Piece>) -> Result<(), String> {
        let v = &self.tables.variant;
        let size = self.tables.geo.size;
        if sq >= size.squares() {
            return Err(format!("square {sq} is outside the {}x{} board", size.files, size.ranks));
        }
        if let Some(p) = piece {
            if !v.pieces[p.color].has(p.kind) {
                let allowed: Vec<String> = v.pieces[p.color].kinds().map(|k| v.spec(k).name.clone()).collect();
                return Err(format!(
                    "a {} {} cannot stand on a {} board ({} has {})",
                    side_name(p.color).to_lowercase(),
                    v.kind_name(p.kind),
                    v.name,
                    side_name(p.color),
                    allowed.join(", ")
                ));
            }
        }
        if self.piece_at(sq).is_some() {
            self.remove(sq);
        }
        if let Some(p) = piece {
            self.put(sq, p);
        }
        self.settle();
        Ok(())
    }

    /// An empty board: no pieces, White to move, no rights, clocks `0 1`.
    pub fn clear(&mut self) {
        for sq in self.occupied().squares() {
            self.remove(sq);
        }
        self.set_turn(Color::White);
        self.halfmove = 0;
        self.fullmove = 1;
        self.settle();
    }

    /// After an edit: drop castling rights whose king or rook has left its
    /// square, clear the en-passant square, recompute the shock flag.
    fn settle(&mut self) {
        let t = self.tables;
        let size = t.geo.size;
        let mut rights = self.castling;
        for color in Color::BOTH {
            let Some(cs) = t.variant.castling[color] else { continue };
            let rank = castling::back_rank(color, size.ranks);
            let king = size.square(cs.king_from, rank);
            for (side, mv) in cs.moves.iter().enumerate() {
                let rook = size.square(mv.rook_from, rank);
                let has = |s: usize, kind: Kind| self.piece_at(s) == Some(Piece { color, kind });
                if !has(king, cs.king) || !has(rook, cs.rook) {
                    rights &= !castling::right(color, side);
                }
            }
        }
        self.set_state(rights, NO_SQ, NO_SQ);
        self.refresh();
    }

    /// Start squares of the rooks whose castling rights remain.
    pub fn castling_rooks(&self) -> Vec<usize> {
        let t = self.tables;
        let size = t.geo.size;
        let mut out = Vec::new();
        for color in Color::BOTH {
            let Some(cs) = t.variant.castling[color] else { continue };
            let rank = castling::back_rank(color, size.ranks);
            for (side, mv) in cs.moves.iter().enumerate() {
                if self.castling & castling::right(color, side) != 0 {
                    out.push(size.square(mv.rook_from, rank));
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// What is wrong with the position for its variant (empty when it is a
    /// position a FEN could give): royal counts, pieces on ranks they may
    /// not stand on, the side not to move in check.
    pub fn problems(&self) -> Vec<Problem> {
        let v = &self.tables.variant;
        let size = self.tables.geo.size;
        let mut out = Vec::new();
        if self.occupied().is_empty() && !v.extinction {
            out.push(("empty", "the board is empty".to_string()));
        }
        for c in Color::BOTH {
            let n = self.royals(c).count();
            let rc = v.royal_count[c];
            let names: Vec<&str> = v.royal[c].kinds().map(|k| v.spec(k).name.as_str()).collect();
            let want =
                if rc.min == rc.max { format!("exactly {}", rc.min) } else { format!("{} to {}", rc.min, rc.max) };
            let text = format!("{} has {n} royal {} (needs {want})", side_name(c), names.join("/"));
            if n < rc.min {
                out.push((if c == Color::White { "no_white_king" } else { "no_black_king" }, text));
            } else if n > rc.max {
                out.push(("too_many_kings", text));
            }
        }
        for &(c, k, rank) in &v.forbidden_ranks {
            let bad = self.pieces(c, k) & self.tables.geo.rank_mask[rank as usize];
            for sq in bad.squares() {
                out.push((
                    "pawns_on_backrank",
                    format!(
                        "{} {} on {} may not stand on rank {}",
                        side_name(c),
                        v.spec(k).name,
                        size.square_name(sq),
                        rank + 1
                    ),
                ));
            }
        }
        let them = self.turn.flip();
        if self.royals(them).squares().any(|sq| self.is_attacked(sq, self.turn)) {
            out.push(("opposite_check", format!("{} is not to move but is in check", side_name(them))));
        }
        out
    }

    /// The position with every piece moved from `sq` to `map[sq]` and, with
    /// `swap`, the colours and the side to move exchanged (castling rights
    /// follow their pieces where they still can; a mirror, `swap` with `map`
    /// the vertical flip, keeps the en-passant square). Clocks are kept.
    pub fn mapped(&self, map: &[usize], swap: bool) -> Position<B> {
        let mut p = *self;
        for sq in p.occupied().squares() {
            p.remove(sq);
        }
        for sq in self.occupied().squares() {
            if let Some(mut piece) = self.piece_at(sq) {
                if swap {
                    piece.color = piece.color.flip();
                }
                p.put(map[sq], piece);
            }
        }
        if swap {
            p.set_turn(self.turn.flip());
            let c = self.castling;
            p.set_state((c & 0b0011) << 2 | (c & 0b1100) >> 2, NO_SQ, NO_SQ);
        }
        p.settle();
        if swap && self.ep != NO_SQ {
            // A mirror keeps a legal en-passant capture legal.
            p.set_state(p.castling, map[self.ep as usize] as u8, map[self.ep_victim as usize] as u8);
        }
        p
    }
}

impl AnyPosition {
    /// See [`Position::attackers`]; squares in increasing order.
    pub fn attackers(&self, sq: usize, by: Color) -> Vec<usize> {
        with_pos!(self, p => p.attackers(sq, by).squares().collect())
    }
    /// See [`Position::checkers`].
    pub fn checkers(&self) -> Vec<usize> {
        with_pos!(self, p => p.checkers().squares().collect())
    }
    /// See [`Position::pseudo_legal_moves`].
    pub fn pseudo_legal_moves(&self, ep: Option<(usize, usize)>) -> Vec<Move> {
        with_pos!(self, p => p.pseudo_legal_moves(ep))
    }
    /// See [`Position::is_capture`]: a Robotic hop onto an enemy piece is
    /// a capture.
    pub fn is_capture(&self, m: Move) -> bool {
        with_pos!(self, p => p.is_capture(m))
    }
    /// See [`Position::is_hop`].
    pub fn is_hop(&self, m: Move) -> bool {
        with_pos!(self, p => p.is_hop(m))
    }
    /// See [`Position::moved_piece`].
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        with_pos!(self, p => p.moved_piece(m))
    }
    /// See [`Position::gives_check`] (`m` must be legal).
    pub fn gives_check(&self, m: Move) -> bool {
        with_pos!(self, p => p.gives_check(m))
    }
    /// See [`Position::is_zeroing`].
    pub fn is_zeroing(&self, m: Move) -> bool {
        with_pos!(self, p => p.is_zeroing(m))
    }
    /// See [`Position::is_irreversible`].
    pub fn is_irreversible(&self, m: Move) -> bool {
        with_pos!(self, p => p.is_irreversible(m))
    }
    /// See [`Position::set_piece`].
    pub fn set_piece(&mut self, sq: usize, piece: Option<Piece>) -> Result<(), String> {
        with_pos!(self, p => p.set_piece(sq, piece))
    }
    /// See [`Position::set_turn`].
    pub fn set_turn(&mut self, c: Color) {
        with_pos!(self, p => p.set_turn(c))
    }
    /// See [`Position::clear`].
    pub fn clear(&mut self) {
        with_pos!(self, p => p.clear())
    }
    /// See [`Position::castling_rooks`].
    pub fn castling_rooks(&self) -> Vec<usize> {
        with_pos!(self, p => p.castling_rooks())
    }
    /// See [`Position::problems`].
    pub fn problems(&self) -> Vec<Problem> {
        with_pos!(self, p => p.problems())
    }
    /// See [`Position::mapped`]; `map` must be a permutation of the squares.
    pub fn mapped(&self, map: &[usize], swap: bool) -> AnyPosition {
        match self {
            AnyPosition::Small(p) => AnyPosition::Small(p.mapped(map, swap)),
            AnyPosition::Large(p) => AnyPosition::Large(p.mapped(map, swap)),
        }
    }
    /// The en-passant target square (kept only when the capture is legal).
    pub fn ep_square(&self) -> Option<usize> {
        with_pos!(self, p => p.legal_ep_square())
    }
}

impl Board {
    /// Pass the move (python-chess's null move, PGN's `--`): refused while
    /// the side to move is in check or the game is over by shock.
    pub fn push_null(&mut self) -> Result<(), String> {
        if self.pos.is_check() {
            return Err("a null move is not allowed in check".into());
        }
        let next = match &self.pos {
            AnyPosition::Small(p) => AnyPosition::Small(p.after_null()),
            AnyPosition::Large(p) => AnyPosition::Large(p.after_null()),
        };
        self.history.push((self.pos, Move::NONE));
        self.pos = next;
        Ok(())
    }

    /// The square a double step just crossed and the square of the piece
    /// that made it, when the last move was a double step (python-chess's
    /// `ep_square`, which it keeps whether or not a capture is possible).
    pub fn potential_ep(&self) -> Option<(usize, usize)> {
        let (_, m) = self.history.last()?;
        (m.special() == Special::DoubleStep).then(|| ((m.from() + m.to()) / 2, m.to()))
    }
}

#[cfg(test)]
mod tests {
    use crate::{AnyPosition, Color, Variant};

    fn pos(variant: &str, fen: &str) -> AnyPosition {
        AnyPosition::new(&Variant::new(variant, &[]).unwrap(), Some(fen)).unwrap()
    }

    #[test]
    fn robotic_hop_attacks() {
        // RULES.md §3: the Missile on e8 hops over e2 onto e1.
        let p = pos("shocking", "c3m2c/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(p.checkers(), vec![60]);
        assert_eq!(p.attackers(4, Color::Black), vec![60]);
    }

    #[test]
    fn pseudo_legal_moves_add_the_self_checks() {
        // The knight on e2 is pinned: its moves are pseudo-legal only.
        let p = pos("chess", "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1");
        let legal = p.legal_moves();
        let pseudo = p.pseudo_legal_moves(None);
        assert!(legal.iter().all(|m| pseudo.contains(m)));
        assert_eq!(pseudo.len(), legal.len() + 6);
        let mirrored = p.mapped(&(0..64).map(|sq| (7 - sq / 8) * 8 + sq % 8).collect::<Vec<_>>(), true);
        assert_eq!(mirrored.fen(), "4k3/4n3/8/8/8/8/8/4R2K b - - 0 1");
    }

    #[test]
    fn edits_report_problems() {
        let mut p = pos("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(p.problems().is_empty());
        p.set_piece(4, None).unwrap();
        assert_eq!(p.problems()[0].0, "no_white_king");
        assert!(p.set_piece(4, Some(crate::Piece { color: crate::Color::White, kind: crate::Kind::Core })).is_err());
    }
}
