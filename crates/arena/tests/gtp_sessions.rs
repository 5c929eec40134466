//! GTP sessions driven through an OS pipe, as a GUI or a referee drives the engine: scripted
//! sessions with garbage lines, and random games checked move by move against the rules.

use std::io::{BufRead, BufReader, Write};
use std::thread;
use std::time::Duration;

use arena::{GtpEngine, Resign, TextGame};
use game_core::{Game, Player, Status};
use games_connect4::Connect4;
use games_hex::{Cell, Hex};
use games_othello::{Move as OthelloMove, Othello};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// One side of a session: commands go in through one pipe, answers come back through another.
struct Session<G: TextGame> {
    to_engine: std::io::PipeWriter,
    from_engine: BufReader<std::io::PipeReader>,
    /// The engine, once it has quit.
    engine: thread::JoinHandle<GtpEngine<G>>,
}

impl<G: TextGame> Session<G> {
    fn start(start: G, spec: &str) -> Self {
        Self::start_with(start, spec, false)
    }

    /// A session with an engine that ponders (searches on the opponent's time) when `ponder`.
    fn start_with(start: G, spec: &str, ponder: bool) -> Self {
        let (commands, to_engine) = std::io::pipe().unwrap();
        let (from_engine, answers) = std::io::pipe().unwrap();
        let spec = spec.parse().unwrap();
        let engine = thread::spawn(move || {
            let mut engine = GtpEngine::new(start, spec, 7).unwrap().with_ponder(ponder);
            engine.run(BufReader::new(commands), answers).unwrap();
            engine
        });
        Session {
            to_engine,
            from_engine: BufReader::new(from_engine),
            engine,
        }
    }

    /// Sends one line, returns the answer without its final blank line.
    fn send(&mut self, line: &[u8]) -> String {
        self.to_engine.write_all(line).unwrap();
        self.to_engine.write_all(b"\n").unwrap();
        let mut answer = String::new();
        loop {
            let mut text = String::new();
            assert_ne!(
                self.from_engine.read_line(&mut text).unwrap(),
                0,
                "engine hung up"
            );
            if text == "\n" {
                return answer.trim_end_matches('\n').to_owned();
            }
            answer.push_str(&text);
        }
    }

    fn ok(&mut self, line: &str) -> String {
        let answer = self.send(line.as_bytes());
        let rest = answer
            .strip_prefix('=')
            .unwrap_or_else(|| panic!("{line:?} was refused: {answer}"));
        rest.trim_start_matches(' ').to_owned()
    }

    fn refused(&mut self, line: &[u8]) -> String {
        let answer = self.send(line);
        assert!(answer.starts_with('?'), "{line:?} was accepted: {answer}");
        answer
    }

    fn quit(self) -> G {
        self.quit_engine().position().clone()
    }

    fn quit_engine(mut self) -> GtpEngine<G> {
        assert_eq!(self.ok("quit"), "");
        self.engine.join().unwrap()
    }
}

