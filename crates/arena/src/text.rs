//! [`TextGame`]: what the tools need to know about a game beyond its rules: its name, its
//! sizes, why a move is refused, its final score, and its agents.

use std::fmt;

use game_core::{Game, Outcome, Player, Scored, Solve, Status};
use games_connect4::{Bits, Column, Connect4Board};
use games_hex::{Hex, Move as HexMove};
use games_othello::{Heuristic, OthelloBoard};
use search::{Agent, AgentSpec, SpecError};

/// A game that the tools (`play`, `gtp`, `tournament`) can set up, read and write as text.
///
/// Moves are read and written with the action's own `FromStr` and `Display`; this trait adds
/// what depends on the position or on the tool.
pub trait TextGame: Game + fmt::Display + Send + Sync + 'static {
    /// The game's name as the tools spell it: `hex`, `othello`, `connect4`.
    const NAME: &'static str;

    /// The board's size as the tools write it: `11x11`, `8x8`, `7x6` (columns x rows).
    fn size_text(&self) -> String;

    /// The empty board of another size, with the same rules otherwise (GTP `boardsize`, whose
    /// arguments are `dimensions`: one number, or columns and rows).
    ///
    /// # Errors
    ///
    /// Why this game cannot have that size.
    fn resized(&self, dimensions: &[u32]) -> Result<Self, String>;

    /// The empty board with the same size and rules (GTP `clear_board`).
    fn cleared(&self) -> Self;

    /// Whether the game is played with the swap (pie) rule; `None` for games without one.
    fn swap_rule(&self) -> Option<bool> {
        None
    }

    /// The empty board with the swap rule on or off; `None` for games without one.
    fn with_swap_rule(&self, on: bool) -> Option<Self> {
        let _ = on;
        None
    }

    /// Reads `text` as a move in this position.
    ///
    /// # Errors
    ///
    /// Why it is not a legal move here, in words for the person who typed it.
    fn parse_move(&self, text: &str) -> Result<Self::Action, String> {
        if self.status().is_over() {
            return Err("the game is over".to_owned());
        }
        let action: Self::Action = text.trim().parse().map_err(|e| format!("{e}"))?;
        if self.is_legal(action) {
            return Ok(action);
        }
        let legal = self.legal_actions_vec();
        if legal.len() <= 12 {
            let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
            Err(format!(
                "{action} is not legal here (legal: {})",
                legal.join(" ")
            ))
        } else {
            Err(format!("{action} is not legal here"))
        }
    }

    /// The result of a finished game as GTP's `final_score` writes it: `B+`, `W+` (with the
    /// margin where the game has a score, `B+12`) or `0` for a draw; `None` while it goes on.
    fn final_score(&self) -> Option<String> {
        match self.status() {
            Status::Ongoing => None,
            Status::Over(Outcome::Draw) => Some("0".to_owned()),
            Status::Over(Outcome::Win(Player::Black)) => Some("B+".to_owned()),
            Status::Over(Outcome::Win(Player::White)) => Some("W+".to_owned()),
        }
    }

    /// The strongest configuration this library has for the game, as an agent spec without a
    /// budget: what `best` means (`best:time=1s`). Measured by matches at equal time; see
    /// `docs/experiments.md`.
    const BEST: &'static str = "uct";

    /// The names of the game's own agents, which specs may name besides the built-in ones
    /// ([`AgentSpec::parse_with`]); [`build`](TextGame::build) makes them. None by default.
    const AGENTS: &'static [&'static str] = &[];

    /// Reads an agent spec for this game: the built-in agents and the game's own
    /// ([`AGENTS`](TextGame::AGENTS)).
    ///
    /// # Errors
    ///
    /// What is wrong with the spec, as [`AgentSpec::from_str`](std::str::FromStr::from_str)
    /// says it.
    fn parse_agent(text: &str) -> Result<AgentSpec, SpecError> {
        AgentSpec::parse_with(text, Self::AGENTS)
    }

    /// Builds the agent `spec` describes for this game (`best` as [`BEST`](TextGame::BEST)),
    /// with the game's evaluator for the depth-limited agents and its knowledge for the
    /// Monte-Carlo agents ([`build`](TextGame::build)).
    ///
    /// # Errors
    ///
    /// When the spec asks for knowledge the game does not have ([`SpecError::Unsupported`]),
    /// or `best` with its keys is not a valid spec.
    fn agent(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        if let Some(fallback) = spec.fallback() {
            return spec.solver_agent(Self::solver(), Self::agent(&fallback, seed)?);
        }
        Self::build(&spec.resolve_best(Self::BEST)?, seed)
    }

    /// The game's exact solver, for the `solver` agent: by default [`search::Prover`], the
    /// brute-force solver every game has.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(search::Prover::<Self>::default())
    }

    /// Builds the agent of a spec (not `best`) with what the game offers: its evaluator for
    /// the depth-limited agents where it has one (Othello's [`Heuristic`]) and its knowledge
    /// (prior, playout policy, evaluator) for the Monte-Carlo agents. The default offers none.
    ///
    /// A game with agents of its own ([`AGENTS`](TextGame::AGENTS)) builds them here, reading
    /// their settings with [`AgentSpec::own_agent`], and leaves the other specs to
    /// [`AgentSpec::build_with`]:
    ///
    /// ```ignore
    /// const AGENTS: &'static [&'static str] = &["greedy"];
    ///
    /// fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
    ///     match spec.own_agent() {
    ///         Some(("greedy", _settings)) => Ok(Box::new(Greedy::new(spec.seed().unwrap_or(seed)))),
    ///         _ => spec.build_with(seed, MyEvaluator, my_knowledge()),
    ///     }
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// When the spec asks for knowledge the game does not have ([`SpecError::Unsupported`]).
    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build(seed)
    }

    /// Whether playing `action` exchanges the players' colours in GTP's view of the game (only
    /// Hex's swap). See [`exchanged`](TextGame::exchanged).
    fn exchanges_colours(action: Self::Action) -> bool {
        let _ = action;
        false
    }

    /// `action` seen with the colours exchanged. GTP Hex programs play the swap by exchanging
    /// colours where this library moves the stone to the mirrored cell; after a swap, GTP's
    /// cell `c` is this library's `c` transposed, and GTP's Black is this library's White.
    #[must_use]
    fn exchanged(action: Self::Action) -> Self::Action {
        action
    }

    /// The board as rows of cells, the top row first, each cell the player whose stone or
    /// disc is on it: what a drawing of the board needs (the web page). Empty by default: a
    /// game that does not give its cells is played without a drawn board.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        Vec::new()
    }

    /// The board drawn with the colours exchanged (see [`exchanged`](TextGame::exchanged)).
    fn to_string_exchanged(&self) -> String {
        self.to_string()
    }

    /// The analyses of a position the game offers, `(command, label)`: GTP commands beyond
    /// the protocol's, each answered by [`analyse`](TextGame::analyse) with a list of moves,
    /// that `gogui-analyze_commands` offers GoGui and HexGui to show on the board. None by
    /// default.
    const ANALYSES: &'static [(&'static str, &'static str)] = &[];

    /// The moves that analysis `command` (one of [`ANALYSES`](TextGame::ANALYSES)) picks out
    /// in this position, or `None` for a command the game does not have.
    fn analyse(&self, command: &str) -> Option<Vec<Self::Action>> {
        let _ = command;
        None
    }
}

