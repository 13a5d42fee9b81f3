//! Variant definitions as TOML (docs/VARIANTS.md): reading a definition,
//! with inheritance (`base = "chess"`) and the kind catalogue, checking
//! that it can work, compiling it into a [`Variant`], and writing a
//! variant back as a self-contained definition.
//!
//! The built-in variants and the example ones are definitions shipped with
//! the crate (`variants/*.toml`), read by this same code.

use crate::error::Error;
use crate::geometry::{Size, MAX_SIDE, MIN_SIDE};
use crate::piece::{ByColor, Color, Kind, NKINDS};
use crate::rules::betza;
use crate::rules::castling::{CastleMove, Castling};
use crate::rules::movement::{KindSpec, Line, Mode};
use crate::rules::terms::Weights;
use crate::rules::variant::{KindSet, RoyalCount, Shock, StalemateRule, Variant};
use std::collections::BTreeMap;
use toml::{Table, Value};

/// The kind catalogue.
pub const CATALOG: &str = include_str!("../../variants/kinds.toml");

/// The definitions shipped with the engine: the built-in variants, then the
/// examples, as (name, TOML text).
pub const SHIPPED: [(&str, &str); 13] = [
    ("chess", include_str!("../../variants/chess.toml")),
    ("shocking", include_str!("../../variants/shocking.toml")),
    ("burden", include_str!("../../variants/burden.toml")),
    ("evolution", include_str!("../../variants/evolution.toml")),
    ("capablanca", include_str!("../../variants/capablanca.toml")),
    ("gothic", include_str!("../../variants/gothic.toml")),
    ("losalamos", include_str!("../../variants/losalamos.toml")),
    ("almost", include_str!("../../variants/almost.toml")),
    ("chancellor", include_str!("../../variants/chancellor.toml")),
    ("grasshopper", include_str!("../../variants/grasshopper.toml")),
    ("shocking-plain-missiles", include_str!("../../variants/shocking-plain-missiles.toml")),
    ("burden-6x6-knights", include_str!("../../variants/burden-6x6-knights.toml")),
    ("evolution-wide", include_str!("../../variants/evolution-wide.toml")),
];

/// How many catalogue kinds keep their catalogue index in every variant.
const FIXED: usize = 14;

/// Where a definition comes from, for error messages.
#[derive(Clone, Debug)]
pub struct Source<'a> {
    /// File name, or a description such as `definition (dict)`.
    pub origin: &'a str,
    /// The TOML text (to find the line of a key).
    pub text: &'a str,
}

/// Resolve `base = "..."` names: the caller's registry of loaded variants
/// (raw tables), then the shipped definitions.
pub trait Bases {
    /// The raw table of a variant by name, if known.
    fn raw(&self, name: &str) -> Option<Table>;
}

/// The variants loaded in this process (from files, dicts or the UCI
/// `VariantPath`), by name, as self-contained tables: the registry that
/// names resolve against before the shipped definitions.
pub struct Registry;

fn registry() -> std::sync::MutexGuard<'static, BTreeMap<String, Table>> {
    static REG: std::sync::OnceLock<std::sync::Mutex<BTreeMap<String, Table>>> = std::sync::OnceLock::new();
    REG.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

impl Bases for Registry {
    fn raw(&self, name: &str) -> Option<Table> {
        registry().get(name).cloned()
    }
}

/// Add a variant to the registry under its name, replacing an earlier one
/// of that name; the built-in names cannot be taken.
pub fn register(v: &Variant) -> Result<(), Error> {
    if crate::rules::variant::VARIANTS.contains(&v.name.as_str()) {
        return Err(Error::definition(
            "name",
            format!("{:?} is a built-in variant; give the definition another name", v.name),
        ));
    }
    let table = v.to_toml().parse::<Table>().expect("a written definition parses");
    registry().insert(v.name.clone(), table);
    Ok(())
}

/// Names of the registered variants.
pub fn registered() -> Vec<String> {
    registry().keys().cloned().collect()
}

/// An error of a definition at `key` (with its line when found).
pub(crate) fn err(src: &Source, key: &str, message: impl Into<String>) -> Error {
    let line = find_line(src.text, key);
    let place = match line {
        Some(n) => format!("{}:{n}: {key}", src.origin),
        None => format!("{}: {key}", src.origin),
    };
    Error::definition(&place, message)
}

/// The line (1-based) where the last part of a dotted key is set in `text`,
/// or the table header that holds it.
fn find_line(text: &str, key: &str) -> Option<usize> {
    let last = key.rsplit('.').next()?.split('[').next()?;
    let header = key.rsplit_once('.').map(|(h, _)| h);
    let mut in_table = header.is_none();
    let mut table_line = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            let name = t.trim_matches(|c| c == '[' || c == ']').trim();
            in_table = header.is_none_or(|h| h == name || h.ends_with(&format!(".{name}")));
            if header.is_some_and(|h| h == name) {
                table_line = Some(i + 1);
            }
            if header.is_none() && !name.is_empty() {
                in_table = false;
            }
            continue;
        }
        if in_table {
            let k = t.split('=').next().unwrap_or("").trim().trim_matches('"');
            if k == last {
                return Some(i + 1);
            }
        }
    }
    table_line.or_else(|| text.lines().position(|l| l.trim_start().starts_with(last) && l.contains('=')).map(|i| i + 1))
}

/// Parse TOML text into a table; syntax errors name the file and line.
pub fn parse_toml(src: &Source) -> Result<Table, Error> {
    src.text.parse::<Table>().map_err(|e| {
        let msg = e.message().to_string();
        let line = e.span().map(|s| src.text[..s.start.min(src.text.len())].lines().count().max(1));
        let place = match line {
            Some(n) => format!("{}:{n}", src.origin),
            None => src.origin.to_string(),
        };
        Error::definition(&place, format!("not valid TOML: {msg}"))
    })
}