#[test]
fn a_scripted_hex_session_with_garbage_and_the_swap() {
    let mut gtp = Session::start(Hex::new(11).unwrap(), "uct:iterations=200");
    assert_eq!(gtp.ok("protocol_version"), "2");
    assert_eq!(gtp.ok("name"), "gamesearch");
    assert!(gtp.ok("list_commands").lines().any(|c| c == "genmove"));
    assert_eq!(gtp.ok("known_command undo"), "true");
    assert_eq!(gtp.ok("known_command fly"), "false");
    // Garbage: unknown commands, missing and bad arguments, control characters, non-UTF-8.
    gtp.refused(b"fly me to the moon");
    gtp.refused(b"play");
    gtp.refused(b"play purple a1");
    gtp.refused(b"play black");
    gtp.refused(b"play black a1 b2");
    gtp.refused(b"play black t1"); // off the 11x11 board
    gtp.refused(b"boardsize 0");
    gtp.refused(b"boardsize 20");
    gtp.refused(b"boardsize seven");
    gtp.refused(b"boardsize 7 9");
    gtp.refused(b"\x01\x02\xff\xfe");
    gtp.refused(b"undo"); // nothing to undo
    gtp.refused(b"final_score"); // not over
    // A numbered command gets its number back; comments and empty lines get nothing.
    assert_eq!(gtp.send(b"12 boardsize 5 5"), "=12");
    assert_eq!(
        gtp.send(b"   # just a comment\n\nname # trailing comment"),
        "= gamesearch"
    );
    // The swap rule, Benzene style: the stone stays, the colours are exchanged.
    gtp.refused(b"param_game allow_swap maybe");
    assert_eq!(gtp.ok("param_game allow_swap 1"), "");
    assert_eq!(gtp.ok("param_game"), "[bool] allow_swap 1");
    gtp.ok("play b b4");
    gtp.refused(b"play black c3"); // White's turn
    gtp.ok("play WHITE swap-pieces");
    gtp.refused(b"play white swap"); // only once
    gtp.refused(b"play black c3"); // after the swap, White is to move again
    let board = gtp.ok("showboard");
    assert!(board.contains(" 4 . X . . . 4"), "{board}");
    gtp.ok("play white b3");
    gtp.refused(b"play black b3"); // occupied
    let reply = gtp.ok("genmove black");
    let cell: Cell = reply.parse().unwrap();
    let board = gtp.ok("showboard");
    assert!(board.contains('O'), "{board}");
    gtp.ok("undo");
    gtp.ok("undo");
    gtp.ok("play white c1");
    let inside = gtp.quit();
    // Inside, the swap moved Black's b4 to White's d2, and GTP's White is this library's
    // Black, on transposed cells: GTP's c1 is a3 here, and GTP's b3 (undone) was c2.
    let at = |cell: &str| inside.at(cell.parse().unwrap());
    assert_eq!(at("d2"), Some(Player::White));
    assert_eq!(at("b4"), None);
    assert_eq!(at("a3"), Some(Player::Black));
    assert_eq!(at("c2"), None);
    if cell.transposed() != "a3".parse().unwrap() {
        assert_eq!(
            inside.at(cell.transposed()),
            None,
            "genmove's {reply} was undone"
        );
    }
    assert_eq!(inside.to_move(), Player::White);
}

/// GTP's view of a game that this test keeps by itself: the colours and cells are exchanged
/// after a Hex swap.
struct Referee<G: Game> {
    position: G,
    exchanged: bool,
}

impl<G: Game> Referee<G> {
    fn colour(&self) -> &'static str {
        match (self.position.to_move(), self.exchanged) {
            (Player::Black, false) | (Player::White, true) => "black",
            _ => "white",
        }
    }
}

/// Plays `games` games through GTP, the engine against random moves, alternating colours.
/// Every move the engine generates must be legal, every legal move must be accepted, an
/// illegal one refused, and `final_score` must name the winner. `gtp_text` turns a move of
/// this library into GTP's text when the colours are exchanged.
fn referee<G: TextGame>(start: &G, games: u64, gtp_text: impl Fn(G::Action, bool) -> String) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut gtp = Session::start(start.clone(), "uct:iterations=100");
    for game in 0..games {
        gtp.ok("clear_board");
        let engine_plays = if game % 2 == 0 {
            Player::Black
        } else {
            Player::White
        };
        let mut referee = Referee {
            position: start.clone(),
            exchanged: false,
        };
        let mut turn = 0;
        while referee.position.status() == Status::Ongoing {
            let colour = referee.colour();
            let action = if referee.position.to_move() == engine_plays {
                let text = gtp.ok(&format!("genmove {colour}"));
                referee
                    .position
                    .legal_actions_vec()
                    .into_iter()
                    .find(|&a| gtp_text(a, referee.exchanged) == text)
                    .unwrap_or_else(|| panic!("illegal genmove {text} in\n{}", referee.position))
            } else {
                // Now and then an illegal move first: an occupied cell or a wrong colour.
                if turn % 5 == 3 {
                    let other = if colour == "black" { "white" } else { "black" };
                    let legal = referee.position.random_action(&mut rng).unwrap();
                    gtp.refused(
                        format!("play {other} {}", gtp_text(legal, referee.exchanged)).as_bytes(),
                    );
                }
                let action = referee.position.random_action(&mut rng).unwrap();
                gtp.ok(&format!(
                    "play {colour} {}",
                    gtp_text(action, referee.exchanged)
                ));
                action
            };
            referee.exchanged |= G::exchanges_colours(action);
            referee.position.play(action);
            turn += 1;
        }
        let winner = referee.position.status();
        let score = gtp.ok("final_score");
        let expected = match winner {
            Status::Over(game_core::Outcome::Draw) => "0",
            Status::Over(game_core::Outcome::Win(p)) => {
                if (p == Player::Black) != referee.exchanged {
                    "B+"
                } else {
                    "W+"
                }
            }
            Status::Ongoing => unreachable!(),
        };
        assert!(
            score.starts_with(expected),
            "final_score {score}, expected {expected}"
        );
        gtp.refused(b"genmove black");
    }
    gtp.quit();
}

