//! End of the game (RULES.md §4.4, §5.4, §6, §7) with python-chess
//! semantics: [`Board::outcome`] and the `is_*` / `can_claim_*` tests.
//!
//! Order of the tests in [`Board::outcome`] (the first that applies wins):
//!
//! 1. **Shock** (§4.3): the shock side's pieces stand shocked; the other
//!    side (White) wins. This overrides everything, including a shocking
//!    move that leaves White checkmated.
//! 2. **Checkmate**: the side to move has no legal move and is in check; the
//!    other side wins.
//! 3. **Insufficient material** (only where `variant.insufficient_material`,
//!    i.e. FIDE chess): python-chess's rule, a draw.
//! 4. No legal move and not in check: **Extinction** when the variant has
//!    the extinction rule (Burden) and the side to move has no piece at all
//!    (it loses); otherwise **Stalemate**, a draw or a loss for the side to
//!    move as `variant.stalemate` says (Burden: loss).
//! 5. **Seventy-five moves**: the halfmove clock is at least 150 (a draw).
//! 6. **Fivefold repetition**: the current position has occurred five times
//!    (a draw).
//! 7. Only with `claim_draw`: **Fifty moves** then **Threefold repetition**,
//!    as python-chess's `can_claim_fifty_moves` /
//!    `can_claim_threefold_repetition`: the condition holds now, or one legal
//!    move would make it hold (a draw). These are the draws of §4.4 and
//!    §5.4, which a player claims.
//!
//! The halfmove clock is the engine's: reset by captures and by moves of the
//! variant's clock-resetting kinds (P, T, A in Shocking Chess; captures only
//! in Evolution Chess).
//!
//! **Decision (repetition):** positions are equal when the Zobrist keys of
//! placement, side to move, castling rights and the en-passant square agree,
//! with the en-passant square counted only when a legal en-passant capture
//! exists (as python-chess). Every earlier position of the game is compared,
//! not only those since the last capture or pawn move: with Burden's
//! `cycle=pawn` a position can recur across a pawn move.
//!
//! **Scoring** (§5.4, `variant.scoring`, Burden): a decisive game scores
//! 1 + the number of royal pieces the winner has on the board at the end,
//! + 1 more for a checkmate; the loser scores 0. Draws have no points.

use crate::bitboard::BitSet;
use crate::board::game::with_pos;
use crate::board::game::{AnyPosition, Board};
use crate::board::position::Position;
use crate::geometry::NO_SQ;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Kind};
use crate::rules::attacks::Placement;
use crate::rules::variant::StalemateRule;
use crate::zobrist;
use std::collections::HashMap;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (a draw, or a
    /// loss for it in Burden).
    Stalemate,
    /// The shock rule of Shocking Chess (§4.3): White wins.
    Shock,
    /// Burden: the side to move has no piece left and loses.
    Extinction,
    /// The position occurred three times (claimed).
    ThreefoldRepetition,
    /// The position occurred five times (automatic).
    FivefoldRepetition,
    /// 100 plies without a capture or clock-resetting move (claimed).
    FiftyMoves,
    /// 150 plies without a capture or clock-resetting move (automatic).
    SeventyFiveMoves,
    /// Neither side can mate (FIDE chess only).
    InsufficientMaterial,
}

impl Termination {
    /// Lower-case name, as python-chess's `Termination` member names:
    /// `checkmate`, `stalemate`, `shock`, `extinction`,
    /// `threefold_repetition`, `fivefold_repetition`, `fifty_moves`,
    /// `seventyfive_moves`, `insufficient_material`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Shock => "shock",
            Termination::Extinction => "extinction",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::SeventyFiveMoves => "seventyfive_moves",
            Termination::InsufficientMaterial => "insufficient_material",
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game ended.
    pub termination: Termination,
    /// The winner, None for a draw.
    pub winner: Option<Color>,
    /// (White, Black) score of a decisive game when the variant scores
    /// (Burden, §5.4); None otherwise.
    pub points: Option<(u32, u32)>,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl<B: BitSet> Position<B> {
    /// Key for repetition: the Zobrist key with the en-passant square kept
    /// only when a legal en-passant capture exists.
    pub fn repetition_key(&self) -> u64 {
        if self.ep == NO_SQ {
            return self.key;
        }
        let legal = self.legal_ep_square().map_or(NO_SQ, |sq| sq as u8);
        self.key ^ zobrist::ep(self.ep) ^ zobrist::ep(legal)
    }

    /// Neither side can mate (§7, python-chess's `is_insufficient_material`),
    /// in variants with the rule (FIDE chess): the one rule the game's
    /// outcome and the search's draw detection share.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        // Pawns are the common case of mating material: one test per node.
        let pawn = self.tables.roles.pawn;
        self.tables.variant.insufficient_material
            && (self.role(Color::White, pawn) | self.role(Color::Black, pawn)).is_empty()
            && Color::BOTH.iter().all(|&c| self.has_insufficient_material(c))
    }