/// The raw table of a shipped definition.
pub fn shipped_raw(name: &str) -> Option<Table> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(n, text)| {
        parse_toml(&Source { origin: n, text }).unwrap_or_else(|e| panic!("shipped definition {n} is invalid: {e}"))
    })
}

/// Merge `over` onto `base`: tables merge key by key (recursively), every
/// other value of `over` replaces the base's.
fn merge(base: &mut Table, over: &Table) {
    for (k, v) in over {
        match (base.get_mut(k), v) {
            (Some(Value::Table(b)), Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Resolve inheritance: the table with its `base` chain merged under it.
/// Evaluation weights (`[eval]`, and Burden's `[royal_eval]`) are not
/// inherited: they were fitted to the base's game, and a variant starts
/// from its own defaults.
pub fn resolve(raw: &Table, src: &Source, bases: &dyn Bases) -> Result<Table, Error> {
    let mut chain = vec![raw.clone()];
    let mut seen: Vec<String> = Vec::new();
    while let Some(b) = chain.last().and_then(|t| t.get("base")).cloned() {
        let Value::String(name) = b else {
            return Err(err(src, "base", "must be the name of a variant"));
        };
        if seen.contains(&name) {
            return Err(err(src, "base", format!("inherits from itself through {name:?}")));
        }
        let Some(t) = bases.raw(&name).or_else(|| shipped_raw(&name)) else {
            return Err(err(src, "base", format!("unknown variant {name:?} (known: {})", known_names().join(", "))));
        };
        seen.push(name);
        chain.push(t);
    }
    let mut out = Table::new();
    for t in chain[1..].iter().rev() {
        merge(&mut out, t);
    }
    out.remove("eval");
    out.remove("royal_eval");
    merge(&mut out, &chain[0]);
    out.remove("base");
    Ok(out)
}

/// The name of the catalogue kind among the first fourteen (those that keep
/// their index) with an upper-case symbol, if any: for messages about a
/// letter a variant does not use.
pub fn catalog_name(symbol: &str) -> Option<String> {
    let catalog = CATALOG.parse::<Table>().ok()?;
    fixed_names()
        .into_iter()
        .find(|n| catalog.get(n).and_then(|t| t.get("symbol")).and_then(Value::as_str) == Some(symbol))
}

/// The first [`FIXED`] catalogue names in the file's order (a TOML table
/// keeps its keys sorted, so the order is read from the text).
fn fixed_names() -> Vec<String> {
    CATALOG
        .lines()
        .filter_map(|l| l.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')).map(str::to_string))
        .take(FIXED)
        .collect()
}

/// Names of the shipped definitions.
pub fn known_names() -> Vec<&'static str> {
    SHIPPED.iter().map(|(n, _)| *n).collect()
}

/// Keys a definition may have at the top level.
const TOP_KEYS: [&str; 30] = [
    "eval",
    "royal_eval",
    "promotion_rank",
    "move_rule",
    "repetition",
    "name",
    "description",
    "base",
    "options",
    "files",
    "ranks",
    "start",
    "kinds",
    "royal",
    "royal_count",
    "promoters",
    "promotion",
    "castling",
    "forbidden_ranks",
    "clock_resetters",
    "insufficient_material",
    "evolution",
    "stalemate",
    "scoring",
    "extinction",
    "royal_may_move_into_check",
    "shock",
    "white",
    "black",
    "piece",
];
/// Keys a `[white]` or `[black]` table may have.
const SIDE_KEYS: [&str; 7] = ["kinds", "royal", "royal_count", "promoters", "promotion", "castling", "forbidden_ranks"];
/// Keys of a kind's table.
const KIND_KEYS: [&str; 9] = ["symbol", "betza", "lines", "robotic", "value", "royal_value", "centre", "glyph", "name"];

/// A reader of one definition's values, naming keys in its errors.
struct Reader<'a> {
    src: &'a Source<'a>,
}

impl Reader<'_> {
    fn str<'v>(&self, v: &'v Value, key: &str) -> Result<&'v str, Error> {
        v.as_str().ok_or_else(|| err(self.src, key, format!("must be a string, not {}", v.type_str())))
    }
    fn boolean(&self, t: &Table, key: &str, path: &str, default: bool) -> Result<bool, Error> {
        match t.get(key) {
            None => Ok(default),
            Some(v) => {
                v.as_bool().ok_or_else(|| err(self.src, path, format!("must be true or false, not {}", v.type_str())))
            }
        }
    }
    fn int(&self, v: &Value, key: &str, min: i64, max: i64) -> Result<i64, Error> {
        let n =
            v.as_integer().ok_or_else(|| err(self.src, key, format!("must be an integer, not {}", v.type_str())))?;
        if n < min || n > max {
            return Err(err(self.src, key, format!("{n} is outside {min}..{max}")));
        }
        Ok(n)
    }
    fn list<'v>(&self, v: &'v Value, key: &str) -> Result<Vec<&'v str>, Error> {
        let arr =
            v.as_array().ok_or_else(|| err(self.src, key, format!("must be a list of names, not {}", v.type_str())))?;
        arr.iter().map(|x| self.str(x, key)).collect()
    }
    fn check_keys(&self, t: &Table, allowed: &[&str], path: &str) -> Result<(), Error> {
        for k in t.keys() {
            if !allowed.contains(&k.as_str()) {
                let key = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                return Err(err(self.src, &key, format!("unknown key (known: {})", allowed.join(", "))));
            }
        }
        Ok(())
    }
}

/// A file letter (`a`..) on a board of `files` files.
fn file_index(r: &Reader, v: &Value, key: &str, files: u8) -> Result<u8, Error> {
    let s = r.str(v, key)?;
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        (Some(c @ 'a'..='l'), None) if (c as u8 - b'a') < files => Ok(c as u8 - b'a'),
        _ => Err(err(
            r.src,
            key,
            format!("{s:?} is not a file of a {files}-file board (a..{})", (b'a' + files - 1) as char),
        )),
    }
}