impl TextGame for Hex {
    const NAME: &'static str = "hex";

    fn size_text(&self) -> String {
        format!("{0}x{0}", self.size())
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, String> {
        let size = match *dimensions {
            [n] => n,
            [columns, rows] if columns == rows => columns,
            [columns, rows] => {
                return Err(format!("Hex boards here are square, not {columns}x{rows}"));
            }
            _ => return Err("expected one size, or two equal sizes".to_owned()),
        };
        let board = if self.swap_rule() {
            Hex::with_swap(size)
        } else {
            Hex::new(size)
        };
        board.map_err(|e| e.to_string())
    }

    fn cleared(&self) -> Self {
        self.resized(&[u32::from(self.size())])
            .expect("the size of an existing board")
    }

    fn swap_rule(&self) -> Option<bool> {
        Some(Hex::swap_rule(self))
    }

    fn with_swap_rule(&self, on: bool) -> Option<Self> {
        let size = u32::from(self.size());
        let board = if on {
            Hex::with_swap(size)
        } else {
            Hex::new(size)
        };
        board.ok()
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, String> {
        let action: HexMove = text.trim().parse().map_err(|e| format!("{e}"))?;
        self.check(action).map_err(|e| e.to_string())?;
        Ok(action)
    }

    fn exchanges_colours(action: HexMove) -> bool {
        action == HexMove::Swap
    }

    fn exchanged(action: HexMove) -> HexMove {
        match action {
            HexMove::Place(cell) => HexMove::Place(cell.transposed()),
            HexMove::Swap => HexMove::Swap,
        }
    }

    fn to_string_exchanged(&self) -> String {
        Hex::to_string_exchanged(self)
    }

    /// What the fill-in and the virtual connections find for the player to move
    /// ([`Hex::inferior_cells`], [`Hex::proven_moves`]).
    const ANALYSES: &'static [(&'static str, &'static str)] = &[
        ("hex-winning", "Winning moves (virtual connections)"),
        ("hex-losing", "Losing moves (virtual connections)"),
        ("hex-finishing", "Moves that close a won connection"),
        ("hex-inferior", "Inferior cells (dead, captured, dominated)"),
        ("hex-dead", "Dead cells"),
        ("hex-captured", "Captured cells (both players)"),
    ];

    fn analyse(&self, command: &str) -> Option<Vec<HexMove>> {
        // Several lists as one, in board order.
        let merged = |lists: &[&[games_hex::Cell]]| {
            let mut cells = lists.concat();
            cells.sort_unstable_by_key(|c| (c.row(), c.column()));
            cells
        };
        let cells = match command {
            "hex-winning" => self.proven_moves().winning,
            "hex-losing" => self.proven_moves().losing,
            "hex-finishing" => self.proven_moves().finishing,
            "hex-inferior" => {
                let found = self.inferior_cells();
                merged(&[&found.dead, &found.black, &found.white, &found.dominated])
            }
            "hex-dead" => self.inferior_cells().dead,
            "hex-captured" => {
                let found = self.inferior_cells();
                merged(&[&found.black, &found.white])
            }
            _ => return None,
        };
        Some(cells.into_iter().map(HexMove::Place).collect())
    }

    /// Row 1 at the top, column a on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        let n = self.size();
        (0..n)
            .map(|row| {
                (0..n)
                    .map(|column| self.at(games_hex::Cell::new(column, row)))
                    .collect()
            })
            .collect()
    }

