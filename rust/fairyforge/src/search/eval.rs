//! Static evaluation: a score in centipawns from the side to move's point of
//! view, built from the variant's data so it works on every board size.
//!
//! # Rationale
//!
//! **Material and piece-square terms** come from [`crate::rules::psq`] (values
//! with their rationale there), summed incrementally by the position. On top
//! of them, a passed bonus for every kind that promotes when no enemy
//! promoter stands in front of it on its own or an adjacent file (the
//! Turret/Automaton against pawn promotion races of Shocking Chess; each
//! search thread caches it by where both sides' promoters stand). The
//! middlegame and endgame sums are blended by a game phase counted from the
//! non-royal material (with the start position as full middlegame).
//!
//! **Royal safety.** Each royal piece is penalised for enemy pieces within
//! two squares (a crude king-safety term that also covers Core safety in
//! Shocking Chess, where Cores are attacked by hopping riders from afar and
//! two Cores can be forked).
//!
//! **Attack terms** (optional, computed only when weighed): mobility,
//! pieces attacked by lesser enemy pieces or left undefended, and the
//! attack on a royal's surroundings, all from each piece's leaps and plain
//! rides through the current occupancy (an estimate, not the rules' attack
//! test: hops and lame leaps are left out). Passed promoters may also weigh
//! being blocked and the royals' race to the square ahead.
//!
//! **Shocking Chess.** A Network piece on the d- or e-file forbids its
//! fellows the squares next to it across the boundary (such a move shocks
//! and loses), so each one is a small liability, and a d/e pair two ranks
//! apart is a larger one: neither may step toward the other, which cramps
//! both and hands White zugzwang and forcing chances.
//!
//! **Burden.** Every king of a side is a target: the penalty for enemy
//! pieces next to a king grows with the number of kings the side has (forks
//! of two kings win), and a queen with enemy pieces around it is worth less
//! because moving it crowns a king among attackers. No endgame blending:
//! kings are born during the game and stalemate loses, so there is no quiet
//! king-walk endgame to taper toward.

use crate::bitboard::BitSet;
use crate::board::game::with_pos;
use crate::board::game::AnyPosition;
use crate::board::position::Position;
use crate::piece::{Color, Kind, NKINDS};
use crate::rules::attacks::Placement;
use crate::rules::tables::Tables;
use crate::rules::terms::{kind_mobility, kind_term, term, KindTerm, Term, MOBILITY_CELLS, NPARAMS};
use crate::rules::variant::KindSet;
use crate::rules::weights::{attacks_counted, has_mobility, piece_terms, role, square_basis, Role};

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Material, piece-square terms and the variant terms.
    #[default]
    Full,
    /// Material only (evolution-adjusted values), for comparison matches.
    MaterialOnly,
}

/// Full middlegame weight of the tapered evaluation.
const TAPER_ONE: i32 = 1024;

/// The full share of the endgame sum ([`Evaluator::eg_scale`]).
const SCALE_ONE: i32 = 64;

/// Largest magnitude a static evaluation may take (well inside the mate
/// scores of the search).
pub const EVAL_LIMIT: i32 = 20_000;

/// Precomputed evaluation tables for one variant on one board width.
pub struct Evaluator<B: BitSet> {
    tables: &'static Tables<B>,
    kind: EvalKind,
    values: [i32; NKINDS],
    /// Every weight rounded to whole centipawns, by parameter, [`pack`]ed
    /// (the endgame weight times 2^32 plus the middlegame weight).
    packed: Vec<i64>,
    /// The optional terms with a non-zero weight: what evaluations compute.
    on: Optional,
    /// Every optional term the variant has: what the trace counts, whatever
    /// its weight, so the tuner can fit it.
    all: Optional,
    /// `values` by mailbox piece code (either colour).
    code_values: [i32; 2 * NKINDS],
    /// Kinds that promote, per colour (passed bonus).
    promoters: [KindSet; 2],
    /// Passed-promoter bonus per colour and square (mg, eg).
    passed: Vec<(i32, i32)>,
    phase_total: i32,
    /// Middlegame weight out of [`TAPER_ONE`] per game phase
    /// (0..=phase_total), so tapering needs no division.
    taper: Vec<i32>,
    tapered: bool,
    royal_born: bool,
    /// Non-royal kinds whose move makes them royal (Burden queens).
    crowners: [KindSet; 2],
    /// Squares within one step.
    zone1: Vec<B>,
    /// Squares within two steps (excluding the square itself).
    zone2: Vec<B>,
    /// The other squares of each square's colour.
    same_colour: Vec<B>,
    /// Squares ahead of a square on its own and adjacent files, per colour
    /// (checks [`Evaluator::passed_set`] in debug builds).
    front_span: Vec<B>,
    /// Squares ahead of a square on the adjacent files only, per colour.
    adjacent_ahead: Vec<B>,
    /// The squares diagonally behind a square, per colour (a promoter
    /// there supports it).
    support: Vec<B>,
    /// Per colour and square, the squares on its own and adjacent files 1,
    /// 2 and 3 ranks ahead (a royal's storm zone).
    storm: Vec<[B; 3]>,
    /// Every file but the first, and every file but the last.
    not_first_file: B,
    not_last_file: B,
    /// Shock rule: side, left-file mask, right-file mask, file distance.
    shock: Option<(Color, B, B, u32)>,
    /// Most valuable promotion choice per colour.
    best_promo: [Option<Kind>; 2],
    /// Kinds whose attacks the attack terms count, per colour.
    attackers: [KindSet; 2],
    /// Kinds neither royal nor promoting, per colour (royal danger).
    plain: [KindSet; 2],
    /// The value of the cheapest of `plain`, per colour; 0 when the colour
    /// has no promoters or the variant a shock rule (no endgame scaling
    /// then).
    least: [i32; 2],
    /// Per colour and kind, the enemy kinds (royals aside) worth less.
    lesser: [[KindSet; NKINDS]; 2],
    n: usize,
}

