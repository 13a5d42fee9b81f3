//! Variants as data: board size, piece kinds, royal pieces, evolution map,
//! promotion, castling and end-of-game rules (RULES.md §4-7), compiled from
//! definitions ([`crate::rules::definition`]), plus the Burden option set.
//! Move generation reads these fields; nothing elsewhere asks which variant
//! is being played.

use crate::error::Error;
use crate::geometry::Size;
use crate::piece::{ByColor, Color, Kind, Piece, NKINDS};
use crate::rules::castling::Castling;
use crate::rules::definition::{self, Bases};
use crate::rules::movement::KindSpec;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use toml::{Table, Value};

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
}

/// Names of the built-in variants.
pub const VARIANTS: [&str; 4] = ["chess", "shocking", "burden", "evolution"];

/// Option names Burden accepts.
pub const BURDEN_OPTIONS: [&str; 9] =
    ["royal", "cycle", "royal_may_move_into_check", "files", "pawn_ranks", "back_gap", "middle_gap", "army", "preset"];

impl Variant {
    /// A shipped variant by name (`chess`, `shocking`, `burden`,
    /// `evolution` and the examples of [`definition::SHIPPED`]) with
    /// `key=value` options (only variants with the Burden option set take
    /// options). Unknown names, options or values are errors naming them.
    pub fn new(name: &str, options: &[(String, String)]) -> Result<Variant, Error> {
        type Cache = Mutex<HashMap<(String, Vec<(String, String)>), Variant>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        if let Some(raw) = definition::Registry.raw(name) {
            return Variant::from_raw(raw, name, options, &definition::Registry);
        }
        let key = (name.to_string(), options.to_vec());
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(v.clone());
        }
        let Some(raw) = definition::shipped_raw(name) else {
            return Err(Error::option(
                "variant",
                format!("unknown variant {name:?} (known: {})", definition::known_names().join(", ")),
            ));
        };
        let v = Variant::from_raw(raw, name, options, &definition::Registry)?;
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() < 4096 {
            map.insert(key, v.clone());
        }
        Ok(v)
    }

    /// FIDE chess (§7).
    pub fn chess() -> Variant {
        Variant::new("chess", &[]).expect("chess is shipped")
    }

    /// Shocking Chess (§3-4).
    pub fn shocking() -> Variant {
        Variant::new("shocking", &[]).expect("shocking is shipped")
    }

    /// Evolution Chess (§6).
    pub fn evolution() -> Variant {
        Variant::new("evolution", &[]).expect("evolution is shipped")
    }

    /// Burden of the Royalty (§5) with its options.
    pub fn burden(options: &[(String, String)]) -> Result<Variant, Error> {
        Variant::new("burden", options)
    }

    /// Compile a raw definition table (its `base` chain resolved against
    /// `bases` and the shipped definitions) with options.
    pub fn from_raw(
        raw: toml::Table,
        origin: &str,
        options: &[(String, String)],
        bases: &dyn definition::Bases,
    ) -> Result<Variant, Error> {
        let text = toml::to_string(&raw).unwrap_or_default();
        let src = definition::Source { origin, text: &text };
        let mut resolved = definition::resolve(&raw, &src, bases)?;
        let set = resolved.get("options").and_then(toml::Value::as_str).map(str::to_string);
        let opts = match set.as_deref() {
            Some("burden") => burden_options(&mut resolved, options)?,
            _ => {
                if let Some((k, _)) = options.first() {
                    let name = resolved.get("name").and_then(toml::Value::as_str).unwrap_or(origin);
                    return Err(Error::option(k, format!("variant {name:?} takes no options")));
                }
                Vec::new()
            }
        };
        let mut v = definition::compile(&resolved, &src)?;
        v.options = opts;
        Ok(v)
    }

    /// Read a definition from TOML text (`origin` names it in errors, such
    /// as a file name); `base` names resolve against `bases`.
    pub fn from_toml(text: &str, origin: &str, bases: &dyn definition::Bases) -> Result<Variant, Error> {
        definition::load(&definition::Source { origin, text }, bases)
    }

    /// Read a definition file and add it to the process's registry, so that
    /// its name works wherever a variant name does; `base` names resolve
    /// against the registry and the shipped definitions.
    pub fn load_file(path: &str) -> Result<Variant, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::definition(path, format!("cannot read: {e}")))?;
        let v = definition::load(&definition::Source { origin: path, text: &text }, &definition::Registry)?;
        definition::register(&v)?;
        Ok(v)
    }

    /// Read a definition from TOML text and add it to the registry.
    pub fn load_text(text: &str, origin: &str) -> Result<Variant, Error> {
        let v = definition::load(&definition::Source { origin, text }, &definition::Registry)?;
        definition::register(&v)?;
        Ok(v)
    }

    /// The loaded (registered) variants as self-contained TOML texts, so
    /// that another process can load the same ones.
    pub fn loaded_definitions() -> Vec<String> {
        definition::registered()
            .iter()
            .filter_map(|n| definition::Registry.raw(n))
            .map(|t| toml::to_string(&t).unwrap_or_default())
            .collect()
    }

    /// Every variant name known: the shipped definitions, then the loaded
    /// ones.
    pub fn names() -> Vec<String> {
        let mut n: Vec<String> = definition::known_names().iter().map(|s| s.to_string()).collect();
        for r in definition::registered() {
            if !n.contains(&r) {
                n.push(r);
            }
        }
        n
    }

    /// The definition of this variant as self-contained TOML text, which
    /// loads back equal.
    pub fn to_toml(&self) -> String {
        definition::write(self)
    }

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

