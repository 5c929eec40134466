//! Virtual connections: H-search (Anshelevich, "A hierarchical approach to computer Hex",
//! 2002), as in Hexy, Six and MoHex.
//!
//! For one player, the nodes are its two edges (with the stones joined to them), its other
//! groups of stones, and the empty cells. Two nodes are
//!
//! - **fully connected** (a *VC*) over a *carrier* of empty cells when the player joins them
//!   whoever moves first, playing only inside the carrier;
//! - **semi-connected** (an *SC*) over a carrier holding a *key* cell when the player joins them
//!   by playing the key first.
//!
//! Two nodes next to each other are fully connected over nothing. Two rules build the rest:
//!
//! - **AND**: VCs `x–z` and `z–y` with disjoint carriers that avoid `x` and `y` give a VC
//!   `x–y` when `z` is a group (over both carriers), and an SC with key `z` when `z` is an
//!   empty cell (over both carriers and `z`);
//! - **OR**: SCs `x–y` whose carriers have no cell in common give a VC `x–y` over their
//!   union: whatever the opponent plays, one of them is untouched and its key completes it.
//!
//! The closure is found with a work list of new VCs, each combined by AND with the VCs at
//! both of its ends. As in Pawlewicz et al.'s fast VC search ("Stronger virtual connections
//! in Hex", 2015; MoHex 2.0's engine), a pair's lists are kept short by what they are used
//! for: a VC joins only when it replaces a larger one or narrows the cells all the pair's VCs
//! share, and the OR rule runs once the pair's SCs share no cell, joining any number of them
//! ([`or_rule`]). The search is sound but not complete. As in MoHex (`and_over_edge` off),
//! the edges are never the middle node of an AND.
//!
//! What the search uses is the edge pair: a VC between the player's edges is a won game
//! whoever moves; an SC is a win for the player to move (its key) and, for the opponent, a
//! threat it must answer inside the carrier.

use std::collections::VecDeque;

use game_core::Player;

use super::HexBoard;
use super::geometry::{BLACK_EDGE, MAX_CELLS, RING, WHITE_EDGE, rings};
use super::inferior::Inferior;
use crate::bits::Bits;

/// The most VCs kept for one pair of nodes (a bound on memory and time; the intersection
/// rule below keeps lists far shorter in practice).
const MAX_FULL: usize = 32;
/// The most SCs kept for one pair of nodes.
const MAX_SEMI: usize = 64;
/// The most work in one search (AND combinations tried, and SCs read by the OR rule): a cap
/// on its time (a few milliseconds), past which it stops with what it has found (still
/// sound).
const MAX_WORK: u32 = 400_000;

/// No node (an opponent's stone).
const NONE: u16 = u16::MAX;

/// The connections H-search found between one player's two edges.
#[derive(Clone, Debug, Default)]
pub(crate) struct EdgeLinks<const W: usize> {
    /// Carriers of full connections: the player has won, whoever moves.
    pub(crate) full: Vec<Bits<W>>,
    /// Semi-connections: carrier (with the key) and key.
    pub(crate) semi: Vec<(Bits<W>, usize)>,
    /// The player's stones already join its edges.
    pub(crate) connected: bool,
    /// Restoring replies, `(probe, reply)`: the opponent's stone on `probe` breaks every full
    /// connection the search found between two of the player's groups or edges, and the
    /// player's stone on `reply` restores one: it is the key of a semi-connection of the pair
    /// that `probe` leaves alone (MoHex's "VC maintenance"). Sorted, without repeats.
    pub(crate) restoring: Vec<(usize, usize)>,
}

impl<const W: usize> EdgeLinks<W> {
    /// The cells where the opponent (to move) must play to stop these connections: the
    /// intersection of the semi-connections' carriers (every cell while there is none); empty
    /// when it cannot stop them.
    pub(crate) fn must_play(&self, empty: Bits<W>) -> Bits<W> {
        if self.connected || !self.full.is_empty() {
            return Bits::EMPTY;
        }
        self.semi
            .iter()
            .fold(empty, |region, (carrier, _)| region & *carrier)
    }
}

