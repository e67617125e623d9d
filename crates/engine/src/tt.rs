//! The transposition table: buckets of two slots, side by side in memory (one cache miss a
//! probe). The first slot keeps the deepest result of the current search, the second takes
//! whatever the first does not (always replaced), so deep results survive a flood of shallow
//! ones while the newest still find a place. Entries left by an earlier search (the table is
//! kept from move to move) give way in the first slot too. Lock-free, so that the threads of
//! one search share it: a slot is two atomic words, the packed entry and the entry xor the
//! key; a slot torn by two writers no longer matches its key and reads as empty.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a cut-off).
    Lower,
    /// At most this score.
    Upper,
}

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Search depth of the score (the search counts it in quarter plies).
    pub depth: i16,
    /// Score (win scores relative to the node).
    pub score: i32,
    /// Bound kind.
    pub bound: Bound,
    /// The best move's key (its low 24 bits).
    pub mv: u32,
}

/// Bits of a move key kept (draughts keys use 23, Ugolki keys 17).
const MOVE_BITS: u32 = 24;
/// Set in every stored entry, so that no entry packs to zero (an empty slot).
const USED: u64 = 1 << 63;
/// Where an entry keeps the search it was stored in (8 bits).
const GENERATION_SHIFT: u32 = 52;
/// The deepest depth an entry holds: ten bits, so that the search's quarter plies reach its
/// deepest iteration (a deeper result is kept as this deep, which only costs cut-offs).
const MAX_DEPTH: i16 = (1 << 10) - 1;

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.mv as u64 & ((1 << MOVE_BITS) - 1))
            | ((self.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 24)
            | ((self.depth.clamp(0, MAX_DEPTH) as u64) << 40)
            | (bound << 50)
            | ((generation as u64) << GENERATION_SHIFT)
            | USED
    }

    fn generation(v: u64) -> u8 {
        (v >> GENERATION_SHIFT) as u8
    }

    fn unpack(v: u64) -> Entry {
        Entry {
            mv: (v & ((1 << MOVE_BITS) - 1)) as u32,
            score: ((v >> 24) as u16 as i16) as i32,
            depth: ((v >> 40) as i16) & MAX_DEPTH,
            bound: match (v >> 50) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// One slot: the packed entry, and the entry xor the position's key.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Two slots, aligned so that a bucket never straddles two cache lines.
#[derive(Debug, Default)]
#[repr(C, align(32))]
struct Bucket([Slot; 2]);

/// A fixed-size table, shared by reference between the threads of a search.
#[derive(Debug)]
pub struct Table {
    buckets: Box<[Bucket]>,
    /// The current search's number (wrapping), stored with each entry.
    generation: AtomicU8,
}

impl Table {
    /// About `mb` megabytes.
    pub fn new(mb: usize) -> Table {
        let n = ((mb.max(1) << 20) / std::mem::size_of::<Bucket>()).next_power_of_two() / 2;
        Table { buckets: (0..n).map(|_| Bucket::default()).collect(), generation: 0.into() }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in self.buckets.iter().flat_map(|b| &b.0) {
            s.data.store(0, Ordering::Relaxed);
            s.check.store(0, Ordering::Relaxed);
        }
    }

    /// A new search starts: what earlier ones stored gives way to it.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> Option<&[Slot; 2]> {
        self.buckets.get((key as usize) & (self.buckets.len() - 1)).map(|b| &b.0)
    }

    /// The packed entry stored in a slot for `key`.
    fn read(slot: &Slot, key: u64) -> Option<u64> {
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then_some(data)
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = self.bucket(key)?;
        bucket.iter().find_map(|s| Table::read(s, key)).map(Entry::unpack)
    }

    /// Stores an entry.
    pub fn store(&self, key: u64, depth: i32, score: i32, bound: Bound, mv: u32) {
        let Some([deep, newest]) = self.bucket(key) else { return };
        let generation = self.generation.load(Ordering::Relaxed);
        let data = Entry { depth: depth as i16, score, bound, mv }.pack(generation);
        let write = |slot: &Slot| {
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(data ^ key, Ordering::Relaxed);
        };
        if let Some(old) = Table::read(deep, key) {
            // The same position: a shallower bound does not replace a deeper result.
            if depth as i16 >= Entry::unpack(old).depth || bound == Bound::Exact {
                write(deep);
            }
            return;
        }
        let held = deep.data.load(Ordering::Relaxed);
        let stale = held == 0 || Entry::generation(held) != generation;
        if stale || depth as i16 >= Entry::unpack(held).depth {
            write(deep);
        } else {
            write(newest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let t = Table::new(1);
        for (i, (score, bound)) in
            [(-30_000, Bound::Upper), (0, Bound::Exact), (29_990, Bound::Lower)]
                .into_iter()
                .enumerate()
        {
            let key = 0x1234_5678_9abc_def0 ^ (i as u64) << 40;
            let mv = 0x7f_3f20 - i as u32;
            // Depths up to the deepest iteration's 480 quarter plies and beyond.
            let depth = 17 + 400 * i as i16;
            t.store(key, depth as i32, score, bound, mv);
            assert_eq!(t.probe(key), Some(Entry { depth, score, bound, mv }));
            assert_eq!(t.probe(key ^ 1 << 50), None, "same slot, other position");
        }
        // A shallower result for the same position does not replace a deeper bound.
        let key = 99;
        t.store(key, 9, 50, Bound::Lower, 1);
        t.store(key, 3, 70, Bound::Lower, 2);
        assert_eq!(t.probe(key).map(|e| e.score), Some(50));
        t.clear();
        assert_eq!(t.probe(key), None);
    }

    #[test]
    fn a_deep_result_survives_shallow_ones_of_the_same_search_but_not_the_next() {
        let t = Table::new(1);
        let buckets = t.buckets.len() as u64;
        // Keys of one bucket: the same low bits.
        let key = |i: u64| 3 + i * buckets;
        t.store(key(0), 12, 40, Bound::Exact, 7);
        for i in 1..50 {
            t.store(key(i), 2, 0, Bound::Lower, 1);
            assert_eq!(t.probe(key(i)).map(|e| e.depth), Some(2), "the newest is kept");
        }
        assert_eq!(t.probe(key(0)).map(|e| e.depth), Some(12), "the deep one too");
        t.new_search();
        t.store(key(50), 2, 0, Bound::Lower, 1);
        t.store(key(51), 1, 0, Bound::Lower, 1);
        assert_eq!(t.probe(key(0)), None, "an earlier search's entry gives way");
        assert!(t.probe(key(50)).is_some() && t.probe(key(51)).is_some());
    }
}