#[test]
fn random_hex_games_with_the_swap_rule_follow_the_rules() {
    referee(
        &Hex::with_swap(5).unwrap(),
        16,
        |action, exchanged| match action {
            games_hex::Move::Place(cell) if exchanged => cell.transposed().to_string(),
            other => other.to_string(),
        },
    );
}

#[test]
fn random_othello_games_pass_when_they_must() {
    referee(&Othello::new(), 6, |action, _| action.to_string());
    referee(&games_othello::Othello6::new(), 6, |action, _| {
        action.to_string()
    });
}

#[test]
fn random_connect_four_games_follow_the_rules() {
    referee(&Connect4::new(), 10, |action, _| action.to_string());
    referee(&Connect4::with_size(5, 4).unwrap(), 10, |action, _| {
        action.to_string()
    });
}

#[test]
fn othello_answers_pass_when_it_has_no_move() {
    // Find a position where the side to move must pass, by random play.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let (moves, mover) = loop {
        let mut game = Othello::new();
        let mut moves = Vec::new();
        while game.status() == Status::Ongoing {
            if game.legal_actions_vec() == [OthelloMove::Pass] {
                break;
            }
            let action = game.random_action(&mut rng).unwrap();
            moves.push(action);
            game.play(action);
        }
        if game.status() == Status::Ongoing {
            break (moves, game.to_move());
        }
    };
    let mut gtp = Session::start(Othello::new(), "uct:iterations=50");
    for (i, action) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { "black" } else { "white" };
        gtp.ok(&format!("play {colour} {action}"));
    }
    let colour = if mover == Player::Black {
        "black"
    } else {
        "white"
    };
    gtp.refused(format!("play {colour} d3").as_bytes());
    assert_eq!(gtp.ok(&format!("genmove {colour}")), "pass");
    gtp.quit();
}

#[test]
fn connect_four_sizes_and_full_columns() {
    let mut gtp = Session::start(Connect4::new(), "uct:iterations=50");
    gtp.refused(b"boardsize 7");
    assert!(gtp.refused(b"boardsize 9 7").contains("--size 9x7"));
    gtp.ok("boardsize 4 4");
    for colour in ["black", "white", "black", "white"] {
        gtp.ok(&format!("play {colour} 1"));
    }
    assert!(gtp.refused(b"play black 1").contains("column 1 is full"));
    assert!(gtp.refused(b"play black 5").contains("no column 5"));
    let board = gtp.ok("showboard");
    assert!(board.ends_with("o . . .\nx . . .\n1 2 3 4"), "{board}");
    gtp.quit();
}

#[test]
fn time_commands_are_checked() {
    let mut session = Session::start(Connect4::new(), "uct:iterations=200");
    let commands = session.ok("list_commands");
    assert!(commands.contains("time_settings") && commands.contains("time_left"));
    session.ok("time_left black 10 0"); // no clock yet: nothing to manage
    session.refused(b"time_settings 300 0");
    session.refused(b"time_settings -5 0 0");
    session.refused(b"time_settings soon 0 0");
    session.ok("time_settings 300 0 0");
    session.refused(b"time_left green 10 0");
    session.refused(b"time_left black ten 0");
    session.refused(b"time_left black 10");
    session.ok("time_left black 10 0");
    session.ok("time_settings 0 0 0"); // no limit again
    session.quit();
}

