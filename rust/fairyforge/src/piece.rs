//! Piece kinds described as movement data (RULES.md §2.1 and §3).
//!
//! A kind is a list of [`Line`]s (direction relative to the owner's forward,
//! range, mode) plus a few flags. The generator and the attack test read
//! these; no code matches on a particular kind to decide how it moves.

/// Side: White moves first and sits at rank 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side at rank 1.
    White = 0,
    /// The side at the top rank.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn idx(self) -> usize {
        self as usize
    }
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

/// A pair of values indexed by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c as usize]
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// Number of piece kinds the engine knows.
pub const NKINDS: usize = 14;

/// A piece kind; the same letter means the same kind in every variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// King.
    King = 0,
    /// Queen.
    Queen,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
    /// FIDE pawn.
    Pawn,
    /// Core: Robotic King.
    Core,
    /// Missile: Robotic Rook.
    Missile,
    /// Drone: Robotic Bishop.
    Drone,
    /// Turret: Robotic pawn without double step.
    Turret,
    /// Automaton: Robotic Berolina pawn.
    Automaton,
    /// Rover: ferz plus xiangqi horse.
    Rover,
    /// Maharajah: queen plus knight.
    Maharajah,
    /// Gryphon: diagonal step then outward orthogonal slide.
    Gryphon,
}

/// Every kind in index order.
pub const ALL_KINDS: [Kind; NKINDS] = [
    Kind::King,
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
    Kind::Pawn,
    Kind::Core,
    Kind::Missile,
    Kind::Drone,
    Kind::Turret,
    Kind::Automaton,
    Kind::Rover,
    Kind::Maharajah,
    Kind::Gryphon,
];

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
    /// Index 0..NKINDS.
    #[inline(always)]
    pub const fn idx(self) -> usize {
        self as usize
    }
    /// Upper-case letter of the kind.
    pub fn letter(self) -> char {
        b"KQRBNPCMDTAVHG"[self as usize] as char
    }
    /// Kind for an upper- or lower-case letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        let u = c.to_ascii_uppercase();
        ALL_KINDS.iter().copied().find(|k| k.letter() == u)
    }
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
    /// English name of the kind.
    pub fn name(self) -> &'static str {
        [
            "king",
            "queen",
            "rook",
            "bishop",
            "knight",
            "pawn",
            "core",
            "missile",
            "drone",
            "turret",
            "automaton",
            "rover",
            "maharajah",
            "gryphon",
        ][self as usize]
    }
    /// The kind for an index 0..NKINDS.
    #[inline(always)]
    pub fn from_idx(i: usize) -> Kind {
        ALL_KINDS[i]
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: Kind,
}

impl Piece {
    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.kind.letter(),
            Color::Black => self.kind.letter().to_ascii_lowercase(),
        }
    }
    /// Piece from a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, kind })
    }
    /// Compact code 0..2*NKINDS used by the mailbox and Zobrist keys.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        (self.color as u8) * NKINDS as u8 + self.kind as u8
    }
    /// Piece from a code made by [`Piece::code`].
    #[inline(always)]
    pub fn from_code(code: u8) -> Piece {
        // A table rather than a test of the colour, which the processor
        // could not predict.
        PIECE_OF_CODE[code as usize]
    }
}

/// [`Piece::from_code`] for every code.
const PIECE_OF_CODE: [Piece; 2 * NKINDS] = {
    let mut table = [Piece { color: Color::White, kind: ALL_KINDS[0] }; 2 * NKINDS];
    let mut i = 0;
    while i < 2 * NKINDS {
        let color = if i < NKINDS { Color::White } else { Color::Black };
        table[i] = Piece { color, kind: ALL_KINDS[i % NKINDS] };
        i += 1;
    }
    table
};
