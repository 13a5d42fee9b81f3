//! Piece kinds described as movement data (RULES.md §2.1 and §3).
//!
//! A kind is a list of [`Line`]s (direction relative to the owner's forward,
//! range, mode) plus a few flags. The generator and the attack test read
//! these; no code matches on a particular kind to decide how it moves.

/// What a line may do at its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Quiet moves only.
    Move,
    /// Captures only.
    Capture,
    /// Both.
    Both,
}

impl Line {
    /// An unlimited rider that moves and captures and does not hop.
    pub fn is_full_ride(&self) -> bool {
        self.ride && !self.hop && self.range == 0 && self.mode == Mode::Both
    }
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// File delta.
    pub df: i8,
    /// Rank delta toward the owner's forward.
    pub dr: i8,
    /// True for a rider (walks until blocked).
    pub ride: bool,
    /// Most steps of a rider (0: no limit).
    pub range: u8,
    /// Quiet, capture or both.
    pub mode: Mode,
    /// For a lame leaper, the intermediate square that must be empty.
    pub leg: Option<(i8, i8)>,
    /// A hopper's line (grasshopper): it rides over empty squares to the
    /// first piece, the hurdle, and lands on the square just beyond it.
    /// Only with `ride`.
    pub hop: bool,
}

/// A piece kind as data: symbol, name, movement, the special flags the
/// generator knows, and the values the evaluation starts from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KindSpec {
    /// Name, lower case (`knight`); the key of the kind in definitions.
    pub name: String,
    /// Upper-case FEN symbol: a letter, or a letter and a prime (`A'`).
    pub symbol: String,
    /// The movement in Betza notation as written (for XBoard and people).
    pub betza: String,
    /// What SVG boards draw for it: a Unicode chess glyph, or empty for the
    /// letter in a circle.
    pub glyph: String,
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
    /// Material value in centipawns (before evolution).
    pub value: i32,
    /// Value when royal in a variant where royals arise during play.
    pub royal_value: i32,
    /// Weight of the centralisation term (centipawns at the centre).
    pub centre: i32,
}

impl KindSpec {
    /// True when the kind rides the four orthogonal (or, with `diagonal`,
    /// the four diagonal) lines, moving and capturing, without a range
    /// limit: the riders the slider lookups serve.
    pub fn rides(&self, diagonal: bool) -> bool {
        let dirs: [(i8, i8); 4] =
            if diagonal { [(1, 1), (-1, -1), (1, -1), (-1, 1)] } else { [(0, 1), (0, -1), (1, 0), (-1, 0)] };
        dirs.iter().all(|&(df, dr)| self.lines.iter().any(|l| l.df == df && l.dr == dr && l.is_full_ride()))
    }
    /// The lines the generator walks square by square: hops, rides other
    /// than the full orthogonal and diagonal ones (one direction, one mode,
    /// a range limit, a longer step such as the nightrider's).
    pub fn walked_lines(&self) -> Vec<Line> {
        let (orth, diag) = (self.rides(false), self.rides(true));
        self.lines
            .iter()
            .filter(|l| l.ride || l.hop)
            .filter(|l| {
                let unit_orth = (l.df == 0) != (l.dr == 0) && l.df.abs() <= 1 && l.dr.abs() <= 1;
                let unit_diag = l.df.abs() == 1 && l.dr.abs() == 1;
                !(l.is_full_ride() && ((unit_orth && orth) || (unit_diag && diag)))
            })
            .copied()
            .collect()
    }
    /// True when attacks need more than leap tables and rider rays: hops,
    /// lame legs, bent or walked lines.
    pub fn complex_attacker(&self) -> bool {
        self.robotic || self.bent || self.lines.iter().any(|l| l.leg.is_some()) || !self.walked_lines().is_empty()
    }
    /// The FEN symbol for a side: upper case for White.
    pub fn symbol_for(&self, white: bool) -> String {
        if white {
            self.symbol.clone()
        } else {
            self.symbol.to_ascii_lowercase()
        }
    }
}