impl<const W: usize> Search<W> {
    /// The restoring replies of [`EdgeLinks::restoring`], among the first `groups` nodes (the
    /// edges and the groups).
    fn restoring_replies(&self, groups: u16) -> Vec<(usize, usize)> {
        let mut replies = Vec::new();
        for x in 0..groups {
            for y in x + 1..groups {
                let pair = &self.pairs[self.pair_index(x, y)];
                let Some((first, rest)) = pair.full.split_first() else {
                    continue;
                };
                let shared = rest
                    .iter()
                    .fold(*first, |shared, carrier| shared & *carrier);
                for probe in shared.iter() {
                    for (carrier, key) in &pair.semi {
                        if !carrier.contains(probe) {
                            replies.push((probe, usize::from(*key)));
                        }
                    }
                }
            }
        }
        replies.sort_unstable();
        replies.dedup();
        replies
    }
}

/// The connections of one pair of nodes.
#[derive(Clone, Debug)]
struct Pair<const W: usize> {
    full: Vec<Bits<W>>,
    semi: Vec<(Bits<W>, u16)>,
    /// The cells every VC of the pair uses (all cells while there is none).
    full_meet: Bits<W>,
    /// The cells every SC of the pair uses (all cells while there is none).
    semi_meet: Bits<W>,
    /// The cells every SC added since the last OR rule uses: a new VC must use one of those
    /// SCs (the others were combined before), so it cannot avoid these cells.
    fresh_meet: Bits<W>,
    /// Waiting for the OR rule.
    queued: bool,
}

impl<const W: usize> Pair<W> {
    fn new() -> Self {
        Pair {
            full: Vec::new(),
            semi: Vec::new(),
            full_meet: !Bits::EMPTY,
            semi_meet: !Bits::EMPTY,
            fresh_meet: !Bits::EMPTY,
            queued: false,
        }
    }

    fn meet_fulls(&mut self) {
        self.full_meet = self.full.iter().fold(!Bits::EMPTY, |meet, c| meet & *c);
    }

    fn meet_semis(&mut self) {
        self.semi_meet = self
            .semi
            .iter()
            .fold(!Bits::EMPTY, |meet, (c, _)| meet & *c);
    }
}

/// One H-search, for one player.
struct Search<const W: usize> {
    /// Nodes: 0 and 1 the edges, then the groups, then the empty cells.
    nodes: usize,
    /// The empty cell of each node (`NONE` for edges and groups).
    cell: Vec<u16>,
    /// `pairs[a * nodes + b]` for `a < b`.
    pairs: Vec<Pair<W>>,
    /// The nodes each node has a VC with.
    partners: Vec<Vec<u16>>,
    /// New VCs, to combine.
    queue: VecDeque<(u16, u16, Bits<W>)>,
    /// The empty cells (not filled in).
    open: Bits<W>,
    /// Pairs whose SCs share no cell, for the OR rule.
    or_queue: Vec<(u16, u16)>,
    /// The OR rule's new full connections (a buffer).
    found: Vec<Bits<W>>,
    work: u32,
}

impl<const W: usize> Search<W> {
    fn pair_index(&self, a: u16, b: u16) -> usize {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        usize::from(a) * self.nodes + usize::from(b)
    }

    /// Whether node `x` is an empty cell inside `carrier`.
    fn inside(&self, x: u16, carrier: &Bits<W>) -> bool {
        let cell = self.cell[usize::from(x)];
        cell != NONE && carrier.contains(usize::from(cell))
    }

    /// Adds a VC unless one of the pair's is inside it. As in Pawlewicz et al.'s fast VC
    /// search ("Stronger virtual connections in Hex", 2015), a VC that neither replaces a
    /// larger one nor narrows the cells all of the pair's VCs share adds nothing the search
    /// uses, and is left out.
    fn add_full(&mut self, x: u16, y: u16, carrier: Bits<W>) {
        if x == y {
            return;
        }
        let index = self.pair_index(x, y);
        let pair = &mut self.pairs[index];
        if pair.full.iter().any(|c| c.subset_of(&carrier)) {
            return;
        }
        let first = pair.full.is_empty();
        let before = pair.full.len();
        pair.full.retain(|c| !carrier.subset_of(c));
        if pair.full.len() == before && (pair.full_meet.subset_of(&carrier) || before >= MAX_FULL) {
            return;
        }
        if first {
            self.partners[usize::from(x)].push(y);
            self.partners[usize::from(y)].push(x);
        }
        pair.full.push(carrier);
        pair.meet_fulls();
        let semis = pair.semi.len();
        pair.semi.retain(|(c, _)| !carrier.subset_of(c));
        if pair.semi.len() != semis {
            pair.meet_semis();
        }
        self.queue.push_back((x, y, carrier));
    }

