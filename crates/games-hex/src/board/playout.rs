//! Hex's random playout: fill the board at random, then find the winner once.

use game_core::{Game, Outcome, PlayedActions, Player, Playout};
use rand::{Rng, RngExt};

use super::pattern::Colours;
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
/// A neighbour's state for [`save_bridge`].
const THEIRS: u8 = 0;
const MINE: u8 = 1;
const EMPTY: u8 = 2;

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

/// The empty neighbour in `ring` between two neighbours two apart that are the mover's
/// (`state` of each: [`MINE`], [`THEIRS`] or [`EMPTY`]); the first, going around.
#[inline]
fn save_bridge(ring: &[u16; 6], state: impl Fn(u16) -> u8) -> Option<usize> {
    let around = ring.map(state);
    (0..6).find_map(|i| {
        let (a, mid, b) = (around[i], around[(i + 1) % 6], around[(i + 2) % 6]);
        (a == MINE && b == MINE && mid == EMPTY).then_some(usize::from(ring[(i + 1) % 6]))
    })
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

    /// A playout that saves bridges: moves one at a time, each a uniformly random empty cell,
    /// except that when the opponent's last stone broke into one of the mover's bridges (or
    /// edge templates) the mover saves it (with probability `reply` in units of 2^-32), then
    /// one flood on the full board finds the winner. Like [`fill_playout`](Self::fill_playout)
    /// it plays the board full (Hex has no draws and a stone never breaks a connection) and
    /// counts every filled cell as a ply. The first move, while the swap is available, is a
    /// random action. With `fill_in`, the inferior cells (dead cells and captured pairs) are
    /// coloured first, as they would end in any game played well. When no bridge is saved,
    /// with probability `local` (in units of 2^-32) the move is one of the twelve cells around
    /// the last stone, drawn by its learned pattern weight ([`local_move`](Self::local_move)).
    /// When `played` is given, it marks each player's cells.
    pub(crate) fn bridge_playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        reply: u64,
        local: u64,
        fill_in: bool,
        mut played: Option<&mut PlayedActions>,
    ) -> Playout {
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
        let patterns = Patterns::learned();
        let mut last = self.last;
        let mut mover = self.to_move;
        while free > 0 {
            let answer = reply > u64::from(u32::MAX) || u64::from(rng.next_u32()) < reply;
            let saved = if last != NO_CELL && answer {
                let own = 1 + mover.index() as u8;
                let own_edge = if mover == Player::Black {
                    BLACK_EDGE
                } else {
                    WHITE_EDGE
                };
                save_bridge(&rings[usize::from(last)], |cell| {
                    if cell >= BLACK_EDGE {
                        u8::from(cell == own_edge)
                    } else {
                        match colour[usize::from(cell)] {
                            0 => EMPTY,
                            c if c == own => MINE,
                            _ => THEIRS,
                        }
                    }
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
