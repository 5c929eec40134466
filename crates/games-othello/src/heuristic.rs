//! The classic Othello evaluator: material, mobility and square weights, by game phase.

use game_core::{Evaluator, Player};

use crate::OthelloBoard;

/// The part of the game a position is in, by how full the board is.
///
/// | phase | 8x8 | 6x6 | rule |
/// |---|---|---|---|
/// | [`Opening`](Phase::Opening) | up to 21 discs | up to 12 discs | at most a third of the board filled |
/// | [`Middle`](Phase::Middle) | 22 to 49 discs | 13 to 28 discs | in between |
/// | [`End`](Phase::End) | 14 or fewer empty | 7 or fewer empty | at most 14/64 of the board empty |
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Few discs: mobility and position matter, material does not yet.
    Opening,
    /// Position matters most.
    Middle,
    /// Few empty squares: the disc count is what decides the game.
    End,
}

impl Phase {
    /// The phase of a position with `discs` discs on a board of `cells` squares.
    #[must_use]
    pub fn of(discs: u32, cells: u32) -> Phase {
        let empty = cells.saturating_sub(discs);
        if discs * 3 <= cells {
            Phase::Opening
        } else if empty * 64 <= cells * 14 {
            Phase::End
        } else {
            Phase::Middle
        }
    }
}

/// How much each feature counts in one phase. The value is
/// `material * (disc difference) + mobility * (move-count difference) + position * (square-weight
/// difference)`, each difference taken as the player to move's minus the opponent's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PhaseWeights {
    /// Per disc.
    pub material: i32,
    /// Per legal move.
    pub mobility: i32,
    /// Per point of the square-weight table.
    pub position: i32,
}

/// The classic course evaluator for Othello: material, mobility and a weight per square, mixed
/// with weights that change with the [`Phase`] of the game.
///
/// # Square weights
///
/// Corners are worth most (500): a corner disc can never be flipped. The squares next to a
/// corner are dangerous while the corner is empty, because they give it away: -150 beside it
/// (the C-squares) and -250 diagonally (the X-squares). Edges are worth a little (10 to 30),
/// the four centre squares 16, the rest about nothing. The 8x8 table is the classic one; the
/// 6x6 table keeps the same roles on the smaller board (corners, C- and X-squares, edges 30,
/// centre 16):
///
/// ```text
///    8x8                                         6x6
///    500 -150  30  10  10  30 -150  500         500 -150  30  30 -150  500
///   -150 -250   0   0   0   0 -250 -150        -150 -250   0   0 -250 -150
///     30    0   1   2   2   1    0   30          30    0  16  16    0   30
///     10    0   2  16  16   2    0   10          30    0  16  16    0   30
///     10    0   2  16  16   2    0   10        -150 -250   0   0 -250 -150
///     30    0   1   2   2   1    0   30         500 -150  30  30 -150  500
///   -150 -250   0   0   0   0 -250 -150
///    500 -150  30  10  10  30 -150  500
/// ```
///
/// # Phases
///
/// | phase | material | mobility | position |
/// |---|---:|---:|---:|
/// | opening | 0 | 40 | 1 |
/// | middle | 0 | 40 | 1 |
/// | end | 100 | 0 | 1 |
///
/// Before the end, having moves (and not giving the opponent any) and good squares is what
/// counts; at the end, the discs, which decide the game. The course recipe weights position
/// more in the middle game; measured at depth 4 against UCT with 300 iterations (30 games each,
/// colours alternating), a position-heavy middle game (material 1, mobility 10, position 2)
/// scored 16 of 30, mobility 20 and position 2 scored 19, and the weights above 28.
///
/// ```
/// use game_core::Evaluator;
/// use games_othello::{Heuristic, Othello};
///
/// let heuristic = Heuristic::new();
/// // Black to move, Black holds the a1 corner: good for the player to move.
/// let corner: Othello = "X-------\
///                        --------\
///                        --------\
///                        ---OX---\
///                        ---XO---\
///                        --------\
///                        --------\
///                        -------- X".parse().unwrap();
/// assert!(heuristic.evaluate(&corner) > 0);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Heuristic {
    /// The weights of the opening, the middle game and the end, in that order.
    pub weights: [PhaseWeights; 3],
}

