//! The Othello position and its rules; its playout kernels are in `playout.rs`, its text in
//! `text.rs`.

mod playout;
mod text;

use game_core::{Game, Outcome, PlayedActions, Player, Playout, Scored, Status, mix64};
use rand::{Rng, RngExt};

use crate::cpu::Kernel;
use crate::movegen::{self, Geometry};
use crate::notation::{Move, Square};
use playout::Placed;
pub(crate) use playout::nth_bit;

/// An Othello position on an `N`x`N` board: [`Othello`] (8x8) or [`Othello6`] (6x6).
///
/// Both sizes are this one implementation, compiled for each `N`: the board sits in the
/// top-left corner of a 64-bit frame (bit `8 * row + column`, row 0 at the top), and the masks
/// that stop shifts at the board's edges are constants of `N`.
///
/// Black moves first. When the player to move has no legal placement but the opponent has,
/// [`Move::Pass`] is its one legal action; when neither can place, the game is over, and the
/// player with more discs wins (equal discs: a draw).
///
/// ```
/// use game_core::{Game, Player};
/// use games_othello::{Move, Othello};
///
/// let mut game = Othello::new();
/// assert_eq!(game.legal_actions_vec().len(), 4); // d3, c4, f5, e6
/// game.play("d3".parse()?);
/// assert_eq!(game.discs(Player::Black), 4);
/// assert_eq!(game.discs(Player::White), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct OthelloBoard<const N: usize> {
    /// The discs of the player to move.
    me: u64,
    /// The discs of the opponent.
    them: u64,
    to_move: Player,
    /// The cells where the player to move can play (cached: every method needs it).
    moves: u64,
    /// Neither player can play.
    over: bool,
}

/// Othello on the standard 8x8 board.
pub type Othello = OthelloBoard<8>;

/// Othello on the 6x6 board used in MCTS coursework.
pub type Othello6 = OthelloBoard<6>;

impl<const N: usize> OthelloBoard<N> {
    const N: u32 = {
        assert!(N == 6 || N == 8, "Othello boards are 6x6 or 8x8");
        N as u32
    };
    pub(crate) const GEOMETRY: Geometry = Geometry::new(Self::N);
    const CELLS: u64 = Self::GEOMETRY.cells;

    /// The start position: two discs each in the centre, White on the diagonal from the
    /// top-left (d4 and e5 on 8x8, c3 and d4 on 6x6), Black to move.
    #[must_use]
    pub fn new() -> Self {
        let (low, high) = (Self::N / 2 - 1, Self::N / 2);
        let bit = |column: u32, row: u32| 1u64 << (8 * row + column);
        let white = bit(low, low) | bit(high, high);
        let black = bit(high, low) | bit(low, high);
        Self::from_discs(black, white, Player::Black)
    }

    /// The position with these discs and this player to move. Discs off the board are
    /// ignored; a cell claimed by both players counts as Black's.
    #[must_use]
    pub fn from_discs(black: u64, white: u64, to_move: Player) -> Self {
        let black = black & Self::CELLS;
        let white = white & Self::CELLS & !black;
        let (me, them) = match to_move {
            Player::Black => (black, white),
            Player::White => (white, black),
        };
        let mut board = OthelloBoard {
            me,
            them,
            to_move,
            moves: 0,
            over: false,
        };
        board.update_moves();
        board
    }

    /// The side length: 8 or 6.
    #[must_use]
    pub const fn size() -> u8 {
        N as u8
    }

    /// The discs of `player`, as a bitboard (bit `8 * row + column`, row 0 at the top).
    #[must_use]
    pub fn bits(&self, player: Player) -> u64 {
        if player == self.to_move {
            self.me
        } else {
            self.them
        }
    }

    /// How many discs `player` has.
    #[must_use]
    pub fn discs(&self, player: Player) -> u32 {
        self.bits(player).count_ones()
    }

    /// How many discs have been placed since the start position: the move number of game
    /// records. Passes are plies too, but a position does not remember them (two move orders
    /// with and without a forced pass reach the same position), so they are not counted.
    #[must_use]
    pub fn plies(&self) -> u32 {
        (self.me | self.them).count_ones().saturating_sub(4)
    }

    /// The cells where the player to move can place a disc, as a bitboard.
    #[must_use]
    pub fn mobility(&self) -> u64 {
        self.moves
    }

    /// The cells where `player` could place a disc if it were to move.
    #[must_use]
    pub fn mobility_of(&self, player: Player) -> u64 {
        if player == self.to_move {
            self.moves
        } else {
            movegen::moves(self.them, self.me, &Self::GEOMETRY)
        }
    }

