//! The vocabulary of pieces: sides, kinds and coloured pieces, with their
//! compact codes. A kind's letter, name and movement are data of its
//! variant ([`crate::rules`]).

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

/// Most piece kinds one variant may have.
pub const NKINDS: usize = 32;

/// A piece kind: an index into its variant's kind table
/// ([`crate::rules::variant::Variant::kinds`]). Letters, names and movement
/// are the variant's data. The kinds of the shipped catalogue
/// (`rules/kinds.toml`) keep their catalogue index in every variant that
/// uses them, so the constants below name them; other kinds take the free
/// indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(pub(crate) u8);

#[allow(non_upper_case_globals)]
impl Kind {
    /// King (catalogue).
    pub const King: Kind = Kind(0);
    /// Queen (catalogue).
    pub const Queen: Kind = Kind(1);
    /// Rook (catalogue).
    pub const Rook: Kind = Kind(2);
    /// Bishop (catalogue).
    pub const Bishop: Kind = Kind(3);
    /// Knight (catalogue).
    pub const Knight: Kind = Kind(4);
    /// FIDE pawn (catalogue).
    pub const Pawn: Kind = Kind(5);
    /// Core: Robotic King (catalogue).
    pub const Core: Kind = Kind(6);
    /// Missile: Robotic Rook (catalogue).
    pub const Missile: Kind = Kind(7);
    /// Drone: Robotic Bishop (catalogue).
    pub const Drone: Kind = Kind(8);
    /// Turret: Robotic pawn without double step (catalogue).
    pub const Turret: Kind = Kind(9);
    /// Automaton: Robotic Berolina pawn (catalogue).
    pub const Automaton: Kind = Kind(10);
    /// Rover: ferz plus xiangqi horse (catalogue).
    pub const Rover: Kind = Kind(11);
    /// Maharajah: queen plus knight (catalogue).
    pub const Maharajah: Kind = Kind(12);
    /// Gryphon: diagonal step then outward orthogonal slide (catalogue).
    pub const Gryphon: Kind = Kind(13);

    /// Index 0..NKINDS.
    #[inline(always)]
    pub const fn idx(self) -> usize {
        self.0 as usize
    }
    /// The kind for an index 0..NKINDS.
    #[inline(always)]
    pub const fn from_idx(i: usize) -> Kind {
        debug_assert!(i < NKINDS);
        Kind(i as u8)
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
    /// Compact code 0..2*NKINDS used by the mailbox and Zobrist keys.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        (self.color as u8) * NKINDS as u8 + self.kind.0
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
    let mut table = [Piece { color: Color::White, kind: Kind(0) }; 2 * NKINDS];
    let mut i = 0;
    while i < 2 * NKINDS {
        let color = if i < NKINDS { Color::White } else { Color::Black };
        table[i] = Piece { color, kind: Kind((i % NKINDS) as u8) };
        i += 1;
    }
    table
};
