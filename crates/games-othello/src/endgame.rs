//! [`Endgame`]: exact Othello endgame search, the final disc difference with best play.
//!
//! The search (`Search`'s methods) is compiled once for each kernel of `cpu.rs` and the
//! fastest one the processor runs is chosen at run time: plain builds target the x86-64
//! baseline, where `count_ones` is a long sequence of bit operations and not one `popcnt`.

#![allow(
    clippy::inline_always,
    reason = "the helpers of the search must compile into each kernel's copy of it, with its \
              features: a call to a copy compiled for the baseline would lose them"
)]

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::time::Instant;

use game_core::{
    Game, Wdl, mix64,
    solve::{Deadline, Proven, Solution, Solve},
};
use thiserror::Error;

use crate::cpu::{self, Kernel};
use crate::movegen;
use crate::pattern::UNIT;
use crate::{Move, OthelloBoard, Patterns, Square};

/// Below this many empty squares, positions skip the table and the move sorting: the work
/// they save costs more than it saves so close to the end.
const SHALLOW: u32 = 7;

/// From this many empty squares, a node looks up its children in the table before searching
/// them (enhanced transposition cut-offs).
const ETC: u32 = 12;

/// The best-move slot of a table entry with no move.
const NO_MOVE: u8 = 64;

/// From this many empty squares, on the 8x8 board, moves are ordered by a one-ply search on
/// the learned evaluation of the position after them as well as by the opponent's mobility
/// (FFO #40-#43: 19% fewer nodes than the evaluation of the position after the move alone).
const BY_VALUE: u32 = 15;

/// From this many empty squares, the search that orders the moves takes two plies.
const BY_TWO_PLIES: u32 = 18;

/// How much the evaluation counts in the ordering: its units (32 a disc) per point of the
/// mobility key (16 per reply). Measured on FFO #20-#39 (`docs/benchmarks.md`): from 549 M
/// nodes without the evaluation to 270 M with it at 4 to 8 units a point.
const VALUE_WEIGHT: i32 = 6;

/// The root's first window: this many discs either side of a 4-ply search's value on the
/// learned evaluation (8x8), widened to the side it fails (FFO #40-#43: 12% fewer nodes than
/// the full window).
const ASPIRATION: i32 = 1;

/// Beyond every value of the evaluation (64 discs in its units).
const INFINITY: i32 = 65 * UNIT;

/// The error of [`Endgame::best_move`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum SolveError {
    /// The game is already over: there is nothing to solve.
    #[error("the game is already over")]
    GameOver,
}

/// Exact endgame search for Othello (8x8 and 6x6): the final disc difference for the player
/// to move with best play by both sides, and a move that achieves it.
///
/// Scores follow the endgame test suites (FFO, Edax, Egaroucid): the winner's discs minus the
/// loser's, empty squares at the end going to the winner.
///
/// How (the ideas of Edax and Egaroucid, written anew):
///
/// - **Alpha-beta with null windows** (principal variation search): the first move gets the
///   full window, the others only a test "is it better?", searched again if it is.
/// - **Fastest-first ordering**: far from the end, moves are tried in order of the opponent's
///   mobility after them (fewest replies first), the table's best move before all, and
///   corners favoured; from 15 empties on the 8x8 board, a one-ply search (two from 18) on
///   the learned evaluation ([`Patterns`]) after each move counts too (a third of the
///   nodes and of the time on FFO #40-#49); near the
///   end (fewer than 7 empties), moves in regions of the board with an odd number of empty
///   squares first (parity: the last move in a region is worth having).
/// - **A transposition table** of lower and upper bounds and the best move, keyed by the
///   exact discs (no false hits), for positions with 7 or more empties.
/// - **Stability cut-offs**: discs that can never flip (anchored corners and the edge runs
///   from them, and full lines through them) bound the score from above before any move.
/// - **The last empty square** scored directly: the flips of its one move, with no move list.
///
/// ```
/// use game_core::{Game, solve::Solve};
/// use games_othello::{Endgame, Othello};
///
/// // FFO endgame #1: Black to move, 14 empties; g8 wins by 18 discs.
/// let position: Othello =
///     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".parse()?;
/// let mut endgame = Endgame::new();
/// let (best, score) = endgame.best_move(&position)?;
/// assert_eq!((best.to_string(), score), ("g8".to_owned(), 18));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Endgame {
    table: Vec<Entry>,
    /// Table slots minus one (a power of two).
    mask: usize,
    nodes: u64,
    deadline: Deadline,
    max_empties: u32,
    /// The compiled copy of the search that runs it.
    kernel: Kernel,
}