impl Default for Heuristic {
    fn default() -> Self {
        Heuristic {
            weights: [
                PhaseWeights {
                    material: 0,
                    mobility: 40,
                    position: 1,
                },
                PhaseWeights {
                    material: 0,
                    mobility: 40,
                    position: 1,
                },
                PhaseWeights {
                    material: 100,
                    mobility: 0,
                    position: 1,
                },
            ],
        }
    }
}

#[rustfmt::skip]
const WEIGHTS_8: [i32; 64] = [
     500, -150, 30, 10, 10, 30, -150,  500,
    -150, -250,  0,  0,  0,  0, -250, -150,
      30,    0,  1,  2,  2,  1,    0,   30,
      10,    0,  2, 16, 16,  2,    0,   10,
      10,    0,  2, 16, 16,  2,    0,   10,
      30,    0,  1,  2,  2,  1,    0,   30,
    -150, -250,  0,  0,  0,  0, -250, -150,
     500, -150, 30, 10, 10, 30, -150,  500,
];

/// The 6x6 table in the 8x8 frame (columns g-h and rows 7-8 are off the board).
#[rustfmt::skip]
const WEIGHTS_6: [i32; 64] = [
     500, -150, 30, 30, -150,  500, 0, 0,
    -150, -250,  0,  0, -250, -150, 0, 0,
      30,    0, 16, 16,    0,   30, 0, 0,
      30,    0, 16, 16,    0,   30, 0, 0,
    -150, -250,  0,  0, -250, -150, 0, 0,
     500, -150, 30, 30, -150,  500, 0, 0,
       0,    0,  0,  0,    0,    0, 0, 0,
       0,    0,  0,  0,    0,    0, 0, 0,
];

/// The features of a position, each as the player to move's minus the opponent's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Features {
    /// Disc difference.
    pub material: i32,
    /// Difference in the number of legal placements.
    pub mobility: i32,
    /// Difference in the sums of square weights.
    pub position: i32,
    /// The phase of the game.
    pub phase: Phase,
}

impl Heuristic {
    /// The weights documented above.
    #[must_use]
    pub fn new() -> Self {
        Heuristic::default()
    }

