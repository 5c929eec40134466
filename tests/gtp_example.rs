//! The `gtp` example as a user runs it: a separate process spoken to through pipes.
//!
//! `cargo test` builds the examples before it runs the tests; this test finds the `gtp`
//! binary next to its own.

use std::io::Write;
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

#[test]
fn a_scripted_session_through_pipes() {
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
fn bad_arguments_exit_with_code_2_and_say_why() {
    for args in [
        &["--game", "chess"][..],
        &["--game", "hex", "--size", "20"],
        &["--game", "othello", "--size", "7"],
        &["--game", "connect4", "--swap"],
        &["--game", "hex", "--agent", "uct:c=lots"],
        &["--game", "hex", "--frobnicate"],
    ] {
        let output = Command::new(example("gtp")).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains("error:"), "{args:?}: {message}");
    }
}
