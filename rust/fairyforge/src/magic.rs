//! Fancy magic bitboards for rook and bishop attacks on the 8x8 fast path.
//!
//! The magics are found at start-up by a seeded search (as Stockfish does),
//! so the result is deterministic and nothing is hard-coded. Building both
//! tables takes a few milliseconds and happens once per process.

/// Magic lookup tables for both slider kinds.
#[derive(Debug)]
pub struct Magics {
    rook: [Entry; 64],
    bishop: [Entry; 64],
    table: Vec<u64>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magics {
    /// Build tables from a reference attack function
    /// `reference(square, occupancy, diagonal)`.
    pub fn new(reference: impl Fn(usize, u64, bool) -> u64) -> Magics {
        let mut m = Magics { rook: [Entry::default(); 64], bishop: [Entry::default(); 64], table: Vec::new() };
        // Per-rank seeds that converge quickly (the ones Stockfish uses).
        const SEEDS: [u64; 8] = [728, 10316, 55013, 32803, 12281, 15100, 16645, 255];
        for diag in [false, true] {
            for sq in 0..64 {
                let mut rng = SEEDS[sq / 8];
                let entry = m.build(sq, diag, &reference, &mut rng);
                if diag {
                    m.bishop[sq] = entry;
                } else {
                    m.rook[sq] = entry;
                }
            }
        }
        m
    }

    fn build(&mut self, sq: usize, diag: bool, reference: &impl Fn(usize, u64, bool) -> u64, rng: &mut u64) -> Entry {
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
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        loop {
            let magic = next(rng) & next(rng) & next(rng);
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = occs.iter().zip(&atts).all(|(&o, &a)| {
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
                return Entry { mask, magic, shift, offset };
            }
        }
    }

    #[inline(always)]
    fn lookup(&self, e: &Entry, occ: u64) -> u64 {
        let i = e.offset + ((occ & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        debug_assert!(i < self.table.len());
        // SAFETY: `build` gave this entry `1 << (64 - shift)` slots from
        // `offset` in `table`, and the shifted product is below that.
        unsafe { *self.table.get_unchecked(i) }
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

fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(2_685_821_657_736_338_717)
}
