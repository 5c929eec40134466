//! Captured regions found by local search: a small set of empty cells whose final colouring a
//! player can dictate by answering the opponent's stones inside it, so that the fill-in may
//! colour it in advance.
//!
//! A colouring `T` of a region `R` (each cell Black's or White's) may be filled in when each
//! player, answering inside `R` every stone the other plays there, can make `R` end at least
//! as good for it as `T`. Then neither gains by playing in `R` first, and the position with `R`
//! coloured `T` has the position's winner. When `T` gives every cell to one player (a
//! *captured* region) only that player's side needs checking: the opponent's stones in `R`
//! never leave it worse off than `T`.
//!
//! "At least as good for player `X`" is read from the region's outside. Its *nodes* for `X` are
//! the empty cells next to it and `X`'s groups next to it (stones joined with the edges they
//! touch). For each of `X`'s chains in `T`, every two nodes around the chain must be joined in
//! the final colouring `L` as well: both next to one class of `L`'s chains of `X` (chains
//! joined through a group of `X`'s, which is `X`'s whatever happens), unless the two are next
//! to each other already. Then every connection of `X`'s through `T` passes through `L` (or
//! around it).

use super::geometry::{BLACK_EDGE, MAX_CELLS, NOWHERE, WHITE_EDGE, rings};
use crate::bits::Bits;

/// The largest region searched.
const MAX_REGION: usize = 6;
/// The largest region whose colourings with both players' cells are tried.
const MAX_MIXED: usize = 4;
/// A region is searched only if at most this many empty cells outside it touch it.
const MAX_OPEN_BORDER: usize = 2;
/// The most nodes a region may have for one player (bits of a `u32`).
const MAX_NODES: usize = 32;
/// The four edges' entries in [`Groups`]: Black's top and bottom, White's left and right.
const EDGES: usize = MAX_CELLS;

/// Each player's groups: stones joined with their neighbours of the same colour and with the
/// edges they touch, by union-find over the cells and the four edges.
struct Groups {
    parent: [u16; MAX_CELLS + 4],
}

impl Groups {
    fn new(n: u8, colour: &[u8]) -> Self {
        let mut groups = Groups {
            parent: std::array::from_fn(|i| i as u16),
        };
        let rings = rings(n);
        for i in 0..usize::from(n) * usize::from(n) {
            if colour[i] != 0 {
                for &entry in &rings[i] {
                    if let Some(j) = member(n, i, entry, colour[i], colour) {
                        groups.union(i, j);
                    }
                }
            }
        }
        groups
    }

    fn find(&mut self, mut i: usize) -> usize {
        while usize::from(self.parent[i]) != i {
            let up = usize::from(self.parent[i]);
            self.parent[i] = self.parent[up];
            i = up;
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[a.max(b)] = a.min(b) as u16;
        }
    }

    /// What ring entry `entry` of cell `i` is for the player of colour `mine` (1 Black, 2
    /// White): its cell when empty, its group (`MAX_CELLS` plus the root) when the player's.
    fn node(&mut self, n: u8, i: usize, entry: u16, mine: u8, colour: &[u8]) -> Option<u16> {
        if usize::from(entry) < MAX_CELLS && colour[usize::from(entry)] == 0 {
            return Some(entry);
        }
        let member = member(n, i, entry, mine, colour)?;
        Some((MAX_CELLS + self.find(member)) as u16)
    }
}

/// The index in [`Groups`] of ring entry `entry` of cell `i` (a stone, or an edge), if it is
/// the player's of colour `mine`.
fn member(n: u8, i: usize, entry: u16, mine: u8, colour: &[u8]) -> Option<usize> {
    let (x, y) = (i % usize::from(n), i / usize::from(n));
    match entry {
        NOWHERE => None,
        BLACK_EDGE => (mine == 1).then_some(EDGES + usize::from(y != 0)),
        WHITE_EDGE => (mine == 2).then_some(EDGES + 2 + usize::from(x != 0)),
        j => (colour[usize::from(j)] == mine).then_some(usize::from(j)),
    }
}

/// One region, with its nodes for each player numbered locally (bit `k` of a `u32`).
struct Region {
    len: usize,
    /// Each cell's neighbours in the region, as a mask of region indices.
    inner: [u8; MAX_REGION],
    /// For each player (0 Black, 1 White), each cell's nodes.
    around: [[u32; MAX_REGION]; 2],
    /// For each player, its nodes that are groups.
    groups: [u32; 2],
    /// For each player and node: the nodes joined with it outside the region (itself, and
    /// its neighbours).
    joined: [[u32; MAX_NODES]; 2],
}

