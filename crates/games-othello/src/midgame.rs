//! [`Midgame`]: principal-variation alpha-beta on an evaluation (the learned [`Patterns`] by
//! default), by iterative deepening under a deadline, then the exact [`Endgame`] once the
//! empty squares are few enough to solve in the time left.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game_core::{
    Evaluator, Game, Player,
    solve::{Deadline, Solve},
};

use crate::endgame::{final_score, narrow};
use crate::movegen;
use crate::pattern::UNIT;
use crate::{Endgame, Heuristic, Move, Othello, Patterns, Square};

/// A value of the position `me` (to move) against `them`, for `me`, given `moves`, the
/// mover's legal moves: what [`Midgame`] searches with. Scores of finished games are the
/// final disc difference times [`UNIT`] (32), so an evaluation in the same units (as
/// [`Patterns`]) compares with them directly.
pub trait BoardValue {
    /// The value, for `me`.
    fn board_value(&self, me: u64, them: u64, moves: u64) -> i32;
}

impl BoardValue for Patterns {
    #[inline]
    fn board_value(&self, me: u64, them: u64, moves: u64) -> i32 {
        self.value_with_moves(me, them, moves)
    }
}

impl<V: BoardValue + ?Sized> BoardValue for &V {
    #[inline]
    fn board_value(&self, me: u64, them: u64, moves: u64) -> i32 {
        (**self).board_value(me, them, moves)
    }
}

impl<V: BoardValue + ?Sized> BoardValue for Arc<V> {
    #[inline]
    fn board_value(&self, me: u64, them: u64, moves: u64) -> i32 {
        (**self).board_value(me, them, moves)
    }
}

/// The hand-set heuristic, in its own units (a corner is 500): for comparisons and for the
/// first round of training, before there are learned weights.
impl BoardValue for Heuristic {
    fn board_value(&self, me: u64, them: u64, _moves: u64) -> i32 {
        self.evaluate(&Othello::from_discs(me, them, Player::Black))
    }
}

/// A score beyond every value.
const INFINITY: i32 = 100 * UNIT;

/// The best-move slot of a table entry with no move.
const NO_MOVE: u8 = 64;

/// How often, in positions, the search reads its stop flag (the deadline counts every position).
const CHECK_EVERY: u64 = 2048;

/// What a search found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Thought {
    /// The move chosen.
    pub best: Move,
    /// Its value for the player to move: the final disc difference times [`UNIT`] when
    /// `exact`, else the evaluation's estimate in the same units.
    pub score: i32,
    /// The deepest iteration completed (plies); the empty squares when `exact`.
    pub depth: u32,
    /// Whether the score is the exact result with best play (the endgame solver's).
    pub exact: bool,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, from the transposition table, the chosen move first.
    pub line: Vec<Move>,
}

/// Alpha-beta for 8x8 Othello on an evaluation, the way Othello programs search:
///
/// - **Iterative deepening** to a deadline, with **aspiration windows** (each iteration
///   searches a window around the last one's score first, widened when the score falls out).
/// - **Principal variation search**: the first move with the full window, the others with a
///   null window, searched again only when they beat it.
/// - **A transposition table** of bounds, depths and best moves, keyed by the exact discs.
/// - **Move ordering**: the table's move first, then, from 3 plies from the horizon, by a
///   shallow search (the evaluation of the position after each move, or a 2-ply search from
///   6 plies), nearer the horizon by the opponent's mobility.
/// - **Passes** do not count as a ply; finished games score their disc difference exactly.
/// - **The exact endgame**: when the empty squares are within what [`Endgame`] can solve by
///   the deadline, it decides the move and the score is exact.
///
/// ```
/// use games_othello::{Midgame, Othello};
/// use std::time::Duration;
///
/// let position = Othello::new().after_moves("f5d6c3d3c4")?;
/// let mut search = Midgame::new();
/// let thought = search.think_for(&position, Duration::from_millis(100)).unwrap();
/// assert!(position.is_legal(thought.best));
/// assert!(thought.depth >= 4);
/// # use game_core::Game;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Midgame<V = &'static Patterns> {
    value: V,
    table: Vec<Entry>,
    mask: usize,
    nodes: u64,
    deadline: Deadline,
    endgame: Endgame,
    exact: bool,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    probcut: bool,
}

