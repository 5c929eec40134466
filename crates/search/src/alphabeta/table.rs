//! The transposition table: what earlier searches found about a position, by its hash.

use crate::score;

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<A> {
    pub(crate) key: u64,
    /// In "distance from this position" form for wins and losses (see [`Table::store`]).
    value: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    pub(crate) best: Option<A>,
}

impl<A> Entry<A> {
    /// The stored value, as seen from a node `ply` plies below the root.
    pub(crate) fn value(&self, ply: u32) -> i32 {
        if self.value > score::MAX_EVAL {
            self.value - ply as i32
        } else if self.value < -score::MAX_EVAL {
            self.value + ply as i32
        } else {
            self.value
        }
    }
}

/// A fixed-size table of `2^k` entries, indexed by the top bits of `hash * odd constant`.
///
/// Replacement: a new result replaces the entry in its slot when the slot holds another
/// position, or the same position searched no deeper. (Deeper results of the same position are
/// kept: they took longer and say more.)
#[derive(Clone, Debug)]
pub(crate) struct Table<A> {
    entries: Vec<Option<Entry<A>>>,
    shift: u32,
}

impl<A: Copy> Table<A> {
    /// A table of at most `bytes` bytes (at least one entry).
    pub(crate) fn with_bytes(bytes: usize) -> Self {
        let fit = (bytes / size_of::<Option<Entry<A>>>()).max(1);
        let len = if fit.is_power_of_two() {
            fit
        } else {
            fit.next_power_of_two() / 2
        };
        Table {
            entries: vec![None; len],
            shift: 64 - len.trailing_zeros(),
        }
    }

    pub(crate) fn clear(&mut self) {
        self.entries.fill(None);
    }

    fn slot(&self, key: u64) -> usize {
        if self.shift == 64 {
            0
        } else {
            (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
        }
    }

    pub(crate) fn probe(&self, key: u64) -> Option<&Entry<A>> {
        self.entries[self.slot(key)]
            .as_ref()
            .filter(|e| e.key == key)
    }

    /// Stores `value` found `ply` plies below the root at `depth`; wins and losses are turned
    /// into their distance from this position, so that they read right from any ply.
    pub(crate) fn store(
        &mut self,
        key: u64,
        value: i32,
        ply: u32,
        depth: u32,
        bound: Bound,
        best: Option<A>,
    ) {
        let slot = self.slot(key);
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        if let Some(old) = &self.entries[slot]
            && old.key == key
            && old.depth > depth
        {
            return;
        }
        let value = if value > score::MAX_EVAL {
            value + ply as i32
        } else if value < -score::MAX_EVAL {
            value - ply as i32
        } else {
            value
        };
        self.entries[slot] = Some(Entry {
            key,
            value,
            depth,
            bound,
            best,
        });
    }
}
