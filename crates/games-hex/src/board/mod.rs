//! The Hex position for boards of `W` words, and its rules. The other files of `board/`:
//!
//! - `geometry.rs`: neighbour rings, edge markers, the colour array; imports none of the others.
//! - `fill.rs`: the uniform random playout (fill the board, find the winner once).
//! - `policy.rs`: the playout policies (bridges, ziggurats, local moves); `weights.rs` the
//!   pattern-weighted playout's weights; `ziggurat.rs` the ziggurat templates.
//! - `pattern_codes.rs`: a cell's local pattern ([`LocalShape`]) read off the board.
//! - `shape.rs`: the shape prior's weights; `inferior.rs` the inferior cells and the fill-in,
//!   over `region.rs`'s captured regions; `vc.rs` virtual connections (H-search).
//! - `text.rs`: the drawing of a board.

mod fill;
mod geometry;
mod inferior;
mod pattern_codes;
mod policy;
mod region;
mod shape;
mod text;
mod vc;
mod weights;
mod ziggurat;

pub(crate) use inferior::Domination;
pub use pattern_codes::{LocalShape, Near, PATTERN_CODES};
pub(crate) use pattern_codes::{RING_COLOURINGS, canonical_pattern, ring_weights};
pub(crate) use policy::Style;
pub(crate) use text::{draw, draw_with, symbol};
pub(crate) use vc::Link;

use game_core::{Game, Outcome, PlayedActions, Player, Playout, Status, mix64};
use rand::{Rng, RngExt};

use crate::bits::{Bits, GEOMETRY};
use crate::notation::{Cell, Move};
use geometry::{Colours, no_colours};

/// A Hex position on a board whose cells fit in `W` words (cell `(x, y)` is bit `n * y + x`).
///
/// Besides the stones, it keeps for each player the stones connected to each of its two
/// edges. Playing a stone next to one of those sets (or on the edge) floods the stone's group
/// into it; a player wins when one group is in both. A stone that touches neither costs no
/// flood at all, so `play` is cheap inside tree search.
#[derive(Clone, Debug)]
pub(crate) struct HexBoard<const W: usize> {
    stones: [Bits<W>; 2],
    /// `reach[p][e]`: the stones of player `p` connected to its edge `e`.
    reach: [[Bits<W>; 2]; 2],
    n: u8,
    to_move: Player,
    plies: u16,
    swap_rule: bool,
    winner: Option<Player>,
    /// The cell of the last stone placed (`NO_CELL` at the start and after a swap), for the
    /// playout policy's answer to it; not part of the position (equality and hash ignore it).
    last: u16,
}

/// [`HexBoard::last`] when there is no last stone.
pub(crate) const NO_CELL: u16 = u16::MAX;

/// Positions are equal when stones, player to move, move count and rules are: the reach sets
/// follow from the stones (and are not kept up to date by a playout's fill, after which nothing
/// more can be played).
impl<const W: usize> PartialEq for HexBoard<W> {
    fn eq(&self, other: &Self) -> bool {
        self.stones == other.stones
            && self.n == other.n
            && self.to_move == other.to_move
            && self.plies == other.plies
            && self.swap_rule == other.swap_rule
            && self.winner == other.winner
    }
}

impl<const W: usize> Eq for HexBoard<W> {}

/// The three masks a flood needs, copied out of the size's geometry once per flood.
struct Masks<const W: usize> {
    cells: Bits<W>,
    not_first_column: Bits<W>,
    not_last_column: Bits<W>,
    n: u32,
}

impl<const W: usize> Masks<W> {
    #[inline]
    fn of(n: u8) -> Self {
        let g = &GEOMETRY[usize::from(n)];
        Masks {
            cells: Bits::from_mask(&g.cells),
            not_first_column: Bits::from_mask(&g.not_first_column),
            not_last_column: Bits::from_mask(&g.not_last_column),
            n: u32::from(n),
        }
    }

    /// `set` and every cell next to it: (x±1, y), (x, y±1), (x+1, y-1), (x-1, y+1).
    #[inline]
    fn dilate(&self, set: &Bits<W>) -> Bits<W> {
        let n = self.n;
        let east = (set.shl(1) | set.shr(n - 1)) & self.not_first_column;
        let west = (set.shr(1) | set.shl(n - 1)) & self.not_last_column;
        (*set | east | west | set.shl(n) | set.shr(n)) & self.cells
    }

    /// The cells of `within` connected to `seed` through `within` (`seed` must lie in it).
    #[inline]
    fn flood(&self, seed: Bits<W>, within: &Bits<W>) -> Bits<W> {
        let mut set = seed;
        loop {
            let grown = self.dilate(&set) & *within;
            if grown == set {
                return set;
            }
            set = grown;
        }
    }

    /// `true` when `from` connects to `to` through `within` (`from` inside `within`), flooding
    /// only until it gets there.
    #[inline]
    fn connects(&self, from: Bits<W>, to: &Bits<W>, within: &Bits<W>) -> bool {
        let mut set = from;
        loop {
            if set.intersects(to) {
                return true;
            }
            let grown = self.dilate(&set) & *within;
            if grown == set {
                return false;
            }
            set = grown;
        }
    }
}

