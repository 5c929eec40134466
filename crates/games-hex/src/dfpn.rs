//! [`Dfpn`]: a proof-number solver for Hex boards of every size, guided by virtual
//! connections.

use std::time::Instant;

use game_core::{
    Game, Wdl,
    solve::{Proven, Solution, Solve},
};

use crate::Hex;
use crate::bits::Bits;
use crate::board::{Domination, HexBoard};
use crate::hex::with_board;
use crate::notation::Move;
use crate::patterns::Patterns;

/// Proof and disproof numbers saturate here: a number this large stands for infinity.
const INFINITE: u32 = u32::MAX / 4;

/// Proves Hex positions with depth-first proof-number search (df-pn, Nagai 2002), the
/// algorithm of Benzene's solver: a best-first proof search run depth-first under thresholds,
/// with a transposition table of proof and disproof numbers.
///
/// Each position it enters is read with the knowledge the tree search asks of its busy nodes
/// ([`Hex::proven_moves`], [`Hex::inferior_cells`]): a winning virtual connection proves it
/// won at once; otherwise only the cells inside the opponent's must-play region are tried
/// (the others lose: the opponent plays the key of a connection the move leaves alone),
/// without the dead, captured, vulnerable and dominated ones (none of them is better than a
/// move kept), the likeliest first by the learned pattern weights ([`Patterns::learned`]).
/// An empty region proves the position lost. So it reaches far beyond the brute force of
/// [`Solver`](crate::Solver): 9x9 middle games, some in a fraction of a second, more in
/// seconds (`docs/algorithms.md`).
///
/// It proves who wins and one winning move, not the fastest: [`Proven::plies`] is `None`.
/// The table (kept between calls, so a game's later positions reuse the proofs of its earlier
/// ones) replaces an entry when another position falls in its slot.
///
/// ```
/// use game_core::{Wdl, solve::Solve};
/// use games_hex::{Dfpn, Hex};
///
/// // 5x5 after c3 b4, Black to move: Black wins (the centre wins 5x5 whatever the answer).
/// let mut dfpn = Dfpn::with_table_bytes(1 << 20);
/// let solution = dfpn.solve(&Hex::new(5)?.after_moves("c3 b4")?, None);
/// let (_, value) = solution.best.unwrap();
/// assert_eq!(value.outcome, Wdl::Win);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Dfpn {
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The cell that proves the root won, once it is.
    winning: Option<usize>,
    /// A buffer of children per depth, reused.
    children: Vec<Vec<Child>>,
}

impl std::fmt::Debug for Dfpn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dfpn")
            .field("slots", &self.table.len())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// A table entry: the position's hash and its proof and disproof numbers (for the player to
/// move: the proof number is how many positions at least remain to prove it won).
#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    hash: u64,
    proof: u32,
    disproof: u32,
}

/// A move tried from a position: its cell, the hash of the position after it, and that
/// position's numbers as last read.
#[derive(Clone, Copy, Debug)]
struct Child {
    cell: u16,
    hash: u64,
    proof: u32,
    disproof: u32,
}

/// What a position is, as the knowledge reads it.
enum Reading<const W: usize> {
    /// Won for the player to move, by these cells (not empty).
    Won(Bits<W>),
    /// Lost whatever the player to move plays.
    Lost,
    /// To be searched: its moves are in the children's buffer, likeliest first.
    Open,
}

impl Default for Dfpn {
    fn default() -> Self {
        Dfpn::new()
    }
}

impl Dfpn {
    /// A solver with a 64 MiB table.
    #[must_use]
    pub fn new() -> Self {
        Dfpn::with_table_bytes(64 << 20)
    }

    /// A solver whose table takes at most `bytes` bytes (16 a position, a power of two of
    /// them, at least one).
    #[must_use]
    pub fn with_table_bytes(bytes: usize) -> Self {
        let slots = (bytes / size_of::<Entry>()).max(1);
        Dfpn {
            table: vec![Entry::default(); 1 << slots.ilog2()],
            nodes: 0,
            deadline: None,
            stopped: false,
            winning: None,
            children: Vec::new(),
        }
    }