    /// Who has a disc on `square`, if anyone.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<Player> {
        let bit = square.bit();
        if self.me & bit != 0 {
            Some(self.to_move)
        } else if self.them & bit != 0 {
            Some(self.to_move.opponent())
        } else {
            None
        }
    }

    /// Recomputes the cached mobility and end of game after the discs or the mover changed.
    #[inline]
    fn update_moves(&mut self) {
        self.moves = movegen::moves(self.me, self.them, &Self::GEOMETRY);
        self.over = self.moves == 0 && movegen::moves(self.them, self.me, &Self::GEOMETRY) == 0;
    }

    fn outcome_by_discs(black: u32, white: u32) -> Outcome {
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::Black),
            std::cmp::Ordering::Less => Outcome::Win(Player::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

impl<const N: usize> Default for OthelloBoard<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Game for OthelloBoard<N> {
    type Action = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn status(&self) -> Status {
        if self.over {
            Status::Over(Self::outcome_by_discs(
                self.discs(Player::Black),
                self.discs(Player::White),
            ))
        } else {
            Status::Ongoing
        }
    }

    fn legal_actions<E: Extend<Move>>(&self, out: &mut E) {
        if self.moves != 0 {
            let mut moves = self.moves;
            out.extend(std::iter::from_fn(|| {
                let cell = moves.trailing_zeros();
                moves &= moves.wrapping_sub(1);
                (cell < 64).then(|| Move::Place(Square::from_index(cell as u8)))
            }));
        } else if !self.over {
            out.extend([Move::Pass]);
        }
    }

    /// Places a disc (or passes). An illegal move leaves a position that breaks the rules.
    #[inline]
    fn play_unchecked(&mut self, action: Move) {
        if let Move::Place(square) = action {
            let cell = square.bit() & Self::CELLS;
            let flipped = movegen::flips(self.me, self.them, cell, &Self::GEOMETRY);
            self.me |= cell | flipped;
            self.them &= !flipped;
        }
        std::mem::swap(&mut self.me, &mut self.them);
        self.to_move = self.to_move.opponent();
        self.update_moves();
    }

    /// Squares by their index `8 * row + column` (on 6x6 too), and `pass` as 64.
    fn action_space(&self) -> Option<usize> {
        Some(65)
    }

    fn action_index(&self, action: Move) -> usize {
        match action {
            Move::Place(square) => usize::from(square.index()),
            Move::Pass => 64,
        }
    }

    fn action_from_index(&self, index: usize) -> Option<Move> {
        match index {
            64 => Some(Move::Pass),
            i if i < 64 && i % 8 < N && i / 8 < N => Some(Move::Place(Square::from_index(i as u8))),
            _ => None,
        }
    }

    #[inline]
    fn position_hash(&self) -> u64 {
        let (black, white) = (self.bits(Player::Black), self.bits(Player::White));
        let side = match self.to_move {
            Player::Black => 0,
            Player::White => 0x5bd1_e995_a4c3_9d2b,
        };
        mix64(black ^ mix64(white ^ side))
    }

    #[inline]
    fn num_legal_actions(&self) -> usize {
        match (self.moves, self.over) {
            (0, false) => 1,
            (moves, _) => moves.count_ones() as usize,
        }
    }

    #[inline]
    fn is_legal(&self, action: Move) -> bool {
        match action {
            Move::Place(square) => self.moves & square.bit() & Self::CELLS != 0,
            Move::Pass => self.moves == 0 && !self.over,
        }
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        match (self.moves, self.over) {
            (0, true) => None,
            (0, false) => Some(Move::Pass),
            (moves, _) => {
                let cell = nth_bit(moves, rng.random_range(0..moves.count_ones()));
                Some(Move::Place(Square::from_index(cell.trailing_zeros() as u8)))
            }
        }
    }

    /// Plays uniformly random moves until neither player can move, on local copies of the
    /// bitboards: no move list, no allocation. On x86-64 processors with AVX2 it runs a copy
    /// of the same code compiled for them.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        self.playout_with(Kernel::best(), rng, &mut ())
    }

    /// The same playout, noting the squares each side placed on as it goes (an `or` a ply),
    /// and marking them at the end a word at a time.
    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let first = self.to_move;
        let mut placed = Placed::default();
        let playout = self.playout_with(Kernel::best(), rng, &mut placed);
        for (side, player) in [first, first.opponent()].into_iter().enumerate() {
            played.words_mut(player)[0] |= placed.squares[side];
            if placed.passed[side] {
                played.insert(player, self.action_index(Move::Pass));
            }
        }
        playout
    }
}

impl<const N: usize> Scored for OthelloBoard<N> {
    /// `player`'s discs minus the opponent's.
    fn score_margin(&self, player: Player) -> i32 {
        self.discs(player) as i32 - self.discs(player.opponent()) as i32
    }
}