/// Plays a whole Connect Four game by `genmove` for both sides under `settings`, sending
/// `time_left` before each move when `tell`; returns each colour's total thinking time as the
/// controller measures it.
fn clocked_game(settings: &str, tell: bool) -> [Duration; 2] {
    let mut session = Session::start(Connect4::new(), "uct:iterations=1000000000");
    session.ok(&format!("time_settings {settings}"));
    let main: f64 = settings.split(' ').next().unwrap().parse().unwrap();
    let mut used = [Duration::ZERO; 2];
    let mut position = Connect4::new();
    let mut turn = 0;
    while !position.status().is_over() {
        let colour = ["black", "white"][turn % 2];
        if tell {
            let left = (main - used[turn % 2].as_secs_f64()).max(0.0);
            session.ok(&format!("time_left {colour} {left:.3} 0"));
        }
        let started = std::time::Instant::now();
        let answer = session.ok(&format!("genmove {colour}"));
        used[turn % 2] += started.elapsed();
        position.play(position.parse_move(&answer).unwrap());
        turn += 1;
    }
    session.quit();
    used
}

#[test]
fn a_clocked_game_never_runs_out_of_time() {
    // The engine's iteration budget is endless: only the clock stops its searches.
    for (settings, tell) in [("2 0 0", false), ("2 0 0", true)] {
        let used = clocked_game(settings, tell);
        for spent in used {
            assert!(spent.as_secs_f64() < 2.0, "{settings}: {used:?}");
            // It used its time, not a sliver of it.
            assert!(spent.as_secs_f64() > 0.5, "{settings}: {used:?}");
        }
    }
}

#[test]
fn pondering_grows_the_tree_the_next_move_reuses() {
    let budget = 2_000;
    let spec = format!("uct:iterations={budget}");
    // The root's visits in White's search when the opponent (the test) thinks for `wait`
    // between the engine's two moves.
    let root_visits = |ponder: bool, wait: Duration| {
        let mut session = Session::start_with(Connect4::new(), &spec, ponder);
        session.ok("genmove black");
        // The opponent thinks for a while; a pondering engine searches meanwhile. Then the
        // engine answers for the opponent too: from the position it pondered.
        // Commands that only read the game are answered without stopping it.
        thread::sleep(wait / 2);
        assert!(session.ok("showboard").contains('.'));
        session.ok("name");
        thread::sleep(wait / 2);
        session.ok("genmove white");
        let engine = session.quit_engine();
        let report = engine.report().expect("UCT reports");
        assert_eq!(report.iterations, budget);
        report.root_visits
    };
    // Without pondering the root has this search's iterations and what the first search
    // spent on the position (under 2,000), however long the opponent thinks.
    let plain = root_visits(false, Duration::from_millis(300));
    assert!(plain < 2 * budget, "{plain}");
    // With it, also the iterations pondering ran: more than 100,000 in 300 ms on an idle
    // machine. How many depends on the machine's load, not only on the wait, so the
    // opponent thinks longer until pondering has searched 20,000 (a wait on that, up to
    // 10 s in one try): a tree the next move did not reuse fails at every wait.
    let mut seen = Vec::new();
    for wait in [300, 1_000, 3_000, 10_000] {
        let visits = root_visits(true, Duration::from_millis(wait));
        seen.push((wait, visits));
        if visits > 10 * budget {
            return;
        }
    }
    panic!("the root's visits after pondering (ms, visits): {seen:?}");
}

