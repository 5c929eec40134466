//! An exact Connect Four solver, after Pascal Pons' tutorial solver ("Solving Connect 4: how to
//! build a perfect AI").

use std::time::Instant;

use game_core::{
    Game, Wdl,
    solve::{Deadline, Proven, Solution, Solve},
};
use thiserror::Error;

use crate::board::{Connect4, winning_cells};
use crate::{Bits, Book, Column, Connect4Board};

/// Entries of the default transposition table: a prime just above 2^23, so that with 32-bit
/// partial keys the slot and the stored key together tell apart every key of up to 55 bits (the
/// Chinese remainder theorem), which is every board with `width * (height + 1) <= 55`. Any
/// larger odd number of entries does too; no smaller one does.
const TABLE_SIZE: usize = 8_388_617;

/// The bytes of one table entry: a 32-bit partial key and a one-byte bound.
const ENTRY_BYTES: usize = size_of::<u32>() + size_of::<i8>();

/// The error of [`Solver::score`] and [`Solver::best_move`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum SolveError {
    /// The game is already over: there is nothing to solve.
    #[error("the game is already over")]
    GameOver,
    /// The board is too large for the solver's table (more than 55 bits).
    #[error("the solver handles boards with width * (height + 1) up to 55 bits, not {0}")]
    BoardTooLarge(u32),
}

