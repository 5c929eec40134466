//! Plugging a neural network into the search: a [`BatchEvaluator`] for Othello whose forward
//! pass runs on a whole batch of positions at once, driving [`BatchedUct`], in a match against
//! plain UCT at equal time. `docs/algorithms.md` ("Batched evaluation") explains it.
//!
//! ```text
//! cargo run --release --example network                          # 10 games at 100 ms a move
//! cargo run --release --example network -- --games 40 --time 1s --batch 32
//! ```
//!
//! The "network" here is one linear layer with hand-set weights (the square values of
//! Othello's heuristic), so that the example runs anywhere without a model file. A real one
//! replaces [`Linear::forward`] with a call to its runtime (ONNX Runtime, `tch`, `candle`, a
//! server): the batch's inputs go in as one tensor, the policy and value heads come back as
//! two, and the rest of the code stays as it is.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use gamesearch::arena::{MoveEvent, Score, play_game};
use gamesearch::core::{
    Game, Player, Wdl,
    knowledge::{Batch, BatchEvaluator},
    mix64,
};
use gamesearch::othello::{Heuristic, Move, Othello};
use gamesearch::search::{Agent, BatchedUct, Budget, Uct, UctConfig};

mod common;

use common::say;

/// A network's inputs per position: a plane of the mover's discs, a plane of the opponent's.
const INPUTS: usize = 128;
/// Its policy head: a logit per square.
const SQUARES: usize = 64;

/// A match of the network-guided search against plain UCT.
#[derive(Parser, Debug)]
#[command(name = "network", version, about)]
struct Cli {
    /// Games to play, colours alternating.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Time per move for both sides, e.g. 100ms or 1s.
    #[arg(long, default_value = "100ms", value_parser = parse_time)]
    time: Duration,
    /// The most positions per call of the network.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    batch: u32,
    /// The seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_time(text: &str) -> Result<Duration, String> {
    let mut budget = Budget::iterations(1);
    budget.set("time", text).map_err(|e| e.to_string())?;
    budget.time.ok_or_else(|| "expected a time".to_owned())
}

/// A one-layer network: `policy = inputs · W + b`, `value = sigmoid(inputs · v / scale)`,
/// computed for the whole batch at once as a network runtime would.
struct Linear {
    /// `INPUTS x SQUARES`, row-major.
    policy_weights: Vec<f32>,
    policy_bias: [f32; SQUARES],
    value_weights: [f32; INPUTS],
    /// The input buffer (`batch x INPUTS`) and the outputs (`batch x SQUARES`, `batch`),
    /// kept between calls.
    inputs: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
    /// The legal moves' weights of one position, before they go to the batch.
    weights: Vec<f32>,
    /// Calls and positions seen, for the statistics.
    calls: u64,
    positions: u64,
}

impl Linear {
    /// The weights a trained network would load from a file: here, Othello's square values
    /// (corners good, the squares next to them bad) as the policy's bias and the value's
    /// weights.
    fn new() -> Self {
        let squares = Heuristic::square_weights::<8>();
        let mut value_weights = [0.0; INPUTS];
        let mut policy_bias = [0.0; SQUARES];
        for (s, &w) in squares.iter().enumerate() {
            value_weights[s] = w as f32; // the mover's discs
            value_weights[SQUARES + s] = -(w as f32); // the opponent's
            policy_bias[s] = w as f32 / 40.0;
        }
        Linear {
            policy_weights: vec![0.0; INPUTS * SQUARES],
            policy_bias,
            value_weights,
            inputs: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            weights: Vec::new(),
            calls: 0,
            positions: 0,
        }
    }