    /// The square-weight table of an `N`x`N` board, indexed `8 * row + column`.
    ///
    /// # Panics
    ///
    /// For a size other than 6 or 8 (the only sizes [`OthelloBoard`] can be built with).
    #[must_use]
    pub fn square_weights<const N: usize>() -> &'static [i32; 64] {
        match N {
            8 => &WEIGHTS_8,
            6 => &WEIGHTS_6,
            _ => unreachable!("Othello boards are 6x6 or 8x8"),
        }
    }

    /// The features the value is made of, for the player to move.
    #[must_use]
    pub fn features<const N: usize>(&self, position: &OthelloBoard<N>) -> Features {
        let me = game_core::Game::to_move(position);
        let them = me.opponent();
        let weights = Self::square_weights::<N>();
        let weight = |player: Player| -> i32 {
            let mut bits = position.bits(player);
            let mut sum = 0;
            while bits != 0 {
                sum += weights[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            sum
        };
        let discs = position.discs(me) + position.discs(them);
        Features {
            material: position.discs(me) as i32 - position.discs(them) as i32,
            mobility: position.mobility_of(me).count_ones() as i32
                - position.mobility_of(them).count_ones() as i32,
            position: weight(me) - weight(them),
            phase: Phase::of(discs, (N * N) as u32),
        }
    }
}

impl<const N: usize> Evaluator<OthelloBoard<N>> for Heuristic {
    fn evaluate(&self, position: &OthelloBoard<N>) -> i32 {
        let f = self.features(position);
        let w = self.weights[f.phase as usize];
        w.material * f.material + w.mobility * f.mobility + w.position * f.position
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Othello, Othello6};
    use game_core::Game;

    /// The same discs with the other player to move.
    fn other_side<const N: usize>(position: &OthelloBoard<N>) -> OthelloBoard<N> {
        let text = position.to_board_string();
        let (cells, mover) = text.split_at(text.len() - 1);
        let other = if mover == "X" { "O" } else { "X" };
        format!("{cells}{other}").parse().unwrap()
    }

    fn board(rows: &str, mover: &str) -> Othello {
        format!("{rows} {mover}").parse().unwrap()
    }

    #[test]
    fn a_corner_is_worth_more_than_an_x_square() {
        let centre = "---OX---\
                      ---XO---";
        let with = |first_rows: &str| {
            board(
                &format!("{first_rows}--------{centre}------------------------"),
                "X",
            )
        };
        let corner = with(
            "X-------\
                           --------",
        );
        let x_square = with(
            "--------\
                             -X------",
        );
        let c_square = with(
            "-X------\
                             --------",
        );
        let (fc, fx, fcs) = (
            Heuristic::new().features(&corner),
            Heuristic::new().features(&x_square),
            Heuristic::new().features(&c_square),
        );
        assert_eq!(fc.position - fx.position, 500 + 250);
        assert_eq!(fc.position - fcs.position, 500 + 150);
        let h = Heuristic::new();
        assert!(h.evaluate(&corner) > h.evaluate(&c_square));
        assert!(h.evaluate(&c_square) > h.evaluate(&x_square));
    }

    #[test]
    fn values_are_for_the_player_to_move() {
        let h = Heuristic::new();
        let mut position = Othello::new();
        for m in ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3"] {
            position = position.after_moves(m).unwrap();
            assert_eq!(
                h.evaluate(&position),
                -h.evaluate(&other_side(&position)),
                "{position}"
            );
        }
        let mut six = Othello6::new();
        for _ in 0..6 {
            six.play(six.legal_actions_vec()[0]);
            assert_eq!(h.evaluate(&six), -h.evaluate(&other_side(&six)), "{six}");
        }
    }

    #[test]
    fn phases_follow_the_filling_of_the_board() {
        assert_eq!(Phase::of(4, 64), Phase::Opening);
        assert_eq!(Phase::of(21, 64), Phase::Opening);
        assert_eq!(Phase::of(22, 64), Phase::Middle);
        assert_eq!(Phase::of(49, 64), Phase::Middle);
        assert_eq!(Phase::of(50, 64), Phase::End);
        assert_eq!(Phase::of(12, 36), Phase::Opening);
        assert_eq!(Phase::of(13, 36), Phase::Middle);
        assert_eq!(Phase::of(28, 36), Phase::Middle);
        assert_eq!(Phase::of(29, 36), Phase::End);
    }

    #[test]
    fn in_the_end_discs_decide() {
        // 52 discs, 12 empty: the end phase. Black has more discs but a worse square sum.
        let rows = "-OOOOOO-\
                    XXXXXXXX\
                    XXXXXXXX\
                    XXXXOOOO\
                    XXXXOOOO\
                    XXXXXXXX\
                    -XXXXXX-\
                    --------";
        let position = board(rows, "X");
        let f = Heuristic::new().features(&position);
        assert_eq!(f.phase, Phase::End);
        assert!(f.material > 0);
        assert!(Heuristic::new().evaluate(&position) > 0, "{f:?}");
    }

    #[test]
    fn the_six_by_six_table_is_symmetric_and_fits_the_board() {
        let w = Heuristic::square_weights::<6>();
        for row in 0..8 {
            for column in 0..8 {
                let v = w[row * 8 + column];
                if row >= 6 || column >= 6 {
                    assert_eq!(v, 0);
                } else {
                    assert_eq!(v, w[column * 8 + row]);
                    assert_eq!(v, w[row * 8 + 5 - column]);
                }
            }
        }
        let w8 = Heuristic::square_weights::<8>();
        for i in 0..64 {
            assert_eq!(w8[i], w8[(i % 8) * 8 + i / 8]);
        }
    }
}
