//! Variants as data: board size, piece sets, royal pieces, evolution map,
//! promotion, castling and end-of-game rules, plus the Burden options
//! (RULES.md §4-7). Move generation reads these fields; nothing elsewhere
//! asks which variant is being played.

use crate::error::Error;
use crate::geometry::Size;
use crate::piece::{ByColor, Color, Kind, NKINDS};
use crate::rules::castling::Castling;

/// A set of kinds as a bit mask (bit = kind index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KindSet(pub u16);

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
    /// Variant name (`chess`, `shocking`, `burden`, `evolution`).
    pub name: String,
    /// The options as given, normalised (`key`, `value`), sorted by key.
    pub options: Vec<(String, String)>,
    /// Board size.
    pub size: Size,
    /// Start position.
    pub start_fen: String,
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
}

/// Names of the built-in variants.
pub const VARIANTS: [&str; 4] = ["chess", "shocking", "burden", "evolution"];

/// Option names Burden accepts.
pub const BURDEN_OPTIONS: [&str; 9] =
    ["royal", "cycle", "royal_may_move_into_check", "files", "pawn_ranks", "back_gap", "middle_gap", "army", "preset"];

fn identity() -> [Kind; NKINDS] {
    crate::piece::ALL_KINDS
}

fn both<T: Clone>(v: T) -> ByColor<T> {
    ByColor([v.clone(), v])
}

impl Variant {
    /// Build a variant by name with `key=value` options (only Burden takes
    /// options). Unknown names, options or values are errors naming them.
    pub fn new(name: &str, options: &[(String, String)]) -> Result<Variant, Error> {
        let v = match name {
            "chess" => Variant::chess(),
            "shocking" => Variant::shocking(),
            "evolution" => Variant::evolution(),
            "burden" => return Variant::burden(options),
            _ => {
                return Err(Error::option(
                    "variant",
                    format!("unknown variant {name:?} (known: {})", VARIANTS.join(", ")),
                ))
            }
        };
        if let Some((k, _)) = options.first() {
            return Err(Error::option(k, format!("variant {name:?} takes no options")));
        }
        Ok(v)
    }

    fn base(name: &str, size: Size, start_fen: &str, pieces: KindSet, royal: Kind) -> Variant {
        Variant {
            name: name.to_string(),
            options: Vec::new(),
            size,
            start_fen: start_fen.to_string(),
            pieces: both(pieces),
            royal: both(KindSet::of(&[royal])),
            royal_count: both(RoyalCount { min: 1, max: 1 }),
            evolve: identity(),
            promoters: both(KindSet::EMPTY),
            promotion_choices: both(Vec::new()),
            castling: both(None),
            stalemate: StalemateRule::Draw,
            shock: None,
            clock_resetters: KindSet::EMPTY,
            insufficient_material: false,
            scoring: false,
            extinction: false,
            royal_may_move_into_check: false,
            forbidden_ranks: Vec::new(),
        }
    }

    /// FIDE chess (§7).
    pub fn chess() -> Variant {
        use Kind::*;
        let fide = KindSet::of(&[King, Queen, Rook, Bishop, Knight, Pawn]);
        Variant {
            promoters: both(KindSet::of(&[Pawn])),
            promotion_choices: both(vec![Queen, Rook, Bishop, Knight]),
            castling: both(Some(Castling::FIDE)),
            clock_resetters: KindSet::of(&[Pawn]),
            insufficient_material: true,
            forbidden_ranks: fide_pawn_ranks(&[Color::White, Color::Black]),
            ..Variant::base(
                "chess",
                Size { files: 8, ranks: 8 },
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                fide,
                King,
            )
        }
    }

    /// Shocking Chess (§3-4): the FIDE Kingdom against the Network.
    pub fn shocking() -> Variant {
        use Kind::*;
        let mut v = Variant::base(
            "shocking",
            Size { files: 8, ranks: 8 },
            "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            KindSet::of(&[King, Queen, Rook, Bishop, Knight, Pawn]),
            King,
        );
        v.pieces[Color::Black] = KindSet::of(&[Core, Missile, Drone, Turret, Automaton, Rover]);
        v.royal[Color::Black] = KindSet::of(&[Core]);
        v.royal_count[Color::Black] = RoyalCount { min: 1, max: 2 };
        v.promoters = ByColor([KindSet::of(&[Pawn]), KindSet::of(&[Turret, Automaton])]);
        v.promotion_choices = ByColor([vec![Queen, Rook, Bishop, Knight], vec![Rover, Drone, Missile]]);
        v.castling = ByColor([Some(Castling::FIDE), None]);
        v.shock = Some(Shock { side: Color::Black, left_file: 3, right_file: 4 });
        v.clock_resetters = KindSet::of(&[Pawn, Turret, Automaton]);
        v.forbidden_ranks = fide_pawn_ranks(&[Color::White]);
        v.forbidden_ranks.push((Color::Black, Turret, 0));
        v.forbidden_ranks.push((Color::Black, Automaton, 0));
        v
    }

