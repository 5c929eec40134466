//! What Hex knows, for Monte-Carlo search: playouts that save bridges, a prior from local
//! shape, and the inferior cells (dead, captured, vulnerable and dominated) that the player to
//! move need not play.
//! [`knowledge`] bundles them.

use game_core::{
    Game, PlayedActions, Player, Playout,
    knowledge::{Examination, Knowledge, NoEvaluator, PlayoutPolicy, Prior, Verdict},
};
use rand::Rng;

use crate::board::{Domination, Style};
use crate::book::Book;
use crate::hex::{Hex, with_board};
use crate::notation::{Cell, Move};
use crate::patterns::Patterns;

/// Hex's knowledge: [`Shape`] as the prior (which leaves out the inferior cells, and reports
/// the moves virtual connections decide) and [`Bridges`] as the playout policy; no evaluator
/// yet.
///
/// ```
/// use game_core::{Game, knowledge::PlayoutPolicy};
/// use games_hex::Hex;
/// use rand::SeedableRng;
///
/// let policy = games_hex::knowledge().policy.unwrap();
/// // Black's b2 and c3 make a bridge over b3 and c2; White breaks in at c2: Black saves it.
/// let position = Hex::new(5)?.after_moves("b2 a5 c3 c2")?;
/// let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
/// assert_eq!(policy.action(&position, &mut rng), "b3".parse()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn knowledge() -> Knowledge<Shape, Bridges, NoEvaluator> {
    Knowledge::NONE
        .with_prior(Shape::default())
        .with_policy(Bridges::default())
}

/// A prior from local shape: by default each cell weighs what its learned pattern weighs
/// ([`Patterns::learned`]: the twelve cells around it and how close it is to the last stone,
/// trained on self-play); with `learned: false`, the hand-set weights of earlier versions: 1,
/// plus `bridge` for each of the mover's stones a bridge away from it (both cells between
/// empty), plus `adjacent` for each stone next to it, halved on the outer ring when no stone
/// touches it.
///
/// With `inferior` (the default), the dead and captured cells ([`Hex::inferior_cells`]) weigh
/// 0, which PUCT reads as "never search": playing one is never better than the best other move;
/// with `dominated` too (the default), so do the vulnerable cells and the cells dominated by
/// a neighbour: the mover's stone there would leave them dead (read off the ring of six cells
/// around each; [`Hex::inferior_cells`] finds more, at a cost a node's expansion does not
/// repay).
///
/// The learned weights score 73% against the hand-set ones inside `best` on 9x9 and 91% on 11x11
/// (100 ms a move, 100 games each; `docs/experiments.md`). The hand-set weights are a taste, not a judgement: with PUCT's
/// default constant (1) they decide too much of what is searched and lose; with `puct=3` they
/// order the search and win on top of [`Bridges`]. Leaving out the inferior cells is worth 60%
/// against the same prior without (9x9, 100 ms a move).
///
/// Its [`examine`](Prior::examine) reports the moves virtual connections decide
/// ([`Hex::proven_moves`], about 0.75 ms a mid-game 9x9 position), for UCT's `examine=N`:
/// asked of nodes visited 200 times, it scores 65% against the same search without it (9x9,
/// 100 ms a move, 100 games). It also advises, after each move that breaks into one of the
/// opponent's connections, the opponent's replies that restore it
/// ([`ProvenMoves::restoring`]), which UCT searches first (`reply=R`). `best` on Hex is
/// `rave:playout=game,prior=game,examine=200,c=0,bias=5`: RAVE with this prior as its
/// progressive bias (`docs/experiments.md`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Shape {
    /// The weight of each own stone at bridge distance.
    pub bridge: f32,
    /// The weight of each stone next to the cell.
    pub adjacent: f32,
    /// Weigh the inferior cells ([`Hex::inferior_cells`]) 0, so that PUCT leaves them out.
    pub inferior: bool,
    /// With `inferior`, weigh the vulnerable cells and those dominated by a neighbour 0 as
    /// well.
    pub dominated: bool,
    /// Weigh each cell by its learned pattern ([`Patterns::learned`], [`Hex::local_shape`])
    /// instead of by `bridge` and `adjacent` (the default).
    pub learned: bool,
}

