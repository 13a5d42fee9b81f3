//! Variants as data: board size, piece kinds, royal pieces, evolution map,
//! promotion, castling and end-of-game rules (RULES.md §4-7), compiled from
//! definitions ([`crate::rules::definition`]; by name and with the Burden
//! options in [`crate::rules::registry`]). Move generation reads these
//! fields; nothing elsewhere asks which variant is being played.

use crate::geometry::Size;
use crate::piece::{ByColor, Color, Kind, Piece, NKINDS};
use crate::rules::castling::Castling;
use crate::rules::movement::KindSpec;
use crate::rules::terms::Weights;

/// A set of kinds as a bit mask (bit = kind index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(pub u32);

impl KindSet {
    /// The empty set.
    pub const EMPTY: KindSet = KindSet(0);
    /// Set of the given kinds.
    pub fn of(kinds: &[Kind]) -> KindSet {
        KindSet(kinds.iter().fold(0, |m, k| m | 1 << k.idx()))
    }
    /// True when `k` is in the set.
    #[inline(always)]
    pub fn has(self, k: Kind) -> bool {
        self.0 >> k.idx() & 1 != 0
    }
    /// The kinds in index order.
    #[inline(always)]
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                Kind::from_idx(i)
            })
        })
    }
}

/// What a side with no legal move and no check gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// A draw (FIDE, Shocking, Evolution).
    Draw,
    /// A loss for the stalemated side (Burden, §5.4).
    Loss,
}

/// The shock rule of Shocking Chess (§4.3): `side` loses at once when one
/// of its pieces on `left_file` and one on `right_file` are at most one
/// rank apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shock {
    /// The side that can be shocked.
    pub side: Color,
    /// File index of the left file (d = 3).
    pub left_file: u8,
    /// File index of the right file (e = 4).
    pub right_file: u8,
}

/// How many royal pieces a side may have in a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoyalCount {
    /// Fewest allowed.
    pub min: u32,
    /// Most allowed.
    pub max: u32,
}

/// Burden option `cycle` (§5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cycle {
    /// A royal stays royal.
    None,
    /// A royal becomes a pawn after it moves.
    Pawn,
    /// A royal becomes a knight after it moves.
    Knight,
}

/// A complete variant definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Variant name (`chess`, `shocking`, `capablanca`, ...).
    pub name: String,
    /// One line for people.
    pub description: String,
    /// The option set the variant takes (`burden`), if any.
    pub option_set: Option<String>,
    /// The options as given, normalised (`key`, `value`), sorted by key.
    pub options: Vec<(String, String)>,
    /// Board size.
    pub size: Size,
    /// Start position.
    pub start_fen: String,
    /// The kinds by index ([`Kind`]); `None` for an index the variant
    /// leaves free.
    pub kinds: Vec<Option<KindSpec>>,
    /// Kinds each side may have.
    pub pieces: ByColor<KindSet>,
    /// Royal kinds per side.
    pub royal: ByColor<KindSet>,
    /// Allowed royal count per side (FEN validation).
    pub royal_count: ByColor<RoyalCount>,
    /// Successor of each kind after it moves (identity when no evolution).
    pub evolve: [Kind; NKINDS],
    /// Kinds that must promote on their last rank, per side.
    pub promoters: ByColor<KindSet>,
    /// Promotion choices per side, in SAN/UCI order.
    pub promotion_choices: ByColor<Vec<Kind>>,
    /// Each side's castling, if it may castle.
    pub castling: ByColor<Option<Castling>>,
    /// Stalemate rule.
    pub stalemate: StalemateRule,
    /// The shock rule, if any.
    pub shock: Option<Shock>,
    /// Kinds whose moves reset the 50-move clock (captures always do).
    pub clock_resetters: KindSet,
    /// FIDE insufficient-material draws.
    pub insufficient_material: bool,
    /// Burden scoring of decisive games (§5.4).
    pub scoring: bool,
    /// A side to move with no pieces loses by extinction.
    pub extinction: bool,
    /// Burden: a royal that stops being royal by moving must still not land
    /// on an attacked square (false = the seed author's rule).
    pub royal_may_move_into_check: bool,
    /// Pieces that may not stand on a given rank: (side, kind, rank index).
    pub forbidden_ranks: Vec<(Color, Kind, u8)>,
    /// The rank index each side's promoters promote on (its last rank
    /// unless the definition says otherwise).
    pub promotion_rank: ByColor<u8>,
    /// Plies without a capture or clock-resetting move after which a draw
    /// may be claimed (100: the fifty-move rule); 1.5 times as many end
    /// the game. `u32::MAX`: no such rule.
    pub move_rule: u32,
    /// How often a position must have occurred for a draw to be claimed
    /// (3); two more end the game.
    pub repetitions: u32,
    /// Evaluation weights from the definition's `[eval]` table or a weights
    /// file (every term; `None`: the defaults of
    /// [`crate::rules::terms::Weights::defaults`]).
    pub weights: Option<Weights>,
}

/// Names of the built-in variants.
pub const VARIANTS: [&str; 4] = ["chess", "shocking", "burden", "evolution"];