/// Apply the Burden option set (§5.5 and the setups) to a resolved
/// definition table; returns the options as normalised, sorted by key.
fn burden_options(t: &mut Table, options: &[(String, String)]) -> Result<Vec<(String, String)>, Error> {
    let mut opts: Vec<(String, String)> = Vec::new();
    for (k, val) in options {
        if !BURDEN_OPTIONS.contains(&k.as_str()) {
            return Err(Error::option(k, format!("unknown option for burden (known: {})", BURDEN_OPTIONS.join(", "))));
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
    // Every rank count is at most 12 (the largest board side), so the rank
    // arithmetic below cannot overflow, whatever the text says.
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
    let royal = choice("royal", &["king", "maharajah", "gryphon"], "king")?;
    let cycle = choice("cycle", &["none", "pawn", "knight"], "none")?;
    let rmmic = choice("royal_may_move_into_check", &["true", "false", "1", "0"], "false")?;
    let s = |x: &str| Value::String(x.to_string());
    // The royal kind replaces the king everywhere it is named.
    if royal != "king" {
        for key in ["kinds", "royal"] {
            if let Some(Value::Array(a)) = t.get_mut(key) {
                for x in a.iter_mut() {
                    if x.as_str() == Some("king") {
                        *x = s(&royal);
                    }
                }
            }
        }
    }
    let evo = t.entry("evolution").or_insert_with(|| Value::Table(Table::new()));
    if let Value::Table(e) = evo {
        for (_, to) in e.iter_mut() {
            if to.as_str() == Some("king") {
                *to = s(&royal);
            }
        }
        if cycle != "none" {
            e.insert(royal.clone(), s(if cycle == "pawn" { "pawn" } else { "knight" }));
        }
    }
    t.insert("royal_may_move_into_check".into(), Value::Boolean(cycle != "none" && (rmmic == "true" || rmmic == "1")));
    let (files, ranks, fen) = match get("preset") {
        Some("wittman") => {
            if let Some((k, _)) = opts
                .iter()
                .find(|(k, _)| ["files", "pawn_ranks", "back_gap", "middle_gap", "army"].contains(&k.as_str()))
            {
                return Err(Error::option(k, "cannot be combined with preset=wittman"));
            }
            (7, 6, "NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn w - - 0 1".to_string())
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
                    format!("the setup needs 2 x (back_gap + pawn_ranks) + middle_gap = {ranks} ranks, outside 4..12"),
                ));
            }
            Size::new(files as u8, ranks as u8)?;
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
            (files, ranks, format!("{} w - - 0 1", rows.join("/")))
        }
    };
    // With knights only and no cycle back to pawns, no pawn can ever
    // appear: the kind is left out.
    let knights = get("preset") == Some("wittman") || get("army") == Some("knights");
    if knights && cycle != "pawn" {
        for key in ["kinds", "clock_resetters"] {
            if let Some(Value::Array(a)) = t.get_mut(key) {
                a.retain(|x| x.as_str() != Some("pawn"));
            }
        }
        if let Some(Value::Table(e)) = t.get_mut("evolution") {
            e.remove("pawn");
        }
    }
    let setup = ["files", "pawn_ranks", "back_gap", "middle_gap", "army", "preset"];
    if opts.iter().any(|(k, _)| setup.contains(&k.as_str())) {
        t.insert("files".into(), Value::Integer(files));
        t.insert("ranks".into(), Value::Integer(ranks));
        t.insert("start".into(), s(&fen));
    }
    Ok(opts)
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