impl<V> std::fmt::Debug for Midgame<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Midgame")
            .field("slots", &(self.mask + 1))
            .field("nodes", &self.nodes)
            .field("exact", &self.exact)
            .finish_non_exhaustive()
    }
}

/// A table entry: the position, bounds on its value, the depth they hold for, the best move.
#[derive(Clone, Copy, Default)]
struct Entry {
    me: u64,
    them: u64,
    lower: i16,
    upper: i16,
    depth: u8,
    best: u8,
}

/// A move with its flips and its place in the ordering.
#[derive(Clone, Copy, Default)]
struct Candidate {
    square: u64,
    flips: u64,
    key: i32,
}

impl Default for Midgame {
    fn default() -> Self {
        Midgame::new()
    }
}

impl Midgame {
    /// A search on the built-in [`Patterns`], with a table of 2^20 entries (24 MiB) and the
    /// exact endgame.
    #[must_use]
    pub fn new() -> Self {
        Midgame::with_value(Patterns::standard())
    }
}

impl<V: BoardValue> Midgame<V> {
    /// A search on this evaluation.
    pub fn with_value(value: V) -> Self {
        Midgame {
            value,
            table: Vec::new(),
            mask: (1 << 20) - 1,
            nodes: 0,
            deadline: Deadline::new(None),
            endgame: Endgame::new(),
            exact: true,
            stop: None,
            stopped: false,
            probcut: true,
        }
    }

    /// The same search without the exact endgame: the evaluation to the end (for tests and
    /// for measuring the evaluation itself).
    #[must_use]
    pub fn without_endgame(mut self) -> Self {
        self.exact = false;
        self
    }

    /// The same search without ProbCut: every move searched to the full depth.
    #[must_use]
    pub fn without_probcut(mut self) -> Self {
        self.probcut = false;
        self
    }

