//! Tournaments: many agents, many games in parallel, standings with intervals and ratings.

use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use game_core::{Outcome, Player, mix64};
use rayon::prelude::*;
use search::{AgentSpec, Budget, SpecError};

use crate::{Rating, Resign, Score, TextGame, play_game_resigning, ratings};

/// Who meets whom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// Every agent against every other.
    RoundRobin,
    /// The first agent against each of the others.
    Gauntlet,
}

impl fmt::Display for Format {
    /// `round-robin` or `gauntlet`, as a run's settings write it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// ```
    /// use arena::Format;
    ///
    /// assert_eq!("gauntlet".parse(), Ok(Format::Gauntlet));
    /// assert_eq!(Format::RoundRobin.to_string().parse(), Ok(Format::RoundRobin));
    /// ```
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!("unknown format {text:?}: round-robin or gauntlet")),
        }
    }
}

/// One game of a tournament: the agents playing Black and White (indices into the agent list),
/// the game's number, which seeds both agents, and the opening it starts from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// The agent playing Black (moving first).
    pub black: usize,
    /// The agent playing White.
    pub white: usize,
    /// The game's number in the schedule, from 0.
    pub number: u64,
    /// The position the game starts from: an index into the tournament's openings (0 when
    /// it has one start, such as the empty board).
    pub opening: u32,
}

impl Pairing {
    /// The seeds of the Black and White agents in a tournament seeded with `seed`: different
    /// for every game and both colours, the same whatever the number of threads.
    #[must_use]
    pub fn seeds(&self, seed: u64) -> [u64; 2] {
        let game = mix64(seed ^ mix64(self.number));
        [mix64(game), mix64(game ^ 0x5555_5555_5555_5555)]
    }
}

/// The games of a tournament of `agents` agents, `games` games for each pair that meets, the
/// colours alternating (the lower-numbered agent is Black in the pair's first game), all from
/// one start (opening 0).
///
/// ```
/// use arena::{Format, schedule};
///
/// let games = schedule(3, Format::RoundRobin, 2);
/// assert_eq!(games.len(), 6);
/// assert_eq!((games[0].black, games[0].white), (0, 1));
/// assert_eq!((games[1].black, games[1].white), (1, 0));
/// assert_eq!(schedule(4, Format::Gauntlet, 10).len(), 30);
/// ```
#[must_use]
pub fn schedule(agents: usize, format: Format, games: u32) -> Vec<Pairing> {
    schedule_with_openings(agents, format, games, 1)
}

/// [`schedule`] from `openings` starting positions: each pair plays them in turn, each twice
/// in a row with the colours swapped (game `g` of a pair starts from opening `g / 2` modulo
/// `openings`), so that with `games` a multiple of twice `openings` every opening is played
/// as often with each colour. Balanced openings matter where the first player has a large
/// edge (Hex without the swap rule).
///
/// ```
/// use arena::{Format, schedule_with_openings};
///
/// let games = schedule_with_openings(2, Format::RoundRobin, 6, 3);
/// let played: Vec<(usize, u32)> = games.iter().map(|g| (g.black, g.opening)).collect();
/// assert_eq!(played, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)]);
/// ```
#[must_use]
pub fn schedule_with_openings(
    agents: usize,
    format: Format,
    games: u32,
    openings: u32,
) -> Vec<Pairing> {
    let pairs: Vec<(usize, usize)> = match format {
        Format::RoundRobin => (0..agents)
            .flat_map(|i| (i + 1..agents).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet => (1..agents).map(|j| (0, j)).collect(),
    };
    let mut schedule = Vec::new();
    for (i, j) in pairs {
        for g in 0..games {
            let (black, white) = if g % 2 == 0 { (i, j) } else { (j, i) };
            schedule.push(Pairing {
                black,
                white,
                number: schedule.len() as u64,
                opening: (g / 2) % openings.max(1),
            });
        }
    }
    schedule
}

/// How one game of a tournament went.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct GameResult {
    /// Who played it.
    pub pairing: Pairing,
    /// How it ended.
    pub outcome: Outcome,
    /// Its length in moves.
    pub plies: u32,
    /// Its wall time.
    pub seconds: f64,
}