    /// python-chess's `has_insufficient_material(color)`: `c` cannot mate
    /// by any sequence of legal moves (king alone; king and one knight when
    /// the opponent has only kings and queens besides; kings and bishops
    /// all on one square colour with no pawns or knights anywhere). Any
    /// other kind than K, N, B counts as mating material.
    pub fn has_insufficient_material(&self, c: Color) -> bool {
        let r = self.tables.roles;
        let (king, queen, knight, bishop, pawn) = (r.king, r.queen, r.knight, r.bishop, r.pawn);
        let ours = self.side(c);
        let them = c.flip();
        let minor_or_king = self.role(c, king) | self.role(c, knight) | self.role(c, bishop);
        if !(ours & !minor_or_king).is_empty() {
            return false;
        }
        if !self.role(c, knight).is_empty() {
            let others = self.side(them) & !(self.role(them, king) | self.role(them, queen));
            return ours.count() <= 2 && others.is_empty();
        }
        if !self.role(c, bishop).is_empty() {
            let size = self.tables.geo.size;
            let bishops = self.role(c, bishop) | self.role(them, bishop);
            let dark = bishops.squares().filter(|&sq| (size.file_of(sq) + size.rank_of(sq)).is_multiple_of(2)).count();
            let same_colour = dark == 0 || dark == bishops.count() as usize;
            let pawns_knights = self.role(c, pawn) | self.role(them, pawn) | self.role(them, knight);
            return same_colour && pawns_knights.is_empty();
        }
        true
    }

    /// The pieces of side `c` of a kind the variant may lack.
    #[inline(always)]
    fn role(&self, c: Color, k: Option<Kind>) -> B {
        k.map_or(B::EMPTY, |k| self.pieces(c, k))
    }
}

fn repetition_key(p: &AnyPosition) -> u64 {
    with_pos!(p, q => q.repetition_key())
}

fn legal_moves(p: &AnyPosition) -> MoveList {
    let mut list = MoveList::new();
    with_pos!(p, q => q.legal_moves(&mut list));
    list
}

