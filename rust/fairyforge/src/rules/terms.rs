//! The evaluation's terms by name and the table of their weights, one
//! (middlegame, endgame) pair per parameter: the data a [`Variant`] may
//! carry. What each term counts, and the defaults, are in
//! [`crate::rules::weights`].
//!
//! [`Variant`]: crate::rules::variant::Variant

use crate::geometry::MAX_SIDE;
use crate::piece::{Kind, NKINDS};
use std::hash::{Hash, Hasher};

/// A (middlegame, endgame) weight in centipawns.
pub type Pair = [f64; 2];

/// Terms of the whole position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Bonus for having the move.
    Tempo,
    /// Each passed promoter.
    Passed,
    /// Each passed promoter, times the square of its advance (0..1).
    PassedAdvance,
    /// A royal present from the start on its back ranks (1 on the first,
    /// -1 on the second, lower further up).
    RoyalBack,
    /// Centralisation of a royal present from the start.
    RoyalCentre,
    /// Enemy non-promoting pieces within two squares of such a royal.
    RoyalAttackers,
    /// Enemy pieces next to a royal born in play, times the side's royals.
    RoyalNear1,
    /// Enemy pieces within two squares of such a royal, times the royals.
    RoyalNear2,
    /// Enemy pieces next to a piece that is crowned by moving.
    CrownerNear,
    /// Pieces of the shockable side on the shock files.
    ShockFile,
    /// Pairs of them two ranks apart across the shock files.
    ShockPair,
    /// Promoters beyond the first on a file (doubled pawns).
    Doubled,
    /// Promoters with no own promoter on an adjacent file.
    Isolated,
    /// Own promoters next to a royal present from the start (its shelter).
    RoyalShelter,
    /// Attack on a royal's surroundings: the enemy pieces (neither royal
    /// nor promoting) attacking squares next to it, times the squares they
    /// attack there, over 4 (a danger that grows faster than either count).
    RoyalDanger,
    /// Passed promoters whose next square ahead is occupied.
    PassedBlocked,
    /// Passed promoters, times the enemy royal's distance to the square
    /// ahead minus the own royal's (at most 5 each), times the square of
    /// the advance: the royals' race to the passer.
    PassedRoyal,
    /// Promoters with an own promoter beside them on the same rank or
    /// diagonally behind (phalanx or supported).
    Connected,
    /// Those, times the square of their advance.
    ConnectedAdvance,
    /// Promoters no own promoter beside or behind on an adjacent file can
    /// support, whose square ahead an enemy promoter attacks diagonally.
    Backward,
    /// Enemy promoters storming a royal present from the start: on its
    /// file or an adjacent one, 1 to 3 ranks ahead of it, counted 3, 2 and
    /// 1 by distance (a penalty).
    RoyalStorm,
    /// Space: squares of the middle files on the side's own half (beyond
    /// its first rank) that hold no own promoter and that no enemy promoter
    /// attacks diagonally, those behind an own promoter counted twice.
    Space,
}

/// Terms of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindTerm {
    /// Material.
    Value,
    /// Centralisation (1 in the centre, -1 in the corners).
    Centre,
    /// A promoter's advance: the square of the share of the way travelled.
    Advance,
    /// A promoter's file centralisation.
    FileCentre,
    /// Squares the piece attacks by leaps and plain rides, own pieces
    /// excepted.
    Mobility,
    /// Having two or more of the kind (the bishop pair).
    Pair,
    /// An orthogonal rider on a file without own promoters (open or
    /// half-open).
    OpenFile,
    /// A piece attacked by an enemy piece worth less (royals aside).
    Threatened,
    /// A piece attacked by the enemy and defended by none of its own.
    Hanging,
    /// Squares next to an enemy royal the piece attacks.
    RoyalZone,
    /// Safe checks: squares from which a piece of the kind would attack an
    /// enemy royal present from the start, that a piece of the kind
    /// attacks, that hold no own piece and that no enemy piece attacks.
    SafeCheck,
    /// An outpost: the piece stands diagonally in front of an own promoter
    /// and no enemy promoter on an adjacent file is ahead of it.
    Outpost,
    /// Own promoters on squares of the piece's square colour.
    SameColour,
}