impl Default for Shape {
    fn default() -> Self {
        Shape {
            bridge: 1.5,
            adjacent: 1.0,
            inferior: true,
            dominated: true,
            learned: true,
        }
    }
}

impl Prior<Hex> for Shape {
    /// The moves virtual connections decide, and the opponent's replies that restore a
    /// connection a move breaks into ([`Hex::proven_moves`]). When every move wins, only the
    /// moves that close the connection ([`ProvenMoves::finishing`]) are called wins (the
    /// others stay unknown, which is still true), so that the search plays those and a won
    /// game ends rather than filling the board.
    fn examine(&self, position: &Hex, actions: &[Move], found: &mut Examination<Move>) {
        with_board!(&position.0, b => {
            let decided = b.decided_moves();
            let place = |i: usize| Move::Place(b.cell_at(i));
            found
                .replies
                .extend(decided.restoring.iter().map(|&(probe, reply)| (place(probe), place(reply))));
            if decided.won.is_empty() && decided.lost.is_empty() {
                return;
            }
            let won = if decided.finishing.is_empty() {
                decided.won
            } else {
                decided.finishing
            };
            found.verdicts.extend(actions.iter().map(|action| match action {
                Move::Place(cell) if won.contains(b.index(*cell)) => Verdict::Win,
                Move::Place(cell) if decided.lost.contains(b.index(*cell)) => Verdict::Loss,
                _ => Verdict::Unknown,
            }));
        });
    }

    /// The move of the opening book shipped for the board's size ([`Book::standard`]: 9x9),
    /// if it has the position.
    fn opening(&self, position: &Hex) -> Option<Move> {
        Book::standard(position.size())?.best(position)
    }

    fn weigh(&self, position: &Hex, actions: &[Move], weights: &mut Vec<f32>) {
        let start = weights.len();
        with_board!(&position.0, b => {
            if self.learned {
                let patterns = Patterns::learned();
                let shapes = b.shapes();
                weights.extend(actions.iter().map(|action| match action {
                    Move::Place(cell) => patterns.weight(shapes.at(b.index(*cell))),
                    Move::Swap => 1.0,
                }));
            } else {
                b.shape_weights(actions, self.bridge, self.adjacent, weights);
            }
            if self.inferior {
                let inferior = if self.dominated {
                    let (found, outclassed) = b.inferior_and_outclassed(Domination::Ring);
                    found.all() | outclassed
                } else {
                    b.inferior().all()
                };
                for (weight, action) in weights[start..].iter_mut().zip(actions) {
                    if let Move::Place(cell) = action
                        && inferior.contains(b.index(*cell))
                    {
                        *weight = 0.0;
                    }
                }
            }
        });
    }
}

/// The inferior cells of a Hex position ([`Hex::inferior_cells`]): cells a search need not
/// play, and that playouts may colour in advance.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct InferiorCells {
    /// Dead cells: whatever their colour, every way of filling the rest of the board ends with
    /// the same winner.
    pub dead: Vec<Cell>,
    /// Cells Black has captured, in pairs (a White stone in one is answered in the other and
    /// is then dead) or in regions (a White stone in one is answered inside the region, and
    /// the region ends as good for Black as all Black's); and Black's part of a region
    /// coloured for both players.
    pub black: Vec<Cell>,
    /// Cells White has captured, as [`black`](Self::black) for Black.
    pub white: Vec<Cell>,
    /// The player who connects once those cells are coloured (dead ones Black): the game's
    /// winner with perfect play, already.
    pub winner: Option<Player>,
    /// Cells the player to move need not play either, though the fill-in leaves them empty:
    /// *vulnerable* ones (an opponent's stone next to one would leave it dead, so a stone
    /// there is answered and wasted) and *dominated* ones (after the mover's stone on another
    /// cell the fill-in would colour one, so that cell does all a stone there could do).
    pub dominated: Vec<Cell>,
}

impl InferiorCells {
    /// Whether `cell` is dead, captured or dominated: a move the player to move need not
    /// make.
    #[must_use]
    pub fn contains(&self, cell: Cell) -> bool {
        [&self.dead, &self.black, &self.white, &self.dominated]
            .iter()
            .any(|cells| cells.contains(&cell))
    }
}

