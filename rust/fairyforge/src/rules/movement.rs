//! Piece kinds described as movement data (RULES.md §2.1 and §3).
//!
//! A kind is a list of [`Line`]s (direction relative to the owner's forward,
//! range, mode) plus a few flags. The generator and the attack test read
//! these; no code matches on a particular kind to decide how it moves.

use crate::piece::Kind;

/// What a line may do at its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Quiet moves only.
    Move,
    /// Captures only.
    Capture,
    /// Both.
    Both,
}

impl Mode {
    /// True when the line makes quiet moves.
    pub const fn moves(self) -> bool {
        !matches!(self, Mode::Capture)
    }
    /// True when the line captures.
    pub const fn captures(self) -> bool {
        !matches!(self, Mode::Move)
    }
}

/// One movement line: a direction relative to the owner's forward (White's
/// view; Black's rank delta is negated), unbounded (rider) or a single
/// target (leaper/stepper), and an optional lame leg that must be empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// File delta.
    pub df: i8,
    /// Rank delta toward the owner's forward.
    pub dr: i8,
    /// True for a rider (walks until blocked).
    pub ride: bool,
    /// Quiet, capture or both.
    pub mode: Mode,
    /// For a lame leaper, the intermediate square that must be empty.
    pub leg: Option<(i8, i8)>,
}

const fn l(df: i8, dr: i8, ride: bool, mode: Mode) -> Line {
    Line { df, dr, ride, mode, leg: None }
}

const ORTH: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i8, i8); 4] = [(1, 1), (-1, -1), (1, -1), (-1, 1)];
const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Static description of a kind.
#[derive(Clone, Debug)]
pub struct KindSpec {
    /// Upper-case letter.
    pub letter: char,
    /// English name.
    pub name: &'static str,
    /// Movement lines.
    pub lines: Vec<Line>,
    /// Robotic: hops over the first occupied square of each line (§3).
    pub robotic: bool,
    /// Double step from the owner's 2nd rank.
    pub double_step: bool,
    /// May capture en passant.
    pub ep_taker: bool,
    /// Gryphon bent-rider movement (§2.1).
    pub bent: bool,
}

impl KindSpec {
    /// True when any line is a rider.
    pub fn rides(&self, diagonal: bool) -> bool {
        self.lines.iter().any(|l| l.ride && ((l.df != 0 && l.dr != 0) == diagonal))
    }
    /// True when attacks need more than leap tables and rider rays: hops,
    /// lame legs or bent riding.
    pub fn complex_attacker(&self) -> bool {
        self.robotic || self.bent || self.lines.iter().any(|l| l.leg.is_some())
    }
}

fn with(dirs: &[(i8, i8)], ride: bool, mode: Mode) -> Vec<Line> {
    dirs.iter().map(|&(df, dr)| l(df, dr, ride, mode)).collect()
}

impl Kind {
    /// The movement description of this kind.
    pub fn spec(self) -> KindSpec {
        use Mode::*;
        let b = |lines: Vec<Line>| KindSpec {
            letter: self.letter(),
            name: self.name(),
            lines,
            robotic: false,
            double_step: false,
            ep_taker: false,
            bent: false,
        };
        let pawn_lines = vec![l(0, 1, false, Move), l(1, 1, false, Capture), l(-1, 1, false, Capture)];
        let king = [with(&ORTH, false, Both), with(&DIAG, false, Both)].concat();
        let queen = [with(&ORTH, true, Both), with(&DIAG, true, Both)].concat();
        match self {
            Kind::King => b(king),
            Kind::Queen => b(queen),
            Kind::Rook => b(with(&ORTH, true, Both)),
            Kind::Bishop => b(with(&DIAG, true, Both)),
            Kind::Knight => b(with(&KNIGHT, false, Both)),
            Kind::Pawn => KindSpec { double_step: true, ep_taker: true, ..b(pawn_lines) },
            Kind::Core => KindSpec { robotic: true, ..b(king) },
            Kind::Missile => KindSpec { robotic: true, ..b(with(&ORTH, true, Both)) },
            Kind::Drone => KindSpec { robotic: true, ..b(with(&DIAG, true, Both)) },
            Kind::Turret => KindSpec { robotic: true, ep_taker: true, ..b(pawn_lines) },
            Kind::Automaton => KindSpec {
                robotic: true,
                ..b(vec![l(0, 1, false, Capture), l(1, 1, false, Move), l(-1, 1, false, Move)])
            },
            Kind::Rover => {
                let mut lines = with(&DIAG, false, Both);
                for (df, dr) in KNIGHT {
                    // Xiangqi horse: first the orthogonal step along the long leg.
                    let leg = if df.abs() == 2 { (df / 2, 0) } else { (0, dr / 2) };
                    lines.push(Line { leg: Some(leg), ..l(df, dr, false, Both) });
                }
                b(lines)
            }
            Kind::Maharajah => b([queen, with(&KNIGHT, false, Both)].concat()),
            Kind::Gryphon => KindSpec { bent: true, ..b(with(&DIAG, false, Both)) },
        }
    }
}