    /// Evolution Chess (§6): 7x6, knights evolve N -> B -> R -> Q.
    pub fn evolution() -> Variant {
        use Kind::*;
        let mut v = Variant::base(
            "evolution",
            Size { files: 7, ranks: 6 },
            "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1",
            KindSet::of(&[King, Queen, Rook, Bishop, Knight]),
            King,
        );
        v.evolve[Knight.idx()] = Bishop;
        v.evolve[Bishop.idx()] = Rook;
        v.evolve[Rook.idx()] = Queen;
        v
    }

    /// Burden of the Royalty (§5) with its options.
    pub fn burden(options: &[(String, String)]) -> Result<Variant, Error> {
        use Kind::*;
        let mut opts: Vec<(String, String)> = Vec::new();
        for (k, val) in options {
            if !BURDEN_OPTIONS.contains(&k.as_str()) {
                return Err(Error::option(
                    k,
                    format!("unknown option for burden (known: {})", BURDEN_OPTIONS.join(", ")),
                ));
            }
            if opts.iter().any(|(o, _)| o == k) {
                return Err(Error::option(k, "given more than once"));
            }
            opts.push((k.clone(), val.trim().to_ascii_lowercase()));
        }
        opts.sort();
        let get = |k: &str| opts.iter().find(|(o, _)| o == k).map(|(_, v)| v.as_str());
        let choice = |k: &str, allowed: &[&str], default: &str| -> Result<String, Error> {
            let v = get(k).unwrap_or(default);
            if allowed.contains(&v) {
                Ok(v.to_string())
            } else {
                Err(Error::option(k, format!("bad value {v:?} (allowed: {})", allowed.join(", "))))
            }
        };
        // Every rank count is at most 12 (the largest board side), so the
        // rank arithmetic below cannot overflow, whatever the text says.
        let int = |k: &str, default: i64, min: i64, max: i64| -> Result<i64, Error> {
            match get(k) {
                None => Ok(default),
                Some(v) => {
                    let n: i64 =
                        v.parse().map_err(|_| Error::option(k, format!("bad value {v:?} (expected an integer)")))?;
                    if n < min {
                        Err(Error::option(k, format!("{n} is below the minimum {min}")))
                    } else if n > max {
                        Err(Error::option(k, format!("{n} is above the maximum {max}")))
                    } else {
                        Ok(n)
                    }
                }
            }
        };
        let royal_name = choice("royal", &["king", "maharajah", "gryphon"], "king")?;
        let cycle = match choice("cycle", &["none", "pawn", "knight"], "none")?.as_str() {
            "pawn" => Cycle::Pawn,
            "knight" => Cycle::Knight,
            _ => Cycle::None,
        };
        let rmmic = choice("royal_may_move_into_check", &["true", "false", "1", "0"], "false")?;
        let royal = match royal_name.as_str() {
            "maharajah" => Maharajah,
            "gryphon" => Gryphon,
            _ => King,
        };
        let preset = get("preset");
        let (size, fen) = match preset {
            Some("wittman") => {
                if let Some((k, _)) = opts
                    .iter()
                    .find(|(k, _)| ["files", "pawn_ranks", "back_gap", "middle_gap", "army"].contains(&k.as_str()))
                {
                    return Err(Error::option(k, "cannot be combined with preset=wittman"));
                }
                (Size::new(7, 6)?, "NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn w - - 0 1".to_string())
            }
            Some(p) => return Err(Error::option("preset", format!("bad value {p:?} (allowed: wittman)"))),
            None => {
                let side = i64::from(crate::geometry::MAX_SIDE);
                let files = int("files", 8, 1, i64::MAX)?;
                let pawn_ranks = int("pawn_ranks", 3, 1, side)?;
                let back_gap = int("back_gap", 1, 0, side)?;
                let middle_gap = int("middle_gap", 0, 0, side)?;
                let army = choice("army", &["pawns", "knights"], "pawns")?;
                let ranks = 2 * (back_gap + pawn_ranks) + middle_gap;
                if !(4..=12).contains(&files) {
                    return Err(Error::option("files", format!("{files} files is outside 4..12")));
                }
                if !(4..=12).contains(&ranks) {
                    return Err(Error::option(
                        "pawn_ranks",
                        format!(
                            "the setup needs 2 x (back_gap + pawn_ranks) + middle_gap = {ranks} ranks, outside 4..12"
                        ),
                    ));
                }
                let size = Size::new(files as u8, ranks as u8)?;
                let letter = if army == "knights" { 'n' } else { 'p' };
                let f = files as usize;
                let empty = f.to_string();
                let row = |c: char| std::iter::repeat_n(c, f).collect::<String>();
                let mut rows: Vec<String> = Vec::new();
                rows.extend(std::iter::repeat_n(empty.clone(), back_gap as usize));
                rows.extend(std::iter::repeat_n(row(letter), pawn_ranks as usize));
                rows.extend(std::iter::repeat_n(empty.clone(), middle_gap as usize));
                rows.extend(std::iter::repeat_n(row(letter.to_ascii_uppercase()), pawn_ranks as usize));
                rows.extend(std::iter::repeat_n(empty, back_gap as usize));
                (size, format!("{} w - - 0 1", rows.join("/")))
            }
        };
        let mut v = Variant::base("burden", size, &fen, KindSet::of(&[Pawn, Knight, Bishop, Queen, royal]), royal);
        v.options = opts;
        v.royal_count = both(RoyalCount { min: 0, max: u32::MAX });
        v.evolve[Pawn.idx()] = Knight;
        v.evolve[Knight.idx()] = Bishop;
        v.evolve[Bishop.idx()] = Queen;
        v.evolve[Queen.idx()] = royal;
        v.evolve[royal.idx()] = match cycle {
            Cycle::None => royal,
            Cycle::Pawn => Pawn,
            Cycle::Knight => Knight,
        };
        v.stalemate = StalemateRule::Loss;
        v.clock_resetters = KindSet::of(&[Pawn]);
        v.scoring = true;
        v.extinction = true;
        v.royal_may_move_into_check = cycle != Cycle::None && (rmmic == "true" || rmmic == "1");
        Ok(v)
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
            &crate::piece::ALL_KINDS
                .into_iter()
                .filter(|&k| self.pieces[c].has(k) && !self.royal[c].has(k) && self.royal[c].has(self.evolve[k.idx()]))
                .collect::<Vec<_>>(),
        )
    }

    /// Value of an option as normalised, if it was given.
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Rank index of `color`'s last rank (its promotion rank).
    pub fn last_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.size.ranks - 1,
            Color::Black => 0,
        }
    }
}

