//! The transposition table: a fixed-size, lock-free hash table of search results
//! shared by all search threads (`&TranspositionTable` is `Sync`).
//!
//! Layout: 64-byte buckets of two entries; an entry is three `AtomicU64`:
//! `check = key ^ a ^ b`, `a = move code | score`, `b = depth | bound | age`.
//!
//! Why the racy updates are safe: threads read and write the three words with
//! independent relaxed atomic operations, so a reader may see words from two
//! different writes (a "torn" entry). Such a mixture fails `check ^ a ^ b == key`
//! except with probability ~2^-64, and is then treated as a miss. In the
//! astronomically rare false positive, the damage is bounded: the move code is
//! only used if it matches a move generated in the current position (see
//! [`crate::search::Evaluate::move_to_u32`]), and a wrong score is only a wrong
//! bound, i.e. a search imprecision, never memory unsafety or an illegal move.
//!
//! Replacement: an entry for the same key is refreshed unless the stored one is
//! clearly deeper and of the current search; otherwise the bucket's least
//! valuable entry (empty first, else lowest `depth - AGE_WEIGHT * age`) goes.
//!
//! Decisive scores are stored relative to the node (distance to the end from
//! here) and converted back relative to the root on load, so a win found through
//! a transposition keeps its correct distance.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use crate::search::eval::WIN_BOUND;

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most `score` (fail-low).
    Upper = 1,
    /// The true value is at least `score` (fail-high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Option<Bound> {
        match bits & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The packed best (or refuting) move, if one was stored.
    pub mv: Option<u32>,
    /// Score relative to the root (already ply-adjusted).
    pub score: i32,
    /// Remaining depth the score was computed with.
    pub depth: i32,
    pub bound: Bound,
}

/// Age outweighs depth by this factor when choosing a victim.
const AGE_WEIGHT: i32 = 8;
const ENTRIES_PER_BUCKET: usize = 2;
/// Largest table accepted (1 TiB); larger requests are clamped.
pub const MAX_MB: usize = 1 << 20;

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    a: AtomicU64,
    b: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

/// Unpacked entry contents.
#[derive(Clone, Copy)]
struct Data {
    mv: Option<u32>,
    score: i32,
    depth: i32,
    bound: Option<Bound>,
    age: u8,
}

impl Data {
    fn pack(self) -> (u64, u64) {
        let a = self.mv.unwrap_or(0) as u64 | ((self.score as u32 as u64) << 32);
        let bound = self.bound.map_or(0, |b| b as u64);
        let b = (self.depth as i8 as u8 as u64)
            | (bound << 8)
            | ((self.mv.is_some() as u64) << 10)
            | ((self.age as u64) << 16);
        (a, b)
    }

    fn unpack(a: u64, b: u64) -> Data {
        let has_move = (b >> 10) & 1 == 1;
        Data {
            mv: has_move.then_some(a as u32),
            score: (a >> 32) as u32 as i32,
            depth: (b as u8 as i8) as i32,
            bound: Bound::from_bits(b >> 8),
            age: (b >> 16) as u8,
        }
    }
}

impl Entry {
    /// The entry's data if it holds `key` (and is not torn or empty).
    fn read(&self, key: u64) -> Option<Data> {
        let check = self.check.load(Ordering::Relaxed);
        let a = self.a.load(Ordering::Relaxed);
        let b = self.b.load(Ordering::Relaxed);
        if check ^ a ^ b != key {
            return None;
        }
        let data = Data::unpack(a, b);
        data.bound.map(|_| data)
    }

    /// Raw view for victim selection (the key is not verified).
    fn read_raw(&self) -> Data {
        Data::unpack(
            self.a.load(Ordering::Relaxed),
            self.b.load(Ordering::Relaxed),
        )
    }

    fn write(&self, key: u64, data: Data) {
        let (a, b) = data.pack();
        self.a.store(a, Ordering::Relaxed);
        self.b.store(b, Ordering::Relaxed);
        self.check.store(key ^ a ^ b, Ordering::Relaxed);
    }
}

/// Converts a root-relative score to a node-relative one for storage.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored node-relative score back to root-relative at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A fixed-size, thread-shared transposition table.
pub struct TranspositionTable {
    buckets: Box<[Bucket]>,
    generation: AtomicU8,
    /// Set by the first store after a clear: until then every entry is still
    /// zero and [`TranspositionTable::clear`] has nothing to do.
    used: AtomicBool,
}

