//! [`TextGame`]: what the tools need to know about a game beyond its rules: its name, its
//! sizes, why a move is refused, its final score, and its agents. One file per game holds the
//! game's implementation.

mod connect4;
mod hex;
mod othello;
mod tictactoe;

use std::error::Error as StdError;
use std::fmt;

use game_core::{Game, Outcome, Player, Status, solve::Solve};
use search::{Agent, AgentSpec, SpecError};

use crate::resign::Resignation;
use thiserror::Error;

/// Why a board size is refused ([`TextGame::resized`]); each hands the dimensions back.
#[derive(Debug, Error)]
pub enum SizeError {
    /// Not a shape the game's boards have: `expected` says which (one size, or columns and
    /// rows).
    #[error("expected {expected}")]
    Shape {
        /// The dimensions asked for.
        dimensions: Vec<u32>,
        /// What the game takes, in words.
        expected: &'static str,
    },
    /// The engine plays one size only (`size`, as [`TextGame::size_text`] writes it); another
    /// needs another engine, started with `--size`.
    #[error("this engine plays {game} {size}; start it with --size for another board")]
    Fixed {
        /// The dimensions asked for.
        dimensions: Vec<u32>,
        /// The game's name.
        game: &'static str,
        /// The one size it plays.
        size: String,
    },
    /// The game cannot have that size: its own error says why. With `restart`, a board of
    /// that size needs another engine, started with `--size`.
    #[error("{source}{}", restart_hint(dimensions, *restart))]
    Refused {
        /// The dimensions asked for.
        dimensions: Vec<u32>,
        /// The game's reason.
        source: Box<dyn StdError + Send + Sync>,
        /// Whether another engine (`--size`) would take it.
        restart: bool,
    },
}

fn restart_hint(dimensions: &[u32], restart: bool) -> String {
    if restart {
        let size: Vec<String> = dimensions.iter().map(ToString::to_string).collect();
        format!("; start the engine with --size {}", size.join("x"))
    } else {
        String::new()
    }
}

impl SizeError {
    /// The dimensions that were refused.
    #[must_use]
    pub fn dimensions(&self) -> &[u32] {
        match self {
            SizeError::Shape { dimensions, .. }
            | SizeError::Fixed { dimensions, .. }
            | SizeError::Refused { dimensions, .. } => dimensions,
        }
    }
}

/// Why a typed move is refused ([`TextGame::parse_move`]), in words for the person who typed
/// it.
#[derive(Debug, Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The text is not a move in the game's notation: the notation's error.
    #[error(transparent)]
    Unreadable(Box<dyn StdError + Send + Sync>),
    /// The move is not legal here; `legal` lists the legal moves when there are few.
    #[error("{action} is not legal here{}", legal_list(legal))]
    Illegal {
        /// The move, as the game writes it.
        action: String,
        /// The legal moves, when there are at most 12; empty otherwise.
        legal: Vec<String>,
    },
    /// The game refuses the move for a reason of its own (an occupied cell, a full column).
    #[error(transparent)]
    Refused(Box<dyn StdError + Send + Sync>),
}

fn legal_list(legal: &[String]) -> String {
    if legal.is_empty() {
        String::new()
    } else {
        format!(" (legal: {})", legal.join(" "))
    }
}

