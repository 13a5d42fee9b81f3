//! Evaluation weights as data: every term of the static evaluation is a
//! (middlegame, endgame) pair in centipawns with a name, so a definition's
//! `[eval]` table or a weights file can set it and `fairyforge tune` can fit
//! it. Unset terms take defaults derived from the variant: the kinds'
//! values (evolution-adjusted, [`evolved_values`]) and centre weights, and
//! fixed ones for the rest (their rationale is in [`crate::rules::psq`] and
//! the search's evaluation).
//!
//! Each term multiplies a *basis*: a count (pieces, attackers, passed
//! promoters) or a function of the square ([`square_basis`]). The
//! evaluation is linear in the weights, which is what the tuner fits.

use crate::geometry::Size;
use crate::piece::{Color, Kind, NKINDS};
use crate::rules::movement::KindSpec;
use crate::rules::terms::{
    kind_mobility, kind_square, kind_term, term, KindTerm, Pair, Term, Weights, HALF_FILES, KIND_TERMS,
    KIND_TERM_NAMES, MAX_WEIGHT, MOBILITY_CELLS, TERMS, TERM_NAMES,
};
use crate::rules::variant::{KindSet, Variant};
use toml::{Table, Value};

/// Share of a piece's value taken from what it evolves into.
pub const EVOLVE_WEIGHT: f64 = 0.3;

/// How the square terms apply to a kind of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A royal present from the start: never captured, kept home in the
    /// middlegame and centralised in the endgame.
    Royal,
    /// A kind that promotes: advance and file centralisation.
    Promoter,
    /// Any other piece (royals born in play included): centralisation.
    Piece,
}

/// The square functions the square terms multiply, for a piece of colour
/// `c` on `sq`.
#[derive(Clone, Copy, Debug)]
pub struct SquareBasis {
    /// 1 in the centre, -1 in the corners.
    pub centre: f64,
    /// 1 on the middle files, -1 on the edge ones.
    pub file_centre: f64,
    /// Square of the share of the way to the last rank travelled.
    pub advance: f64,
    /// 1 on the first rank, -1 on the second, -2.5 on the third, down to -5.
    pub back: f64,
    /// The square's cell ([`kind_square`]): its rank counted from the
    /// piece's side, its file folded onto the left half.
    pub cell: usize,
}

/// The name of a cell, as the square of the left half White sees (`d4`:
/// a piece on d4 or e4 for White, d5 or e5 for Black).
pub fn cell_name(cell: usize) -> String {
    format!("{}{}", (b'a' + (cell % HALF_FILES) as u8) as char, cell / HALF_FILES + 1)
}

/// The [`SquareBasis`] of a square.
pub fn square_basis(size: Size, c: Color, sq: usize) -> SquareBasis {
    let (files, ranks) = (size.files as i32, size.ranks as i32);
    let (f, r) = (size.file_of(sq) as i32, size.rank_of(sq) as i32);
    let max_cd = ((files - 1) + (ranks - 1)) as f64;
    let centre = 1.0 - 2.0 * ((2 * f - (files - 1)).abs() + (2 * r - (ranks - 1)).abs()) as f64 / max_cd;
    let file_centre = 1.0 - 2.0 * (2 * f - (files - 1)).abs() as f64 / (files - 1) as f64;
    let rr = if c == Color::White { r } else { ranks - 1 - r };
    let t = rr as f64 / (ranks - 1) as f64;
    let back = match rr {
        0 => 1.0,
        1 => -1.0,
        _ => ((-25 - 5 * (rr - 2)).max(-50)) as f64 / 10.0,
    };
    let folded = f.min(files - 1 - f) as usize;
    SquareBasis { centre, file_centre, advance: t * t, back, cell: rr as usize * HALF_FILES + folded }
}

/// Royals arise during play (Burden's crowning queens).
pub fn royal_born(v: &Variant) -> bool {
    Color::BOTH.iter().any(|&c| v.crowners(c) != KindSet::EMPTY)
}

/// The [`Role`] of kind `k` of side `c`.
pub fn role(v: &Variant, c: Color, k: Kind, royal_born: bool) -> Role {
    if v.royal[c].has(k) && !royal_born {
        Role::Royal
    } else if v.promoters[c].has(k) {
        Role::Promoter
    } else {
        Role::Piece
    }
}

