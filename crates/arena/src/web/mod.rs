//! The board in the browser: an HTTP server (axum on tokio) with a JSON API under `/api/` and
//! one page that draws every game, lets a person play by clicking, and shows the engine's
//! analysis as it thinks. `cargo run --release --example web` starts it; `docs/tools.md`
//! documents the API.
//!
//! | route | does |
//! |---|---|
//! | `GET /` | the page |
//! | `POST /api/games` | a new game: `{"game": "hex", "size": "7", "swap": false, "agent": "best", "time_ms": 1000}` |
//! | `GET /api/games` | the games' ids |
//! | `GET /api/games/{id}` | a game's state: board, legal moves, history, result, analysis |
//! | `DELETE /api/games/{id}` | ends a game (stopping its search) |
//! | `POST /api/games/{id}/moves` | plays a move: `{"move": "d3"}` |
//! | `POST /api/games/{id}/engine` | the engine starts thinking for the player to move |
//! | `POST /api/games/{id}/undo` | takes back the last move |
//!
//! Bad input is refused with a status and `{"error": "..."}`, and changes nothing: 400 for a
//! malformed or illegal request, 404 for an unknown game, 409 for a request the game's state
//! does not allow (a move while the engine thinks, after the end), 429 for a game too many.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let config = arena::web::WebConfig::default();
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! axum::serve(listener, arena::web::router(config)).await
//! # }
//! ```

mod session;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::{GameChoice, TextGame, WithGame};
use session::{GameSession, Refusal, Session};

/// The page, with its script and styles inline.
const PAGE: &str = include_str!("page.html");

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct WebConfig {
    /// The most time per move a game may ask for (`--max-time`).
    pub max_time: Duration,
    /// The most games at once (`--max-games`).
    pub max_games: usize,
}

impl Default for WebConfig {
    /// 30 s per move at most, 64 games at once.
    fn default() -> Self {
        WebConfig {
            max_time: Duration::from_secs(30),
            max_games: 64,
        }
    }
}

/// The games on the server.
struct Server {
    config: WebConfig,
    games: Mutex<BTreeMap<u64, Game>>,
    next: AtomicU64,
}

type Shared = Arc<Server>;

/// One game on the server, locked while a request works on it.
type Game = Arc<Mutex<Box<dyn Session>>>;

/// The router of the page and the API, with empty game storage.
pub fn router(config: WebConfig) -> Router {
    let server = Arc::new(Server {
        config,
        games: Mutex::new(BTreeMap::new()),
        next: AtomicU64::new(1),
    });
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(show).delete(remove))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/engine", post(engine))
        .route("/api/games/{id}/undo", post(undo))
        .with_state(server)
}

/// A refusal as a response.
impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// A request body that must be JSON of the given shape.
fn body<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    serde_json::from_str(text).map_err(|e| Refusal::bad(format!("bad request body: {e}")))
}

/// What `POST /api/games` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    game: String,
    size: Option<Value>,
    #[serde(default)]
    swap: bool,
    agent: Option<String>,
    time_ms: Option<u64>,
    seed: Option<u64>,
}

/// Builds a session for whichever game a choice names.
struct Open {
    spec: String,
    time: Duration,
    seed: u64,
}

impl WithGame for Open {
    type Output = Result<Box<dyn Session>, Refusal>;

    fn run<G: TextGame>(self, start: G) -> Self::Output {
        // A tree search on every core unless the spec says threads=N.
        let spec = G::parse_agent(&self.spec)
            .map_err(|e| Refusal::bad(e.to_string()))?
            .on_cores(0);
        Ok(Box::new(GameSession::new(
            start, spec, self.time, self.seed,
        )?))
    }
}

async fn create(State(server): State<Shared>, text: String) -> Result<Response, Refusal> {
    let request: NewGame = body(&text)?;
    let size = match &request.size {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(other) => {
            return Err(Refusal::bad(format!(
                "bad size {other}: expected \"7\" or \"7x6\""
            )));
        }
    };
    let choice =
        GameChoice::new(&request.game, size.as_deref(), request.swap).map_err(Refusal::bad)?;
    let time = Duration::from_millis(request.time_ms.unwrap_or(1000));
    if time > server.config.max_time || time.is_zero() {
        return Err(Refusal::bad(format!(
            "time_ms {} is out of range: this server allows 1 to {} ms per move",
            time.as_millis(),
            server.config.max_time.as_millis()
        )));
    }
    let open = Open {
        spec: request.agent.unwrap_or_else(|| "best".to_owned()),
        time,
        seed: request.seed.unwrap_or(1),
    };
    // Building an agent allocates its tables: off the async threads.
    let session = tokio::task::spawn_blocking(move || choice.run(open))
        .await
        .map_err(|_| Refusal::bad("the game could not be built"))??;
    let mut games = server
        .games
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if games.len() >= server.config.max_games {
        return Err(Refusal {
            status: 429,
            message: format!(
                "this server holds {} games at most: delete one first",
                server.config.max_games
            ),
        });
    }
    let id = server.next.fetch_add(1, Ordering::Relaxed);
    let session = Arc::new(Mutex::new(session));
    games.insert(id, session.clone());
    drop(games);
    let state = with_id(id, &session);
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

/// The state of a game, with its id.
fn with_id(id: u64, session: &Mutex<Box<dyn Session>>) -> Value {
    let mut state = session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .state();
    state["id"] = json!(id);
    state
}

/// The game `id`, or a 404.
fn game(server: &Server, id: &str) -> Result<(u64, Game), Refusal> {
    let missing = || Refusal {
        status: 404,
        message: format!("there is no game {id}"),
    };
    let id: u64 = id.parse().map_err(|_| missing())?;
    let games = server
        .games
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Ok((id, games.get(&id).cloned().ok_or_else(missing)?))
}

async fn list(State(server): State<Shared>) -> Json<Value> {
    let games = server
        .games
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Json(json!({ "games": games.keys().collect::<Vec<_>>() }))
}

async fn show(
    State(server): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Refusal> {
    let (id, session) = game(&server, &id)?;
    Ok(Json(with_id(id, &session)))
}

async fn remove(
    State(server): State<Shared>,
    Path(id): Path<String>,
) -> Result<StatusCode, Refusal> {
    let (id, session) = game(&server, &id)?;
    session
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .stop();
    server
        .games
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .remove(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// What `POST /api/games/{id}/moves` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    #[serde(rename = "move")]
    text: String,
}

/// Runs `change` on game `id` and answers with its state.
fn change(
    server: &Server,
    id: &str,
    change: impl FnOnce(&mut dyn Session) -> Result<(), Refusal>,
) -> Result<Json<Value>, Refusal> {
    let (id, session) = game(server, id)?;
    change(
        session
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut(),
    )?;
    Ok(Json(with_id(id, &session)))
}

async fn play(
    State(server): State<Shared>,
    Path(id): Path<String>,
    text: String,
) -> Result<Json<Value>, Refusal> {
    let request: Move = body(&text)?;
    change(&server, &id, |s| s.play(&request.text))
}

async fn engine(
    State(server): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Refusal> {
    change(&server, &id, |s| s.think())
}

async fn undo(
    State(server): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Refusal> {
    change(&server, &id, |s| s.undo())
}
