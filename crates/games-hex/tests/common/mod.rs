//! What several test files share: a Hex board written the obvious way, to check the
//! bitboards against.

#![allow(dead_code)]

use game_core::{Game, Outcome, Player, Status};
use games_hex::{Cell, Hex};
use rand::{Rng, RngExt};

/// A Hex board the obvious way: a grid of cells and a depth-first search from one edge.
pub(crate) struct Grid {
    pub(crate) n: usize,
    pub(crate) cells: Vec<Option<Player>>,
}

impl Grid {
    pub(crate) fn of(hex: &Hex) -> Grid {
        let n = usize::from(hex.size());
        let cells = (0..n * n)
            .map(|i| hex.at(Cell::new((i % n) as u8, (i / n) as u8)))
            .collect();
        Grid { n, cells }
    }

    /// Does `player` connect its edges? Black: row 0 to row n-1; White: column 0 to n-1.
    pub(crate) fn connects(&self, player: Player) -> bool {
        let n = self.n as isize;
        let at = |x: isize, y: isize| {
            (0..n).contains(&x)
                && (0..n).contains(&y)
                && self.cells[(y * n + x) as usize] == Some(player)
        };
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<(isize, isize)> = (0..n)
            .map(|k| {
                if player == Player::Black {
                    (k, 0)
                } else {
                    (0, k)
                }
            })
            .filter(|&(x, y)| at(x, y))
            .collect();
        while let Some((x, y)) = stack.pop() {
            if std::mem::replace(&mut seen[(y * n + x) as usize], true) {
                continue;
            }
            if (player == Player::Black && y == n - 1) || (player == Player::White && x == n - 1) {
                return true;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                if at(x + dx, y + dy) && !seen[((y + dy) * n + x + dx) as usize] {
                    stack.push((x + dx, y + dy));
                }
            }
        }
        false
    }

    pub(crate) fn status(&self) -> Status {
        match (self.connects(Player::Black), self.connects(Player::White)) {
            (true, true) => panic!("both players connect"),
            (true, false) => Status::Over(Outcome::Win(Player::Black)),
            (false, true) => Status::Over(Outcome::Win(Player::White)),
            (false, false) => Status::Ongoing,
        }
    }
}

/// A position of a random game on a `size` board with `empty` empty cells left, not over.
pub(crate) fn random_position(size: u32, empty: u32, rng: &mut impl Rng) -> Hex {
    loop {
        let mut position = Hex::new(size as u8).unwrap();
        while size * size - position.plies() > empty && !position.status().is_over() {
            let moves = position.legal_actions_vec();
            position = position.after(moves[rng.random_range(0..moves.len())]);
        }
        if !position.status().is_over() {
            return position;
        }
    }
}