impl Region {
    /// The region of cells `cells` on the board of side `n` with colours `colour`, unless a
    /// player has more than [`MAX_NODES`] nodes around it.
    fn new(n: u8, colour: &[u8], cells: &[u16], groups: &mut Groups) -> Option<Self> {
        let rings = rings(n);
        let mut region = Region {
            len: cells.len(),
            inner: [0; MAX_REGION],
            around: [[0; MAX_REGION]; 2],
            groups: [0; 2],
            joined: [[0; MAX_NODES]; 2],
        };
        for player in 0..2 {
            let mine = 1 + player as u8;
            let mut ids = [0u16; MAX_NODES];
            let mut count = 0;
            let mut local = |id: u16, ids: &mut [u16; MAX_NODES]| -> Option<usize> {
                if let Some(k) = ids[..count].iter().position(|&x| x == id) {
                    return Some(k);
                }
                (count < MAX_NODES).then(|| {
                    ids[count] = id;
                    count += 1;
                    count - 1
                })
            };
            for (r, &cell) in cells.iter().enumerate() {
                let i = usize::from(cell);
                for &entry in &rings[i] {
                    if let Some(q) = cells.iter().position(|&c| c == entry) {
                        region.inner[r] |= 1 << q;
                    } else if let Some(id) = groups.node(n, i, entry, mine, colour) {
                        let k = local(id, &mut ids)?;
                        region.around[player][r] |= 1 << k;
                    }
                }
            }
            let nodes = count;
            for a in 0..nodes {
                region.joined[player][a] |= 1 << a;
                let id = usize::from(ids[a]);
                if id >= MAX_CELLS {
                    region.groups[player] |= 1 << a;
                    continue;
                }
                for &entry in &rings[id] {
                    let Some(other) = groups.node(n, id, entry, mine, colour) else {
                        continue;
                    };
                    if let Some(b) = ids[..nodes].iter().position(|&x| x == other) {
                        region.joined[player][a] |= 1 << b;
                        region.joined[player][b] |= 1 << a;
                    }
                }
            }
        }
        Some(region)
    }

    fn full(&self) -> u8 {
        ((1u16 << self.len) - 1) as u8
    }

    /// The chains (connected components) of `mask` in the region, as masks.
    fn chains(&self, mask: u8, out: &mut [u8; MAX_REGION]) -> usize {
        let mut left = mask;
        let mut count = 0;
        while left != 0 {
            let mut chain = left & left.wrapping_neg();
            loop {
                let mut grown = chain;
                for r in 0..self.len {
                    if chain & (1 << r) != 0 {
                        grown |= self.inner[r] & mask;
                    }
                }
                if grown == chain {
                    break;
                }
                chain = grown;
            }
            out[count] = chain;
            count += 1;
            left &= !chain;
        }
        count
    }

    /// The nodes around the cells of `mask`, for `player`.
    fn around(&self, mask: u8, player: usize) -> u32 {
        (0..self.len)
            .filter(|r| mask & (1 << r) != 0)
            .fold(0, |nodes, r| nodes | self.around[player][r])
    }

