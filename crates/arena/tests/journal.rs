//! Runs that lose nothing: a tournament killed at random moments and resumed ends as an
//! unbroken one; shards merged equal the unsharded run; `merge` refuses what is not one run.

#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arena::WithGame;
use arena::cli::{MergeArgs, Tool};
use clap::Parser;
use games_connect4::Connect4;
use rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The tools as a test runs them.
#[derive(Parser)]
struct Tools {
    #[command(subcommand)]
    tool: Tool,
}

/// The environment variable that carries a child's tournament arguments.
const CHILD: &str = "ARENA_JOURNAL_CHILD";

/// Runs `tournament ARGS` on Connect Four in this process.
fn tournament(args: &[&str]) -> Result<(), String> {
    let tools = Tools::try_parse_from(["arena", "tournament"].iter().chain(args))
        .map_err(|e| e.to_string())?;
    match tools.tool {
        Tool::Tournament(args) => args.run(Connect4::new()),
        _ => unreachable!("a tournament"),
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-journal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `games.csv` without the wall times (which differ from run to run).
fn games_without_times(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert!(text.ends_with('\n'), "no line cut short");
    text.lines()
        .map(|line| line.rsplit_once(',').unwrap().0.to_owned())
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

const AGENTS: [&str; 6] = [
    "--agent",
    "uct=uct:iterations=300",
    "--agent",
    "mc=mc:playouts=300",
    "--agent",
    "ab=alphabeta:depth=2",
];

/// Not a test of its own: the tournament that `killed_and_resumed_runs_end_as_an_unbroken_one`
/// starts as a child process and kills.
#[test]
#[ignore = "a child process of the other tests"]
fn child_tournament() {
    let Ok(args) = std::env::var(CHILD) else {
        return;
    };
    let args: Vec<&str> = args.split('\u{1f}').collect();
    // A killed run never returns: an error here is a real one, and fails the parent.
    tournament(&args).unwrap();
}

#[test]
fn killed_and_resumed_runs_end_as_an_unbroken_one() {
    let dir = scratch("killed");
    let common = [
        &AGENTS[..],
        &[
            "--agent",
            "slow=uct:iterations=40000",
            "--games",
            "6",
            "--seed",
            "5",
            "--threads",
            "2",
        ],
    ]
    .concat();
    let whole = dir.join("whole");
    let out = ["--out", whole.to_str().unwrap()];
    tournament(&[&common[..], &out].concat()).unwrap();
    let expected = games_without_times(&whole);
    assert_eq!(expected.len(), 1 + 36);

    let killed = dir.join("killed");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let me = std::env::current_exe().unwrap();
    let (mut kills, mut first) = (0, true);
    loop {
        let flag = if first { "--out" } else { "--resume" };
        let args = [&common[..], &[flag, killed.to_str().unwrap()]].concat();
        let mut child = Command::new(&me)
            .args(["child_tournament", "--exact", "--ignored", "--nocapture"])
            .env(CHILD, args.join("\u{1f}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        first = false;
        // Random moments, later and later, so that even the slowest game ends in some run.
        let wait = rng.random_range(30..300) + 60 * kills;
        let deadline = Instant::now() + Duration::from_millis(wait);
        let finished = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if Instant::now() >= deadline {
                break None;
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        if let Some(status) = finished {
            assert!(status.success(), "the last run finished the tournament");
            break;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        kills += 1;
        assert!(kills < 100, "the runs make progress");
    }
    eprintln!("killed {kills} times");
    assert!(kills >= 3, "killed {kills} times: make the games slower");
    assert_eq!(games_without_times(&killed), expected);
    assert_eq!(
        read(&killed.join("standings.csv")),
        read(&whole.join("standings.csv"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shards_merged_equal_the_unsharded_run() {
    let dir = scratch("shards");
    let common = [&AGENTS[..], &["--games", "4", "--seed", "9"]].concat();
    let whole = dir.join("whole");
    tournament(&[&common[..], &["--out", whole.to_str().unwrap()]].concat()).unwrap();
    for n in [1, 2, 3, 7] {
        let shards: Vec<PathBuf> = (1..=n).map(|k| dir.join(format!("{k}of{n}"))).collect();
        for (k, shard) in shards.iter().enumerate() {
            let share = format!("{}/{n}", k + 1);
            let args = [&["--shard", &share, "--out", shard.to_str().unwrap()]];
            tournament(&[&common[..], &args[0][..]].concat()).unwrap();
        }
        let merged = dir.join(format!("merged{n}"));
        if n == 2 {
            // As a user's own binary parses it: `tournament merge DIR... --out DIR`.
            let mut args = vec!["merge"];
            args.extend(shards.iter().map(|d| d.to_str().unwrap()));
            args.extend(["--out", merged.to_str().unwrap()]);
            tournament(&args).unwrap();
        } else {
            MergeArgs {
                dirs: shards.clone(),
                out: merged.clone(),
            }
            .run()
            .unwrap();
        }
        assert_eq!(
            games_without_times(&merged),
            games_without_times(&whole),
            "{n} shards"
        );
        assert_eq!(
            read(&merged.join("standings.csv")),
            read(&whole.join("standings.csv")),
            "{n} shards"
        );
        // A merged run is a whole run: resuming it plays nothing and changes nothing.
        tournament(&[&common[..], &["--resume", merged.to_str().unwrap()]].concat()).unwrap();
        assert_eq!(games_without_times(&merged), games_without_times(&whole));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_what_is_not_one_whole_run() {
    let dir = scratch("refuse");
    let run = |games: &str, seed: &str, rest: &[&str]| {
        let args = [&AGENTS[..], &["--games", games, "--seed", seed], rest].concat();
        tournament(&args)
    };
    let shard = |k: u32, n: u32, seed: &str| {
        let path = dir.join(format!("{k}of{n}-seed{seed}"));
        let share = format!("{k}/{n}");
        run(
            "2",
            seed,
            &["--shard", &share, "--out", path.to_str().unwrap()],
        )
        .unwrap();
        path
    };
    let (one, two, three) = (shard(1, 3, "3"), shard(2, 3, "3"), shard(3, 3, "3"));
    let other_seed = shard(3, 3, "4");
    let out = dir.join("out");
    let merge = |dirs: &[&PathBuf]| {
        MergeArgs {
            dirs: dirs.iter().map(|d| (*d).clone()).collect(),
            out: out.clone(),
        }
        .run()
        .unwrap_err()
    };
    let error = merge(&[&one, &two, &other_seed]);
    assert!(
        error.contains("other settings") && error.contains("seed: 4 vs 3"),
        "{error}"
    );
    let error = merge(&[&one, &two]);
    assert!(error.contains("shard 3/3 missing"), "{error}");
    let error = merge(&[&one, &two, &two]);
    assert!(error.contains("both shard 2/3"), "{error}");
    // A line cut short, a line that is not a game, a game twice, a game missing: each named.
    let games = two.join("games.csv");
    let good = read(&games);
    let lines: Vec<&str> = good.lines().collect();
    let cases = [
        (format!("{}{}", good, &lines[1][..5]), "line 4: cut short"),
        (
            good.replacen(
                lines[1],
                &lines[1].replace(",0-1,", ",2-0,").replace(",1-0,", ",2-0,"),
                1,
            ),
            "line 2: \"2-0\" is not a result",
        ),
        (
            format!("{good}{}\n", lines[1]),
            "line 4: game 2 is on line 2 already",
        ),
        (format!("{good}not,a,game\n"), "line 4: not a game"),
        (
            format!("{}\n", lines[..2].join("\n")),
            "incomplete: 1 of its 2 games",
        ),
    ];
    for (text, words) in cases {
        std::fs::write(&games, &text).unwrap();
        let error = merge(&[&one, &two, &three]);
        assert!(error.contains(words), "{words}: {error}");
        assert!(error.contains("2of3-seed3"), "names the shard: {error}");
    }
    // An unreadable journal.
    std::fs::remove_file(&games).unwrap();
    std::fs::create_dir(&games).unwrap();
    let error = merge(&[&one, &two, &three]);
    assert!(error.contains("2of3-seed3/games.csv"), "{error}");
    std::fs::remove_dir(&games).unwrap();
    std::fs::write(&games, good).unwrap();
    assert!(!out.exists(), "nothing written by a refused merge");
    // Resuming with other settings is refused too, and a new run will not overwrite one.
    let error = run(
        "4",
        "3",
        &["--shard", "2/3", "--resume", two.to_str().unwrap()],
    )
    .unwrap_err();
    assert!(error.contains("games: 2 vs 4"), "{error}");
    let error = run(
        "2",
        "3",
        &["--shard", "2/3", "--out", two.to_str().unwrap()],
    )
    .unwrap_err();
    assert!(error.contains("holds a run already"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tournament of the run directories in `tests/data/run-0.1`, which the first version of
/// the journal wrote (`settings.txt`, `games.csv` and `standings.csv`): `stopped` is `whole`
/// as a kill leaves it, five games in the order they ended and a last line cut short.
fn old_run(flag: &str, dir: &Path) -> Result<(), String> {
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings-connect4.txt");
    tournament(&[
        "--agent",
        "uct=uct:iterations=200",
        "--agent",
        "uct:iterations=100,c=0.7",
        "--agent",
        "alphabeta:depth=2",
        "--games",
        "4",
        "--seed",
        "7",
        "--threads",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        flag,
        dir.to_str().unwrap(),
    ])
}

/// Copies the files of `from` into a fresh `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn runs_written_by_the_first_version_resume() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/run-0.1");
    let dir = scratch("old");
    // A finished run resumes to nothing new: the same journal, the same standings.
    let whole = dir.join("whole");
    copy_dir(&data.join("whole"), &whole);
    old_run("--resume", &whole).unwrap();
    assert_eq!(
        read(&whole.join("games.csv")),
        read(&data.join("whole/games.csv"))
    );
    assert_eq!(
        read(&whole.join("standings.csv")),
        read(&data.join("whole/standings.csv"))
    );
    // A stopped one plays the games it lacks, the same games as the first version played.
    let stopped = dir.join("stopped");
    copy_dir(&data.join("stopped"), &stopped);
    old_run("--resume", &stopped).unwrap();
    assert_eq!(
        games_without_times(&stopped),
        games_without_times(&data.join("whole"))
    );
    assert_eq!(
        read(&stopped.join("standings.csv")),
        read(&data.join("whole/standings.csv"))
    );
    // And the same command today writes the same run.
    let new = dir.join("new");
    old_run("--out", &new).unwrap();
    assert_eq!(
        games_without_times(&new),
        games_without_times(&data.join("whole"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
