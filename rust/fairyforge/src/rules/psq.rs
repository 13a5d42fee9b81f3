//! Material and piece-square values, and their running sum: every position
//! carries the (middlegame, endgame) score of its pieces and its game phase,
//! updated as pieces are put and removed, so the evaluation does not loop
//! over the pieces for them.
//!
//! **Material.** Base values are the usual FIDE ones (P 100, N 320, B 330,
//! R 500, Q 950). A Robotic piece has every move of its original plus a hop
//! over the first piece on each line, so it is worth more: Missile 620
//! (rook 500), Drone 400 (bishop 330), Turret 120 and Automaton 110 (pawns
//! that can jump a blocker, so they are hard to stop). The Rover (ferz plus
//! xiangqi horse) moves like a lame knight plus a ferz: 430. Royal pieces
//! that exist from the start (King, Core) are never captured and have no
//! material value.
//!
//! **Evolution.** When the moving piece changes into its successor (Burden
//! P -> N -> B -> Q -> K, Evolution Chess N -> B -> R -> Q), part of a
//! piece's worth is what it will become: `value(k) = (1 - w) * base(k) +
//! w * value(next(k))` with `w` = [`EVOLVE_WEIGHT`], solved to its fixed
//! point (it also handles the Burden `cycle` options, where a king turns back
//! into a pawn or knight). In Evolution Chess this makes N 350 < B 422 <
//! R 635 < Q 950. In Burden a queen's next move crowns her: she becomes a
//! king, a mobile but vulnerable royal (every extra king is another target
//! for a fork, and a side with no legal move loses), so the king's base worth
//! is small (100; Gryphon 150, Maharajah 300) and the queen is worth only
//! 695; bishops (440), knights (356) and pawns (177) are then valued partly
//! by what they become.
//!
//! **Piece-square terms** are computed from coordinates, not from 8x8
//! tables: a centralisation term `c(sq)` in [-1, 1] (1 in the centre, -1 in
//! the corners) weighted per kind (leapers most, riders least); an
//! advancement term growing with the square of the distance travelled toward
//! the promotion rank for every kind that promotes (FIDE pawns, Turrets,
//! Automata), larger in the endgame. Kings and Cores stay on their back rank
//! in the middlegame and centralise in the endgame. Royals born during play
//! (Burden) are valued like pieces that like the centre a little.
//!
//! **Phase.** Each non-royal piece that does not promote (and is not a pawn)
//! weighs its value / 250 in the game phase.

use crate::geometry::Size;
use crate::piece::{Color, Kind, NKINDS};
use crate::rules::movement::KindSpec;
use crate::rules::variant::{KindSet, Variant};

/// Share of a piece's value taken from what it evolves into.
pub const EVOLVE_WEIGHT: f64 = 0.3;

/// A (middlegame, endgame) score with a phase weight; as a position's sum,
/// White's pieces count positively and Black's negatively (the phase counts
/// both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Psq {
    /// Middlegame score.
    pub mg: i32,
    /// Endgame score.
    pub eg: i32,
    /// Game phase weight.
    pub phase: i32,
}

impl Psq {
    #[inline(always)]
    pub(crate) fn add(&mut self, o: Psq) {
        self.mg += o.mg;
        self.eg += o.eg;
        self.phase += o.phase;
    }
    #[inline(always)]
    pub(crate) fn sub(&mut self, o: Psq) {
        self.mg -= o.mg;
        self.eg -= o.eg;
        self.phase -= o.phase;
    }
}

/// The tables of one variant on its board.
#[derive(Debug)]
pub struct PsqTables {
    /// Evolution-adjusted material value per kind.
    pub values: [i32; NKINDS],
    /// Royals arise during play (Burden): they carry a small combat worth.
    pub royal_born: bool,
    /// Signed entry per piece code and square (`code * squares + sq`).
    entries: Vec<Psq>,
    squares: usize,
}

impl PsqTables {
    /// Build the tables of a variant.
    pub fn new(v: &Variant) -> PsqTables {
        let size = v.size;
        let n = size.squares();
        let royal_born = Color::BOTH.iter().any(|&c| v.crowners(c) != KindSet::EMPTY);
        // A kind is royal for valuing when it is royal for either side.
        let royal_any = KindSet(v.royal[Color::White].0 | v.royal[Color::Black].0);
        let values = evolved_values(v, royal_any, royal_born);
        let mut entries = vec![Psq::default(); 2 * NKINDS * n];
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            for (k, spec) in v.all_kinds() {
                let royal = v.royal[c].has(k);
                let promoter = v.promoters[c].has(k);
                let promotes_any = v.promoters[Color::White].has(k) || v.promoters[Color::Black].has(k);
                let pawn = spec.symbol == "P";
                let phase = if !royal_any.has(k) && !promotes_any && !pawn { (values[k.idx()] + 125) / 250 } else { 0 };
                for sq in 0..n {
                    let (m, e) = square_terms(size, c, spec.centre as f64, sq, royal, royal_born, promoter);
                    entries[(c.idx() * NKINDS + k.idx()) * n + sq] = Psq {
                        mg: sign * (values[k.idx()] + m.round() as i32),
                        eg: sign * (values[k.idx()] + e.round() as i32),
                        phase,
                    };
                }
            }
        }
        PsqTables { values, royal_born, entries, squares: n }
    }

    /// The entry of the piece with code `code` on `sq`.
    #[inline(always)]
    pub fn entry(&self, code: u8, sq: usize) -> Psq {
        self.entries[code as usize * self.squares + sq]
    }
}

/// Evolution-adjusted values, iterated to the fixed point.
fn evolved_values(v: &Variant, royal_any: KindSet, royal_born: bool) -> [i32; NKINDS] {
    let base: Vec<f64> = (0..NKINDS)
        .map(|i| {
            v.kinds
                .get(i)
                .and_then(Option::as_ref)
                .map_or(0.0, |s| base_value(s, royal_any.has(Kind::from_idx(i)), royal_born))
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

/// The (middlegame, endgame) square terms of a piece, without material.
fn square_terms(size: Size, c: Color, w: f64, sq: usize, royal: bool, royal_born: bool, promoter: bool) -> (f64, f64) {
    let (files, ranks) = (size.files as i32, size.ranks as i32);
    let (f, r) = (size.file_of(sq) as i32, size.rank_of(sq) as i32);
    let max_cd = ((files - 1) + (ranks - 1)) as f64;
    let centre = 1.0 - 2.0 * ((2 * f - (files - 1)).abs() + (2 * r - (ranks - 1)).abs()) as f64 / max_cd;
    let file_centre = 1.0 - 2.0 * (2 * f - (files - 1)).abs() as f64 / (files - 1) as f64;
    let rr = if c == Color::White { r } else { ranks - 1 - r };
    let t = rr as f64 / (ranks - 1) as f64;
    if royal && !royal_born {
        let back = match rr {
            0 => 10.0,
            1 => -10.0,
            _ => (-25 - 5 * (rr - 2)).max(-50) as f64,
        };
        (back, 20.0 * centre)
    } else if royal {
        (8.0 * centre, 8.0 * centre)
    } else if promoter {
        (6.0 * file_centre + 40.0 * t * t, 120.0 * t * t)
    } else {
        (w * centre, w * centre / 2.0)
    }
}
