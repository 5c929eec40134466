//! An exact solver for small Hex boards: who wins with perfect play, and with which moves.

use std::time::Instant;

use game_core::{
    Game, Player, Wdl,
    solve::{Deadline, Proven, Solve},
};
use thiserror::Error;

use crate::Hex;
use crate::bits::Bits;
use crate::board::HexBoard;
use crate::hex::with_board;
use crate::notation::Move;

/// The error of [`Solver::best_move`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum SolveError {
    /// The game is already over: there is nothing to solve.
    #[error("the game is already over")]
    GameOver,
}

/// Solves Hex positions exactly: a depth-first proof search with Hex's own shortcuts. 4x4 takes
/// milliseconds and 5x5 (every first move) about a minute and a half; 6x6 is out of reach of
/// this brute force (its solvers rely on virtual-connection engines).
///
/// Hex has no draws, so a position is a win or a loss for the player to move, and the search
/// is boolean: a position is won if some move leads to a position lost for the opponent.
/// Four rules cut the tree, each exact:
///
/// - **A winning cell ends the search.** A cell next to (or on) both of the mover's edge
///   groups wins at once; the board keeps the stones connected to each edge, so these cells
///   are one bitboard expression, with no move tried.
/// - **Threats force the reply.** If the opponent has two winning cells, the mover (who has
///   none) can block only one: lost. If it has one, the mover must play there.
/// - **Must-play regions.** Each result comes with a *carrier*: empty cells outside which the
///   loser may own every cell and still lose. Once a move `m` is refuted with carrier `C`, a
///   move outside `C ∪ {m}` is refuted too (the same strategy wins against it, and Hex never
///   punishes a player for having a stone fewer), so only the intersection of the refutations'
///   carriers is left to try. Measured: 4x4 in 16,482 positions against 93,203 without.
/// - **A table of results**: a position reached again by another move order is not searched
///   again. It keeps the position's hash with its result and carrier, replacing always.
///
/// Moves are tried centre first (the strongest cells in Hex, so a winning move is usually
/// found first). With the swap rule, the swap is one more move where it is legal, and the
/// shortcuts are off in that one position (the swap answers any threat).
///
/// It is the solver to use up to 5x5 ([`Solver::handles`]); [`Dfpn`](crate::Dfpn) beyond.
///
/// ```
/// use game_core::Player;
/// use games_hex::{Hex, Solver};
///
/// let mut solver = Solver::with_table_bytes(1 << 20);
/// // 3x3: the first player wins from the centre, and loses from the acute corner a1.
/// assert_eq!(solver.winner(&Hex::new(3)?.after_moves("b2")?), Player::Black);
/// assert_eq!(solver.winner(&Hex::new(3)?.after_moves("a1")?), Player::White);
/// // White to move after a1: b2 wins.
/// assert_eq!(solver.best_move(&Hex::new(3)?.after_moves("a1")?)?, ("b2".parse()?, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    /// `slots` entries of `words` words: a position's hash with its lowest bit replaced by
    /// "the player to move wins", then the proof's carrier.
    table: Vec<u64>,
    slots: usize,
    words: usize,
    /// The board's cells, centre first, for the size last solved.
    order: Vec<usize>,
    order_size: u8,
    nodes: u64,
    deadline: Deadline,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// The largest board this solver is the one to use for ([`handles`](Solver::handles)).
    const LARGEST: u8 = 5;

    /// A solver with a 64 MiB table.
    #[must_use]
    pub fn new() -> Solver {
        Solver::with_table_bytes(64 << 20)
    }

    /// A solver whose table takes about `bytes` bytes (at least one entry).
    #[must_use]
    pub fn with_table_bytes(bytes: usize) -> Solver {
        let words = (bytes / size_of::<u64>()).max(2);
        Solver {
            table: vec![0; words],
            slots: 0,
            words: 0,
            order: Vec::new(),
            order_size: 0,
            nodes: 0,
            deadline: Deadline::new(None),
        }
    }

    /// The player who wins `position` with perfect play.
    pub fn winner(&mut self, position: &Hex) -> Player {
        self.deadline = Deadline::new(None);
        let mover = position.to_move();
        if self.mover_wins(position) {
            mover
        } else {
            mover.opponent()
        }
    }

    /// Whether this solver is the one to use on boards of side `size`: up to 5x5, where it
    /// proves any position within about a minute and a half (4x4 at once). Beyond, its brute
    /// force is out of its depth, and [`Dfpn`](crate::Dfpn), guided by virtual connections,
    /// is the solver to use (some 9x9 middle games in seconds).
    ///
    /// ```
    /// use games_hex::Solver;
    ///
    /// assert!(Solver::handles(5));
    /// assert!(!Solver::handles(6));
    /// ```
    #[must_use]
    pub const fn handles(size: u8) -> bool {
        1 <= size && size <= Self::LARGEST
    }

    /// A best move for the player to move and the position's score for that player: 1 with a
    /// winning move (the first of [`winning_moves`](Solver::winning_moves)), or -1 when every
    /// move loses (then the first legal move). Hex has no draws, and this solver counts no
    /// plies, so the score is only the result's sign, as in the other games' solvers.
    ///
    /// # Errors
    ///
    /// [`SolveError::GameOver`] when the game is over.
    pub fn best_move(&mut self, position: &Hex) -> Result<(Move, i32), SolveError> {
        self.deadline = Deadline::new(None);
        let moves = position.legal_actions_vec();
        let Some(&first) = moves.first() else {
            return Err(SolveError::GameOver);
        };
        Ok(moves
            .into_iter()
            .find(|&action| !self.mover_wins(&position.after(action)))
            .map_or((first, -1), |action| (action, 1)))
    }

    /// Every move that wins for the player to move, in the order of the legal moves; empty
    /// when the position is lost (or over).
    pub fn winning_moves(&mut self, position: &Hex) -> Vec<Move> {
        self.deadline = Deadline::new(None);
        position
            .legal_actions_vec()
            .into_iter()
            .filter(|&action| !self.mover_wins(&position.after(action)))
            .collect()
    }

    /// The positions searched since this solver was made or [`clear`](Solver::clear)ed (those
    /// the shortcuts decide without trying a move are not counted).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the table (every result in it) and the node count.
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.nodes = 0;
    }

    /// Whether the player to move in `position` wins with perfect play (`false` when the game
    /// is over: the last move won it).
    fn mover_wins(&mut self, position: &Hex) -> bool {
        let size = position.size();
        if self.order_size != size {
            self.order = centre_first(size);
            self.order_size = size;
        }
        with_board!(&position.0, board => {
            let words = 1 + board_words(board);
            if self.words != words {
                // Entries hold the hash and a carrier of the board's words: re-lay the table.
                self.words = words;
                self.slots = 1 << (self.table.len() / words).max(1).ilog2();
                self.table.fill(0);
            }
            self.search(board).0
        })
    }

    /// Whether the player to move wins `board`, and a *carrier* of the proof: empty cells such
    /// that the winner still wins if the loser gets stones on any of the other empty cells.
    fn search<const W: usize>(&mut self, board: &HexBoard<W>) -> (bool, Bits<W>) {
        if board.status().is_over() {
            return (false, Bits::EMPTY); // already connected: nothing can undo it
        }
        let mover = board.to_move();
        let wins_now = board.winning_cells(mover);
        if wins_now != Bits::EMPTY {
            return (true, Bits::single(wins_now.first()));
        }
        // Right after the first move the swap is one more answer to a threat: no shortcuts.
        let swap = board.swap_available();
        let threats = if swap {
            Bits::EMPTY
        } else {
            board.winning_cells(mover.opponent())
        };
        if threats.count() >= 2 {
            // Both connections need their cell: with extra stones of ours elsewhere, the
            // opponent still wins at one of them (and ours cannot connect through them).
            let first = threats.first();
            let second = (threats & !Bits::single(first)).first();
            return (false, Bits::single(first) | Bits::single(second));
        }
        if self.deadline.passed() {
            return (false, Bits::EMPTY); // thrown away: the caller sees the deadline passed
        }
        self.nodes += 1;
        let hash = board.position_hash();
        let stride = 1 + W;
        let slot = (hash as usize) & (self.slots - 1);
        let entry = &self.table[slot * stride..(slot + 1) * stride];
        if entry[0] != 0 && entry[0] | 1 == hash | 1 {
            let mut carrier = Bits::EMPTY;
            carrier.0.copy_from_slice(&entry[1..]);
            return (entry[0] & 1 == 1, carrier);
        }
        let forced = threats != Bits::EMPTY;
        // The moves still worth trying: once a move is refuted, a move outside the refutation's
        // carrier is refuted by the same strategy, so only the carriers' intersection is left.
        let mut must_play = if forced { threats } else { board.empty() };
        let mut lost_carrier = Bits::EMPTY;
        let mut result = None;
        for i in 0..self.order.len() {
            let cell = self.order[i];
            if !must_play.contains(cell) {
                continue;
            }
            let (opponent_wins, carrier) = self.search(&board.after_stone(cell));
            let with_move = carrier | Bits::single(cell);
            if !opponent_wins {
                result = Some(with_move);
                break;
            }
            must_play &= with_move;
            lost_carrier |= with_move;
        }
        if result.is_none() && swap {
            // The swap changes the board beyond one cell: no carrier argument for it.
            let (opponent_wins, _) = self.search(&board.after(Move::Swap));
            if !opponent_wins {
                result = Some(board.empty());
            }
            lost_carrier = board.empty();
        }
        let (wins, carrier) = match result {
            Some(carrier) => (true, carrier),
            None => (false, lost_carrier),
        };
        if self.deadline.expired() {
            return (wins, carrier);
        }
        let entry = &mut self.table[slot * stride..(slot + 1) * stride];
        entry[0] = (hash & !1) | u64::from(wins);
        entry[1..].copy_from_slice(&carrier.0);
        (wins, carrier)
    }
}

