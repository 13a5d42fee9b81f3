//! The vocabulary of pieces: sides, kinds and coloured pieces, with their
//! letters, names and compact codes. How each kind moves is data of
//! [`crate::rules`].

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