impl<B: BitSet> Evaluator<B> {
    /// Build the tables for the tables' variant.
    pub fn new(tables: &'static Tables<B>, kind: EvalKind) -> Evaluator<B> {
        let v = &tables.variant;
        let geo = &tables.geo;
        let size = geo.size;
        let n = size.squares();
        let values = tables.psq.values;
        let royal_born = tables.psq.royal_born;
        let start = Position::from_fen(tables, &v.start_fen).ok();
        let phase_total = start.map_or(0, |p| p.psq().phase);
        let tapered = phase_total > 0 && !v.stalemate_loses();
        let taper = (0..=phase_total).map(|ph| (ph * TAPER_ONE + phase_total / 2) / phase_total.max(1)).collect();
        let w = &tables.psq.weights;
        let iw: Vec<(i32, i32)> =
            (0..NPARAMS).map(|i| (w.get(i)[0].round() as i32, w.get(i)[1].round() as i32)).collect();
        let (base, advance) = (w.get(term(Term::Passed)), w.get(term(Term::PassedAdvance)));
        let mut passed = vec![(0, 0); 2 * n];
        for c in Color::BOTH {
            for sq in 0..n {
                let t2 = square_basis(size, c, sq).advance;
                passed[c.idx() * n + sq] =
                    ((base[0] + advance[0] * t2).round() as i32, (base[1] + advance[1] * t2).round() as i32);
            }
        }
        let any_promoter = v.promoters[Color::White].0 | v.promoters[Color::Black].0 != 0;
        let pieces = |c: Color, test: &dyn Fn(Kind) -> bool| {
            KindSet::of(
                &v.pieces[c]
                    .kinds()
                    .filter(|&k| role(v, c, k, royal_born) == Role::Piece && test(k))
                    .collect::<Vec<_>>(),
            )
        };
        let fixed_royal = !royal_born && Color::BOTH.iter().any(|&c| v.royal[c] != KindSet::EMPTY);
        let targets = |c: Color| KindSet(pieces(c, &|_| true).0 | v.promoters[c].0 & !v.royal[c].0);
        let mobile = Color::BOTH.map(|c| pieces(c, &|k| has_mobility(v.spec(k))));
        let checking = Color::BOTH.map(|c| pieces(c, &|k| fixed_royal && attacks_counted(v.spec(k))));
        // Pieces, where the variant has promoters to place them against.
        let pieces_with_promoters = Color::BOTH.map(|c| pieces(c, &|_| any_promoter));
        let all = Optional {
            mobility: mobile,
            mobility_cells: mobile,
            pair: Color::BOTH.map(|c| pieces(c, &|_| true)),
            open_file: Color::BOTH.map(|c| pieces(c, &|k| any_promoter && v.spec(k).rides(false))),
            shelter: !royal_born && any_promoter,
            storm: !royal_born && any_promoter && fixed_royal,
            outpost: pieces_with_promoters,
            same_colour: pieces_with_promoters,
            structure: any_promoter,
            shape: any_promoter,
            space: any_promoter,
            threatened: Color::BOTH.map(targets),
            hanging: Color::BOTH.map(targets),
            royal_zone: checking,
            safe_check: checking,
            danger: fixed_royal,
            passed_blocked: any_promoter,
            passed_royal: fixed_royal && any_promoter,
        };
        let nonzero = |i: usize| iw[i] != (0, 0);
        let keep = |sets: [KindSet; 2], t: KindTerm| {
            sets.map(|set| KindSet::of(&set.kinds().filter(|&k| nonzero(kind_term(k, t))).collect::<Vec<_>>()))
        };
        let cells = |k: Kind| (0..MOBILITY_CELLS).any(|m| nonzero(kind_mobility(k, m)));
        let weighed = |k: Kind| nonzero(kind_term(k, KindTerm::Mobility)) || cells(k);
        let on = Optional {
            mobility: all.mobility.map(|set| KindSet::of(&set.kinds().filter(|&k| weighed(k)).collect::<Vec<_>>())),
            mobility_cells: all
                .mobility_cells
                .map(|set| KindSet::of(&set.kinds().filter(|&k| cells(k)).collect::<Vec<_>>())),
            pair: keep(all.pair, KindTerm::Pair),
            open_file: keep(all.open_file, KindTerm::OpenFile),
            shelter: all.shelter && nonzero(term(Term::RoyalShelter)),
            storm: all.storm && nonzero(term(Term::RoyalStorm)),
            outpost: keep(all.outpost, KindTerm::Outpost),
            same_colour: keep(all.same_colour, KindTerm::SameColour),
            structure: all.structure
                && [
                    Term::Doubled,
                    Term::Isolated,
                    Term::Connected,
                    Term::ConnectedAdvance,
                    Term::Backward,
                    Term::Space,
                ]
                .iter()
                .any(|&t| nonzero(term(t))),
            shape: all.shape
                && [Term::Connected, Term::ConnectedAdvance, Term::Backward].iter().any(|&t| nonzero(term(t))),
            space: all.space && nonzero(term(Term::Space)),
            threatened: keep(all.threatened, KindTerm::Threatened),
            hanging: keep(all.hanging, KindTerm::Hanging),
            royal_zone: keep(all.royal_zone, KindTerm::RoyalZone),
            safe_check: keep(all.safe_check, KindTerm::SafeCheck),
            danger: all.danger && nonzero(term(Term::RoyalDanger)),
            passed_blocked: all.passed_blocked && nonzero(term(Term::PassedBlocked)),
            passed_royal: all.passed_royal && nonzero(term(Term::PassedRoyal)),
        };
        let mut zone1 = vec![B::EMPTY; n];
        let mut zone2 = vec![B::EMPTY; n];
        let mut same_colour = vec![B::EMPTY; n];
        let mut front_span = vec![B::EMPTY; 2 * n];
        let mut adjacent_ahead = vec![B::EMPTY; 2 * n];
        let mut support = vec![B::EMPTY; 2 * n];
        let mut storm = vec![[B::EMPTY; 3]; 2 * n];
        for sq in 0..n {
            let (f, r) = (size.file_of(sq) as i32, size.rank_of(sq) as i32);
            for t in 0..n {
                if t == sq {
                    continue;
                }
                let (tf, tr) = (size.file_of(t) as i32, size.rank_of(t) as i32);
                let d = (tf - f).abs().max((tr - r).abs());
                if d <= 1 {
                    zone1[sq] |= B::bit(t);
                }
                if d <= 2 {
                    zone2[sq] |= B::bit(t);
                }
                if (tf + tr - f - r) % 2 == 0 {
                    same_colour[sq] |= B::bit(t);
                }
                if (tf - f).abs() <= 1 {
                    if tr > r {
                        front_span[sq] |= B::bit(t);
                    }
                    if tr < r {
                        front_span[n + sq] |= B::bit(t);
                    }
                    for (ci, ahead) in [(0, tr - r), (1, r - tr)] {
                        if (1..=3).contains(&ahead) {
                            storm[ci * n + sq][ahead as usize - 1] |= B::bit(t);
                        }
                        if tf != f && ahead > 0 {
                            adjacent_ahead[ci * n + sq] |= B::bit(t);
                        }
                        if tf != f && ahead == -1 {
                            support[ci * n + sq] |= B::bit(t);
                        }
                    }
                }
            }
        }
        let crowners = Color::BOTH.map(|c| v.crowners(c));
        let shock = v.shock.map(|s| {
            (
                s.side,
                geo.file_mask[s.left_file as usize],
                geo.file_mask[s.right_file as usize],
                (s.right_file - s.left_file) as u32,
            )
        });
        let best_promo = [Color::White, Color::Black].map(|c| {
            v.promotion_choices[c].iter().copied().max_by_key(|k| (values[k.idx()], std::cmp::Reverse(k.idx())))
        });
        let attackers = Color::BOTH
            .map(|c| KindSet::of(&v.pieces[c].kinds().filter(|&k| attacks_counted(v.spec(k))).collect::<Vec<_>>()));
        let plain = Color::BOTH.map(|c| KindSet(v.pieces[c].0 & !v.promoters[c].0 & !v.royal[c].0));
        // (Not where a shock can end the game: material does not decide it.)
        let least = Color::BOTH.map(|c| {
            let cheapest = plain[c.idx()].kinds().map(|k| values[k.idx()]).filter(|&x| x > 0).min();
            if v.promoters[c].0 == 0 || v.shock.is_some() {
                0
            } else {
                cheapest.unwrap_or(0)
            }
        });
        let lesser = Color::BOTH.map(|c| {
            let them = c.flip();
            std::array::from_fn(|i| {
                let cheaper: Vec<Kind> =
                    v.pieces[them].kinds().filter(|&j| !v.royal[them].has(j) && values[j.idx()] < values[i]).collect();
                KindSet::of(&cheaper)
            })
        });
        Evaluator {
            tables,
            kind,
            values,
            packed: iw.iter().map(|&(mg, eg)| pack(mg, eg)).collect(),
            on,
            all,
            code_values: std::array::from_fn(|c| values[c % NKINDS]),
            promoters: [v.promoters[Color::White], v.promoters[Color::Black]],
            passed,
            phase_total,
            taper,
            tapered,
            royal_born,
            crowners,
            zone1,
            zone2,
            same_colour,
            front_span,
            adjacent_ahead,
            support,
            storm,
            not_first_file: geo.all & !geo.file_mask[0],
            not_last_file: geo.all & !geo.file_mask[size.files as usize - 1],
            shock,
            best_promo,
            attackers,
            plain,
            least,
            lesser,
            n,
        }
    }

