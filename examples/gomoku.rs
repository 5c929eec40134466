//! Teaching the search about a game of your own: Gomoku on 9x9 (five in a row wins), with a
//! prior, a playout policy and an evaluator, checked by the conformance kit and measured in a
//! match against plain UCT. `docs/implementing-a-game.md` walks through it.
//!
//! ```text
//! cargo run --release --example gomoku                              # check, then 20 games at 100 ms a move
//! cargo run --release --example gomoku -- --games 100 --time 200ms --spec uct:prior=game,playout=game
//! ```
//!
//! It also has the library's tools, through `arena::cli` (every flag of the `play`, `gtp` and
//! `tournament` examples), and an agent of its own, `greedy`, that specs can name:
//!
//! ```text
//! cargo run --release --example gomoku -- play --agent best:time=1s
//! cargo run --release --example gomoku -- tournament --games 20 --agent best:time=100ms --agent greedy --agent uct:time=100ms
//! ```

use std::fmt;
use std::process::ExitCode;
use std::str::FromStr;

use clap::Parser;
use gamesearch::arena::cli::Tool;
use gamesearch::arena::{Score, SizeError, TextGame, WithGame, play_game};
use gamesearch::core::rand::{Rng, RngExt, SeedableRng};
use gamesearch::core::testing::Conformance;
use gamesearch::core::{
    Evaluator, Game, Outcome, Player, Status,
    knowledge::{Knowledge, PlayoutPolicy, Prior},
    mix64,
};
use gamesearch::search::{Agent, AgentSpec, Budget, SpecError};

mod common;

use common::say;

/// The side of the board.
const SIDE: u32 = 9;
/// Bits per row: the side and one guard column, so that shifting along a row never wraps.
const STRIDE: u32 = SIDE + 1;
/// Every cell of the board.
const CELLS: u128 = {
    let mut cells = 0u128;
    let mut row = 0;
    while row < SIDE {
        cells |= ((1u128 << SIDE) - 1) << (row * STRIDE);
        row += 1;
    }
    cells
};

/// A Gomoku position: each side's stones as bits (`STRIDE * row + column`).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Gomoku {
    stones: [u128; 2],
    to_move: Player,
    /// Whoever moved last made five.
    won: bool,
}

/// A cell, written `e5` (column a-i, row 1-9).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Point(u8);

impl Point {
    fn bit(self) -> u128 {
        1 << self.0
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (row, column) = (u32::from(self.0) / STRIDE, u32::from(self.0) % STRIDE);
        write!(f, "{}{}", char::from(b'a' + column as u8), row + 1)
    }
}

/// Text that is not a cell of the board.
#[derive(Debug)]
struct BadPoint(String);

impl fmt::Display for BadPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a cell: expected a1 to i9", self.0)
    }
}

impl std::error::Error for BadPoint {}

impl FromStr for Point {
    type Err = BadPoint;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BadPoint(text.to_owned());
        let mut chars = text.chars();
        let column = chars.next().ok_or_else(bad)?;
        let row: u32 = chars.as_str().parse().map_err(|_| bad())?;
        let column = u32::from(column).wrapping_sub(u32::from('a'));
        if column >= SIDE || !(1..=SIDE).contains(&row) {
            return Err(bad());
        }
        Ok(Point(((row - 1) * STRIDE + column) as u8))
    }
}

/// Whether `stones` hold five in a row in some direction.
fn five(stones: u128) -> bool {
    [1, STRIDE - 1, STRIDE, STRIDE + 1].into_iter().any(|s| {
        let two = stones & (stones >> s);
        let four = two & (two >> (2 * s));
        four & (stones >> (4 * s)) != 0
    })
}

/// The empty cells where `stones` would make five: in some direction, `a` stones on one side
/// and `4 - a` on the other. By shifts, a few dozen operations for the whole board.
fn fives_after(stones: u128, empty: u128) -> u128 {
    let mut cells = 0;
    for s in [1, STRIDE - 1, STRIDE, STRIDE + 1] {
        // after[k]: the cells whose next k cells towards +s are stones; before[k] towards -s.
        let (mut after, mut before) = ([u128::MAX; 5], [u128::MAX; 5]);
        for k in 1..5 {
            after[k] = after[k - 1] & (stones >> (k as u32 * s));
            before[k] = before[k - 1] & (stones << (k as u32 * s));
        }
        for a in 0..5 {
            cells |= after[a] & before[4 - a];
        }
    }
    cells & empty
}