impl Hex {
    /// The cells of this position that neither player need ever play, found from the six
    /// cells around each (the local patterns of dead-cell analysis) and coloured in turn until
    /// none is left (fill-in):
    ///
    /// - **dead**: a cell that is useless to one player (every two cells around it that the
    ///   player may still own are already joined by its stones, or next to each other) cannot
    ///   change who wins, as the other player wins exactly when the first does not connect;
    /// - **captured**: two empty neighbours such that a stone of the opponent in either leaves
    ///   it dead once the captor takes the other;
    /// - **captured regions**, found by a local search once no pattern applies: up to six
    ///   empty cells with at most two other empty cells around them, whose colouring a player
    ///   dictates by answering inside them every stone the opponent plays there (the region
    ///   then ends at least as good for it as all its own: its connections through the region
    ///   kept, none of the opponent's made). A few small regions are coloured partly for each
    ///   player, when each can hold its part that way (two bridges that cross, say).
    ///
    /// Playing a dead or captured cell is never better than the best other move (it changes
    /// nothing, or it is answered and changes nothing), so a search can leave them out. On the
    /// coloured board, the player to move need not play two more kinds
    /// ([`InferiorCells::dominated`]), which stay empty:
    ///
    /// - **vulnerable**: an opponent's stone next to the cell would leave it dead, so a stone
    ///   there is answered and wasted;
    /// - **dominated**: after the mover's own stone on another cell, the fill-in would colour
    ///   this one (dead, or captured for the mover), so that stone does all a stone here could
    ///   do: the position after it is the position after this one with one more of the
    ///   mover's stones. A cell is left out only for a dominator kept (the vulnerable ones are
    ///   left out first), so that each chain of dominations ends at a move kept.
    ///
    /// The dominated cells cost a fill-in after each move (a continuation of the first), the
    /// captured regions a search: about 15 µs a mid-game 9x9 position in all (4.4 µs without
    /// the regions, 0.7 µs for the patterns' fill-in alone; `cargo bench --bench knowledge --
    /// "inferior cells"`). The tree search's prior
    /// ([`Shape`]) reads its dominated cells off each cell's ring instead (a stone next to it
    /// that would leave it dead): with this rule it cost 16% of a search iteration and won no
    /// more games at equal time (`docs/journal/hex.md`).
    ///
    /// When the coloured board already connects, [`InferiorCells::winner`] has won. With the
    /// swap still to be decided (White's first move under the swap rule) nothing is reported,
    /// as the swap changes the stones' colour.
    ///
    /// ```
    /// use game_core::Player;
    /// use games_hex::Hex;
    ///
    /// // 3x3: Black's b2 reaches row 1 by b1 or c1, and row 3 by a3 or b3. Each pair is
    /// // captured (a White stone in one, answered in the other, is dead), and coloured Black
    /// // they connect: Black has won already.
    /// let position = Hex::new(3)?.after_moves("b2")?;
    /// let inferior = position.inferior_cells();
    /// assert!(inferior.black.contains(&"c1".parse()?) && inferior.black.contains(&"a3".parse()?));
    /// assert_eq!(inferior.winner, Some(Player::Black));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn inferior_cells(&self) -> InferiorCells {
        if self.swap_rule() && self.plies() == 1 {
            // Not even the winner: the swap changes the stones' colour.
            return InferiorCells::default();
        }
        with_board!(&self.0, b => {
            let (found, outclassed) = b.inferior_and_outclassed(Domination::FillIn);
            let winner = b.winner_after(&found);
            let cells = |set: crate::bits::Bits<_>| set.iter().map(|i| b.cell_at(i)).collect();
            InferiorCells {
                dead: cells(found.dead),
                black: cells(found.captured[0]),
                white: cells(found.captured[1]),
                winner,
                dominated: cells(outclassed),
            }
        })
    }
}

