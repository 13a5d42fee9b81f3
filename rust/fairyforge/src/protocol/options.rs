//! The variant settings both protocols share: the variant name and the
//! Burden options (RULES.md §5.5) as engine options, with their types,
//! defaults and allowed values, and the [`Variant`] they build.

use crate::error::Error;
use crate::rules::variant::Variant;

/// The type of an engine option and what values it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptType {
    /// One of a closed set of words.
    Combo(&'static [&'static str]),
    /// An integer in a range.
    Spin { min: i64, max: i64 },
    /// `true` or `false`.
    Check,
}

/// One Burden option as an engine option.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spec {
    /// The option name, as `Variant::burden` takes it.
    pub name: &'static str,
    /// Its type and allowed values.
    pub kind: OptType,
    /// The value meaning "not given" (the variant's default).
    pub default: &'static str,
}

/// Value of `preset` meaning "no preset".
const NO_PRESET: &str = "none";

/// The Burden options in `crate::rules::variant::BURDEN_OPTIONS` order. The
/// ranges are those the board size allows (4 to 12 files and ranks, with
/// `2 x (back_gap + pawn_ranks) + middle_gap` ranks); a combination
/// outside them is refused when the variant is built.
pub(crate) const BURDEN: [Spec; 9] = [
    Spec { name: "royal", kind: OptType::Combo(&["king", "maharajah", "gryphon"]), default: "king" },
    Spec { name: "cycle", kind: OptType::Combo(&["none", "pawn", "knight"]), default: "none" },
    Spec { name: "royal_may_move_into_check", kind: OptType::Check, default: "false" },
    Spec { name: "files", kind: OptType::Spin { min: 4, max: 12 }, default: "8" },
    Spec { name: "pawn_ranks", kind: OptType::Spin { min: 1, max: 6 }, default: "3" },
    Spec { name: "back_gap", kind: OptType::Spin { min: 0, max: 5 }, default: "1" },
    Spec { name: "middle_gap", kind: OptType::Spin { min: 0, max: 10 }, default: "0" },
    Spec { name: "army", kind: OptType::Combo(&["pawns", "knights"]), default: "pawns" },
    Spec { name: "preset", kind: OptType::Combo(&[NO_PRESET, "wittman"]), default: NO_PRESET },
];

/// The chosen variant and the current value of every Burden option.
#[derive(Clone, Debug)]
pub(crate) struct VariantConfig {
    /// Variant name (a shipped or loaded variant).
    pub name: String,
    /// Current values, in [`BURDEN`] order.
    pub values: Vec<String>,
}

impl Default for VariantConfig {
    fn default() -> VariantConfig {
        VariantConfig { name: "chess".into(), values: BURDEN.iter().map(|s| s.default.to_string()).collect() }
    }
}

/// The Burden option called `name` (case-insensitive), with its index.
pub(crate) fn find(name: &str) -> Option<(usize, &'static Spec)> {
    BURDEN.iter().enumerate().find(|(_, s)| s.name.eq_ignore_ascii_case(name))
}

/// The normalised value for an option of type `kind`, or why it is refused.
pub(crate) fn check_value(kind: OptType, value: &str) -> Result<String, String> {
    let v = value.trim();
    match kind {
        OptType::Combo(words) => words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(v))
            .map(|w| w.to_string())
            .ok_or_else(|| format!("bad value {v:?} (allowed: {})", words.join(", "))),
        OptType::Spin { min, max } => match v.parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n.to_string()),
            Ok(n) => Err(format!("{n} is outside {min}..{max}")),
            Err(_) => Err(format!("bad value {v:?} (expected an integer)")),
        },
        OptType::Check => match v.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok("true".into()),
            "false" | "0" => Ok("false".into()),
            _ => Err(format!("bad value {v:?} (expected true or false)")),
        },
    }
}

impl VariantConfig {
    /// Choose the variant by its protocol name (case-insensitive).
    pub fn set_name(&mut self, name: &str) -> Result<(), String> {
        let names = Variant::names();
        let found = names.iter().find(|n| n.eq_ignore_ascii_case(name.trim()));
        let n = found.ok_or_else(|| format!("unknown variant {:?} (known: {})", name.trim(), names.join(", ")))?;
        self.name = n.to_string();
        Ok(())
    }

    /// True when the chosen variant takes the Burden options.
    pub fn takes_burden_options(&self) -> bool {
        Variant::new(&self.name, &[]).is_ok_and(|v| v.option_set.as_deref() == Some("burden"))
    }

    /// Set the Burden option at `index` of [`BURDEN`].
    pub fn set(&mut self, index: usize, value: &str) -> Result<(), String> {
        let spec = BURDEN.get(index).ok_or("no such option")?;
        self.values[index] = check_value(spec.kind, value).map_err(|e| format!("{}: {e}", spec.name))?;
        Ok(())
    }

    /// The variant these settings describe: the Burden options that differ
    /// from their defaults apply when the variant is Burden, and are kept
    /// but ignored otherwise.
    pub fn build(&self) -> Result<Variant, Error> {
        let options: Vec<(String, String)> = if self.takes_burden_options() {
            BURDEN
                .iter()
                .zip(&self.values)
                .filter(|(s, v)| v.as_str() != s.default)
                .map(|(s, v)| (s.name.to_string(), v.clone()))
                .collect()
        } else {
            Vec::new()
        };
        Variant::new(&self.name, &options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_are_those_burden_takes() {
        let names: Vec<&str> = BURDEN.iter().map(|s| s.name).collect();
        assert_eq!(names, crate::rules::variant::BURDEN_OPTIONS);
        for s in BURDEN {
            assert_eq!(check_value(s.kind, s.default).as_deref(), Ok(s.default), "{}", s.name);
        }
    }

    #[test]
    fn only_changed_options_reach_the_variant() {
        let mut c = VariantConfig::default();
        c.set_name("Burden").unwrap();
        assert_eq!(c.build().unwrap(), Variant::burden(&[]).unwrap());
        c.set(find("PRESET").unwrap().0, "Wittman").unwrap();
        assert_eq!(c.build().unwrap().size.files, 7);
        c.set(find("files").unwrap().0, "10").unwrap();
        assert_eq!(c.build().unwrap_err().field, "files");
        assert!(c.set(find("files").unwrap().0, "13").is_err());
        assert!(c.set(find("royal").unwrap().0, "emperor").is_err());
        c.set_name("chess").unwrap();
        assert_eq!(c.build().unwrap(), Variant::chess());
        assert!(c.set_name("xiangqi").is_err());
    }
}