    /// Adds an SC unless one of the pair's connections is inside it; once the pair's SCs share
    /// no cell, the pair waits for the OR rule.
    fn add_semi(&mut self, x: u16, y: u16, carrier: Bits<W>, key: u16) {
        if x == y {
            return;
        }
        let index = self.pair_index(x, y);
        let pair = &mut self.pairs[index];
        if pair.full.iter().any(|c| c.subset_of(&carrier))
            || pair.semi.iter().any(|(c, _)| c.subset_of(&carrier))
        {
            return;
        }
        let before = pair.semi.len();
        pair.semi.retain(|(c, _)| !carrier.subset_of(c));
        if pair.semi.len() == before && before >= MAX_SEMI {
            return;
        }
        pair.semi.push((carrier, key));
        pair.fresh_meet &= carrier;
        if pair.semi.len() == before + 1 {
            pair.semi_meet &= carrier;
        } else {
            pair.meet_semis();
        }
        if pair.semi_meet.is_empty() && !pair.queued {
            pair.queued = true;
            self.or_queue.push((x, y));
        }
    }

    /// The OR rule on a pair whose SCs share no cell ([`or_rule`]), for the cells every VC
    /// of the pair uses: its new VCs.
    fn or_pair(&mut self, x: u16, y: u16) {
        let index = self.pair_index(x, y);
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let pair = &mut self.pairs[index];
        pair.queued = false;
        let candidates = pair.full_meet & self.open & !pair.fresh_meet;
        pair.fresh_meet = !Bits::EMPTY;
        self.work += or_rule(&pair.semi, candidates, &mut found);
        for &union in &found {
            self.add_full(x, y, union);
        }
        self.found = found;
    }

    /// Combines every new VC by AND with the VCs at both of its ends, and the SCs of pairs
    /// by OR, until nothing is new.
    fn close(&mut self) {
        while self.work <= MAX_WORK {
            if let Some((x, y, a)) = self.queue.pop_front() {
                self.and_full(x, y, a);
            } else if let Some((x, y)) = self.or_queue.pop() {
                self.or_pair(x, y);
            } else {
                return;
            }
        }
    }

    /// The AND rule on a new VC `x–y` over `a`, with the VCs at both of its ends.
    fn and_full(&mut self, x: u16, y: u16, a: Bits<W>) {
        if !self.pairs[self.pair_index(x, y)].full.contains(&a) {
            return; // replaced by a smaller carrier, which does all it would
        }
        for (z, w) in [(x, y), (y, x)] {
            if z < 2 {
                continue; // never over an edge
            }
            let z_cell = self.cell[usize::from(z)];
            let mut k = 0;
            while k < self.partners[usize::from(z)].len() {
                let v = self.partners[usize::from(z)][k];
                k += 1;
                if v == w || self.inside(v, &a) {
                    continue;
                }
                let index = self.pair_index(z, v);
                if self.pairs[index].full_meet.intersects(&a) {
                    continue; // every VC of z–v meets this one
                }
                let mut j = 0;
                while j < self.pairs[index].full.len() {
                    let b = self.pairs[index].full[j];
                    j += 1;
                    self.work += 1;
                    if a.intersects(&b) || self.inside(w, &b) {
                        continue;
                    }
                    if z_cell == NONE {
                        self.add_full(w, v, a | b);
                    } else {
                        let key = usize::from(z_cell);
                        self.add_semi(w, v, a | b | Bits::single(key), z_cell);
                    }
                }
            }
        }
    }
}

