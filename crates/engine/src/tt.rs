//! The transposition table: one entry per slot, replaced when the new search is deeper or the
//! slot holds another position.

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
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    /// Search depth of the score.
    pub depth: i16,
    /// Score (win scores relative to the node).
    pub score: i32,
    /// Bound kind.
    pub bound: Bound,
    /// The best move's key.
    pub mv: u32,
}

/// A fixed-size table.
#[derive(Debug)]
pub struct Table {
    slots: Vec<Option<Entry>>,
}

impl Table {
    /// About `mb` megabytes.
    pub fn new(mb: usize) -> Table {
        let n = (mb.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        Table { slots: vec![None; n.next_power_of_two() / 2] }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots.get(self.index(key)).copied().flatten().filter(|e| e.key == key)
    }

    /// Stores an entry.
    pub fn store(&mut self, key: u64, depth: i32, score: i32, bound: Bound, mv: u32, _age: u8) {
        let i = self.index(key);
        if let Some(slot) = self.slots.get_mut(i) {
            let replace = match slot {
                Some(e) => e.key != key || depth as i16 >= e.depth || bound == Bound::Exact,
                None => true,
            };
            if replace {
                *slot = Some(Entry { key, depth: depth as i16, score, bound, mv });
            }
        }
    }
}