    /// Empties the table (every proof in it) and the node count.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.nodes = 0;
    }

    fn slot(&self, hash: u64) -> usize {
        (hash as usize) & (self.table.len() - 1)
    }

    /// The numbers of the position `hash`: as stored, or 1 and 1 for one not yet searched.
    fn numbers(&self, hash: u64) -> (u32, u32) {
        let entry = self.table[self.slot(hash)];
        if entry.hash == hash && (entry.proof, entry.disproof) != (0, 0) {
            (entry.proof, entry.disproof)
        } else {
            (1, 1)
        }
    }

    fn store(&mut self, hash: u64, proof: u32, disproof: u32) {
        let slot = self.slot(hash);
        self.table[slot] = Entry {
            hash,
            proof,
            disproof,
        };
    }

    /// Searches `board` until its numbers reach a threshold (or it is proven, or the deadline
    /// passes); returns its proof and disproof numbers.
    fn search<const W: usize>(
        &mut self,
        board: &HexBoard<W>,
        depth: usize,
        proof_limit: u32,
        disproof_limit: u32,
    ) -> (u32, u32) {
        self.nodes += 1;
        let hash = board.position_hash();
        if self.deadline.is_some_and(|at| Instant::now() >= at) {
            self.stopped = true;
            return self.numbers(hash);
        }
        if self.children.len() <= depth {
            self.children.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[depth]);
        children.clear();
        let numbers = match read(board, &mut children) {
            Reading::Won(cells) => {
                if depth == 0 {
                    self.winning = cells.iter().next();
                }
                (0, INFINITE)
            }
            Reading::Lost => (INFINITE, 0),
            Reading::Open => {
                for child in &mut children {
                    (child.proof, child.disproof) = self.numbers(child.hash);
                }
                self.descend(board, depth, &mut children, proof_limit, disproof_limit)
            }
        };
        self.children[depth] = children;
        self.store(hash, numbers.0, numbers.1);
        numbers
    }

    /// The loop of [`search`](Self::search) over the children of an open position.
    fn descend<const W: usize>(
        &mut self,
        board: &HexBoard<W>,
        depth: usize,
        children: &mut [Child],
        proof_limit: u32,
        disproof_limit: u32,
    ) -> (u32, u32) {
        loop {
            // The mover wins if some child is lost for its mover: the least disproof number.
            let (mut best, mut least, mut second) = (0, INFINITE, INFINITE);
            let mut sum = 0u32;
            for (i, child) in children.iter().enumerate() {
                if child.disproof < least {
                    (second, least, best) = (least, child.disproof, i);
                } else if child.disproof < second {
                    second = child.disproof;
                }
                sum = sum.saturating_add(child.proof).min(INFINITE);
            }
            let (proof, disproof) = (least, sum);
            if proof == 0 || disproof == 0 {
                if proof == 0 && depth == 0 {
                    self.winning = Some(usize::from(children[best].cell));
                }
                return (proof, disproof);
            }
            if proof >= proof_limit || disproof >= disproof_limit || self.stopped {
                return (proof, disproof);
            }
            let child = children[best];
            // The child's proof number counts in the sum; its disproof number must stay
            // below the second best's (with Pawlewicz and Lew's 1 + 1/4 margin, which saves
            // switching back and forth).
            let child_proof_limit = (disproof_limit - disproof)
                .saturating_add(child.proof)
                .min(INFINITE);
            let child_disproof_limit =
                proof_limit.min(second.saturating_add(second / 4 + 1).min(INFINITE));
            let after = board.after_stone(usize::from(child.cell));
            let (p, d) = self.search(&after, depth + 1, child_proof_limit, child_disproof_limit);
            children[best].proof = p;
            children[best].disproof = d;
        }
    }

    /// Searches `position` (ongoing, the swap decided) until it is proven or the deadline
    /// passes: its numbers, and the move that proves it won when it is.
    fn run<const W: usize>(
        &mut self,
        board: &HexBoard<W>,
        deadline: Option<Instant>,
    ) -> (u32, u32, Option<usize>) {
        self.deadline = deadline;
        self.stopped = false;
        self.winning = None;
        let (proof, disproof) = self.search(board, 0, INFINITE, INFINITE);
        (proof, disproof, self.winning.filter(|_| proof == 0))
    }
}

/// Reads `board` (ongoing): won, lost, or open with its moves worth trying in `children`,
/// the likeliest first.
fn read<const W: usize>(board: &HexBoard<W>, children: &mut Vec<Child>) -> Reading<W> {
    let mover = board.to_move();
    let now = board.winning_cells(mover);
    if !now.is_empty() {
        return Reading::Won(now);
    }
    // One fill-in for both: the connections are read on the filled board.
    let (inferior, outclassed) = board.inferior_and_outclassed(Domination::FillIn);
    let decided = board.decided_moves_after(&inferior);
    if !decided.won.is_empty() {
        return Reading::Won(decided.won);
    }
    let open = board.empty() & !inferior.all() & !decided.lost;
    let kept = if (open & !outclassed).is_empty() {
        open
    } else {
        open & !outclassed
    };
    if kept.is_empty() {
        return Reading::Lost;
    }
    let shapes = board.shapes();
    let patterns = Patterns::learned();
    let start = children.len();
    children.extend(kept.iter().map(|i| Child {
        cell: i as u16,
        hash: board.after_stone(i).position_hash(),
        proof: 1,
        disproof: 1,
    }));
    children[start..].sort_by(|a, b| {
        let weight = |c: &Child| patterns.weight(shapes.at(usize::from(c.cell)));
        weight(b).total_cmp(&weight(a))
    });
    Reading::Open
}

/// Whether df-pn takes `position`: an ongoing game whose swap, if any, is decided.
fn searchable(position: &Hex) -> bool {
    !(position.status().is_over() || position.swap_rule() && position.plies() == 1)
}

