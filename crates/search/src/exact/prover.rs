//! [`Prover`]: an exact solver for every game, by brute force.

use std::time::Instant;

use game_core::{
    Game, Status, Wdl,
    solve::{Deadline, Proven, Solve},
};

/// A score beyond every reachable one: a win in `n` plies scores `WIN - n`.
const WIN: i32 = 1_000_000;
/// Scores at least this far from 0 are wins or losses.
const DECISIVE: i32 = WIN / 2;

/// An exact solver for any [`Game`]: NegaMax alpha-beta to the end of the game, with a
/// transposition table keyed by [`Game::position_hash`] and the best action of each position
/// tried first when it is met again. It finds the fastest win and the slowest loss (scores
/// count the plies to the end); it knows no draws' lengths.
///
/// It is what the `solver` agent uses for games without a solver of their own; games with one
/// (Connect Four, Hex, Othello's endgames) are far faster with theirs. Its reach is small
/// games and the last plies of larger ones.
///
/// ```
/// use game_core::{Game, Wdl, testing::TicTacToe, solve::{Proven, Solve}};
/// use search::Prover;
///
/// let mut prover = Prover::default();
/// assert_eq!(prover.prove(&TicTacToe::new(), None), Some(Proven::new(Wdl::Draw)));
/// // x to move wins on the diagonal at once.
/// let position: TicTacToe = "xo. / .x. / o..".parse()?;
/// let best = prover.solve(&position, None).best.unwrap();
/// assert_eq!((best.0.to_string(), best.1), ("c3".to_owned(), Proven::new(Wdl::Win).in_plies(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Prover<G: Game> {
    table: Vec<Entry>,
    slots: usize,
    /// A buffer of legal actions per ply from the root, reused.
    actions: Vec<Vec<G::Action>>,
    nodes: u64,
    deadline: Deadline,
}

impl<G: Game> std::fmt::Debug for Prover<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prover")
            .field("slots", &self.slots)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// A table entry: the position's hash, its score from the node (wins `WIN - plies`), which
/// bound that is, and the index of the best action among its legal actions.
#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    hash: u64,
    score: i32,
    bound: Bound,
    best: u16,
}

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

impl<G: Game> Default for Prover<G> {
    /// A prover with a 16 MiB table.
    fn default() -> Self {
        Prover::new(16 << 20)
    }
}

impl<G: Game> Prover<G> {
    /// A prover whose table takes about `table_bytes` bytes (at least one entry), allocated at
    /// its first use.
    #[must_use]
    pub fn new(table_bytes: usize) -> Self {
        let entries = (table_bytes / size_of::<Entry>()).max(1);
        Prover {
            table: Vec::new(),
            slots: 1 << entries.ilog2(),
            actions: Vec::new(),
            nodes: 0,
            deadline: Deadline::new(None),
        }
    }