/// The terms of one piece of kind `k` with role `role` on a square of
/// basis `b`: (parameter, basis) pairs; the piece's score is their sum of
/// weight times basis, for White (Black's is its negation). The value
/// comes first (royals present from the start have none), the kind's
/// square cell last.
pub fn piece_terms(k: Kind, role: Role, b: &SquareBasis) -> [(usize, f64); 4] {
    let cell = (kind_square(k, b.cell), 1.0);
    match role {
        Role::Royal => [(term(Term::RoyalBack), b.back), (term(Term::RoyalCentre), b.centre), cell, (0, 0.0)],
        Role::Promoter => [
            (kind_term(k, KindTerm::Value), 1.0),
            (kind_term(k, KindTerm::FileCentre), b.file_centre),
            (kind_term(k, KindTerm::Advance), b.advance),
            cell,
        ],
        Role::Piece => {
            [(kind_term(k, KindTerm::Value), 1.0), (kind_term(k, KindTerm::Centre), b.centre), cell, (0, 0.0)]
        }
    }
}

/// Whether mobility is counted for a kind: its attacks are leaps and plain
/// rides (walked lines, hops and bent rides are left out).
pub fn has_mobility(spec: &KindSpec) -> bool {
    !spec.robotic && !spec.bent && spec.lines.iter().all(|l| !l.hop && l.range == 0)
}

/// The most squares a kind's mobility can count on an empty board of
/// `size`: its leaps and its full orthogonal and diagonal rides from the
/// best square.
fn mobility_reach(spec: &KindSpec, size: Size) -> usize {
    let (files, ranks) = (size.files as i32, size.ranks as i32);
    let mut rays: Vec<(i32, i32, bool)> =
        spec.lines.iter().filter(|l| !l.ride).map(|l| (l.df as i32, l.dr as i32, false)).collect();
    for (diagonal, dirs) in [(false, [(0, 1), (0, -1), (1, 0), (-1, 0)]), (true, [(1, 1), (-1, -1), (1, -1), (-1, 1)])]
    {
        if spec.rides(diagonal) {
            rays.extend(dirs.iter().map(|&(df, dr)| (df, dr, true)));
        }
    }
    let mut best = 0;
    for f in 0..files {
        for r in 0..ranks {
            let mut seen = std::collections::HashSet::new();
            for &(df, dr, ride) in &rays {
                let (mut tf, mut tr) = (f + df, r + dr);
                while (0..files).contains(&tf) && (0..ranks).contains(&tr) {
                    seen.insert((tf, tr));
                    if !ride {
                        break;
                    }
                    (tf, tr) = (tf + df, tr + dr);
                }
            }
            best = best.max(seen.len());
        }
    }
    best
}

/// Whether a kind's attacks are counted by the threat and royal-zone
/// terms: its leaps and rides (hops and lame leaps are left out), for every
/// kind but bent riders.
pub fn attacks_counted(spec: &KindSpec) -> bool {
    !spec.bent
}

impl Weights {
    /// The default weights of a variant.
    pub fn defaults(v: &Variant) -> Weights {
        let born = royal_born(v);
        let values = evolved_values(v);
        let royal_any = KindSet(v.royal[Color::White].0 | v.royal[Color::Black].0);
        let mut w = Weights::zero();
        let defaults: [(Term, Pair); 11] = [
            // Doubled, Isolated, RoyalShelter, RoyalDanger, the passed
            // refinements and every kind's Mobility, Pair, OpenFile and
            // threat terms start at zero: terms for the tuner to weigh.
            (Term::Tempo, [10.0, 10.0]),
            (Term::Passed, [10.0, 20.0]),
            (Term::PassedAdvance, [40.0, 150.0]),
            (Term::RoyalBack, [10.0, 0.0]),
            (Term::RoyalCentre, [0.0, 20.0]),
            (Term::RoyalAttackers, [10.0, 0.0]),
            (Term::RoyalNear1, [8.0, 8.0]),
            (Term::RoyalNear2, [4.0, 4.0]),
            (Term::CrownerNear, [12.0, 12.0]),
            (Term::ShockFile, [8.0, 8.0]),
            (Term::ShockPair, [25.0, 25.0]),
        ];
        for (t, p) in defaults {
            w.set(term(t), p);
        }
        for (k, spec) in v.all_kinds() {
            let val = values[k.idx()] as f64;
            w.set(kind_term(k, KindTerm::Value), [val, val]);
            let c = spec.centre as f64;
            w.set(kind_term(k, KindTerm::Centre), if born && royal_any.has(k) { [8.0, 8.0] } else { [c, c / 2.0] });
            w.set(kind_term(k, KindTerm::Advance), [40.0, 120.0]);
            w.set(kind_term(k, KindTerm::FileCentre), [6.0, 0.0]);
        }
        w
    }