impl<const W: usize> HexBoard<W> {
    /// The empty board of side `n` (which must need exactly `W` words or fewer).
    pub(crate) fn new(n: u8, swap_rule: bool) -> Self {
        debug_assert!(crate::bits::words_for(n) <= W);
        HexBoard {
            stones: [Bits::EMPTY; 2],
            reach: [[Bits::EMPTY; 2]; 2],
            n,
            to_move: Player::Black,
            plies: 0,
            swap_rule,
            winner: None,
            last: NO_CELL,
        }
    }

    pub(crate) fn size(&self) -> u8 {
        self.n
    }

    pub(crate) fn swap_rule(&self) -> bool {
        self.swap_rule
    }

    pub(crate) fn plies(&self) -> u32 {
        u32::from(self.plies)
    }

    pub(crate) fn index(&self, cell: Cell) -> usize {
        usize::from(self.n) * usize::from(cell.row()) + usize::from(cell.column())
    }

    /// The cell of the last stone placed, if the last move placed one.
    pub(crate) fn last_stone(&self) -> Option<usize> {
        (self.last != NO_CELL).then_some(usize::from(self.last))
    }

    /// The cell with bit `index`.
    pub(crate) fn cell_at(&self, index: usize) -> Cell {
        let n = usize::from(self.n);
        Cell::new((index % n) as u8, (index / n) as u8)
    }

    pub(crate) fn on_board(&self, cell: Cell) -> bool {
        cell.column() < self.n && cell.row() < self.n
    }

    pub(crate) fn at(&self, cell: Cell) -> Option<Player> {
        if !self.on_board(cell) {
            return None;
        }
        let i = self.index(cell);
        Player::BOTH
            .into_iter()
            .find(|p| self.stones[p.index()].contains(i))
    }

    pub(crate) fn empty(&self) -> Bits<W> {
        Bits::from_mask(&GEOMETRY[usize::from(self.n)].cells) & !(self.stones[0] | self.stones[1])
    }

    /// Each cell's colour: 0 empty, 1 Black, 2 White (and past the board, the two entries
    /// that stand for the edges in the pattern tables: [`Colours`]).
    pub(crate) fn colours(&self) -> Colours {
        let mut colour = no_colours();
        for player in Player::BOTH {
            for i in self.stones[player.index()].iter() {
                colour[i] = 1 + player.index() as u8;
            }
        }
        colour
    }

    /// The swap is legal: the rule is on and White is to make its first move.
    pub(crate) fn swap_available(&self) -> bool {
        self.swap_rule && self.plies == 1 && self.winner.is_none()
    }

    /// Puts a stone of `player` on cell `index` and updates the edge sets and the winner.
    fn place(&mut self, player: Player, index: usize) {
        let p = player.index();
        let stone = Bits::single(index);
        self.stones[p] |= stone;
        let masks = Masks::of(self.n);
        let edges = &GEOMETRY[usize::from(self.n)].edges[p];
        let around = masks.dilate(&stone);
        let touches = [0, 1].map(|e| {
            stone.intersects(&Bits::from_mask(&edges[e])) || around.intersects(&self.reach[p][e])
        });
        if touches[0] || touches[1] {
            let group = masks.flood(stone, &self.stones[p]);
            for (reach, touched) in self.reach[p].iter_mut().zip(touches) {
                if touched {
                    *reach |= group;
                }
            }
            if touches[0] && touches[1] {
                self.winner = Some(player);
            }
        }
    }

    /// The empty cells where `player` would win at once: next to (or on) both of its edge
    /// sets.
    pub(crate) fn winning_cells(&self, player: Player) -> Bits<W> {
        let p = player.index();
        let masks = Masks::of(self.n);
        let edges = &GEOMETRY[usize::from(self.n)].edges[p];
        let near = |e: usize| masks.dilate(&self.reach[p][e]) | Bits::from_mask(&edges[e]);
        near(0) & near(1) & self.empty()
    }

    /// This position after the player to move puts a stone on cell `index` (empty).
    pub(crate) fn after_stone(&self, index: usize) -> Self {
        let mut next = self.clone();
        next.place(self.to_move, index);
        next.plies += 1;
        next.to_move = self.to_move.opponent();
        next
    }

    /// The swap: Black's one stone becomes White's, mirrored in the long diagonal.
    fn swap(&mut self) {
        // Without a black stone (an illegal swap) there is nothing to move.
        let first = self.stones[Player::Black.index()].iter().next();
        if let Some(index) = first {
            let mirrored = self.index(self.cell_at(index).transposed());
            self.stones[Player::Black.index()] = Bits::EMPTY;
            self.reach[Player::Black.index()] = [Bits::EMPTY; 2];
            self.place(Player::White, mirrored);
        }
    }