/// [`fives_after`] the slow way, cell by cell: the reference it is checked against.
fn fives_after_slowly(stones: u128, empty: u128) -> u128 {
    let mut cells = 0;
    let mut candidates = empty;
    while candidates != 0 {
        let cell = candidates & candidates.wrapping_neg();
        if five(stones | cell) {
            cells |= cell;
        }
        candidates &= candidates - 1;
    }
    cells
}

/// The cells next to `stones` (in eight directions), on the board.
fn around(stones: u128) -> u128 {
    let mut near = 0;
    for s in [1, STRIDE - 1, STRIDE, STRIDE + 1] {
        near |= (stones << s) | (stones >> s);
    }
    near & CELLS
}

impl Gomoku {
    fn new() -> Self {
        Gomoku {
            stones: [0, 0],
            to_move: Player::Black,
            won: false,
        }
    }

    fn empty(&self) -> u128 {
        CELLS & !(self.stones[0] | self.stones[1])
    }

    fn mine(&self) -> u128 {
        self.stones[self.to_move.index()]
    }

    fn theirs(&self) -> u128 {
        self.stones[self.to_move.opponent().index()]
    }
}

impl fmt::Display for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIDE).rev() {
            for column in 0..SIDE {
                let bit = 1u128 << (row * STRIDE + column);
                let symbol = if self.stones[0] & bit != 0 {
                    'X'
                } else if self.stones[1] & bit != 0 {
                    'O'
                } else {
                    '.'
                };
                write!(f, "{symbol} ")?;
            }
            writeln!(f, "{}", row + 1)?;
        }
        write!(f, "a b c d e f g h i")
    }
}

impl Game for Gomoku {
    type Action = Point;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn status(&self) -> Status {
        if self.won {
            Status::Over(Outcome::Win(self.to_move.opponent()))
        } else if self.empty() == 0 {
            Status::Over(Outcome::Draw)
        } else {
            Status::Ongoing
        }
    }

    fn legal_actions<E: Extend<Point>>(&self, out: &mut E) {
        if self.won {
            return;
        }
        let mut empty = self.empty();
        out.extend(std::iter::from_fn(|| {
            (empty != 0).then(|| {
                let index = empty.trailing_zeros();
                empty &= empty - 1;
                Point(index as u8)
            })
        }));
    }

    fn play_unchecked(&mut self, point: Point) {
        let side = self.to_move.index();
        self.stones[side] |= point.bit() & CELLS;
        self.won = five(self.stones[side]);
        self.to_move = self.to_move.opponent();
    }

    fn position_hash(&self) -> u64 {
        let fold = |bits: u128| mix64(bits as u64 ^ mix64((bits >> 64) as u64));
        mix64(fold(self.stones[0]) ^ fold(self.stones[1]).rotate_left(1))
            ^ self.to_move.index() as u64
    }

    fn action_space(&self) -> Option<usize> {
        Some((SIDE * STRIDE) as usize)
    }

    fn action_index(&self, point: Point) -> usize {
        usize::from(point.0)
    }
}

// --- What the game knows ----------------------------------------------------------------------

/// A prior from local shape: a move that makes five weighs 1000, one that stops the opponent's
/// five 500; otherwise 1, plus 3 per stone next to it (either side's: play where the fight is),
/// and a tenth for a cell far from every stone.
#[derive(Clone, Copy, Debug)]
struct Shape;

impl Prior<Gomoku> for Shape {
    fn weigh(&self, position: &Gomoku, actions: &[Point], weights: &mut Vec<f32>) {
        let empty = position.empty();
        let (wins, blocks) = (
            fives_after(position.mine(), empty),
            fives_after(position.theirs(), empty),
        );
        let stones = position.stones[0] | position.stones[1];
        weights.extend(actions.iter().map(|point| {
            let bit = point.bit();
            if wins & bit != 0 {
                1000.0
            } else if blocks & bit != 0 {
                500.0
            } else {
                let neighbours = (around(bit) & stones).count_ones();
                if neighbours == 0 {
                    0.1
                } else {
                    1.0 + 3.0 * neighbours as f32
                }
            }
        }));
    }
}