/// The kind table of a definition: catalogue entries merged with the
/// definition's `[piece.<name>]` tables, for the names it uses.
fn kind_spec(r: &Reader, name: &str, table: Option<&Table>, catalog: &Table) -> Result<KindSpec, Error> {
    let path = format!("piece.{name}");
    let mut t = catalog.get(name).and_then(Value::as_table).cloned().unwrap_or_default();
    if let Some(o) = table {
        r.check_keys(o, &KIND_KEYS, &path)?;
        if o.contains_key("lines") {
            t.remove("betza");
        }
        if o.contains_key("betza") {
            t.remove("lines");
        }
        merge(&mut t, o);
    }
    if t.is_empty() {
        return Err(err(
            r.src,
            &path,
            format!("kind {name:?} is neither in the catalogue nor defined by [piece.{name}]"),
        ));
    }
    let symbol = match t.get("symbol") {
        Some(v) => r.str(v, &format!("{path}.symbol"))?.to_string(),
        None => return Err(err(r.src, &path, "needs a symbol (a letter, optionally followed by a prime)")),
    };
    let mut cs = symbol.chars();
    let ok = match (cs.next(), cs.next(), cs.next()) {
        (Some(c), None, None) => c.is_ascii_uppercase(),
        (Some(c), Some('\''), None) => c.is_ascii_uppercase(),
        _ => false,
    };
    if !ok {
        return Err(err(
            r.src,
            &format!("{path}.symbol"),
            format!("{symbol:?} is not an upper-case letter, optionally followed by a prime (A')"),
        ));
    }
    let mut spec = KindSpec {
        name: name.to_string(),
        symbol,
        betza: String::new(),
        glyph: String::new(),
        lines: Vec::new(),
        robotic: r.boolean(&t, "robotic", &format!("{path}.robotic"), false)?,
        double_step: false,
        ep_taker: false,
        bent: false,
        value: 0,
        royal_value: 100,
        centre: 0,
    };
    for (key, field, min, max) in [
        ("value", &mut spec.value, -100_000, 100_000),
        ("royal_value", &mut spec.royal_value, -100_000, 100_000),
        ("centre", &mut spec.centre, -1000, 1000),
    ] {
        if let Some(v) = t.get(key) {
            *field = r.int(v, &format!("{path}.{key}"), min, max)? as i32;
        }
    }
    if let Some(v) = t.get("glyph") {
        spec.glyph = r.str(v, &format!("{path}.glyph"))?.to_string();
    }
    match (t.get("betza"), t.get("lines")) {
        (Some(b), _) => {
            let text = r.str(b, &format!("{path}.betza"))?;
            let p = betza::parse(text).map_err(|e| err(r.src, &format!("{path}.betza"), e))?;
            spec.betza = text.to_string();
            spec.lines = p.lines;
            spec.double_step = p.double_step;
            spec.ep_taker = p.ep_taker;
            spec.bent = p.bent;
        }
        (None, Some(l)) => {
            let arr =
                l.as_array().ok_or_else(|| err(r.src, &format!("{path}.lines"), "must be a list of line tables"))?;
            for (i, item) in arr.iter().enumerate() {
                let key = format!("{path}.lines[{i}]");
                let lt =
                    item.as_table().ok_or_else(|| err(r.src, &key, "must be a table such as { step = [1, 2] }"))?;
                let (lines, flags) = explicit_line(r, lt, &key)?;
                spec.lines.extend(lines);
                spec.double_step |= flags.0;
                spec.ep_taker |= flags.1;
            }
        }
        (None, None) => return Err(err(r.src, &path, "needs its movement: betza = \"...\" or lines = [...]")),
    }
    if spec.lines.is_empty() && !spec.double_step {
        return Err(err(r.src, &path, "has no move"));
    }
    if !t.contains_key("value") {
        spec.value = estimated_value(&spec.lines);
    }
    if !t.contains_key("centre") {
        spec.centre = 10;
    }
    if spec.robotic && (!spec.walked_lines().is_empty() || spec.bent || spec.lines.iter().any(|l| l.leg.is_some())) {
        return Err(err(
            r.src,
            &format!("{path}.robotic"),
            "Robotic hops combine only with plain leaps and full orthogonal or diagonal rides",
        ));
    }
    Ok(spec)
}

/// A material value for a kind defined without one: from its mobility on
/// an empty 8x8 board (the mean number of targets over all squares, a
/// quiet-only or capture-only line counting half, a hop a quarter), as
/// `60 + 38 * mobility` centipawns: 260 for a knight, 592 for a rook, 924
/// for a queen.
fn estimated_value(lines: &[Line]) -> i32 {
    let on_board = |df: i32, dr: i32| ((8 - df.abs()).max(0) * (8 - dr.abs()).max(0)) as f64 / 64.0;
    let mut mobility = 0.0;
    for l in lines {
        let (df, dr) = (l.df as i32, l.dr as i32);
        let reach = if l.ride || l.hop {
            let steps = if l.range == 0 { 7 } else { l.range as i32 };
            (1..=steps).map(|k| on_board(k * df, k * dr)).sum::<f64>()
        } else {
            on_board(df, dr)
        };
        let mode = if l.mode == Mode::Both { 1.0 } else { 0.5 };
        let hop = if l.hop { 0.25 } else { 1.0 };
        mobility += reach * mode * hop;
    }
    (60.0 + 38.0 * mobility).round() as i32
}