/// Plays the games of `pairings` between the agents of `specs`, each from its opening (the
/// position `starts[pairing.opening]`), in parallel on rayon's thread pool; `on_result` sees
/// each game as it ends (in any order). The results come back in the order of `pairings`, and
/// are the same for any number of threads unless an agent has a time budget.
///
/// # Errors
///
/// When a spec cannot be built for this game (see [`TextGame::agent`]); every spec is checked
/// before the first game starts.
///
/// # Panics
///
/// If a pairing's opening is not in `starts`.
pub fn play_games<G: TextGame>(
    starts: &[G],
    specs: &[AgentSpec],
    pairings: &[Pairing],
    seed: u64,
    on_result: impl Fn(&GameResult) + Sync,
) -> Result<Vec<GameResult>, SpecError> {
    play_games_until(
        starts,
        specs,
        pairings,
        seed,
        Resign::NEVER,
        &Arc::new(AtomicBool::new(false)),
        on_result,
    )
}

/// [`play_games`], where both sides resign by `resign` ([`Resign::NEVER`]: every game is
/// played to its end), until `stop` is set (by a Ctrl-C handler, say): then no game starts,
/// the searches of the games in progress end at once (the flag is in every move's
/// [`Budget`]), and those games are dropped, neither passed to `on_result` nor returned. The
/// games that ended before come back in the order of `pairings`; a resigned game counts as
/// a win for the other side, its plies the moves before the resignation.
///
/// # Errors
///
/// As [`play_games`].
///
/// # Panics
///
/// As [`play_games`].
pub fn play_games_until<G: TextGame>(
    starts: &[G],
    specs: &[AgentSpec],
    pairings: &[Pairing],
    seed: u64,
    resign: Resign,
    stop: &Arc<AtomicBool>,
    on_result: impl Fn(&GameResult) + Sync,
) -> Result<Vec<GameResult>, SpecError> {
    assert!(
        pairings.iter().all(|p| (p.opening as usize) < starts.len()),
        "every pairing's opening is one of the starts"
    );
    for spec in specs {
        if let Some(start) = starts.first() {
            spec.check_for(start)?;
        }
        G::agent(spec, seed)?;
    }
    let stopped = || stop.load(Ordering::Relaxed);
    let results = pairings
        .par_iter()
        .filter_map(|&pairing| {
            if stopped() {
                return None;
            }
            let [black_seed, white_seed] = pairing.seeds(seed);
            let black_spec = &specs[pairing.black];
            let white_spec = &specs[pairing.white];
            let built = "every spec was built for this game before the games";
            let mut black = G::agent(black_spec, black_seed).expect(built);
            let mut white = G::agent(white_spec, white_seed).expect(built);
            let budget = |spec: &AgentSpec| Budget {
                stop: Some(Arc::clone(stop)),
                ..spec.budget()
            };
            let budgets = [budget(black_spec), budget(white_spec)];
            let clock = Instant::now();
            let record = play_game_resigning(
                &starts[pairing.opening as usize],
                [&mut *black, &mut *white],
                [&budgets[0], &budgets[1]],
                [resign; 2],
                |_| {},
            );
            if stopped() {
                return None;
            }
            let result = GameResult {
                pairing,
                outcome: record.outcome,
                plies: u32::try_from(record.moves.len()).unwrap_or(u32::MAX),
                seconds: clock.elapsed().as_secs_f64(),
            };
            on_result(&result);
            Some(result)
        })
        .collect();
    Ok(results)
}

/// The results of a tournament so far: each agent's score against each other.
#[derive(Clone, PartialEq, Debug)]
pub struct Standings {
    names: Vec<String>,
    /// `scores[i][j][c]`: agent `i`'s score against agent `j` when `i` played colour `c`
    /// (Black 0, White 1).
    scores: Vec<Vec<[Score; 2]>>,
    /// Games won by Black, drawn, won by White.
    by_colour: [u32; 3],
}

impl Standings {
    /// No games yet between the agents called `names`.
    #[must_use]
    pub fn new(names: Vec<String>) -> Self {
        let n = names.len();
        Standings {
            names,
            scores: vec![vec![[Score::default(); 2]; n]; n],
            by_colour: [0; 3],
        }
    }

    /// Counts one game.
    pub fn add(&mut self, result: &GameResult) {
        let Pairing { black, white, .. } = result.pairing;
        self.scores[black][white][0].add(result.outcome, Player::Black);
        self.scores[white][black][1].add(result.outcome, Player::White);
        self.by_colour[match result.outcome {
            Outcome::Win(Player::Black) => 0,
            Outcome::Draw => 1,
            Outcome::Win(Player::White) => 2,
        }] += 1;
    }

