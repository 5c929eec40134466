//! The Connect Four position and its rules on a bitboard; its playout kernels are in
//! `playout.rs`, its text in `text.rs`.

mod playout;
mod text;

use game_core::{Game, Outcome, PlayedActions, Player, Playout, Status};
use rand::Rng;

use crate::bits::Bits;
use crate::notation::{Column, MAX_SIDE, SizeError};
use playout::{Fixed, RandomBits, Shape, random_playable_cell};

/// A Connect Four position on a board of any size that fits the bitboard type `B`.
///
/// Use the aliases: [`Connect4`] (`u64`, every board with `width * (height + 1) <= 64`, such as
/// the standard 7x6, 6x7 and 8x7) and [`Connect4Large`] (`u128`, such as 9x7 or 10x10).
///
/// # Layout
///
/// Two bitboards, as in Pascal Pons' solver: `mask` holds every stone, `current` the stones of
/// the player to move. Each column takes `height + 1` consecutive bits, bottom first; the extra
/// bit on top of each column stays empty, so that shifting a row of stones sideways or
/// diagonally never wraps into the next column. For 7x6, bit `7 * column + row`:
///
/// ```text
///  .  .  .  .  .  .  .     <- always empty
///  5 12 19 26 33 40 47     <- top row
///  4 11 18 25 32 39 46
///  3 10 17 24 31 38 45
///  2  9 16 23 30 37 44
///  1  8 15 22 29 36 43
///  0  7 14 21 28 35 42     <- bottom row
/// ```
///
/// - Playing column `c` is one addition: `mask + bottom(c)` carries through the column's stones
///   to its first empty cell.
/// - Four in a row is four shift-and-and steps, one per direction.
/// - `current + mask + bottom` is a perfect key: it tells every position apart, so it serves as
///   [`position_hash`](Game::position_hash) (after an odd multiplication, which keeps it
///   one-to-one and spreads it over all 64 bits).
///
/// # Examples
///
/// ```
/// use games_connect4::{Column, Connect4};
/// use game_core::{Game, Outcome, Player, Status};
///
/// let mut game: Connect4 = "4455".parse()?;
/// assert_eq!(game.to_move(), Player::Black);
/// game.play("6".parse()?); // Black's third stone in the bottom row: 4, 5 and 6
/// game.play("1".parse()?);
/// game.play("3".parse()?); // ... and 3
/// assert_eq!(game.status(), Status::Over(Outcome::Win(Player::Black)));
/// assert_eq!(game.try_play(Column::new(0)).is_err(), true); // the game is over
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Connect4Board<B: Bits> {
    /// The stones of the player to move.
    current: B,
    /// Every stone.
    mask: B,
    /// The bottom cell of every column.
    bottom: B,
    /// Every cell of the board.
    cells: B,
    /// Stones played so far.
    moves: u8,
    width: u8,
    height: u8,
    /// The player who moved last connected four.
    won: bool,
}

/// Connect Four on boards of up to 64 bits (`width * (height + 1) <= 64`): 7x6, 6x7, 8x7, ...
/// The fast default.
pub type Connect4 = Connect4Board<u64>;

/// Connect Four on boards of up to 128 bits (`width * (height + 1) <= 128`): 9x7, 10x10, ...
pub type Connect4Large = Connect4Board<u128>;

impl Connect4 {
    /// The empty standard board: 7 columns, 6 rows, Black to move.
    #[must_use]
    pub fn new() -> Self {
        Connect4Board::with_size(7, 6).expect("7x6 fits in 64 bits")
    }
}

impl<B: Bits> Connect4Board<B> {
    /// The same position on 64-bit boards, if the board fits in 64 bits.
    ///
    /// ```
    /// use games_connect4::{Connect4, Connect4Large};
    ///
    /// let large = Connect4Large::with_size(7, 6)?.after_moves("4453")?;
    /// assert_eq!(large.narrowed(), Some("4453".parse::<Connect4>()?));
    /// assert_eq!(Connect4Large::with_size(10, 10)?.narrowed(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn narrowed(&self) -> Option<Connect4> {
        if u32::from(self.width) * (u32::from(self.height) + 1) > 64 {
            return None;
        }
        let narrow = |mut bits: B| {
            let mut out = 0u64;
            while bits != B::ZERO {
                out |= 1 << bits.trailing_zeros();
                bits = bits ^ bits.lowest_bit();
            }
            out
        };
        Some(Connect4Board {
            current: narrow(self.current),
            mask: narrow(self.mask),
            bottom: narrow(self.bottom),
            cells: narrow(self.cells),
            moves: self.moves,
            width: self.width,
            height: self.height,
            won: self.won,
        })
    }
}

impl Connect4 {
    /// The raw bitboards: the stones of the player to move, all stones, the bottom cell of
    /// each column, every cell (for the solver).
    pub(crate) fn raw(&self) -> (u64, u64, u64, u64) {
        (self.current, self.mask, self.bottom, self.cells)
    }
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4::new()
    }
}

