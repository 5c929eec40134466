//! The tools (examples) as a user runs them: separate processes, spoken to through pipes.
//!
//! `cargo test` builds the examples before it runs the tests; these tests find the binaries
//! next to their own.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn example(name: &str) -> PathBuf {
    let mut path = std::env::current_exe().expect("the test's own path");
    path.pop(); // the test binary
    path.pop(); // deps/
    path.push("examples");
    path.push(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds it; with a filter, run `cargo build --example {name}` first",
        path.display()
    );
    path
}

/// Runs example `name` with `args`, checks that it succeeds, and returns its output.
fn succeeds(name: &str, args: &[&str]) -> String {
    let output = Command::new(example(name)).args(args).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text
}

/// Runs example `name` with `args`, checks that it refuses them as a usage error (code 2), and
/// returns its standard error.
fn refuses(name: &str, args: &[&str]) -> String {
    let output = Command::new(example(name)).args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{name} {args:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn gtp_answers_a_scripted_session_through_pipes() {
    let mut child = Command::new(example("gtp"))
        .args([
            "--game",
            "hex",
            "--size",
            "7",
            "--agent",
            "uct:iterations=500",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script: &[u8] = b"protocol_version\n\
        garbage in\n\
        play black d4\n\
        play black d5\n\
        5 genmove white\n\
        play white d4\n\
        \xff\xfe\n\
        showboard\n\
        final_score\n\
        quit\n\
        name\n";
    child.stdin.take().unwrap().write_all(script).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    // One answer per command up to quit; nothing after it.
    assert_eq!(answers.len(), 10, "{text}");
    assert_eq!(answers[0], "= 2");
    assert!(answers[1].starts_with("? unknown command"));
    assert_eq!(answers[2], "=");
    assert_eq!(answers[3], "? it is white's turn");
    let reply = answers[4].strip_prefix("=5 ").expect("a numbered answer");
    assert!(reply.len() >= 2 && reply != "d4", "{reply}");
    assert_eq!(answers[5], "? it is black's turn");
    assert!(answers[6].starts_with("? "));
    assert_eq!(answers[7].matches('X').count(), 1);
    assert_eq!(answers[7].matches('O').count(), 1);
    assert_eq!(answers[8], "? the game is not over yet");
    assert_eq!(answers[9], "=");
}

#[test]
fn gtp_bad_arguments_exit_with_code_2_and_say_why() {
    for args in [
        &["--game", "chess"][..],
        &["--game", "hex", "--size", "20"],
        &["--game", "othello", "--size", "7"],
        &["--game", "connect4", "--swap"],
        &["--game", "hex", "--agent", "uct:c=lots"],
        &["--game", "hex", "--frobnicate"],
    ] {
        let message = refuses("gtp", args);
        assert!(message.contains("error:"), "{args:?}: {message}");
    }
}

/// Runs `name` with `args`, `input` on its standard input, and waits for it to end.
fn output_of(name: &str, args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `name` with `args`, `input` on its standard input; returns its standard output.
fn run(name: &str, args: &[&str], input: &str) -> String {
    let output = output_of(name, args, input);
    assert!(
        output.status.success(),
        "{name} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn play_answers_bad_input_and_takes_moves_back() {
    let args = ["--game", "connect4", "--agent", "random"];
    let text = run("play", &args, "9\nx\nmoves\n4\nundo\nundo\nhelp\nquit\n");
    assert!(
        text.contains("there is no column 9: the board has 7 columns"),
        "{text}"
    );
    assert!(text.contains("\"x\" is not a column"), "{text}");
    assert!(text.contains("Legal moves: 1 2 3 4 5 6 7"), "{text}");
    assert!(text.contains("The computer plays"), "{text}");
    assert!(text.contains("Taken back."), "{text}");
    assert!(
        text.contains("There is no move of yours to take back."),
        "{text}"
    );
    assert!(text.contains("undo    take back"), "{text}");
    assert!(text.ends_with("Goodbye.\n"), "{text}");
}

#[test]
fn play_finishes_a_game_and_names_the_winner() {
    // Every cell of a 3x3 Hex board in turn (the occupied ones are refused): the game ends.
    let cells = "a1 b1 c1 a2 b2 c2 a3 b3 c3 ".replace(' ', "\n");
    for human in ["black", "white"] {
        let args = [
            "--game",
            "hex",
            "--size",
            "3",
            "--agent",
            "uct:iterations=200",
            "--human",
            human,
        ];
        let text = run("play", &args, &cells);
        assert!(
            text.contains("You win as") || text.contains("The computer wins as"),
            "{text}"
        );
        assert!(text.contains("Final score: "), "{text}");
    }
}

#[test]
fn play_stops_cleanly_at_the_end_of_input() {
    let text = run(
        "play",
        &["--game", "othello", "--size", "6", "--agent", "random"],
        "c2\n",
    );
    assert!(text.ends_with("Goodbye.\n"), "{text}");
}

#[test]
fn tournament_writes_standings_games_and_a_chart() {
    let dir = std::env::temp_dir().join(format!("tournament-test-{}", std::process::id()));
    let args = [
        "--game",
        "connect4",
        "--size",
        "5x4",
        "--agent",
        "uct:iterations=300",
        "--agent",
        "weak=random",
        "--games",
        "6",
        "--out",
        dir.to_str().unwrap(),
    ];
    let text = run("tournament", &args, "");
    assert!(
        text.contains("Round robin on connect4 5x4: 2 agents"),
        "{text}"
    );
    assert!(
        text.contains("   1  uct:iterations=300"),
        "UCT comes first:\n{text}"
    );
    let standings = std::fs::read_to_string(dir.join("standings.csv")).unwrap();
    assert_eq!(standings.lines().count(), 3);
    assert!(standings.lines().nth(2).unwrap().starts_with("2,weak,6,"));
    let games = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 7);
    let chart = std::fs::read_to_string(dir.join("ratings.svg")).unwrap();
    assert!(chart.contains("weak"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tournament_plays_openings_from_a_file_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("openings-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two edge stones\na1\nc1  # the middle\n\n").unwrap();
    let args = [
        "--game",
        "hex",
        "--size",
        "5",
        "--agent",
        "uct:iterations=200",
        "--agent",
        "random",
        "--games",
        "4",
        "--openings",
        file.to_str().unwrap(),
    ];
    let text = run("tournament", &args, "");
    assert!(text.contains("hex 5x5 from 2 openings"), "{text}");
    for (bad, reason) in [
        ("a1\nc1 z9\n", "line 2"),
        ("a1 a1\n", "occupied"),
        ("# nothing\n", "no openings"),
    ] {
        std::fs::write(&file, bad).unwrap();
        let error = refuses("tournament", &args);
        assert!(error.contains(reason), "{bad:?}: {error}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The lines of a book file that are positions, in order.
fn book_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| l.contains(" : ") && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

#[test]
fn hex_book_builds_the_same_book_with_any_jobs_and_after_a_stop() {
    let dir = std::env::temp_dir().join(format!("hex-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let build = |file: &str, jobs: &str| {
        let path = dir.join(file);
        let args = [
            "--size",
            "5",
            "--no-empty",
            "--openings",
            "a1 c1",
            "--plies",
            "4",
            "--replies",
            "2,1",
            "--agent",
            "best:iterations=300,book=false",
            "--jobs",
            jobs,
            "--book",
            path.to_str().unwrap(),
        ];
        succeeds("hex_book", &args);
        path
    };
    let one = build("one.txt", "1");
    let lines = book_lines(&one);
    // Per root: the book player's move and the opponent's replies (two, then one): for
    // White, a1 and its answer, two Black replies, an answer to each, and the replies' one
    // reply; for Black, a1's two White replies, an answer to each, and so on. At least the
    // two roots and their four first replies, each a position of its own.
    assert!(lines.len() >= 10, "{lines:?}");
    let book: gamesearch::hex::Book = std::fs::read_to_string(&one).unwrap().parse().unwrap();
    assert_eq!(book.len(), lines.len());
    let a1 = gamesearch::hex::Hex::new(5)
        .unwrap()
        .after_moves("a1")
        .unwrap();
    assert!(book.get(&a1).unwrap().len() >= 2);
    // Two jobs: the same positions and moves.
    assert_eq!(book_lines(&build("two.txt", "2")), lines);
    // Cut short (the last lines gone, the one before half written), then the same command.
    let text = std::fs::read_to_string(&one).unwrap();
    let keep = text.len() * 2 / 3;
    std::fs::write(&one, &text[..keep]).unwrap();
    assert_eq!(book_lines(&build("one.txt", "2")), lines);
    // A book of another size, or a search that is timed, is refused.
    let other = refuses(
        "hex_book",
        &[
            "--size",
            "7",
            "--book",
            one.to_str().unwrap(),
            "--openings",
            "a1",
        ],
    );
    assert!(other.contains("5x5"), "{other}");
    let timed = refuses("hex_book", &["--agent", "best:time=1s"]);
    assert!(timed.contains("iterations"), "{timed}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tournament_bad_arguments_exit_with_code_2() {
    for args in [
        &["--game", "hex", "--agent", "random"][..],
        &["--game", "hex", "--agent", "random", "--agent", "random"],
        &[
            "--game",
            "hex",
            "--agent",
            "random",
            "--agent",
            "uct:depth=3",
        ],
        &[
            "--game", "hex", "--agent", "random", "--agent", "mc", "--games", "0",
        ],
        &["--game", "go", "--agent", "random", "--agent", "mc"],
    ] {
        refuses("tournament", args);
    }
}

#[test]
fn gomoku_checks_its_game_and_knowledge_then_plays() {
    let text = succeeds("gomoku", &["--games", "2", "--time", "5ms"]);
    assert!(text.contains("against plain UCT"), "{text}");
    // A bad spec is refused like in every tool.
    refuses("gomoku", &["--spec", "uct:prior=often"]);
}

#[test]
fn network_drives_the_batched_search_through_a_match() {
    let text = succeeds(
        "network",
        &["--games", "2", "--time", "5ms", "--batch", "8"],
    );
    assert!(text.contains("against plain UCT"), "{text}");
    assert!(text.contains("a call)"), "{text}");
    refuses("network", &["--batch", "0"]);
}

#[test]
fn a_users_game_gets_the_tools_and_its_own_agent_enters_them() {
    // gomoku's tools come from arena::cli::run's pieces; `greedy` is the game's own agent.
    let text = succeeds(
        "gomoku",
        &[
            "tournament",
            "--games",
            "2",
            "--agent",
            "greedy",
            "--agent",
            "best:iterations=200",
        ],
    );
    assert!(text.contains("Round robin on gomoku 9x9"), "{text}");
    assert!(text.contains("greedy "), "{text}");
    let text = run(
        "gomoku",
        &["gtp", "--agent", "greedy"],
        "genmove black\nquit\n",
    );
    let answer = text.lines().next().unwrap_or_default();
    assert!(
        answer.len() == 4 && answer.starts_with("= "),
        "a cell from greedy: {text}"
    );
    // Its settings are checked like any spec's, and a misspelt name lists the game's own.
    for (agent, reason) in [
        ("greedy:depth=3", "takes no settings"),
        ("gredy", "the game's own greedy"),
    ] {
        let error = refuses(
            "gomoku",
            &["tournament", "--agent", agent, "--agent", "uct"],
        );
        assert!(error.contains(reason), "{error}");
    }
}

#[test]
fn hex_proven_says_what_virtual_connections_prove_and_refuses_bad_input() {
    // Black's column from e4 down to the bottom edge, and the fourth-row template from e4 to
    // the top (White's stones in the far corner): every White move loses. The empty board
    // proves nothing. Black's column a1 to a9 has already won.
    let won_column: Vec<String> = (1..=9)
        .flat_map(|row| [format!("a{row}"), format!("b{row}")])
        .take(17)
        .collect();
    let input = format!(
        "e4 a9 e5 b9 e6 c9 e7 a8 e8 b8 e9\n\n{}\n",
        won_column.join(" ")
    );
    let output = run("hex_proven", &["--size", "9"], &input);
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines, ["lost 0 70 70", "open 0 0 81", "over 0 0 0"]);

    // A bad move names its line and stops with an error; a bad size is a usage error.
    let output = output_of("hex_proven", &["--size", "9"], "e5\ne5 zz\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "open 0 0 80\n");
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 2"));
    let message = refuses("hex_proven", &["--size", "40"]);
    assert!(message.contains("19x19"), "{message}");
}

#[test]
fn hex_solve_proves_positions_from_input_as_the_exact_solver_does() {
    use gamesearch::core::{Game, Player};
    use gamesearch::hex::{Hex, Move, Solver};
    // 5x5 positions of four to eight stones, chosen by a fixed walk, still going.
    let mut positions = Vec::new();
    for k in 0..24usize {
        let mut moves = Vec::new();
        let mut position = Hex::new(5).unwrap();
        for step in 0..4 + k % 5 {
            let legal = position.legal_actions_vec();
            let action = legal[(k * 7 + step * 11 + 3) % legal.len()];
            if position.after(action).status().is_over() {
                break;
            }
            moves.push(action.to_string());
            position.play(action);
        }
        positions.push((moves.join(" "), position));
    }
    let input: String = positions
        .iter()
        .map(|(moves, _)| format!("{moves}\n"))
        .collect();
    let output = run(
        "hex_solve",
        &["--size", "5", "--positions", "--time", "60"],
        &input,
    );
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), positions.len());
    let mut exact = Solver::with_table_bytes(16 << 20);
    let (mut won, mut lost) = (0, 0);
    for ((moves, position), line) in positions.iter().zip(lines) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 4, "{line}");
        let mover: Player = position.to_move();
        if exact.winner(position) == mover {
            won += 1;
            assert_eq!(fields[0], "win", "{moves}: {line}");
            let after = position.after(fields[1].parse::<Move>().unwrap());
            assert!(
                after.status().is_over() || exact.winner(&after) == mover,
                "{moves}: {line}"
            );
        } else {
            lost += 1;
            assert_eq!(&fields[..2], ["loss", "-"], "{moves}: {line}");
        }
    }
    assert!(won > 0 && lost > 0, "{won} won, {lost} lost");

    // A finished game is over; a bad move names its line and stops; a method other than
    // df-pn, or no time, is a usage error.
    let output = output_of(
        "hex_solve",
        &["--size", "3", "--positions"],
        "a1 c1 a2 c2 a3\na1 zz\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("over - "));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 2"));
    let message = refuses("hex_solve", &["--positions", "--method", "solver"]);
    assert!(message.contains("dfpn"), "{message}");
    let message = refuses("hex_solve", &["--positions", "--time", "0"]);
    assert!(message.contains("--time"), "{message}");
}

/// Runs example `name` with `args`, its standard output a pipe whose reader leaves after
/// `lines` lines (at once for 0), and returns how it ended and its standard error.
fn closed_early(name: &str, args: &[&str], lines: usize) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(example(name))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "{name} wrote a line");
    }
    drop(reader);
    let output = child.wait_with_output().unwrap();
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn tools_end_quietly_when_their_reader_stops_reading() {
    // `perft ... | head -1`: the reader leaves after the first depth; perft stops at its next
    // line, long before depth 10.
    let (status, stderr) = closed_early("perft", &["--game", "connect4", "--depth", "10"], 1);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A tool of `arena::cli`, its reader gone before the first line.
    let args = [
        "--game",
        "connect4",
        "--size",
        "5x4",
        "--agent",
        "random",
        "--agent",
        "mc:playouts=10",
        "--games",
        "2",
    ];
    let (status, stderr) = closed_early("tournament", &args, 0);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // `play` with its output closed: the first line fails, and that is the end.
    let mut child = Command::new(example("play"))
        .args(["--game", "hex", "--size", "3", "--agent", "random"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