    /// The agents' names.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Agent `i`'s score against agent `j`.
    #[must_use]
    pub fn against(&self, i: usize, j: usize) -> Score {
        self.scores[i][j][0] + self.scores[i][j][1]
    }

    /// Agent `i`'s score against agent `j` in the games where `i` played `colour`.
    #[must_use]
    pub fn against_as(&self, i: usize, j: usize, colour: Player) -> Score {
        self.scores[i][j][colour.index()]
    }

    /// Agent `i`'s score against everyone.
    #[must_use]
    pub fn total(&self, i: usize) -> Score {
        (0..self.names.len()).map(|j| self.against(i, j)).sum()
    }

    /// Games won by Black, drawn, and won by White.
    #[must_use]
    pub fn by_colour(&self) -> [u32; 3] {
        self.by_colour
    }

    /// Every agent's Elo rating (see [`ratings`]).
    #[must_use]
    pub fn ratings(&self) -> Vec<Rating> {
        let n = self.names.len();
        let points = (0..n)
            .map(|i| (0..n).map(|j| self.against(i, j).points()).collect())
            .collect::<Vec<Vec<f64>>>();
        let games = (0..n)
            .map(|i| (0..n).map(|j| self.against(i, j).games()).collect())
            .collect::<Vec<Vec<u32>>>();
        ratings(&points, &games)
    }

    /// The agents from the highest rating to the lowest.
    #[must_use]
    pub fn ranking(&self) -> Vec<usize> {
        let ratings = self.ratings();
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
        order
    }

    /// The standings as CSV, best first: `rank,agent,games,wins,draws,losses,score,
    /// score_low95,score_high95,elo,elo_margin95`.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let ratings = self.ratings();
        let mut csv = String::from(
            "rank,agent,games,wins,draws,losses,score,score_low95,score_high95,elo,elo_margin95\n",
        );
        for (rank, &i) in self.ranking().iter().enumerate() {
            let s = self.total(i);
            let (low, high) = s.interval95();
            let _ = writeln!(
                csv,
                "{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.1},{:.1}",
                rank + 1,
                crate::journal::csv_field(&self.names[i]),
                s.games(),
                s.wins,
                s.draws,
                s.losses,
                s.rate(),
                low,
                high,
                ratings[i].elo,
                ratings[i].margin
            );
        }
        csv
    }
}

/// One game per line: `game,black,white,result,plies,seconds`, `result` being `1-0` (Black
/// won), `0-1` or `1/2`.
#[must_use]
pub fn games_csv(names: &[String], results: &[GameResult]) -> String {
    let mut csv = format!("{}\n", crate::journal::GAMES_HEADER);
    for r in results {
        csv.push_str(&crate::journal::game_line(names, r));
    }
    csv
}