/// A playout policy: make five if possible, else stop the opponent's five, else play at random
/// next to a stone (anywhere on an empty board).
#[derive(Clone, Copy, Debug)]
struct FiveFirst;

impl PlayoutPolicy<Gomoku> for FiveFirst {
    fn action<R: Rng + ?Sized>(&self, position: &Gomoku, rng: &mut R) -> Point {
        let empty = position.empty();
        let pick = |mut cells: u128, rng: &mut R| {
            for _ in 0..rng.random_range(0..cells.count_ones()) {
                cells &= cells - 1;
            }
            Point(cells.trailing_zeros() as u8)
        };
        for cells in [
            fives_after(position.mine(), empty),
            fives_after(position.theirs(), empty),
            around(position.mine() | position.theirs()) & empty,
        ] {
            if cells != 0 {
                return pick(cells, rng);
            }
        }
        pick(empty, rng)
    }
}

/// An evaluation by open lines: every five-cell window in a row, column or diagonal that holds
/// stones of one side only counts `4^k` for its `k` stones, for that side; the value is the
/// player to move's total minus the opponent's.
#[derive(Clone, Copy, Debug)]
struct Lines;

impl Evaluator<Gomoku> for Lines {
    fn evaluate(&self, position: &Gomoku) -> i32 {
        let (mine, theirs) = (position.mine(), position.theirs());
        let mut value = 0i32;
        for row in 0..SIDE as i32 {
            for column in 0..SIDE as i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (end_row, end_column) = (row + 4 * dr, column + 4 * dc);
                    if !(0..SIDE as i32).contains(&end_row)
                        || !(0..SIDE as i32).contains(&end_column)
                    {
                        continue;
                    }
                    let window: u128 = (0..5)
                        .map(|k| {
                            1u128 << ((row + k * dr) as u32 * STRIDE + (column + k * dc) as u32)
                        })
                        .fold(0, |all, bit| all | bit);
                    let (m, t) = ((mine & window).count_ones(), (theirs & window).count_ones());
                    if t == 0 && m > 0 {
                        value += 4i32.pow(m);
                    } else if m == 0 && t > 0 {
                        value -= 4i32.pow(t);
                    }
                }
            }
        }
        value
    }
}

/// Gomoku's knowledge: a value of 200 (about an open three more than the opponent) means a 73%
/// chance of winning.
fn knowledge() -> Knowledge<Shape, FiveFirst, Lines> {
    Knowledge::NONE
        .with_prior(Shape)
        .with_policy(FiveFirst)
        .with_evaluator(Lines, 200.0)
}

// --- The tools: play, gtp and tournament, with an agent of the game's own ----------------------

impl TextGame for Gomoku {
    const NAME: &'static str = "gomoku";

    fn size_text(&self) -> String {
        format!("{SIDE}x{SIDE}")
    }

    fn resized(&self, dimensions: &[u32]) -> Result<Self, SizeError> {
        if dimensions.iter().all(|&d| d == SIDE) && !dimensions.is_empty() {
            Ok(Gomoku::new())
        } else {
            Err(SizeError::Fixed {
                dimensions: dimensions.to_vec(),
                game: "Gomoku",
                size: self.size_text(),
            })
        }
    }

    fn cleared(&self) -> Self {
        Gomoku::new()
    }

    /// Measured by the match below: the prior and the evaluation at the leaf.
    const BEST: &'static str = "uct:prior=game,cutoff=0";

    const AGENTS: &'static [&'static str] = &["greedy"];

    fn build(spec: &AgentSpec, seed: u64) -> Result<Box<dyn Agent<Self> + Send>, SpecError> {
        match spec.own_agent() {
            Some(("greedy", [])) => Ok(Box::new(Greedy)),
            Some((name, settings)) => Err(SpecError::Unsupported {
                spec: spec.to_string(),
                what: format!("{name} takes no settings, not {}", settings[0].0),
            }),
            None => spec.build_with(seed, Lines, knowledge()),
        }
    }
}

