//! A GTP (Go Text Protocol) engine for any [`TextGame`], as Hex, Othello and Connect Four
//! programs and referees speak it.
//!
//! | command | answer |
//! |---|---|
//! | `protocol_version`, `name`, `version` | `2`, `gamesearch`, the crate version |
//! | `known_command NAME`, `list_commands` | `true`/`false`, the commands one per line |
//! | `boardsize N` or `boardsize C R` | an empty board of that size (Connect Four: columns, rows) |
//! | `clear_board` | an empty board |
//! | `play COLOR MOVE` | plays the move (`black`/`white`, also `b`/`w`) |
//! | `genmove COLOR` | the agent's move, played; `resign` on a proven loss, or after three moves in a row under 5% ([`GtpEngine::with_resign`]) |
//! | `undo` | takes back the last move |
//! | `showboard` | the board |
//! | `final_score` | `B+`, `W+` (Othello: with the disc margin, `B+12`) or `0` |
//! | `param_game [allow_swap 0\|1]` | Hex: the swap rule, as in Benzene |
//! | `time_settings MAIN BYO_YOMI STONES` | a game clock (seconds; Canadian byo-yomi; `0 0 0` for none) |
//! | `time_left COLOR TIME STONES` | what the controller's clock says a player has left |
//! | `gogui-analyze_commands`, `hexgui-analyze_commands` | the game's analyses, for GoGui and HexGui (`plist/LABEL/COMMAND` a line) |
//! | an analysis ([`TextGame::ANALYSES`]; Hex: `hex-winning`, `hex-inferior`, ...) | the moves it picks out, space-separated |
//! | `quit` | ends the session |
//!
//! Every answer is `= result` or `? reason`, then a blank line; a command may start with a
//! number, which the answer repeats (`=3`). Comments (`#` to the end of the line) and empty
//! lines are ignored; a malformed, unknown or illegal command is answered with `? reason` and
//! the engine goes on.
//!
//! **Time.** Without a clock, `genmove` thinks within the agent spec's budget. After
//! `time_settings`, it manages the clock instead: a move gets an even share of the time left
//! over the moves the game still needs (estimated from a few random playouts), and once more
//! when the search is unsure (the two most visited moves within a factor of 1.5 of each other),
//! up to a quarter of what is left; it keeps back a margin (5% and 60 ms) so it never loses on
//! time. It counts its own time when the controller does not send `time_left`.
//!
//! **Pondering** ([`GtpEngine::with_ponder`], the `gtp` tool's `--ponder`): after answering
//! `genmove`, the engine goes on searching the position on the opponent's time until a command
//! other than a query arrives (`final_score`, `showboard`, `time_left`, `name` and the like are
//! answered meanwhile); tree reuse then keeps the part of that tree the opponent's move leads
//! to. A new game (`clear_board`, `boardsize`) starts the clock again.
//!
//! Hex with the swap rule speaks the Benzene/HexGui convention: after `play white
//! swap-pieces` the players exchange colours and the stone stays where it is, so White is to
//! move. Internally the swap moves the stone ([`games_hex::Move::Swap`]); the engine
//! translates cells and colours both ways (see [`TextGame::exchanged`]).
//!
//! ```
//! use arena::GtpEngine;
//! use games_connect4::Connect4;
//!
//! let mut engine = GtpEngine::new(Connect4::new(), "uct:iterations=300".parse()?, 1)?;
//! let script = "boardsize 7 6\nplay black 4\n7 genmove white\nplay black 9\nquit\n";
//! let mut answers = Vec::new();
//! engine.run(script.as_bytes(), &mut answers)?;
//! let answers = String::from_utf8(answers)?;
//! let lines: Vec<&str> = answers.split("\n\n").collect();
//! assert_eq!(lines[0..2], ["=", "="]);
//! assert!(lines[2].starts_with("=7 ")); // White's column, such as `=7 4`
//! assert!(lines[3].starts_with("? ")); // there is no column 9
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use game_core::Player;
use search::{Agent, AgentSpec, Budget, Report, SpecError};

use crate::TextGame;
use crate::clock::{Clock, moves_to_go};
use crate::resign::{Resign, Resigner};

/// The commands the engine knows, in the order `list_commands` gives them.
const COMMANDS: [&str; 18] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "param_game",
    "time_settings",
    "time_left",
    "gogui-analyze_commands",
    "hexgui-analyze_commands",
    "quit",
];

