//! A search thread's cache of static evaluations by position key: the
//! quiescence search evaluates every node before it looks at the table,
//! and iterative deepening and transpositions visit the same positions
//! again, so many evaluations are found here instead of computed.

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
}

impl EvalCache {
    /// An empty cache.
    pub(crate) fn new() -> EvalCache {
        EvalCache { slots: vec![0; SLOTS] }
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
        let mut c = EvalCache::new();
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
}
