//! The bitboard against a plain 2-D array written for this test: the same random games on
//! both, compared after every move, on several board sizes.

use game_core::{Game, Outcome, Player, Status};
use games_connect4::{Bits, Column, Connect4Board};
use proptest::prelude::*;

/// Connect Four the obvious way: a grid of cells, every line of four checked from scratch.
struct Reference {
    width: usize,
    height: usize,
    /// `grid[column][row]`, row 0 at the bottom.
    grid: Vec<Vec<Option<Player>>>,
    to_move: Player,
    outcome: Option<Outcome>,
}

impl Reference {
    fn new(width: usize, height: usize) -> Self {
        Reference {
            width,
            height,
            grid: vec![vec![None; height]; width],
            to_move: Player::Black,
            outcome: None,
        }
    }

    fn legal(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..self.width)
            .filter(|&c| self.grid[c][self.height - 1].is_none())
            .collect()
    }

    fn play(&mut self, column: usize) {
        let row = self.grid[column]
            .iter()
            .position(Option::is_none)
            .expect("column not full");
        self.grid[column][row] = Some(self.to_move);
        if self.four_in_a_row(self.to_move) {
            self.outcome = Some(Outcome::Win(self.to_move));
        } else if self.grid.iter().all(|c| c.iter().all(Option::is_some)) {
            self.outcome = Some(Outcome::Draw);
        }
        self.to_move = self.to_move.opponent();
    }

    fn four_in_a_row(&self, player: Player) -> bool {
        let at = |c: isize, r: isize| {
            (0..self.width as isize).contains(&c)
                && (0..self.height as isize).contains(&r)
                && self.grid[c as usize][r as usize] == Some(player)
        };
        (0..self.width as isize).any(|c| {
            (0..self.height as isize).any(|r| {
                [(1, 0), (0, 1), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dc, dr)| (0..4).all(|k| at(c + k * dc, r + k * dr)))
            })
        })
    }
}

fn compare<B: Bits>(width: u8, height: u8, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut board = Connect4Board::<B>::with_size(width, height).unwrap();
    let mut reference = Reference::new(width.into(), height.into());
    for &choice in choices {
        let legal = reference.legal();
        let columns: Vec<usize> = board
            .legal_actions_vec()
            .iter()
            .map(|c| c.index().into())
            .collect();
        prop_assert_eq!(&columns, &legal, "legal columns differ in\n{}", board);
        for column in 0..usize::from(width) + 1 {
            prop_assert_eq!(
                board.is_legal(Column::new(column as u8)),
                legal.contains(&column)
            );
        }
        let expected = reference.outcome.map_or(Status::Ongoing, Status::Over);
        prop_assert_eq!(board.status(), expected, "status differs in\n{}", board);
        prop_assert_eq!(board.to_move(), reference.to_move);
        for column in 0..width {
            for row in 0..height {
                prop_assert_eq!(
                    board.at(column, row),
                    reference.grid[usize::from(column)][usize::from(row)]
                );
            }
        }
        if legal.is_empty() {
            return Ok(());
        }
        let column = legal[choice % legal.len()];
        board.play(Column::new(column as u8));
        reference.play(column);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn bitboard_matches_the_reference_on_64_bit_boards(
        size in prop::sample::select(vec![(7u8, 6u8), (6, 7), (8, 7), (4, 4), (5, 4), (6, 5), (9, 5), (3, 3)]),
        choices in prop::collection::vec(any::<usize>(), 0..=72),
    ) {
        compare::<u64>(size.0, size.1, &choices)?;
    }

    #[test]
    fn bitboard_matches_the_reference_on_128_bit_boards(
        size in prop::sample::select(vec![(9u8, 7u8), (10, 10), (7, 6), (16, 6), (8, 14)]),
        choices in prop::collection::vec(any::<usize>(), 0..=128),
    ) {
        compare::<u128>(size.0, size.1, &choices)?;
    }
}
