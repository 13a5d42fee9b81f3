//! Betza's funny notation for piece movement, the subset the generator can
//! play: the leap atoms W F D N A H C Z G and the compounds K Q R B,
//! riders by doubling an atom (`WW`, `NN`) or by a range (`W4`, `R2`),
//! direction modifiers (`f b l r v s` and pairs such as `fl`, `ff`, `fs`),
//! the modes `m` (move only) and `c` (capture only), `n` (lame: the first
//! step must be empty), `g` (grasshopper: hop over the first piece and land
//! just beyond), `e` (may take en passant), the pawn double step `ifmnD`,
//! and the Gryphon's bent ride `FyafsF`. Anything else is refused with the
//! token that is not understood.

use crate::rules::movement::{Line, Mode};

/// What a Betza text gives: movement lines and the flags beside them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Movement lines in the order the text gives them.
    pub lines: Vec<Line>,
    /// `ifmnD`: the double step from the second rank.
    pub double_step: bool,
    /// `e`: may capture en passant.
    pub ep_taker: bool,
    /// `FyafsF`: the Gryphon's bent ride.
    pub bent: bool,
}

/// The eight vectors of a leap atom (a, b), in the order move generation
/// has always used for W, F and N (the order of generated moves is part of
/// the search's reproducibility).
fn atom_vectors(a: i8, b: i8) -> Vec<(i8, i8)> {
    match (a, b) {
        (0, 1) => vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
        (1, 1) => vec![(1, 1), (-1, -1), (1, -1), (-1, 1)],
        _ => {
            let mut v: Vec<(i8, i8)> = Vec::new();
            for d in [(a, b), (b, a), (b, -a), (a, -b), (-a, -b), (-b, -a), (-b, a), (-a, b)] {
                if !v.contains(&d) {
                    v.push(d);
                }
            }
            v
        }
    }
}

fn atom(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' => (1, 3),
        'Z' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// A direction token: one modifier letter or a pair read together.
fn keeps(token: &str, df: i8, dr: i8) -> bool {
    let (adf, adr) = (df.abs(), dr.abs());
    let one = |c: char| match c {
        'f' => dr > 0,
        'b' => dr < 0,
        'r' => df > 0,
        'l' => df < 0,
        'v' => adr > adf,
        's' => adf > adr,
        _ => false,
    };
    let mut cs = token.chars();
    let (x, y) = (cs.next().unwrap_or(' '), cs.next());
    match y {
        None => one(x),
        // Doubled: that direction, along its own axis (`ff` narrow forward).
        Some(y) if x == y => one(x) && if "fb".contains(x) { adr > adf } else { adf > adr },
        // `fs`, `bs`: forward (backward) and wide; `lv`, `rv`: sideways and
        // narrow.
        Some('s') => one(x) && adf > adr,
        Some('v') => one(x) && adr > adf,
        Some(y) => one(x) && one(y),
    }
}

/// True for a pair of direction letters read as one token.
fn is_pair(x: char, y: char) -> bool {
    matches!((x, y), ('f' | 'b', 'l' | 'r' | 's' | 'f' | 'b') | ('l' | 'r', 'f' | 'b' | 'v' | 'l' | 'r'))
        && !(matches!(x, 'f' | 'b') && matches!(y, 'f' | 'b') && x != y)
        && !(matches!(x, 'l' | 'r') && matches!(y, 'l' | 'r') && x != y)
}

/// Parse a Betza text into lines and flags, or say which part is not
/// understood.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let text = text.trim();
    if text == "FyafsF" {
        return Ok(Parsed { lines: leaps(&atom_vectors(1, 1), Mode::Both), bent: true, ..Parsed::default() });
    }
    if text.is_empty() {
        return Err("empty Betza text".into());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Parsed::default();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut mods = String::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            mods.push(chars[i]);
            i += 1;
        }
        let Some(&c) = chars.get(i) else {
            return Err(format!("modifiers {mods:?} at the end have no piece letter after them"));
        };
        i += 1;
        // Compounds and the standard riders.
        let (atoms, mut rider): (Vec<(i8, i8)>, bool) = match c {
            'K' => (vec![(0, 1), (1, 1)], false),
            'Q' => (vec![(0, 1), (1, 1)], true),
            'R' => (vec![(0, 1)], true),
            'B' => (vec![(1, 1)], true),
            _ => match atom(c) {
                Some(a) => (vec![a], false),
                None => {
                    return Err(format!(
                        "{c:?} at position {} is not a Betza atom (known: W F D N A H C Z G K Q R B)",
                        i
                    ))
                }
            },
        };
        if !rider && chars.get(i) == Some(&c) && atom(c).is_some() {
            rider = true;
            i += 1;
        }
        let mut range = 0u8;
        let digits: String = chars[i..].iter().take_while(|d| d.is_ascii_digit()).collect();
        if !digits.is_empty() {
            i += digits.len();
            let n: u8 = digits.parse().map_err(|_| format!("range {digits:?} is too large"))?;
            if n == 0 {
                return Err("range 0 (use no number for an unlimited rider)".into());
            }
            // `W1` and `R1` are the plain leap; a larger number limits a rider.
            rider = n > 1;
            range = if n > 1 { n } else { 0 };
        }
        let token: String = chars[start..i].iter().collect();
        apply(&mut out, &mods, &atoms, rider, range, &token)?;
    }
    Ok(out)
}

