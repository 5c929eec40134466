//! Hex's random playout: fill the board at random, then find the winner once.

use game_core::{Game, Outcome, PlayedActions, Player, Playout};
use rand::{Rng, RngExt};

use super::pattern::{Colours, RING_COLOURINGS};
use super::ziggurat::Ziggurats;
use super::{HexBoard, NO_CELL};
use crate::bits::{Bits, MAX_SIZE};
use crate::patterns::{LocalShape, Near, Patterns};

/// The six neighbours of a cell in order around it, each next to the one before and after:
/// (x+1, y), (x+1, y-1), (x, y-1), (x-1, y), (x-1, y+1), (x, y+1).
pub(super) const RING: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// In a ring: beyond a row edge (Black's), beyond a column edge (White's), beyond both.
pub(super) const BLACK_EDGE: u16 = u16::MAX - 3;
pub(super) const WHITE_EDGE: u16 = u16::MAX - 2;
pub(super) const NOWHERE: u16 = u16::MAX - 1;
/// The colour (1 Black, 2 White, 3 nobody's) of what lies beyond the board, by ring entry
/// less [`BLACK_EDGE`]: beyond a row edge, a column edge, both.
const BEYOND_COLOUR: [u8; 3] = [1, 2, 3];
/// A neighbour's state for [`save_bridge`].
const THEIRS: u8 = 0;
const MINE: u8 = 1;
const EMPTY: u8 = 2;
/// Each colour's state (0 empty, 1 Black, 2 White, 3 nobody's) for Black and for White to
/// move, so that the playout's lookup needs no branch.
const STATES: [[u8; 4]; 2] = [[EMPTY, MINE, THEIRS, THEIRS], [EMPTY, THEIRS, MINE, THEIRS]];

/// Every cell's [`RING`] of neighbours for each board side (cell numbers, or where off the
/// board they lie), built once.
pub(super) fn rings(n: u8) -> &'static [[u16; 6]] {
    static RINGS: std::sync::OnceLock<Vec<Vec<[u16; 6]>>> = std::sync::OnceLock::new();
    let all = RINGS.get_or_init(|| {
        (0..=i32::from(MAX_SIZE))
            .map(|n| {
                (0..n * n)
                    .map(|i| {
                        let (x, y) = (i % n, i / n);
                        RING.map(|(dx, dy)| {
                            let (cx, cy) = (x + dx, y + dy);
                            let inside = |v: i32| (0..n).contains(&v);
                            match (inside(cx), inside(cy)) {
                                (true, true) => (cy * n + cx) as u16,
                                (true, false) => BLACK_EDGE,
                                (false, true) => WHITE_EDGE,
                                (false, false) => NOWHERE,
                            }
                        })
                    })
                    .collect()
            })
            .collect()
    });
    &all[usize::from(n)]
}

/// The colour (0 empty, 1 Black, 2 White, 3 nobody's) of a [`rings`] entry, given each
/// cell's `colour`: beyond the board, the colour of that edge.
#[inline]
fn ring_colour(colour: &Colours, cell: u16) -> u8 {
    if cell >= BLACK_EDGE {
        BEYOND_COLOUR[usize::from(cell - BLACK_EDGE)]
    } else {
        colour[usize::from(cell)]
    }
}

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

/// The most cells a board has.
pub(super) const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