impl fmt::Display for Standings {
    /// The standings, best first (score with its 95% interval, Elo with its 95% margin), then
    /// the cross table (each row's wins-draws-losses against each column).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ratings = self.ratings();
        let order = self.ranking();
        let width = self.names.iter().map(String::len).max().unwrap_or(5).max(5);
        writeln!(
            f,
            "rank  {:width$}  games    W    D    L   score  95% interval      Elo",
            "agent"
        )?;
        for (rank, &i) in order.iter().enumerate() {
            let s = self.total(i);
            let (low, high) = s.interval95();
            writeln!(
                f,
                "{:>4}  {:width$}  {:>5} {:>4} {:>4} {:>4}  {:>5.1}%  {:>5.1}% - {:>5.1}%  {:>+5.0} ± {:.0}",
                rank + 1,
                self.names[i],
                s.games(),
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.rate(),
                100.0 * low,
                100.0 * high,
                ratings[i].elo,
                ratings[i].margin
            )?;
        }
        writeln!(f, "\ncross table (row's wins-draws-losses against column):")?;
        write!(f, "{:>4}  {:width$}", "", "")?;
        for rank in 1..=order.len() {
            write!(f, "  {rank:>9}")?;
        }
        for (rank, &i) in order.iter().enumerate() {
            write!(f, "\n{:>4}  {:width$}", rank + 1, self.names[i])?;
            for &j in &order {
                let s = self.against(i, j);
                if i == j || s.games() == 0 {
                    write!(f, "  {:>9}", "-")?;
                } else {
                    write!(f, "  {:>9}", format!("{}-{}-{}", s.wins, s.draws, s.losses))?;
                }
            }
        }
        let [black, draws, white] = self.by_colour;
        write!(
            f,
            "\n\nBlack won {black}, White won {white}, {draws} drawn."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games_connect4::Connect4;

    #[test]
    fn a_stronger_agent_comes_first_and_every_game_is_counted() {
        let specs: Vec<AgentSpec> = ["random", "uct:iterations=400", "mc:playouts=400"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let pairings = schedule(3, Format::RoundRobin, 6);
        let counted = std::sync::atomic::AtomicUsize::new(0);
        let results = play_games(&[Connect4::new()], &specs, &pairings, 1, |_| {
            counted.fetch_add(1, Ordering::Relaxed);
        })
        .unwrap();
        assert_eq!(counted.into_inner(), 18);
        assert_eq!(
            results.iter().map(|r| r.pairing).collect::<Vec<_>>(),
            pairings
        );
        let mut standings = Standings::new(specs.iter().map(ToString::to_string).collect());
        for r in &results {
            standings.add(r);
        }
        assert_eq!(standings.total(0).games(), 12);
        assert_eq!(standings.against_as(0, 1, Player::Black).games(), 3);
        assert_eq!(
            standings.against_as(1, 0, Player::White),
            Score {
                wins: standings.against_as(0, 1, Player::Black).losses,
                draws: standings.against_as(0, 1, Player::Black).draws,
                losses: standings.against_as(0, 1, Player::Black).wins,
            }
        );
        assert_eq!(standings.ranking()[2], 0, "random is last:\n{standings}");
        let [b, d, w] = standings.by_colour();
        assert_eq!(b + d + w, 18);
        // Deterministic: the same seeds give the same games.
        let again = play_games(&[Connect4::new()], &specs, &pairings, 1, |_| {}).unwrap();
        let outcomes =
            |rs: &[GameResult]| rs.iter().map(|r| (r.outcome, r.plies)).collect::<Vec<_>>();
        assert_eq!(outcomes(&results), outcomes(&again));
        // The CSV quotes specs with commas, one line per agent or game.
        assert_eq!(standings.to_csv().lines().count(), 4);
        let games = games_csv(standings.names(), &results);
        assert_eq!(games.lines().count(), 19);
        assert!(
            games
                .lines()
                .nth(1)
                .unwrap()
                .starts_with("1,random,uct:iterations=400,")
        );
    }

    #[test]
    fn games_start_from_their_openings() {
        let specs: Vec<AgentSpec> = ["uct:iterations=300", "mc:playouts=300"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        // Opening 1: Black to move, three in column 1 already, wins at once.
        let starts = [Connect4::new(), "121212".parse().unwrap()];
        let pairings = schedule_with_openings(2, Format::RoundRobin, 8, 2);
        assert_eq!(
            pairings.iter().map(|p| p.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0, 1, 1]
        );
        let results = play_games(&starts, &specs, &pairings, 1, |_| {}).unwrap();
        for r in &results {
            let won_at_once = r.plies == 1 && r.outcome == Outcome::Win(Player::Black);
            assert_eq!(won_at_once, r.pairing.opening == 1, "{r:?}");
        }
    }

    #[test]
    fn a_side_resigns_a_proven_loss_only_when_asked() {
        let specs: Vec<AgentSpec> = ["uct:iterations=2000,prove=true", "uct:iterations=3000"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        // White to move: Black's open three on the bottom row wins at 2 or at 6.
        let starts = ["33445".parse::<Connect4>().unwrap()];
        let pairings = schedule(2, Format::RoundRobin, 4);
        let stop = Arc::new(AtomicBool::new(false));
        let play = |resign| play_games_until(&starts, &specs, &pairings, 1, resign, &stop, |_| {});
        let resigning = play(Resign::PROVEN).unwrap();
        let to_the_end = play(Resign::NEVER).unwrap();
        for (resigned, played) in resigning.iter().zip(&to_the_end) {
            assert_eq!(resigned.outcome, Outcome::Win(Player::Black));
            assert_eq!(played.outcome, Outcome::Win(Player::Black));
            assert!(played.plies >= 2, "{played:?}");
            // The prover resigns before its first move; plain UCT proves nothing and plays on.
            let prover_is_white = resigned.pairing.white == 0;
            assert_eq!(resigned.plies == 0, prover_is_white, "{resigned:?}");
        }
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        use crate::journal::csv_field;
        assert_eq!(
            csv_field("uct:c=0.3,iterations=10"),
            "\"uct:c=0.3,iterations=10\""
        );
        assert_eq!(csv_field("say \"hi\", ok"), "\"say \"\"hi\"\", ok\"");
        assert_eq!(csv_field("random"), "random");
    }
}