    /// Whether `player`'s cells `mine` of the region, filled, are at least as good for it as
    /// its cells `target`.
    fn at_least(&self, mine: u8, target: u8, player: usize) -> bool {
        let groups = self.groups[player];
        let joined = &self.joined[player];
        // The classes of `mine`'s chains (chains that share a group are joined through it),
        // each as the nodes it touches: those around it, and the empty cells next to its groups.
        let mut chains = [0u8; MAX_REGION];
        let mut classes = [0u32; MAX_REGION];
        let mut count = 0;
        let found = self.chains(mine, &mut chains);
        for &chain in &chains[..found] {
            let mut class = self.around(chain, player);
            let mut k = 0;
            while k < count {
                if classes[k] & class & groups != 0 {
                    class |= classes[k];
                    count -= 1;
                    classes[k] = classes[count];
                } else {
                    k += 1;
                }
            }
            classes[count] = class;
            count += 1;
        }
        for class in &mut classes[..count] {
            let mut touched = *class;
            let mut g = *class & groups;
            while g != 0 {
                touched |= joined[g.trailing_zeros() as usize];
                g &= g - 1;
            }
            *class = touched;
        }
        let mut wanted = [0u8; MAX_REGION];
        let found = self.chains(target, &mut wanted);
        for &chain in &wanted[..found] {
            let nodes = self.around(chain, player);
            let mut left = nodes;
            while left != 0 {
                let a = left.trailing_zeros() as usize;
                left &= left - 1;
                let need = left & !joined[a];
                if need == 0 {
                    continue;
                }
                let covered = classes[..count]
                    .iter()
                    .filter(|&&class| class & (1 << a) != 0)
                    .fold(0, |covered, &class| covered | class);
                if need & !covered != 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `player`, answering inside the region each stone the opponent plays there, can
    /// make the region end at least as good for it as its cells `target`; `mine` and `theirs`
    /// the cells taken so far, the opponent to play.
    fn holds(&self, mine: u8, theirs: u8, target: u8, player: usize, memo: &mut [u8]) -> bool {
        let empty = self.full() & !(mine | theirs);
        if empty == 0 {
            return self.at_least(mine, target, player);
        }
        let key = (0..self.len).fold(0usize, |key, r| {
            key * 3 + usize::from(mine >> r & 1) + 2 * usize::from(theirs >> r & 1)
        });
        if memo[key] != 0 {
            return memo[key] == 1;
        }
        let mut holds = true;
        let mut left = empty;
        while left != 0 && holds {
            let r = left.trailing_zeros();
            left &= left - 1;
            let theirs = theirs | 1 << r;
            let rest = empty & !(1 << r);
            holds = if rest == 0 {
                self.at_least(mine, target, player)
            } else {
                let mut answered = false;
                let mut replies = rest;
                while replies != 0 && !answered {
                    let q = replies.trailing_zeros();
                    replies &= replies - 1;
                    answered = self.holds(mine | 1 << q, theirs, target, player, memo);
                }
                answered
            };
        }
        memo[key] = if holds { 1 } else { 2 };
        holds
    }

    /// Whether `player` holds its cells `target` ([`holds`](Self::holds), from the empty
    /// region).
    fn keeps(&self, target: u8, player: usize) -> bool {
        let mut memo = [0u8; 729];
        self.holds(
            0,
            0,
            target,
            player,
            &mut memo[..3usize.pow(self.len as u32)],
        )
    }
}

/// One region of the filled board (colours `colour`, empty cells `open`) that may be coloured
/// in advance, if the search finds one: for each player, the cells to give it.
pub(super) fn captured<const W: usize>(
    n: u8,
    colour: &[u8],
    open: Bits<W>,
) -> Option<[Bits<W>; 2]> {
    let mut groups = Groups::new(n, colour);
    each_region(n, open, |cells| try_region(n, colour, cells, &mut groups))
}

/// Calls `search` on each connected set of at most [`MAX_REGION`] cells of `open` that at most
/// [`MAX_OPEN_BORDER`] other cells of `open` touch, until it returns something.
fn each_region<const W: usize, T>(
    n: u8,
    open: Bits<W>,
    mut search: impl FnMut(Bits<W>) -> Option<T>,
) -> Option<T> {
    let rings = rings(n);
    let mut near = [Bits::<W>::EMPTY; MAX_CELLS];
    for i in open.iter() {
        for &j in &rings[i] {
            if usize::from(j) < MAX_CELLS && open.contains(usize::from(j)) {
                near[i] |= Bits::single(usize::from(j));
            }
        }
    }
    for s in open.iter() {
        // The open cells above `s`.
        let above = Bits(std::array::from_fn(|w| {
            let low = 64 * w;
            let mask = if s < low {
                !0
            } else if s >= low + 64 {
                0
            } else {
                (!0u64).checked_shl((s - low + 1) as u32).unwrap_or(0)
            };
            mask & open.0[w]
        }));
        let start = Grow {
            cells: Bits::single(s),
            extension: near[s] & above,
            close: near[s] | Bits::single(s),
            size: 1,
        };
        if let Some(found) = start.grow(&near, above, &mut search) {
            return Some(found);
        }
    }
    None
}

/// A connected set of empty cells being grown (Wernicke's ESU: each connected set is grown
/// once, from its lowest cell, by the cells of `extension`).
struct Grow<const W: usize> {
    cells: Bits<W>,
    /// The cells it may still take: above its lowest, next to it, not next to what it held
    /// when they were added.
    extension: Bits<W>,
    /// The cells and their empty neighbours.
    close: Bits<W>,
    size: usize,
}

impl<const W: usize> Grow<W> {
    /// Calls `search` on this set, if few empty cells touch it, and on every set grown from it,
    /// until one returns something.
    ///
    /// A set with more than the limit of empty neighbours needs more cells to shed them: each
    /// cell added takes one of them at most. So a set whose cells and empty neighbours number
    /// more than the largest region's size and that limit together (which only grows) is
    /// never searched, nor grown.
    fn grow<T>(
        &self,
        near: &[Bits<W>; MAX_CELLS],
        above: Bits<W>,
        search: &mut impl FnMut(Bits<W>) -> Option<T>,
    ) -> Option<T> {
        let close = self.close.count() as usize;
        if close > MAX_REGION + MAX_OPEN_BORDER {
            return None;
        }
        if close - self.size <= MAX_OPEN_BORDER
            && let Some(found) = search(self.cells)
        {
            return Some(found);
        }
        if self.size == MAX_REGION {
            return None;
        }
        let mut extension = self.extension;
        while !extension.is_empty() {
            let w = extension.first();
            extension &= !Bits::single(w);
            let next = Grow {
                cells: self.cells | Bits::single(w),
                extension: extension | (near[w] & !self.close & above),
                close: self.close | near[w],
                size: self.size + 1,
            };
            if let Some(found) = next.grow(near, above, search) {
                return Some(found);
            }
        }
        None
    }
}

/// Tries the colourings of region `cells`: all Black, all White, then (small regions) mixed.
fn try_region<const W: usize>(
    n: u8,
    colour: &[u8],
    cells: Bits<W>,
    groups: &mut Groups,
) -> Option<[Bits<W>; 2]> {
    let rings = rings(n);
    let touches_stone = cells.iter().any(|i| {
        rings[i]
            .iter()
            .any(|&j| usize::from(j) >= MAX_CELLS || colour[usize::from(j)] != 0)
    });
    if !touches_stone {
        return None;
    }
    let mut list = [0u16; MAX_REGION];
    let mut len = 0;
    for i in cells.iter() {
        list[len] = i as u16;
        len += 1;
    }
    let region = Region::new(n, colour, &list[..len], groups)?;
    let full = region.full();
    for player in 0..2 {
        if region.keeps(full, player) {
            let mut out = [Bits::EMPTY; 2];
            out[player] = cells;
            return Some(out);
        }
    }
    if len <= MAX_MIXED {
        for black in 1..full {
            if region.keeps(black, 0) && region.keeps(full & !black, 1) {
                let mut out = [Bits::EMPTY; 2];
                for (r, &i) in list[..len].iter().enumerate() {
                    out[usize::from(black & (1 << r) == 0)] |= Bits::single(usize::from(i));
                }
                return Some(out);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The regions searched are exactly the connected sets of at most `MAX_REGION` open cells
    /// with at most `MAX_OPEN_BORDER` open cells around them, each once (against every subset
    /// of the open cells of random 4x4 and 5x5 boards).
    #[test]
    fn each_region_is_searched_once() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut regions = 0;
        for n in [4u8, 5] {
            let rings = rings(n);
            let cells = usize::from(n) * usize::from(n);
            for _ in 0..10 {
                let open_cells: Vec<usize> = (0..cells)
                    .filter(|_| rng.random_range(0..4) != 0)
                    .take(16)
                    .collect();
                let open = open_cells
                    .iter()
                    .fold(Bits::<1>::EMPTY, |set, &i| set | Bits::single(i));
                let near = |i: usize| {
                    rings[i].iter().fold(Bits::<1>::EMPTY, |set, &j| {
                        let j = usize::from(j);
                        if j < cells && open.contains(j) {
                            set | Bits::single(j)
                        } else {
                            set
                        }
                    })
                };
                let mut expected = Vec::new();
                for subset in 1u32..1 << open_cells.len() {
                    let set = open_cells
                        .iter()
                        .enumerate()
                        .filter(|&(k, _)| subset >> k & 1 == 1)
                        .fold(Bits::<1>::EMPTY, |set, (_, &i)| set | Bits::single(i));
                    if set.count() as usize > MAX_REGION {
                        continue;
                    }
                    let mut reached = Bits::single(set.first());
                    loop {
                        let grown = reached.iter().fold(reached, |r, i| r | (near(i) & set));
                        if grown == reached {
                            break;
                        }
                        reached = grown;
                    }
                    let border = set.iter().fold(Bits::EMPTY, |b, i| b | near(i)) & !set;
                    if reached == set && border.count() as usize <= MAX_OPEN_BORDER {
                        expected.push(set.0[0]);
                    }
                }
                let mut searched = Vec::new();
                each_region::<1, ()>(n, open, |set| {
                    searched.push(set.0[0]);
                    None
                });
                searched.sort_unstable();
                expected.sort_unstable();
                assert_eq!(searched, expected);
                regions += searched.len();
            }
        }
        assert!(regions > 100, "{regions}");
    }
}