impl Board {
    /// How the game has ended, or None while it goes on. Without
    /// `claim_draw` only the automatic endings count; with it also the
    /// claimable fifty-move and threefold-repetition draws (see the module
    /// documentation for the order of the tests).
    pub fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let v = &self.variant;
        let pos = &self.pos;
        let us = pos.turn();
        if pos.is_shocked() {
            let winner = v.shock.map_or(Color::White, |s| s.side.flip());
            return Some(self.decisive(Termination::Shock, winner));
        }
        let stuck = !pos.has_legal_move();
        if stuck && pos.is_check() {
            return Some(self.decisive(Termination::Checkmate, us.flip()));
        }
        if self.is_insufficient_material() {
            return Some(draw(Termination::InsufficientMaterial));
        }
        if stuck {
            if v.extinction && pos.piece_count(us) == 0 {
                return Some(self.decisive(Termination::Extinction, us.flip()));
            }
            return Some(match v.stalemate {
                StalemateRule::Draw => draw(Termination::Stalemate),
                StalemateRule::Loss => self.decisive(Termination::Stalemate, us.flip()),
            });
        }
        if pos.halfmove_clock() >= v.automatic_move_rule() {
            return Some(draw(Termination::SeventyFiveMoves));
        }
        if self.is_repetition(5) {
            return Some(draw(Termination::FivefoldRepetition));
        }
        if claim_draw {
            if self.can_claim_fifty_moves() {
                return Some(draw(Termination::FiftyMoves));
            }
            if self.can_claim_threefold_repetition() {
                return Some(draw(Termination::ThreefoldRepetition));
            }
        }
        None
    }

    /// A win for `winner`, scored when the variant scores (§5.4).
    fn decisive(&self, termination: Termination, winner: Color) -> Outcome {
        let points = self.variant.scoring.then(|| {
            let score = 1 + self.pos.royal_count(winner) + u32::from(termination == Termination::Checkmate);
            match winner {
                Color::White => (score, 0),
                Color::Black => (0, score),
            }
        });
        Outcome { termination, winner: Some(winner), points }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&self, claim_draw: bool) -> &'static str {
        self.outcome(claim_draw).map_or("*", |o| o.result())
    }

    /// True when the game is over (see [`Board::outcome`]).
    pub fn is_game_over(&self, claim_draw: bool) -> bool {
        self.outcome(claim_draw).is_some()
    }

    /// The side to move is in check and has no legal move. False after a
    /// shocking move: that game ended by shock, not by checkmate.
    pub fn is_checkmate(&self) -> bool {
        !self.pos.is_shocked() && self.pos.is_check() && !self.pos.has_legal_move()
    }

    /// The side to move is not in check and has no legal move (whatever the
    /// variant makes of it: a draw, or a loss in Burden). False after a
    /// shocking move and for Burden's extinction (no piece at all).
    pub fn is_stalemate(&self) -> bool {
        let pos = &self.pos;
        let over_otherwise = pos.is_shocked() || self.is_extinction() || pos.is_check();
        !over_otherwise && !pos.has_legal_move()
    }

    /// Burden: the side to move has no piece at all (it loses).
    pub fn is_extinction(&self) -> bool {
        self.variant.extinction && self.pos.piece_count(self.pos.turn()) == 0
    }

    /// The shock rule has ended the game (§4.3).
    pub fn is_shock(&self) -> bool {
        self.pos.is_shocked()
    }

    /// Neither side has mating material (python-chess's rule; only in
    /// variants with `insufficient_material`, i.e. FIDE chess).
    pub fn is_insufficient_material(&self) -> bool {
        with_pos!(&self.pos, p => p.is_insufficient_material())
    }

    /// True when the current position has occurred at least `count` times
    /// in the game (itself included), comparing every earlier position with
    /// the same side to move (see the module documentation).
    pub fn is_repetition(&self, count: usize) -> bool {
        if count <= 1 {
            return true;
        }
        let key = repetition_key(&self.pos);
        let turn = self.pos.turn();
        let mut seen = 1;
        for (p, _) in self.history.iter().rev() {
            if p.turn() == turn && repetition_key(p) == key {
                seen += 1;
                if seen >= count {
                    return true;
                }
            }
        }
        false
    }

    /// The position has occurred five times (an automatic draw; the
    /// variant's repetition count plus two).
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(self.variant.repetitions as usize + 2)
    }

    /// At least 150 plies (the variant's move rule x 1.5) without a capture
    /// or clock-resetting move, and the side to move has a legal move (an
    /// automatic draw).
    pub fn is_seventyfive_moves(&self) -> bool {
        self.pos.halfmove_clock() >= self.variant.automatic_move_rule() && self.pos.has_legal_move()
    }

    /// At least 100 plies (the variant's move rule) without a capture or
    /// clock-resetting move, and the side to move has a legal move.
    pub fn is_fifty_moves(&self) -> bool {
        self.pos.halfmove_clock() >= self.variant.move_rule && self.pos.has_legal_move()
    }

    /// A fifty-move draw can be claimed: [`Board::is_fifty_moves`] holds, or
    /// the clock is at 99 and some legal move keeps the clock running and
    /// leaves the opponent a legal move (python-chess).
    pub fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        let rule = self.variant.move_rule;
        if rule != u32::MAX && self.pos.halfmove_clock() + 1 >= rule {
            return legal_moves(&self.pos).iter().any(|&m| {
                let after = self.pos.after(m);
                after.halfmove_clock() >= rule && after.has_legal_move()
            });
        }
        false
    }

    /// A threefold-repetition draw can be claimed: the position has occurred
    /// three times, or some legal move reaches a position that has occurred
    /// twice already (python-chess).
    pub fn can_claim_threefold_repetition(&self) -> bool {
        let mut counts: HashMap<(u64, Color), usize> = HashMap::new();
        for p in self.history.iter().map(|(p, _)| p).chain(std::iter::once(&self.pos)) {
            *counts.entry((repetition_key(p), p.turn())).or_default() += 1;
        }
        let here = (repetition_key(&self.pos), self.pos.turn());
        let needed = self.variant.repetitions as usize;
        if counts[&here] >= needed {
            return true;
        }
        legal_moves(&self.pos).iter().any(|&m: &Move| {
            let after = self.pos.after(m);
            counts.get(&(repetition_key(&after), after.turn())).copied().unwrap_or(0) + 1 >= needed
        })
    }

    /// A claimable draw: fifty moves or threefold repetition.
    pub fn can_claim_draw(&self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }
}

fn draw(termination: Termination) -> Outcome {
    Outcome { termination, winner: None, points: None }
}
