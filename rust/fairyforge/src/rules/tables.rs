//! The tables move generation reads for one variant on one board width,
//! built once from the piece data: leaps per square (forward for generation,
//! reverse for attack tests), Robotic hop screens, lame legs, kind
//! groupings, promotion and double-step ranks, castling masks and the
//! piece-square values.

use crate::bitboard::BitSet;
use crate::geometry::{dir_index, Geometry, NO_SQ};
use crate::piece::{ByColor, Color, Kind};
use crate::rules::castling;
use crate::rules::movement::{Line, Mode};
use crate::rules::psq::PsqTables;
use crate::rules::variant::{KindSet, Variant};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Mutex, OnceLock};

/// One plain leap line of a kind as a whole-board shift, for set-wise
/// counting: the targets of all pieces `bb` on the line are
/// `shift(bb & src, delta) & all`.
#[derive(Debug, Clone, Copy)]
pub struct ShiftLine<B> {
    /// Square index delta of one step on the line.
    pub delta: i32,
    /// Origins whose step stays on the board horizontally.
    pub src: B,
    /// Origins whose two steps stay on the board horizontally (Robotic hop).
    pub src2: B,
    /// The line makes quiet moves.
    pub moves: bool,
    /// The line captures.
    pub captures: bool,
}

/// `b` shifted by `delta` squares (toward higher indices when positive).
#[inline(always)]
pub fn shift<B: BitSet>(b: B, delta: i32) -> B {
    if delta >= 0 {
        b << delta as u32
    } else {
        b >> (-delta) as u32
    }
}

/// Movement tables of one kind for one colour.
#[derive(Debug, Default)]
pub struct KindTables<B> {
    /// Quiet targets of plain (non-lame) leap lines, per square.
    pub leap_quiet: Vec<B>,
    /// Capture targets of plain leap lines, per square.
    pub leap_capture: Vec<B>,
    /// Squares from which this kind captures onto a square by a plain leap.
    pub leap_capture_rev: Vec<B>,
    /// Lame leaps per square: (target, leg, mode).
    pub lame: Vec<Vec<(u8, u8, Mode)>>,
    /// Lame capturing leaps reaching a square: (origin, leg).
    pub lame_rev: Vec<Vec<(u8, u8)>>,
    /// Origins of `lame_rev[sq]` as a set (a quick test before the list).
    pub lame_rev_mask: Vec<B>,
    /// Targets of `lame[sq]` as a set (a quick test before the list).
    pub lame_reach: Vec<B>,
    /// Screens of the Robotic range-1 hops per square, for the lines that
    /// move quietly; the landing square is `2 * screen - from`.
    pub hop_move_screens: Vec<B>,
    /// Screens of the Robotic range-1 hops per square, for capturing lines.
    pub hop_capture_screens: Vec<B>,
    /// Origins of the Robotic capturing range-1 hops onto a square. A hop
    /// lands two steps away, so its screen is the midpoint
    /// `(origin + sq) / 2`.
    pub hop_rev_mask: Vec<B>,
    /// Rides orthogonally (all four directions, both modes).
    pub orth: bool,
    /// Rides diagonally (all four directions, both modes).
    pub diag: bool,
    /// Robotic (hops on every line).
    pub robotic: bool,
    /// Has lame leaps (a non-empty `lame` list somewhere).
    pub lame_any: bool,
    /// Gryphon bent rider.
    pub bent: bool,
    /// Lines walked square by square (hoppers, one-way, one-mode, ranged
    /// or long-step riders), with the rank delta for this colour.
    pub walk: Vec<Line>,
    /// Moves are found per piece by [`Tables::walk_targets`]: a bent rider
    /// or a kind with walked lines.
    pub walker: bool,
    /// When every walked line is an unlimited one-step hop that may capture
    /// (the grasshopper's), their direction indices: attacks onto a square
    /// are then found looking back from it, one ray per line.
    pub hop_dirs: Option<Vec<usize>>,
    /// Pawn double step.
    pub double_step: bool,
    /// Captures en passant.
    pub ep_taker: bool,
    /// Forward direction index for the double step (pawn forward).
    pub forward: i8,
    /// The kind moves only by plain leaps (no rides, lame legs or bent
    /// rides; Robotic hops allowed): its moves can be counted set-wise.
    pub leaps_only: bool,
    /// Its leap lines as shifts (for set-wise counting).
    pub shifts: Vec<ShiftLine<B>>,
    /// Fewest pieces for which set-wise counting is cheaper than piece by
    /// piece (a shift and a popcount per line against a loop per piece).
    pub bulk_min: u32,
}