/// A GTP session: a game, its history, and the agent that answers `genmove`.
pub struct GtpEngine<G: TextGame> {
    spec: AgentSpec,
    seed: u64,
    games: u64,
    agent: Box<dyn Agent<G> + Send>,
    start: G,
    position: G,
    /// The positions before each move, for `undo`.
    history: Vec<G>,
    moves: Vec<G::Action>,
    /// The game clock, after `time_settings` with a limit.
    clock: Option<Clock>,
    /// Whether to search on the opponent's time.
    ponder: bool,
    /// When `genmove` resigns.
    resigner: Resigner,
    /// Whether the last command was a `genmove` that played a move (pondering starts then).
    moved: bool,
    /// The last `genmove`'s report.
    report: Option<Report<G::Action>>,
}

impl<G: TextGame> std::fmt::Debug for GtpEngine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GtpEngine")
            .field("spec", &self.spec)
            .field("seed", &self.seed)
            .field("position", &self.position)
            .field("moves", &self.moves)
            .finish_non_exhaustive()
    }
}

/// Whether the session goes on after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was answered: stop.
    Quit,
}

impl<G: TextGame> GtpEngine<G> {
    /// An engine that starts from `start` (and returns to its size and rules on
    /// `clear_board`) and answers `genmove` with the agent `spec` describes. The agent of the
    /// `k`-th game of the session (counting `clear_board` and `boardsize`) is seeded with
    /// `seed + k`.
    ///
    /// # Errors
    ///
    /// When the spec asks for knowledge the game does not have (see [`TextGame::agent`]).
    pub fn new(start: G, spec: AgentSpec, seed: u64) -> Result<Self, SpecError> {
        spec.check_for(&start)?;
        let agent = G::agent(&spec, seed)?;
        Ok(GtpEngine {
            spec,
            seed,
            games: 0,
            agent,
            position: start.clone(),
            start,
            history: Vec::new(),
            moves: Vec::new(),
            clock: None,
            ponder: false,
            resigner: Resigner::new(Resign::default()),
            moved: false,
            report: None,
        })
    }

    /// This engine, searching on the opponent's time after each `genmove` when `ponder` (see
    /// the module's documentation).
    #[must_use]
    pub fn with_ponder(mut self, ponder: bool) -> Self {
        self.ponder = ponder;
        self
    }

    /// This engine, answering `genmove` with `resign` by `rule` ([`Resign`]: by default on a
    /// proven loss, or after three moves in a row with winning chances under 5%), or
    /// ([`Resign::NEVER`]) always with a move (the one the search chose, which against a
    /// fallible opponent may still win). The count of moves in a row starts again with each
    /// game and each `undo`.
    #[must_use]
    pub fn with_resign(mut self, rule: Resign) -> Self {
        self.resigner = Resigner::new(rule);
        self
    }

    /// The report of the last `genmove`'s search (pondering's own searches aside), if the
    /// agent gives one.
    #[must_use]
    pub fn report(&self) -> Option<&Report<G::Action>> {
        self.report.as_ref()
    }

    /// The current position, as this library sees it (after a Hex swap, transposed and
    /// recoloured relative to what GTP shows).
    #[must_use]
    pub fn position(&self) -> &G {
        &self.position
    }

    /// Answers commands from `input` on `output` until `quit` or the end of the input. Bytes
    /// that are not UTF-8 are read as `\u{FFFD}` (and so make a bad command, not an error).
    ///
    /// # Errors
    ///
    /// Reading or writing failed.
    pub fn run(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut line = Vec::new();
        loop {
            line.clear();
            let read = if self.ponder && self.moved && !self.position.status().is_over() {
                self.ponder(&mut input, &mut line, &mut output)?
            } else {
                input.read_until(b'\n', &mut line)?
            };
            if read == 0 {
                break;
            }
            let Some((answer, flow)) = self.execute(&String::from_utf8_lossy(&line)) else {
                continue;
            };
            output.write_all(answer.as_bytes())?;
            output.flush()?;
            if flow == Flow::Quit {
                break;
            }
        }
        Ok(())
    }

