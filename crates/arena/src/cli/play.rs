//! `play`: a game against the computer in the terminal.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use clap::Args;
use game_core::{Outcome, Player, Status, Wdl};
use search::{Report, score};

use super::{parse_agent, usage_error};
use crate::{Resigner, TextGame, WithGame};

/// The flags of `play`: you against the computer, in the terminal.
///
/// Type a move (`4`, `d3`, `c5`, `swap`, `pass`), or `moves` for the legal moves, `undo` to
/// take back your last move, `board` to see the board again, `help`, or `quit`. After each of
/// its moves the computer says how long it thought and how it rates the position.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// The computer's agent: best (the strongest configuration for the game) or any spec, e.g.
    /// best:time=5s, uct:iterations=50000 or alphabeta:depth=10.
    #[arg(long, default_value = "best:time=2s")]
    pub agent: String,
    /// Your colour: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = ["black", "white"])]
    pub human: String,
    /// The computer's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// When the computer resigns.
    #[command(flatten)]
    pub resign: super::ResignArgs,
}

const HELP: &str = "Type a move, or:
  moves   the legal moves
  swap    Hex with --swap, as White's first move: take Black's first stone
          (it becomes yours, on the cell mirrored in the long diagonal)
  undo    take back your last move (and the computer's reply)
  board   show the board
  help    this text
  quit    leave the game";

impl WithGame for PlayArgs {
    type Output = io::Result<()>;

    /// Plays a game from `start` on standard input and output, until its end, the end of the
    /// input or a closed output; a bad agent spec ends the program with code 2 and the reason.
    fn run<G: TextGame>(self, start: G) -> io::Result<()> {
        super::until_closed(self.play(start))
    }
}

impl PlayArgs {
    /// The game of [`run`](WithGame::run).
    fn play<G: TextGame>(self, start: G) -> io::Result<()> {
        // A tree search on every core unless the spec says threads=N.
        let spec = parse_agent(&self.agent, &start).on_cores(0);
        let mut agent = G::agent(&spec, self.seed).unwrap_or_else(|e| usage_error(e));
        let budget = spec.budget();
        let mut resigner = Resigner::new(self.resign.rule());
        let human = if self.human == "white" {
            Player::White
        } else {
            Player::Black
        };
        let mut input = io::stdin().lock();
        let mut out = io::stdout().lock();
        let mut position = start;
        // The positions before each move, for undo.
        let mut history: Vec<G> = Vec::new();
        // The legend: each side with the mark the board draws it with.
        let [black, white] = G::MARKS;
        let name = |player: Player| match player {
            Player::Black => format!("Black ({black})"),
            Player::White => format!("White ({white})"),
        };
        writeln!(
            out,
            "{} {}: you play {}, the computer ({}) plays {}. Type help for the commands.\n",
            G::NAME,
            position.size_text(),
            name(human),
            spec,
            name(human.opponent())
        )?;
        writeln!(out, "{position}\n")?;
        loop {
            if let Status::Over(outcome) = position.status() {
                let result = match outcome {
                    Outcome::Draw => "A draw.".to_owned(),
                    Outcome::Win(p) if p == human => format!("You win as {}!", name(p)),
                    Outcome::Win(p) => format!("The computer wins as {}.", name(p)),
                };
                let score = position.final_score().unwrap_or_default();
                writeln!(out, "{result} Final score: {score}")?;
                return Ok(());
            }
            if position.to_move() != human {
                writeln!(out, "The computer is thinking...")?;
                out.flush()?;
                let clock = Instant::now();
                let Some(action) = agent.choose(&position, &budget) else {
                    unreachable!("an agent answers an ongoing game");
                };
                let seconds = clock.elapsed().as_secs_f64();
                if let Some(why) = resigner.consider(agent.report()) {
                    let said = position.resignation(position.to_move(), &why);
                    writeln!(out, "{said}.\nYou win as {}!", name(human))?;
                    return Ok(());
                }
                writeln!(
                    out,
                    "The computer plays {action} after {seconds:.1} s{}\n",
                    agent.report().map(describe).unwrap_or_default()
                )?;
                agent.played(&position, action);
                history.push(position.clone());
                position.play(action);
                writeln!(out, "{position}\n")?;
                continue;
            }
            write!(out, "Your move ({}): ", name(human))?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out, "\nGoodbye.")?;
                return Ok(());
            }
            match line.trim() {
                "" => {}
                "quit" | "exit" => {
                    writeln!(out, "Goodbye.")?;
                    return Ok(());
                }
                "help" | "?" => writeln!(out, "{HELP}")?,
                "board" => writeln!(out, "{position}\n")?,
                "moves" => {
                    let moves: Vec<String> = position
                        .legal_actions_vec()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    writeln!(out, "Legal moves: {}", moves.join(" "))?;
                }
                "undo" => {
                    // Back to the last position where it was your turn, before your move.
                    match history.iter().rposition(|p| p.to_move() == human) {
                        Some(index) => {
                            position = history[index].clone();
                            history.truncate(index);
                            resigner.reset();
                            writeln!(out, "Taken back.\n\n{position}\n")?;
                        }
                        None => writeln!(out, "There is no move of yours to take back.")?,
                    }
                }
                text => match position.parse_move(text) {
                    Ok(action) => {
                        agent.played(&position, action);
                        history.push(position.clone());
                        position.play(action);
                        writeln!(out, "\n{position}\n")?;
                    }
                    Err(reason) => writeln!(out, "Not a move here: {reason}. Type help.")?,
                },
            }
        }
    }
}

/// The computer's view of the position after its search, for the person playing it.
fn describe<A: std::fmt::Display + PartialEq>(report: &Report<A>) -> String {
    let line: Vec<String> = report
        .principal_variation
        .iter()
        .take(6)
        .map(ToString::to_string)
        .collect();
    let line = if line.len() > 1 {
        format!("; its line: {}", line.join(" "))
    } else {
        String::new()
    };
    if report.book {
        return " (from its opening book)".to_owned();
    }
    if let Some(value) = report.score {
        let verdict = if score::is_decisive(value) {
            let plies = score::WIN - value.abs();
            let side = if value > 0 { "it wins" } else { "it loses" };
            format!("{side} within {plies} plies")
        } else {
            format!("it rates the position {value:+}")
        };
        return format!(
            " (depth {}, {} positions): {verdict}{line}",
            report.depth, report.iterations
        );
    }
    // An exact solver's proof, with the plies to the end or the margin: it counted positions.
    if let Some(proven) = report
        .proven
        .filter(|p| p.plies.is_some() || p.margin.is_some())
    {
        return format!(
            " ({} positions): it has proven {proven}{line}",
            report.iterations
        );
    }
    let playouts = if report.threads > 1 {
        let lock = if report.locked {
            ", one tree under a lock"
        } else {
            ""
        };
        format!(
            "{} playouts on {} threads{lock}",
            report.iterations, report.threads
        )
    } else {
        format!("{} playouts", report.iterations)
    };
    // The UCT solver's (or a verdict's): the result alone, after so many playouts.
    if let Some(proof) = report.proven.map(|p| p.outcome) {
        let verdict = match proof {
            Wdl::Win => "it has proven a win",
            Wdl::Draw => "it has proven a draw",
            Wdl::Loss => "it has proven that it loses against best play",
        };
        return format!(" ({playouts}): {verdict}{line}");
    }
    match report.value() {
        Some(mean) => format!(
            " ({playouts}): it rates its winning chances {:.0}%{line}",
            100.0 * mean
        ),
        None => String::new(),
    }
}
