//! Hex's playout policies ([`Bridges`](crate::Bridges)): a playout that saves broken bridges
//! and ziggurats, and plays local or pattern-weighted moves ([`Weights`](super::weights)),
//! one move at a time, then finds the winner once.

use game_core::{Outcome, PlayedActions, Player, Playout};
use rand::{Rng, RngExt};

use super::geometry::{BLACK_EDGE, Colours, MAX_CELLS, NOWHERE, WHITE_EDGE, ring_colour, rings};
use super::inferior;
use super::pattern_codes::{LocalShape, Near};
use super::weights::Weights;
use super::ziggurat::Ziggurats;
use super::{HexBoard, NO_CELL};
use crate::patterns::Patterns;

/// A neighbour's state for [`save_bridge`].
const THEIRS: u8 = 0;
const MINE: u8 = 1;
const EMPTY: u8 = 2;
/// Each colour's state (0 empty, 1 Black, 2 White, 3 nobody's) for Black and for White to
/// move, so that the playout's lookup needs no branch.
const STATES: [[u8; 4]; 2] = [[EMPTY, MINE, THEIRS, THEIRS], [EMPTY, THEIRS, MINE, THEIRS]];

/// The empty neighbour in `ring` between two neighbours two apart that are the mover's
/// (`state` of each: [`MINE`], [`THEIRS`] or [`EMPTY`]); the first, going around.
///
/// Branch-free over the ring: bit `i` of `mine` (`empty`) says whether neighbour `i` is the
/// mover's (empty), and the bridges are the bits `i` with `i` and `i + 2` the mover's and
/// `i + 1` empty.
#[inline]
fn save_bridge(ring: &[u16; 6], state: impl Fn(u16) -> u8) -> Option<usize> {
    let (mut mine, mut empty) = (0u8, 0u8);
    for (k, &cell) in ring.iter().enumerate() {
        let s = state(cell);
        mine |= u8::from(s == MINE) << k;
        empty |= u8::from(s == EMPTY) << k;
    }
    // Bit i of `ahead(x, r)` is bit i + r of x, around the ring of six.
    let ahead = |x: u8, r: u32| ((x >> r) | (x << (6 - r))) & 0b11_1111;
    let bridges = mine & ahead(mine, 2) & ahead(empty, 1);
    (bridges != 0).then(|| usize::from(ring[(bridges.trailing_zeros() as usize + 1) % 6]))
}

impl<const W: usize> HexBoard<W> {
    /// The cell where `player` saves a bridge (or an edge template) that a stone of the
    /// opponent on `intruder` has just broken into: with two neighbours of `intruder` two
    /// apart around it owned by `player` (a stone, or the player's edge beyond the board) and
    /// the cell between them empty, that cell; `None` when there is none.
    pub(crate) fn bridge_reply(&self, intruder: usize, player: Player) -> Option<usize> {
        let mine = &self.stones[player.index()];
        let theirs = &self.stones[1 - player.index()];
        let state = |cell: u16| match cell {
            BLACK_EDGE => u8::from(player == Player::Black),
            WHITE_EDGE => u8::from(player == Player::White),
            NOWHERE => THEIRS,
            _ if mine.contains(usize::from(cell)) => MINE,
            _ if theirs.contains(usize::from(cell)) => THEIRS,
            _ => EMPTY,
        };
        save_bridge(&rings(self.n)[intruder], state)
    }

    /// The cell where `player` keeps a ziggurat (the third-row edge template, `IIIa`) of one
    /// of its stones that a stone of the opponent on `intruder` has just broken into, when no
    /// other ziggurat of that stone holds ([`Ziggurats::answer`]); `None` when there is none.
    pub(crate) fn ziggurat_reply(&self, intruder: usize, player: Player) -> Option<usize> {
        let colour = self.colours();
        Ziggurats::of(self.n).answer(intruder, 1 + player.index() as u8, |i| colour[i])
    }