    /// What identifies this evaluation among all (its interned tables and
    /// its kind): two evaluators with the same identity score every
    /// position alike.
    pub(crate) fn identity(&self) -> u64 {
        (self.tables as *const Tables<B> as u64) ^ u64::from(self.kind == EvalKind::MaterialOnly)
    }

    /// The variant tables this evaluator was built for.
    pub fn tables(&self) -> &'static Tables<B> {
        self.tables
    }

    /// The most valuable promotion choice of a side (the only one the
    /// quiescence search tries).
    #[inline(always)]
    pub fn best_promotion(&self, c: Color) -> Option<Kind> {
        self.best_promo[c.idx()]
    }

    /// Material value of a kind (evolution-adjusted), for move ordering.
    #[inline(always)]
    pub fn value(&self, kind: Kind) -> i32 {
        self.values[kind.idx()]
    }

    /// [`Evaluator::value`] of the piece with mailbox code `code`.
    #[inline(always)]
    pub(crate) fn code_value(&self, code: u8) -> i32 {
        self.code_values[code as usize]
    }

    /// Both sides' promoters (White's first).
    #[inline(always)]
    pub(crate) fn promoters(&self, pos: &Position<B>) -> [B; 2] {
        Color::BOTH.map(|c| pos.pieces_of(c, self.promoters[c.idx()]))
    }

    /// The keys the evaluation's corrections are kept by: the promoters'
    /// placement ([`placement_hash`]), then each side's other pieces'
    /// placement, kind by kind (White's first).
    #[inline(always)]
    pub(crate) fn correction_keys(&self, pos: &Position<B>) -> [u64; 3] {
        let p = self.promoters(pos);
        let mut keys = [placement_hash(p), 0, 0];
        for c in Color::BOTH {
            let mut h = 0u64;
            for k in &self.tables().kind_list[c] {
                h = (h ^ (pos.pieces(c, *k) & !p[c.idx()]).low64()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
            keys[1 + c.idx()] = h;
        }
        keys
    }

    /// The evaluation in centipawns from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.evaluate_with(pos, None)
    }

    /// [`Evaluator::evaluate`], looking the passed-promoter term up in (and
    /// adding it to) a search thread's `cache`.
    pub(crate) fn evaluate_cached(&self, pos: &Position<B>, cache: &mut PassedCache<B>) -> i32 {
        self.evaluate_with(pos, Some(cache))
    }

    #[inline(always)]
    fn evaluate_with(&self, pos: &Position<B>, cache: Option<&mut PassedCache<B>>) -> i32 {
        let white = match self.kind {
            EvalKind::MaterialOnly => self.material(pos),
            EvalKind::Full => self.full(pos, cache),
        };
        let s = if pos.turn() == Color::White { white } else { -white };
        s.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn material(&self, pos: &Position<B>) -> i32 {
        let t = self.tables;
        let mut score = 0;
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            for &k in &t.kind_list[c] {
                score += sign * self.values[k.idx()] * pos.pieces(c, k).count() as i32;
            }
        }
        score
    }

    fn full(&self, pos: &Position<B>, cache: Option<&mut PassedCache<B>>) -> i32 {
        let psq = pos.psq();
        debug_assert_eq!(psq, self.psq_from_scratch(pos), "{}", pos.fen());
        // Each side's promoters and royals, gathered once.
        let promoters = self.promoters(pos);
        let royals = Color::BOTH.map(|c| pos.royals(c));
        let (pm, pe) = match cache {
            Some(cache) => {
                let e = cache.entry(promoters);
                if e.white != promoters[0] || e.black != promoters[1] {
                    let (mg, eg) = self.promoter_terms(promoters);
                    *e = PassedEntry { white: promoters[0], black: promoters[1], mg, eg };
                }
                debug_assert_eq!((e.mg, e.eg), self.promoter_terms(promoters));
                (e.mg, e.eg)
            }
            None => self.promoter_terms(promoters),
        };
        let mut sum = Sum { s: pack(psq.mg + pm, psq.eg + pe), w: &self.packed };
        self.position_terms(pos, promoters, royals, &self.on, &mut sum);
        let (mg, eg) = unpack(sum.s);
        let (tmg, teg) = unpack(self.packed[term(Term::Tempo)]);
        let sign = if pos.turn() == Color::White { 1 } else { -1 };
        if !self.tapered {
            return mg + sign * tmg;
        }
        let w = self.taper[psq.phase.clamp(0, self.phase_total) as usize];
        let scale = self.eg_scale(pos, promoters, eg);
        let eg_w = (TAPER_ONE - w) * scale / SCALE_ONE;
        (mg * w + eg * eg_w) / TAPER_ONE + sign * ((tmg * w + teg * eg_w) / TAPER_ONE)
    }

    /// The share of the endgame sum that counts, out of [`SCALE_ONE`]: the
    /// side the endgame sum favours cannot win without promoters when it
    /// leads by no more than its least piece (a lone minor piece, or a rook
    /// against a minor piece, in chess), and the sum shrinks accordingly.
    fn eg_scale(&self, pos: &Position<B>, promoters: [B; 2], eg: i32) -> i32 {
        let strong = if eg > 0 { Color::White } else { Color::Black };
        let least = self.least[strong.idx()];
        if eg == 0 || least == 0 || promoters[strong.idx()] != B::EMPTY {
            return SCALE_ONE;
        }
        let material = |c: Color| -> i32 {
            self.plain[c.idx()].kinds().map(|k| self.values[k.idx()] * pos.pieces(c, k).count() as i32).sum()
        };
        let (ours, theirs) = (material(strong), material(strong.flip()));
        let margin = least + least / 8;
        if ours - theirs > margin {
            SCALE_ONE
        } else if ours < least + least / 4 {
            0
        } else if theirs <= margin {
            SCALE_ONE / 16
        } else {
            SCALE_ONE * 7 / 32
        }
    }

    /// The terms computed at every evaluation from the placement (royal
    /// safety, crowning queens, the shock files and the optional terms of
    /// `opt`), each handed to `sink` as a parameter and its signed count
    /// (White's view).
    #[inline(always)]
    fn position_terms<S: Sink>(
        &self,
        pos: &Position<B>,
        promoters: [B; 2],
        royals: [B; 2],
        opt: &Optional,
        sink: &mut S,
    ) {
        let t = self.tables;
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            let them = c.flip();
            let theirs = pos.side(them);
            let enemy_promoters = promoters[them.idx()];
            // Royal safety (and Burden's many-kings liability).
            let ours = royals[c.idx()];
            if !ours.is_empty() {
                if self.royal_born {
                    let nk = ours.count() as i32;
                    for r in ours.squares() {
                        sink.add(term(Term::RoyalNear1), -sign * nk * (self.zone1[r] & theirs).count() as i32);
                        sink.add(term(Term::RoyalNear2), -sign * nk * (self.zone2[r] & theirs).count() as i32);
                    }
                } else {
                    let attackers = theirs & !enemy_promoters & !royals[them.idx()];
                    for r in ours.squares() {
                        sink.add(term(Term::RoyalAttackers), -sign * (self.zone2[r] & attackers).count() as i32);
                    }
                }
            }
            // Burden queens: crowning among enemy pieces is dangerous.
            let crowners = self.crowners[c.idx()];
            if crowners.0 != 0 {
                for q in pos.pieces_of(c, crowners).squares() {
                    sink.add(term(Term::CrownerNear), -sign * (self.zone1[q] & theirs).count() as i32);
                }
            }
            if opt.shelter {
                for r in ours.squares() {
                    sink.add(term(Term::RoyalShelter), sign * (self.zone1[r] & promoters[c.idx()]).count() as i32);
                }
            }
            if opt.storm {
                for r in ours.squares() {
                    let rows = &self.storm[c.idx() * self.n + r];
                    let storm: i32 = (0..3).map(|d| (3 - d as i32) * (rows[d] & enemy_promoters).count() as i32).sum();
                    sink.add(term(Term::RoyalStorm), -sign * storm);
                }
            }
            for k in opt.outpost[c.idx()].kinds() {
                let at = c.idx() * self.n;
                let posts = pos.pieces(c, k).squares().filter(|&sq| {
                    !(self.support[at + sq] & promoters[c.idx()]).is_empty()
                        && (self.adjacent_ahead[at + sq] & enemy_promoters).is_empty()
                });
                sink.add(kind_term(k, KindTerm::Outpost), sign * posts.count() as i32);
            }
            for k in opt.same_colour[c.idx()].kinds() {
                for sq in pos.pieces(c, k).squares() {
                    let on_colour = (self.same_colour[sq] & promoters[c.idx()]).count() as i32;
                    sink.add(kind_term(k, KindTerm::SameColour), sign * on_colour);
                }
            }
            for k in opt.pair[c.idx()].kinds() {
                if pos.pieces(c, k).count() >= 2 {
                    sink.add(kind_term(k, KindTerm::Pair), sign);
                }
            }
            for k in opt.open_file[c.idx()].kinds() {
                let files = &t.geo.file_mask;
                let open = pos
                    .pieces(c, k)
                    .squares()
                    .filter(|&sq| (files[t.geo.size.file_of(sq) as usize] & promoters[c.idx()]).is_empty());
                sink.add(kind_term(k, KindTerm::OpenFile), sign * open.count() as i32);
            }
        }
        if opt.needs_attacks() {
            self.attack_terms(pos, royals, opt, sink);
        }
        if opt.passed_blocked || opt.passed_royal {
            self.passer_terms(pos, promoters, royals, opt, sink);
        }
        if let Some((side, left, right, shift)) = self.shock {
            let ours = pos.side(side);
            let l = ours & left;
            let r = ours & right;
            let files = t.geo.size.files as u32;
            let rs = r >> shift;
            let two_apart = (l & ((rs << (2 * files)) | (rs >> (2 * files)))).count() as i32;
            let sign = if side == Color::White { 1 } else { -1 };
            sink.add(term(Term::ShockFile), -sign * (l.count() + r.count()) as i32);
            sink.add(term(Term::ShockPair), -sign * two_apart);
        }
    }

    /// The terms read from each piece's attacks (its leaps and plain
    /// rides): mobility, the attack on the enemy royals' surroundings and,
    /// from both sides' attack sets, pieces attacked by lesser ones or left
    /// undefended. Handed to `sink` (White's view).
    fn attack_terms<S: Sink>(&self, pos: &Position<B>, royals: [B; 2], opt: &Optional, sink: &mut S) {
        let t = self.tables;
        let occ = pos.occupied();
        let both = opt.both_sides();
        // Attacks per colour and kind, and of each colour as a whole.
        let mut by_kind = [[B::EMPTY; NKINDS]; 2];
        let mut by_side = [B::EMPTY; 2];
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            let own = pos.side(c);
            let zone = royals[c.flip().idx()].squares().fold(B::EMPTY, |z, r| z | self.zone1[r]);
            let (mut attackers, mut attacks) = (0, 0);
            let kinds = if both || opt.danger {
                self.attackers[c.idx()]
            } else {
                KindSet(opt.mobility[c.idx()].0 | opt.royal_zone[c.idx()].0)
            };
            for k in kinds.kinds() {
                let kt = &t.kinds[c][k.idx()];
                let plain = self.plain[c.idx()].has(k);
                let mut union = B::EMPTY;
                for sq in pos.pieces(c, k).squares() {
                    let mut att = kt.leap_capture[sq];
                    if kt.orth {
                        att |= t.geo.rook_attacks(sq, occ);
                    }
                    if kt.diag {
                        att |= t.geo.bishop_attacks(sq, occ);
                    }
                    union |= att;
                    if opt.mobility[c.idx()].has(k) {
                        let m = ((att | kt.leap_quiet[sq]) & !own).count() as usize;
                        sink.add(kind_term(k, KindTerm::Mobility), sign * m as i32);
                        if opt.mobility_cells[c.idx()].has(k) {
                            sink.add(kind_mobility(k, m), sign);
                        }
                    }
                    let z = (att & zone).count() as i32;
                    if z > 0 && plain {
                        attackers += 1;
                        attacks += z;
                        if opt.royal_zone[c.idx()].has(k) {
                            sink.add(kind_term(k, KindTerm::RoyalZone), sign * z);
                        }
                    }
                }
                by_kind[c.idx()][k.idx()] = union;
                by_side[c.idx()] |= union;
            }
            if opt.danger {
                sink.add(term(Term::RoyalDanger), sign * (attackers * attacks / 4));
            }
        }
        if !both {
            return;
        }
        for c in Color::BOTH {
            let sign = if c == Color::White { 1 } else { -1 };
            let them = c.flip();
            for k in opt.safe_check[c.idx()].kinds() {
                let kt = &t.kinds[c][k.idx()];
                let open = !pos.side(c) & !by_side[them.idx()] & by_kind[c.idx()][k.idx()];
                for r in royals[them.idx()].squares() {
                    let mut from = kt.leap_capture_rev[r];
                    if kt.orth {
                        from |= t.geo.rook_attacks(r, occ);
                    }
                    if kt.diag {
                        from |= t.geo.bishop_attacks(r, occ);
                    }
                    sink.add(kind_term(k, KindTerm::SafeCheck), sign * (from & open).count() as i32);
                }
            }
            for k in opt.threatened[c.idx()].kinds() {
                let lesser =
                    self.lesser[c.idx()][k.idx()].kinds().fold(B::EMPTY, |a, j| a | by_kind[them.idx()][j.idx()]);
                sink.add(kind_term(k, KindTerm::Threatened), -sign * (pos.pieces(c, k) & lesser).count() as i32);
            }
            let loose = by_side[them.idx()] & !by_side[c.idx()];
            for k in opt.hanging[c.idx()].kinds() {
                sink.add(kind_term(k, KindTerm::Hanging), -sign * (pos.pieces(c, k) & loose).count() as i32);
            }
        }
    }

    /// The passed promoters' refinements: blocked ahead, and the race of
    /// the royals to the square ahead, growing with the ranks advanced
    /// beyond the third (White's view, to `sink`).
    fn passer_terms<S: Sink>(
        &self,
        pos: &Position<B>,
        promoters: [B; 2],
        royals: [B; 2],
        opt: &Optional,
        sink: &mut S,
    ) {
        let size = self.tables.geo.size;
        let (files, ranks) = (size.files as usize, size.ranks as i32);
        let occ = pos.occupied();
        let dist = |a: usize, b: usize| {
            let df = (size.file_of(a) as i32 - size.file_of(b) as i32).abs();
            let dr = (size.rank_of(a) as i32 - size.rank_of(b) as i32).abs();
            df.max(dr).min(5)
        };
        let nearest = |set: B, sq: usize| set.squares().map(|r| dist(r, sq)).min();
        for c in Color::BOTH {
            if self.promoters[c.idx()].0 == 0 {
                continue;
            }
            let sign = if c == Color::White { 1 } else { -1 };
            let (mut blocked, mut race) = (0, 0);
            for sq in self.passed_set(c, promoters[c.idx()], promoters[c.flip().idx()]).squares() {
                let r = size.rank_of(sq) as i32;
                let rr = if c == Color::White { r } else { ranks - 1 - r };
                if rr >= ranks - 1 {
                    continue;
                }
                let stop = if c == Color::White { sq + files } else { sq - files };
                blocked += occ.has(stop) as i32;
                if opt.passed_royal && rr > 2 {
                    if let (Some(own), Some(enemy)) =
                        (nearest(royals[c.idx()], stop), nearest(royals[c.flip().idx()], stop))
                    {
                        race += (enemy - own) * (rr - 2);
                    }
                }
            }
            if opt.passed_blocked {
                sink.add(term(Term::PassedBlocked), sign * blocked);
            }
            if opt.passed_royal {
                sink.add(term(Term::PassedRoyal), sign * race);
            }
        }
    }

    /// The evaluation as a linear function of the weights, for the tuner:
    /// White's score is the sum over `coefs` of `count * (mg_share * mg +
    /// eg_share * eg)` of each parameter's weight (up to rounding).
    pub fn trace(&self, pos: &Position<B>) -> Trace {
        let t = self.tables;
        let v = &t.variant;
        let size = t.geo.size;
        let mut tr = Trace { mg_share: 1.0, eg_share: 0.0, coefs: Vec::new() };
        for sq in 0..self.n {
            if let Some(p) = pos.piece_at(sq) {
                let sign = if p.color == Color::White { 1.0 } else { -1.0 };
                let r = role(v, p.color, p.kind, self.royal_born);
                for (i, b) in piece_terms(p.kind, r, &square_basis(size, p.color, sq)) {
                    if b != 0.0 {
                        tr.coefs.push((i as u16, sign * b));
                    }
                }
            }
        }
        let promoters = self.promoters(pos);
        let royals = Color::BOTH.map(|c| pos.royals(c));
        for c in Color::BOTH {
            if self.promoters[c.idx()].0 == 0 {
                continue;
            }
            let sign = if c == Color::White { 1.0 } else { -1.0 };
            for sq in self.passed_set(c, promoters[c.idx()], promoters[c.flip().idx()]).squares() {
                tr.coefs.push((term(Term::Passed) as u16, sign));
                tr.coefs.push((term(Term::PassedAdvance) as u16, sign * square_basis(size, c, sq).advance));
            }
        }
        if self.all.structure {
            self.structure(promoters, &self.all, &mut tr);
        }
        self.position_terms(pos, promoters, royals, &self.all, &mut tr);
        if self.tapered {
            tr.mg_share = self.taper[pos.psq().phase.clamp(0, self.phase_total) as usize] as f64 / TAPER_ONE as f64;
            // The endgame sum (tempo aside) under the current weights
            // decides the scaling.
            let eg: f64 = tr.coefs.iter().map(|&(i, c)| c * unpack(self.packed[i as usize]).1 as f64).sum();
            let scale = self.eg_scale(pos, promoters, eg.round() as i32);
            tr.eg_share = (1.0 - tr.mg_share) * scale as f64 / SCALE_ONE as f64;
        }
        tr.coefs.push((term(Term::Tempo) as u16, if pos.turn() == Color::White { 1.0 } else { -1.0 }));
        tr.coefs.sort_by_key(|c| c.0);
        tr.coefs.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
        tr.coefs.retain(|c| c.1 != 0.0);
        tr
    }
}