/// Names of the position terms (`Term`), in order.
pub const TERM_NAMES: [&str; 22] = [
    "tempo",
    "passed",
    "passed_advance",
    "royal_back",
    "royal_centre",
    "royal_attackers",
    "royal_near1",
    "royal_near2",
    "crowner_near",
    "shock_file",
    "shock_pair",
    "doubled",
    "isolated",
    "royal_shelter",
    "royal_danger",
    "passed_blocked",
    "passed_royal",
    "connected",
    "connected_advance",
    "backward",
    "royal_storm",
    "space",
];
pub(crate) const TERMS: [Term; 22] = [
    Term::Tempo,
    Term::Passed,
    Term::PassedAdvance,
    Term::RoyalBack,
    Term::RoyalCentre,
    Term::RoyalAttackers,
    Term::RoyalNear1,
    Term::RoyalNear2,
    Term::CrownerNear,
    Term::ShockFile,
    Term::ShockPair,
    Term::Doubled,
    Term::Isolated,
    Term::RoyalShelter,
    Term::RoyalDanger,
    Term::PassedBlocked,
    Term::PassedRoyal,
    Term::Connected,
    Term::ConnectedAdvance,
    Term::Backward,
    Term::RoyalStorm,
    Term::Space,
];
/// Names of the per-kind terms (`KindTerm`), in order.
pub const KIND_TERM_NAMES: [&str; 13] = [
    "value",
    "centre",
    "advance",
    "file_centre",
    "mobility",
    "pair",
    "open_file",
    "threatened",
    "hanging",
    "royal_zone",
    "safe_check",
    "outpost",
    "same_colour",
];
pub(crate) const KIND_TERMS: [KindTerm; 13] = [
    KindTerm::Value,
    KindTerm::Centre,
    KindTerm::Advance,
    KindTerm::FileCentre,
    KindTerm::Mobility,
    KindTerm::Pair,
    KindTerm::OpenFile,
    KindTerm::Threatened,
    KindTerm::Hanging,
    KindTerm::RoyalZone,
    KindTerm::SafeCheck,
    KindTerm::Outpost,
    KindTerm::SameColour,
];

/// Cells per relative rank: the folded files of the widest board.
pub const HALF_FILES: usize = (MAX_SIDE as usize).div_ceil(2);
/// Square cells per kind: a square seen from its piece's side, the board
/// folded onto its left half (ranks by files up to the middle).
pub const CELLS: usize = MAX_SIDE as usize * HALF_FILES;
/// Mobility cells per kind: one weight per count of squares attacked,
/// the last one for that many or more.
pub const MOBILITY_CELLS: usize = 48;
/// Number of parameters (pairs) in a [`Weights`].
pub const NPARAMS: usize = TERMS.len() + NKINDS * (KIND_TERMS.len() + CELLS + MOBILITY_CELLS);
/// Largest magnitude a weight may take.
pub const MAX_WEIGHT: f64 = 100_000.0;

/// The parameter index of a position term.
#[inline(always)]
pub const fn term(t: Term) -> usize {
    t as usize
}

/// The parameter index of a kind's term.
#[inline(always)]
pub const fn kind_term(k: Kind, t: KindTerm) -> usize {
    TERMS.len() + k.idx() * KIND_TERMS.len() + t as usize
}

/// The parameter index of a kind's square cell (`cell`: relative rank
/// times [`HALF_FILES`], plus the folded file).
#[inline(always)]
pub const fn kind_square(k: Kind, cell: usize) -> usize {
    TERMS.len() + NKINDS * KIND_TERMS.len() + k.idx() * CELLS + cell
}

/// The parameter index of a kind's mobility cell: a piece attacking
/// `count` squares (the last cell for [`MOBILITY_CELLS`] - 1 or more).
#[inline(always)]
pub const fn kind_mobility(k: Kind, count: usize) -> usize {
    let c = if count < MOBILITY_CELLS { count } else { MOBILITY_CELLS - 1 };
    TERMS.len() + NKINDS * (KIND_TERMS.len() + CELLS) + k.idx() * MOBILITY_CELLS + c
}

/// Every evaluation weight of a variant, by parameter index.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pairs: Vec<Pair>,
}

impl Eq for Weights {}

impl Hash for Weights {
    fn hash<H: Hasher>(&self, h: &mut H) {
        for p in &self.pairs {
            p[0].to_bits().hash(h);
            p[1].to_bits().hash(h);
        }
    }
}

impl Weights {
    /// Every weight zero.
    pub fn zero() -> Weights {
        Weights { pairs: vec![[0.0; 2]; NPARAMS] }
    }

    /// The weight of parameter `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Pair {
        self.pairs[i]
    }

    /// Set parameter `i` (negative zero is stored as zero, so equal weights
    /// hash equally).
    pub fn set(&mut self, i: usize, p: Pair) {
        self.pairs[i] = p.map(|x| if x == 0.0 { 0.0 } else { x });
    }
}