    /// RAVE (no exploration term) with the bridge-saving playouts, the learned shape prior as
    /// a progressive bias (which leaves the dead and captured cells out) and the virtual
    /// connections asked of nodes visited 200 times: 59.0% over 200 games on 9x9 and 68% over
    /// 100 on 11x11 (100 ms a move) against the same knowledge under UCT with PUCT
    /// (`uct:playout=game,prior=game,puct=3,examine=200`, the `best` before it, itself 95%
    /// against plain UCT on 11x11); `docs/journal/hex.md`.
    const BEST: &'static str = "rave:playout=game,prior=game,examine=200,c=0,bias=5";

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, |_: &Self| 0, games_hex::knowledge())
    }

    /// Up to 5x5 the brute-force solver (`games_hex::Solver`, 64 MiB table: 4x4 at once, 5x5
    /// within about a minute and a half), which proves the fastest win; on larger boards
    /// df-pn with virtual connections (`games_hex::Dfpn`, 64 MiB table), which reaches some
    /// 9x9 middle games in seconds.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(HexSolver {
            small: games_hex::Solver::new(64 << 20),
            large: games_hex::Dfpn::new(64 << 20),
        })
    }
}

/// Hex's solver for the tools: by the board's size, [`games_hex::Solver`] (up to 5x5) or
/// [`games_hex::Dfpn`].
struct HexSolver {
    small: games_hex::Solver,
    large: games_hex::Dfpn,
}

impl HexSolver {
    /// The largest board the brute-force solver takes.
    const SMALL: u8 = 5;

    fn pick(&mut self, position: &Hex) -> &mut dyn Solve<Hex> {
        if position.size() <= Self::SMALL {
            &mut self.small
        } else {
            &mut self.large
        }
    }
}

impl Solve<Hex> for HexSolver {
    fn prove(
        &mut self,
        position: &Hex,
        deadline: Option<std::time::Instant>,
    ) -> Option<game_core::Proven> {
        self.pick(position).prove(position, deadline)
    }

