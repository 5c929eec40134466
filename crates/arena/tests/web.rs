//! The web API (`arena::web`, feature `web`): every route, and every bad input refused with
//! its status and a message, changing nothing.
#![cfg(feature = "web")]

use std::time::{Duration, Instant};

use arena::web::{WebConfig, router};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Sends one request and returns the status and the JSON body (`null` when empty).
async fn call(app: &Router, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or_else(|_| json!(String::from_utf8_lossy(&bytes)))
    };
    (status, value)
}

fn app() -> Router {
    router(WebConfig {
        max_time: Duration::from_secs(2),
        max_games: 3,
    })
}

/// Waits for the engine of game `id` to finish, and returns the state.
async fn settled(app: &Router, id: u64) -> Value {
    let started = Instant::now();
    loop {
        let (status, state) = call(app, "GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
        if !state["thinking"].as_bool().unwrap() {
            return state;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the engine never answered"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_hex_game_from_creation_to_undo() {
    let app = app();
    let (status, page) = call(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().unwrap().contains("<svg") || page.as_str().unwrap().contains("svg"));
    let (status, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "hex", "size": 7, "agent": "uct", "time_ms": 200})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    let id = state["id"].as_u64().unwrap();
    assert_eq!(state["size"], "7x7");
    assert_eq!(state["cells"].as_array().unwrap().len(), 7);
    assert_eq!(state["legal"].as_array().unwrap().len(), 49);
    assert_eq!(state["to_move"], "black");
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "d4"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["cells"][3][3], "black");
    assert_eq!(state["history"], json!(["d4"]));
    let (status, state) = call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["thinking"], true);
    // One search at a time, and no move while it runs.
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, error) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(json!({"move": "a1"})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error["error"], "the engine is thinking");
    let state = settled(&app, id).await;
    assert_eq!(state["history"].as_array().unwrap().len(), 2);
    let analysis = &state["analysis"];
    assert!(analysis["iterations"].as_u64().unwrap() > 0);
    assert!(!analysis["moves"].as_array().unwrap().is_empty());
    assert_eq!(state["win_rates"].as_array().unwrap().len(), 1);
    let (status, state) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["history"], json!(["d4"]));
    let (status, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(
        (status, list["games"].clone()),
        (StatusCode::OK, json!([id]))
    );
    let (status, _) = call(&app, "DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn connect_four_is_played_to_its_end() {
    let app = app();
    let (_, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "connect4", "agent": "random"})),
    )
    .await;
    let id = state["id"].as_u64().unwrap();
    let path = format!("/api/games/{id}/moves");
    for column in ["4", "1", "4", "1", "4", "1"] {
        let (status, _) = call(&app, "POST", &path, Some(json!({"move": column}))).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, state) = call(&app, "POST", &path, Some(json!({"move": "4"}))).await;
    assert_eq!(
        (state["over"].clone(), state["winner"].clone()),
        (json!(true), json!("black"))
    );
    assert_eq!(state["result"], "B+");
    assert!(state["legal"].as_array().unwrap().is_empty());
    // The top row comes first: the four stones of column 4 sit in the bottom four rows.
    assert_eq!(state["cells"][5][3], "black");
    assert_eq!(state["cells"][1][3], Value::Null);
    let (status, error) = call(&app, "POST", &path, Some(json!({"move": "2"}))).await;
    assert_eq!(
        (status, error["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("the game is over"))
    );
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let app = app();
    let refused = |body: Value| {
        let app = app.clone();
        async move { call(&app, "POST", "/api/games", Some(body)).await }
    };
    for (body, status, words) in [
        (json!({"game": "chess"}), 400, "unknown game"),
        (json!({"game": "hex", "size": 25}), 400, "19x19"),
        (
            json!({"game": "othello", "size": "7"}),
            400,
            "expected 8 or 6",
        ),
        (json!({"game": "connect4", "size": "12x12"}), 400, "128"),
        (json!({"game": "othello", "swap": true}), 400, "swap"),
        (
            json!({"game": "hex", "agent": "uct:c=lots"}),
            400,
            "bad value",
        ),
        (
            json!({"game": "hex", "agent": "nonsense"}),
            400,
            "unknown agent",
        ),
        (json!({"game": "hex", "time_ms": 5000}), 400, "out of range"),
        (json!({"game": "hex", "time_ms": 0}), 400, "out of range"),
        (
            json!({"game": "hex", "colour": "red"}),
            400,
            "unknown field",
        ),
        (json!({"size": 7}), 400, "missing field"),
    ] {
        let (got, error) = refused(body.clone()).await;
        assert_eq!(got.as_u16(), status, "{body}: {error}");
        let message = error["error"].as_str().unwrap();
        assert!(message.contains(words), "{body}: {message}");
    }
    let (status, error) = call(&app, "POST", "/api/games", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (_, list) = call(&app, "GET", "/api/games", None).await;
    assert_eq!(list["games"], json!([]), "nothing was created");
    // Moves: malformed, illegal, unknown games.
    let (_, state) = call(&app, "POST", "/api/games", Some(json!({"game": "othello"}))).await;
    let id = state["id"].as_u64().unwrap();
    let path = format!("/api/games/{id}/moves");
    for (body, words) in [
        (json!({"move": "a1"}), "not legal"),
        (json!({"move": "z9"}), ""),
        (json!({"mv": "d3"}), "unknown field"),
        (json!("d3"), "bad request body"),
    ] {
        let (status, error) = call(&app, "POST", &path, Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            error["error"].as_str().unwrap().contains(words),
            "{body}: {error}"
        );
    }
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(state["history"], json!([]), "nothing was played");
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    for path in ["/api/games/99", "/api/games/x", "/api/games/99/engine"] {
        let method = if path.ends_with("engine") {
            "POST"
        } else {
            "GET"
        };
        let (status, _) = call(&app, method, path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    // Too many games at once.
    for _ in 0..2 {
        let (status, _) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"game": "hex", "size": 3})),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, error) = call(&app, "POST", "/api/games", Some(json!({"game": "hex"}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(error["error"].as_str().unwrap().contains("3 games at most"));
}

#[tokio::test]
async fn the_solver_reports_what_it_proved() {
    let app = app();
    let (_, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "hex", "size": 3, "agent": "solver", "time_ms": 1000})),
    )
    .await;
    let id = state["id"].as_u64().unwrap();
    call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    let state = settled(&app, id).await;
    assert_eq!(state["analysis"]["proven"], "a win");
    assert_eq!(state["history"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_engine_resigns_a_proven_loss_and_undo_takes_it_back() {
    let app = app();
    let (_, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "hex", "size": 5, "agent": "best", "time_ms": 200})),
    )
    .await;
    let id = state["id"].as_u64().unwrap();
    let path = format!("/api/games/{id}/moves");
    // Black's c2 and c4 join each other and the edges whoever moves; White to move.
    for cell in "c2 a1 c4 a2 b3 e1 d3 e2 e5".split_whitespace() {
        let (status, _) = call(&app, "POST", &path, Some(json!({"move": cell}))).await;
        assert_eq!(status, StatusCode::OK);
    }
    call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    let state = settled(&app, id).await;
    assert_eq!(state["history"].as_array().unwrap().len(), 9, "{state}");
    assert_eq!(
        (state["over"].clone(), state["winner"].clone()),
        (json!(true), json!("black"))
    );
    assert_eq!(state["result"], "B+Resign");
    let said = state["resigned"].as_str().unwrap();
    assert!(
        said.starts_with("White resigns: its loss is proven (Black connects"),
        "{said}"
    );
    assert!(state["legal"].as_array().unwrap().is_empty());
    let (status, error) = call(&app, "POST", &path, Some(json!({"move": "a3"}))).await;
    assert_eq!(
        (status, error["error"].clone()),
        (StatusCode::BAD_REQUEST, json!("the game is over"))
    );
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Taking back Black's last move takes back the resignation too.
    let (status, state) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (state["over"].clone(), state["resigned"].clone()),
        (json!(false), Value::Null)
    );
    assert_eq!(state["history"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn alpha_beta_reports_a_score_and_no_win_rate() {
    let app = app();
    let (_, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "connect4", "agent": "alphabeta:depth=4"})),
    )
    .await;
    let id = state["id"].as_u64().unwrap();
    call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    let state = settled(&app, id).await;
    let analysis = &state["analysis"];
    assert!(analysis["score"].is_i64(), "{analysis}");
    assert_eq!(analysis["win_rate"], Value::Null, "{analysis}");
    assert_eq!(analysis["moves"][0]["win_rate"], Value::Null, "{analysis}");
    // A Monte-Carlo search has a win rate and no score.
    let (_, state) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({"game": "connect4", "agent": "uct", "time_ms": 100})),
    )
    .await;
    let id = state["id"].as_u64().unwrap();
    call(&app, "POST", &format!("/api/games/{id}/engine"), None).await;
    let analysis = settled(&app, id).await["analysis"].clone();
    let rate = analysis["win_rate"].as_f64().unwrap();
    assert!(
        (0.0..=1.0).contains(&rate) && analysis["score"].is_null(),
        "{analysis}"
    );
}