fn leaps(dirs: &[(i8, i8)], mode: Mode) -> Vec<Line> {
    dirs.iter().map(|&(df, dr)| Line { df, dr, ride: false, range: 0, mode, leg: None, hop: false }).collect()
}

/// Add one atom with its modifiers to `out`.
fn apply(out: &mut Parsed, mods: &str, atoms: &[(i8, i8)], rider: bool, range: u8, token: &str) -> Result<(), String> {
    let (mut moves, mut captures, mut lame, mut hop, mut ep, mut initial) = (false, false, false, false, false, false);
    let mut dirs: Vec<String> = Vec::new();
    let m: Vec<char> = mods.chars().collect();
    let mut j = 0;
    while j < m.len() {
        let x = m[j];
        match x {
            'm' => moves = true,
            'c' => captures = true,
            'n' => lame = true,
            'g' => hop = true,
            'e' => ep = true,
            'i' => initial = true,
            'f' | 'b' | 'l' | 'r' | 'v' | 's' => {
                if let Some(&y) = m.get(j + 1).filter(|&&y| is_pair(x, y)) {
                    dirs.push(format!("{x}{y}"));
                    j += 1;
                } else {
                    dirs.push(x.to_string());
                }
            }
            _ => return Err(format!("modifier {x:?} in {token:?} is not supported (known: f b l r v s m c n g e i)")),
        }
        j += 1;
    }
    if initial {
        // Only the pawn's double step: `ifmnD` (in any order of f, m, n).
        let ok = atoms == [(0, 2)] && moves && !captures && dirs == ["f"] && !rider && !hop;
        if !ok {
            return Err(format!("{token:?}: `i` (initial move) is only supported as the pawn double step ifmnD"));
        }
        out.double_step = true;
        return Ok(());
    }
    if ep {
        out.ep_taker = true;
        captures = true;
    }
    let mode = match (moves, captures) {
        (true, false) => Mode::Move,
        (false, true) => Mode::Capture,
        _ => Mode::Both,
    };
    if hop && !rider {
        return Err(format!("{token:?}: `g` (grasshopper) needs a rider such as gQ, gR or gB"));
    }
    if lame && rider {
        return Err(format!("{token:?}: `n` (lame) is supported on leaps, not on riders"));
    }
    for &(a, b) in atoms {
        for (df, dr) in atom_vectors(a, b) {
            if !dirs.is_empty() && !dirs.iter().any(|d| keeps(d, df, dr)) {
                continue;
            }
            let leg = if lame {
                Some(match (df.abs(), dr.abs()) {
                    (2, 0) | (0, 2) | (2, 2) => (df / 2, dr / 2),
                    (2, 1) => (df / 2, 0),
                    (1, 2) => (0, dr / 2),
                    _ => return Err(format!("{token:?}: a lame leap needs a one-step leg (nD, nA, nN)")),
                })
            } else {
                None
            };
            out.lines.push(Line { df, dr, ride: rider, range, mode, leg, hop });
        }
    }
    if out.lines.is_empty() {
        return Err(format!("{token:?} gives no move"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(text: &str) -> Vec<(i8, i8, bool, Mode)> {
        parse(text).unwrap().lines.iter().map(|l| (l.df, l.dr, l.ride, l.mode)).collect()
    }

    #[test]
    fn pawn_and_knight() {
        let p = parse("fmWfceFifmnD").unwrap();
        assert!(p.double_step && p.ep_taker);
        assert_eq!(
            dirs("fmWfceF"),
            vec![(0, 1, false, Mode::Move), (1, 1, false, Mode::Capture), (-1, 1, false, Mode::Capture)]
        );
        assert_eq!(parse("N").unwrap().lines.len(), 8);
        assert_eq!(dirs("ffN"), vec![(1, 2, false, Mode::Both), (-1, 2, false, Mode::Both)]);
        assert_eq!(dirs("fsN"), vec![(2, 1, false, Mode::Both), (-2, 1, false, Mode::Both)]);
    }

    #[test]
    fn riders_ranges_and_hops() {
        assert_eq!(parse("Q").unwrap().lines.iter().filter(|l| l.ride).count(), 8);
        assert_eq!(parse("WW").unwrap(), parse("R").unwrap());
        let r = parse("R2").unwrap();
        assert!(r.lines.iter().all(|l| l.ride && l.range == 2));
        let g = parse("gQ").unwrap();
        assert!(g.lines.iter().all(|l| l.hop && l.ride) && g.lines.len() == 8);
        assert!(parse("FyafsF").unwrap().bent);
        let rover = parse("FnN").unwrap();
        assert_eq!(rover.lines[4].leg, Some((0, 1)));
        assert_eq!(rover.lines[5].leg, Some((1, 0)));
    }

    #[test]
    fn refusals_name_the_token() {
        assert!(parse("pR").unwrap_err().contains("'p'"));
        assert!(parse("X").unwrap_err().contains("'X'"));
        assert!(parse("gN").unwrap_err().contains("gN"));
        assert!(parse("f").unwrap_err().contains("no piece letter"));
        assert!(parse("iN").unwrap_err().contains("ifmnD"));
    }
}