impl Solve<Hex> for Dfpn {
    /// Whether the player to move wins, when proven before `deadline`; `None` while the swap
    /// is still to be decided.
    fn prove(&mut self, position: &Hex, deadline: Option<Instant>) -> Option<Proven> {
        if !searchable(position) {
            return None;
        }
        let (proof, disproof, _) = with_board!(&position.0, b => self.run(b, deadline));
        match (proof, disproof) {
            (0, _) => Some(Proven::new(Wdl::Win)),
            (_, 0) => Some(Proven::new(Wdl::Loss)),
            _ => None,
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A winning move as the best action when the position is proven won. Otherwise no best
    /// action, so that an agent falls back on its search: when the position is not proven, the
    /// moves proven lost so far are the actions (that search chooses among the others); when
    /// it is proven lost, none (the search plays on as it chooses).
    fn solve(&mut self, position: &Hex, deadline: Option<Instant>) -> Solution<Move> {
        let mut solution = Solution::default();
        if !searchable(position) {
            return solution;
        }
        with_board!(&position.0, b => {
            let (_, disproof, winning) = self.run(b, deadline);
            if let Some(cell) = winning {
                let best = (Move::Place(b.cell_at(cell)), Proven::new(Wdl::Win));
                solution.actions.push(best);
                solution.best = Some(best);
            } else if disproof != 0 {
                for i in b.empty().iter() {
                    let after = b.after_stone(i).position_hash();
                    let (proof, _) = self.numbers(after);
                    if proof == 0 {
                        let lost = Proven::new(Wdl::Loss);
                        solution.actions.push((Move::Place(b.cell_at(i)), lost));
                    }
                }
            }
        });
        solution
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;
    use rand::{SeedableRng, seq::IndexedRandom};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random positions of `size` with `stones` stones each (those not over yet).
    fn positions(size: u8, stones: &[usize], count: usize, seed: u64) -> Vec<Hex> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut found = Vec::new();
        while found.len() < count {
            let mut position = Hex::new(size).unwrap();
            for _ in 0..stones[found.len() % stones.len()] {
                let moves = position.legal_actions_vec();
                position.play(*moves.choose(&mut rng).unwrap());
            }
            if !position.status().is_over() {
                found.push(position);
            }
        }
        found
    }

    /// Df-pn agrees with the brute-force solver (a reference that knows no virtual
    /// connections) on who wins, and the move it gives as winning wins.
    fn agrees_with_the_exact_solver(positions: &[Hex]) {
        let mut exact = Solver::with_table_bytes(16 << 20);
        let mut dfpn = Dfpn::with_table_bytes(1 << 20);
        let (mut won, mut lost) = (0, 0);
        for position in positions {
            let expected = exact.winner(position) == position.to_move();
            let value = dfpn
                .prove(position, None)
                .expect("proven without a deadline");
            assert_eq!(value.outcome == Wdl::Win, expected, "{position}");
            let best = dfpn.solve(position, None).best;
            assert_eq!(best.is_some(), expected, "{position}");
            if let Some((action, _)) = best {
                let after = position.after(action);
                assert!(
                    after.status().is_over() || exact.winner(&after) == position.to_move(),
                    "{action} does not win in {position}"
                );
                won += 1;
            } else {
                lost += 1;
            }
        }
        assert!(won > 0 && lost > 0, "{won} won, {lost} lost");
    }

    #[test]
    fn agrees_with_the_exact_solver_on_5x5() {
        agrees_with_the_exact_solver(&positions(5, &[3, 4, 5, 6, 8], 40, 21));
    }

    /// With a table of one entry, every proof is forgotten at once: the winning move still
    /// comes back with the proof.
    #[test]
    fn a_tiny_table_still_gives_the_winning_move() {
        let mut exact = Solver::with_table_bytes(16 << 20);
        let mut dfpn = Dfpn::with_table_bytes(0);
        for position in positions(5, &[6, 8], 20, 24) {
            let best = dfpn.solve(&position, None).best;
            assert_eq!(
                best.is_some(),
                exact.winner(&position) == position.to_move()
            );
            if let Some((action, _)) = best {
                let after = position.after(action);
                assert!(after.status().is_over() || exact.winner(&after) == position.to_move());
            }
        }
    }

    #[test]
    fn agrees_with_the_exact_solver_on_6x6() {
        agrees_with_the_exact_solver(&positions(6, &[16, 18, 20], 12, 22));
    }

    /// A 9x9 position from a game lost to MoHex 2.0 (`scripts/data/hex-9x9-missed-wins.txt`):
    /// Black to move had a proven win (MoHex's solver: c3, i4, g6 or g7) and played a losing
    /// move; df-pn proves the win and plays one of those.
    #[test]
    fn proves_a_missed_win_from_a_game_against_mohex() {
        let moves = "a5 e5 d6 d5 b6 b7 c6 d7 c7 b9 c8 c9 d8 f7 e9 b5 c5 d3 h2 g3 h3 e6 f6 e7 d4 e3";
        let position = Hex::new(9).unwrap().after_moves(moves).unwrap();
        let mut dfpn = Dfpn::with_table_bytes(16 << 20);
        let (action, value) = dfpn.solve(&position, None).best.expect("proven");
        assert_eq!(value.outcome, Wdl::Win);
        assert!(
            ["c3", "i4", "g6", "g7"].contains(&action.to_string().as_str()),
            "{action}"
        );
    }
}