    /// A playout that saves bridges: moves one at a time, each a uniformly random empty cell,
    /// except that when the opponent's last stone broke into one of the mover's bridges (or
    /// edge templates) the mover saves it (with probability `reply` of the [`Style`], in units
    /// of 2^-32), and with `ziggurats` likewise a broken ziggurat ([`Ziggurats`]), then one
    /// flood on the full board finds the winner. Like [`fill_playout`](Self::fill_playout) it
    /// plays the board full (Hex has no draws and a stone never breaks a connection) and
    /// counts every filled cell as a ply. The first move,
    /// while the swap is available, is a random action. With `fill_in`, the inferior cells
    /// (dead cells and captured pairs) are coloured first, as they would end in any game
    /// played well. When no bridge is saved, with probability `local` (in units of 2^-32) the
    /// move is one of the twelve cells around the last stone, drawn by its learned pattern
    /// weight ([`local_move`](Self::local_move)); with `weighted`, it is drawn from all the
    /// empty cells by their pattern weights ([`Weights`]). When `played` is given, it marks
    /// each player's cells.
    pub(crate) fn bridge_playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        style: &Style,
        mut played: Option<&mut PlayedActions>,
    ) -> Playout {
        let Style {
            reply,
            ziggurats,
            local,
            fill_in,
            weighted,
            patterns,
        } = *style;
        let plies = match self.open_playout(rng, played.as_deref_mut()) {
            Ok(plies) => plies,
            Err(decided) => return decided,
        };
        // Each cell's colour (0 empty, 1 Black, 2 White), for the replies' lookups; with
        // `fill_in`, the inferior cells coloured first.
        let empty = self.empty();
        let mut colour = self.colours();
        if fill_in {
            let found = inferior::fill(self.n, &mut colour, empty);
            if let Some(played) = played.as_deref_mut() {
                for i in (found.dead | found.captured[0]).iter() {
                    played.insert(Player::Black, i);
                }
                for i in found.captured[1].iter() {
                    played.insert(Player::White, i);
                }
            }
        }
        // The empty cells in a pool (drawn from by swapping with the end) and where each is.
        let mut pool = [0u16; MAX_CELLS];
        let mut place = [0u16; MAX_CELLS];
        let mut free = 0;
        for i in empty.iter().filter(|&i| colour[i] == 0) {
            pool[free] = i as u16;
            place[i] = free as u16;
            free += 1;
        }
        let cells = empty.count();
        let rings = rings(self.n);
        let templates = Ziggurats::of(self.n);
        let mut last = self.last;
        let mut mover = self.to_move;
        let mut weights =
            weighted.map(|cap| Weights::new(self, &colour, &pool[..free], patterns, cap));
        while free > 0 {
            let answer = reply > u64::from(u32::MAX) || u64::from(rng.next_u32()) < reply;
            let saved = if last != NO_CELL && answer {
                let state = &STATES[mover.index()];
                save_bridge(&rings[usize::from(last)], |cell| {
                    state[usize::from(ring_colour(&colour, cell)) & 3]
                })
                .or_else(|| {
                    let mine = 1 + mover.index() as u8;
                    ziggurats
                        .then(|| templates.answer(usize::from(last), mine, |i| colour[i]))
                        .flatten()
                })
            } else {
                None
            };
            let saved = match saved {
                None if local > 0
                    && last != NO_CELL
                    && (local > u64::from(u32::MAX) || u64::from(rng.next_u32()) < local) =>
                {
                    self.local_move(&colour, usize::from(last), mover, patterns, rng)
                }
                saved => saved,
            };
            let saved = match (saved, &weights) {
                (None, Some(weights)) => Some(weights.draw(self, &pool[..free], last, mover, rng)),
                (saved, _) => saved,
            };
            let at = match saved {
                Some(cell) => usize::from(place[cell]),
                None => rng.random_range(0..free),
            };
            let cell = usize::from(pool[at]);
            free -= 1;
            let moved = pool[free];
            pool[at] = moved;
            place[usize::from(moved)] = at as u16;
            colour[cell] = 1 + mover.index() as u8;
            if let Some(weights) = &mut weights {
                weights.update(self, &colour, cell);
            }
            if let Some(played) = played.as_deref_mut() {
                played.insert(mover, cell);
            }
            last = cell as u16;
            mover = mover.opponent();
        }
        // The filled cells to the stones.
        for (i, &c) in colour.iter().enumerate().take(usize::from(self.n).pow(2)) {
            if c != 0 {
                self.stones[usize::from(c - 1)].0[i / 64] |= 1 << (i % 64);
            }
        }
        let winner = self.full_board_winner();
        self.winner = Some(winner);
        self.plies += cells as u16;
        self.to_move = mover;
        self.last = last;
        Playout {
            outcome: Outcome::Win(winner),
            plies: plies + cells,
        }
    }

    /// One of the empty cells among the twelve around `last` (next to it or a bridge away),
    /// drawn with probability proportional to its learned pattern weight for `mover`
    /// ([`Patterns`], as the prior weighs it), given each cell's `colour` (0 empty, 1 Black,
    /// 2 White); `None` when none is empty.
    pub(crate) fn local_move<R: Rng + ?Sized>(
        &self,
        colour: &Colours,
        last: usize,
        mover: Player,
        patterns: &Patterns,
        rng: &mut R,
    ) -> Option<usize> {
        let mut cells = [0u16; 12];
        let mut upto = [0f32; 12];
        let mut found = 0;
        let mut total = 0.0;
        for (k, &i) in self.around(last).iter().enumerate() {
            let i = usize::from(i);
            if i >= MAX_CELLS || colour[i] != 0 {
                continue;
            }
            let near = if k < 6 { Near::Adjacent } else { Near::Bridge };
            total += patterns.weight(LocalShape {
                pattern: self.pattern_code(colour, i, mover),
                near,
            });
            cells[found] = i as u16;
            upto[found] = total;
            found += 1;
        }
        if found == 0 || total <= 0.0 {
            return None;
        }
        let r = rng.random::<f32>() * total;
        let pick = upto[..found]
            .iter()
            .position(|&u| r < u)
            .unwrap_or(found - 1);
        Some(usize::from(cells[pick]))
    }
}