/// The answers of a GTP engine (the `best` agent, resigning or not) to `script`, one per
/// command.
fn answers_of(start: Hex, resign: Resign, script: &str) -> Vec<String> {
    let spec = "best:iterations=3000".parse().unwrap();
    let mut engine = GtpEngine::new(start, spec, 7).unwrap().with_resign(resign);
    let mut output = Vec::new();
    engine.run(script.as_bytes(), &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    output
        .split("\n\n")
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_proven_loss_is_resigned_and_a_proven_win_is_finished() {
    // 5x5: Black's c2 and c4 join each other (b3, d3 and a bridge of bridges) and the edges
    // (a bridge template each): every White move loses, as the exact solver confirms.
    let moves = "c2 a1 c4 a2 b3 e1 d3 e2 e5";
    let lost = Hex::new(5).unwrap().after_moves(moves).unwrap();
    assert_eq!(lost.to_move(), Player::White);
    assert_eq!(
        games_hex::Solver::with_table_bytes(1 << 18).winner(&lost),
        Player::Black
    );
    let mut script = String::from("boardsize 5\n");
    for (k, cell) in moves.split_whitespace().enumerate() {
        script += &format!("play {} {cell}\n", ["b", "w"][k % 2]);
    }
    script += "genmove w\nplay w a3\ngenmove b\nquit\n";
    let answers = answers_of(Hex::new(5).unwrap(), Resign::default(), &script);
    // The resignation plays nothing: White is still to move, and a3 is still empty.
    assert_eq!(answers[10], "= resign");
    assert_eq!(answers[11], "=");
    // Black, connected whoever moves, closes its connection: a cell on one of the shortest
    // chains its connection's carrier holds (three cells still to fill: one of c1 and d1,
    // one in the middle, one of a5, b5 and c5), not one it does not need.
    let black = answers[12].strip_prefix("= ").unwrap();
    let after = lost.after_moves("a3").unwrap();
    let finishing = after.proven_moves().finishing;
    for idle in ["b1", "b2", "e3", "d4", "e4", "d5"] {
        assert!(
            !finishing.contains(&idle.parse().unwrap()),
            "{idle} in {finishing:?}"
        );
    }
    assert!(
        finishing.contains(&black.parse::<Cell>().unwrap()),
        "{black} not in {finishing:?}"
    );
    // Without resigning, White plays a move.
    let answers = answers_of(Hex::new(5).unwrap(), Resign::NEVER, &script);
    let white = answers[10].strip_prefix("= ").unwrap();
    assert!(white.parse::<Cell>().is_ok(), "{white}");
}

/// The cells of `moves` as GTP writes them, in the library's order or transposed (after a
/// Hex swap).
fn cell_list(moves: &[games_hex::Move], exchanged: bool) -> String {
    let text: Vec<String> = moves
        .iter()
        .map(|&m| if exchanged { Hex::exchanged(m) } else { m }.to_string())
        .collect();
    text.join(" ")
}

#[test]
fn hex_analyses_answer_what_the_library_finds() {
    // 5x5, White to move: the fill-in leaves c3 as White's one winning move.
    let moves = "c2 b4 c4 d3 a1";
    let position = Hex::new(5).unwrap().after_moves(moves).unwrap();
    let mut gtp = Session::start(Hex::new(5).unwrap(), "uct:iterations=10");
    for (k, cell) in moves.split_whitespace().enumerate() {
        gtp.ok(&format!("play {} {cell}", ["b", "w"][k % 2]));
    }
    let listed = gtp.ok("gogui-analyze_commands");
    assert_eq!(listed, gtp.ok("hexgui-analyze_commands"));
    for (name, _) in Hex::ANALYSES {
        assert!(listed.contains(&format!("/{name}")), "{listed}");
        assert_eq!(gtp.ok(&format!("known_command {name}")), "true");
        let expected = cell_list(&position.analyse(name).unwrap(), false);
        assert_eq!(gtp.ok(name), expected, "{name}");
    }
    assert_eq!(gtp.ok("hex-winning"), "c3");
    let proven = position.proven_moves();
    assert_eq!(
        gtp.ok("hex-losing").split_whitespace().count(),
        proven.losing.len()
    );
    let inferior = position.inferior_cells();
    assert_eq!(
        gtp.ok("hex-dead").split_whitespace().count(),
        inferior.dead.len()
    );
    gtp.refused(b"hex-winning now");
    gtp.refused(b"hex-nothing");
    gtp.quit();

    // After the swap GTP's cells are the library's transposed.
    let mut gtp = Session::start(Hex::with_swap(5).unwrap(), "uct:iterations=10");
    for line in ["play b b2", "play w swap-pieces", "play w c3", "play b d2"] {
        gtp.ok(line);
    }
    let answers: Vec<String> = ["hex-inferior", "hex-captured", "hex-losing"]
        .iter()
        .map(|name| gtp.ok(name))
        .collect();
    let library = gtp.quit();
    for (name, answer) in ["hex-inferior", "hex-captured", "hex-losing"]
        .iter()
        .zip(answers)
    {
        assert_eq!(
            answer,
            cell_list(&library.analyse(name).unwrap(), true),
            "{name}"
        );
    }

    // A game without analyses lists none.
    let mut gtp = Session::start(Connect4::new(), "uct:iterations=10");
    assert_eq!(gtp.ok("gogui-analyze_commands"), "");
    assert_eq!(gtp.ok("known_command hex-winning"), "false");
    gtp.refused(b"hex-winning");
    gtp.quit();
}