    /// Searches the current position on another thread while reading commands: those that
    /// only read the game ([`QUERIES`]: `final_score`, `showboard`, ...) are answered at once
    /// and the search goes on; the first other command (left in `line`, its length returned,
    /// 0 at the end of the input) stops it.
    fn ponder(
        &mut self,
        input: &mut impl BufRead,
        line: &mut Vec<u8>,
        output: &mut impl Write,
    ) -> io::Result<usize> {
        let stop = Arc::new(AtomicBool::new(false));
        let budget = Budget::default().with_stop(Arc::clone(&stop));
        // The agent goes to the thinking thread; the engine keeps a stand-in, which the
        // queries answered meanwhile never use.
        let mut agent: Box<dyn Agent<G> + Send> =
            std::mem::replace(&mut self.agent, Box::new(Idle));
        let position = self.position.clone();
        let read = std::thread::scope(|scope| {
            let thinker = scope.spawn(|| {
                agent.choose(&position, &budget);
            });
            let read = loop {
                line.clear();
                let read = match input.read_until(b'\n', line) {
                    Ok(0) => break Ok(0),
                    Ok(read) => read,
                    Err(e) => break Err(e),
                };
                let text = String::from_utf8_lossy(line);
                if !is_query(&text) {
                    break Ok(read);
                }
                if let Some((answer, _)) = self.execute(&text)
                    && let Err(e) = output
                        .write_all(answer.as_bytes())
                        .and_then(|()| output.flush())
                {
                    break Err(e);
                }
            };
            stop.store(true, Ordering::Relaxed);
            // A search that panicked has said so on standard error; the agent is kept.
            let _ = thinker.join();
            read
        });
        self.agent = agent;
        read
    }

    /// Answers one line: `None` for a line with no command (empty, or only a comment), else
    /// the full answer (`= ...` or `? ...`, ending with a blank line) and whether to go on.
    pub fn execute(&mut self, line: &str) -> Option<(String, Flow)> {
        let line = clean(line);
        let (id, mut words) = split_id(&line);
        let command = words.next()?;
        if command.bytes().all(|b| b.is_ascii_digit()) {
            return Some((format!("?{id} missing command\n\n"), Flow::Continue));
        }
        let arguments: Vec<&str> = words.collect();
        let flow = if command == "quit" {
            Flow::Quit
        } else {
            Flow::Continue
        };
        let played = self.moves.len();
        let answer = match self.command(command, &arguments) {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(reason) => format!("?{id} {reason}\n\n"),
        };
        // A `genmove` that played (not one that resigned).
        self.moved = command == "genmove" && self.moves.len() > played;
        Some((answer, flow))
    }

    fn command(&mut self, command: &str, arguments: &[&str]) -> Result<String, String> {
        let no_arguments = || {
            if arguments.is_empty() {
                Ok(())
            } else {
                Err(format!("{command} takes no arguments"))
            }
        };
        match command {
            "protocol_version" => no_arguments().map(|()| "2".to_owned()),
            "name" => no_arguments().map(|()| "gamesearch".to_owned()),
            "version" => no_arguments().map(|()| env!("CARGO_PKG_VERSION").to_owned()),
            "known_command" => match arguments {
                [name] => Ok(commands::<G>().any(|c| c == *name).to_string()),
                _ => Err("known_command takes one command name".to_owned()),
            },
            "list_commands" => {
                no_arguments().map(|()| commands::<G>().collect::<Vec<_>>().join("\n"))
            }
            "gogui-analyze_commands" | "hexgui-analyze_commands" => no_arguments().map(|()| {
                let lines: Vec<String> = G::ANALYSES
                    .iter()
                    .map(|(name, label)| format!("plist/{label}/{name}"))
                    .collect();
                lines.join("\n")
            }),
            "quit" => Ok(String::new()),
            "boardsize" => self.boardsize(arguments),
            "clear_board" => {
                no_arguments()?;
                self.new_game(self.start.cleared());
                Ok(String::new())
            }
            "play" => self.play(arguments),
            "genmove" => self.genmove(arguments),
            "undo" => {
                no_arguments()?;
                let previous = self.history.pop().ok_or("there is no move to undo")?;
                self.position = previous;
                self.moves.pop();
                self.resigner.reset();
                Ok(String::new())
            }
            "showboard" => {
                no_arguments()?;
                let board = if self.exchanged() {
                    self.position.to_string_exchanged()
                } else {
                    self.position.to_string()
                };
                Ok(format!("\n{board}"))
            }
            "final_score" => {
                no_arguments()?;
                let score = self
                    .position
                    .final_score()
                    .ok_or("the game is not over yet")?;
                Ok(if self.exchanged() {
                    exchange_letters(&score)
                } else {
                    score
                })
            }
            "param_game" => self.param_game(arguments),
            "time_settings" => {
                self.clock = Clock::from_settings(arguments)?;
                Ok(String::new())
            }
            "time_left" => {
                let [colour, rest @ ..] = arguments else {
                    return Err("time_left takes a colour, seconds and stones".to_owned());
                };
                let colour = gtp_colour(colour)?;
                match &mut self.clock {
                    Some(clock) => clock.set_left(colour, rest).map(|()| String::new()),
                    None => Ok(String::new()), // no limit: nothing to manage
                }
            }
            _ => {
                let moves = self
                    .position
                    .analyse(command)
                    .ok_or_else(|| format!("unknown command {command:?}"))?;
                no_arguments()?;
                let exchanged = self.exchanged();
                let moves: Vec<String> = moves
                    .into_iter()
                    .map(|m| if exchanged { G::exchanged(m) } else { m }.to_string())
                    .collect();
                Ok(moves.join(" "))
            }
        }
    }

