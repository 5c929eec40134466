//! The bitboard move generator and flips against a naive mailbox reference written for this
//! test: the same random games on both, compared after every move, on both sizes.

use game_core::{Game, Player};
use games_othello::{Move, OthelloBoard, Square};
use proptest::prelude::*;

/// Othello the obvious way: an array of cells, eight directions walked one step at a time.
#[derive(Clone)]
struct Mailbox {
    n: i32,
    cells: Vec<Option<Player>>,
    to_move: Player,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl Mailbox {
    fn from<const N: usize>(board: &OthelloBoard<N>) -> Self {
        let n = N as i32;
        let mut cells = Vec::new();
        for row in 0..n {
            for column in 0..n {
                cells.push(board.at(Square::new(column as u8, row as u8)));
            }
        }
        Mailbox {
            n,
            cells,
            to_move: board.to_move(),
        }
    }

    fn at(&self, column: i32, row: i32) -> Option<Option<Player>> {
        ((0..self.n).contains(&column) && (0..self.n).contains(&row))
            .then(|| self.cells[(row * self.n + column) as usize])
    }

    /// The discs `player` would flip by playing at (column, row).
    fn flips(&self, player: Player, column: i32, row: i32) -> Vec<(i32, i32)> {
        if self.at(column, row) != Some(None) {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut c, mut r) = (column + dc, row + dr);
            while self.at(c, r) == Some(Some(player.opponent())) {
                line.push((c, r));
                c += dc;
                r += dr;
            }
            if self.at(c, r) == Some(Some(player)) {
                all.extend(line);
            }
        }
        all
    }

    fn moves(&self, player: Player) -> Vec<Square> {
        let mut moves = Vec::new();
        for row in 0..self.n {
            for column in 0..self.n {
                if !self.flips(player, column, row).is_empty() {
                    moves.push(Square::new(column as u8, row as u8));
                }
            }
        }
        moves
    }

    fn play(&mut self, action: Move) {
        if let Move::Place(square) = action {
            let (column, row) = (i32::from(square.column()), i32::from(square.row()));
            for (c, r) in self.flips(self.to_move, column, row) {
                self.cells[(r * self.n + c) as usize] = Some(self.to_move);
            }
            self.cells[(row * self.n + column) as usize] = Some(self.to_move);
        }
        self.to_move = self.to_move.opponent();
    }
}

fn compare<const N: usize>(choices: &[usize]) -> Result<(), TestCaseError> {
    let mut board = OthelloBoard::<N>::new();
    let mut reference = Mailbox::from(&board);
    for &choice in choices {
        let mine = reference.moves(reference.to_move);
        let theirs = reference.moves(reference.to_move.opponent());
        let expected: Vec<Move> = match (mine.is_empty(), theirs.is_empty()) {
            (false, _) => mine.iter().copied().map(Move::Place).collect(),
            (true, false) => vec![Move::Pass],
            (true, true) => Vec::new(),
        };
        let mut actual = board.legal_actions_vec();
        actual.sort_by_key(|m| match m {
            Move::Place(s) => s.index(),
            Move::Pass => 64,
        });
        prop_assert_eq!(&actual, &expected, "legal moves differ in\n{}", board);
        prop_assert_eq!(board.status().is_over(), expected.is_empty());
        let parsed = board.to_board_string().parse::<OthelloBoard<N>>();
        prop_assert_eq!(parsed.as_ref(), Ok(&board));
        if expected.is_empty() {
            return Ok(());
        }
        let action = expected[choice % expected.len()];
        board.play(action);
        reference.play(action);
        let replayed = Mailbox::from(&board);
        prop_assert_eq!(
            &replayed.cells,
            &reference.cells,
            "discs differ after {}:\n{}",
            action,
            board
        );
        prop_assert_eq!(replayed.to_move, reference.to_move);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn eight_by_eight_matches_the_mailbox_reference(choices in prop::collection::vec(any::<usize>(), 0..=70)) {
        compare::<8>(&choices)?;
    }

    #[test]
    fn six_by_six_matches_the_mailbox_reference(choices in prop::collection::vec(any::<usize>(), 0..=40)) {
        compare::<6>(&choices)?;
    }
}