/// The OR rule: SCs of a pair whose carriers share no cell make a VC over their union
/// (whatever the opponent plays, one of them is untouched and its key joins the pair). For
/// each of the `candidates` cells in turn, the union of SCs that avoid it, taken greedily
/// until their carriers share nothing, goes to `found`, when those SCs share nothing at all;
/// the candidates outside it are then avoided too, and only those inside are tried next.
/// Any number of SCs may take part. Returns the work done (SCs read).
fn or_rule<const W: usize>(
    semi: &[(Bits<W>, u16)],
    mut candidates: Bits<W>,
    found: &mut Vec<Bits<W>>,
) -> u32 {
    let mut work = 0;
    while !candidates.is_empty() {
        work += semi.len() as u32;
        let avoid = candidates.first();
        let without = |(c, _): &&(Bits<W>, u16)| !c.contains(avoid);
        let meet = semi
            .iter()
            .filter(without)
            .fold(!Bits::EMPTY, |meet, (c, _)| meet & *c);
        if !meet.is_empty() {
            candidates &= !Bits::single(avoid);
            continue;
        }
        let (mut meet, mut union) = (!Bits::EMPTY, Bits::EMPTY);
        for (carrier, _) in semi.iter().filter(without) {
            if meet.subset_of(carrier) {
                continue;
            }
            meet &= *carrier;
            union |= *carrier;
            if meet.is_empty() {
                break;
            }
        }
        found.push(union);
        candidates &= union;
    }
    work
}

impl<const W: usize> HexBoard<W> {
    /// H-search for `player` on this board with the cells `filled` coloured (dead ones
    /// Black, captured ones their captor's): the connections it finds between the player's
    /// edges.
    pub(crate) fn edge_links(&self, player: Player, filled: &Inferior<W>) -> EdgeLinks<W> {
        let n = i32::from(self.n);
        let rings = rings(self.n);
        let own = self.stones[player.index()] | filled.captured[player.index()];
        // Dead cells count as either colour; the opponent's is simplest.
        let theirs = self.stones[player.opponent().index()]
            | filled.captured[player.opponent().index()]
            | filled.dead;
        let empty = self.empty() & !filled.all();
        let edge_marker = if player == Player::Black {
            BLACK_EDGE
        } else {
            WHITE_EDGE
        };
        // The edge (0 or 1) beyond entry `k` of cell `i`'s ring, if it is the player's.
        let edge_of = |i: usize, k: usize, entry: u16| -> Option<u16> {
            if entry != edge_marker {
                return None;
            }
            let (x, y) = (i as i32 % n, i as i32 / n);
            let (dx, dy) = RING[k];
            let low = if player == Player::Black {
                y + dy < 0
            } else {
                x + dx < 0
            };
            Some(if low { 0 } else { 1 })
        };

        // Nodes: the edges, the groups (those touching an edge are part of it), the cells.
        let mut node_of = [NONE; MAX_CELLS];
        let mut cell = vec![NONE, NONE];
        let mut stack = Vec::new();
        for start in own.iter() {
            if node_of[start] != NONE {
                continue;
            }
            // Flood the group, noting the edges it touches.
            let mut group = Vec::new();
            let mut touches = [false; 2];
            node_of[start] = 0; // marked; renumbered below
            stack.push(start);
            while let Some(i) = stack.pop() {
                group.push(i);
                for (k, &entry) in rings[i].iter().enumerate() {
                    if let Some(e) = edge_of(i, k, entry) {
                        touches[usize::from(e)] = true;
                    }
                    let j = usize::from(entry);
                    if j < MAX_CELLS && own.contains(j) && node_of[j] == NONE {
                        node_of[j] = 0;
                        stack.push(j);
                    }
                }
            }
            let id = match touches {
                [true, true] => {
                    return EdgeLinks {
                        connected: true,
                        ..EdgeLinks::default()
                    };
                }
                [true, false] => 0,
                [false, true] => 1,
                [false, false] => {
                    cell.push(NONE);
                    (cell.len() - 1) as u16
                }
            };
            for i in group {
                node_of[i] = id;
            }
        }
        let groups = cell.len() as u16;
        for i in empty.iter() {
            node_of[i] = cell.len() as u16;
            cell.push(i as u16);
        }
        let nodes = cell.len();
        let mut search = Search {
            nodes,
            cell,
            pairs: vec![Pair::new(); nodes * nodes],
            partners: vec![Vec::new(); nodes],
            queue: VecDeque::new(),
            or_queue: Vec::new(),
            open: empty,
            found: Vec::new(),
            work: 0,
        };
        // Adjacent nodes: fully connected over nothing.
        for i in empty.iter() {
            let u = node_of[i];
            for (k, &entry) in rings[i].iter().enumerate() {
                let v = match edge_of(i, k, entry) {
                    Some(e) => e,
                    None => {
                        let j = usize::from(entry);
                        if j >= MAX_CELLS || theirs.contains(j) {
                            continue;
                        }
                        node_of[j]
                    }
                };
                if v != NONE {
                    search.add_full(u, v, Bits::EMPTY);
                }
            }
        }
        search.close();
        let edges = &search.pairs[search.pair_index(0, 1)];
        EdgeLinks {
            full: edges.full.clone(),
            semi: edges
                .semi
                .iter()
                .map(|&(carrier, key)| (carrier, usize::from(key)))
                .collect(),
            connected: false,
            restoring: search.restoring_replies(groups),
        }
    }
}