/// Solves Connect Four positions exactly.
///
/// The score of a position is for the player to move, in the convention of the public test
/// sets: 0 for a draw; if the player to move can win with its `k`-th stone at best,
/// `(width * height) / 2 + 1 - k` (22 - k on 7x6); the negative of that if the opponent wins
/// with its `k`-th stone.
///
/// How: NegaMax alpha-beta with
///
/// - **null windows on the score**: the exact score is found by a binary search of yes/no
///   questions ("is the score above s?"), each a search with the window `[s, s + 1]`, which
///   prunes far more than a full window;
/// - **bounds from the board**: nobody can win sooner than their next stone or later than the
///   last cell, so the window narrows before any move is tried;
/// - **no losing moves**: moves that let the opponent win at once, or play under the opponent's
///   winning cell, are never searched; two opponent threats to parry means the position is lost;
/// - **ordering**: moves that create the most winning cells first, ties centre first;
/// - **a transposition table** of upper and lower bounds, 8M entries of 5 bytes (about 40 MB,
///   the least that tells every position apart; [`with_table_bytes`](Solver::with_table_bytes)
///   for more).
///
/// The weak mode only asks win, draw or loss (scores 1, 0, -1): much faster on positions whose
/// score is far from 0.
///
/// ```
/// use games_connect4::{Connect4, Solver};
///
/// let mut solver = Solver::new();
/// // The first position of the End-Easy test set: the player to move loses, at the last cell.
/// let position: Connect4 = "2252576253462244111563365343671351441".parse()?;
/// assert_eq!(solver.score(&position, false)?, -1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Solver {
    /// The table's entries: `slots` keys and bounds.
    slots: usize,
    keys: Vec<u32>,
    values: Vec<i8>,
    nodes: u64,
    deadline: Deadline,
    book: Option<&'static Book>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty table (about 40 MB, written once here).
    #[must_use]
    pub fn new() -> Self {
        Solver::with_table_bytes(0)
    }

    /// A solver whose table takes about `bytes` bytes (5 a position), and at least the 40 MB
    /// of [`new`](Solver::new): a smaller table could not tell the positions apart by their
    /// 32-bit partial keys.
    ///
    /// ```
    /// use games_connect4::Solver;
    ///
    /// let mut solver = Solver::with_table_bytes(64 << 20);
    /// assert_eq!(solver.score(&"4141414".parse()?, false), Err(games_connect4::SolveError::GameOver));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_table_bytes(bytes: usize) -> Self {
        // Odd, so that the slot and the 32-bit key still tell every key apart.
        let slots = (bytes / ENTRY_BYTES).max(TABLE_SIZE) | 1;
        Solver {
            slots,
            keys: written_zeros(slots),
            values: written_zeros(slots),
            nodes: 0,
            deadline: Deadline::new(None),
            book: None,
        }
    }

    /// The same solver, answering the positions of `book` (7x6) from it when it plays
    /// ([`Solve`]): [`Book::standard`] is the one shipped with the crate; leak a book of your
    /// own (`Box::leak`) to use it instead. [`score`](Solver::score) and
    /// [`best_move`](Solver::best_move) themselves always search.
    #[must_use]
    pub fn with_book(mut self, book: &'static Book) -> Self {
        self.book = Some(book);
        self
    }

    /// The book's move and score for `position`, if there is a book and it has the position.
    fn book_move(&self, position: &Connect4) -> Option<(Column, i32)> {
        let book = self.book?;
        ((position.width(), position.height()) == (7, 6))
            .then(|| book.get(position))
            .flatten()
    }

    /// Positions visited since the solver was made or [`clear`](Solver::clear)ed.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the table and the node count.
    pub fn clear(&mut self) {
        self.keys.fill(0);
        self.values.fill(0);
        self.nodes = 0;
    }

    /// The exact score of `position` for the player to move (with `weak`, only its sign: 1, 0
    /// or -1).
    ///
    /// # Errors
    ///
    /// [`SolveError`] when the game is over or the board is too large for the table.
    pub fn score(&mut self, position: &Connect4, weak: bool) -> Result<i32, SolveError> {
        self.deadline = Deadline::new(None);
        let p = Self::checked(position)?;
        Ok(self.search_score(&p, weak))
    }

    /// [`score`](Solver::score), giving up (`Ok(None)`) once `deadline` has passed; what it
    /// learnt stays in the table.
    ///
    /// # Errors
    ///
    /// As [`score`](Solver::score).
    pub fn score_by(
        &mut self,
        position: &Connect4,
        weak: bool,
        deadline: Option<Instant>,
    ) -> Result<Option<i32>, SolveError> {
        self.deadline = Deadline::new(deadline);
        let p = Self::checked(position)?;
        let score = self.search_score(&p, weak);
        Ok((!self.deadline.expired()).then_some(score))
    }

    /// A best move of `position` (the fastest win, the slowest loss, or a draw) and the
    /// position's exact score: the score by [`score`](Solver::score), then one null-window
    /// search per move, centre first, until a move is found that keeps it.
    ///
    /// ```
    /// use games_connect4::{Connect4, Solver};
    ///
    /// let mut solver = Solver::new();
    /// // Three stones of the first player in column 4: the fourth wins, with its fourth stone.
    /// let position: Connect4 = "414141".parse()?;
    /// assert_eq!(solver.best_move(&position)?, ("4".parse()?, 22 - 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`score`](Solver::score).
    pub fn best_move(&mut self, position: &Connect4) -> Result<(Column, i32), SolveError> {
        let best = self.best_move_by(position, None)?;
        Ok(best.expect("no deadline"))
    }

    /// [`best_move`](Solver::best_move), giving up (`Ok(None)`) once `deadline` has passed.
    fn best_move_by(
        &mut self,
        position: &Connect4,
        deadline: Option<Instant>,
    ) -> Result<Option<(Column, i32)>, SolveError> {
        self.deadline = Deadline::new(deadline);
        let p = Self::checked(position)?;
        let score = self.search_score(&p, false);
        if self.deadline.expired() {
            return Ok(None);
        }
        let mover = position.to_move();
        for &index in &p.order[..p.width as usize] {
            let column = Column::new(index as u8);
            if !position.is_legal(column) {
                continue;
            }
            let best = match position.after(column).status().outcome() {
                // A win at once, or the last cell of a drawn board.
                Some(outcome) => (outcome.for_player(mover) == Wdl::Win) == (score > 0),
                None => self.at_most(&p.play(p.possible() & p.column_cells(index)), -score),
            };
            if self.deadline.expired() {
                return Ok(None);
            }
            if best {
                return Ok(Some((column, score)));
            }
        }
        unreachable!("some move keeps the position's score")
    }

    /// The solver's copy of `position`, if it can solve it.
    fn checked(position: &Connect4) -> Result<Position, SolveError> {
        let bits = u32::from(position.width()) * (u32::from(position.height()) + 1);
        if bits > 55 {
            return Err(SolveError::BoardTooLarge(bits));
        }
        if Game::status(position).is_over() {
            return Err(SolveError::GameOver);
        }
        Ok(Position::of(position))
    }

    /// The score of `p` (ongoing) for the player to move: a binary search of null-window
    /// searches.
    fn search_score(&mut self, p: &Position, weak: bool) -> i32 {
        if p.can_win_next() {
            return if weak { 1 } else { (p.cells + 1 - p.moves) / 2 };
        }
        let (mut min, mut max) = (-(p.cells - p.moves) / 2, (p.cells + 1 - p.moves) / 2);
        if weak {
            (min, max) = (-1, 1);
        }
        while min < max && !self.deadline.expired() {
            let mut mid = min + (max - min) / 2;
            if mid <= 0 && min / 2 < mid {
                mid = min / 2;
            } else if mid >= 0 && max / 2 > mid {
                mid = max / 2;
            }
            let r = self.negamax(p, mid, mid + 1);
            if r <= mid {
                max = r;
            } else {
                min = r;
            }
        }
        if weak { min.signum() } else { min }
    }

    /// Whether the player to move in `p` (ongoing, no immediate win) scores at most `score`:
    /// one null-window search.
    fn at_most(&mut self, p: &Position, score: i32) -> bool {
        if p.can_win_next() {
            return (p.cells + 1 - p.moves) / 2 <= score;
        }
        self.negamax(p, score, score + 1) <= score
    }

    fn negamax(&mut self, p: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        if self.deadline.passed() {
            return alpha; // thrown away: the caller sees the deadline passed
        }
        self.nodes += 1;
        let next = p.non_losing_moves();
        if next == 0 {
            return -(p.cells - p.moves) / 2;
        }
        if p.moves >= p.cells - 2 {
            return 0;
        }
        let min = -(p.cells - 2 - p.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let max = (p.cells - 1 - p.moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = p.key();
        // The default size by a constant (a multiplication), any other by a division.
        let slot = if self.slots == TABLE_SIZE {
            (key % TABLE_SIZE as u64) as usize
        } else {
            (key % self.slots as u64) as usize
        };
        let bounds = Bounds::of(p);
        if self.keys[slot] == key as u32 && self.values[slot] != 0 {
            match bounds.decode(self.values[slot]) {
                Bound::Lower(min) if alpha < min => {
                    alpha = min;
                    if alpha >= beta {
                        return alpha;
                    }
                }
                Bound::Upper(max) if beta > max => {
                    beta = max;
                    if alpha >= beta {
                        return beta;
                    }
                }
                _ => {}
            }
        }
        // Moves by the winning cells they create, ties centre first.
        let mut moves = [(0u32, 0u64); 16];
        let mut count = 0;
        for &column in &p.order[..p.width as usize] {
            let cell = next & p.column_cells(column);
            if cell != 0 {
                moves[count] = (p.winning_cells_after(cell).count_ones(), cell);
                count += 1;
            }
        }
        let moves = &mut moves[..count];
        // Insertion sort by score, highest first; stable, so equal scores stay centre first.
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && moves[j - 1].0 < moves[j].0 {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
        for &(_, cell) in moves.iter() {
            let child = p.play(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.deadline.expired() {
                return alpha;
            }
            if score >= beta {
                self.keys[slot] = key as u32;
                self.values[slot] = bounds.encode(Bound::Lower(score));
                return score;
            }
            alpha = alpha.max(score);
        }
        self.keys[slot] = key as u32;
        self.values[slot] = bounds.encode(Bound::Upper(alpha));
        alpha
    }
}

/// The solver as the `solver` agent uses it: exact values with the plies to the end (the
/// winner's fastest, the loser's slowest; a draw fills the board), and the best move found
/// with one null-window search per move against the position's proven score
/// ([`best_move`](Solver::best_move)), or read from the book. On boards of any [`Bits`]
/// type, up to 55 bits (`width * (height + 1)`); larger boards are beyond its reach (`None`).
impl<B: Bits> Solve<Connect4Board<B>> for Solver {
    fn prove(&mut self, position: &Connect4Board<B>, deadline: Option<Instant>) -> Option<Proven> {
        let position = position.narrowed()?;
        let score = match self.book_move(&position) {
            Some((_, score)) => score,
            None => self.score_by(&position, false, deadline).ok()??,
        };
        let p = Position::of(&position);
        Some(proven(score, p.moves, p.cells))
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn solve(
        &mut self,
        position: &Connect4Board<B>,
        deadline: Option<Instant>,
    ) -> Solution<Column> {
        let Some(position) = position.narrowed() else {
            return Solution::default();
        };
        let position = &position;
        let best = match self.book_move(position) {
            Some(entry) => Some(entry),
            None => self.best_move_by(position, deadline).ok().flatten(),
        };
        let Some((column, score)) = best else {
            return Solution::default();
        };
        let cells = i32::from(position.width()) * i32::from(position.height());
        let value = proven(score, position.plies() as i32, cells);
        Solution {
            actions: vec![(column, value)],
            best: Some((column, value)),
        }
    }
}

/// A score in the test sets' convention, for the player to move after `moves` stones on a
/// board of `cells`, as a [`Proven`] value with its plies.
fn proven(score: i32, moves: i32, cells: i32) -> Proven {
    // A win with the next stone scores (cells + 1 - moves) / 2, and each two plies later one
    // less: a win in `t` plies (odd) scores (cells + 2 - moves - t) / 2.
    let win_in = |score: i32, moves: i32| {
        let t = cells + 2 - moves - 2 * score;
        (t - (1 - t % 2)) as u32 // the odd one of the two that round to this score
    };
    match score.signum() {
        1 => Proven::new(Wdl::Win).in_plies(win_in(score, moves)),
        -1 => Proven::new(Wdl::Loss).in_plies(win_in(-score, moves + 1) + 1),
        _ => Proven::new(Wdl::Draw).in_plies((cells - moves) as u32),
    }
}

/// `len` zeros, written now. `vec![0; len]` asks the allocator for zeroed memory, which the
/// operating system hands out page by page at the first touch: the table's first use then pays
/// a page fault per 4 KiB, and these faults were most of the time of a short solve (End-Easy
/// test set: 40 us per position before, 10 us after). Writing the zeros (hidden from the
/// optimiser, which would turn allocating and zeroing back into a zeroed allocation) pays for
/// all the pages once, when the solver is made.
fn written_zeros<T: Copy + Default>(len: usize) -> Vec<T> {
    let mut table = Vec::with_capacity(len);
    table.resize(len, std::hint::black_box(T::default()));
    table
}

/// A bound on a position's score, as the table keeps it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    /// The score is at least this (a cut-off found a move this good).
    Lower(i32),
    /// The score is at most this (every move was searched).
    Upper(i32),
}

/// The table's one-byte encoding of bounds for a board size: 0 is an empty entry, upper bounds
/// take `1..=max - min + 1` and lower bounds the values after them (at most 80 on boards of up
/// to 55 bits, so an `i8` holds them).
#[derive(Clone, Copy)]
struct Bounds {
    min: i32,
    max: i32,
}

impl Bounds {
    fn of(p: &Position) -> Bounds {
        Bounds {
            min: p.min_score(),
            max: (p.cells + 1) / 2 - 3,
        }
    }

    fn encode(self, bound: Bound) -> i8 {
        let value = match bound {
            Bound::Upper(score) => score - self.min + 1,
            Bound::Lower(score) => score - self.min + 1 + (self.max - self.min + 1),
        };
        value as i8
    }

    fn decode(self, value: i8) -> Bound {
        let value = i32::from(value);
        let span = self.max - self.min + 1;
        if value > span {
            Bound::Lower(value - span + self.min - 1)
        } else {
            Bound::Upper(value + self.min - 1)
        }
    }
}

/// The solver's copy of a position: the two bitboards and the geometry.
#[derive(Clone, Copy)]
struct Position {
    current: u64,
    mask: u64,
    bottom: u64,
    cells_mask: u64,
    moves: i32,
    cells: i32,
    width: u32,
    height: u32,
    order: [u32; 16],
}

impl Position {
    fn of(board: &Connect4) -> Position {
        let (current, mask, bottom, cells_mask) = board.raw();
        let width = u32::from(board.width());
        let mut order = [0u32; 16];
        for (i, slot) in order.iter_mut().enumerate().take(width as usize) {
            // Centre first, then alternately right and left of it.
            let i = i as i32;
            *slot = (width as i32 / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as u32;
        }
        Position {
            current,
            mask,
            bottom,
            cells_mask,
            moves: board.plies() as i32,
            cells: i32::from(board.width()) * i32::from(board.height()),
            width,
            height: u32::from(board.height()),
            order,
        }
    }

    fn min_score(&self) -> i32 {
        -(self.cells) / 2 + 3
    }

    fn key(&self) -> u64 {
        self.current + self.mask
    }

    fn possible(&self) -> u64 {
        self.mask.wrapping_add(self.bottom) & self.cells_mask
    }

    fn column_cells(&self, column: u32) -> u64 {
        ((1u64 << self.height) - 1) << (column * (self.height + 1))
    }

    /// Empty cells where `stones` would complete four.
    fn winning_cells(&self, stones: u64) -> u64 {
        winning_cells(stones, self.height, self.cells_mask ^ self.mask)
    }

    fn winning_cells_after(&self, cell: u64) -> u64 {
        self.winning_cells(self.current | cell)
    }

    fn can_win_next(&self) -> bool {
        self.winning_cells(self.current) & self.possible() != 0
    }

    /// Playable cells that do not lose at once; 0 when every move loses.
    fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.winning_cells(self.current ^ self.mask);
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats to parry at once
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    fn play(&self, cell: u64) -> Position {
        Position {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_round_trip_through_one_nonzero_byte_on_every_board_the_solver_takes() {
        for (width, height) in [(7, 6), (4, 4), (5, 10), (11, 4), (1, 1)] {
            let board = Connect4::with_size(width, height).unwrap();
            let p = Position::of(&board);
            let bounds = Bounds::of(&p);
            // Scores run from the quickest loss to the quickest win.
            let (lowest, highest) = (-(p.cells) / 2, (p.cells + 1) / 2);
            for score in lowest.max(bounds.min)..=highest.min(bounds.max) {
                for bound in [Bound::Lower(score), Bound::Upper(score)] {
                    let byte = bounds.encode(bound);
                    assert_ne!(byte, 0, "{width}x{height} {bound:?}");
                    assert!(byte > 0, "{width}x{height} {bound:?} overflows");
                    assert_eq!(bounds.decode(byte), bound, "{width}x{height}");
                }
            }
        }
    }
}