    /// The cells of `open` on the shortest chains between `player`'s edges through `own`
    /// (free) and `open` (one each): those where a stone of the player's leaves one cell
    /// less to fill. Empty when no chain runs through `own` and `open`, or one of `own`
    /// alone already does.
    pub(crate) fn closest(&self, player: Player, own: Bits<W>, open: Bits<W>) -> Bits<W> {
        let masks = Masks::of(self.n);
        let edges = &GEOMETRY[usize::from(self.n)].edges[player.index()];
        let edges = [0, 1].map(|e| Bits::from_mask(&edges[e]));
        // reach[e][k]: the cells a chain from edge `e` reaches over at most `k` open cells.
        let mut reach = [Vec::new(), Vec::new()];
        for (e, layers) in reach.iter_mut().enumerate() {
            let mut set = masks.flood(edges[e] & own, &own);
            loop {
                layers.push(set);
                let next = set | ((masks.dilate(&set) | edges[e]) & open);
                let next = masks.flood(next, &(next | own));
                if next == set {
                    break;
                }
                set = next;
            }
        }
        let Some(distance) = reach[0].iter().position(|set| set.intersects(&edges[1])) else {
            return Bits::EMPTY;
        };
        // A cell on a shortest chain is `i` open cells from one edge, itself counted, and
        // `distance + 1 - i` from the other.
        (1..=distance).fold(Bits::EMPTY, |on, i| {
            let far = reach[1][(distance + 1 - i).min(reach[1].len() - 1)];
            on | (reach[0][i] & far & open)
        })
    }

    /// Whether `player`'s stones connect its two edges (on any board, full or not).
    fn connects(&self, player: Player) -> bool {
        let masks = Masks::of(self.n);
        let edges = &GEOMETRY[usize::from(self.n)].edges[player.index()];
        let own = self.stones[player.index()];
        let start = Bits::from_mask(&edges[0]) & own;
        masks.connects(start, &Bits::from_mask(&edges[1]), &own)
    }

    /// The player whose stones connect its edges, if one does.
    pub(crate) fn connected(&self) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|&player| self.connects(player))
    }

    /// The winner of a full board: exactly one player connects; test Black.
    fn full_board_winner(&self) -> Player {
        if self.connects(Player::Black) {
            Player::Black
        } else {
            Player::White
        }
    }
}

impl<const W: usize> Game for HexBoard<W> {
    type Action = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn status(&self) -> Status {
        match self.winner {
            Some(player) => Status::Over(Outcome::Win(player)),
            None => Status::Ongoing,
        }
    }

    fn legal_actions<E: Extend<Move>>(&self, out: &mut E) {
        if self.winner.is_some() {
            return;
        }
        let empty = self.empty();
        out.extend(empty.iter().map(|i| Move::Place(self.cell_at(i))));
        if self.swap_available() {
            out.extend([Move::Swap]);
        }
    }

    /// Plays a move. An illegal one leaves a position that breaks the rules.
    #[inline]
    fn play_unchecked(&mut self, action: Move) {
        match action {
            Move::Place(cell) if self.on_board(cell) => {
                let index = self.index(cell);
                self.place(self.to_move, index);
                self.last = index as u16;
            }
            Move::Place(_) => {}
            Move::Swap => {
                self.swap();
                self.last = NO_CELL;
            }
        }
        self.plies += 1;
        self.to_move = self.to_move.opponent();
    }

    fn position_hash(&self) -> u64 {
        let header = u64::from(self.n) << 32
            | u64::from(self.swap_available()) << 8
            | self.to_move.index() as u64;
        let mut h = mix64(header ^ 0x6865_7867_616d_6521);
        for word in self.stones[0].0.iter().chain(&self.stones[1].0) {
            h = mix64(h ^ *word);
        }
        mix64(h)
    }

    #[inline]
    fn num_legal_actions(&self) -> usize {
        if self.winner.is_some() {
            return 0;
        }
        self.empty().count() as usize + usize::from(self.swap_available())
    }

    /// Cells by `size * row + column` (their bits), and the swap as `size * size`.
    fn action_space(&self) -> Option<usize> {
        Some(usize::from(self.n).pow(2) + 1)
    }

    #[inline]
    fn action_index(&self, action: Move) -> usize {
        match action {
            Move::Place(cell) => self.index(cell),
            Move::Swap => usize::from(self.n).pow(2),
        }
    }

    fn action_from_index(&self, index: usize) -> Option<Move> {
        let n = usize::from(self.n);
        match index {
            i if i < n * n => Some(Move::Place(Cell::new((i % n) as u8, (i / n) as u8))),
            i if i == n * n => Some(Move::Swap),
            _ => None,
        }
    }

    #[inline]
    fn is_legal(&self, action: Move) -> bool {
        match action {
            _ if self.winner.is_some() => false,
            Move::Place(cell) => self.on_board(cell) && self.at(cell).is_none(),
            Move::Swap => self.swap_available(),
        }
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let n = self.num_legal_actions() as u32;
        if n == 0 {
            return None;
        }
        let k = rng.random_range(0..n);
        let empty = self.empty();
        Some(if k < empty.count() {
            Move::Place(self.cell_at(empty.nth(k)))
        } else {
            Move::Swap
        })
    }

    #[inline]
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        self.fill_playout(rng)
    }

    #[inline]
    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        self.fill_playout_marked(rng, played)
    }
}
