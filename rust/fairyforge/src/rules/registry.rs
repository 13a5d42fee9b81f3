//! Variants by name: the shipped definitions (compiled once and cached),
//! the registry of the ones loaded in this process, and the Burden option
//! set applied to a definition before it is compiled.

use crate::error::Error;
use crate::geometry::Size;
use crate::rules::definition::{self, Bases};
use crate::rules::variant::{Variant, BURDEN_OPTIONS};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use toml::{Table, Value};

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
    // Evaluation weights are fitted to one royal kind and army: `[eval]`
    // is the king's with pawns, `[royal_eval.NAME]` another royal's; any
    // other choice plays with the defaults.
    let by_royal = t.remove("royal_eval");
    if royal != "king" || knights {
        t.remove("eval");
    }
    if let (Some(Value::Table(m)), false) = (by_royal, knights) {
        if let (Some(e), true) = (m.get(&royal), royal != "king") {
            t.insert("eval".into(), e.clone());
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