/// The terms an evaluation may leave out when their weight is zero.
#[derive(Clone, Copy, Debug, Default)]
struct Optional {
    /// Kinds whose mobility is counted, per colour.
    mobility: [KindSet; 2],
    /// Kinds whose mobility cells are counted, per colour.
    mobility_cells: [KindSet; 2],
    /// Kinds whose pair is counted, per colour.
    pair: [KindSet; 2],
    /// Orthogonal riders counted on files without own promoters.
    open_file: [KindSet; 2],
    /// Promoters sheltering a royal.
    shelter: bool,
    /// Enemy promoters storming a royal.
    storm: bool,
    /// Kinds counted on outposts, per colour.
    outpost: [KindSet; 2],
    /// Kinds counting own promoters on their square colour, per colour.
    same_colour: [KindSet; 2],
    /// Promoter structure: doubled and isolated promoters, and whatever
    /// of `shape` and `space` is counted.
    structure: bool,
    /// Connected and backward promoters.
    shape: bool,
    /// Space behind the promoters.
    space: bool,
    /// Kinds counted when attacked by a lesser enemy piece, per colour.
    threatened: [KindSet; 2],
    /// Kinds counted when attacked and undefended, per colour.
    hanging: [KindSet; 2],
    /// Kinds whose attacks next to an enemy royal are counted, per colour.
    royal_zone: [KindSet; 2],
    /// Kinds whose safe checks are counted, per colour.
    safe_check: [KindSet; 2],
    /// The attack on a royal's surroundings ([`Term::RoyalDanger`]).
    danger: bool,
    /// Passed promoters blocked ahead.
    passed_blocked: bool,
    /// The royals' race to a passed promoter.
    passed_royal: bool,
}