    /// The parameters the evaluation of `v` uses, with their names
    /// (`tempo`, `knight.value`): the position terms, then kind by kind its
    /// terms, mobility cells and square cells.
    pub fn active(v: &Variant) -> Vec<(usize, String)> {
        let born = royal_born(v);
        let any_promoter = Color::BOTH.iter().any(|&c| v.promoters[c] != KindSet::EMPTY);
        let fixed_royal = !born && Color::BOTH.iter().any(|&c| v.royal[c] != KindSet::EMPTY);
        let mut out = Vec::new();
        for (t, name) in TERMS.iter().zip(TERM_NAMES) {
            let used = match t {
                Term::Tempo => true,
                Term::Passed | Term::PassedAdvance => any_promoter,
                Term::RoyalBack | Term::RoyalCentre | Term::RoyalAttackers => fixed_royal,
                Term::RoyalNear1 | Term::RoyalNear2 => born,
                Term::CrownerNear => born,
                Term::ShockFile | Term::ShockPair => v.shock.is_some(),
                Term::Doubled | Term::Isolated => any_promoter,
                Term::Connected | Term::ConnectedAdvance | Term::Backward => any_promoter,
                Term::RoyalStorm => fixed_royal && any_promoter,
                Term::Space => any_promoter,
                Term::RoyalShelter => fixed_royal && any_promoter,
                Term::RoyalDanger => fixed_royal,
                Term::PassedBlocked => any_promoter,
                Term::PassedRoyal => fixed_royal && any_promoter,
            };
            if used {
                out.push((term(*t), name.to_string()));
            }
        }
        for (k, spec) in v.all_kinds() {
            let roles: Vec<Role> =
                Color::BOTH.iter().filter(|&&c| v.pieces[c].has(k)).map(|&c| role(v, c, k, born)).collect();
            let piece = roles.contains(&Role::Piece);
            let promoter = roles.contains(&Role::Promoter);
            for (t, name) in KIND_TERMS.iter().zip(KIND_TERM_NAMES) {
                let used = match t {
                    KindTerm::Value => piece || promoter,
                    KindTerm::Centre => piece,
                    KindTerm::Advance | KindTerm::FileCentre => promoter,
                    KindTerm::Mobility => piece && has_mobility(spec),
                    KindTerm::Pair => piece,
                    KindTerm::OpenFile => piece && any_promoter && spec.rides(false),
                    KindTerm::Threatened | KindTerm::Hanging => piece || promoter,
                    KindTerm::RoyalZone | KindTerm::SafeCheck => piece && fixed_royal && attacks_counted(spec),
                    KindTerm::Outpost | KindTerm::SameColour => piece && any_promoter,
                };
                if used {
                    out.push((kind_term(k, *t), format!("{}.{name}", spec.name)));
                }
            }
            if piece && has_mobility(spec) {
                for count in 0..=mobility_reach(spec, v.size).min(MOBILITY_CELLS - 1) {
                    out.push((kind_mobility(k, count), format!("{}.mob{count}", spec.name)));
                }
            }
            if !roles.is_empty() {
                for rank in 0..v.size.ranks as usize {
                    for file in 0..(v.size.files as usize).div_ceil(2) {
                        let cell = rank * HALF_FILES + file;
                        out.push((kind_square(k, cell), format!("{}.{}", spec.name, cell_name(cell))));
                    }
                }
            }
        }
        out
    }