impl std::fmt::Debug for Endgame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endgame")
            .field("slots", &(self.mask + 1))
            .field("nodes", &self.nodes)
            .field("max_empties", &self.max_empties)
            .field("kernel", &self.kernel)
            .finish_non_exhaustive()
    }
}

/// A table entry: the position (the mover's discs, the opponent's), bounds on its score, the
/// best move found.
#[derive(Clone, Copy, Default)]
struct Entry {
    me: u64,
    them: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

impl Entry {
    /// The empty squares of the entry's position; 0 for an unused slot.
    #[inline(always)]
    fn empties(&self) -> u32 {
        let discs = self.me | self.them;
        if discs == 0 {
            0
        } else {
            64 - discs.count_ones()
        }
    }
}

impl Default for Endgame {
    fn default() -> Self {
        Endgame::new()
    }
}

impl Endgame {
    /// A solver with a table of 2^20 entries (24 MiB, allocated at its first search), that
    /// takes positions of up to 26 empty squares as the `solver` agent's solver, and fewer
    /// when the deadline is near: about 20 for a second, 1.5 more for each doubling.
    #[must_use]
    pub fn new() -> Self {
        Endgame::with_table_bytes(24 << 20)
    }

    /// A solver whose table takes at most `bytes` bytes (24 a position, a power of two of
    /// them, at least two), allocated at its first search.
    ///
    /// ```
    /// let endgame = games_othello::Endgame::with_table_bytes(1 << 20);
    /// # let _ = endgame;
    /// ```
    #[must_use]
    pub fn with_table_bytes(bytes: usize) -> Self {
        let slots = (bytes / size_of::<Entry>()).max(2);
        Endgame {
            table: Vec::new(),
            mask: (1 << slots.ilog2()) - 1,
            nodes: 0,
            deadline: Deadline::new(None),
            max_empties: 26,
            kernel: Kernel::best(),
        }
    }

    /// The same solver, refusing (as [`Solve`]) positions with more than `empties` empty
    /// squares, so that an agent does not spend its time on a search it cannot finish.
    #[must_use]
    pub fn with_max_empties(mut self, empties: u32) -> Self {
        self.max_empties = empties;
        self
    }

    /// Positions searched since the solver was made or [`clear`](Endgame::clear)ed.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the table and the node count.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.nodes = 0;
    }

    /// A best move of `position` for the player to move (a placement, or [`Move::Pass`] when
    /// that is the only move) and the position's exact final disc difference for that player.
    ///
    /// # Errors
    ///
    /// [`SolveError::GameOver`] when the game is over.
    pub fn best_move<const N: usize>(
        &mut self,
        position: &OthelloBoard<N>,
    ) -> Result<(Move, i32), SolveError> {
        self.deadline = Deadline::new(None);
        self.search(position).ok_or(SolveError::GameOver)
    }

    /// [`Search::root`], by this solver's kernel.
    fn search<const N: usize>(&mut self, position: &OthelloBoard<N>) -> Option<(Move, i32)> {
        match self.kernel {
            Kernel::Portable => Search::<cpu::Portable>::new(self).root(position),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 | Kernel::Avx2Pdep => {
                let mut search = Search::<cpu::Avx2>::new(self);
                #[allow(unsafe_code)]
                // SAFETY: `self.kernel` is `Kernel::best()` (or, in a test, one of
                // `Kernel::available()`), which holds these kernels only on a processor with
                // AVX2, BMI2 and POPCNT, checked at run time: the features this copy is
                // compiled with. Nothing else about the call is unsafe.
                unsafe {
                    search.root(position)
                }
            }
        }
    }
}

/// One search by an [`Endgame`] (its table, node count and deadline, by `Deref`), in the
/// copy compiled for the kernel `K` (`cpu::Portable` or `cpu::Avx2`).
struct Search<'a, K> {
    endgame: &'a mut Endgame,
    kernel: PhantomData<K>,
}

impl<'a, K> Search<'a, K> {
    #[inline]
    fn new(endgame: &'a mut Endgame) -> Self {
        Search {
            endgame,
            kernel: PhantomData,
        }
    }
}

impl<K> Deref for Search<'_, K> {
    type Target = Endgame;
    #[inline(always)]
    fn deref(&self) -> &Endgame {
        self.endgame
    }
}