/// Whether either colour has a kind in `sets`.
fn any_kind_of(sets: &[KindSet; 2]) -> bool {
    sets[0].0 | sets[1].0 != 0
}

impl Optional {
    /// Whether any term computed from each piece's attacks is counted
    /// (mobility included).
    fn needs_attacks(&self) -> bool {
        any_kind_of(&self.mobility) || self.both_sides() || any_kind_of(&self.royal_zone) || self.danger
    }

    /// Whether a counted term needs every piece's attacks of both sides:
    /// the threat terms and safe checks.
    fn both_sides(&self) -> bool {
        self.threats() || any_kind_of(&self.safe_check)
    }

    /// Whether the threat terms, which need both sides' attacks, are
    /// counted.
    fn threats(&self) -> bool {
        any_kind_of(&self.threatened) || any_kind_of(&self.hanging)
    }
}

/// Where [`Evaluator::position_terms`] hands its terms.
trait Sink {
    /// Add `count` of parameter `param`.
    fn add(&mut self, param: usize, count: i32);
    /// Add a fractional `basis` of parameter `param` (rounded once in a
    /// sum).
    fn add_basis(&mut self, param: usize, basis: f64);
}

/// A middlegame and an endgame score in one integer (`eg * 2^32 + mg`),
/// so that one multiply-add moves both: exact while each stays an `i32`.
#[inline(always)]
fn pack(mg: i32, eg: i32) -> i64 {
    (i64::from(eg) << 32) + i64::from(mg)
}