    fn boardsize(&mut self, arguments: &[&str]) -> Result<String, String> {
        let dimensions = arguments
            .iter()
            .map(|a| a.parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| format!("boardsize takes numbers, not {:?}", arguments.join(" ")))?;
        if dimensions.is_empty() {
            return Err("boardsize takes a size, or columns and rows".to_owned());
        }
        let board = self
            .start
            .resized(&dimensions)
            .map_err(|e| format!("unacceptable size: {e}"))?;
        self.start = board.clone();
        self.new_game(board);
        Ok(String::new())
    }

    fn param_game(&mut self, arguments: &[&str]) -> Result<String, String> {
        let current = self.start.swap_rule();
        match arguments {
            [] => Ok(current.map_or_else(String::new, |on| {
                format!("[bool] allow_swap {}", u8::from(on))
            })),
            ["allow_swap", value] => {
                let on = match *value {
                    "1" | "true" => true,
                    "0" | "false" => false,
                    _ => return Err(format!("allow_swap takes 0 or 1, not {value:?}")),
                };
                if !self.moves.is_empty() && current != Some(on) {
                    return Err("the swap rule can only change before the first move".to_owned());
                }
                let board = self
                    .start
                    .with_swap_rule(on)
                    .ok_or_else(|| format!("{} has no swap rule", G::NAME))?;
                self.start = board.clone();
                self.position = board;
                Ok(String::new())
            }
            [name, ..] => Err(format!("unknown parameter {name:?}")),
        }
    }

    fn new_game(&mut self, board: G) {
        self.games += 1;
        if let Some(clock) = &mut self.clock {
            clock.restart();
        }
        self.agent = G::agent(&self.spec, self.seed.wrapping_add(self.games))
            .expect("the spec was checked for this game by GtpEngine::new");
        self.position = board;
        self.history.clear();
        self.moves.clear();
        self.resigner.reset();
    }

    /// Whether GTP's colours are exchanged relative to this library's (after a Hex swap).
    fn exchanged(&self) -> bool {
        self.moves.iter().any(|&a| G::exchanges_colours(a))
    }

    /// The player of this library who plays GTP's `colour` now.
    fn player(&self, colour: &str) -> Result<Player, String> {
        let player = gtp_colour(colour)?;
        let player = if self.exchanged() {
            player.opponent()
        } else {
            player
        };
        if self.position.status().is_over() {
            return Err("the game is over".to_owned());
        }
        if player != self.position.to_move() {
            return Err(format!(
                "it is {}'s turn",
                self.colour(self.position.to_move())
            ));
        }
        Ok(player)
    }