    /// The forward pass over `self.inputs` (`n` rows): where a real network is called.
    fn forward(&mut self, n: usize) {
        self.logits.clear();
        self.values.clear();
        for row in self.inputs.chunks_exact(INPUTS).take(n) {
            let mut logits = self.policy_bias;
            let mut value = 0.0;
            for (i, &x) in row.iter().enumerate() {
                if x != 0.0 {
                    let weights = &self.policy_weights[i * SQUARES..(i + 1) * SQUARES];
                    for (logit, w) in logits.iter_mut().zip(weights) {
                        *logit += x * w;
                    }
                    value += x * self.value_weights[i];
                }
            }
            self.logits.extend_from_slice(&logits);
            self.values.push(1.0 / (1.0 + (-value / 60.0).exp()));
        }
    }
}

impl BatchEvaluator<Othello> for Linear {
    fn evaluate(&mut self, batch: &mut Batch<Othello>) {
        let n = batch.len();
        self.calls += 1;
        self.positions += n as u64;
        // Encode: one row of inputs per position, from the mover's point of view.
        self.inputs.clear();
        self.inputs.resize(n * INPUTS, 0.0);
        for (row, position) in self.inputs.chunks_exact_mut(INPUTS).zip(batch.positions()) {
            let me = position.to_move();
            for (plane, player) in [me, me.opponent()].into_iter().enumerate() {
                let mut bits = position.bits(player);
                while bits != 0 {
                    row[plane * SQUARES + bits.trailing_zeros() as usize] = 1.0;
                    bits &= bits - 1;
                }
            }
        }
        self.forward(n);
        // Decode: the legal moves' logits through a softmax, and the value.
        for i in 0..n {
            let logits = &self.logits[i * SQUARES..(i + 1) * SQUARES];
            let logit = |action: &Move| match action {
                Move::Place(square) => logits[usize::from(square.index())],
                Move::Pass => 0.0,
            };
            let top = batch
                .actions(i)
                .iter()
                .map(logit)
                .fold(f32::NEG_INFINITY, f32::max);
            self.weights.clear();
            self.weights
                .extend(batch.actions(i).iter().map(|a| (logit(a) - top).exp()));
            batch.priors_mut(i).copy_from_slice(&self.weights);
            batch.set_value(i, f64::from(self.values[i]));
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let budget = Budget::time(cli.time);
    let start = Othello::new();
    say!(
        "{} games of Othello at {:?} a move: the network (batches of {}) against plain UCT",
        cli.games,
        cli.time,
        cli.batch
    );
    let mut score = Score::default();
    let (mut positions, mut calls, mut thinking) = (0, 0, Duration::ZERO);
    for game in 0..cli.games {
        let seed = mix64(cli.seed ^ u64::from(game));
        let mut network = BatchedUct::new(
            UctConfig::default(),
            Linear::new(),
            cli.batch as usize,
            seed,
        );
        let mut plain: Uct<Othello> = Uct::new(seed ^ 1);
        let network_colour = if game % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        let record = {
            let mut on_move = |event: MoveEvent<'_, Othello>| {
                if event.player == network_colour {
                    thinking += event.elapsed;
                }
            };
            let (a, b): (&mut dyn Agent<Othello>, &mut dyn Agent<Othello>) =
                (&mut network, &mut plain);
            let agents = if network_colour == Player::Black {
                [a, b]
            } else {
                [b, a]
            };
            play_game(&start, agents, [&budget, &budget], &mut on_move)
        };
        let network = network.evaluator_mut();
        positions += network.positions;
        calls += network.calls;
        score.add(record.outcome, network_colour);
        say!(
            "game {}: the network {} as {network_colour}",
            game + 1,
            match record.outcome.for_player(network_colour) {
                Wdl::Win => "won",
                Wdl::Draw => "drew",
                Wdl::Loss => "lost",
            }
        );
    }
    say!("the network: {score} against plain UCT");
    say!(
        "the network evaluated {positions} positions in {calls} calls ({:.1} a call), {:.0} per second of its thinking",
        positions as f64 / calls.max(1) as f64,
        positions as f64 / thinking.as_secs_f64().max(1e-9),
    );
    ExitCode::SUCCESS
}
