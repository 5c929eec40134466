//! [`Hex`]: one type for every board size, over boards compiled for each word count, and its
//! text (the drawing, move lists).

use std::fmt;

use game_core::{Game, PlayedActions, Player, Playout, Status};
use rand::Rng;

use crate::bits::{MAX_SIDE, words_for};
use crate::board::{HexBoard, draw};
use crate::notation::{Cell, Move, MoveErrorKind, MovesError, SizeError};

/// A Hex position on a board from 1x1 to 19x19, with or without the swap rule.
///
/// Black moves first and connects row 1 to the last row; White connects column `a` to the last
/// column. Cell (x, y) touches (x±1, y), (x, y±1), (x+1, y-1) and (x-1, y+1). Hex has no draws.
///
/// The size is chosen at run time, but the board is compiled for each number of 64-bit words
/// its cells need (1 word up to 8x8, 2 up to 11x11, 3 up to 13x13, ... 6 for 19x19), so an
/// 11x11 board works on two words and pays nothing for 19x19 being possible: one predictable
/// branch per call to pick the compiled board.
///
/// ```
/// use game_core::{Game, Outcome, Player, Status};
/// use games_hex::Hex;
///
/// let game = Hex::new(3)?.after_moves("b2 a2 b1 c1 b3")?;
/// assert_eq!(game.status(), Status::Over(Outcome::Win(Player::Black)));
/// println!("{game}");
///
/// // With the swap rule, White may take Black's first stone (mirrored to b3, now White's).
/// let swapped = Hex::with_swap(11)?.after_moves("c2 swap-pieces")?;
/// assert_eq!(swapped.at("b3".parse()?), Some(Player::White));
/// assert_eq!(swapped.to_move(), Player::Black);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Hex(pub(crate) Board);

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Board {
    W1(HexBoard<1>),
    W2(HexBoard<2>),
    W3(HexBoard<3>),
    W4(HexBoard<4>),
    W5(HexBoard<5>),
    W6(HexBoard<6>),
}

/// Runs `$e` with `$b` bound to the board, whatever its word count.
macro_rules! with_board {
    ($self:expr, $b:ident => $e:expr) => {
        match $self {
            $crate::hex::Board::W1($b) => $e,
            $crate::hex::Board::W2($b) => $e,
            $crate::hex::Board::W3($b) => $e,
            $crate::hex::Board::W4($b) => $e,
            $crate::hex::Board::W5($b) => $e,
            $crate::hex::Board::W6($b) => $e,
        }
    };
}
pub(crate) use with_board;

impl Hex {
    /// The empty `size`x`size` board, Black to move, without the swap rule.
    ///
    /// # Errors
    ///
    /// [`SizeError`] for a size outside 1 to 19.
    pub fn new(size: u8) -> Result<Hex, SizeError> {
        Hex::build(size, false)
    }

    /// The empty `size`x`size` board with the swap (pie) rule: White may answer Black's first
    /// stone with [`Move::Swap`].
    ///
    /// # Errors
    ///
    /// [`SizeError`] for a size outside 1 to 19.
    pub fn with_swap(size: u8) -> Result<Hex, SizeError> {
        Hex::build(size, true)
    }

    fn build(n: u8, swap: bool) -> Result<Hex, SizeError> {
        if !(1..=MAX_SIDE).contains(&n) {
            return Err(SizeError(u32::from(n)));
        }
        Ok(Hex(match words_for(n) {
            1 => Board::W1(HexBoard::new(n, swap)),
            2 => Board::W2(HexBoard::new(n, swap)),
            3 => Board::W3(HexBoard::new(n, swap)),
            4 => Board::W4(HexBoard::new(n, swap)),
            5 => Board::W5(HexBoard::new(n, swap)),
            _ => Board::W6(HexBoard::new(n, swap)),
        }))
    }

    /// The side of the board.
    #[must_use]
    pub fn size(&self) -> u8 {
        with_board!(&self.0, b => b.size())
    }

    /// Whether the game has the swap rule.
    #[must_use]
    pub fn swap_rule(&self) -> bool {
        with_board!(&self.0, b => b.swap_rule())
    }

    /// How many moves have been played (a swap counts as one).
    #[must_use]
    pub fn plies(&self) -> u32 {
        with_board!(&self.0, b => b.plies())
    }

    /// Who has a stone on `cell`; `None` for an empty cell or one off the board.
    #[must_use]
    pub fn at(&self, cell: Cell) -> Option<Player> {
        with_board!(&self.0, b => b.at(cell))
    }

    /// Why `action` cannot be played here, or `Ok` if it can.
    ///
    /// # Errors
    ///
    /// The reason: the game is over, the cell is off the board or occupied, or a swap is not
    /// allowed now.
    pub fn check(&self, action: Move) -> Result<(), MoveErrorKind> {
        with_board!(&self.0, b => {
            if b.status().is_over() {
                return Err(MoveErrorKind::GameOver);
            }
            match action {
                Move::Place(cell) if !b.on_board(cell) => Err(MoveErrorKind::OffBoard { cell, size: b.size() }),
                Move::Place(cell) if b.at(cell).is_some() => Err(MoveErrorKind::Occupied(cell)),
                Move::Place(_) => Ok(()),
                Move::Swap if b.swap_available() => Ok(()),
                Move::Swap => Err(MoveErrorKind::SwapNotAllowed),
            }
        })
    }
}

