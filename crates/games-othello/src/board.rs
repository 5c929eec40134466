//! The Othello position and its rules.

use std::fmt;
use std::str::FromStr;

use game_core::{Game, Outcome, PlayedActions, Player, Playout, Scored, Status, mix64};
use rand::{Rng, RngExt};

use crate::bitboard::{self, Geometry};
use crate::cpu::Kernel;
use crate::notation::{Move, MovesError, MovesErrorKind, ParseBoardError, Square};

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
pub struct Board<const N: usize> {
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
pub type Othello = Board<8>;

/// Othello on the 6x6 board used in MCTS coursework.
pub type Othello6 = Board<6>;

impl<const N: usize> Board<N> {
    const N: u32 = {
        assert!(N == 6 || N == 8, "Othello boards are 6x6 or 8x8");
        N as u32
    };
    const GEOMETRY: Geometry = Geometry::new(Self::N);
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
        let mut board = Board {
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
            bitboard::moves(self.them, self.me, &Self::GEOMETRY)
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

    /// This position after a list of moves such as `"d3c5f6"` or `"f5 d6 c3 pass"`: squares
    /// and `pass`, with or without spaces, any case. A pass that the rules force may be left
    /// out, as game records do. `self` is left unchanged.
    ///
    /// # Errors
    ///
    /// [`MovesError`] names the first bad move, where it starts in the text, and why.
    pub fn after_moves(&self, text: &str) -> Result<Self, MovesError> {
        let mut board = self.clone();
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at].is_ascii_whitespace() {
                at += 1;
                continue;
            }
            let error = |kind| MovesError {
                input: text.to_owned(),
                offset: at,
                kind,
            };
            let (action, len) = if text[at..].to_ascii_lowercase().starts_with("pass") {
                (Move::Pass, 4)
            } else {
                let token = text.get(at..at + 2).unwrap_or(&text[at..]);
                match token.parse::<Square>() {
                    Ok(square) if square.fits(Self::N) => (Move::Place(square), 2),
                    Ok(_) => return Err(error(MovesErrorKind::OffBoard(token.to_owned()))),
                    Err(_) => return Err(error(MovesErrorKind::NotAMove(token.to_owned()))),
                }
            };
            if board.over {
                return Err(error(MovesErrorKind::GameOver));
            }
            if matches!(action, Move::Place(_)) && board.moves == 0 {
                board.play_unchecked(Move::Pass); // a forced pass, left out of the record
            }
            if !board.is_legal(action) {
                return Err(error(MovesErrorKind::Illegal(action)));
            }
            board.play_unchecked(action);
            at += len;
        }
        Ok(board)
    }

    /// The position as a board string: `N * N` cells, row by row from the top, `X` for Black,
    /// `O` for White, `-` for empty; a space; and `X` or `O` for the player to move. The
    /// inverse of [`FromStr`].
    ///
    /// ```
    /// use games_othello::Othello6;
    ///
    /// let start = Othello6::new();
    /// assert_eq!(start.to_board_string(), "--------------OX----XO-------------- X");
    /// assert_eq!(start.to_board_string().parse::<Othello6>().unwrap(), start);
    /// ```
    #[must_use]
    pub fn to_board_string(&self) -> String {
        let mut text = String::with_capacity(N * N + 2);
        for square in Square::all(Self::N) {
            text.push(match self.at(square) {
                Some(Player::Black) => 'X',
                Some(Player::White) => 'O',
                None => '-',
            });
        }
        text.push(' ');
        text.push(if self.to_move == Player::Black {
            'X'
        } else {
            'O'
        });
        text
    }

    /// Recomputes the cached mobility and end of game after the discs or the mover changed.
    #[inline]
    fn update_moves(&mut self) {
        self.moves = bitboard::moves(self.me, self.them, &Self::GEOMETRY);
        self.over = self.moves == 0 && bitboard::moves(self.them, self.me, &Self::GEOMETRY) == 0;
    }

