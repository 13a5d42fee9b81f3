//! A search thread's cache of static evaluations by position key: the
//! quiescence search evaluates every node before it looks at the table,
//! and iterative deepening and transpositions visit the same positions
//! again, so many evaluations are found here instead of computed. The
//! engine keeps its main thread's cache from one search to the next (the
//! next move's tree overlaps the last one's), for as long as the
//! evaluation stays the same.

/// Slots of an [`EvalCache`] (a power of two: 512 KiB, about a core's
/// second-level cache).
const SLOTS: usize = 1 << 16;
/// The low bits of a slot hold the evaluation; the rest of the key checks it.
const EVAL_BITS: u32 = 16;
const EVAL_MASK: u64 = (1 << EVAL_BITS) - 1;

/// Direct-mapped evaluations by position key (the key's high 48 bits check
/// a slot, its low bits choose it). An evaluation must fit in 16 signed
/// bits, as [`crate::search::eval::EVAL_LIMIT`] makes every one.
pub(crate) struct EvalCache {
    slots: Vec<u64>,
    /// The evaluation whose results the slots hold ([`EvalCache::reused`]).
    owner: u64,
}

impl EvalCache {
    /// An empty cache for the evaluation `owner`.
    pub(crate) fn new(owner: u64) -> EvalCache {
        EvalCache { slots: vec![0; SLOTS], owner }
    }

    /// The cache `saved` by the last search when it holds the results of
    /// the same evaluation `owner` (a key's evaluation never changes under
    /// it), else an empty one.
    pub(crate) fn reused(saved: Option<EvalCache>, owner: u64) -> EvalCache {
        match saved {
            Some(c) if c.owner == owner => c,
            _ => EvalCache::new(owner),
        }
    }

    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key as usize) & (SLOTS - 1)
    }

    /// The evaluation stored for `key`, if any.
    #[inline(always)]
    pub(crate) fn get(&self, key: u64) -> Option<i32> {
        let data = self.slots[Self::slot(key)];
        (data != 0 && (data ^ key) & !EVAL_MASK == 0).then_some(data as u16 as i16 as i32)
    }

    /// Ask the CPU to start loading the slot of `key` (a hint only).
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::search::tt::prefetch(&self.slots[Self::slot(key)]);
    }

    /// Remember `eval` (within 16 signed bits) for `key`.
    #[inline(always)]
    pub(crate) fn put(&mut self, key: u64, eval: i32) {
        debug_assert!(i16::try_from(eval).is_ok());
        self.slots[Self::slot(key)] = (key & !EVAL_MASK) | u64::from(eval as i16 as u16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_evaluation_comes_back_only_for_its_own_key() {
        let mut c = EvalCache::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.get(key), None);
        c.put(key, -1234);
        assert_eq!(c.get(key), Some(-1234));
        // Same slot, other check bits.
        assert_eq!(c.get(key ^ (1 << 40)), None);
        c.put(key, 20_000);
        assert_eq!(c.get(key), Some(20_000));
        c.put(key ^ (1 << 40), 7);
        assert_eq!(c.get(key), None);
    }

    #[test]
    fn a_saved_cache_is_kept_only_for_its_own_evaluation() {
        let mut c = EvalCache::new(1);
        c.put(42 << 16, 5);
        let c = EvalCache::reused(Some(c), 1);
        assert_eq!(c.get(42 << 16), Some(5));
        let c = EvalCache::reused(Some(c), 2);
        assert_eq!(c.get(42 << 16), None);
        assert_eq!(EvalCache::reused(None, 2).get(42 << 16), None);
    }
}
