//! The transposition table: a shared, lock-free hash of search results.
//!
//! Each entry is two `AtomicU64` words, `key ^ data` and `data` (the
//! "xor trick" of Hyatt and Mann): a reader accepts an entry only when the
//! two words xor back to its key, so a torn write by another thread looks
//! like a miss instead of a corrupt hit. Entries live in buckets of four
//! (one 64-byte cache line); a store replaces the entry of the same key, else
//! the shallowest or oldest one. The bucket index is the high half of
//! `key * buckets`, so the table may have any number of buckets.
//!
//! `data` packs, low bits first: the move (22 bits, the whole of
//! [`Move`]'s encoding), the score (16 bits, two's complement), the depth
//! (8 bits), the bound (2 bits), the search generation (8 bits) and the
//! PV flag (1 bit: the node is or was a principal-variation node). Mate
//! scores are stored relative to the node (see [`score_to_tt`]) so they stay
//! right when the same position is reached at another ply.

use crate::error::Error;
use crate::moves::Move;
use crate::types::MATE_BOUND;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

/// A successful probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best or refuting move found before ([`Move::NONE`] if none); only a
    /// hint for ordering, it must be matched against the legal moves.
    pub mv: Move,
    /// Score relative to the node (convert with [`score_from_tt`]).
    pub score: i32,
    /// Remaining depth the score was searched to (0: quiescence).
    pub depth: i32,
    /// Kind of bound.
    pub bound: Bound,
    /// The node was a principal-variation node when stored, or had been
    /// one before.
    pub pv: bool,
}

struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

const MOVE_BITS: u64 = 0x3F_FFFF;

/// The largest table, in MiB (as Stockfish's `Hash` option).
pub const MAX_HASH_MB: usize = 1 << 25;

/// A shared transposition table.
pub struct TranspositionTable {
    /// Taken out on drop, to be kept as the [`SPARE`].
    buckets: ManuallyDrop<Buckets>,
    generation: AtomicU8,
}

/// The memory of the last table dropped, kept for the next table of the
/// same size. Clearing it is a memset; fresh memory instead costs a page
/// fault and a kernel zeroing at every first touch during the search (16
/// MiB: 1.3 ms against 10 ms), which adds up over the many searches of a
/// match or an analysis.
static SPARE: Mutex<Option<Buckets>> = Mutex::new(None);

impl TranspositionTable {
    /// A table of about `mb` MiB (1 to [`MAX_HASH_MB`]), empty; an error
    /// naming `hash_mb` when the size is out of range or the memory cannot
    /// be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, Error> {
        if !(1..=MAX_HASH_MB).contains(&mb) {
            return Err(Error::option("hash_mb", format!("{mb} MiB is outside 1..{MAX_HASH_MB}")));
        }
        let n = ((mb << 20) / std::mem::size_of::<Bucket>()).max(1);
        let spare = SPARE.lock().unwrap_or_else(|e| e.into_inner()).take();
        let buckets = Buckets::reuse(spare, n)
            .ok_or_else(|| Error::option("hash_mb", format!("cannot allocate a table of {mb} MiB")))?;
        Ok(TranspositionTable { buckets: ManuallyDrop::new(buckets), generation: AtomicU8::new(0) })
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.buckets.clear();
    }

    /// Ask the CPU to start loading the bucket of `key` (a hint only).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            if data != 0 && e.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Store a result. An entry of the same key is overwritten unless it
    /// holds a result of this search more than two plies deeper and the new
    /// one is not exact (its move is kept when the new result has none);
    /// otherwise the victim is an empty entry, else the one with the lowest
    /// depth after an age penalty. `pv`: the node is or was a
    /// principal-variation node ([`TtHit::pv`]).
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i32, bound: Bound, pv: bool) {
        let gen = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = e;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if e.check.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                if bound != Bound::Exact && old.depth > depth + 2 && gen_of(data) == gen {
                    return;
                }
                let mv = if mv == Move::NONE { old.mv } else { mv };
                write(e, key, pack(mv, score, depth, bound, gen, pv));
                return;
            }
            let age = gen.wrapping_sub(gen_of(data)) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim = e;
                victim_worth = worth;
            }
        }
        write(victim, key, pack(mv, score, depth, bound, gen, pv));
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        if sample == 0 {
            return 0;
        }
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let d = e.data.load(Ordering::Relaxed);
                d != 0 && gen_of(d) == gen
            })
            .count();
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

/// The bucket array: zeroed memory from the operating system, aligned to
/// cache lines (and to 2 MiB huge pages where the table is large enough).
///
/// A `Vec<Bucket>` cannot be used: its 64-byte alignment makes the system
/// allocator take `aligned_alloc` plus a `memset` of the whole table (about
/// 50 ms for 64 MiB, before every search). Over-allocating with the default
/// alignment goes through `calloc`, whose large blocks are fresh `mmap`
/// pages the kernel zeroes lazily, so a table costs only what a search
/// touches.
struct Buckets {
    base: *mut u8,
    layout: std::alloc::Layout,
    ptr: *mut Bucket,
    len: usize,
}

// SAFETY: the buckets hold only atomics, so sharing and sending the table
// between threads is as safe as it is for `[Bucket]`.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

const HUGE_PAGE: usize = 2 << 20;