/// The (mg, eg) scores of a [`pack`]ed sum.
#[inline(always)]
fn unpack(s: i64) -> (i32, i32) {
    let mg = s as i32;
    (mg, ((s - i64::from(mg)) >> 32) as i32)
}

/// The running (mg, eg) sum of the evaluation, [`pack`]ed.
struct Sum<'a> {
    s: i64,
    /// The packed weights, by parameter.
    w: &'a [i64],
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.s += self.w[param] * i64::from(count);
    }

    #[inline(always)]
    fn add_basis(&mut self, param: usize, basis: f64) {
        let (m, e) = unpack(self.w[param]);
        self.s += pack((m as f64 * basis).round() as i32, (e as f64 * basis).round() as i32);
    }
}

/// A position's evaluation as counts of each parameter
/// (`Evaluator::trace`; [`crate::traces`] from FENs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Middlegame share of the tapered blend (1 when the variant does not
    /// taper).
    pub mg_share: f64,
    /// Endgame share: `1 - mg_share`, less where the endgame sum is scaled
    /// down (a side without promoters and too small a lead to win).
    pub eg_share: f64,
    /// (parameter, signed count), by parameter, no zeros.
    pub coefs: Vec<(u16, f64)>,
}

impl Sink for Trace {
    fn add(&mut self, param: usize, count: i32) {
        if count != 0 {
            self.coefs.push((param as u16, count as f64));
        }
    }