impl<B: Bits> Connect4Board<B> {
    /// The empty board with `width` columns and `height` rows, Black to move.
    ///
    /// # Errors
    ///
    /// [`SizeError`] when a side is 0 or larger than [`MAX_SIDE`], or the board does not fit
    /// `B` (`width * (height + 1)` bits; use [`Connect4Large`] for boards up to 128 bits).
    pub fn with_size(width: u8, height: u8) -> Result<Self, SizeError> {
        let bits = u32::from(width) * (u32::from(height) + 1);
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE || bits > B::BITS {
            return Err(SizeError {
                width,
                height,
                available: B::BITS,
            });
        }
        let stride = u32::from(height) + 1;
        let mut bottom = B::ZERO;
        for column in 0..u32::from(width) {
            bottom |= B::ONE << (column * stride);
        }
        let column = (B::ONE << u32::from(height)).wrapping_sub(B::ONE);
        let mut cells = B::ZERO;
        for c in 0..u32::from(width) {
            cells |= column << (c * stride);
        }
        Ok(Connect4Board {
            current: B::ZERO,
            mask: B::ZERO,
            bottom,
            cells,
            moves: 0,
            width,
            height,
            won: false,
        })
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// How many moves have been played: the stones on the board.
    #[must_use]
    pub fn plies(&self) -> u32 {
        u32::from(self.moves)
    }

    /// The stones of the player to move and of its opponent as bitboards, for evaluators: the
    /// cell at `column` and `row` (both from 0; row 0 is the bottom) is bit
    /// `column * (height + 1) + row`, with one unused bit above each column.
    ///
    /// ```
    /// use games_connect4::Connect4;
    ///
    /// let game = Connect4::new().after_moves("44")?; // both players in the middle column
    /// let (to_move, opponent) = game.stones();
    /// assert_eq!((to_move, opponent), (1 << (3 * 7), 1 << (3 * 7 + 1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn stones(&self) -> (B, B) {
        (self.current, self.mask ^ self.current)
    }

    /// Who has a stone at `column` and `row` (both from 0; row 0 is the bottom), if anyone.
    /// `None` also off the board.
    #[must_use]
    pub fn at(&self, column: u8, row: u8) -> Option<Player> {
        if column >= self.width || row >= self.height {
            return None;
        }
        let bit = B::ONE << (u32::from(column) * self.stride() + u32::from(row));
        if self.mask & bit == B::ZERO {
            None
        } else if self.current & bit != B::ZERO {
            Some(self.to_move())
        } else {
            Some(self.to_move().opponent())
        }
    }

    #[inline]
    fn stride(&self) -> u32 {
        u32::from(self.height) + 1
    }

    #[inline]
    fn cell_count(&self) -> u32 {
        u32::from(self.width) * u32::from(self.height)
    }

    /// The cells where a stone can be played: the lowest empty cell of each column that has
    /// one.
    #[inline]
    fn playable(&self) -> B {
        self.mask.wrapping_add(self.bottom) & self.cells
    }

    /// The topmost cell of `column`.
    #[inline]
    fn top_cell(&self, column: u8) -> B {
        B::ONE << (u32::from(column) * self.stride() + u32::from(self.height) - 1)
    }

    /// Plays a stone on `cell`, which must be playable.
    #[inline]
    fn play_cell<S: Shape>(&mut self, cell: B, shape: S) {
        self.current ^= self.mask;
        self.mask |= cell;
        self.moves = self.moves.wrapping_add(1);
        self.won = connects_four(self.current ^ self.mask, shape.stride());
    }

    /// The empty cells where `stones` would complete four in a row (reachable now or not).
    #[inline]
    fn winning_cells(&self, stones: B) -> B {
        winning_cells(stones, u32::from(self.height), self.cells & !self.mask)
    }

    /// The threats of both sides, for the game's knowledge: the empty cells where the player
    /// to move, and where the opponent, would complete four, and the cells playable now.
    #[inline]
    pub(crate) fn threats(&self) -> Threats<B> {
        Threats {
            mine: self.winning_cells(self.current),
            theirs: self.winning_cells(self.current ^ self.mask),
            playable: self.playable(),
        }
    }

    /// The playable cell of `column` (none if it is full or off the board).
    #[inline]
    pub(crate) fn playable_in(&self, column: Column) -> B {
        if column.index() >= self.width {
            return B::ZERO;
        }
        let first = u32::from(column.index()) * self.stride();
        let column_cells = ((B::ONE << u32::from(self.height)).wrapping_sub(B::ONE)) << first;
        self.playable() & column_cells
    }

    /// The empty cells where the player to move would complete four after playing `cell`.
    #[inline]
    pub(crate) fn wins_after(&self, cell: B) -> B {
        self.winning_cells(self.current | cell) & !cell
    }

    /// The row of a single-bit `cell`, from 0 at the bottom.
    #[inline]
    pub(crate) fn row_of(&self, cell: B) -> u32 {
        cell.trailing_zeros() % self.stride()
    }

    /// The column of a single-bit `cell`.
    #[inline]
    pub(crate) fn column_of(&self, cell: B) -> Column {
        Column::new((cell.trailing_zeros() / self.stride()) as u8)
    }
}