    /// Scores from the root: a win `ply` plies below the root at `WIN - ply`.
    fn negamax(&mut self, position: &G, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if self.deadline.passed() {
            return 0;
        }
        self.nodes += 1;
        let depth = ply as i32;
        match position.status() {
            Status::Over(outcome) => {
                return match outcome.for_player(position.to_move()) {
                    Wdl::Win => WIN - depth,
                    Wdl::Loss => depth - WIN,
                    Wdl::Draw => 0,
                };
            }
            Status::Ongoing => {}
        }
        // Nobody can finish sooner than the next ply.
        alpha = alpha.max(depth + 1 - WIN);
        beta = beta.min(WIN - depth - 1);
        if alpha >= beta {
            return alpha;
        }
        let hash = position.position_hash();
        let slot = (hash as usize) & (self.slots - 1);
        let entry = self.table[slot];
        let mut first = 0;
        if entry.bound != Bound::Empty && entry.hash == hash {
            let score = from_node(entry.score, depth);
            match entry.bound {
                Bound::Exact => return score,
                Bound::Lower => alpha = alpha.max(score),
                Bound::Upper => beta = beta.min(score),
                Bound::Empty => {}
            }
            if alpha >= beta {
                return score;
            }
            first = usize::from(entry.best);
        }
        if self.actions.len() <= ply {
            self.actions.push(Vec::new());
        }
        let mut actions = std::mem::take(&mut self.actions[ply]);
        actions.clear();
        position.legal_actions(&mut actions);
        if first < actions.len() {
            actions.swap(0, first);
        }
        let original_alpha = alpha;
        let mut best = (i32::MIN, 0);
        for (i, &action) in actions.iter().enumerate() {
            let score = -self.negamax(&position.after(action), ply + 1, -beta, -alpha);
            if score > best.0 {
                best = (score, i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        // The best action's index in the list as generated (the first was swapped in).
        let index = match best.1 {
            0 => first,
            i if i == first => 0,
            i => i,
        };
        self.actions[ply] = actions;
        if self.deadline.expired() {
            return 0;
        }
        let bound = if best.0 <= original_alpha {
            Bound::Upper
        } else if best.0 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            hash,
            score: to_node(best.0, depth),
            bound,
            best: u16::try_from(index).unwrap_or(0),
        };
        best.0
    }
}

/// A score from the root, `depth` plies down, as the node's own.
fn to_node(score: i32, depth: i32) -> i32 {
    if score >= DECISIVE {
        score + depth
    } else if score <= -DECISIVE {
        score - depth
    } else {
        score
    }
}

/// A node's own score as a score from the root, the node `depth` plies down.
fn from_node(score: i32, depth: i32) -> i32 {
    to_node(score, -depth)
}

impl<G: Game> Solve<G> for Prover<G> {
    fn prove(&mut self, position: &G, deadline: Option<Instant>) -> Option<Proven> {
        if self.table.is_empty() {
            self.table = vec![Entry::default(); self.slots];
        }
        self.deadline = Deadline::new(deadline);
        let score = self.negamax(position, 0, -WIN, WIN);
        if self.deadline.expired() {
            return None;
        }
        Some(if score >= DECISIVE {
            Proven::new(Wdl::Win).in_plies((WIN - score) as u32)
        } else if score <= -DECISIVE {
            Proven::new(Wdl::Loss).in_plies((WIN + score) as u32)
        } else {
            Proven::new(Wdl::Draw)
        })
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Player;
    use game_core::testing::{TicTacToe, TreeGame};

    /// Plain minimax to the end, for the player to move: the reference.
    fn minimax(position: &TicTacToe) -> (Wdl, u32) {
        if let Status::Over(outcome) = position.status() {
            return (outcome.for_player(position.to_move()), 0);
        }
        let values = position.legal_actions_vec().into_iter().map(|a| {
            let (wdl, plies) = minimax(&position.after(a));
            (wdl.flip(), plies + 1)
        });
        // Best: win soonest, else draw, else lose latest.
        values
            .max_by_key(|&(wdl, plies)| match wdl {
                Wdl::Win => (2, -i64::from(plies)),
                Wdl::Draw => (1, 0),
                Wdl::Loss => (0, i64::from(plies)),
            })
            .unwrap()
    }

    #[test]
    fn every_tic_tac_toe_position_matches_minimax_with_distances() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut prover = Prover::new(1 << 12); // small: collisions and replacements too
        for _ in 0..300 {
            let mut position = TicTacToe::new();
            let plies = rand::RngExt::random_range(&mut rng, 0..8);
            for _ in 0..plies {
                if position.status().is_over() {
                    break;
                }
                let action = position.random_action(&mut rng).unwrap();
                position.play(action);
            }
            if position.status().is_over() {
                continue;
            }
            let (wdl, plies) = minimax(&position);
            let proven = prover.prove(&position, None).unwrap();
            assert_eq!(proven.outcome, wdl, "{position}");
            if wdl != Wdl::Draw {
                assert_eq!(proven.plies, Some(plies), "{position}");
            }
        }
    }

    #[test]
    fn game_trees_get_their_minimax_values() {
        for text in ["((BW)(BB))", "((B=)(W(BB)))", "(=(W(WB))((BB)B))", "(WW)"] {
            let game: TreeGame = text.parse().unwrap();
            // A prover per tree: a tree game's hash is its node's number, the same in all.
            let mut prover = Prover::default();
            let proven = prover.prove(&game, None).unwrap();
            assert_eq!(
                proven.outcome,
                game.value().for_player(Player::Black),
                "{text}"
            );
        }
    }

    #[test]
    fn a_passed_deadline_proves_nothing_and_leaves_the_table_sound() {
        let mut prover = Prover::default();
        let start = TicTacToe::new();
        assert_eq!(prover.prove(&start, Some(Instant::now())), None);
        assert_eq!(prover.prove(&start, None), Some(Proven::new(Wdl::Draw)));
    }
}