/// The solver as the `solver` agent uses it: a win or a loss (Hex has no draws), with no
/// count of plies; the best moves are the winning ones, tried one by one.
impl Solve<Hex> for Solver {
    fn prove(&mut self, position: &Hex, deadline: Option<Instant>) -> Option<Proven> {
        self.deadline = Deadline::new(deadline);
        let wins = self.mover_wins(position);
        if self.deadline.expired() {
            return None;
        }
        Some(Proven::new(if wins { Wdl::Win } else { Wdl::Loss }))
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The number of words of a board's bitboards.
fn board_words<const W: usize>(_: &HexBoard<W>) -> usize {
    W
}

/// The cells of a `size`x`size` board by their distance from the centre (in steps between
/// neighbouring cells), nearest first, ties by index.
fn centre_first(size: u8) -> Vec<usize> {
    let n = i32::from(size);
    let mut cells: Vec<usize> = (0..(n * n) as usize).collect();
    // Twice the coordinates, so that the centre of an even board is a point too.
    let distance = |i: &usize| {
        let (x, y) = ((*i as i32 % n) * 2 - (n - 1), (*i as i32 / n) * 2 - (n - 1));
        x.abs().max(y.abs()).max((x + y).abs())
    };
    cells.sort_by_key(|i| (distance(i), *i));
    cells
}