/// One explicit line table: `step = [df, dr]`, `ride`, `range`, `mode`,
/// `leg`, `hop`, `symmetry` ("all", "mirror" or "none"), `double_step`,
/// `en_passant`. Returns its lines and (double step, en passant).
fn explicit_line(r: &Reader, t: &Table, key: &str) -> Result<(Vec<Line>, (bool, bool)), Error> {
    r.check_keys(t, &["step", "ride", "range", "mode", "leg", "hop", "symmetry", "double_step", "en_passant"], key)?;
    let pair = |name: &str| -> Result<Option<(i8, i8)>, Error> {
        let Some(v) = t.get(name) else { return Ok(None) };
        let k = format!("{key}.{name}");
        let a =
            v.as_array().filter(|a| a.len() == 2).ok_or_else(|| err(r.src, &k, "must be [file delta, rank delta]"))?;
        Ok(Some((r.int(&a[0], &k, -11, 11)? as i8, r.int(&a[1], &k, -11, 11)? as i8)))
    };
    let double = r.boolean(t, "double_step", &format!("{key}.double_step"), false)?;
    let ep = r.boolean(t, "en_passant", &format!("{key}.en_passant"), false)?;
    let Some((df, dr)) = pair("step")? else {
        if double || ep {
            // A table of flags only: the double step, en passant.
            return Ok((Vec::new(), (double, ep)));
        }
        return Err(err(r.src, key, "needs step = [file delta, rank delta]"));
    };
    if (df, dr) == (0, 0) {
        return Err(err(r.src, &format!("{key}.step"), "[0, 0] is no move"));
    }
    let ride = r.boolean(t, "ride", &format!("{key}.ride"), false)?;
    let hop = r.boolean(t, "hop", &format!("{key}.hop"), false)?;
    let range = match t.get("range") {
        Some(v) => r.int(v, &format!("{key}.range"), 0, 12)? as u8,
        None => 0,
    };
    let mode = match t.get("mode").map(|v| r.str(v, &format!("{key}.mode"))).transpose()? {
        None | Some("both") => Mode::Both,
        Some("move") => Mode::Move,
        Some("capture") => Mode::Capture,
        Some(m) => return Err(err(r.src, &format!("{key}.mode"), format!("{m:?} is not move, capture or both"))),
    };
    let leg = pair("leg")?;
    if leg.is_some() && (ride || hop) {
        return Err(err(r.src, &format!("{key}.leg"), "a lame leg is for leaps, not riders"));
    }
    if let Some((lf, lr)) = leg {
        if (lf, lr) == (0, 0) || lf.abs() > df.abs() || lr.abs() > dr.abs() || lf * df < 0 || lr * dr < 0 {
            return Err(err(r.src, &format!("{key}.leg"), "must be a square between the origin and the target"));
        }
    }
    let hop_ride = hop || ride;
    let symmetry = match t.get("symmetry").map(|v| r.str(v, &format!("{key}.symmetry"))).transpose()? {
        None | Some("all") => 8,
        Some("mirror") => 2,
        Some("none") => 1,
        Some(s) => return Err(err(r.src, &format!("{key}.symmetry"), format!("{s:?} is not all, mirror or none"))),
    };
    type Step = (i8, i8);
    let mut seen: Vec<(Step, Option<Step>)> = Vec::new();
    let images = |(x, y): (i8, i8)| -> Vec<(i8, i8)> {
        match symmetry {
            1 => vec![(x, y)],
            2 => vec![(x, y), (-x, y)],
            _ => vec![(x, y), (y, x), (y, -x), (x, -y), (-x, -y), (-y, -x), (-y, x), (-x, y)],
        }
    };
    let legs: Vec<Option<(i8, i8)>> = match leg {
        Some(l) => images(l).into_iter().map(Some).collect(),
        None => vec![None; images((df, dr)).len()],
    };
    let mut lines = Vec::new();
    for (d, l) in images((df, dr)).into_iter().zip(legs) {
        if seen.contains(&(d, l)) {
            continue;
        }
        seen.push((d, l));
        lines.push(Line { df: d.0, dr: d.1, ride: hop_ride, range, mode, leg: l, hop });
    }
    Ok((lines, (double, ep)))
}