impl Game for Hex {
    type Action = Move;

    #[inline]
    fn to_move(&self) -> Player {
        with_board!(&self.0, b => b.to_move())
    }

    #[inline]
    fn status(&self) -> Status {
        with_board!(&self.0, b => b.status())
    }

    #[inline]
    fn legal_actions<E: Extend<Move>>(&self, out: &mut E) {
        with_board!(&self.0, b => b.legal_actions(out));
    }

    #[inline]
    fn play_unchecked(&mut self, action: Move) {
        with_board!(&mut self.0, b => b.play_unchecked(action));
    }

    #[inline]
    fn position_hash(&self) -> u64 {
        with_board!(&self.0, b => b.position_hash())
    }

    /// Cells by `size * row + column`, and the swap as `size * size`.
    fn action_space(&self) -> Option<usize> {
        with_board!(&self.0, b => b.action_space())
    }

    #[inline]
    fn action_index(&self, action: Move) -> usize {
        with_board!(&self.0, b => b.action_index(action))
    }

    fn action_from_index(&self, index: usize) -> Option<Move> {
        with_board!(&self.0, b => b.action_from_index(index))
    }

    #[inline]
    fn num_legal_actions(&self) -> usize {
        with_board!(&self.0, b => b.num_legal_actions())
    }

    #[inline]
    fn is_legal(&self, action: Move) -> bool {
        with_board!(&self.0, b => b.is_legal(action))
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        with_board!(&self.0, b => b.random_action(rng))
    }

    #[inline]
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        with_board!(&mut self.0, b => b.random_playout(rng))
    }

    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        with_board!(&mut self.0, b => b.random_playout_marked(rng, played))
    }
}

impl Hex {
    /// The board drawn as GTP tools see it after a swap: each stone on the transposed cell
    /// in the other colour.
    ///
    /// Benzene and HexGui play the swap by exchanging the players' colours and leaving the
    /// stone where it is, where this crate moves the stone ([`Move::Swap`]). The two are the
    /// same game seen in a mirror; this draws the mirror image, for a GTP `showboard` after
    /// `swap-pieces`.
    ///
    /// ```
    /// let game = games_hex::Hex::with_swap(3)?.after_moves("a2 swap")?;
    /// assert_eq!(game.to_string_exchanged(), "   a b c
    ///  1 . . . 1
    ///   2 X . . 2
    ///    3 . . . 3
    ///      a b c");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_string_exchanged(&self) -> String {
        struct Exchanged<'a>(&'a Hex);
        impl fmt::Display for Exchanged<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let game = self.0;
                draw(f, game.size(), |cell| {
                    game.at(cell.transposed()).map(Player::opponent)
                })
            }
        }
        Exchanged(self).to_string()
    }

    /// This position after a list of moves such as `"a1 b2 c3"`, `"a1,b2"` or `"a1b2c3"`
    /// (cells and `swap`/`swap-pieces`, any case). `self` is left unchanged.
    ///
    /// # Errors
    ///
    /// [`MovesError`] names the first bad move, its number in the list, and why.
    pub fn after_moves(&self, text: &str) -> Result<Hex, MovesError> {
        let mut game = self.clone();
        for (index, token) in tokens(text).enumerate() {
            let error = |kind| MovesError {
                input: text.to_owned(),
                index,
                text: token.to_owned(),
                kind,
            };
            let action: Move = token.parse().map_err(|_| error(MoveErrorKind::NotAMove))?;
            game.check(action).map_err(error)?;
            game.play_unchecked(action);
        }
        Ok(game)
    }
}

/// The moves of a move list: cells (a letter and digits) and swaps, with or without separators.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
        if rest.is_empty() {
            return None;
        }
        let lower = rest.to_ascii_lowercase();
        let len = if lower.starts_with("swap-pieces") {
            "swap-pieces".len()
        } else if lower.starts_with("swap") {
            "swap".len()
        } else {
            // A letter, then its digits; anything else is a one-character bad token.
            let first = rest.chars().next().map_or(1, char::len_utf8);
            let digits = rest[first..].bytes().take_while(u8::is_ascii_digit).count();
            if rest.as_bytes()[0].is_ascii_alphabetic() {
                first + digits
            } else {
                first
            }
        };
        let (token, tail) = rest.split_at(len);
        rest = tail;
        Some(token)
    })
}

impl fmt::Display for Hex {
    /// The board as the usual rhombus, each row shifted half a cell further right, with column
    /// letters above and below and row numbers on both sides; `X` for Black (connects top and
    /// bottom), `O` for White (connects left and right), `.` for empty:
    ///
    /// ```
    /// let game = games_hex::Hex::new(3).unwrap().after_moves("a1 c3").unwrap();
    /// assert_eq!(game.to_string(), "   a b c
    ///  1 X . . 1
    ///   2 . . . 2
    ///    3 . . O 3
    ///      a b c");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_board!(&self.0, b => b.fmt(f))
    }
}