/// The cells of `empty` where `stones` would complete four in a row, on a board `height` rows
/// high (columns `height + 1` bits apart): the knowledge's threats and the solver's.
#[inline]
pub(crate) fn winning_cells<B: Bits>(stones: B, height: u32, empty: B) -> B {
    // Vertical: three stones straight below.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal and both diagonals: the three other cells of the four on either side.
    for s in [height + 1, height, height + 2] {
        let pair = (stones << s) & (stones << (2 * s));
        cells |= pair & (stones << (3 * s));
        cells |= pair & (stones >> s);
        let pair = (stones >> s) & (stones >> (2 * s));
        cells |= pair & (stones << s);
        cells |= pair & (stones >> (3 * s));
    }
    cells & empty
}

/// The cells where each side would complete four, and those playable now (see
/// [`Connect4Board::threats`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Threats<B> {
    pub(crate) mine: B,
    pub(crate) theirs: B,
    pub(crate) playable: B,
}

impl<B: Bits> Game for Connect4Board<B> {
    type Action = Column;

    #[inline]
    fn to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::Black
        } else {
            Player::White
        }
    }

    #[inline]
    fn status(&self) -> Status {
        if self.won {
            Status::Over(Outcome::Win(self.to_move().opponent()))
        } else if self.plies() == self.cell_count() {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn legal_actions<E: Extend<Column>>(&self, out: &mut E) {
        if self.won {
            return;
        }
        let mut playable = self.playable();
        out.extend(std::iter::from_fn(|| {
            let cell = playable.lowest_bit();
            playable ^= cell;
            (cell != B::ZERO).then(|| self.column_of(cell))
        }));
    }

    /// Drops a stone in `column`. An illegal column leaves a position that breaks the rules.
    #[inline]
    fn play_unchecked(&mut self, column: Column) {
        let stride = self.stride();
        let shift = u32::from(column.index()) * stride;
        let column_cells =
            self.cells & (((B::ONE << stride).wrapping_sub(B::ONE)) << (shift % B::BITS));
        let cell = self.mask.wrapping_add(B::ONE << (shift % B::BITS)) & column_cells;
        self.play_cell(cell, self.shape());
    }

    /// Columns by their index.
    fn action_space(&self) -> Option<usize> {
        Some(usize::from(self.width))
    }

    fn action_index(&self, action: Column) -> usize {
        usize::from(action.index())
    }

    fn action_from_index(&self, index: usize) -> Option<Column> {
        u8::try_from(index)
            .ok()
            .filter(|&i| i < self.width)
            .map(Column::new)
    }

    #[inline]
    fn position_hash(&self) -> u64 {
        let key = self
            .current
            .wrapping_add(self.mask)
            .wrapping_add(self.bottom);
        key.fold64().wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    fn num_legal_actions(&self) -> usize {
        if self.won {
            0
        } else {
            self.playable().count_ones() as usize
        }
    }

    #[inline]
    fn is_legal(&self, column: Column) -> bool {
        !self.won
            && column.index() < self.width
            && self.mask & self.top_cell(column.index()) == B::ZERO
    }

    #[inline]
    fn random_action<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Column> {
        if self.won || self.playable() == B::ZERO {
            return None;
        }
        let cell = random_playable_cell(self.playable(), self.shape(), &mut RandomBits::new(), rng);
        Some(self.column_of(cell))
    }

    /// The fast playout; afterwards each player's columns are those holding a stone of theirs
    /// that was not there before.
    fn random_playout_marked<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let before = self.mask;
        let playout = self.random_playout(rng);
        let new = self.mask & !before;
        // `current` holds the stones of the player to move.
        let mover = self.to_move();
        let stones = [
            (mover, self.current & new),
            (mover.opponent(), (self.current ^ self.mask) & new),
        ];
        let stride = self.stride();
        for column in 0..u32::from(self.width) {
            let low = B::ONE << (column * stride);
            let cells = (low << u32::from(self.height)).wrapping_sub(low);
            for (player, stones) in stones {
                if stones & cells != B::ZERO {
                    played.insert(player, column as usize);
                }
            }
        }
        playout
    }

    /// Plays uniformly random stones until the game ends, drawing each straight from the
    /// bitboard of playable cells: no move list, no allocation, and about one call to the
    /// generator per twenty stones. The standard 7x6 board runs a copy of the loop compiled
    /// for its shape, so its shifts are constants.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Playout {
        match (self.width, self.height) {
            (7, 6) => self.playout_with(Fixed::<7, 7>, rng),
            _ => self.playout_with(self.shape(), rng),
        }
    }
}

/// `true` when `stones` hold four in a row in some direction, on a board whose columns are
/// `stride` bits apart.
#[inline]
fn connects_four<B: Bits>(stones: B, stride: u32) -> bool {
    // Vertical, diagonal down-right, horizontal, diagonal up-right; one test at the end, so
    // that the common case (no four) costs no branch per direction.
    let line = |shift: u32| {
        let pairs = stones & (stones >> shift);
        pairs & (pairs >> (2 * shift))
    };
    line(1) | line(stride - 1) | line(stride) | line(stride + 1) != B::ZERO
}