impl<const W: usize> HexBoard<W> {
    /// Fill and check: the empty cells go to the two players at random (the player to move
    /// gets the odd one), then one flood tells who connects.
    ///
    /// This gives each player exactly the winning chances of uniform random play to the end.
    /// Playing on after a win changes nothing: a stone never breaks a connection, and on a full
    /// board exactly one player connects (Hex has no draws). And the cells that uniform random
    /// play gives each player, played to the full board, are a uniformly random split of the
    /// empty cells with the mover getting half rounded up: which is what is drawn here. While
    /// the swap is still available, the first move is drawn like any random move (the swap
    /// among the cells) before the fill. `plies` counts the filled cells, as if the game had
    /// been played to the full board.
    pub(super) fn fill_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        let plies = match self.open_playout(rng, None) {
            Ok(plies) => plies,
            Err(decided) => return decided,
        };
        let empty = self.empty();
        let cells = empty.count();
        let mine = cells.div_ceil(2);
        // A uniformly random subset of `mine` empty cells: each cell with probability 1/2,
        // then random cells out or in until the count is right. Given its size, the first
        // subset is uniform, and removing (adding) uniformly chosen cells keeps it so.
        let mut subset = Bits(std::array::from_fn(|i| rng.next_u64() & empty.0[i]));
        let mut count = subset.count();
        while count > mine {
            let drop = subset.nth(rng.random_range(0..count));
            subset.0[drop / 64] &= !(1 << (drop % 64));
            count -= 1;
        }
        while count < mine {
            let rest = empty & !subset;
            let add = rest.nth(rng.random_range(0..cells - count));
            subset.0[add / 64] |= 1 << (add % 64);
            count += 1;
        }
        let mover = self.to_move.index();
        self.stones[mover] |= subset;
        self.stones[1 - mover] |= empty & !subset;
        let winner = self.full_board_winner();
        self.winner = Some(winner);
        self.plies += cells as u16;
        if cells % 2 == 1 {
            self.to_move = self.to_move.opponent();
        }
        Playout {
            outcome: Outcome::Win(winner),
            plies: plies + cells,
        }
    }

    /// The fill of [`fill_playout`](Self::fill_playout), marking afterwards the cells each
    /// player filled: the board's bits are the cells' action numbers, so a few words at a time.
    /// The first move is played and marked alone when it may be the swap.
    pub(super) fn fill_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let plies = match self.open_playout(rng, Some(played)) {
            Ok(plies) => plies,
            Err(decided) => return decided,
        };
        let empty = self.empty();
        let playout = self.fill_playout(rng);
        for player in Player::BOTH {
            let filled = self.stones[player.index()] & empty;
            let words = played.words_mut(player);
            debug_assert!(
                words.len() * 64 >= usize::from(self.n).pow(2),
                "room for every cell"
            );
            for (word, bits) in words.iter_mut().zip(filled.0) {
                *word |= bits;
            }
        }
        Playout {
            outcome: playout.outcome,
            plies: plies + playout.plies,
        }
    }

    /// The start of every playout: while the swap is available, the first move is drawn like
    /// any random move (the swap among the cells) and marked in `played` if given. Returns the
    /// plies played (0 or 1), or the finished playout when the game is already decided.
    fn open_playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: Option<&mut PlayedActions>,
    ) -> Result<u32, Playout> {
        let mut plies = 0;
        if self.swap_available() {
            let first = self.random_action(rng).expect("the game is on");
            if let Some(played) = played {
                played.insert(self.to_move, self.action_index(first));
            }
            self.play_unchecked(first);
            plies = 1;
        }
        match self.winner {
            Some(winner) => Err(Playout {
                outcome: Outcome::Win(winner),
                plies,
            }),
            None => Ok(plies),
        }
    }

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
            let found = super::inferior::fill(self.n, &mut colour, empty);
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

    /// The cell a pattern-weighted playout ([`Style::weighted`], global weights capped at
    /// `cap`) draws for the player to move when no bridge is saved; `None` on a full board.
    pub(crate) fn weighted_move<R: Rng + ?Sized>(
        &self,
        cap: f32,
        patterns: &Patterns,
        rng: &mut R,
    ) -> Option<usize> {
        let colour = self.colours();
        let mut pool = [0u16; MAX_CELLS];
        let mut free = 0;
        for i in self.empty().iter() {
            pool[free] = i as u16;
            free += 1;
        }
        if free == 0 {
            return None;
        }
        let weights = Weights::new(self, &colour, &pool[..free], patterns, cap);
        Some(weights.draw(self, &pool[..free], self.last, self.to_move, rng))
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

/// The weights of a pattern-weighted playout (MoHex 2.0's softmax policy): every empty cell
/// has, for each mover, the weight of its six neighbours' colouring ([`ring_weights`](super::pattern::ring_weights)) capped
/// at `cap` (global), and the cells around the last stone add that weight times how much more
/// their [`Near`] class weighs (local). A stone changes one digit of the colourings of its six
/// neighbours only, so a move weighs six cells again; a draw reads the twelve cells around the
/// last stone and, when it falls outside them, walks the empty cells.
struct Weights<'a> {
    /// Each empty cell's six-neighbour colouring.
    colouring: [u16; MAX_CELLS],
    /// Each cell's weight for each mover (0 when taken); its global weight is this capped at
    /// `cap`.
    raw: [[f32; 2]; MAX_CELLS],
    /// The sum of the global weights of the empty cells, for each mover.
    total: [f64; 2],
    /// The most a cell's global weight may be.
    cap: f32,
    /// What a cell next to the last stone, and a bridge away from it, adds per unit of its
    /// weight.
    extra: [f32; 2],
    /// The weight of each colouring for each mover.
    table: &'a [[f32; RING_COLOURINGS]; 2],
}

