//! The page in a real headless Chromium, driven over `WebDriver` (`chromedriver`): the board
//! and its coordinates drawn at load, before any game; start a Hex 7x7 game, click a cell, see
//! the engine answer and its heat map, undo; play Connect Four to its end and read the result. Needs Debian's `chromium` and `chromium-driver`, which `.ci/run`
//! installs; run it with
//! `cargo test -p arena --features web --test browser -- --ignored`.
#![cfg(feature = "web")]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arena::web::{WebConfig, router};
use fantoccini::error::{CmdError, ErrorStatus, WebDriver};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free port on loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Evaluates `script` (a JS expression) in the page until it is truthy, for at most `limit`.
async fn wait_until(client: &Client, script: &str, limit: Duration) -> Value {
    let started = Instant::now();
    loop {
        let value = client
            .execute(&format!("return {script};"), vec![])
            .await
            .unwrap();
        let truthy = match &value {
            Value::Null | Value::Bool(false) => false,
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return value;
        }
        assert!(started.elapsed() < limit, "waited {limit:?} for {script}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the board cell of `mv`. The page redraws the board whenever it reads the game again
/// (a poll after the engine moved, say), which leaves an element found just before the redraw
/// stale; such a click finds the cell again, up to a few times.
async fn click_cell(client: &Client, mv: &str) {
    let selector = format!("g.cell[data-move='{mv}']");
    for _ in 0..10 {
        let cell = client.find(Locator::Css(&selector)).await.unwrap();
        match cell.click().await {
            Ok(()) => return,
            Err(CmdError::Standard(WebDriver {
                error: ErrorStatus::StaleElementReference,
                ..
            })) => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(error) => panic!("clicking {mv}: {error}"),
        }
    }
    panic!("the cell {mv} went stale ten times in a row");
}

/// Fills in the new-game form and starts the game.
async fn new_game(client: &Client, game: &str, size: &str, agent: &str, time_ms: u32) {
    let select = client.find(Locator::Id("game")).await.unwrap();
    select.select_by_value(game).await.unwrap();
    for (id, value) in [
        ("size", size.to_owned()),
        ("agent", agent.to_owned()),
        ("time", time_ms.to_string()),
    ] {
        let field = client.find(Locator::Id(id)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(&value).await.unwrap();
    }
    client
        .find(Locator::Id("start"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        client,
        &format!("state && !state.preview && state.game === '{game}'"),
        Duration::from_secs(10),
    )
    .await;
}

/// The coordinates drawn around the board, in the page's order.
async fn coordinates(client: &Client) -> Vec<String> {
    let texts = client
        .execute(
            "return [...document.querySelectorAll('#board text.coordinate')].map((t) => t.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(texts).unwrap()
}

/// Chooses `game` in the form, without starting it.
async fn choose(client: &Client, game: &str) {
    let select = client.find(Locator::Id("game")).await.unwrap();
    select.select_by_value(game).await.unwrap();
    wait_until(
        client,
        &format!("document.querySelector('svg[data-game=\"{game}\"]')"),
        Duration::from_secs(5),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromedriver (installed by .ci/run): cargo test -p arena --features web --test browser -- --ignored"]
async fn play_hex_and_connect_four_in_chromium() {
    // The server, on a free port.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let config = WebConfig {
        max_time: Duration::from_secs(5),
        max_games: 8,
    };
    tokio::spawn(async move { axum::serve(listener, router(config)).await });
    // The browser, through chromedriver.
    let port = free_port();
    let driver = Driver(
        Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is installed (apt-get install chromium-driver)"),
    );
    let mut capabilities = serde_json::Map::new();
    let mut options = json!({
        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"]
    });
    if std::path::Path::new("/usr/bin/chromium").exists() {
        options["binary"] = json!("/usr/bin/chromium");
    }
    capabilities.insert("goog:chromeOptions".to_owned(), options);
    let started = Instant::now();
    let client = loop {
        match ClientBuilder::rustls()
            .unwrap()
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => break client,
            Err(error) if started.elapsed() > Duration::from_secs(20) => {
                panic!("no WebDriver session: {error}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    };
    client.goto(&format!("http://{address}/")).await.unwrap();

    // At load, before any game: the form's board (Hex 7x7), with its coordinates.
    let cells = wait_until(
        &client,
        "document.querySelectorAll('#board svg g.cell').length",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(cells.as_u64(), Some(49));
    let letters: Vec<String> = ('a'..='g').map(String::from).collect();
    let numbers: Vec<String> = (1..=7).map(|n| n.to_string()).collect();
    assert_eq!(
        coordinates(&client).await,
        [&letters[..], &numbers[..]].concat()
    );
    // Othello's board shows its four discs and a-h, 1-8; Connect Four its columns 1-7.
    choose(&client, "othello").await;
    let discs = client
        .find_all(Locator::Css("circle[data-owner]"))
        .await
        .unwrap();
    assert_eq!(discs.len(), 4);
    let letters: Vec<String> = ('a'..='h').map(String::from).collect();
    let numbers: Vec<String> = (1..=8).map(|n| n.to_string()).collect();
    assert_eq!(
        coordinates(&client).await,
        [&letters[..], &numbers[..]].concat()
    );
    choose(&client, "connect4").await;
    let columns: Vec<String> = (1..=7).map(|n| n.to_string()).collect();
    assert_eq!(coordinates(&client).await, columns);
    // A click on the board drawn at load starts the form's game and plays there; the engine
    // answers.
    click_cell(&client, "4").await;
    wait_until(
        &client,
        "state && !state.preview && state.history[0] === '4' && state.history.length === 2 \
         && !state.thinking",
        Duration::from_secs(15),
    )
    .await;

    // Hex 7x7: click the centre, the engine answers and its heat map appears; undo.
    new_game(&client, "hex", "7", "uct", 300).await;
    let cells = client.find_all(Locator::Css("svg g.cell")).await.unwrap();
    assert_eq!(cells.len(), 49);
    assert_eq!(
        coordinates(&client).await.len(),
        14,
        "coordinates on a game's board too"
    );
    click_cell(&client, "d4").await;
    wait_until(
        &client,
        "state && state.history.length === 2 && !state.thinking",
        Duration::from_secs(15),
    )
    .await;
    assert_eq!(
        client
            .find_all(Locator::Css("circle[data-owner]"))
            .await
            .unwrap()
            .len(),
        2
    );
    let heat = wait_until(
        &client,
        "document.querySelectorAll('circle.heat').length",
        Duration::from_secs(5),
    )
    .await;
    assert!(heat.as_u64().unwrap() >= 1);
    let speed = client
        .find(Locator::Id("speed"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(speed.contains("per second"), "{speed}");
    client
        .find(Locator::Id("undo"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        &client,
        "document.querySelectorAll('circle[data-owner]').length === 1",
        Duration::from_secs(5),
    )
    .await;

    // Connect Four against a random engine, to the end: click a legal column each turn.
    new_game(&client, "connect4", "7x6", "random", 50).await;
    for _ in 0..42 {
        let over = wait_until(
            &client,
            "state && !state.thinking && (state.over ? 'over' : 'go')",
            Duration::from_secs(10),
        )
        .await;
        if over == "over" {
            break;
        }
        let column = client
            .execute("return state.legal[0];", vec![])
            .await
            .unwrap();
        let column = column.as_str().unwrap().to_owned();
        click_cell(&client, &column).await;
        wait_until(
            &client,
            "state && (state.thinking || state.over || state.to_move === 'black')",
            Duration::from_secs(10),
        )
        .await;
    }
    let result = wait_until(
        &client,
        "document.getElementById('result').textContent",
        Duration::from_secs(10),
    )
    .await;
    let result = result.as_str().unwrap();
    // Connect Four's sides are named by their colours.
    assert!(
        result.starts_with("red wins")
            || result.starts_with("yellow wins")
            || result.starts_with("a draw"),
        "{result}"
    );
    // A won game shows its four in a row.
    if result.contains("wins") {
        let marked = client
            .find_all(Locator::Css("circle.winning"))
            .await
            .unwrap()
            .len();
        assert!(marked >= 4, "{marked} cells marked");
    }
    client.close().await.unwrap();
    drop(driver);
}