impl Buckets {
    /// `n` empty buckets (at least one); `None` when the memory cannot be
    /// had.
    fn zeroed(n: usize) -> Option<Buckets> {
        let n = n.max(1);
        let bytes = n.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { std::mem::align_of::<Bucket>() };
        let layout = std::alloc::Layout::from_size_align(bytes.checked_add(align)?, 8).ok()?;
        // SAFETY: the layout has a non-zero size; a null result is handled.
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return None;
        }
        let offset = base.align_offset(align);
        // SAFETY: `offset < align`, so `bytes` bytes from `base + offset` lie
        // inside the allocation; they are zero, which is a valid `Bucket`
        // (atomics of 0, i.e. empty entries), and aligned for `Bucket`.
        let ptr = unsafe { base.add(offset) } as *mut Bucket;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: a hint on a page-aligned range of our own mapping.
            unsafe { libc::madvise(ptr as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        }
        Some(Buckets { base, layout, ptr, len: n })
    }
}

impl Buckets {
    /// `n` empty buckets: the `spare` ones cleared when there are `n` of
    /// them, else fresh memory (the spare is freed first).
    fn reuse(spare: Option<Buckets>, n: usize) -> Option<Buckets> {
        match spare {
            Some(mut b) if b.len == n => {
                b.clear();
                Some(b)
            }
            other => {
                drop(other);
                Buckets::zeroed(n)
            }
        }
    }

    /// Empty every bucket (one memset).
    fn clear(&mut self) {
        // SAFETY: `ptr` points to `len` buckets owned by `self`, and all
        // zero bytes are a valid (empty) bucket.
        unsafe { std::ptr::write_bytes(self.ptr, 0, self.len) };
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` points to `len` initialised buckets owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        // SAFETY: `buckets` is not used again after this.
        let buckets = unsafe { ManuallyDrop::take(&mut self.buckets) };
        *SPARE.lock().unwrap_or_else(|e| e.into_inner()) = Some(buckets);
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `base` was allocated with `layout` and is freed once.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

#[inline(always)]
fn write(e: &Entry, key: u64, data: u64) {
    e.check.store(key ^ data, Ordering::Relaxed);
    e.data.store(data, Ordering::Relaxed);
}

#[inline(always)]
fn gen_of(data: u64) -> u8 {
    (data >> 48) as u8
}

#[inline(always)]
fn pack(mv: Move, score: i32, depth: i32, bound: Bound, gen: u8, pv: bool) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = depth.clamp(0, 255) as u64;
    (mv.0 as u64 & MOVE_BITS)
        | score << 22
        | depth << 38
        | (bound as u64) << 46
        | (gen as u64) << 48
        | u64::from(pv) << 56
}

#[inline(always)]
fn unpack(data: u64) -> TtHit {
    let bound = match data >> 46 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    TtHit {
        mv: Move((data & MOVE_BITS) as u32),
        score: (data >> 22) as u16 as i16 as i32,
        depth: (data >> 38 & 0xff) as i32,
        bound,
        pv: data >> 56 & 1 == 1,
    }
}

/// A score as stored: mate scores measured from this node, not the root.
#[inline(always)]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score brought back to a root-relative score at `ply`.
#[inline(always)]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Ask the CPU to start loading the cache line of `r` (a hint only).
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = r as *const T as *const i8;
        // SAFETY: prefetching is a hint and never faults; `p` points to a
        // live value.
        unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Special;
    use crate::piece::Kind;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        let m = Move::new(12, 28, Some(Kind::Queen), Special::Normal);
        tt.store(0xdead_beef, m, -1234, 7, Bound::Lower, true);
        let hit = tt.probe(0xdead_beef).unwrap();
        assert_eq!(hit, TtHit { mv: m, score: -1234, depth: 7, bound: Bound::Lower, pv: true });
        assert!(tt.probe(0xdead_beee).is_none());
        assert!(tt.hashfull() <= 1000);
    }

    #[test]
    fn kept_memory_is_cleared_for_reuse() {
        let b = Buckets::zeroed(8).unwrap();
        b[3].0[1].data.store(42, Ordering::Relaxed);
        let ptr = b.ptr;
        let b = Buckets::reuse(Some(b), 8).unwrap();
        assert_eq!(b.ptr, ptr, "same size: the memory is reused");
        assert!(b.iter().all(|x| x.0.iter().all(|e| e.data.load(Ordering::Relaxed) == 0)));
        let c = Buckets::reuse(Some(b), 9).unwrap();
        assert_eq!(c.len(), 9);
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(0x1234_5678, Move::new(1, 2, None, Special::Normal), 50, 3, Bound::Exact, false);
        let mut tt = tt;
        tt.clear();
        assert!(tt.probe(0x1234_5678).is_none());
        // Sizes out of range and memory that cannot be had are errors.
        for mb in [0, MAX_HASH_MB + 1, usize::MAX] {
            assert!(TranspositionTable::new(mb).is_err(), "{mb}");
        }
        assert!(Buckets::zeroed(usize::MAX / 2).is_none());
    }

    #[test]
    fn mate_scores_are_node_relative() {
        let s = crate::types::MATE - 5;
        assert_eq!(score_from_tt(score_to_tt(s, 3), 3), s);
        assert_eq!(score_from_tt(score_to_tt(-s, 3), 3), -s);
        assert_eq!(score_to_tt(17, 9), 17);
    }
}