impl<'a> Weights<'a> {
    /// The weights of the empty cells `pool` on the board coloured `colour`.
    fn new<const W: usize>(
        board: &HexBoard<W>,
        colour: &Colours,
        pool: &[u16],
        patterns: &'a Patterns,
        cap: f32,
    ) -> Weights<'a> {
        let far = patterns.near_weight(Near::Far);
        let mut weights = Weights {
            colouring: [0; MAX_CELLS],
            raw: [[0.0; 2]; MAX_CELLS],
            total: [0.0; 2],
            cap,
            extra: [Near::Adjacent, Near::Bridge]
                .map(|near| (patterns.near_weight(near) / far - 1.0).max(0.0)),
            table: patterns.ring_weights(),
        };
        let rings = rings(board.n);
        for &i in pool {
            let i = usize::from(i);
            let colouring = rings[i].iter().enumerate().fold(0, |code, (k, &cell)| {
                code | u16::from(ring_colour(colour, cell)) << (2 * k)
            });
            weights.colouring[i] = colouring;
            weights.weigh(i);
        }
        weights
    }

    /// A weight capped at `cap` (weights are never NaN: a plain comparison).
    #[inline]
    fn capped(&self, raw: f32) -> f32 {
        if raw < self.cap { raw } else { self.cap }
    }

    /// Weighs the empty cell `i` by its colouring, for both movers.
    #[inline]
    fn weigh(&mut self, i: usize) {
        let colouring = usize::from(self.colouring[i]);
        for m in 0..2 {
            let raw = self.table[m][colouring];
            self.total[m] += f64::from(self.capped(raw) - self.capped(self.raw[i][m]));
            self.raw[i][m] = raw;
        }
    }

    /// After a stone on `cell` (coloured in `colour`): it weighs nothing, and its empty
    /// neighbours are weighed again.
    #[inline]
    fn update<const W: usize>(&mut self, board: &HexBoard<W>, colour: &Colours, cell: usize) {
        for m in 0..2 {
            self.total[m] -= f64::from(self.capped(self.raw[cell][m]));
            self.raw[cell][m] = 0.0;
        }
        let stone = u16::from(colour[cell]);
        for (k, &j) in rings(board.n)[cell].iter().enumerate() {
            let j = usize::from(j);
            if j < MAX_CELLS && colour[j] == 0 {
                // `cell` is neighbour `k + 3` of its neighbour `k`.
                self.colouring[j] += stone << (2 * ((k + 3) % 6));
                self.weigh(j);
            }
        }
    }

    /// One of the empty cells `pool` for `mover`, drawn in proportion to its global weight
    /// plus, around the `last` stone, its local one.
    #[inline]
    fn draw<const W: usize, R: Rng + ?Sized>(
        &self,
        board: &HexBoard<W>,
        pool: &[u16],
        last: u16,
        mover: Player,
        rng: &mut R,
    ) -> usize {
        let m = mover.index();
        let mut near = [(0u16, 0f64); 12];
        let mut found = 0;
        let mut local = 0.0;
        if last != NO_CELL {
            for (k, &j) in board.around(usize::from(last)).iter().enumerate() {
                let raw = self.raw.get(usize::from(j)).map_or(0.0, |w| w[m]);
                if raw > 0.0 {
                    local += f64::from(raw * self.extra[usize::from(k >= 6)]);
                    near[found] = (j, local);
                    found += 1;
                }
            }
        }
        let mut r = rng.random::<f64>() * (self.total[m].max(0.0) + local);
        if r < local {
            let pick = near[..found].iter().find(|&&(_, upto)| r < upto);
            return usize::from(pick.map_or(near[found - 1].0, |&(j, _)| j));
        }
        r -= local;
        for &i in pool {
            let w = f64::from(self.capped(self.raw[usize::from(i)][m]));
            if r < w {
                return usize::from(i);
            }
            r -= w;
        }
        usize::from(pool[pool.len() - 1])
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

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

    /// The empty cells of a colour array on a board of side `n`.
    fn empties(n: u8, colour: &Colours) -> Vec<u16> {
        (0..usize::from(n).pow(2))
            .filter(|&i| colour[i] == 0)
            .map(|i| i as u16)
            .collect()
    }

    /// Weighing only the six neighbours of each new stone keeps every weight, and both
    /// totals, what weighing the whole board afresh gives.
    fn check_updates<const W: usize>(n: u8, seed: u64) {
        let board = HexBoard::<W>::new(n, false);
        let patterns = Patterns::learned();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut colour = board.colours();
        let cap = [0.5, 1.0, f32::MAX][(seed % 3) as usize];
        let mut weights = Weights::new(&board, &colour, &empties(n, &colour), patterns, cap);
        loop {
            let empty = empties(n, &colour);
            let fresh = Weights::new(&board, &colour, &empty, patterns, cap);
            for &i in &empty {
                let i = usize::from(i);
                assert_eq!(
                    weights.colouring[i], fresh.colouring[i],
                    "cell {i}, seed {seed}"
                );
            }
            for i in 0..usize::from(n).pow(2) {
                assert_eq!(weights.raw[i], fresh.raw[i], "cell {i}, seed {seed}");
            }
            for m in 0..2 {
                let drift = (weights.total[m] - fresh.total[m]).abs();
                assert!(
                    drift < 1e-3 * fresh.total[m].max(1.0),
                    "total {m}, seed {seed}"
                );
            }
            let Some(&cell) = empty.get(rng.random_range(0..empty.len().max(1))) else {
                break;
            };
            colour[usize::from(cell)] = rng.random_range(1..=2);
            weights.update(&board, &colour, usize::from(cell));
        }
    }

    /// A table whose weights depend on the six neighbours only (as `Patterns::balance`
    /// fits one): a random weight for each ring, half turns alike.
    fn six_neighbour_table(seed: u64) -> Patterns {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let ring: Vec<f32> = (0..729).map(|_| rng.random_range(0.01..10.0)).collect();
        let weights = (0..crate::PATTERN_CODES)
            .map(|code| {
                let c = code % 729;
                ring[c.min(c / 27 + 27 * (c % 27))]
            })
            .collect();
        let mut table = Patterns::default();
        table.set_weights(weights, [1.0, 3.0, 2.0]);
        table
    }

    /// The playout's reading of the six neighbours (one colouring for both movers, the
    /// board's own frame) weighs each empty cell as the prior's reading of its pattern does
    /// (each mover's frame, the edges as their owner's stones): every cell of random
    /// positions, corners and edges included, both movers. For a table of twelve cells, it
    /// reads the pattern with the outer six empty.
    fn check_ring_weights<const W: usize>(n: u8, seed: u64) {
        let board = HexBoard::<W>::new(n, false);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let six = six_neighbour_table(seed);
        for _ in 0..20 {
            let mut colour = board.colours();
            let stones = rng.random_range(0..usize::from(n).pow(2));
            for _ in 0..stones {
                colour[rng.random_range(0..usize::from(n).pow(2))] = rng.random_range(1..=2);
            }
            let empty = empties(n, &colour);
            for (patterns, six_only) in [(&six, true), (Patterns::learned(), false)] {
                let weights = Weights::new(&board, &colour, &empty, patterns, f32::MAX);
                for &i in &empty {
                    let i = usize::from(i);
                    for mover in Player::BOTH {
                        let code = board.pattern_code(&colour, i, mover);
                        let read = if six_only { code } else { code % 729 };
                        assert_eq!(
                            weights.raw[i][mover.index()],
                            patterns.pattern_weight(read),
                            "cell {i} of {n}x{n}, {mover:?}, seed {seed}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_six_neighbours_weigh_what_the_movers_pattern_weighs() {
        for seed in 0..4 {
            check_ring_weights::<1>(3, seed);
            check_ring_weights::<1>(5, seed);
            check_ring_weights::<2>(9, seed);
            check_ring_weights::<6>(19, seed);
        }
    }

    #[test]
    fn updated_weights_are_the_fresh_ones() {
        for seed in 0..6 {
            check_updates::<1>(5, seed);
            check_updates::<2>(9, seed);
            check_updates::<6>(19, seed);
        }
    }
}
