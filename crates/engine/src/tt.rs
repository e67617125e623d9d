//! The transposition table: one entry per slot, replaced when the new search is deeper or the
//! slot holds another position. Lock-free, so that the threads of one search share it: a slot
//! is two atomic words, the packed entry and the entry xor the key; a slot torn by two writers
//! no longer matches its key and reads as empty.

use std::sync::atomic::{AtomicU64, Ordering};

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
    /// Search depth of the score.
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

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.mv as u64 & ((1 << MOVE_BITS) - 1))
            | ((self.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 24)
            | ((self.depth.clamp(0, 255) as u64) << 40)
            | (bound << 48)
            | USED
    }

    fn unpack(v: u64) -> Entry {
        Entry {
            mv: (v & ((1 << MOVE_BITS) - 1)) as u32,
            score: ((v >> 24) as u16 as i16) as i32,
            depth: ((v >> 40) & 0xff) as i16,
            bound: match (v >> 48) & 3 {
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

/// A fixed-size table, shared by reference between the threads of a search.
#[derive(Debug)]
pub struct Table {
    slots: Box<[Slot]>,
}

impl Table {
    /// About `mb` megabytes.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<Slot>();
        Table { slots: (0..n.next_power_of_two() / 2).map(|_| Slot::default()).collect() }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.data.store(0, Ordering::Relaxed);
            s.check.store(0, Ordering::Relaxed);
        }
    }

    fn slot(&self, key: u64) -> Option<&Slot> {
        self.slots.get((key as usize) & (self.slots.len() - 1))
    }

    /// The entry stored in a slot for `key`.
    fn read(slot: &Slot, key: u64) -> Option<Entry> {
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(data))
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slot(key).and_then(|s| Table::read(s, key))
    }

    /// Stores an entry.
    pub fn store(&self, key: u64, depth: i32, score: i32, bound: Bound, mv: u32, _age: u8) {
        let Some(slot) = self.slot(key) else { return };
        let replace = match Table::read(slot, key) {
            Some(e) => depth as i16 >= e.depth || bound == Bound::Exact,
            None => true,
        };
        if replace {
            let data = Entry { depth: depth as i16, score, bound, mv }.pack();
            slot.data.store(data, Ordering::Relaxed);
            slot.check.store(data ^ key, Ordering::Relaxed);
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
            t.store(key, 17 + i as i32, score, bound, mv, 0);
            assert_eq!(t.probe(key), Some(Entry { depth: 17 + i as i16, score, bound, mv }));
            assert_eq!(t.probe(key ^ 1 << 50), None, "same slot, other position");
        }
        // A shallower result for the same position does not replace a deeper bound.
        let key = 99;
        t.store(key, 9, 50, Bound::Lower, 1, 0);
        t.store(key, 3, 70, Bound::Lower, 2, 0);
        assert_eq!(t.probe(key).map(|e| e.score), Some(50));
        t.clear();
        assert_eq!(t.probe(key), None);
    }
}