/// The moves of the player to move that virtual connections prove ([`Hex::proven_moves`]).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ProvenMoves {
    /// Cells where a stone wins with perfect play.
    pub winning: Vec<Cell>,
    /// Cells where a stone loses whatever follows.
    pub losing: Vec<Cell>,
    /// When every move wins (the mover is connected whoever plays first): the cells where a
    /// stone leaves one cell less to fill, those on the shortest chains between the mover's
    /// edges through its stones and the cells its connection holds (the cells the fill-in
    /// gives it when that connects, else the smallest carrier found, with the cells captured
    /// for it). Empty when not every move wins.
    pub finishing: Vec<Cell>,
    /// Advice, not proof: `(cell, reply)` where a stone on `cell` (a move not decided; none
    /// when some move wins) breaks every full connection the opponent has between two of its
    /// groups (or a group and its edge), and the opponent's stone on `reply` restores one, as
    /// the key of a semi-connection of the pair that `cell` leaves alone. MoHex's "VC
    /// maintenance"; UCT searches these replies first (`reply` in its specs).
    pub restoring: Vec<(Cell, Cell)>,
}

impl Hex {
    /// The moves virtual connections decide, for the player to move: H-search (Anshelevich
    /// 2002, as in MoHex) for both players on the board with its inferior cells filled in
    /// ([`inferior_cells`](Hex::inferior_cells)).
    ///
    /// - The key of a *semi-connection* between the mover's edges (a set of empty cells where
    ///   the mover connects by playing the key first) wins; a *full* connection (the mover
    ///   connects whoever plays first) makes every move a win, and the cells on the shortest
    ///   chains inside it the moves that close it ([`finishing`](ProvenMoves::finishing)).
    /// - The opponent's semi-connections are threats: a move outside the cells they all share
    ///   (the *must-play region*) loses, as the opponent then plays the key of one it left
    ///   alone; a full connection makes every move a loss.
    ///
    /// H-search is sound and incomplete: what it reports is proven, but it misses some
    /// connections (those that need more than its two rules, or that its lists, kept short by
    /// what they add, leave out). It takes from about half a millisecond on 9x9 to some twenty
    /// on 19x19, so a search asks it only of the positions it visits often ([`Shape`]'s
    /// `examine`). Nothing is reported while the swap is still to be decided.
    ///
    /// ```
    /// use game_core::Game;
    /// use games_hex::Hex;
    ///
    /// // 5x5, Black (rows 1 to 5) to move: c2 and c4 join row 1 by a bridge template each,
    /// // and c3 joins them, so c3 wins.
    /// let position = Hex::new(5)?.after_moves("c2 a1 c4 a2")?;
    /// assert!(position.proven_moves().winning.contains(&"c3".parse()?));
    /// // 7x7, White to move: Black's d3 and d5 each reach their edge by a ziggurat, and
    /// // threaten to join at d4 (White's e3 blocks one way round). White must play inside
    /// // Black's threats; a1 is outside.
    /// let position = Hex::new(7)?.after_moves("d3 e3 d5")?;
    /// let proven = position.proven_moves();
    /// assert!(proven.losing.contains(&"a1".parse()?));
    /// assert!(!proven.losing.contains(&"d4".parse()?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn proven_moves(&self) -> ProvenMoves {
        with_board!(&self.0, b => {
            let decided = b.decided_moves();
            let cells = |set: crate::bits::Bits<_>| set.iter().map(|i| b.cell_at(i)).collect();
            ProvenMoves {
                winning: cells(decided.won),
                losing: cells(decided.lost),
                finishing: cells(decided.finishing),
                restoring: decided
                    .restoring
                    .iter()
                    .map(|&(cell, reply)| (b.cell_at(cell), b.cell_at(reply)))
                    .collect(),
            }
        })
    }
}

/// How a player of a Hex position is connected whoever moves ([`Hex::connection`]): the
/// game is decided, though it goes on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Connection {
    /// The player who connects.
    pub player: Player,
    /// Whether H-search's virtual connection shows it (`true`), or the player's stones with
    /// the cells the fill-in colours for it already join its edges (`false`).
    pub virtual_connection: bool,
    /// The empty cells that hold the connection: the cells the fill-in gives the player, and
    /// the smallest carrier of the virtual connection. The opponent's stone in one is
    /// answered in the connection; a stone anywhere else changes nothing.
    pub cells: Vec<Cell>,
}