    fn outcome_by_discs(black: u32, white: u32) -> Outcome {
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::Black),
            std::cmp::Ordering::Less => Outcome::Win(Player::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

impl<const N: usize> Default for Board<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Game for Board<N> {
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
            let flipped = bitboard::flips(self.me, self.them, cell, &Self::GEOMETRY);
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

/// What a playout reports of its moves: each placement and pass, by the side that made it (0
/// for the player to move at the start, 1 for the other).
trait Marks {
    fn place(&mut self, side: u32, cell: u64);
    fn pass(&mut self, side: u32);
}

/// Nothing: the plain playout, where the calls compile away.
impl Marks for () {
    #[inline]
    fn place(&mut self, _: u32, _: u64) {}
    #[inline]
    fn pass(&mut self, _: u32) {}
}

/// The squares each side placed on, as bits, and whether it passed.
#[derive(Default)]
struct Placed {
    squares: [u64; 2],
    passed: [bool; 2],
}

impl Marks for Placed {
    #[inline]
    fn place(&mut self, side: u32, cell: u64) {
        self.squares[side as usize] |= cell;
    }
    #[inline]
    fn pass(&mut self, side: u32) {
        self.passed[side as usize] = true;
    }
}

impl<const N: usize> Board<N> {
    /// The random playout, run by one compiled copy of it.
    #[inline]
    fn playout_with<R: Rng + ?Sized>(
        &mut self,
        kernel: Kernel,
        rng: &mut R,
        marks: &mut impl Marks,
    ) -> Playout {
        match kernel {
            Kernel::Portable => self.playout(rng, nth_bit, marks),
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: a kernel is only chosen (by `Kernel::best`, or a test from
            // `Kernel::available`) on a processor with its features, checked at run time;
            // nothing else about the call is unsafe.
            kernel @ (Kernel::Avx2 | Kernel::Avx2Pdep) => unsafe {
                self.playout_avx2(rng, kernel == Kernel::Avx2Pdep, marks)
            },
        }
    }

    /// [`Board::playout`] compiled for AVX2, BMI2 and POPCNT (see [`Kernel`]), with `pdep` to
    /// pick the `k`-th move if `pdep`.
    ///
    /// # Safety
    ///
    /// The processor must have AVX2, BMI2 and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2,popcnt")]
    fn playout_avx2<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        pdep: bool,
        marks: &mut impl Marks,
    ) -> Playout {
        use std::arch::x86_64::_pdep_u64;
        if pdep {
            // The `k`-th set bit in one instruction: deposit bit `k` into `bits`.
            self.playout(rng, |bits, k| _pdep_u64(1 << k, bits), marks)
        } else {
            self.playout(rng, nth_bit, marks)
        }
    }

    /// The random playout, written once for every target.
    #[allow(
        clippy::inline_always,
        reason = "compiled into each kernel, with its features"
    )]
    #[inline(always)]
    fn playout<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        nth_bit: impl Fn(u64, u32) -> u64,
        marks: &mut impl Marks,
    ) -> Playout {
        let (mut me, mut them, mut moves) = (self.me, self.them, self.moves);
        let mut plies = 0u32;
        if !self.over {
            loop {
                if moves == 0 {
                    // Pass, unless the opponent cannot move either.
                    let theirs = bitboard::moves(them, me, &Self::GEOMETRY);
                    if theirs == 0 {
                        break;
                    }
                    marks.pass(plies & 1);
                    std::mem::swap(&mut me, &mut them);
                    moves = theirs;
                } else {
                    let cell = nth_bit(moves, rng.random_range(0..moves.count_ones()));
                    marks.place(plies & 1, cell);
                    let flipped = bitboard::flips(me, them, cell, &Self::GEOMETRY);
                    let placed = me | cell | flipped;
                    me = them & !flipped;
                    them = placed;
                    moves = bitboard::moves(me, them, &Self::GEOMETRY);
                }
                plies += 1;
            }
        }
        if !plies.is_multiple_of(2) {
            self.to_move = self.to_move.opponent();
        }
        self.me = me;
        self.them = them;
        self.moves = 0;
        self.over = true;
        let outcome = self.status().outcome().expect("the game is over");
        Playout { outcome, plies }
    }
}

impl<const N: usize> Scored for Board<N> {
    /// `player`'s discs minus the opponent's.
    fn score_margin(&self, player: Player) -> i32 {
        self.discs(player) as i32 - self.discs(player.opponent()) as i32
    }
}

/// Only the `k`-th lowest set bit of `bits` (counting from 0).
///
/// A plain loop: measured faster here than a branch-free select by byte counts and a table,
/// whose longer chain of dependent steps costs more than the loop's mispredicted exit.
#[inline]
fn nth_bit(mut bits: u64, k: u32) -> u64 {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

impl<const N: usize> FromStr for Board<N> {
    type Err = ParseBoardError;

    /// Parses a board string (see [`Board::to_board_string`]): `N * N` cells of `X`, `O` and
    /// `-` (whitespace between them is ignored), then `X` or `O` for the player to move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let error = |reason: String| ParseBoardError {
            input: s.to_owned(),
            reason,
        };
        let mut chars = s.chars().filter(|c| !c.is_whitespace());
        let (mut black, mut white) = (0u64, 0u64);
        for (i, square) in Square::all(Self::N).enumerate() {
            match chars.next() {
                Some('X' | 'x' | 'B' | 'b' | '*') => black |= square.bit(),
                Some('O' | 'o' | 'W' | 'w') => white |= square.bit(),
                Some('-' | '.') => {}
                Some(c) => {
                    return Err(error(format!(
                        "cell {} ({square}) is {c:?}, expected X, O or -",
                        i + 1
                    )));
                }
                None => return Err(error(format!("only {i} cells, expected {}", N * N))),
            }
        }
        let to_move = match chars.next() {
            Some('X' | 'x' | 'B' | 'b' | '*') => Player::Black,
            Some('O' | 'o' | 'W' | 'w') => Player::White,
            Some(c) => {
                return Err(error(format!(
                    "the player to move is {c:?}, expected X or O"
                )));
            }
            None => {
                return Err(error(
                    "the player to move (X or O) is missing after the cells".into(),
                ));
            }
        };
        if let Some(c) = chars.next() {
            return Err(error(format!("unexpected {c:?} after the player to move")));
        }
        Ok(Self::from_discs(black, white, to_move))
    }
}