impl<B: BitSet> KindTables<B> {
    /// For a kind that moves by plain leaps (and Robotic range-1 hops), the
    /// targets of all its pieces `bb` line by line: `f(targets, back)` per
    /// line and hop, where `back` leads from a target to its origin. Quiet
    /// moves may land on `quiet_ok`, captures on `capture_ok`; `occ` holds
    /// the hop screens.
    #[inline(always)]
    pub fn leap_targets(&self, bb: B, occ: B, quiet_ok: B, capture_ok: B, mut f: impl FnMut(B, i32)) {
        for l in &self.shifts {
            let ok = if l.moves { quiet_ok } else { B::EMPTY } | if l.captures { capture_ok } else { B::EMPTY };
            f(shift(bb & l.src, l.delta) & ok, l.delta);
            if self.robotic {
                let screens = shift(bb & l.src2, l.delta) & occ;
                f(shift(screens, l.delta) & ok, 2 * l.delta);
            }
        }
    }
}

/// Kind groupings of one side used by attack tests.
#[derive(Debug, Default, Clone, Copy)]
pub struct SideSets {
    /// Kinds with plain leap captures.
    pub leapers: KindSet,
    /// Orthogonal riders.
    pub orth: KindSet,
    /// Diagonal riders.
    pub diag: KindSet,
    /// Robotic orthogonal riders.
    pub robotic_orth: KindSet,
    /// Robotic diagonal riders.
    pub robotic_diag: KindSet,
    /// Kinds with Robotic range-1 capturing hops.
    pub hop_leapers: KindSet,
    /// Kinds with lame capturing leaps.
    pub lame: KindSet,
    /// Kinds whose targets come from [`Tables::walk_targets`] (bent
    /// riders and walked lines).
    pub walkers: KindSet,
    /// Kinds with walked lines other than a hopper's: any move may open or
    /// close one of their lines onto a royal, so every move against them
    /// gets the full test.
    pub general: KindSet,
    /// Hoppers ([`KindTables::hop_dirs`]): a move can start a hop onto a
    /// royal only by filling a square next to it (a hurdle) or by lifting
    /// a piece from a line through it.
    pub hoppers: KindSet,
    /// Kinds whose attacks need more than leap tables and rays.
    pub complex: KindSet,
    /// Orthogonal riders without hops.
    pub orth_plain: KindSet,
    /// Diagonal riders without hops.
    pub diag_plain: KindSet,
    /// Kinds with range-1 hops, lame leaps or bent rides (the attacks not
    /// found by leap tables and slider lookups).
    pub irregular: KindSet,
}

/// The kinds the FIDE draw rule of insufficient material names, found by
/// name (`king`, `queen`, `knight`, `bishop`, `pawn`); any other kind is
/// mating material.
#[derive(Debug, Default, Clone, Copy)]
pub struct Roles {
    /// The king.
    pub king: Option<Kind>,
    /// The queen.
    pub queen: Option<Kind>,
    /// The knight.
    pub knight: Option<Kind>,
    /// The bishop.
    pub bishop: Option<Kind>,
    /// The pawn.
    pub pawn: Option<Kind>,
}

/// Everything move generation needs for one variant on one board width.
#[derive(Debug)]
pub struct Tables<B: BitSet> {
    /// Board geometry.
    pub geo: Geometry<B>,
    /// The variant definition.
    pub variant: Variant,
    /// `kinds[color][kind]`.
    pub kinds: ByColor<Vec<KindTables<B>>>,
    /// Kind groupings per side.
    pub sets: ByColor<SideSets>,
    /// Kinds present in the variant per side, in index order.
    pub kind_list: ByColor<Vec<Kind>>,
    /// The rank each side double-steps from.
    pub double_rank: ByColor<B>,
    /// Each side's promotion rank.
    pub last_rank: ByColor<B>,
    /// Shock masks (left file, right file) when the variant has the rule.
    pub shock_files: Option<(Color, B, B)>,
    /// Kinds whose moves need the royal treatment, per side: royal kinds
    /// and kinds that evolve into a royal one.
    pub royal_movers: ByColor<KindSet>,
    /// Per square, its orthogonal neighbours (hop screens of rook lines).
    pub orth_ring: Vec<B>,
    /// Per square, its diagonal neighbours (hop screens of bishop lines).
    pub diag_ring: Vec<B>,
    /// Material and piece-square values.
    pub psq: PsqTables,
    /// The kinds of the insufficient-material rule.
    pub roles: Roles,
    /// Per square, the castling rights kept when a move starts or ends
    /// there (king and rook squares clear theirs).
    pub castle_keep: Vec<u8>,
    /// Each side's castling moves, compiled for the board.
    pub castle_paths: ByColor<Vec<castling::CastlePath<B>>>,
}