/// Compile a resolved definition table into a variant.
pub fn compile(t: &Table, src: &Source) -> Result<Variant, Error> {
    let r = Reader { src };
    r.check_keys(t, &TOP_KEYS, "")?;
    // Burden's per-royal weights are chosen by its options (`registry`);
    // read with the default options, the king's `[eval]` holds.
    if t.contains_key("royal_eval") && t.get("options").and_then(Value::as_str) != Some("burden") {
        return Err(err(src, "royal_eval", "needs options = \"burden\" (the royal option chooses among them)"));
    }
    let catalog = CATALOG.parse::<Table>().expect("the kind catalogue is valid TOML");
    let name = match t.get("name") {
        Some(v) => r.str(v, "name")?.to_string(),
        None => return Err(err(src, "name", "a definition needs a name")),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(err(src, "name", format!("{name:?} must be letters, digits, '-' or '_'")));
    }
    let description = t.get("description").map(|v| r.str(v, "description")).transpose()?.unwrap_or("").to_string();
    let side_side = |c: Color| t.get(if c == Color::White { "white" } else { "black" });
    for c in Color::BOTH {
        if let Some(v) = side_side(c) {
            let path = if c == Color::White { "white" } else { "black" };
            let st = v.as_table().ok_or_else(|| err(src, path, "must be a table"))?;
            r.check_keys(st, &SIDE_KEYS, path)?;
        }
    }
    // A per-side value, falling back to the top level.
    let get = |c: Color, key: &str| -> Option<(&Value, String)> {
        let path = if c == Color::White { "white" } else { "black" };
        match side_side(c).and_then(Value::as_table).and_then(|st| st.get(key)) {
            Some(v) => Some((v, format!("{path}.{key}"))),
            None => t.get(key).map(|v| (v, key.to_string())),
        }
    };
    let dim = |key: &str| -> Result<u8, Error> {
        match t.get(key) {
            Some(v) => Ok(r.int(v, key, MIN_SIDE as i64, MAX_SIDE as i64)? as u8),
            None => Err(err(src, key, "is required")),
        }
    };
    let size = Size::new(dim("files")?, dim("ranks")?).map_err(|e| err(src, "files", e.message))?;
    let start = match t.get("start") {
        Some(v) => r.str(v, "start")?.to_string(),
        None => return Err(err(src, "start", "is required (a FEN)")),
    };
    // The kinds of each side, in order; ids: the first catalogue kinds keep
    // theirs, the others take the lowest free one in order of appearance.
    let mut army: ByColor<Vec<String>> = ByColor::default();
    for c in Color::BOTH {
        let Some((v, key)) = get(c, "kinds") else {
            return Err(err(src, "kinds", "is required (the names of the kinds each side has)"));
        };
        for n in r.list(v, &key)? {
            if army[c].iter().any(|x| x == n) {
                return Err(err(src, &key, format!("{n:?} is listed twice")));
            }
            army[c].push(n.to_string());
        }
        if army[c].is_empty() {
            return Err(err(src, &key, "a side needs at least one kind"));
        }
    }
    let fixed_order = fixed_names();
    let mut names: Vec<Option<String>> = vec![None; NKINDS];
    let mut all: Vec<String> = Vec::new();
    for c in Color::BOTH {
        for n in &army[c] {
            if !all.contains(n) {
                all.push(n.clone());
            }
        }
    }
    if all.len() > NKINDS {
        return Err(err(src, "kinds", format!("{} kinds: at most {NKINDS} per variant", all.len())));
    }
    for n in &all {
        if let Some(i) = fixed_order.iter().position(|f| f == n) {
            names[i] = Some(n.clone());
        }
    }
    for n in &all {
        if !names.iter().any(|x| x.as_ref() == Some(n)) {
            let free = names.iter().position(Option::is_none).expect("at most NKINDS kinds");
            names[free] = Some(n.clone());
        }
    }
    while names.last().is_some_and(Option::is_none) {
        names.pop();
    }
    let pieces_table = match t.get("piece") {
        Some(v) => Some(v.as_table().ok_or_else(|| err(src, "piece", "must be a table of kinds"))?),
        None => None,
    };
    if let Some(pt) = pieces_table {
        for k in pt.keys() {
            if !all.contains(k) {
                return Err(err(
                    src,
                    &format!("piece.{k}"),
                    format!("kind {k:?} is defined but no side has it in kinds"),
                ));
            }
        }
    }
    let mut kinds: Vec<Option<KindSpec>> = Vec::new();
    for n in &names {
        kinds.push(match n {
            Some(n) => {
                let own = pieces_table
                    .and_then(|pt| pt.get(n))
                    .map(|v| v.as_table().ok_or_else(|| err(src, &format!("piece.{n}"), "must be a table")));
                Some(kind_spec(&r, n, own.transpose()?, &catalog)?)
            }
            None => None,
        });
    }
    let kind_of = |n: &str, key: &str| -> Result<Kind, Error> {
        names
            .iter()
            .position(|x| x.as_deref() == Some(n))
            .map(Kind::from_idx)
            .ok_or_else(|| err(src, key, format!("{n:?} is not one of the variant's kinds ({})", all.join(", "))))
    };
    let mut symbols: Vec<(&str, &str)> = Vec::new();
    for s in kinds.iter().flatten() {
        if let Some((other, _)) = symbols.iter().find(|(_, sym)| *sym == s.symbol) {
            return Err(err(
                src,
                &format!("piece.{}.symbol", s.name),
                format!("{:?} is also the symbol of {other}", s.symbol),
            ));
        }
        symbols.push((&s.name, &s.symbol));
    }
    let set_of = |c: Color, key: &str| -> Result<(KindSet, Vec<Kind>), Error> {
        let Some((v, path)) = get(c, key) else { return Ok((KindSet::EMPTY, Vec::new())) };
        let mut list = Vec::new();
        for n in r.list(v, &path)? {
            let k = kind_of(n, &path)?;
            if !army[c].iter().any(|a| a == n) {
                return Err(err(src, &path, format!("{n:?} is not in {}'s kinds", color_name(c))));
            }
            list.push(k);
        }
        Ok((KindSet::of(&list), list))
    };
    let mut v = Variant {
        name,
        description,
        option_set: None,
        options: Vec::new(),
        size,
        start_fen: start,
        kinds,
        pieces: ByColor::default(),
        royal: ByColor::default(),
        royal_count: ByColor([RoyalCount { min: 1, max: 1 }; 2]),
        evolve: std::array::from_fn(Kind::from_idx),
        promoters: ByColor::default(),
        promotion_choices: ByColor::default(),
        castling: ByColor([None; 2]),
        stalemate: StalemateRule::Draw,
        shock: None,
        clock_resetters: KindSet::EMPTY,
        insufficient_material: r.boolean(t, "insufficient_material", "insufficient_material", false)?,
        scoring: r.boolean(t, "scoring", "scoring", false)?,
        extinction: r.boolean(t, "extinction", "extinction", false)?,
        royal_may_move_into_check: r.boolean(t, "royal_may_move_into_check", "royal_may_move_into_check", false)?,
        forbidden_ranks: Vec::new(),
        promotion_rank: ByColor([size.ranks - 1, 0]),
        move_rule: 100,
        repetitions: 3,
        weights: None,
    };
    if let Some(val) = t.get("promotion_rank") {
        // Counted from each side's own first rank, the same for both.
        let n = r.int(val, "promotion_rank", 2, size.ranks as i64)? as u8;
        v.promotion_rank = ByColor([n - 1, size.ranks - n]);
    }
    if let Some(val) = t.get("move_rule") {
        let n = r.int(val, "move_rule", 0, 10_000)? as u32;
        v.move_rule = if n == 0 { u32::MAX } else { 2 * n };
    }
    if let Some(val) = t.get("repetition") {
        v.repetitions = r.int(val, "repetition", 2, 10)? as u32;
    }
    if let Some(o) = t.get("options") {
        let o = r.str(o, "options")?;
        if o != "burden" {
            return Err(err(src, "options", format!("{o:?} is not an option set (known: burden)")));
        }
        v.option_set = Some(o.to_string());
    }
    for c in Color::BOTH {
        let list: Vec<Kind> = army[c].iter().map(|n| kind_of(n, "kinds")).collect::<Result<_, _>>()?;
        v.pieces[c] = KindSet::of(&list);
        v.royal[c] = set_of(c, "royal")?.0;
        if let Some((val, path)) = get(c, "royal_count") {
            v.royal_count[c] = if val.as_str() == Some("any") {
                RoyalCount { min: 0, max: u32::MAX }
            } else {
                let a = val
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .ok_or_else(|| err(src, &path, "must be [fewest, most] or \"any\""))?;
                let (lo, hi) = (r.int(&a[0], &path, 0, 128)? as u32, r.int(&a[1], &path, 0, 128)? as u32);
                if lo > hi {
                    return Err(err(src, &path, format!("fewest {lo} is more than most {hi}")));
                }
                RoyalCount { min: lo, max: hi }
            };
        }
        v.promoters[c] = set_of(c, "promoters")?.0;
        v.promotion_choices[c] = set_of(c, "promotion")?.1;
        if v.promoters[c] != KindSet::EMPTY && v.promotion_choices[c].is_empty() {
            return Err(err(src, "promotion", format!("{} has promoters but no promotion choices", color_name(c))));
        }
        if let Some((val, path)) = get(c, "castling") {
            v.castling[c] = castling(&r, val, &path, size, &|n, k| kind_of(n, k))?;
            if let Some(cs) = v.castling[c] {
                for (k, what) in [(cs.king, "king"), (cs.rook, "rook")] {
                    if !v.pieces[c].has(k) {
                        return Err(err(
                            src,
                            &path,
                            format!("the castling {what} is not in {}'s kinds", color_name(c)),
                        ));
                    }
                }
            }
        }
        if let Some((val, path)) = get(c, "forbidden_ranks") {
            let ft = val.as_table().ok_or_else(|| err(src, &path, "must be a table: kind = [ranks]"))?;
            for (kn, ranks) in ft {
                let key = format!("{path}.{kn}");
                // Entries for kinds the variant lacks are skipped, so a
                // derived variant may drop kinds of its base.
                let Ok(k) = kind_of(kn, &key) else { continue };
                let arr = ranks.as_array().ok_or_else(|| err(src, &key, "must be a list of ranks (1 = the first)"))?;
                for rank in arr {
                    let n = r.int(rank, &key, 1, size.ranks as i64)? as u8;
                    v.forbidden_ranks.push((c, k, n - 1));
                }
            }
        }
    }
    if let Some(val) = t.get("clock_resetters") {
        let list: Vec<Kind> =
            r.list(val, "clock_resetters")?.into_iter().filter_map(|n| kind_of(n, "clock_resetters").ok()).collect();
        v.clock_resetters = KindSet::of(&list);
    }
    if let Some(val) = t.get("evolution") {
        let et = val.as_table().ok_or_else(|| err(src, "evolution", "must be a table: kind = \"successor\""))?;
        for (from, to) in et {
            let key = format!("evolution.{from}");
            let Ok(f) = kind_of(from, &key) else { continue };
            let to = kind_of(r.str(to, &key)?, &key)?;
            for c in Color::BOTH {
                if v.pieces[c].has(f) && !v.pieces[c].has(to) {
                    return Err(err(src, &key, format!("{} has {from} but not its successor", color_name(c))));
                }
            }
            v.evolve[f.idx()] = to;
        }
    }
    if let Some(val) = t.get("stalemate") {
        v.stalemate = match r.str(val, "stalemate")? {
            "draw" => StalemateRule::Draw,
            "loss" => StalemateRule::Loss,
            s => return Err(err(src, "stalemate", format!("{s:?} is not draw or loss"))),
        };
    }
    if let Some(val) = t.get("shock") {
        let st = val.as_table().ok_or_else(|| err(src, "shock", "must be a table { side, files }"))?;
        r.check_keys(st, &["side", "files"], "shock")?;
        let side = match st.get("side").map(|s| r.str(s, "shock.side")).transpose()? {
            Some("white") => Color::White,
            Some("black") => Color::Black,
            other => return Err(err(src, "shock.side", format!("{other:?}: must be white or black"))),
        };
        let files = st
            .get("files")
            .and_then(Value::as_array)
            .filter(|a| a.len() == 2)
            .ok_or_else(|| err(src, "shock.files", "must be two adjacent files, e.g. [\"d\", \"e\"]"))?;
        let (l, rr) = (
            file_index(&r, &files[0], "shock.files", size.files)?,
            file_index(&r, &files[1], "shock.files", size.files)?,
        );
        if rr != l + 1 {
            return Err(err(src, "shock.files", "the two files must be adjacent, left first"));
        }
        v.shock = Some(Shock { side, left_file: l, right_file: rr });
    }
    if let Some(val) = t.get("eval") {
        let et = val.as_table().ok_or_else(|| err(src, "eval", "must be a table of evaluation weights"))?;
        let mut w = Weights::defaults(&v);
        w.read(&v, et).map_err(|(key, m)| err(src, &key, m))?;
        v.weights = Some(w);
    }
    validate(&v, src)?;
    Ok(v)
}