/// The moves of the player to move that virtual connections decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decided<const W: usize> {
    /// Cells where a stone wins.
    pub(crate) won: Bits<W>,
    /// When every move wins: the cells where a stone leaves the mover one cell less to fill,
    /// those on the shortest chains through the fill-in's cells or the smallest carrier of
    /// a connection between the mover's edges ([`HexBoard::closest`]); empty otherwise.
    pub(crate) finishing: Bits<W>,
    /// Cells where a stone loses.
    pub(crate) lost: Bits<W>,
    /// The opponent's restoring replies ([`EdgeLinks::restoring`]) to the mover's moves that
    /// are not decided (none when a move wins): `(move, reply)`.
    pub(crate) restoring: Vec<(usize, usize)>,
}

impl<const W: usize> HexBoard<W> {
    /// What the fill-in and both players' edge connections prove about each move of the player
    /// to move (nothing while the swap is still to be decided, or once the game is over):
    ///
    /// - the filled board already connects: every move wins for that player, or loses;
    /// - a VC between the mover's edges: every move wins; an SC: its key wins (when every
    ///   move wins, [`Decided::finishing`] says which close the connection);
    /// - a VC between the opponent's edges: every move loses; SCs: every move outside the
    ///   intersection of their carriers (the must-play region) loses, as the opponent then
    ///   plays the key of an SC the move left alone.
    ///
    /// Each holds on the filled board, and so on this one: the fill-in colours only cells
    /// whose colour does not change the result, also after any move elsewhere. Beside them,
    /// advice from the same search: the opponent's restoring replies to the mover's moves.
    pub(crate) fn decided_moves(&self) -> Decided<W> {
        self.decided_moves_after(&self.inferior())
    }

    /// [`decided_moves`](Self::decided_moves), given this position's inferior cells
    /// ([`inferior`](Self::inferior)), for a caller that has them already.
    pub(crate) fn decided_moves_after(&self, filled: &Inferior<W>) -> Decided<W> {
        let nothing = Decided {
            won: Bits::EMPTY,
            lost: Bits::EMPTY,
            finishing: Bits::EMPTY,
            restoring: Vec::new(),
        };
        if self.winner.is_some() || (self.swap_rule && self.plies == 1) {
            return nothing;
        }
        let all = |finishing| Decided {
            won: self.empty(),
            lost: Bits::EMPTY,
            finishing,
            restoring: Vec::new(),
        };
        let none = Decided {
            won: Bits::EMPTY,
            lost: self.empty(),
            finishing: Bits::EMPTY,
            restoring: Vec::new(),
        };
        let mover = self.to_move;
        match self.winner_after(filled) {
            Some(winner) if winner == mover => {
                // The chains the fill-in completes, as `winner_after` colours it.
                let given = filled.given(mover);
                return all(self.closest(mover, self.stones[mover.index()], given));
            }
            Some(_) => return none,
            None => {}
        }
        let mine = self.edge_links(mover, filled);
        if mine.connected || !mine.full.is_empty() {
            // The shortest chains inside the smallest carrier (the search treats the cells
            // captured for the mover as its stones).
            let smallest = mine.full.iter().min_by_key(|carrier| carrier.count());
            let open = smallest.copied().unwrap_or(Bits::EMPTY) | filled.captured[mover.index()];
            return all(self.closest(mover, self.stones[mover.index()], open));
        }
        let theirs = self.edge_links(mover.opponent(), filled);
        if theirs.connected || !theirs.full.is_empty() {
            return none;
        }
        let won = mine
            .semi
            .iter()
            .fold(Bits::EMPTY, |won, &(_, key)| won | Bits::single(key));
        let open = self.empty() & !filled.all();
        let lost = if theirs.semi.is_empty() {
            Bits::EMPTY
        } else {
            open & !theirs.must_play(open)
        };
        // A winning move decides the node; advice is for the moves still open.
        let mut restoring = if won.is_empty() {
            theirs.restoring
        } else {
            Vec::new()
        };
        restoring.retain(|&(probe, _)| !lost.contains(probe));
        Decided {
            won,
            lost,
            finishing: Bits::EMPTY,
            restoring,
        }
    }
}