/// The game's own agent: the move its prior likes best, without search.
struct Greedy;

impl Agent<Gomoku> for Greedy {
    fn choose(&mut self, position: &Gomoku, _: &Budget) -> Option<Point> {
        let actions = position.legal_actions_vec();
        let mut weights = Vec::new();
        Shape.weigh(position, &actions, &mut weights);
        let best = (0..actions.len()).max_by(|&a, &b| weights[a].total_cmp(&weights[b]))?;
        Some(actions[best])
    }
}

// --- The program ------------------------------------------------------------------------------

/// Gomoku 9x9 taught to the search: the kit checks the game and its knowledge, then a match.
#[derive(Parser, Debug)]
#[command(
    name = "gomoku",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Instead of the check and the match: one of the tools, on Gomoku.
    #[command(subcommand)]
    tool: Option<Tool>,
    /// The agent with the game's knowledge (against plain UCT at the same time per move).
    #[arg(long, default_value = "uct:prior=game,cutoff=0")]
    spec: String,
    /// Thinking time per move, for both agents.
    #[arg(long, default_value = "100ms")]
    time: String,
    /// Games of the match (colours alternating).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// The match's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let start = Gomoku::new();
    if let Some(tool) = cli.tool {
        return tool.run(start);
    }
    say!("Checking the rules and the knowledge on random games...");
    // The fast threat finder against the slow one, on the positions of random games.
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(cli.seed);
    for _ in 0..200 {
        let mut position = start.clone();
        while let Some(point) = position.random_action(&mut rng) {
            for stones in [position.mine(), position.theirs()] {
                let empty = position.empty();
                if fives_after(stones, empty) != fives_after_slowly(stones, empty) {
                    eprintln!("gomoku: the threat finder is wrong in\n{position}");
                    return ExitCode::FAILURE;
                }
            }
            position.play(point);
        }
    }
    if let Err(failure) = Conformance::new()
        .cases(16)
        .check_knowledge(&start, &knowledge())
    {
        eprintln!("gomoku: {failure}");
        return ExitCode::FAILURE;
    }
    let parse = |text: String| {
        text.parse::<AgentSpec>()
            .unwrap_or_else(|e| common::usage_error(e))
    };
    let sep = |spec: &str| if spec.contains(':') { ',' } else { ':' };
    let taught = parse(format!("{}{}time={}", cli.spec, sep(&cli.spec), cli.time));
    let plain = parse(format!("uct:time={}", cli.time));
    let build = |spec: &AgentSpec, seed| {
        spec.build_with(seed, Lines, knowledge())
            .unwrap_or_else(|e| common::usage_error(e))
    };
    say!("{} games, {taught} against {plain}:", cli.games);
    let mut score = Score::default();
    for game in 0..cli.games {
        let seed = mix64(cli.seed ^ u64::from(game));
        let (mut a, mut b) = (build(&taught, seed), build(&plain, seed ^ 1));
        let budgets = [taught.budget(), plain.budget()];
        let taught_is_black = game % 2 == 0;
        let record = if taught_is_black {
            play_game(
                &start,
                [&mut *a, &mut *b],
                [&budgets[0], &budgets[1]],
                |_| {},
            )
        } else {
            play_game(
                &start,
                [&mut *b, &mut *a],
                [&budgets[1], &budgets[0]],
                |_| {},
            )
        };
        let colour = if taught_is_black {
            Player::Black
        } else {
            Player::White
        };
        score.add(record.outcome, colour);
        say!(
            "game {}: {} ({} moves)",
            game + 1,
            match record.outcome.for_player(colour) {
                gamesearch::core::Wdl::Win => "won",
                gamesearch::core::Wdl::Draw => "drawn",
                gamesearch::core::Wdl::Loss => "lost",
            },
            record.moves.len()
        );
    }
    say!("{taught}: {score} against plain UCT");
    ExitCode::SUCCESS
}