    fn add_basis(&mut self, param: usize, basis: f64) {
        if basis != 0.0 {
            self.coefs.push((param as u16, basis));
        }
    }
}

impl<B: BitSet> Evaluator<B> {
    /// The terms of the promoters' placement alone, (mg, eg): passed
    /// promoters and, when weighed, their structure (what the passed cache
    /// holds).
    fn promoter_terms(&self, promoters: [B; 2]) -> (i32, i32) {
        let (mg, eg) = self.passed_terms(promoters);
        if !self.on.structure {
            return (mg, eg);
        }
        let mut sum = Sum { s: pack(mg, eg), w: &self.packed };
        self.structure(promoters, &self.on, &mut sum);
        unpack(sum.s)
    }

    /// Doubled, isolated and, as `opt` counts them, connected and backward
    /// promoters and space, handed to `sink` (White's view).
    fn structure<S: Sink>(&self, promoters: [B; 2], opt: &Optional, sink: &mut S) {
        let geo = &self.tables.geo;
        let size = geo.size;
        let files = size.files as usize;
        let (nf, nr) = (size.files as i32, size.ranks as i32);
        for c in Color::BOTH {
            let ours = promoters[c.idx()];
            if ours.is_empty() {
                continue;
            }
            let enemy = promoters[c.flip().idx()];
            let fwd = if c == Color::White { 1 } else { -1 };
            let at = |set: B, f: i32, r: i32| {
                (0..nf).contains(&f) && (0..nr).contains(&r) && set.has(size.square(f as u8, r as u8))
            };
            let (mut connected, mut connected_advance, mut backward) = (0, 0.0, 0);
            for sq in ours.squares().filter(|_| opt.shape) {
                let (f, r) = (size.file_of(sq) as i32, size.rank_of(sq) as i32);
                let phalanx = at(ours, f - 1, r) || at(ours, f + 1, r);
                if phalanx || !(self.support[c.idx() * self.n + sq] & ours).is_empty() {
                    connected += 1;
                    connected_advance += square_basis(size, c, sq).advance;
                }
                let supportable =
                    (0..nr).filter(|&rr| (rr - r) * fwd <= 0).any(|rr| at(ours, f - 1, rr) || at(ours, f + 1, rr));
                let stop_attacked = at(enemy, f - 1, r + 2 * fwd) || at(enemy, f + 1, r + 2 * fwd);
                if !supportable && stop_attacked && (0..nr).contains(&(r + fwd)) {
                    backward += 1;
                }
            }
            let sign = if c == Color::White { 1 } else { -1 };
            let (mut occupied, mut doubled) = (0u32, 0);
            for f in 0..files {
                let n = (ours & geo.file_mask[f]).count() as i32;
                if n > 0 {
                    occupied |= 1 << f;
                    doubled += n - 1;
                }
            }
            let isolated = ours
                .squares()
                .filter(|&sq| {
                    let f = geo.size.file_of(sq) as u32;
                    occupied & ((1 << (f + 1)) | (1 << f >> 1)) & !(1 << f) == 0
                })
                .count() as i32;
            sink.add(term(Term::Doubled), sign * doubled);
            sink.add(term(Term::Isolated), sign * isolated);
            if opt.shape {
                sink.add(term(Term::Connected), sign * connected);
                sink.add_basis(term(Term::ConnectedAdvance), sign as f64 * connected_advance);
                sink.add(term(Term::Backward), sign * backward);
            }
            if !opt.space {
                continue;
            }
            // Space: the middle half of the files, relative ranks 2 up to
            // the last of the own half.
            let mut space = 0;
            for f in (nf + 2) / 4..nf - (nf + 2) / 4 {
                for rr in 1..nr / 2 {
                    let r = if c == Color::White { rr } else { nr - 1 - rr };
                    if at(ours, f, r) || at(enemy, f - 1, r + fwd) || at(enemy, f + 1, r + fwd) {
                        continue;
                    }
                    let behind = (1..=3).any(|d| at(ours, f, r + d * fwd));
                    space += 1 + behind as i32;
                }
            }
            sink.add(term(Term::Space), sign * space);
        }
    }

    /// The passed-promoter term (White's minus Black's, mg and eg) of the
    /// promoters of each side.
    fn passed_terms(&self, promoters: [B; 2]) -> (i32, i32) {
        let n = self.n;
        let (mut mg, mut eg) = (0, 0);
        for c in Color::BOTH {
            if self.promoters[c.idx()].0 == 0 {
                continue;
            }
            let sign = if c == Color::White { 1 } else { -1 };
            let enemy = promoters[c.flip().idx()];
            for sq in self.passed_set(c, promoters[c.idx()], enemy).squares() {
                debug_assert!((self.front_span[c.idx() * n + sq] & enemy).is_empty());
                let (pm, pe) = self.passed[c.idx() * n + sq];
                mg += sign * pm;
                eg += sign * pe;
            }
        }
        (mg, eg)
    }

    /// The pieces of `ours` (promoters of `c`) with no enemy promoter ahead
    /// of them on their own or an adjacent file, found set-wise: the enemy
    /// promoters spread to the adjacent files and filled backward.
    #[inline(always)]
    fn passed_set(&self, c: Color, ours: B, enemy: B) -> B {
        let files = self.tables.geo.size.files as u32;
        let spread = enemy | ((enemy & self.not_last_file) << 1) | ((enemy & self.not_first_file) >> 1);
        let mut behind = if c == Color::White { spread >> files } else { spread << files };
        let mut step = files;
        while step < self.n as u32 {
            behind |= if c == Color::White { behind >> step } else { behind << step };
            step *= 2;
        }
        let passed = ours & !behind;
        debug_assert_eq!(
            passed,
            ours.squares()
                .filter(|&sq| (self.front_span[c.idx() * self.n + sq] & enemy).is_empty())
                .fold(B::EMPTY, |b, sq| b | B::bit(sq))
        );
        passed
    }

