//! Slider attack tables for rook and bishop attacks on the 8x8 fast path.
//!
//! With BMI2 (the build targets the compiling CPU, see `.cargo/config.toml`)
//! the index into a square's table is `pext(occupancy, mask)` and each slot
//! holds the attack set compressed to the bits of the square's empty-board
//! lines, expanded by `pdep`: 2 bytes a slot, so the rook tables take 200
//! KiB instead of 800 and stay in the L2 cache, and building them is a
//! plain fill. Without BMI2 they are fancy magic bitboards whose magics are
//! found at start-up by a seeded search (as Stockfish does), deterministic
//! and not hard-coded.

/// The attack tables for both slider kinds.
#[derive(Debug)]
pub struct Magics {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    table: Vec<Slot>,
}

/// A table slot: a compressed attack set (BMI2) or a whole one.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
type Slot = u16;
/// A table slot: a compressed attack set (BMI2) or a whole one.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
type Slot = u64;

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    mask: u64,
    /// The empty-board attack set (BMI2: the bits a slot is compressed to).
    #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "bmi2")), allow(dead_code))]
    lines: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    magic: u64,
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
    shift: u32,
    offset: usize,
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    // SAFETY: compiled only where the target has BMI2.
    unsafe { std::arch::x86_64::_pext_u64(x, mask) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn pdep(x: u64, mask: u64) -> u64 {
    // SAFETY: compiled only where the target has BMI2.
    unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
}

impl Magics {
    /// Build tables from a reference attack function
    /// `reference(square, occupancy, diagonal)`.
    pub fn new(reference: impl Fn(usize, u64, bool) -> u64) -> Magics {
        let mut m = Magics { rook: [Entry::default(); 64], bishop: [Entry::default(); 64], table: Vec::new() };
        for diag in [false, true] {
            for sq in 0..64 {
                let entry = m.build(sq, diag, &reference);
                if diag {
                    m.bishop[sq] = entry;
                } else {
                    m.rook[sq] = entry;
                }
            }
        }
        m
    }

    fn build(&mut self, sq: usize, diag: bool, reference: &impl Fn(usize, u64, bool) -> u64) -> Entry {
        let (file, rank) = (sq % 8, sq / 8);
        let edges = ((0xffu64 | (0xffu64 << 56)) & !(0xffu64 << (8 * rank)))
            | ((0x0101_0101_0101_0101u64 | (0x8080_8080_8080_8080u64)) & !(0x0101_0101_0101_0101u64 << file));
        let mask = reference(sq, 0, diag) & !edges;
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let mut occs = Vec::with_capacity(1 << bits);
        let mut atts = Vec::with_capacity(1 << bits);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(reference(sq, sub, diag));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let offset = self.table.len();
        self.table.resize(offset + size, 0);
        let lines = reference(sq, 0, diag);
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        {
            for (&o, &a) in occs.iter().zip(&atts) {
                self.table[offset + pext(o, mask) as usize] = pext(a, lines) as Slot;
            }
            Entry { mask, lines, magic: 0, shift, offset }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        self.find_magic(Entry { mask, lines, magic: 0, shift, offset }, &occs, &atts, SEEDS[sq / 8])
    }

    /// Search magics for `e` until one maps every occupancy subset to a
    /// slot holding its attack set (constructive collisions allowed).
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    fn find_magic(&mut self, e: Entry, occs: &[u64], atts: &[u64], mut rng: u64) -> Entry {
        let Entry { mask, shift, offset, .. } = e;
        let size = 1usize << (64 - shift);
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        loop {
            let magic = next(&mut rng) & next(&mut rng) & next(&mut rng);
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = occs.iter().zip(atts).all(|(&o, &a)| {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                let slot = &mut self.table[offset + idx];
                if epoch[idx] < attempt {
                    epoch[idx] = attempt;
                    *slot = a;
                    true
                } else {
                    *slot == a
                }
            });
            if ok {
                return Entry { magic, ..e };
            }
        }
    }

    #[inline(always)]
    fn lookup(&self, e: &Entry, occ: u64) -> u64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        let i = e.offset + pext(occ, e.mask) as usize;
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        let i = e.offset + ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        debug_assert!(i < self.table.len());
        // SAFETY: `build` gave this entry `1 << (64 - shift)` slots from
        // `offset` in `table`, one per subset of its mask, and both the
        // extracted bits and the shifted product index below that.
        let slot = unsafe { *self.table.get_unchecked(i) };
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        return pdep(slot as u64, e.lines);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        slot
    }

    /// Rook attacks from `sq` (< 64) with occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.rook[sq & 63], occ)
    }

    /// Bishop attacks from `sq` (< 64) with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.bishop[sq & 63], occ)
    }
}

/// Per-rank seeds of the magic search that converge quickly (the ones
/// Stockfish uses).
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
const SEEDS: [u64; 8] = [728, 10316, 55013, 32803, 12281, 15100, 16645, 255];

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(2_685_821_657_736_338_717)
}