impl<B: BitSet> Tables<B> {
    /// Build the tables for a variant.
    pub fn new(variant: Variant) -> Tables<B> {
        let geo = Geometry::<B>::new(variant.size);
        let size = geo.size;
        let n = size.squares();
        let mut kinds: ByColor<Vec<KindTables<B>>> = ByColor([Vec::new(), Vec::new()]);
        let mut sets: ByColor<SideSets> = ByColor::default();
        let mut kind_list: ByColor<Vec<Kind>> = ByColor::default();
        for color in Color::BOTH {
            let sign: i32 = if color == Color::White { 1 } else { -1 };
            for (ki, spec) in variant.kinds.iter().enumerate() {
                let kind = Kind::from_idx(ki);
                let mut t = KindTables::<B> {
                    leap_quiet: vec![B::EMPTY; n],
                    leap_capture: vec![B::EMPTY; n],
                    leap_capture_rev: vec![B::EMPTY; n],
                    lame: vec![Vec::new(); n],
                    lame_rev: vec![Vec::new(); n],
                    hop_rev_mask: vec![B::EMPTY; n],
                    hop_move_screens: vec![B::EMPTY; n],
                    hop_capture_screens: vec![B::EMPTY; n],
                    lame_rev_mask: vec![B::EMPTY; n],
                    lame_reach: vec![B::EMPTY; n],
                    forward: sign as i8,
                    ..Default::default()
                };
                let Some(spec) = spec.as_ref().filter(|_| variant.pieces[color].has(kind)) else {
                    kinds[color].push(t);
                    continue;
                };
                kind_list[color].push(kind);
                t.robotic = spec.robotic;
                t.bent = spec.bent;
                t.walk = spec.walked_lines().into_iter().map(|l| Line { dr: l.dr * sign as i8, ..l }).collect();
                t.walker = t.bent || !t.walk.is_empty();
                let unit_hop =
                    |l: &Line| l.hop && l.range == 0 && l.mode.captures() && l.df.abs() <= 1 && l.dr.abs() <= 1;
                if !t.bent && !t.walk.is_empty() && t.walk.iter().all(unit_hop) {
                    t.hop_dirs = Some(t.walk.iter().filter_map(|l| dir_index(l.df, l.dr)).collect());
                }
                t.double_step = spec.double_step;
                t.ep_taker = spec.ep_taker;
                t.orth = spec.rides(false);
                t.diag = spec.rides(true);
                let s = &mut sets[color];
                let add = |set: &mut KindSet| set.0 |= 1 << ki;
                if t.orth {
                    add(&mut s.orth);
                    if t.robotic {
                        add(&mut s.robotic_orth);
                    }
                }
                if t.diag {
                    add(&mut s.diag);
                    if t.robotic {
                        add(&mut s.robotic_diag);
                    }
                }
                if t.walker {
                    add(&mut s.walkers);
                }
                if t.hop_dirs.is_some() {
                    add(&mut s.hoppers);
                } else if !t.walk.is_empty() {
                    add(&mut s.general);
                }
                if spec.complex_attacker() {
                    add(&mut s.complex);
                }
                t.leaps_only = !t.walker && spec.lines.iter().all(|l| !l.ride && !l.hop && l.leg.is_none());
                let files_within = |df: i32| -> B {
                    (0..size.files as i32)
                        .filter(|f| (0..size.files as i32).contains(&(f + df)))
                        .fold(B::EMPTY, |m, f| m | geo.file_mask[f as usize])
                };
                for line in spec.lines.iter().filter(|l| !l.ride && !l.hop && l.leg.is_none()) {
                    let (df, dr) = (line.df as i32, line.dr as i32 * sign);
                    t.shifts.push(ShiftLine {
                        delta: dr * size.files as i32 + df,
                        src: files_within(df),
                        src2: if spec.robotic { files_within(2 * df) } else { B::EMPTY },
                        moves: line.mode.moves(),
                        captures: line.mode.captures(),
                    });
                }
                let evals = t.shifts.len() * if spec.robotic { 2 } else { 1 } + usize::from(spec.double_step);
                t.bulk_min = (evals as u32).div_ceil(3).max(2);
                for line in spec.lines.iter().filter(|l| !l.ride && !l.hop) {
                    let (df, dr) = (line.df as i32, line.dr as i32 * sign);
                    for from in 0..n {
                        let Some(to) = size.offset(from, df, dr) else { continue };
                        if let Some((lf, lr)) = line.leg {
                            let leg = size.offset(from, lf as i32, lr as i32 * sign).expect("leg inside leap");
                            t.lame[from].push((to as u8, leg as u8, line.mode));
                            t.lame_reach[from] |= B::bit(to);
                            t.lame_any = true;
                            if line.mode.captures() {
                                t.lame_rev[to].push((from as u8, leg as u8));
                                t.lame_rev_mask[to] |= B::bit(from);
                                add(&mut s.lame);
                            }
                            continue;
                        }
                        if line.mode.moves() {
                            t.leap_quiet[from] |= B::bit(to);
                        }
                        if line.mode.captures() {
                            t.leap_capture[from] |= B::bit(to);
                            t.leap_capture_rev[to] |= B::bit(from);
                            add(&mut s.leapers);
                        }
                        if t.robotic {
                            if let Some(land) = size.offset(to, df, dr) {
                                debug_assert_eq!(2 * to, from + land);
                                if line.mode.moves() {
                                    t.hop_move_screens[from] |= B::bit(to);
                                }
                                if line.mode.captures() {
                                    t.hop_capture_screens[from] |= B::bit(to);
                                    debug_assert_eq!((from + land) / 2, to);
                                    t.hop_rev_mask[land] |= B::bit(from);
                                    add(&mut s.hop_leapers);
                                }
                            }
                        }
                    }
                }
                kinds[color].push(t);
            }
        }
        for s in &mut sets.0 {
            s.orth_plain = KindSet(s.orth.0 & !s.robotic_orth.0);
            s.diag_plain = KindSet(s.diag.0 & !s.robotic_diag.0);
            s.irregular = KindSet(s.hop_leapers.0 | s.lame.0 | s.walkers.0);
        }
        let rank = |r: u8| geo.rank_mask[r as usize];
        let double_rank = ByColor([rank(1), rank(size.ranks - 2)]);
        let last_rank = ByColor(Color::BOTH.map(|c| rank(variant.promotion_rank[c])));
        let shock_files =
            variant.shock.map(|s| (s.side, geo.file_mask[s.left_file as usize], geo.file_mask[s.right_file as usize]));
        let ring = |dirs: std::ops::Range<usize>| -> Vec<B> {
            (0..n)
                .map(|sq| {
                    dirs.clone()
                        .filter(|&d| geo.step[d][sq] != NO_SQ)
                        .fold(B::EMPTY, |m, d| m | B::bit(geo.step[d][sq] as usize))
                })
                .collect()
        };
        let orth_ring = ring(0..4);
        let diag_ring = ring(4..8);
        let royal_movers = ByColor(Color::BOTH.map(|c| KindSet(variant.royal[c].0 | variant.crowners(c).0)));
        let castle_paths = ByColor(Color::BOTH.map(|c| castling::paths(&variant.castling[c], c, &geo)));
        Tables {
            geo,
            castle_keep: (0..n).map(|sq| castling::keep_mask(&variant.castling, size, sq)).collect(),
            castle_paths,
            psq: PsqTables::new(&variant),
            roles: Roles {
                king: variant.kind_named("king"),
                queen: variant.kind_named("queen"),
                knight: variant.kind_named("knight"),
                bishop: variant.kind_named("bishop"),
                pawn: variant.kind_named("pawn"),
            },
            variant,
            kinds,
            sets,
            kind_list,
            double_rank,
            last_rank,
            shock_files,
            royal_movers,
            orth_ring,
            diag_ring,
        }
    }