fn fide_pawn_ranks(colors: &[Color]) -> Vec<(Color, Kind, u8)> {
    colors.iter().flat_map(|&c| [(c, Kind::Pawn, 0), (c, Kind::Pawn, 7)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn burden_setups() {
        let v = Variant::burden(&[]).unwrap();
        assert_eq!(v.start_fen, "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1");
        let v = Variant::burden(&o(&[("files", "6"), ("pawn_ranks", "2")])).unwrap();
        assert_eq!(v.start_fen, "6/pppppp/pppppp/PPPPPP/PPPPPP/6 w - - 0 1");
        let v = Variant::burden(&o(&[("files", "10"), ("middle_gap", "2")])).unwrap();
        assert_eq!(v.size, Size { files: 10, ranks: 10 });
        let v = Variant::burden(&o(&[("files", "12"), ("back_gap", "0"), ("pawn_ranks", "5"), ("army", "knights")]))
            .unwrap();
        assert_eq!(v.size, Size { files: 12, ranks: 10 });
        assert!(v.start_fen.starts_with("nnnnnnnnnnnn/"));
    }

    #[test]
    fn burden_option_errors_name_the_option() {
        let e = Variant::burden(&o(&[("colour", "x")])).unwrap_err();
        assert_eq!(e.field, "colour");
        let e = Variant::burden(&o(&[("royal", "emperor")])).unwrap_err();
        assert_eq!(e.field, "royal");
        let e = Variant::burden(&o(&[("files", "13")])).unwrap_err();
        assert_eq!(e.field, "files");
        let e = Variant::burden(&o(&[("pawn_ranks", "6")])).unwrap_err();
        assert_eq!(e.field, "pawn_ranks");
        let e = Variant::burden(&o(&[("preset", "wittman"), ("files", "8")])).unwrap_err();
        assert_eq!(e.field, "files");
        let e = Variant::new("chess", &o(&[("royal", "king")])).unwrap_err();
        assert_eq!(e.field, "royal");
        let e = Variant::new("xiangqi", &[]).unwrap_err();
        assert_eq!(e.field, "variant");
    }
}