/// A game that the tools (`play`, `gtp`, `tournament`, the web page) can set up, read and
/// write as text.
///
/// Moves are read and written with the action's own `FromStr` and `Display`; this trait adds
/// what depends on the position or on the tool.
///
/// # What to implement
///
/// The items come in five sections, in this order in the source and in these docs:
///
/// 1. **Required** (four): [`NAME`](TextGame::NAME), [`size_text`](TextGame::size_text),
///    [`resized`](TextGame::resized) and [`cleared`](TextGame::cleared).
/// 2. **Tool text**, provided: [`MARKS`](TextGame::MARKS),
///    [`parse_move`](TextGame::parse_move) (override it to explain refusals in the game's
///    words), [`final_score`](TextGame::final_score) (override it for a game with a
///    score), [`why_won`](TextGame::why_won) (override it for a game that can show a won
///    position) and [`resignation`](TextGame::resignation), written in terms of it.
/// 3. **Agents**, provided: [`BEST`](TextGame::BEST), [`AGENTS`](TextGame::AGENTS),
///    [`build`](TextGame::build) and [`solver`](TextGame::solver) to override, and
///    [`parse_agent`](TextGame::parse_agent) and [`agent`](TextGame::agent), written in terms
///    of them, which a game leaves alone.
/// 4. **GTP hooks**, provided, for the swap rule and GoGui's analyses:
///    [`swap_rule`](TextGame::swap_rule), [`with_swap_rule`](TextGame::with_swap_rule),
///    [`exchanges_colours`](TextGame::exchanges_colours), [`exchanged`](TextGame::exchanged),
///    [`to_string_exchanged`](TextGame::to_string_exchanged),
///    [`ANALYSES`](TextGame::ANALYSES) and [`analyse`](TextGame::analyse). A game without a
///    swap rule or analyses leaves them alone.
/// 5. **Web drawing**, provided: [`cells`](TextGame::cells), the board for the web page
///    (none by default: the page then shows the board's text).
pub trait TextGame: Game + fmt::Display + Send + Sync + 'static {
    // --- 1. Required ------------------------------------------------------------------------

    /// The game's name as the tools spell it: `hex`, `othello`, `connect4`.
    const NAME: &'static str;

    /// The board's size as the tools write it: `11x11`, `8x8`, `7x6` (columns x rows).
    fn size_text(&self) -> String;

    /// The empty board of another size, with the same rules otherwise (GTP `boardsize`, whose
    /// arguments are `dimensions`: one number, or columns and rows).
    ///
    /// # Errors
    ///
    /// Why this game cannot have that size, as a [`SizeError`].
    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError>;

    /// The empty board with the same size and rules (GTP `clear_board`).
    fn cleared(&self) -> Self;

    // --- 2. Tool text: provided; override to say it in the game's words ---------------------

    /// The marks of Black's and White's stones (or discs) in the board's drawing
    /// (`Display`), as the `play` tool's legend names them: `X` and `O` by default.
    const MARKS: [char; 2] = ['X', 'O'];

    /// Reads `text` as a move in this position.
    ///
    /// # Errors
    ///
    /// Why it is not a legal move here, as a [`MoveError`], in words for the person who typed
    /// it.
    fn parse_move(&self, text: &str) -> Result<Self::Action, MoveError> {
        if self.status().is_over() {
            return Err(MoveError::Over);
        }
        let action: Self::Action = text
            .trim()
            .parse()
            .map_err(|e| MoveError::Unreadable(Box::new(e)))?;
        if self.is_legal(action) {
            return Ok(action);
        }
        let legal = self.legal_actions_vec();
        Err(MoveError::Illegal {
            action: action.to_string(),
            legal: if legal.len() <= 12 {
                legal.iter().map(ToString::to_string).collect()
            } else {
                Vec::new()
            },
        })
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

    /// How `player` has won already though the game goes on, in the game's words, when the
    /// game can show it (Hex: a connection whoever moves, [`Hex::connection`]); `None` by
    /// default. A resigning engine cites it ([`resignation`](TextGame::resignation)).
    ///
    /// [`Hex::connection`]: games_hex::Hex::connection
    fn why_won(&self, player: Player) -> Option<String> {
        let _ = player;
        None
    }

    /// What the tools say when `player` resigns this position for `why`: `White resigns: its
    /// loss is proven (Black connects by a virtual connection (9 cells))`. Written in terms
    /// of [`why_won`](TextGame::why_won); a game leaves it alone.
    fn resignation(&self, player: Player, why: &Resignation) -> String {
        let name = |p: Player| match p {
            Player::Black => "Black",
            Player::White => "White",
        };
        match self.why_won(player.opponent()) {
            Some(how) => format!("{} resigns: {why} ({how})", name(player)),
            None => format!("{} resigns: {why}", name(player)),
        }
    }

    // --- 3. Agents: provided; a game overrides the first four, never the last two -----------

    /// The strongest configuration this library has for the game, as an agent spec without a
    /// budget: what `best` means (`best:time=1s`). Measured by matches at equal time; see
    /// `docs/experiments.md`.
    const BEST: &'static str = "uct";

    /// The names of the game's own agents, which specs may name besides the built-in ones
    /// ([`AgentSpec::parse_with`]); [`build`](TextGame::build) makes them. None by default.
    const AGENTS: &'static [&'static str] = &[];

    /// Builds the agent of a spec (not `best`) with what the game offers: its evaluator for
    /// the depth-limited agents where it has one (Othello's `Heuristic`) and its knowledge
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

    /// The game's exact solver, for the `solver` agent: by default [`search::Prover`], the
    /// brute-force solver every game has.
    fn solver() -> Box<dyn Solve<Self> + Send> {
        Box::new(search::Prover::<Self>::default())
    }

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
        Self::build(&spec.resolve_best_with(Self::BEST, Self::AGENTS)?, seed)
    }

    // --- 4. GTP hooks: provided; for a swap rule and GoGui's analyses -----------------------

    /// Whether the game is played with the swap (pie) rule; `None` for games without one.
    fn swap_rule(&self) -> Option<bool> {
        None
    }

    /// The empty board with the swap rule on or off; `None` for games without one.
    fn with_swap_rule(&self, on: bool) -> Option<Self> {
        let _ = on;
        None
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

    // --- 5. Web drawing: provided; none by default ------------------------------------------

    /// The board as rows of cells, the top row first, each cell the player whose stone or
    /// disc is on it: what a drawing of the board needs (the web page). Empty by default: a
    /// game that does not give its cells is played without a drawn board.
    fn cells(&self) -> Vec<Vec<Option<Player>>> {
        Vec::new()
    }
}