impl<const N: usize> fmt::Display for Board<N> {
    /// The board with coordinates, `X` for Black, `O` for White, `.` for empty, `*` where the
    /// player to move may play:
    ///
    /// ```
    /// let text = games_othello::Othello6::new().to_string();
    /// assert_eq!(text, "  a b c d e f
    /// 1 . . . . . .
    /// 2 . . * . . .
    /// 3 . * O X . .
    /// 4 . . X O * .
    /// 5 . . . * . .
    /// 6 . . . . . .
    /// X to move");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " ")?;
        for column in 0..N {
            write!(f, " {}", char::from(b'a' + column as u8))?;
        }
        for row in 0..N {
            write!(f, "\n{}", row + 1)?;
            for column in 0..N {
                let square = Square::new(column as u8, row as u8);
                let cell = match self.at(square) {
                    Some(Player::Black) => 'X',
                    Some(Player::White) => 'O',
                    None if self.moves & square.bit() != 0 => '*',
                    None => '.',
                };
                write!(f, " {cell}")?;
            }
        }
        match self.status() {
            Status::Ongoing => {
                let mover = if self.to_move == Player::Black {
                    'X'
                } else {
                    'O'
                };
                write!(f, "\n{mover} to move")?;
                if self.moves == 0 {
                    write!(f, " (must pass)")?;
                }
                Ok(())
            }
            Status::Over(outcome) => write!(
                f,
                "\ngame over, {outcome}: X {} O {}",
                self.discs(Player::Black),
                self.discs(Player::White)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The game `random_action` and `play` make, one move at a time, with this generator:
    /// its final position, its plies (passes included), and the squares each side placed on
    /// and whether it passed (side 0 moves first).
    fn move_by_move<const N: usize>(
        mut board: Board<N>,
        rng: &mut Xoshiro256PlusPlus,
    ) -> (Board<N>, u32, Placed) {
        let mut plies = 0;
        let mut placed = Placed::default();
        while let Some(action) = board.random_action(rng) {
            let side = plies as usize % 2;
            match action {
                Move::Place(square) => placed.squares[side] |= square.bit(),
                Move::Pass => placed.passed[side] = true,
            }
            board.play(action);
            plies += 1;
        }
        (board, plies, placed)
    }

    /// Every compiled copy of the playout plays the very game that `random_action` and `play`
    /// make from the same seed (they draw the same numbers and pick the same `k`-th move), so
    /// a fault in the vectorised code shows as a different final position; marking, it marks
    /// that game's moves.
    fn playouts_match_move_by_move<const N: usize>() {
        let mut openings = Xoshiro256PlusPlus::seed_from_u64(N as u64);
        for seed in 0..300 {
            // From the start and from positions some random moves in.
            let mut start = Board::<N>::new();
            for _ in 0..seed % 30 {
                if let Some(action) = start.random_action(&mut openings) {
                    start.play(action);
                }
            }
            let (expected, plies, expected_marks) =
                move_by_move(start.clone(), &mut Xoshiro256PlusPlus::seed_from_u64(seed));

            for kernel in Kernel::available() {
                let mut board = start.clone();
                let rng = &mut Xoshiro256PlusPlus::seed_from_u64(seed);
                let result = board.playout_with(kernel, rng, &mut ());
                assert_eq!(
                    (&board, result.plies),
                    (&expected, plies),
                    "{kernel:?}, seed {seed}"
                );
                let mut board = start.clone();
                let mut marks = Placed::default();
                let rng = &mut Xoshiro256PlusPlus::seed_from_u64(seed);
                board.playout_with(kernel, rng, &mut marks);
                assert_eq!(
                    (marks.squares, marks.passed),
                    (expected_marks.squares, expected_marks.passed),
                    "{kernel:?}, seed {seed}: the marks"
                );
            }
        }
    }

    #[test]
    fn every_compiled_playout_plays_the_move_by_move_game_8x8() {
        playouts_match_move_by_move::<8>();
    }

    #[test]
    fn every_compiled_playout_plays_the_move_by_move_game_6x6() {
        playouts_match_move_by_move::<6>();
    }
}