    /// A flag that stops the search when set (from another thread, a signal handler): the
    /// search then answers with what it has, as when its deadline passes.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.endgame.clear();
    }

    /// Searches `position` for `time` (see [`think`](Midgame::think)).
    pub fn think_for(&mut self, position: &Othello, time: Duration) -> Option<Thought> {
        self.think(position, Some(Instant::now() + time), 60)
    }

    /// Searches `position` to `max_depth` plies at most, stopping by `deadline`: the exact
    /// endgame if it can finish, else iterative deepening. `None` when the game is over.
    pub fn think(
        &mut self,
        position: &Othello,
        deadline: Option<Instant>,
        max_depth: u32,
    ) -> Option<Thought> {
        if position.status().is_over() {
            return None;
        }
        if self.table.is_empty() {
            self.table = vec![Entry::default(); self.mask + 1];
        }
        let start = Instant::now();
        let nodes_before = self.nodes;
        self.stopped = false;
        let mover = position.to_move();
        let (me, them) = (position.bits(mover), position.bits(mover.opponent()));
        let empties = 64 - (me | them).count_ones();
        let moves = movegen::moves(me, them, &Othello::GEOMETRY);
        if moves == 0 {
            // A pass is the only move.
            let mut line = vec![Move::Pass];
            let after = position.after(Move::Pass);
            let inner = self.think(&after, deadline, max_depth);
            let (score, depth, exact) = inner.as_ref().map_or((0, 0, false), |t| {
                line.extend(t.line.iter().copied());
                (-t.score, t.depth, t.exact)
            });
            return Some(Thought {
                best: Move::Pass,
                score,
                depth,
                exact,
                nodes: self.nodes - nodes_before,
                line,
            });
        }
        if moves.count_ones() == 1 {
            // One move: a short search for its score, no more.
            self.deadline = Deadline::new(None);
            let found = self.iterate(me, them, 4.min(max_depth), None, start);
            return Some(self.thought(me, them, found, nodes_before));
        }
        // The exact endgame, when it can finish: after a midgame search of a quarter of the
        // time, whose move stands if the endgame does not finish.
        if self.exact && empties <= 30 {
            let mut found = None;
            if let Some(end) = deadline {
                let part = start + end.saturating_duration_since(start) / 4;
                self.deadline = Deadline::new(Some(part));
                found = Some(self.iterate(me, them, max_depth, Some(part), start));
            }
            let endgame_nodes = Solve::<Othello>::nodes(&self.endgame);
            let solution = self.endgame.solve(position, deadline);
            let endgame_nodes = Solve::<Othello>::nodes(&self.endgame) - endgame_nodes;
            if let Some((best, proven)) = solution.best {
                let score = proven.margin.unwrap_or(0) * UNIT;
                return Some(Thought {
                    best,
                    score,
                    depth: empties,
                    exact: true,
                    nodes: self.nodes - nodes_before + endgame_nodes,
                    line: vec![best],
                });
            }
            self.nodes += endgame_nodes;
            if let Some(found) = found.filter(|_| deadline.is_some_and(|d| Instant::now() >= d)) {
                return Some(self.thought(me, them, found, nodes_before));
            }
        }
        self.deadline = Deadline::new(deadline);
        let found = self.iterate(me, them, max_depth, deadline, start);
        Some(self.thought(me, them, found, nodes_before))
    }

    fn thought(&self, me: u64, them: u64, found: (u8, i32, u32), nodes_before: u64) -> Thought {
        let (best, score, depth) = found;
        Thought {
            best: Move::Place(Square::from_index(best)),
            score,
            depth,
            exact: false,
            nodes: self.nodes - nodes_before,
            line: self.line(me, them, best),
        }
    }

    /// The line the table expects from the root, `first` first.
    fn line(&self, mut me: u64, mut them: u64, first: u8) -> Vec<Move> {
        let g = &Othello::GEOMETRY;
        let mut line = Vec::new();
        let mut next = first;
        while line.len() < 30 && next != NO_MOVE {
            let square = 1u64 << next;
            if movegen::moves(me, them, g) & square == 0 {
                break;
            }
            line.push(Move::Place(Square::from_index(next)));
            let flips = movegen::flips(me, them, square, g);
            (me, them) = (them & !flips, me | flips | square);
            if movegen::moves(me, them, g) == 0 {
                if movegen::moves(them, me, g) == 0 {
                    break;
                }
                line.push(Move::Pass);
                (me, them) = (them, me);
            }
            let entry = self.table[slot(me, them, self.mask)];
            next = if entry.me == me && entry.them == them {
                entry.best
            } else {
                NO_MOVE
            };
        }
        line
    }

    /// Iterative deepening from the root `me` against `them` (who has a move): the best move,
    /// its score and the depth of the last iteration that settled them.
    fn iterate(
        &mut self,
        me: u64,
        them: u64,
        max_depth: u32,
        deadline: Option<Instant>,
        start: Instant,
    ) -> (u8, i32, u32) {
        let g = &Othello::GEOMETRY;
        let empties = 64 - (me | them).count_ones();
        let moves = movegen::moves(me, them, g);
        let mut list = [Candidate::default(); 32];
        let count = self.order(me, them, moves, NO_MOVE, 3, &mut list);
        let mut best = (list[0].square.trailing_zeros() as u8, 0, 0);
        let mut guess = self.value.board_value(me, them, moves);
        for depth in 1..=max_depth.max(1) {
            // Aspiration: a window around the last score, widened on each side that fails.
            let (mut below, mut above) = (2 * UNIT, 2 * UNIT);
            let result = loop {
                let (alpha, beta) = if depth <= 2 {
                    (-INFINITY, INFINITY)
                } else {
                    (
                        (guess - below).max(-INFINITY),
                        (guess + above).min(INFINITY),
                    )
                };
                let Some((square, score)) =
                    self.root(me, them, &mut list[..count], depth, alpha, beta)
                else {
                    break None;
                };
                if score <= alpha && alpha > -INFINITY {
                    below *= 4;
                } else if score >= beta && beta < INFINITY {
                    above *= 4;
                } else {
                    break Some((square, score));
                }
            };
            let Some((square, score)) = result else { break };
            best = (square, score, depth);
            guess = score;
            if depth >= empties {
                break; // every line reaches the end: deeper is the same search
            }
            // Stop when the next iteration (a few times this one) would not end in time: once
            // half the time is spent.
            if let Some(deadline) = deadline {
                let spent = start.elapsed();
                let left = deadline.saturating_duration_since(Instant::now());
                if left < spent {
                    break;
                }
            }
        }
        best
    }

    /// One iteration at the root, moves in `list` (reordered: the best first for the next
    /// iteration). `None` when time ran out before the first move was searched.
    fn root(
        &mut self,
        me: u64,
        them: u64,
        list: &mut [Candidate],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(u8, i32)> {
        let mut best: Option<(usize, i32)> = None;
        for i in 0..list.len() {
            let c = list[i];
            let (child_me, child_them) = (them & !c.flips, me | c.flips | c.square);
            let score = if i == 0 {
                -self.pvs(child_me, child_them, depth - 1, -beta, -alpha)
            } else {
                let test = -self.pvs(child_me, child_them, depth - 1, -alpha - 1, -alpha);
                if test > alpha && test < beta {
                    -self.pvs(child_me, child_them, depth - 1, -beta, -test)
                } else {
                    test
                }
            };
            if self.stopped || self.deadline.expired() {
                // A move that beat the first one at this depth, before the time ran out, is
                // still better than the last iteration's choice.
                return best
                    .filter(|&(b, _)| b > 0)
                    .map(|(b, s)| (list[b].square.trailing_zeros() as u8, s));
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        let (b, score) = best?;
        list[..=b].rotate_right(1);
        Some((list[0].square.trailing_zeros() as u8, score))
    }

    /// The moves of `moves` with their flips, best first by the ordering for `depth` plies to
    /// go, `first` (the table's move) before all. Returns how many.
    fn order(
        &mut self,
        me: u64,
        them: u64,
        moves: u64,
        first: u8,
        depth: u32,
        list: &mut [Candidate; 32],
    ) -> usize {
        let g = &Othello::GEOMETRY;
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let square = rest & rest.wrapping_neg();
            rest ^= square;
            let flips = movegen::flips(me, them, square, g);
            let (child_me, child_them) = (them & !flips, me | flips | square);
            let replies = movegen::moves(child_me, child_them, g);
            let mut key = if depth >= 6 {
                -self.pvs(child_me, child_them, 1, -INFINITY, INFINITY)
            } else if depth >= 3 {
                -self.value.board_value(child_me, child_them, replies)
            } else {
                -(replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32)
            };
            if square.trailing_zeros() as u8 == first {
                key = i32::MAX;
            }
            list[count] = Candidate { square, flips, key };
            count += 1;
        }
        let list = &mut list[..count];
        list.sort_unstable_by_key(|c| std::cmp::Reverse(c.key));
        count
    }

    /// The value of `me` to move against `them` searched `depth` plies, within
    /// `(alpha, beta)` (fail-soft).
    fn pvs(&mut self, me: u64, them: u64, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        let g = &Othello::GEOMETRY;
        self.nodes += 1;
        // `passed` reads the clock once in its own 4096 calls: it must see every node.
        self.deadline.passed();
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
        }
        if self.stopped || self.deadline.expired() {
            return 0; // thrown away: the root sees the deadline passed
        }
        let moves = movegen::moves(me, them, g);
        if moves == 0 {
            if movegen::moves(them, me, g) == 0 {
                let empties = 64 - (me | them).count_ones();
                return final_score(me, them, empties) * UNIT;
            }
            return -self.pvs(them, me, depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.value.board_value(me, them, moves);
        }
        // ProbCut: off the principal variation, a shallow search that is far enough above
        // beta (or below alpha) predicts the deep one's cut-off; the deep search is skipped.
        let empties = 64 - (me | them).count_ones();
        if self.probcut && depth >= PROBCUT_FROM && depth < empties && beta - alpha == 1 {
            let shallow = probcut_shallow_depth(depth);
            let margin = probcut_margin(depth);
            let high = beta + margin;
            if high < INFINITY && self.pvs(me, them, shallow, high - 1, high) >= high {
                return beta;
            }
            let low = alpha - margin;
            if low > -INFINITY && self.pvs(me, them, shallow, low, low + 1) <= low {
                return alpha;
            }
        }
        let slot = slot(me, them, self.mask);
        let entry = self.table[slot];
        let mut first = NO_MOVE;
        if entry.me == me && entry.them == them {
            first = entry.best;
            if u32::from(entry.depth) >= depth {
                match narrow(i32::from(entry.lower), i32::from(entry.upper), alpha, beta) {
                    Err(score) => return score,
                    Ok(window) => (alpha, beta) = window,
                }
            }
        }
        let mut best = (NO_MOVE, -INFINITY);
        let original = alpha;
        if depth == 1 {
            // The horizon: each move's evaluation, no table.
            let mut rest = moves;
            while rest != 0 {
                let square = rest & rest.wrapping_neg();
                rest ^= square;
                let flips = movegen::flips(me, them, square, g);
                let score = -self.pvs(them & !flips, me | flips | square, 0, -beta, -alpha);
                if score > best.1 {
                    best = (square.trailing_zeros() as u8, score);
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        } else {
            let mut list = [Candidate::default(); 32];
            let count = self.order(me, them, moves, first, depth, &mut list);
            for (i, c) in list[..count].iter().enumerate() {
                let (child_me, child_them) = (them & !c.flips, me | c.flips | c.square);
                let score = if i == 0 {
                    -self.pvs(child_me, child_them, depth - 1, -beta, -alpha)
                } else {
                    let test = -self.pvs(child_me, child_them, depth - 1, -alpha - 1, -alpha);
                    if test > alpha && test < beta {
                        -self.pvs(child_me, child_them, depth - 1, -beta, -test)
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
        }
        if self.stopped || self.deadline.expired() {
            return best.1;
        }
        let (lower, upper) = if best.1 >= beta {
            (best.1, INFINITY)
        } else if best.1 <= original {
            (-INFINITY, best.1)
        } else {
            (best.1, best.1)
        };
        self.table[slot] = Entry {
            me,
            them,
            lower: lower as i16,
            upper: upper as i16,
            depth: depth as u8,
            best: best.0,
        };
        best.1
    }
}

/// ProbCut from this depth.
const PROBCUT_FROM: u32 = 3;

/// The depth of ProbCut's shallow search for a search of `depth` plies: about half, of the
/// same parity (the evaluation of positions with the other player to move is biased).
pub fn probcut_shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if half % 2 == depth % 2 {
        half
    } else {
        half.saturating_sub(1)
    }
}

/// How far beyond the window ProbCut's shallow search must be: 1.5 standard deviations of the
/// deep search's value around the shallow one's, measured by `othello_train probcut`.
fn probcut_margin(depth: u32) -> i32 {
    let sigma = PROBCUT_SIGMA[(depth as usize).min(PROBCUT_SIGMA.len() - 1)];
    (1.5 * sigma * UNIT as f32) as i32
}

/// The standard deviation, in discs, of a `depth`-ply search's value less its
/// [`probcut_shallow_depth`] search's, by depth (`othello_train probcut`).
const PROBCUT_SIGMA: [f32; 11] = [0.0, 0.0, 0.0, 4.7, 4.0, 5.4, 4.5, 4.0, 3.8, 4.3, 4.1];

/// The corners of the 8x8 board.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The table slot of a position.
#[inline]
fn slot(me: u64, them: u64, mask: usize) -> usize {
    (game_core::mix64(me ^ game_core::mix64(them)) as usize) & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Plain minimax on the same evaluation, to a depth (passes free, as the search counts).
    fn minimax<V: BoardValue>(value: &V, me: u64, them: u64, depth: u32) -> i32 {
        let g = &Othello::GEOMETRY;
        let moves = movegen::moves(me, them, g);
        if moves == 0 {
            if movegen::moves(them, me, g) == 0 {
                return final_score(me, them, 64 - (me | them).count_ones()) * UNIT;
            }
            return -minimax(value, them, me, depth);
        }
        if depth == 0 {
            return value.board_value(me, them, moves);
        }
        let mut best = -INFINITY;
        let mut rest = moves;
        while rest != 0 {
            let square = rest & rest.wrapping_neg();
            rest ^= square;
            let flips = movegen::flips(me, them, square, g);
            best = best.max(-minimax(
                value,
                them & !flips,
                me | flips | square,
                depth - 1,
            ));
        }
        best
    }

    fn random_position(rng: &mut rand_xoshiro::Xoshiro256PlusPlus, plies: u32) -> Othello {
        loop {
            let mut position = Othello::new();
            while position.plies() < plies && !position.status().is_over() {
                let action = position.random_action(rng).unwrap();
                position.play(action);
            }
            if !position.status().is_over() && position.mobility() != 0 {
                return position;
            }
        }
    }

    #[test]
    fn alpha_beta_finds_the_minimax_value_at_each_depth() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let value = crate::pattern::tests::random_patterns(4);
        for _ in 0..12 {
            let position = random_position(&mut rng, 20);
            let mover = position.to_move();
            let (me, them) = (position.bits(mover), position.bits(mover.opponent()));
            let mut search = Midgame::with_value(&value)
                .without_endgame()
                .without_probcut();
            for depth in 1..=4 {
                let thought = search.think(&position, None, depth).unwrap();
                assert_eq!(thought.depth, depth);
                assert_eq!(
                    thought.score,
                    minimax(&value, me, them, depth),
                    "depth {depth}"
                );
                let after = position.after(thought.best);
                let (am, at) = (
                    after.bits(after.to_move()),
                    after.bits(after.to_move().opponent()),
                );
                let child = if after.to_move() == mover {
                    minimax(&value, am, at, depth - 1)
                } else {
                    -minimax(&value, am, at, depth - 1)
                };
                assert_eq!(child, thought.score, "the move is worth the score");
            }
        }
    }

    #[test]
    fn deep_enough_the_search_finds_the_exact_result() {
        // With 14 to 16 empties and the depth to reach the end, the value is the final disc
        // difference, which the endgame solver knows.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
        let mut endgame = Endgame::new();
        for plies in [44, 46, 48, 50, 48, 46] {
            let position = random_position(&mut rng, plies);
            let (_, exact) = endgame.best_move(&position).unwrap();
            let mut search = Midgame::new().without_endgame();
            let thought = search.think(&position, None, 64).unwrap();
            assert_eq!(thought.score, exact * UNIT, "{position}");
            let mut with_endgame = Midgame::new();
            let thought = with_endgame.think(&position, None, 64).unwrap();
            assert!(thought.exact);
            assert_eq!(thought.score, exact * UNIT);
        }
    }

    #[test]
    fn a_deadline_is_kept_and_a_legal_move_comes_back() {
        let position = Othello::new().after_moves("f5d6c3d3c4f4f6").unwrap();
        let mut search = Midgame::new();
        let start = Instant::now();
        let thought = search
            .think_for(&position, Duration::from_millis(50))
            .unwrap();
        assert!(start.elapsed() < Duration::from_millis(500));
        assert!(position.is_legal(thought.best));
        assert_eq!(thought.line.first(), Some(&thought.best));
    }

    #[test]
    fn a_passed_deadline_stops_the_search_within_a_few_thousand_positions() {
        // The clock is read once in 4096 positions: a search whose deadline has passed must
        // stop soon after (it once read it once in 8 million, a second late at 1 s a move).
        let position = Othello::new().after_moves("f5d6c3d3c4f4f6f3e6e7").unwrap();
        let (me, them) = (position.bits(Player::Black), position.bits(Player::White));
        let mut search = Midgame::new().without_probcut();
        search.table = vec![Entry::default(); search.mask + 1];
        search.deadline = Deadline::new(Some(Instant::now()));
        search.pvs(me, them, 10, -INFINITY, INFINITY);
        assert!(search.deadline.expired());
        assert!(search.nodes < 5000, "{} positions", search.nodes);
        // Without the deadline the same search visits far more.
        search.deadline = Deadline::new(None);
        search.pvs(me, them, 10, -INFINITY, INFINITY);
        assert!(search.nodes > 100_000, "{} positions", search.nodes);
    }
}