    /// Shared tables for a variant, built once per distinct definition and
    /// kept for the life of the process. A lookup hashes only the
    /// definition's name, options, size and start (its evaluation weights
    /// alone are some 70 KB, and boards are made often), then compares the
    /// few definitions that share them in full; it copies a definition only
    /// when it is new.
    pub fn shared(variant: &Variant) -> &'static Tables<B> {
        /// By the hash of a definition's name, options, size and start:
        /// the definitions, each with a bitboard capacity and the address
        /// of its tables for it.
        type Cache = Mutex<HashMap<u64, Vec<(Variant, usize, usize)>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut h = DefaultHasher::new();
        (&variant.name, &variant.options, variant.size, &variant.start_fen).hash(&mut h);
        let built = map.entry(h.finish()).or_default();
        let known = built.iter().find(|(v, capacity, _)| *capacity == B::CAPACITY && v == variant);
        let addr = match known {
            Some(&(_, _, addr)) => addr,
            None => {
                let leaked: &'static Tables<B> = Box::leak(Box::new(Tables::new(variant.clone())));
                let addr = leaked as *const Tables<B> as usize;
                built.push((variant.clone(), B::CAPACITY, addr));
                addr
            }
        };
        // SAFETY: the address was produced by `Box::leak` for this same `B`
        // (the capacity is part of the key) and is never freed.
        unsafe { &*(addr as *const Tables<B>) }
    }

    /// Squares a Gryphon on `sq` attacks (RULES.md §2.1): the four diagonal
    /// neighbours, and from each empty one the outward orthogonal rides.
    pub fn bent_attacks(&self, sq: usize, occ: B) -> B {
        let geo = &self.geo;
        let mut att = B::EMPTY;
        for d in 4..8 {
            let g = geo.step[d][sq];
            if g == NO_SQ {
                continue;
            }
            let g = g as usize;
            att |= B::bit(g);
            if !occ.has(g) {
                let (df, dr) = crate::geometry::DIRS[d];
                for u in [dir_index(df, 0).unwrap(), dir_index(0, dr).unwrap()] {
                    att |= geo.ray_attacks(g, u, occ);
                }
            }
        }
        att
    }

    /// Targets of a walker (bent rider or walked lines) on `sq`: quiet
    /// moves onto `quiet_ok`, captures onto `capture_ok`. A walked line
    /// steps `(df, dr)` at a time; a rider stops at the first piece (and
    /// captures it), a hopper rides to the first piece and lands just
    /// beyond it.
    pub fn walk_targets(&self, kd: &KindTables<B>, sq: usize, occ: B, quiet_ok: B, capture_ok: B) -> B {
        let size = self.geo.size;
        let mut out = B::EMPTY;
        if kd.bent {
            out |= self.bent_attacks(sq, occ) & (quiet_ok | capture_ok);
        }
        for l in &kd.walk {
            let (df, dr) = (l.df as i32, l.dr as i32);
            let mut at = sq;
            let mut steps = 0u32;
            let limit = if l.range == 0 { u32::MAX } else { l.range as u32 };
            let mut hurdle = false;
            while let Some(next) = size.offset(at, df, dr) {
                at = next;
                if l.hop && !hurdle {
                    if occ.has(at) {
                        hurdle = true;
                    }
                    continue;
                }
                steps += 1;
                if steps > limit {
                    break;
                }
                if occ.has(at) {
                    if l.mode.captures() && capture_ok.has(at) {
                        out |= B::bit(at);
                    }
                    break;
                }
                // An empty square in `capture_ok` is an attack query's
                // target (move generation passes only enemy pieces there).
                if (l.mode.moves() && quiet_ok.has(at)) || (l.mode.captures() && capture_ok.has(at)) {
                    out |= B::bit(at);
                }
                if l.hop || !l.ride {
                    break;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_definitions_share_their_tables_per_capacity() {
        let chess = Variant::new("chess", &[]).unwrap();
        let a: &'static Tables<u64> = Tables::shared(&chess);
        assert!(std::ptr::eq(a, Tables::<u64>::shared(&chess.clone())));
        // The same definition on the wide words: other tables.
        let wide: &'static Tables<u128> = Tables::shared(&chess);
        assert!(std::ptr::eq(wide, Tables::<u128>::shared(&chess)));
        assert_ne!(a as *const Tables<u64> as usize, wide as *const Tables<u128> as usize);
        // One weight changed: another definition, other tables.
        let mut heavier = chess.clone();
        let mut w = chess.eval_weights();
        let [mg, eg] = w.get(0);
        w.set(0, [mg + 1.0, eg]);
        heavier.weights = Some(w);
        let b: &'static Tables<u64> = Tables::shared(&heavier);
        assert!(!std::ptr::eq(a, b));
        assert_eq!(b.variant, heavier);
        assert_eq!(a.variant, chess);
    }
}