impl std::fmt::Display for Connection {
    /// `Black connects by a virtual connection (12 cells)`, or `White connects: its stones
    /// and the cells it has captured join its edges`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let player = match self.player {
            Player::Black => "Black",
            Player::White => "White",
        };
        if self.virtual_connection {
            let cells = self.cells.len();
            let plural = if cells == 1 { "" } else { "s" };
            write!(
                f,
                "{player} connects by a virtual connection ({cells} cell{plural})"
            )
        } else {
            write!(
                f,
                "{player} connects: its stones and the cells it has captured join its edges"
            )
        }
    }
}

impl Hex {
    /// Whether `player` is connected whoever moves, as the fill-in
    /// ([`inferior_cells`](Hex::inferior_cells)) or a virtual connection between its edges
    /// (H-search, as [`proven_moves`](Hex::proven_moves)) shows it: the game is decided,
    /// though its end is still to be played. `None` when neither shows it (which proves
    /// nothing: both are incomplete), once the game is over, and while the swap is still to
    /// be decided. What a resigning engine cites, and what `hex_selfplay` draws.
    ///
    /// ```
    /// use game_core::Player;
    /// use games_hex::Hex;
    ///
    /// // 5x5: Black's c2 and c4 reach their rows by bridge templates, and join through c3
    /// // or d3 (a bridge): Black is connected whoever moves.
    /// let position = Hex::new(5)?.after_moves("c2 a1 c4 a2 c3")?;
    /// let connection = position.connection(Player::Black).expect("Black is connected");
    /// assert_eq!(connection.player, Player::Black);
    /// assert!(position.connection(Player::White).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn connection(&self, player: Player) -> Option<Connection> {
        with_board!(&self.0, b => {
            b.connection(player).map(|(link, cells)| Connection {
                player,
                virtual_connection: link == crate::board::Link::Virtual,
                cells: cells.iter().map(|i| b.cell_at(i)).collect(),
            })
        })
    }

    /// The board drawn as [`Display`](std::fmt::Display) does, with `*` on the empty cells
    /// of `marked` (a connection's, say).
    ///
    /// ```
    /// let position = games_hex::Hex::new(3)?.after_moves("b2")?;
    /// let drawn = position.to_string_marked(&["b1".parse()?, "b3".parse()?]);
    /// assert_eq!(drawn, "   a b c\n 1 . * . 1\n  2 . X . 2\n   3 . * . 3\n     a b c");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_string_marked(&self, marked: &[Cell]) -> String {
        struct Marked<'a>(&'a Hex, &'a [Cell]);
        impl std::fmt::Display for Marked<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let (position, marked) = (self.0, self.1);
                crate::board::draw_with(f, position.size(), |cell| match position.at(cell) {
                    None if marked.contains(&cell) => '*',
                    stone => crate::board::symbol(stone),
                })
            }
        }
        Marked(self, marked).to_string()
    }
}

/// The playout policy of MoHex and most Monte-Carlo Hex programs: when the opponent's last
/// stone broke into one of the mover's bridges (two stones that share two empty neighbours) or
/// edge templates (a stone on the second row and the two cells below it), the mover plays the
/// other cell of the pair and keeps the connection; when it broke into a third-row stone's
/// ziggurat ([`ziggurats`](Bridges::ziggurats)), the mover keeps that; otherwise a uniformly
/// random empty cell (or, with probability [`local`](Bridges::local), a pattern-weighted cell
/// around the last stone; or, with [`weighted`](Bridges::weighted), any empty cell drawn by its
/// pattern's weight, the weights those of [`patterns`](Bridges::patterns)).
///
/// Playouts with it play one move at a time (the plain playout fills the board at once), so
/// they cost more; `docs/experiments.md` measures what they buy at equal time.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Bridges {
    /// The probability of saving a broken bridge (1: always).
    pub reply: f64,
    /// Keep ziggurats too (edge template `IIIa`: a third-row stone and the eight cells, three on
    /// the second row and four on the first, that connect it to its edge; on by default): when
    /// the opponent's last stone broke into one that held and the stone's other ziggurat does
    /// not hold either, the mover plays the cell that keeps it connected (with probability
    /// [`reply`](Bridges::reply), when no bridge is saved).
    pub ziggurats: bool,
    /// Colour the inferior cells ([`Hex::inferior_cells`]) before each playout: dead cells
    /// for anyone, captured pairs for their captor.
    pub fill_in: bool,
    /// The probability, when no bridge is saved, of a local move: one of the twelve cells
    /// around the last stone (next to it or a bridge away), drawn by its pattern weight in
    /// [`patterns`](Bridges::patterns); otherwise (and always at 0) a uniformly random empty
    /// cell.
    pub local: f64,
    /// Draw each move no bridge saves by its pattern weight in
    /// [`patterns`](Bridges::patterns), as MoHex 2.0's softmax playouts do: `Some(cap)` weighs
    /// every empty cell by its pattern's weight for the mover, capped at `cap` (MoHex caps its
    /// global weights so that they mostly keep the playouts out of bad cells), and the cells
    /// around the last stone weigh in addition what their closeness adds to it in the table
    /// (uncapped: local answers). `None` (the default): uniformly random, or `local`.
    ///
    /// The weights read a cell's six neighbours only: its pattern's weight with the six cells
    /// a bridge away empty (a table from [`Patterns::balance`] weighs nothing else). A stone
    /// changes one digit of its six neighbours' colourings, so a move weighs six cells again,
    /// and a draw walks the empty cells only when it falls outside the twelve around the last
    /// stone; a playout costs three to five times the default's (`cargo bench --bench
    /// playouts -- policies`). Off by default: at equal time it has not beaten the default
    /// inside `best` (`docs/journal/hex.md`).
    pub weighted: Option<f32>,
    /// The weights `local` and `weighted` draw by: [`Patterns::learned`] (the prior's) by
    /// default, or a table fitted for the playouts ([`Patterns::balance`]).
    pub patterns: &'static Patterns,
}