/// How a player is connected whoever moves ([`HexBoard::connection`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// Its stones, with the cells the fill-in colours for it, join its edges.
    FillIn,
    /// H-search found a virtual connection between its edges.
    Virtual,
}

impl<const W: usize> HexBoard<W> {
    /// Whether `player` is connected whoever moves, by the fill-in or by a virtual connection
    /// between its edges, and the empty cells that hold the connection (the cells the fill-in
    /// gives it, and the smallest carrier of a virtual connection). `None` when neither shows
    /// it, once the game is over, and while the swap is still to be decided.
    pub(crate) fn connection(&self, player: Player) -> Option<(Link, Bits<W>)> {
        if self.winner.is_some() || (self.swap_rule && self.plies == 1) {
            return None;
        }
        let filled = self.inferior();
        let fill_in = Some((Link::FillIn, filled.given(player) & self.empty()));
        if self.winner_after(&filled) == Some(player) {
            return fill_in;
        }
        let links = self.edge_links(player, &filled);
        if links.connected {
            return fill_in;
        }
        let smallest = links.full.iter().min_by_key(|carrier| carrier.count())?;
        Some((
            Link::Virtual,
            (*smallest | filled.captured[player.index()]) & self.empty(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A carrier of a few of the first `cells` cells (few cells, so that carriers often
    /// share none and the OR rule finds something).
    fn carrier(cells: usize) -> impl Strategy<Value = Bits<2>> {
        proptest::collection::vec(0..cells, 1..6).prop_map(|cells| {
            cells
                .into_iter()
                .fold(Bits::EMPTY, |bits, cell| bits | Bits::single(cell))
        })
    }

    /// The cells every one of `carriers` holds (all cells for none).
    fn meet<'a>(carriers: impl Iterator<Item = &'a Bits<2>>) -> Bits<2> {
        carriers.fold(!Bits::EMPTY, |meet, c| meet & *c)
    }

    proptest! {
        /// Against the rule's definition: every union found is a VC (the SCs inside it share
        /// no cell), and for every candidate cell that the SCs avoiding it can avoid (they
        /// share no cell), some union found avoids it.
        #[test]
        fn the_or_rule_finds_a_vc_avoiding_each_cell_that_one_can(
            (semi, candidates) in (4usize..100).prop_flat_map(|cells| {
                (proptest::collection::vec(carrier(cells), 0..40), carrier(cells))
            }),
        ) {
            let semi: Vec<(Bits<2>, u16)> = semi.into_iter().zip(0..).collect();
            let mut found = Vec::new();
            let _ = or_rule(&semi, candidates, &mut found);
            for union in &found {
                let inside = semi.iter().map(|(c, _)| c).filter(|c| c.subset_of(union));
                prop_assert!(meet(inside).is_empty(), "{union:?} is no VC");
            }
            for cell in candidates.iter() {
                let avoiding = semi.iter().map(|(c, _)| c).filter(|c| !c.contains(cell));
                let possible = meet(avoiding).is_empty();
                let avoided = found.iter().any(|union| !union.contains(cell));
                prop_assert_eq!(possible, avoided, "cell {}", cell);
            }
        }
    }
}