/// How [`HexBoard::bridge_playout`] plays, from [`Bridges`](crate::Bridges).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) struct Style {
    /// The probability of saving a broken bridge, in units of 2^-32.
    pub(crate) reply: u64,
    /// Keep broken ziggurats too ([`Ziggurats`]), with the same probability.
    pub(crate) ziggurats: bool,
    /// The probability of a local move when no bridge is saved, in units of 2^-32.
    pub(crate) local: u64,
    /// Colour the inferior cells first.
    pub(crate) fill_in: bool,
    /// Draw each move no bridge saves by pattern weight ([`Weights`]), each cell's global
    /// weight capped at this.
    pub(crate) weighted: Option<f32>,
    /// The weights of `local` and `weighted` moves.
    pub(crate) patterns: &'static Patterns,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring's bit masks find the first bridge going around, as reading the six states in
    /// turn does: every ring of three states.
    #[test]
    fn save_bridge_finds_the_first_bridge_around() {
        let ring: [u16; 6] = [10, 11, 12, 13, 14, 15];
        for code in 0..3u32.pow(6) {
            let around: [u8; 6] = std::array::from_fn(|k| (code / 3u32.pow(k as u32) % 3) as u8);
            let expected = (0..6).find_map(|i| {
                let (a, mid, b) = (around[i], around[(i + 1) % 6], around[(i + 2) % 6]);
                (a == MINE && b == MINE && mid == EMPTY).then_some(usize::from(ring[(i + 1) % 6]))
            });
            let state = |cell: u16| around[usize::from(cell - 10)];
            assert_eq!(save_bridge(&ring, state), expected, "{around:?}");
        }
    }
}