impl Default for Bridges {
    fn default() -> Self {
        Bridges {
            reply: 1.0,
            ziggurats: true,
            fill_in: false,
            local: 0.0,
            weighted: None,
            patterns: Patterns::learned(),
        }
    }
}

impl Bridges {
    /// How the board's playout plays this policy.
    fn style(&self) -> Style {
        Style {
            reply: threshold(self.reply),
            ziggurats: self.ziggurats,
            local: threshold(self.local),
            fill_in: self.fill_in,
            weighted: self.weighted,
            patterns: self.patterns,
        }
    }
}

/// A probability in units of 2^-32, as the playout compares it with a random `u32`.
fn threshold(probability: f64) -> u64 {
    (probability.clamp(0.0, 1.0) * 4_294_967_296.0) as u64
}

impl PlayoutPolicy<Hex> for Bridges {
    fn action<R: Rng + ?Sized>(&self, position: &Hex, rng: &mut R) -> Move {
        let saved = with_board!(&position.0, b => {
            // As the playout does: a saved bridge (or ziggurat), else a local move, else a
            // weighted one.
            let saved = match b.last_stone() {
                Some(cell) if u64::from(rng.next_u32()) < threshold(self.reply) => {
                    b.bridge_reply(cell, b.to_move()).or_else(|| {
                        self.ziggurats
                            .then(|| b.ziggurat_reply(cell, b.to_move()))
                            .flatten()
                    })
                }
                _ => None,
            };
            let local = match (saved, b.last_stone()) {
                (None, Some(cell)) if u64::from(rng.next_u32()) < threshold(self.local) => {
                    b.local_move(&b.colours(), cell, b.to_move(), self.patterns, rng)
                }
                _ => None,
            };
            saved
                .or(local)
                .or_else(|| match self.weighted {
                    // While the swap is available, a random action (the swap among them).
                    Some(cap) if !b.swap_available() => b.weighted_move(cap, self.patterns, rng),
                    _ => None,
                })
                .map(|i| Move::Place(b.cell_at(i)))
        });
        saved.unwrap_or_else(|| {
            position
                .random_action(rng)
                .expect("a playout policy is asked about ongoing games")
        })
    }

    fn play_out<R: Rng + ?Sized>(&self, position: &mut Hex, rng: &mut R) -> Playout {
        let style = self.style();
        with_board!(&mut position.0, b => b.bridge_playout(rng, &style, None))
    }

    fn play_out_marked<R: Rng + ?Sized>(
        &self,
        position: &mut Hex,
        rng: &mut R,
        played: &mut PlayedActions,
    ) -> Playout {
        let style = self.style();
        with_board!(&mut position.0, b => b.bridge_playout(rng, &style, Some(played)))
    }
}