    fn nodes(&self) -> u64 {
        self.small.nodes() + self.large.nodes()
    }

    fn solve(
        &mut self,
        position: &Hex,
        deadline: Option<std::time::Instant>,
    ) -> game_core::Solution<HexMove> {
        self.pick(position).solve(position, deadline)
    }
}

impl<const N: usize> TextGame for OthelloBoard<N> {
    const NAME: &'static str = "othello";

    fn size_text(&self) -> String {
        format!("{N}x{N}")
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, String> {
        match *dimensions {
            [n] | [n, _] if dimensions.iter().all(|&d| d as usize == N) => {
                debug_assert_eq!(n as usize, N);
                Ok(Self::new())
            }
            _ => Err(format!(
                "this engine plays Othello {N}x{N}; start it with --size for another board"
            )),
        }
    }

    fn cleared(&self) -> Self {
        Self::new()
    }

    fn final_score(&self) -> Option<String> {
        match self.status() {
            Status::Ongoing => None,
            Status::Over(Outcome::Draw) => Some("0".to_owned()),
            Status::Over(Outcome::Win(player)) => Some(format!(
                "{}+{}",
                if player == Player::Black { 'B' } else { 'W' },
                self.score_margin(player)
            )),
        }
    }

    const BEST: &'static str = "uct:playout=game,prior=game";

    /// Row 1 at the top, column a on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        let n = N as u8;
        (0..n)
            .map(|row| {
                (0..n)
                    .map(|column| self.at(games_othello::Square::new(column, row)))
                    .collect()
            })
            .collect()
    }

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, Heuristic::default(), games_othello::knowledge())
    }

    /// The exact endgame search (`games_othello::Endgame`), from as many empty squares as
    /// the move's time allows (about 20 for a second).
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(games_othello::Endgame::new())
    }
}