/// Option names Burden accepts.
pub const BURDEN_OPTIONS: [&str; 9] =
    ["royal", "cycle", "royal_may_move_into_check", "files", "pawn_ranks", "back_gap", "middle_gap", "army", "preset"];

impl Variant {
    /// The data of a kind of the variant.
    #[inline]
    pub fn spec(&self, k: Kind) -> &KindSpec {
        self.kinds.get(k.idx()).and_then(Option::as_ref).unwrap_or_else(|| panic!("kind {k:?} is not in {}", self.name))
    }

    /// The name of a kind, also for an index the variant does not use.
    pub fn kind_name(&self, k: Kind) -> String {
        self.kinds
            .get(k.idx())
            .and_then(Option::as_ref)
            .map_or_else(|| format!("kind #{}", k.idx()), |s| s.name.clone())
    }

    /// The kinds of the variant, in index order.
    pub fn all_kinds(&self) -> impl Iterator<Item = (Kind, &KindSpec)> {
        self.kinds.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|s| (Kind::from_idx(i), s)))
    }

    /// The kind with an upper-case symbol (`N`, `A'`).
    pub fn kind_of_symbol(&self, symbol: &str) -> Option<Kind> {
        self.all_kinds().find(|(_, s)| s.symbol == symbol).map(|(k, _)| k)
    }

    /// The kind with a name (`knight`).
    pub fn kind_named(&self, name: &str) -> Option<Kind> {
        self.all_kinds().find(|(_, s)| s.name == name).map(|(k, _)| k)
    }

    /// The FEN symbol of a piece: upper case for White.
    pub fn symbol(&self, p: Piece) -> String {
        self.spec(p.kind).symbol_for(p.color == Color::White)
    }

    /// The piece a FEN symbol stands for (a letter, or a letter and a
    /// prime); the case gives the colour.
    pub fn piece_of_symbol(&self, symbol: &str) -> Option<Piece> {
        let c = symbol.chars().next()?;
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let kind = self.kind_of_symbol(&symbol.to_ascii_uppercase())?;
        Some(Piece { color, kind })
    }

    /// Does a side with no legal move, not in check, lose (Burden, §5.4)?
    pub fn stalemate_loses(&self) -> bool {
        self.stalemate == StalemateRule::Loss
    }

    /// The kinds of side `c` that are not royal but become royal by moving
    /// (Burden's queens crowning, §5.2): the one definition that move
    /// generation, the piece values and the evaluation share.
    pub fn crowners(&self, c: Color) -> KindSet {
        KindSet::of(
            &self.pieces[c]
                .kinds()
                .filter(|&k| !self.royal[c].has(k) && self.royal[c].has(self.evolve[k.idx()]))
                .collect::<Vec<_>>(),
        )
    }

    /// Value of an option as normalised, if it was given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Rank index of `color`'s last rank (its promotion rank).
    pub fn last_rank(&self, color: Color) -> u8 {
        self.promotion_rank[color]
    }

    /// Plies without a capture or clock-resetting move that end the game
    /// (the seventy-five-move rule, scaled).
    pub fn automatic_move_rule(&self) -> u32 {
        self.move_rule.saturating_add(self.move_rule / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn burden_setups() {
        let v = Variant::new("burden", &[]).unwrap();
        assert_eq!(v.start_fen, "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1");
        let v = Variant::new("burden", &o(&[("files", "6"), ("pawn_ranks", "2")])).unwrap();
        assert_eq!(v.start_fen, "6/pppppp/pppppp/PPPPPP/PPPPPP/6 w - - 0 1");
        let v = Variant::new("burden", &o(&[("files", "10"), ("middle_gap", "2")])).unwrap();
        assert_eq!(v.size, Size { files: 10, ranks: 10 });
        let v =
            Variant::new("burden", &o(&[("files", "12"), ("back_gap", "0"), ("pawn_ranks", "5"), ("army", "knights")]))
                .unwrap();
        assert_eq!(v.size, Size { files: 12, ranks: 10 });
        assert!(v.start_fen.starts_with("nnnnnnnnnnnn/"));
    }

    #[test]
    fn burden_option_errors_name_the_option() {
        let e = Variant::new("burden", &o(&[("colour", "x")])).unwrap_err();
        assert_eq!(e.field, "colour");
        let e = Variant::new("burden", &o(&[("royal", "emperor")])).unwrap_err();
        assert_eq!(e.field, "royal");
        let e = Variant::new("burden", &o(&[("files", "13")])).unwrap_err();
        assert_eq!(e.field, "files");
        let e = Variant::new("burden", &o(&[("pawn_ranks", "6")])).unwrap_err();
        assert_eq!(e.field, "pawn_ranks");
        let e = Variant::new("burden", &o(&[("preset", "wittman"), ("files", "8")])).unwrap_err();
        assert_eq!(e.field, "files");
        let e = Variant::new("chess", &o(&[("royal", "king")])).unwrap_err();
        assert_eq!(e.field, "royal");
        let e = Variant::new("xiangqi", &[]).unwrap_err();
        assert_eq!(e.field, "variant");
    }
}