fn color_name(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// `castling = "fide" | "none" | { king = "e", kingside = {...}, ... }`.
fn castling(
    r: &Reader,
    v: &Value,
    path: &str,
    size: Size,
    kind_of: &dyn Fn(&str, &str) -> Result<Kind, Error>,
) -> Result<Option<Castling>, Error> {
    if let Some(s) = v.as_str() {
        return match s {
            "none" => Ok(None),
            "fide" if size.files == 8 => Ok(Some(Castling::FIDE)),
            "fide" => Err(err(r.src, path, "\"fide\" castling needs 8 files; give the files as a table")),
            _ => Err(err(r.src, path, format!("{s:?} is not fide or none (or a table)"))),
        };
    }
    let t = v.as_table().ok_or_else(|| err(r.src, path, "must be \"fide\", \"none\" or a table"))?;
    r.check_keys(t, &["king", "rook", "king_file", "kingside", "queenside"], path)?;
    let name = |key: &str, default: &str| -> Result<String, Error> {
        Ok(t.get(key).map(|x| r.str(x, &format!("{path}.{key}"))).transpose()?.unwrap_or(default).to_string())
    };
    let king = kind_of(&name("king", "king")?, &format!("{path}.king"))?;
    let rook = kind_of(&name("rook", "rook")?, &format!("{path}.rook"))?;
    let kf = t.get("king_file").ok_or_else(|| err(r.src, &format!("{path}.king_file"), "is required"))?;
    let king_from = file_index(r, kf, &format!("{path}.king_file"), size.files)?;
    let mut moves = [CastleMove { rook_from: 0, king_to: 0, rook_to: 0 }; 2];
    for (i, side) in ["kingside", "queenside"].iter().enumerate() {
        let key = format!("{path}.{side}");
        let st = t
            .get(*side)
            .and_then(Value::as_table)
            .ok_or_else(|| err(r.src, &key, "is required: { rook_file, king_to, rook_to }"))?;
        r.check_keys(st, &["rook_file", "king_to", "rook_to"], &key)?;
        let f = |k: &str| -> Result<u8, Error> {
            let val = st.get(k).ok_or_else(|| err(r.src, &format!("{key}.{k}"), "is required"))?;
            file_index(r, val, &format!("{key}.{k}"), size.files)
        };
        moves[i] = CastleMove { rook_from: f("rook_file")?, king_to: f("king_to")?, rook_to: f("rook_to")? };
        let m = moves[i];
        let kingward = if i == 0 { m.rook_from > king_from } else { m.rook_from < king_from };
        if !kingward {
            return Err(err(
                r.src,
                &format!("{key}.rook_file"),
                format!("the {side} rook must stand on the {} of the king", if i == 0 { "right" } else { "left" }),
            ));
        }
    }
    Ok(Some(Castling { king, rook, king_from, moves }))
}

/// The checks a compiled variant must pass to be playable.
fn validate(v: &Variant, src: &Source) -> Result<(), Error> {
    for c in Color::BOTH {
        if v.royal[c] == KindSet::EMPTY && !v.extinction {
            return Err(err(
                src,
                "royal",
                format!(
                    "{} has no royal kind and the variant has no extinction rule, so it can never lose",
                    color_name(c)
                ),
            ));
        }
    }
    // Every kind must be able to appear: in the start position, by
    // promotion or by evolution.
    let board: String = v.start_fen.split_whitespace().next().unwrap_or("").to_string();
    for c in Color::BOTH {
        for k in v.pieces[c].kinds() {
            let spec = v.spec(k);
            let sym = spec.symbol_for(c == Color::White);
            let placed = fen_has(&board, &sym);
            let promoted = v.promotion_choices[c].contains(&k);
            let evolved = v.pieces[c].kinds().any(|f| f != k && v.evolve[f.idx()] == k);
            if !(placed || promoted || evolved) {
                return Err(err(
                    src,
                    "kinds",
                    format!("{} has {} but it is never placed: not in the start position, not a promotion choice, not evolved into", color_name(c), spec.name),
                ));
            }
        }
    }
    Ok(())
}

/// True when the placement field of a FEN holds the symbol (a letter, or a
/// letter with a prime).
fn fen_has(board: &str, sym: &str) -> bool {
    let cs: Vec<char> = board.chars().collect();
    let want: Vec<char> = sym.chars().collect();
    (0..cs.len()).any(|i| {
        cs[i] == want[0]
            && match want.get(1) {
                Some(p) => cs.get(i + 1) == Some(p),
                None => cs.get(i + 1) != Some(&'\''),
            }
    })
}

/// Write a variant as a self-contained definition that loads back equal.
/// Read a weights file (`variant = "chess"` and an `[eval]` table, as
/// `fairyforge tune` writes) onto `v`'s weights.
pub fn weights_file(src: &Source, v: &Variant) -> Result<Weights, Error> {
    let t = parse_toml(src)?;
    let r = Reader { src };
    r.check_keys(&t, &["variant", "eval"], "")?;
    match t.get("variant") {
        Some(name) if r.str(name, "variant")? == v.name => {}
        Some(name) => {
            return Err(err(src, "variant", format!("the weights are for {}, not {}", r.str(name, "variant")?, v.name)))
        }
        None => return Err(err(src, "variant", "is required (the variant the weights are for)")),
    }
    let mut w = v.weights.clone().unwrap_or_else(|| Weights::defaults(v));
    if let Some(val) = t.get("eval") {
        let et = val.as_table().ok_or_else(|| err(src, "eval", "must be a table of evaluation weights"))?;
        w.read(v, et).map_err(|(key, m)| err(src, &key, m))?;
    }
    Ok(w)
}

/// The text of a weights file for `v`.
pub fn write_weights(v: &Variant, w: &Weights) -> String {
    let mut t = Table::new();
    t.insert("variant".into(), Value::String(v.name.clone()));
    t.insert("eval".into(), Value::Table(w.write(v)));
    format!(
        "# Evaluation weights of {} as [middlegame, endgame] centipawns (docs/TUNING.md).\n{}",
        v.name,
        toml::to_string(&t).expect("a table of plain values serialises")
    )
}

pub fn write(v: &Variant) -> String {
    let mut t = Table::new();
    let s = |x: &str| Value::String(x.to_string());
    let names = |set: &[Kind]| Value::Array(set.iter().map(|&k| s(&v.spec(k).name)).collect());
    t.insert("name".into(), s(&v.name));
    if !v.description.is_empty() {
        t.insert("description".into(), s(&v.description));
    }
    if let Some(o) = &v.option_set {
        t.insert("options".into(), s(o));
    }
    t.insert("files".into(), Value::Integer(v.size.files as i64));
    t.insert("ranks".into(), Value::Integer(v.size.ranks as i64));
    t.insert("start".into(), s(&v.start_fen));
    t.insert("insufficient_material".into(), Value::Boolean(v.insufficient_material));
    t.insert("scoring".into(), Value::Boolean(v.scoring));
    t.insert("extinction".into(), Value::Boolean(v.extinction));
    t.insert("royal_may_move_into_check".into(), Value::Boolean(v.royal_may_move_into_check));
    t.insert("stalemate".into(), s(if v.stalemate_loses() { "loss" } else { "draw" }));
    t.insert("promotion_rank".into(), Value::Integer(v.promotion_rank[Color::White] as i64 + 1));
    t.insert("move_rule".into(), Value::Integer(if v.move_rule == u32::MAX { 0 } else { v.move_rule as i64 / 2 }));
    t.insert("repetition".into(), Value::Integer(v.repetitions as i64));
    t.insert("clock_resetters".into(), names(&v.clock_resetters.kinds().collect::<Vec<_>>()));
    let mut evo = Table::new();
    for c in Color::BOTH {
        for k in v.pieces[c].kinds() {
            if v.evolve[k.idx()] != k {
                evo.insert(v.spec(k).name.clone(), s(&v.spec(v.evolve[k.idx()]).name));
            }
        }
    }
    t.insert("evolution".into(), Value::Table(evo));
    if let Some(sh) = v.shock {
        let mut st = Table::new();
        st.insert("side".into(), s(color_name(sh.side)));
        let f = |i: u8| s(&((b'a' + i) as char).to_string());
        st.insert("files".into(), Value::Array(vec![f(sh.left_file), f(sh.right_file)]));
        t.insert("shock".into(), Value::Table(st));
    }
    for c in Color::BOTH {
        let mut st = Table::new();
        st.insert("kinds".into(), names(&v.pieces[c].kinds().collect::<Vec<_>>()));
        st.insert("royal".into(), names(&v.royal[c].kinds().collect::<Vec<_>>()));
        let rc = v.royal_count[c];
        st.insert(
            "royal_count".into(),
            if rc.max == u32::MAX {
                s("any")
            } else {
                Value::Array(vec![Value::Integer(rc.min as i64), Value::Integer(rc.max as i64)])
            },
        );
        st.insert("promoters".into(), names(&v.promoters[c].kinds().collect::<Vec<_>>()));
        st.insert("promotion".into(), names(&v.promotion_choices[c]));
        st.insert(
            "castling".into(),
            match v.castling[c] {
                None => s("none"),
                Some(cs) => {
                    let f = |i: u8| s(&((b'a' + i) as char).to_string());
                    let mut ct = Table::new();
                    ct.insert("king".into(), s(&v.spec(cs.king).name));
                    ct.insert("rook".into(), s(&v.spec(cs.rook).name));
                    ct.insert("king_file".into(), f(cs.king_from));
                    for (i, side) in ["kingside", "queenside"].iter().enumerate() {
                        let m = cs.moves[i];
                        let mut mt = Table::new();
                        mt.insert("rook_file".into(), f(m.rook_from));
                        mt.insert("king_to".into(), f(m.king_to));
                        mt.insert("rook_to".into(), f(m.rook_to));
                        ct.insert(side.to_string(), Value::Table(mt));
                    }
                    Value::Table(ct)
                }
            },
        );
        let mut fr: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for &(fc, k, rank) in &v.forbidden_ranks {
            if fc == c {
                fr.entry(v.spec(k).name.clone()).or_default().push(Value::Integer(rank as i64 + 1));
            }
        }
        st.insert("forbidden_ranks".into(), Value::Table(fr.into_iter().map(|(k, l)| (k, Value::Array(l))).collect()));
        t.insert(color_name(c).into(), Value::Table(st));
    }
    let mut pt = Table::new();
    for spec in v.kinds.iter().flatten() {
        let mut kt = Table::new();
        kt.insert("symbol".into(), s(&spec.symbol));
        if spec.betza.is_empty() {
            let mut lines: Vec<Value> = spec.lines.iter().map(line_table).collect();
            if spec.double_step || spec.ep_taker {
                let mut flags = Table::new();
                flags.insert("double_step".into(), Value::Boolean(spec.double_step));
                flags.insert("en_passant".into(), Value::Boolean(spec.ep_taker));
                lines.push(Value::Table(flags));
            }
            kt.insert("lines".into(), Value::Array(lines));
        } else {
            kt.insert("betza".into(), s(&spec.betza));
        }
        kt.insert("robotic".into(), Value::Boolean(spec.robotic));
        kt.insert("value".into(), Value::Integer(spec.value as i64));
        kt.insert("royal_value".into(), Value::Integer(spec.royal_value as i64));
        kt.insert("centre".into(), Value::Integer(spec.centre as i64));
        kt.insert("glyph".into(), s(&spec.glyph));
        pt.insert(spec.name.clone(), Value::Table(kt));
    }
    t.insert("piece".into(), Value::Table(pt));
    if let Some(w) = &v.weights {
        t.insert("eval".into(), Value::Table(w.write(v)));
    }
    toml::to_string(&t).expect("a table of plain values serialises")
}

fn line_table(l: &Line) -> Value {
    let mut t = Table::new();
    t.insert("step".into(), Value::Array(vec![Value::Integer(l.df as i64), Value::Integer(l.dr as i64)]));
    t.insert("symmetry".into(), Value::String("none".into()));
    if l.ride {
        t.insert("ride".into(), Value::Boolean(true));
    }
    if l.hop {
        t.insert("hop".into(), Value::Boolean(true));
    }
    if l.range != 0 {
        t.insert("range".into(), Value::Integer(l.range as i64));
    }
    let mode = match l.mode {
        Mode::Move => "move",
        Mode::Capture => "capture",
        Mode::Both => "both",
    };
    t.insert("mode".into(), Value::String(mode.into()));
    if let Some((f, r)) = l.leg {
        t.insert("leg".into(), Value::Array(vec![Value::Integer(f as i64), Value::Integer(r as i64)]));
    }
    Value::Table(t)
}