    /// Read an `[eval]` table onto these weights. Keys are term names
    /// (`tempo = [10, 10]`) and kind tables (`[eval.knight] value = [320,
    /// 330]`); a single number sets both phases. Errors: (key, message).
    pub fn read(&mut self, v: &Variant, t: &Table) -> Result<(), (String, String)> {
        let active = Weights::active(v);
        let find = |name: &str| active.iter().find(|(_, n)| n == name).map(|&(i, _)| i);
        let mut set = |name: &str, key: &str, value: &Value| -> Result<(), (String, String)> {
            let i = find(name).ok_or_else(|| {
                let known: Vec<&str> = active.iter().map(|(_, n)| n.as_str()).collect();
                (key.to_string(), format!("{name} is not a term of {} (its terms: {})", v.name, known.join(", ")))
            })?;
            self.set(i, pair(value).map_err(|m| (key.to_string(), m))?);
            Ok(())
        };
        for (name, value) in t {
            let key = format!("eval.{name}");
            match value {
                Value::Table(kt) => {
                    for (tn, tv) in kt {
                        set(&format!("{name}.{tn}"), &format!("{key}.{tn}"), tv)?;
                    }
                }
                _ => set(name, &key, value)?,
            }
        }
        Ok(())
    }

    /// The `[eval]` table of every term `v` uses.
    pub fn write(&self, v: &Variant) -> Table {
        let mut t = Table::new();
        for (i, name) in Weights::active(v) {
            let p = Value::Array(self.get(i).iter().map(|&x| number(x)).collect());
            match name.split_once('.') {
                Some((kind, tn)) => {
                    let kt = t.entry(kind).or_insert_with(|| Value::Table(Table::new()));
                    if let Value::Table(kt) = kt {
                        kt.insert(tn.to_string(), p);
                    }
                }
                None => {
                    t.insert(name, p);
                }
            }
        }
        t
    }
}

/// A weight as TOML: an integer when it is one.
fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        Value::Integer(x as i64)
    } else {
        Value::Float(x)
    }
}

/// A [`Pair`] from `[mg, eg]` or a single number.
fn pair(v: &Value) -> Result<Pair, String> {
    let num = |x: &Value| -> Result<f64, String> {
        let f = match x {
            Value::Integer(i) => *i as f64,
            Value::Float(f) => *f,
            other => return Err(format!("must be a number or [middlegame, endgame], not {}", other.type_str())),
        };
        if !f.is_finite() || f.abs() > MAX_WEIGHT {
            return Err(format!("{f} is outside -{MAX_WEIGHT}..{MAX_WEIGHT}"));
        }
        Ok(f)
    };
    match v {
        Value::Array(a) if a.len() == 2 => Ok([num(&a[0])?, num(&a[1])?]),
        Value::Array(a) => Err(format!("must be [middlegame, endgame], not a list of {}", a.len())),
        x => num(x).map(|f| [f, f]),
    }
}

/// Evolution-adjusted values, iterated to the fixed point.
pub fn evolved_values(v: &Variant) -> [i32; NKINDS] {
    let born = royal_born(v);
    // A kind is royal for valuing when it is royal for either side.
    let royal_any = KindSet(v.royal[Color::White].0 | v.royal[Color::Black].0);
    let base: Vec<f64> = (0..NKINDS)
        .map(|i| {
            v.kinds
                .get(i)
                .and_then(Option::as_ref)
                .map_or(0.0, |s| base_value(s, royal_any.has(Kind::from_idx(i)), born))
        })
        .collect();
    let mut val = base.clone();
    for _ in 0..200 {
        for (k, _) in v.all_kinds() {
            let next = v.evolve[k.idx()];
            if next != k {
                val[k.idx()] = (1.0 - EVOLVE_WEIGHT) * base[k.idx()] + EVOLVE_WEIGHT * val[next.idx()];
            }
        }
    }
    std::array::from_fn(|i| val[i].round() as i32)
}

/// Material value of a kind before evolution, in centipawns. `royal_born`:
/// royals arise during play (Burden), so they carry their small combat
/// worth instead of zero.
fn base_value(spec: &KindSpec, royal: bool, royal_born: bool) -> f64 {
    match (royal, royal_born) {
        (true, false) => 0.0,
        (true, true) => spec.royal_value as f64,
        _ => spec.value as f64,
    }
}
