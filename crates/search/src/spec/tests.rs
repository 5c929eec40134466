//! The grammar, the registry and the builder of agent specs, tested through `AgentSpec`.

use super::registry::{self, Entry};
use super::*;
use crate::Budget;
use std::time::Duration;

/// A value that fits `key`.
fn sample(key: &str) -> &'static str {
    match key {
        "iterations" | "playouts" | "nodes" | "expand_after" | "ref" | "seed" | "examine"
        | "skip_rave" => "7",
        "time" => "5ms",
        "win" | "draw" | "loss" | "c" | "k" => "0.5",
        "reuse" | "prove" | "prune" | "ordering" | "pvs" | "book" => "false",
        "final" => "mean",
        "expand" => "all",
        "decay" => "0.9",
        "threads" | "depth" | "table" | "cutoff" => "2",
        "puct" | "bias" | "reply" | "extend" => "1.5",
        "prior" => "none",
        "playout" => "random",
        "parallel" => "tree",
        "fallback" => "uct",
        "share" | "fpu" => "0.25",
        _ => panic!("no sample value for {key}"),
    }
}

#[test]
fn unknown_agents_are_told_the_names_there_are() {
    let error = "alphazero".parse::<AgentSpec>().unwrap_err().to_string();
    assert!(
        error.ends_with(
            "expected best, solver, random, mc, ucb1, uct, rave, grave, minimax, negamax or alphabeta"
        ),
        "{error}"
    );
    let error = AgentSpec::parse_with("alphazero", &["mine"])
        .unwrap_err()
        .to_string();
    assert!(
        error.ends_with("negamax, alphabeta, or the game's own mine"),
        "{error}"
    );
}

#[test]
fn every_key_an_agent_lists_reaches_a_setter() {
    let names = registry::BUILT_IN;
    for name in names {
        let entry = Entry::named(name).expect("a known agent");
        for key in entry.keys {
            let text = format!("{name}:{key}={}", sample(key));
            let parsed = text.parse::<AgentSpec>();
            assert!(parsed.is_ok(), "{text}: {}", parsed.unwrap_err());
        }
    }
}

#[test]
fn only_the_rave_agents_take_rave_keys() {
    assert!("uct:k=100".parse::<AgentSpec>().is_err());
    assert!("rave:ref=10".parse::<AgentSpec>().is_err());
    let grave: AgentSpec = "grave:ref=10,k=100".parse().unwrap();
    let Algorithm::Uct(config, ..) = grave.algorithm else {
        panic!("grave is UCT");
    };
    let rave = config.rave.expect("grave is RAVE");
    assert_eq!((rave.grave, rave.k), (Some(10), 100.0));
    assert!("uct:skip_rave=30".parse::<AgentSpec>().is_err());
    let rave: AgentSpec = "rave:skip_rave=30".parse().unwrap();
    let Algorithm::Uct(config, ..) = rave.algorithm else {
        panic!("rave is UCT");
    };
    assert_eq!(config.rave.and_then(|rave| rave.skip), Some(30));
    assert!("rave:skip_rave=-1".parse::<AgentSpec>().is_err());
}

#[test]
fn rave_explores_by_its_statistics_unless_told_otherwise() {
    let exploration = |text: &str| match text.parse::<AgentSpec>().unwrap().algorithm {
        Algorithm::Uct(config, ..) => config.exploration,
        _ => panic!("{text} is UCT"),
    };
    assert_eq!(exploration("uct"), 0.4);
    assert_eq!(exploration("rave"), 0.02);
    assert_eq!(exploration("grave"), 0.02);
    assert_eq!(exploration("rave:c=0.3"), 0.3);
}

#[test]
fn parses_every_agent_with_defaults() {
    for (text, name, iterations) in [
        ("random", "random", None),
        ("mc", "mc", Some(1000)),
        ("mc:playouts=50", "mc", Some(50)),
        ("ucb1:playouts=1000,c=0.7", "ucb1", Some(1000)),
        ("uct", "uct", Some(10_000)),
        ("minimax:depth=3", "minimax", None),
        ("negamax", "negamax", None),
        (
            "alphabeta:depth=8,table=0,ordering=false,pvs=false",
            "alphabeta",
            None,
        ),
        ("alphabeta:time=1s", "alphabeta", None),
        (
            "UCT:iterations=5, c=0.3 ,reuse=false,final=mean,expand=all,expand_after=8,decay=0.9,nodes=1000,loss=-100",
            "uct",
            Some(5),
        ),
    ] {
        let spec: AgentSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(spec.name(), name);
        assert_eq!(spec.budget().iterations, iterations, "{text}");
    }
    let timed: AgentSpec = "uct:time=500ms".parse().unwrap();
    assert_eq!(
        (timed.budget().iterations, timed.budget().time),
        (None, Some(Duration::from_millis(500)))
    );
}

#[test]
fn errors_name_the_key_or_value() {
    let cases = [
        ("alphazero", "unknown agent \"alphazero\""),
        ("mc:c=1", "unknown key \"c\" for mc"),
        ("uct:c=-1", "bad value \"-1\" for c"),
        ("uct:time=soon", "bad value \"soon\" for time"),
        ("uct:iterations=1e3", "bad value \"1e3\" for iterations"),
        ("uct:decay=1.5", "bad value \"1.5\" for decay"),
        ("uct:final=best", "bad value \"best\" for final"),
        ("uct:expand_after=0", "bad value \"0\" for expand_after"),
        ("uct:c", "malformed \"c\""),
        ("uct:playouts=1,iterations=2", "the key is given twice"),
        ("alphabeta:depth=0", "bad value \"0\" for depth"),
        ("minimax:time=1s", "unknown key \"time\" for minimax"),
        ("uct:threads=many", "bad value \"many\" for threads"),
        ("uct:threads=2000", "from 0 to 1024, or auto"),
        ("uct:book=maybe", "bad value \"maybe\" for book"),
        ("mc:book=true", "unknown key \"book\" for mc"),
    ];
    for (text, expected) in cases {
        let message = text.parse::<AgentSpec>().unwrap_err().to_string();
        assert!(message.contains(expected), "{text}: {message}");
    }
}

#[test]
fn a_book_needs_the_games_opening_knowledge() {
    let spec: AgentSpec = "uct:book=true,iterations=10".parse().unwrap();
    let error = spec
        .build::<game_core::testing::TicTacToe>(1)
        .err()
        .expect("tic-tac-toe has no knowledge here");
    assert!(
        error.to_string().contains("no opening knowledge"),
        "{error}"
    );
}

#[test]
fn threads_auto_and_0_mean_every_core() {
    for text in ["uct:threads=auto", "uct:threads=0,parallel=tree"] {
        let spec: AgentSpec = text.parse().unwrap();
        let Algorithm::Uct(_, threads, _) = spec.algorithm else {
            panic!("{text} is UCT");
        };
        assert_eq!(threads.count, 0, "{text}");
    }
    let mut agent = "uct:threads=auto,iterations=2000"
        .parse::<AgentSpec>()
        .unwrap()
        .build::<game_core::testing::TicTacToe>(1)
        .unwrap();
    let start = game_core::testing::TicTacToe::new();
    assert!(agent.choose(&start, &Budget::iterations(2_000)).is_some());
    assert_eq!(agent.report().unwrap().iterations, 2_000);
}