/// `count` zeroed buckets, or `None` if the memory cannot be had. One zeroing
/// pass by the allocator (a `memset`, or pages the OS hands out zeroed): no
/// per-entry construction, so even a table of gigabytes is ready in one pass.
fn zeroed_buckets(count: usize) -> Option<Box<[Bucket]>> {
    let layout = std::alloc::Layout::array::<Bucket>(count).ok()?;
    if layout.size() == 0 {
        return None;
    }
    // SAFETY: the layout is non-zero-sized (checked above). A `Bucket` is
    // three `AtomicU64` per entry and padding, so all-zero bytes are a valid
    // (empty) bucket; the pointer comes from the global allocator with exactly
    // the layout of `[Bucket; count]`, which is what `Box<[Bucket]>` frees with.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout).cast::<Bucket>();
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
            ptr, count,
        )))
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). If the memory
    /// cannot be had, the size is halved until it can: a too-large request from
    /// the user gives a smaller table, never an abort.
    pub fn new(mb: usize) -> Self {
        let bytes = mb.min(MAX_MB).saturating_mul(1024 * 1024);
        let mut count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = loop {
            match zeroed_buckets(count) {
                Some(b) => break b,
                None if count > 1 => count /= 2,
                None => break vec![Bucket::default()].into_boxed_slice(),
            }
        };
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
            used: AtomicBool::new(false),
        }
    }

    /// Reallocates to about `mb` megabytes; the contents are lost.
    pub fn resize(&mut self, mb: usize) {
        *self = TranspositionTable::new(mb);
    }

    /// Size in megabytes as allocated (rounded down).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table. Free when nothing was stored since the last clear (a
    /// new game right after a new table), else one pass over the memory.
    pub fn clear(&mut self) {
        if *self.used.get_mut() {
            for bucket in self.buckets.iter_mut() {
                for e in &mut bucket.entries {
                    *e.check.get_mut() = 0;
                    *e.a.get_mut() = 0;
                    *e.b.get_mut() = 0;
                }
            }
            *self.used.get_mut() = false;
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-high maps the key uniformly onto 0..len without a modulo.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Looks `key` up; `ply` is the node's distance from the root.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        self.bucket(key).entries.iter().find_map(|e| {
            let d = e.read(key)?;
            Some(TtHit {
                mv: d.mv,
                score: score_from_tt(d.score, ply),
                depth: d.depth,
                bound: d.bound?,
            })
        })
    }

    /// Stores a result. `depth` may be negative (quiescence) down to -128.
    pub fn store(
        &self,
        key: u64,
        mv: Option<u32>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        // A read of a flag that stays in every core's cache; written once.
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let mut data = Data {
            mv,
            score: score_to_tt(score, ply),
            depth: depth.clamp(-128, 127),
            bound: Some(bound),
            age: generation,
        };
        let bucket = self.bucket(key);

        if let Some(entry) = bucket.entries.iter().find(|e| e.read(key).is_some()) {
            if let Some(old) = entry.read(key) {
                let deeper_and_current =
                    old.age == generation && old.depth > data.depth + 2 && bound != Bound::Exact;
                if deeper_and_current {
                    return;
                }
                if data.mv.is_none() {
                    data.mv = old.mv;
                }
            }
            entry.write(key, data);
            return;
        }

        let value = |e: &Entry| {
            let d = e.read_raw();
            if d.bound.is_none() {
                return i32::MIN;
            }
            let age = generation.wrapping_sub(d.age) as i32;
            d.depth - AGE_WEIGHT * age
        };
        let victim = bucket
            .entries
            .iter()
            .min_by_key(|e| value(e))
            .unwrap_or(&bucket.entries[0]);
        victim.write(key, data);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> usize {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(500);
        let mut used = 0usize;
        let mut total = 0;
        for bucket in &self.buckets[..sample] {
            for e in &bucket.entries {
                let d = e.read_raw();
                total += 1;
                if d.bound.is_some() && d.age == generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(total).unwrap_or(0)
    }

    #[cfg(test)]
    fn bucket_count(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::WIN;

    /// Keys that land in the same bucket of `tt`.
    fn same_bucket_keys(tt: &TranspositionTable, n: usize) -> Vec<u64> {
        let target = tt.bucket(1) as *const Bucket;
        let mut rng = crate::core::SplitMix64::new(7);
        let mut keys = Vec::new();
        while keys.len() < n {
            let k = rng.next();
            if std::ptr::eq(tt.bucket(k), target) {
                keys.push(k);
            }
        }
        keys
    }

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0), None);
        tt.store(key, Some(0xdead_beef), -1234, 7, Bound::Lower, 3);
        let hit = tt.probe(key, 3).expect("stored entry must be found");
        assert_eq!(
            hit,
            TtHit {
                mv: Some(0xdead_beef),
                score: -1234,
                depth: 7,
                bound: Bound::Lower
            }
        );
        tt.store(key ^ 1, None, 55, -2, Bound::Upper, 0);
        let hit = tt.probe(key ^ 1, 0).expect("second entry");
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (None, 55, -2, Bound::Upper)
        );
        // A different key is a miss, not someone else's entry.
        assert_eq!(tt.probe(key ^ 2, 0), None);
    }

    #[test]
    fn empty_table_and_zero_key_miss() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.probe(0, 0), None);
    }

    #[test]
    fn decisive_scores_are_ply_adjusted() {
        let tt = TranspositionTable::new(1);
        // Found at ply 5: a win 3 plies later, i.e. WIN - 8 from the root.
        tt.store(42, None, WIN - 8, 4, Bound::Exact, 5);
        // Reached again at ply 2 through a transposition: still 3 plies to go.
        assert_eq!(tt.probe(42, 2).map(|h| h.score), Some(WIN - 5));
        tt.store(43, None, -(WIN - 8), 4, Bound::Exact, 5);
        assert_eq!(tt.probe(43, 7).map(|h| h.score), Some(-(WIN - 10)));
        // Ordinary scores are untouched.
        tt.store(44, None, 900, 4, Bound::Exact, 5);
        assert_eq!(tt.probe(44, 1).map(|h| h.score), Some(900));
        assert_eq!(score_from_tt(score_to_tt(WIN - 3, 9), 9), WIN - 3);
    }

    #[test]
    fn same_key_keeps_deeper_entry_of_current_search() {
        let tt = TranspositionTable::new(1);
        tt.store(9, Some(1), 10, 10, Bound::Lower, 0);
        tt.store(9, None, 20, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(9, 0).map(|h| (h.score, h.depth)), Some((10, 10)));
        // An exact result always refreshes, and keeps the known move.
        tt.store(9, None, 30, 2, Bound::Exact, 0);
        let hit = tt.probe(9, 0).expect("entry");
        assert_eq!((hit.score, hit.depth, hit.mv), (30, 2, Some(1)));
        // After a new search, shallower results replace old deep ones.
        tt.store(9, None, 40, 12, Bound::Lower, 0);
        tt.new_search();
        tt.store(9, Some(2), 50, 1, Bound::Upper, 0);
        assert_eq!(tt.probe(9, 0).map(|h| (h.score, h.mv)), Some((50, Some(2))));
    }

    #[test]
    fn victim_is_shallowest_or_oldest() {
        let tt = TranspositionTable::new(1);
        assert!(tt.bucket_count() > 1);
        let k = same_bucket_keys(&tt, 4);
        tt.store(k[0], None, 1, 9, Bound::Exact, 0);
        tt.store(k[1], None, 2, 3, Bound::Exact, 0);
        // Bucket full: the shallow k[1] goes, the deep k[0] stays.
        tt.store(k[2], None, 3, 5, Bound::Exact, 0);
        assert!(tt.probe(k[0], 0).is_some());
        assert!(tt.probe(k[1], 0).is_none());
        assert!(tt.probe(k[2], 0).is_some());
        // Two searches later, old entries lose to new shallow ones.
        tt.new_search();
        tt.new_search();
        tt.store(k[3], None, 4, 1, Bound::Exact, 0); // evicts k[2]: old and shallower
        assert!(tt.probe(k[2], 0).is_none());
        tt.store(k[1], None, 2, 1, Bound::Exact, 0); // evicts k[0]: deep but old
        assert!(tt.probe(k[0], 0).is_none());
        assert!(tt.probe(k[1], 0).is_some());
        assert!(tt.probe(k[3], 0).is_some());
    }

    #[test]
    fn sizes() {
        assert_eq!(TranspositionTable::new(2).size_mb(), 2);
        assert_eq!(TranspositionTable::new(0).bucket_count(), 1);
        let mut tt = TranspositionTable::new(1);
        tt.resize(3);
        assert_eq!(tt.size_mb(), 3);
    }

    #[test]
    fn clear_empties() {
        let mut tt = TranspositionTable::new(1);
        tt.store(5, None, 1, 1, Bound::Exact, 0);
        tt.clear();
        assert_eq!(tt.probe(5, 0), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn shared_between_threads() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..10_000u64 {
                        let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ t;
                        tt.store(key, Some(i as u32), i as i32, 1, Bound::Exact, 0);
                        if let Some(hit) = tt.probe(key, 0) {
                            // Whatever survived is internally consistent.
                            assert_eq!(hit.mv, Some(hit.score as u32));
                        }
                    }
                });
            }
        });
    }
}