    /// GTP's name for this library's `player`.
    fn colour(&self, player: Player) -> &'static str {
        let player = if self.exchanged() {
            player.opponent()
        } else {
            player
        };
        match player {
            Player::Black => "black",
            Player::White => "white",
        }
    }

    fn play(&mut self, arguments: &[&str]) -> Result<String, String> {
        let [colour, text] = arguments else {
            return Err("play takes a colour and a move, as in `play black d4`".to_owned());
        };
        self.player(colour)?;
        let action = if self.exchanged() {
            // Read the move in GTP's frame, then check it in this library's.
            let action: G::Action = text.parse().map_err(|e| format!("{e}"))?;
            let action = G::exchanged(action);
            if !self.position.is_legal(action) {
                return Err(format!("{text} is not legal here"));
            }
            action
        } else {
            self.position.parse_move(text).map_err(|e| e.to_string())?
        };
        self.push(action);
        Ok(String::new())
    }

    fn genmove(&mut self, arguments: &[&str]) -> Result<String, String> {
        let [colour] = arguments else {
            return Err("genmove takes a colour".to_owned());
        };
        self.player(colour)?;
        let side = gtp_colour(colour)?; // the clock's: GTP's colour, even after a Hex swap
        let started = Instant::now();
        let action = match &self.clock {
            None => self.agent.choose(&self.position, &self.spec.budget()),
            Some(clock) => {
                let allotment = clock.allot(side, moves_to_go(&self.position));
                let first = self
                    .agent
                    .choose(&self.position, &Budget::time(allotment.base));
                let extra = allotment.most.saturating_sub(allotment.base);
                if unsure(self.agent.report()) && !extra.is_zero() {
                    // The same position again: tree reuse goes on with the same tree.
                    let more = Budget::time(extra.min(allotment.base));
                    self.agent.choose(&self.position, &more).or(first)
                } else {
                    first
                }
            }
        }
        .ok_or("the agent found no move")?;
        self.report = self.agent.report().cloned();
        if let Some(clock) = &mut self.clock {
            clock.spend(side, started.elapsed());
        }
        if self.resigner.consider(self.report.as_ref()).is_some() {
            return Ok("resign".to_owned()); // the position stays as it is
        }
        let text = if self.exchanged() {
            G::exchanged(action)
        } else {
            action
        }
        .to_string();
        self.push(action);
        Ok(text)
    }

    fn push(&mut self, action: G::Action) {
        self.agent.played(&self.position, action);
        let next = self.position.after(action);
        self.history
            .push(std::mem::replace(&mut self.position, next));
        self.moves.push(action);
    }
}

/// Every command the engine knows for game `G`: GTP's ([`COMMANDS`]) and the game's analyses
/// ([`TextGame::ANALYSES`]).
fn commands<G: TextGame>() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .copied()
        .chain(G::ANALYSES.iter().map(|&(name, _)| name))
}

/// The commands that only read the game: answered while pondering, without stopping it.
const QUERIES: [&str; 8] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "showboard",
    "final_score",
    "time_left",
];

/// Whether `line` is a command of [`QUERIES`] (or has no command at all).
fn is_query(line: &str) -> bool {
    let line = clean(line);
    split_id(&line)
        .1
        .next()
        .is_none_or(|command| QUERIES.contains(&command))
}

/// A line as GTP reads it: without its comment and control characters (a tab is a space).
fn clean(line: &str) -> String {
    line.split('#')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|&c| !c.is_control() || c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect()
}

/// The command's number (empty when it has none) and the words after it.
fn split_id(line: &str) -> (&str, std::str::SplitWhitespace<'_>) {
    let words = line.split_whitespace();
    let mut rest = words.clone();
    match rest.next() {
        Some(id) if id.bytes().all(|b| b.is_ascii_digit()) => (id, rest),
        _ => ("", words),
    }
}

/// The stand-in for the agent while it ponders on another thread.
struct Idle;

impl<G: game_core::Game> Agent<G> for Idle {
    fn choose(&mut self, _: &G, _: &Budget) -> Option<G::Action> {
        None
    }

    fn played(&mut self, _: &G, _: G::Action) {}

    fn report(&self) -> Option<&Report<G::Action>> {
        None
    }
}

/// GTP's colour `colour` (not mapped through a Hex swap: the clock belongs to the colour).
fn gtp_colour(colour: &str) -> Result<Player, String> {
    match colour.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player::Black),
        "w" | "white" => Ok(Player::White),
        _ => Err(format!(
            "{colour:?} is not a colour: expected black or white"
        )),
    }
}

/// Whether a search's report leaves the choice open: the two most visited moves within a
/// factor of 1.5, and nothing proven.
fn unsure<A>(report: Option<&Report<A>>) -> bool {
    match report.map(|r| (r.proven, r.actions.as_slice())) {
        Some((None, [first, second, ..])) => 2 * first.visits < 3 * second.visits,
        _ => false,
    }
}

/// `B+...` for `W+...` and back.
fn exchange_letters(score: &str) -> String {
    if let Some(rest) = score.strip_prefix("B+") {
        format!("W+{rest}")
    } else if let Some(rest) = score.strip_prefix("W+") {
        format!("B+{rest}")
    } else {
        score.to_owned()
    }
}
