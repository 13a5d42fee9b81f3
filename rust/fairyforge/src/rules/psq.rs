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
//! w * value(next(k))` with `w` = [`crate::rules::weights::EVOLVE_WEIGHT`], solved to its fixed
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
//!
//! **Weights.** Every value and square weight above is the default of a
//! named term in [`crate::rules::weights`]; a definition's `[eval]` table
//! or a tuned weights file replaces them.

use crate::piece::{Color, Kind, NKINDS};
use crate::rules::terms::{kind_term, KindTerm, Weights};
use crate::rules::variant::{KindSet, Variant};
use crate::rules::weights::{evolved_values, piece_terms, role, royal_born, square_basis, Role};

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
    /// Material value per kind (the middlegame value weight, rounded): what
    /// move ordering, exchange evaluation and promotion choice use.
    pub values: [i32; NKINDS],
    /// Royals arise during play (Burden): they carry a small combat worth.
    pub royal_born: bool,
    /// The weights the tables were built from.
    pub weights: Weights,
    /// Signed entry per piece code and square (`code * squares + sq`).
    entries: Vec<Psq>,
    squares: usize,
}

impl PsqTables {
    /// Build the tables of a variant, with its `[eval]` weights or the
    /// defaults.
    pub fn new(v: &Variant) -> PsqTables {
        let size = v.size;
        let n = size.squares();
        let born = royal_born(v);
        let weights = v.weights.clone().unwrap_or_else(|| Weights::defaults(v));
        let royal_any = KindSet(v.royal[Color::White].0 | v.royal[Color::Black].0);
        // The game phase stays counted from the default values, whatever
        // the weights.
        let base = evolved_values(v);
        let values = std::array::from_fn(|i| {
            let k = Kind::from_idx(i);
            if (born || !royal_any.has(k)) && v.kinds.get(i).is_some_and(Option::is_some) {
                weights.get(kind_term(k, KindTerm::Value))[0].round() as i32
            } else {
                0
            }
        });
        let mut entries = vec![Psq::default(); 2 * NKINDS * n];
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            for (k, spec) in v.all_kinds() {
                let promotes_any = v.promoters[Color::White].has(k) || v.promoters[Color::Black].has(k);
                let pawn = spec.symbol == "P";
                let phase = if !royal_any.has(k) && !promotes_any && !pawn { (base[k.idx()] + 125) / 250 } else { 0 };
                let r = role(v, c, k, born);
                for sq in 0..n {
                    let terms = piece_terms(k, r, &square_basis(size, c, sq));
                    // Material and square terms round apart (the material
                    // weights are whole centipawns unless tuned).
                    let (value, square) = terms.split_at(usize::from(r != Role::Royal));
                    let sum = |phase: usize, ts: &[(usize, f64)]| -> i32 {
                        ts.iter().map(|&(i, b)| weights.get(i)[phase] * b).sum::<f64>().round() as i32
                    };
                    entries[(c.idx() * NKINDS + k.idx()) * n + sq] = Psq {
                        mg: sign * (sum(0, value) + sum(0, square)),
                        eg: sign * (sum(1, value) + sum(1, square)),
                        phase,
                    };
                }
            }
        }
        PsqTables { values, royal_born: born, weights, entries, squares: n }
    }

    /// The entry of the piece with code `code` on `sq`.
    #[inline(always)]
    pub fn entry(&self, code: u8, sq: usize) -> Psq {
        self.entries[code as usize * self.squares + sq]
    }
}