    /// The material and piece-square sum recomputed from the board (checks
    /// the incremental one in debug builds).
    fn psq_from_scratch(&self, pos: &Position<B>) -> crate::rules::psq::Psq {
        let mut sum = crate::rules::psq::Psq::default();
        for sq in 0..self.n {
            if let Some(p) = pos.piece_at(sq) {
                sum.add(self.tables.psq.entry(p.code(), sq));
            }
        }
        sum
    }
}

/// One slot of a [`PassedCache`]: the promoters of each side and their
/// passed-promoter term.
#[derive(Clone, Copy, Default)]
struct PassedEntry<B> {
    white: B,
    black: B,
    mg: i32,
    eg: i32,
}

/// A search thread's cache of the passed-promoter term by the placement of
/// both sides' promoters (as a pawn hash table in chess engines): the
/// placement changes only when a promoter moves, is taken or promotes, so
/// most evaluations find their term here. Direct-mapped; an empty slot
/// holds the right term for no promoters at all.
pub(crate) struct PassedCache<B> {
    entries: Vec<PassedEntry<B>>,
}

/// Slots of a [`PassedCache`] (a power of two; 24 KiB on 8x8).
const PASSED_SLOTS: usize = 1 << 10;

impl<B: BitSet> PassedCache<B> {
    /// An empty cache.
    pub(crate) fn new() -> PassedCache<B> {
        PassedCache { entries: vec![PassedEntry::default(); PASSED_SLOTS] }
    }

    /// The slot of a placement.
    #[inline(always)]
    fn entry(&mut self, promoters: [B; 2]) -> &mut PassedEntry<B> {
        let h = placement_hash(promoters);
        &mut self.entries[(h >> (64 - PASSED_SLOTS.trailing_zeros())) as usize]
    }
}

/// A hash of both sides' promoters (the pawn structure), whose high bits
/// index the tables keyed by it. On boards of more than 64 squares only
/// the first 64 count.
#[inline(always)]
pub(crate) fn placement_hash<B: BitSet>(promoters: [B; 2]) -> u64 {
    (promoters[0].low64() ^ promoters[1].low64().rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Full evaluation of a position (centipawns, side to move's view).
pub fn evaluate(pos: &AnyPosition) -> i32 {
    with_pos!(pos, p => Evaluator::new(p.tables, EvalKind::Full).evaluate(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    fn eval(variant: &str, fen: Option<&str>) -> i32 {
        evaluate(&AnyPosition::new(&Variant::new(variant, &[]).unwrap(), fen).unwrap())
    }

    #[test]
    fn packed_sums_add_both_halves_exactly() {
        let (w1, w2) = (pack(-37, 512), pack(1250, -3));
        let mut s = pack(-20_000, 19_000);
        s += w1 * -7 + w2 * 3;
        assert_eq!(unpack(s), (-20_000 + 259 + 3750, 19_000 - 3584 - 9));
        for (mg, eg) in [(0, 0), (-1, 0), (0, -1), (i32::MIN, i32::MAX), (i32::MAX, i32::MIN), (-5, -5)] {
            assert_eq!(unpack(pack(mg, eg)), (mg, eg));
        }
    }

    #[test]
    fn a_small_lead_without_promoters_is_scored_as_drawn() {
        // A bishop against a pawn, a rook against a bishop: no win.
        assert!(eval("chess", Some("8/5p2/4k3/8/8/3BK3/8/8 w - - 0 1")).abs() < 40);
        assert!(eval("chess", Some("8/8/4k3/3b4/8/3RK3/8/8 w - - 0 1")).abs() < 40);
        // A rook against a pawn, a queen against a rook, a bishop and a
        // pawn: wins, scored in full.
        assert!(eval("chess", Some("8/5p2/4k3/8/8/3RK3/8/8 w - - 0 1")) > 250);
        assert!(eval("chess", Some("8/8/4k3/3r4/8/3QK3/8/8 w - - 0 1")) > 400);
        assert!(eval("chess", Some("8/8/4k3/8/8/3BK3/6P1/8 w - - 0 1")) > 250);
    }

    #[test]
    fn start_positions_are_roughly_balanced() {
        // Chess is symmetric: only the move is worth anything (the start
        // position is full middlegame).
        let v = Variant::new("chess", &[]).unwrap();
        let tempo = v.eval_weights().get(term(Term::Tempo))[0].round() as i32;
        assert_eq!(eval("chess", None), tempo);
        assert!(eval("evolution", None).abs() < 100);
        assert!(eval("burden", None).abs() < 100);
    }

    #[test]
    fn chess_is_colour_symmetric() {
        let w = eval("chess", Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
        let b = eval("chess", Some("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3"));
        assert_eq!(w, b);
    }

    #[test]
    fn evolution_values_follow_the_chain() {
        let v = Variant::new("evolution", &[]).unwrap();
        let e: Evaluator<u64> = Evaluator::new(Tables::shared(&v), EvalKind::Full);
        let (n, b, r, q) = (e.value(Kind::Knight), e.value(Kind::Bishop), e.value(Kind::Rook), e.value(Kind::Queen));
        assert!(n < b && b < r && r < q, "{n} {b} {r} {q}");
        let v = Variant::new("burden", &[]).unwrap();
        let e: Evaluator<u64> = Evaluator::new(Tables::shared(&v), EvalKind::Full);
        assert!(e.value(Kind::Queen) < 950 && e.value(Kind::Pawn) > 100);
    }

    #[test]
    fn robotic_pieces_outweigh_their_originals() {
        let v = Variant::new("shocking", &[]).unwrap();
        let e: Evaluator<u64> = Evaluator::new(Tables::shared(&v), EvalKind::Full);
        assert!(e.value(Kind::Missile) > e.value(Kind::Rook));
        assert!(e.value(Kind::Drone) > e.value(Kind::Bishop));
        assert!(e.value(Kind::Turret) > e.value(Kind::Pawn));
    }
}