impl<B: Bits + Send + Sync + 'static> TextGame for Connect4Board<B> {
    const NAME: &'static str = "connect4";

    fn size_text(&self) -> String {
        format!("{}x{}", self.width(), self.height())
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, String> {
        let [columns, rows] = *dimensions else {
            return Err("expected columns and rows, as in `boardsize 7 6`".to_owned());
        };
        let side = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
        Self::with_size(side(columns), side(rows)).map_err(|e| {
            if e.available < 128 {
                format!("{e}; start the engine with --size {columns}x{rows}")
            } else {
                e.to_string()
            }
        })
    }

    fn cleared(&self) -> Self {
        Self::with_size(self.width(), self.height()).expect("the size of an existing board")
    }

    fn parse_move(&self, text: &str) -> Result<Column, String> {
        let column: Column = text.trim().parse().map_err(|e| format!("{e}"))?;
        if self.status().is_over() {
            Err("the game is over".to_owned())
        } else if column.index() >= self.width() {
            Err(format!(
                "there is no column {column}: the board has {} columns",
                self.width()
            ))
        } else if !self.is_legal(column) {
            Err(format!("column {column} is full"))
        } else {
            Ok(column)
        }
    }

    const BEST: &'static str = "uct:prior=game,playout=game";

    /// The top row first, column 1 on the left.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        (0..self.height())
            .rev()
            .map(|row| {
                (0..self.width())
                    .map(|column| self.at(column, row))
                    .collect()
            })
            .collect()
    }

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        spec.build_with(seed, |_: &Self| 0, games_connect4::knowledge())
    }

    /// Pons' method (`games_connect4::Solver`, 40 MB) with the opening book on 7x6, for
    /// boards of up to 55 bits (`width * (height + 1)`); beyond, the fallback plays.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(games_connect4::Solver::new().with_book(games_connect4::Book::standard()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_connect4::Connect4;
    use games_othello::{Othello, Othello6};
    use rand::SeedableRng;

    #[test]
    fn bad_moves_are_explained() {
        let hex = Hex::new(5).unwrap().after_moves("c3").unwrap();
        assert_eq!(hex.parse_move("c3").unwrap_err(), "c3 is occupied");
        assert!(hex.parse_move("z9").unwrap_err().contains("not a Hex move"));
        assert!(
            hex.parse_move("f1")
                .unwrap_err()
                .contains("off the 5x5 board")
        );
        assert!(
            hex.parse_move("swap")
                .unwrap_err()
                .contains("swap is only allowed")
        );
        let othello = Othello::new();
        assert_eq!(
            othello.parse_move("a1").unwrap_err(),
            "a1 is not legal here (legal: d3 c4 f5 e6)"
        );
        assert!(othello.parse_move(" D3 ").is_ok());
        let connect4: Connect4 = "444444".parse().unwrap();
        assert_eq!(connect4.parse_move("4").unwrap_err(), "column 4 is full");
        assert_eq!(
            connect4.parse_move("9").unwrap_err(),
            "there is no column 9: the board has 7 columns"
        );
        assert!(
            connect4
                .parse_move("x")
                .unwrap_err()
                .contains("not a column")
        );
    }

    #[test]
    fn sizes_change_within_what_the_type_allows() {
        let hex = Hex::with_swap(11).unwrap();
        let small = hex.resized(&[7]).unwrap();
        assert_eq!((small.size(), small.swap_rule()), (7, true));
        assert_eq!(hex.resized(&[9, 9]).unwrap().size(), 9);
        assert!(hex.resized(&[9, 7]).is_err());
        assert!(hex.resized(&[20]).unwrap_err().contains("19x19"));
        assert!(Othello::new().resized(&[8]).is_ok());
        assert!(Othello::new().resized(&[6]).unwrap_err().contains("--size"));
        assert!(Othello6::new().resized(&[6, 6]).is_ok());
        let c4 = Connect4::new().resized(&[6, 5]).unwrap();
        assert_eq!(c4.size_text(), "6x5");
        assert!(
            Connect4::new()
                .resized(&[9, 7])
                .unwrap_err()
                .contains("Connect4Large")
        );
        assert!(Connect4::new().resized(&[7]).is_err());
    }

    #[test]
    fn final_scores_name_the_winner() {
        let hex = Hex::new(2).unwrap().after_moves("a1 b1 a2").unwrap();
        assert_eq!(hex.final_score().as_deref(), Some("B+"));
        assert_eq!(Hex::new(2).unwrap().final_score(), None);
        // One of the shortest Othello games: a wipe-out after nine moves.
        let othello = Othello::new().after_moves("d3c3b3d2e1d6d7e3f4").unwrap();
        assert_eq!(othello.final_score().as_deref(), Some("B+13"));
        let won: Connect4 = "4455667".parse().unwrap();
        assert_eq!(won.final_score().as_deref(), Some("B+"));
        // Random games until one is drawn.
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
        let draw = (0..100_000)
            .map(|_| {
                let mut game = Connect4::new();
                game.random_playout(&mut rng);
                game
            })
            .find(|game| game.status() == Status::Over(Outcome::Draw))
            .unwrap();
        assert_eq!(draw.final_score().as_deref(), Some("0"));
    }

    /// The `solver` agent on 9x9 Hex (df-pn) plays a proven win that our engine missed in a
    /// game against MoHex 2.0 (`scripts/data/hex-9x9-missed-wins.txt`: Black wins by c3, i4,
    /// g6 or g7), and says it is proven.
    #[test]
    fn the_hex_solver_agent_plays_a_proven_win_on_9x9() {
        let moves = "a5 e5 d6 d5 b6 b7 c6 d7 c7 b9 c8 c9 d8 f7 e9 b5 c5 d3 h2 g3 h3 e6 f6 e7 d4 e3";
        let position = Hex::new(9).unwrap().after_moves(moves).unwrap();
        // The proof takes df-pn 159 nodes, 0.16 s at opt-level=1: the 20 s are a hundredfold
        // margin, and a proof grown costly fails the bound on nodes, not the clock.
        let spec: AgentSpec = "solver:time=20s,fallback=uct,share=1".parse().unwrap();
        let mut agent = Hex::agent(&spec, 1).unwrap();
        let action = agent.choose(&position, &spec.budget()).unwrap().to_string();
        assert!(
            ["c3", "i4", "g6", "g7"].contains(&action.as_str()),
            "{action}"
        );
        let proven = agent.report().unwrap().proven.unwrap();
        assert_eq!(proven.outcome, game_core::Wdl::Win);
        let nodes = agent.report().unwrap().nodes;
        assert!(nodes < 2_000, "{nodes} nodes");
    }
}