impl<K> DerefMut for Search<'_, K> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Endgame {
        self.endgame
    }
}

// Left unindented so that the methods read (and diff) as in a plain `impl`; rustfmt does not
// format inside the macro, so format them by hand.
cpu::for_each_kernel! {
impl<K> Search<'_, K> {
    /// The root search: every move with the full window for the first, null windows after.
    fn root<const N: usize>(&mut self, position: &OthelloBoard<N>) -> Option<(Move, i32)> {
        if position.status().is_over() {
            return None;
        }
        if self.table.is_empty() {
            self.table = vec![Entry::default(); self.mask + 1];
        }
        let (me, them) = (
            position.bits(position.to_move()),
            position.bits(position.to_move().opponent()),
        );
        let g = &OthelloBoard::<N>::GEOMETRY;
        let moves = movegen::moves(me, them, g);
        if moves == 0 {
            let score = -self.negamax::<N>(them, me, -MAX, MAX);
            return (!self.deadline.expired()).then_some((Move::Pass, score));
        }
        let mut list = [Candidate::default(); 32];
        let count = self.order::<N>(me, them, moves, NO_MOVE, &mut list);
        let (mut alpha, mut beta) = (-MAX - 1, MAX);
        if N == 8 {
            let guess = self.probe::<N>(me, them, moves, 4, -INFINITY, INFINITY) / UNIT;
            (alpha, beta) = ((guess - ASPIRATION).max(-MAX - 1), (guess + ASPIRATION).min(MAX));
        }
        loop {
            let (best, score) = self.root_window::<N>(me, them, &list[..count], alpha, beta)?;
            if score <= alpha && alpha > -MAX - 1 {
                (alpha, beta) = (-MAX - 1, score + 1);
            } else if score >= beta && beta < MAX {
                (alpha, beta) = (score - 1, MAX);
            } else {
                return Some((Move::Place(Square::from_index(best)), score));
            }
        }
    }

    /// The root's moves `list` searched within `(alpha, beta)`: the best and its score
    /// (fail-soft); `None` when the deadline passed.
    fn root_window<const N: usize>(
        &mut self,
        me: u64,
        them: u64,
        list: &[Candidate],
        mut alpha: i32,
        beta: i32,
    ) -> Option<(u8, i32)> {
        let mut best = (NO_MOVE, -MAX - 1);
        for (i, c) in list.iter().enumerate() {
            let (child_me, child_them) = (them & !c.flips, me | c.flips | c.square);
            let score = if i == 0 {
                -self.negamax::<N>(child_me, child_them, -beta, -alpha)
            } else {
                let test = -self.negamax::<N>(child_me, child_them, -alpha - 1, -alpha);
                if test > alpha && test < beta {
                    -self.negamax::<N>(child_me, child_them, -beta, -test)
                } else {
                    test
                }
            };
            if self.deadline.expired() {
                return None;
            }
            if score > best.1 {
                best = (c.square.trailing_zeros() as u8, score);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        Some(best)
    }

    /// The first of the two table slots of a position.
    #[inline]
    fn slot(me: u64, them: u64, mask: usize) -> usize {
        (mix64(me ^ mix64(them)) as usize) & mask & !1
    }

    /// The table's entry for a position, if it holds one.
    #[inline]
    fn lookup(&self, me: u64, them: u64) -> Option<Entry> {
        let slot = Self::slot(me, them, self.mask);
        self.table[slot..slot + 2]
            .iter()
            .find(|e| e.me == me && e.them == them)
            .copied()
    }

    /// Keeps `entry` in its position's pair of slots: in place of an older entry of the same
    /// position; else the first slot holds the entry of the most empty squares (the biggest
    /// search to save) and the second the latest.
    #[inline]
    fn store(&mut self, entry: Entry) {
        let slot = Self::slot(entry.me, entry.them, self.mask);
        let pair = &mut self.table[slot..slot + 2];
        if let Some(same) = pair.iter_mut().find(|e| e.me == entry.me && e.them == entry.them) {
            *same = entry;
        } else if entry.empties() >= pair[0].empties() {
            pair[1] = pair[0];
            pair[0] = entry;
        } else {
            pair[1] = entry;
        }
    }

    /// The moves of `moves` with their flips, best first by the ordering for this depth.
    /// Returns how many.
    fn order<const N: usize>(
        &mut self,
        me: u64,
        them: u64,
        moves: u64,
        first: u8,
        list: &mut [Candidate; 32],
    ) -> usize {
        let g = &OthelloBoard::<N>::GEOMETRY;
        let empty = !(me | them) & g.cells;
        let odd = odd_regions::<N>(empty);
        let corners = corners::<N>();
        let empties = empty.count_ones();
        let by_value = N == 8 && empties >= BY_VALUE;
        let sort_depth = if empties >= BY_TWO_PLIES { 2 } else { 1 };
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let square = rest & rest.wrapping_neg();
            rest ^= square;
            let flips = movegen::flips(me, them, square, g);
            let (child_me, child_them) = (them & !flips, me | flips | square);
            let replies = movegen::moves(child_me, child_them, g);
            // The opponent's mobility now, and its potential mobility: empty squares next to
            // our discs, where it may get moves later.
            let frontier = neighbours::<N>(child_them) & !(child_me | child_them) & g.cells;
            let mut key = -(weighted_mobility(replies, corners) as i32) * 16
                - frontier.count_ones() as i32 * 6;
            if square & corners != 0 {
                key += 24;
            }
            if square & odd != 0 {
                key += 4;
            }
            if by_value {
                let value =
                    self.probe::<N>(child_me, child_them, replies, sort_depth, -INFINITY, INFINITY);
                key -= value / VALUE_WEIGHT;
            }
            if square.trailing_zeros() as u8 == first {
                key = i32::MAX;
            }
            list[count] = Candidate { square, flips, key };
            count += 1;
        }
        // Insertion sort, best first: a dozen moves at most in practice.
        for i in 1..count {
            let mut j = i;
            while j > 0 && list[j - 1].key < list[j].key {
                list.swap(j - 1, j);
                j -= 1;
            }
        }
        count
    }

    /// A `depth`-ply alpha-beta search on the learned evaluation (8x8 only), for the root's
    /// first window: the value of the position `me` to move (with `moves`) against `them`, in
    /// the evaluation's units, within `(alpha, beta)` (fail-soft). Its positions count as
    /// nodes.
    fn probe<const N: usize>(
        &mut self,
        me: u64,
        them: u64,
        moves: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let g = &OthelloBoard::<N>::GEOMETRY;
        self.nodes += 1;
        if depth == 0 {
            return Patterns::standard().value_with_moves(me, them, moves);
        }
        if moves == 0 {
            let replies = movegen::moves(them, me, g);
            if replies == 0 {
                let empties = (!(me | them) & g.cells).count_ones();
                return final_score(me, them, empties) * UNIT;
            }
            return -self.probe::<N>(them, me, replies, depth, -beta, -alpha);
        }
        let mut best = -INFINITY;
        let mut rest = moves;
        while rest != 0 {
            let square = rest & rest.wrapping_neg();
            rest ^= square;
            let flips = movegen::flips(me, them, square, g);
            let (child_me, child_them) = (them & !flips, me | flips | square);
            let replies = movegen::moves(child_me, child_them, g);
            let score = -self.probe::<N>(child_me, child_them, replies, depth - 1, -beta, -alpha);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score of the position `me` to move against `them`, within `(alpha, beta)`
    /// (fail-soft: outside the window, a bound in the right direction).
    fn negamax<const N: usize>(
        &mut self,
        me: u64,
        them: u64,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let g = &OthelloBoard::<N>::GEOMETRY;
        let empty = !(me | them) & g.cells;
        let empties = empty.count_ones();
        if empties < SHALLOW {
            return self.shallow::<N>(me, them, empty, alpha, beta);
        }
        if self.deadline.passed() {
            return alpha; // thrown away: the caller sees the deadline passed
        }
        self.nodes += 1;
        let moves = movegen::moves(me, them, g);
        if moves == 0 {
            if movegen::moves(them, me, g) == 0 {
                return final_score(me, them, empties);
            }
            return -self.negamax::<N>(them, me, -beta, -alpha);
        }
        // Stability: the opponent's stable discs stay theirs to the end. Only worth computing
        // when even all of their discs being stable would bound the score below alpha.
        let cells = (N * N) as i32;
        if cells - 2 * them.count_ones() as i32 <= alpha {
            let ceiling = cells - 2 * stable::<N>(them, me).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
            beta = beta.min(ceiling);
        }
        let entry = self.lookup(me, them);
        let mut first = NO_MOVE;
        if let Some(entry) = entry {
            match narrow(i32::from(entry.lower), i32::from(entry.upper), alpha, beta) {
                Err(score) => return score,
                Ok(window) => (alpha, beta) = window,
            }
            first = entry.best;
        }
        let mut list = [Candidate::default(); 32];
        let count = self.order::<N>(me, them, moves, first, &mut list);
        // Enhanced transposition cut-off: a child whose table entry already proves it bad
        // enough for the opponent cuts this node off before any search.
        if empties >= ETC {
            for c in &list[..count] {
                let (child_me, child_them) = (them & !c.flips, me | c.flips | c.square);
                if let Some(child) = self.lookup(child_me, child_them) {
                    let score = -i32::from(child.upper);
                    if score >= beta {
                        return score;
                    }
                }
            }
        }
        let original = alpha;
        let mut best = (NO_MOVE, -MAX - 1);
        for (i, c) in list[..count].iter().enumerate() {
            let (child_me, child_them) = (them & !c.flips, me | c.flips | c.square);
            let score = if i == 0 {
                -self.negamax::<N>(child_me, child_them, -beta, -alpha)
            } else {
                let test = -self.negamax::<N>(child_me, child_them, -alpha - 1, -alpha);
                if test > alpha && test < beta {
                    -self.negamax::<N>(child_me, child_them, -beta, -test)
                } else {
                    test
                }
            };
            if score > best.1 {
                best = (c.square.trailing_zeros() as u8, score);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.deadline.expired() {
            return best.1;
        }
        let (lower, upper) = if best.1 >= beta {
            (best.1, MAX)
        } else if best.1 <= original {
            (-MAX, best.1)
        } else {
            (best.1, best.1)
        };
        // Bounds from an earlier search of the same position still hold: keep the tighter.
        let (lower, upper) = if let Some(entry) = entry {
            (
                lower.max(i32::from(entry.lower)),
                upper.min(i32::from(entry.upper)),
            )
        } else {
            (lower, upper)
        };
        self.store(Entry {
            me,
            them,
            lower: lower as i8,
            upper: upper as i8,
            best: best.0,
        });
        best.1
    }

    /// The search near the end: no table, no sorting; the moves in odd regions first, and the
    /// last empty square scored directly.
    fn shallow<const N: usize>(
        &mut self,
        me: u64,
        them: u64,
        empty: u64,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let g = &OthelloBoard::<N>::GEOMETRY;
        self.nodes += 1;
        if empty & empty.wrapping_sub(1) == 0 {
            return last::<N>(me, them, empty);
        }
        let moves = movegen::moves(me, them, g);
        if moves == 0 {
            if movegen::moves(them, me, g) == 0 {
                return final_score(me, them, empty.count_ones());
            }
            return -self.shallow::<N>(them, me, empty, -beta, -alpha);
        }
        let odd = odd_regions::<N>(empty);
        let mut best = -MAX - 1;
        for part in [moves & odd, moves & !odd] {
            let mut rest = part;
            while rest != 0 {
                let square = rest & rest.wrapping_neg();
                rest ^= square;
                let flips = movegen::flips(me, them, square, g);
                let score = -self.shallow::<N>(
                    them & !flips,
                    me | flips | square,
                    empty ^ square,
                    -beta,
                    -alpha,
                );
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }
}
}

/// The most empty squares a search can expect to finish by `deadline`, on this solver's
/// measured growth: about a second for 20 empties on the FFO positions, twice as long for
/// each 1.5 more (`docs/benchmarks.md`).
fn reach(deadline: Option<Instant>) -> u32 {
    let Some(deadline) = deadline else {
        return u32::MAX;
    };
    let seconds = deadline
        .saturating_duration_since(Instant::now())
        .as_secs_f64();
    if seconds <= 0.0 {
        return 0;
    }
    (20.0 + 1.5 * seconds.log2()).max(0.0) as u32
}

/// A table entry's bounds `lower..=upper` on a node searched in `(alpha, beta)`: `Err` with
/// the node's value when they decide it, else the window they narrow it to.
#[inline(always)]
pub(crate) fn narrow(lower: i32, upper: i32, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
    if lower >= beta {
        return Err(lower);
    }
    if upper <= alpha || lower == upper {
        return Err(upper);
    }
    Ok((alpha.max(lower), beta.min(upper)))
}

/// A score beyond every final disc difference.
const MAX: i32 = 64;

/// A move with its flips and its place in the ordering.
#[derive(Clone, Copy, Default)]
struct Candidate {
    square: u64,
    flips: u64,
    key: i32,
}

/// The final score for `me`: the disc difference, empty squares to the winner.
#[inline(always)]
pub(crate) fn final_score(me: u64, them: u64, empties: u32) -> i32 {
    let difference = me.count_ones() as i32 - them.count_ones() as i32;
    match difference.signum() {
        1 => difference + empties as i32,
        -1 => difference - empties as i32,
        _ => 0,
    }
}

/// The score with one empty square left, `square`: the mover plays it if it can, else the
/// opponent if it can, else the game ends.
#[inline(always)]
fn last<const N: usize>(me: u64, them: u64, square: u64) -> i32 {
    let g = &OthelloBoard::<N>::GEOMETRY;
    let flips = movegen::flips(me, them, square, g);
    if flips != 0 {
        return me.count_ones() as i32 + 1 + 2 * flips.count_ones() as i32
            - them.count_ones() as i32;
    }
    let flips = movegen::flips(them, me, square, g);
    if flips != 0 {
        return me.count_ones() as i32
            - 2 * flips.count_ones() as i32
            - them.count_ones() as i32
            - 1;
    }
    final_score(me, them, 1)
}

/// The board's corners.
#[inline(always)]
const fn corners<const N: usize>() -> u64 {
    let n = N as u32;
    1 | 1 << (n - 1) | 1 << (8 * (n - 1)) | 1 << (8 * (n - 1) + n - 1)
}

/// Mobility, corners counting double: the opponent's replies, weighed for the ordering.
#[inline(always)]
fn weighted_mobility(replies: u64, corners: u64) -> u32 {
    replies.count_ones() + (replies & corners).count_ones()
}

/// The squares next to `discs`, in the eight directions (on the board or off it: the caller
/// masks).
#[inline(always)]
fn neighbours<const N: usize>(discs: u64) -> u64 {
    let n = N as u32;
    let (not_first, not_last) = (!column_mask(0), !column_mask(n - 1));
    let east = (discs << 1) & not_first;
    let west = (discs >> 1) & not_last;
    let row = discs | east | west;
    row | row << 8 | row >> 8
}

/// The empty squares in quadrants with an odd number of empty squares.
#[inline(always)]
fn odd_regions<const N: usize>(empty: u64) -> u64 {
    let half = N as u32 / 2;
    let row = (1u64 << half) - 1;
    let mut quadrant = 0;
    for r in 0..half {
        quadrant |= row << (8 * r);
    }
    let mut odd = 0;
    for q in [
        quadrant,
        quadrant << half,
        quadrant << (8 * half),
        quadrant << (8 * half + half),
    ] {
        if (empty & q).count_ones() % 2 == 1 {
            odd |= empty & q;
        }
    }
    odd
}

/// Discs of `them` that can never flip: grown from the corners along the edges (a disc on an
/// edge next to a stable disc of its colour, in that edge's direction, is stable while the
/// edge line is full or anchored), and discs on full lines in all four directions. A subset of
/// the truly stable discs, which is all a bound needs.
#[inline(always)]
fn stable<const N: usize>(them: u64, me: u64) -> u64 {
    let g = &OthelloBoard::<N>::GEOMETRY;
    let n = N as u32;
    let occupied = me | them;
    let lines = full_by_direction::<N>(occupied);
    let edges = edge_mask::<N>();
    let mut stable = them & corners::<N>();
    // Grow along the edges and through full lines: a disc is stable when, in each of the four
    // directions, one of its neighbours is a stable disc of its colour, or off the board, or
    // the line through it is full.
    let (west, east) = (g.cells & !column_mask(0), g.cells & !column_mask(n - 1));
    loop {
        let s = stable;
        let horizontal = (s << 1 & west) | (s >> 1 & east) | column_mask(0) | column_mask(n - 1);
        let vertical = (s << 8) | (s >> 8) | row_mask::<N>(0) | row_mask::<N>(n - 1);
        let diagonal = (s << 9 & west) | (s >> 9 & east) | edges;
        let anti = (s << 7 & east) | (s >> 7 & west) | edges;
        let grown = them
            & (horizontal | lines[0])
            & (vertical | lines[1])
            & (diagonal | lines[2])
            & (anti | lines[3]);
        stable |= grown;
        if stable == s {
            return stable;
        }
    }
}

/// The squares of column `c` (of an 8-wide frame; rows beyond the board are masked later).
#[inline(always)]
const fn column_mask(c: u32) -> u64 {
    0x0101_0101_0101_0101 << c
}

/// The squares of row `r`.
#[inline(always)]
const fn row_mask<const N: usize>(r: u32) -> u64 {
    ((1u64 << N) - 1) << (8 * r)
}

/// The board's edge squares.
#[inline(always)]
fn edge_mask<const N: usize>() -> u64 {
    let n = N as u32;
    let cells = OthelloBoard::<N>::GEOMETRY.cells;
    cells & (column_mask(0) | column_mask(n - 1) | row_mask::<N>(0) | row_mask::<N>(n - 1))
}

/// The lines of an `N`x`N` board in each direction: rows, columns, diagonals (down-right),
/// anti-diagonals (down-left); unused slots are 0.
struct Lines<const N: usize>;

impl<const N: usize> Lines<N> {
    const ALL: [[u64; 16]; 4] = {
        let n = N as i32;
        let mut lines = [[0u64; 16]; 4];
        let mut r = 0;
        while r < n {
            let mut c = 0;
            while c < n {
                let bit = 1u64 << (8 * r + c);
                lines[0][r as usize] |= bit;
                lines[1][c as usize] |= bit;
                lines[2][(c - r + n - 1) as usize] |= bit;
                lines[3][(c + r) as usize] |= bit;
                c += 1;
            }
            r += 1;
        }
        lines
    };
}

/// For each direction (horizontal, vertical, diagonal, anti-diagonal), the squares whose line
/// in that direction is full.
#[inline(always)]
fn full_by_direction<const N: usize>(occupied: u64) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (direction, lines) in Lines::<N>::ALL.iter().enumerate() {
        for &line in lines {
            if line != 0 && occupied & line == line {
                out[direction] |= line;
            }
        }
    }
    out
}

/// The endgame search as the `solver` agent uses it: positions with at most its
/// [`with_max_empties`](Endgame::with_max_empties) empty squares, values with their margin.
impl<const N: usize> Solve<OthelloBoard<N>> for Endgame {
    fn prove(&mut self, position: &OthelloBoard<N>, deadline: Option<Instant>) -> Option<Proven> {
        Some(self.solve(position, deadline).best?.1)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn solve(&mut self, position: &OthelloBoard<N>, deadline: Option<Instant>) -> Solution<Move> {
        let empties = (N * N) as u32
            - position.discs(game_core::Player::Black)
            - position.discs(game_core::Player::White);
        if empties > self.max_empties.min(reach(deadline)) {
            return Solution::default();
        }
        self.deadline = Deadline::new(deadline);
        let Some((best, score)) = self.search(position) else {
            return Solution::default();
        };
        let outcome = match score.signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        let value = Proven::new(outcome).with_margin(score);
        Solution {
            actions: vec![(best, value)],
            best: Some((best, value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Othello;

    /// Plain minimax over the rules, with the final score's convention.
    fn reference(position: &Othello) -> i32 {
        use game_core::{Player, Status};
        let mover = position.to_move();
        if let Status::Over(_) = position.status() {
            let empties = 64 - position.discs(Player::Black) - position.discs(Player::White);
            return final_score(
                position.bits(mover),
                position.bits(mover.opponent()),
                empties,
            );
        }
        position
            .legal_actions_vec()
            .into_iter()
            .map(|a| {
                let after = position.after(a);
                let value = reference(&after);
                if after.to_move() == mover {
                    value
                } else {
                    -value
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn random_endgames_match_plain_minimax() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut endgame = Endgame::with_table_bytes(24 << 10);
        let mut checked = 0;
        while checked < 60 {
            let mut position = Othello::new();
            while position.plies() < 52 && !position.status().is_over() {
                let action = position.random_action(&mut rng).unwrap();
                position.play(action);
            }
            if position.status().is_over() {
                continue;
            }
            let expected = reference(&position);
            let (best, score) = endgame.best_move(&position).unwrap();
            assert_eq!(score, expected, "{position}");
            let after = position.after(best);
            let value = if after.status().is_over() || after.to_move() != position.to_move() {
                -reference(&after)
            } else {
                reference(&after)
            };
            assert_eq!(value, expected, "{best} in {position}");
            checked += 1;
        }
    }

    /// Positions of the FFO suite (`tests/data/`), the OBF boards of lines `lines` of `file`.
    fn ffo(file: &str, lines: std::ops::Range<usize>) -> Vec<Othello> {
        let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .skip(lines.start)
            .take(lines.len())
            .map(|line| line.split_once(';').unwrap().0.parse().unwrap())
            .collect()
    }

    /// Random positions of `N`x`N` games, `empties` empty squares from the end.
    fn random_positions<const N: usize>(count: usize, empties: u32) -> Vec<OthelloBoard<N>> {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(N as u64);
        let mut positions = Vec::new();
        while positions.len() < count {
            let mut position = OthelloBoard::<N>::new();
            while (N * N) as u32 - 4 - position.plies() > empties && !position.status().is_over() {
                let action = position.random_action(&mut rng).unwrap();
                position.play(action);
            }
            if !position.status().is_over() {
                positions.push(position);
            }
        }
        positions
    }

    /// The best move, score and nodes of each position, solved in turn by one solver (its
    /// table kept from one to the next) running `kernel`.
    fn solve_all<const N: usize>(
        kernel: Kernel,
        positions: &[OthelloBoard<N>],
    ) -> Vec<(Move, i32, u64)> {
        let mut endgame = Endgame::with_table_bytes(1 << 20);
        endgame.kernel = kernel;
        positions
            .iter()
            .map(|position| {
                let before = endgame.nodes();
                let (best, score) = endgame.best_move(position).unwrap();
                (best, score, endgame.nodes() - before)
            })
            .collect()
    }

    /// Every compiled copy of the search is the same search: the same moves, scores and node
    /// counts, position by position, on 8x8 (FFO #1-#4 and random endgames) and 6x6 boards.
    #[test]
    fn every_compiled_search_searches_the_same_tree() {
        let eight = [ffo("ffo-01-19.obf", 0..4), random_positions::<8>(12, 13)].concat();
        let six = random_positions::<6>(12, 14);
        let portable = (
            solve_all(Kernel::Portable, &eight),
            solve_all(Kernel::Portable, &six),
        );
        assert!(portable.0.iter().chain(&portable.1).all(|r| r.2 > 0));
        for kernel in Kernel::available() {
            let fast = (solve_all(kernel, &eight), solve_all(kernel, &six));
            assert_eq!(fast, portable, "{kernel:?}");
        }
    }

    /// Nodes a second of the portable and the fastest compiled copy of the search, in turns in
    /// one process (the fastest and the median of the rounds), on FFO #1-#19 (14-16 empties)
    /// and #20-#31 (15-20 empties), the table allocated and touched before the clock starts:
    /// `cargo test --release -p games-othello --lib -- --ignored --nocapture kernels`.
    #[test]
    #[ignore = "a measurement, for release builds"]
    fn kernels_nodes_per_second() {
        let mut kernels = vec![Kernel::Portable, Kernel::best()];
        kernels.dedup(); // `Avx2Pdep` runs the `Avx2` copy
        for (suite, rounds) in [
            (ffo("ffo-01-19.obf", 0..19), 21),
            (ffo("ffo-20-39.obf", 0..12), 5),
        ] {
            let mut rates = vec![Vec::new(); kernels.len()];
            for _ in 0..rounds {
                for (k, &kernel) in kernels.iter().enumerate() {
                    let mut endgame = Endgame::with_table_bytes(96 << 20);
                    endgame.kernel = kernel;
                    endgame.best_move(&suite[0]).unwrap();
                    endgame.clear();
                    let clock = Instant::now();
                    for position in &suite {
                        endgame.best_move(position).unwrap();
                    }
                    rates[k].push(endgame.nodes() as f64 / clock.elapsed().as_secs_f64() / 1e6);
                }
            }
            for (kernel, rates) in kernels.iter().zip(&mut rates) {
                rates.sort_by(f64::total_cmp);
                let (best, median) = (rates[rates.len() - 1], rates[rates.len() / 2]);
                println!(
                    "{} positions, {kernel:?}: {best:.1} M nodes/s at best, {median:.1} median",
                    suite.len()
                );
            }
        }
    }

    #[test]
    fn stable_discs_are_a_subset_of_the_discs_that_never_flip() {
        // A full top edge of Black's, anchored by both corners: all stable.
        let top = row_mask::<8>(0);
        assert_eq!(stable::<8>(top, 0) & top, top);
        // A lone disc in the middle of an empty board: not stable.
        assert_eq!(stable::<8>(1 << 27, 0), 0);
        // A corner is.
        assert_eq!(stable::<8>(1, 0), 1);
    }
}
