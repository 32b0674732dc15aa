//! `perfectplay serve`: the web page and a GamesCraftersUWAPI-shaped JSON API (docs/api.md).
//!
//! The API lives under `/api`: `/api/` lists games, `/api/<game>/` a game's variants,
//! `/api/<game>/<variant>/` a variant's start and Image AutoGUI data, and
//! `/api/<game>/<variant>/positions/?p=<position>` a position's value with every move's. The page
//! (`web/`, compiled into the binary) is at `/`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use perfectplay_core::{Game, GameExt, ImageAutoGui, Position, SizeClass, Value, ValueRemoteness};
use perfectplay_db::Database;
use perfectplay_solve::SolveOptions;
use serde_json::{json, Value as JsonValue};

use crate::oracle::{Oracle, PositionReport};

/// Decoded database blocks the server keeps per variant: 256 MiB holds 5,400 of Five Field Kono's
/// 36,292 blocks (a sixth of the file).
const SERVER_CACHE_BYTES: usize = 256 << 20;

/// One variant and where its answers come from.
struct Variant {
    game: &'static dyn Game,
    /// `Err`: not solved; the string is the command that solves it.
    oracle: Result<Oracle<'static>, String>,
    /// "database", "memory" or "unsolved".
    source: &'static str,
    /// The Image AutoGUI data as the API sends it, built once.
    theme: Option<JsonValue>,
    /// Whether some moves come in parts.
    multipart: bool,
}

struct GameEntry {
    id: &'static str,
    name: &'static str,
    default_variant: &'static str,
    variants: Vec<(String, Variant)>,
}

/// What the handlers share.
pub struct AppState {
    games: Vec<GameEntry>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").field("games", &self.games.len()).finish()
    }
}

impl AppState {
    /// Every listed variant: from its database under `data_dir` if there is one, solved in memory
    /// if it is small, else marked unsolved with the command that solves it.
    pub fn load(data_dir: &Path, log: bool) -> Result<AppState> {
        let mut games = Vec::new();
        for entry in perfectplay_games::catalog() {
            let mut variants = Vec::new();
            for &v in entry.listed_variants {
                let game: &'static dyn Game = Box::leak(entry.variant(Some(v))?);
                let theme = game.image_autogui();
                let path = perfectplay_db::path_for(data_dir, game.id(), &game.variant());
                let (oracle, source) = if path.exists() {
                    let db = Database::open_with_cache(&path, SERVER_CACHE_BYTES)?;
                    db.check_game(game)?;
                    (Ok(Oracle::from_database(game, db)), "database")
                } else if game.size_class() == SizeClass::Small {
                    let started = std::time::Instant::now();
                    let oracle = Oracle::solve_quietly(game, SolveOptions::default())?;
                    if log {
                        eprintln!(
                            "solved {} {} in memory ({:.2} s)",
                            game.id(),
                            v,
                            started.elapsed().as_secs_f64()
                        );
                    }
                    (Ok(oracle), "memory")
                } else {
                    (Err(format!("perfectplay solve {} --variant {v}", game.id())), "unsolved")
                };
                variants.push((
                    v.to_string(),
                    Variant {
                        game,
                        oracle,
                        source,
                        theme: theme.as_ref().map(theme_json),
                        multipart: game.is_multipart(),
                    },
                ));
            }
            games.push(GameEntry {
                id: entry.id,
                name: entry.name,
                default_variant: entry.default_variant,
                variants,
            });
        }
        Ok(AppState { games })
    }

    fn game(&self, id: &str) -> Result<&GameEntry, ApiError> {
        self.games.iter().find(|g| g.id == id).ok_or_else(|| {
            ApiError::not_found(
                format!("unknown game {id:?}"),
                format!(
                    "one of: {}",
                    self.games.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }

    fn variant(&self, game: &str, variant: &str) -> Result<&Variant, ApiError> {
        let g = self.game(game)?;
        g.variants.iter().find(|(id, _)| id == variant).map(|(_, v)| v).ok_or_else(|| {
            ApiError::not_found(
                format!("unknown variant {variant:?} of {game}"),
                format!(
                    "one of: {}",
                    g.variants.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
        })
    }
}

/// An error answer: a status and `{"error": ..., "expected": ...}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: JsonValue,
}

impl ApiError {
    fn not_found(error: String, expected: String) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            body: json!({"error": error, "expected": expected}),
        }
    }
    fn bad_request(error: String, expected: String) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body: json!({"error": error, "expected": expected}),
        }
    }
    fn internal(error: &anyhow::Error) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            body: json!({"error": format!("{error:#}")}),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

type Shared = State<Arc<AppState>>;

/// The routes, API and page.
pub fn router(state: Arc<AppState>) -> Router {
    let page = |body: &'static str, kind: &'static str| {
        get(move || async move { ([(header::CONTENT_TYPE, kind)], body) })
    };
    Router::new()
        .route("/", page(include_str!("../../../web/index.html"), "text/html; charset=utf-8"))
        .route(
            "/app.js",
            page(include_str!("../../../web/app.js"), "text/javascript; charset=utf-8"),
        )
        .route(
            "/style.css",
            page(include_str!("../../../web/style.css"), "text/css; charset=utf-8"),
        )
        .route("/api", get(list_games))
        .route("/api/", get(list_games))
        .route("/api/{game}", get(game_info))
        .route("/api/{game}/", get(game_info))
        .route("/api/{game}/{variant}", get(variant_info))
        .route("/api/{game}/{variant}/", get(variant_info))
        .route("/api/{game}/{variant}/positions", get(position))
        .route("/api/{game}/{variant}/positions/", get(position))
        .fallback(|| async {
            ApiError::not_found(
                "no such page".into(),
                "/, /api/, /api/<game>/, /api/<game>/<variant>/, \
                 /api/<game>/<variant>/positions/?p=<position>"
                    .into(),
            )
        })
        .layer(axum::middleware::from_fn(cors))
        .with_state(state)
}

/// Any page may call the API (GamesmanUni runs from its own origin): every answer allows every
/// origin, and a preflight `OPTIONS` is answered at once.
async fn cors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = if request.method() == axum::http::Method::OPTIONS {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            header::HeaderValue::from_static("GET, POST, OPTIONS"),
        );
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, header::HeaderValue::from_static("*"));
        h.insert(header::ACCESS_CONTROL_MAX_AGE, header::HeaderValue::from_static("86400"));
        r
    } else {
        next.run(request).await
    };
    response
        .headers_mut()
        .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, header::HeaderValue::from_static("*"));
    response
}

async fn list_games(State(s): Shared) -> Json<JsonValue> {
    Json(JsonValue::Array(
        s.games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "name": g.name,
                    "type": "twoPlayer",
                    "defaultVariant": g.default_variant,
                    "variants": g.variants.len(),
                })
            })
            .collect(),
    ))
}

async fn game_info(
    State(s): Shared,
    UrlPath(game): UrlPath<String>,
) -> Result<Json<JsonValue>, ApiError> {
    let g = s.game(&game)?;
    Ok(Json(json!({
        "id": g.id,
        "name": g.name,
        "defaultVariant": g.default_variant,
        "variants": g.variants.iter().map(|(id, v)| {
            let mut o = json!({
                "id": id,
                "name": id,
                "status": if v.oracle.is_ok() { "solved" } else { "unsolved" },
                "source": v.source,
                "gui": if v.theme.is_some() { "image" } else { "none" },
            });
            if let Err(command) = &v.oracle {
                o["solveCommand"] = json!(command);
            }
            o
        }).collect::<Vec<_>>(),
    })))
}

fn theme_json(t: &ImageAutoGui) -> JsonValue {
    json!({
        "defaultTheme": t.theme,
        "themes": {
            t.theme: {
                "space": [t.size.0, t.size.1],
                "centers": t.centers.iter().map(|c| [c.0, c.1]).collect::<Vec<_>>(),
                "background": t.background,
                "entities": t.entities.iter().map(|e| (e.token.to_string(), json!({"svg": e.svg})))
                    .collect::<serde_json::Map<_, _>>(),
                "pieceSize": t.piece_size,
                "arrowWidth": t.arrow_width,
            }
        }
    })
}

async fn variant_info(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
) -> Result<Json<JsonValue>, ApiError> {
    let v = s.variant(&game, &variant)?;
    let g = v.game;
    let start = g.start();
    let mut o = json!({
        "id": variant,
        "name": variant,
        "game": g.id(),
        "gameName": g.name(),
        "players": g.player_names(),
        "startPosition": g.position_to_string(start),
        "autoguiStartPosition": g.autogui_position(start),
        "imageAutoGUIData": v.theme,
        "multipart": v.multipart,
        "status": if v.oracle.is_ok() { "solved" } else { "unsolved" },
        "moveSyntax": g.move_syntax(),
    });
    if let Err(command) = &v.oracle {
        o["solveCommand"] = json!(command);
    }
    Ok(Json(o))
}

fn value_name(vr: ValueRemoteness) -> &'static str {
    vr.value().name()
}

fn remoteness(vr: ValueRemoteness) -> JsonValue {
    match vr.remoteness() {
        Some(r) if vr.value() != Value::Draw => json!(r.0),
        _ => JsonValue::Null,
    }
}

/// A position report in UWAPI's shape.
fn position_json(game: &dyn Game, r: &PositionReport) -> JsonValue {
    json!({
        "position": game.position_to_string(r.position),
        "autoguiPosition": game.autogui_position(r.position),
        "turn": game.player_name(game.to_move(r.position)),
        "positionValue": value_name(r.value),
        "remoteness": remoteness(r.value),
        "moves": r.moves.iter().map(|m| {
            let mut o = json!({
                "move": m.text,
                "autoguiMove": game.autogui_move(r.position, m.mv).map(|a| a.to_string()),
                "moveValue": value_name(m.value),
                "deltaRemoteness": m.delta_remoteness,
                "position": game.position_to_string(m.child),
                "autoguiPosition": game.autogui_position(m.child),
                "positionValue": value_name(m.child_value),
                "remoteness": remoteness(m.child_value),
            });
            let parts = game.move_parts(r.position, m.mv);
            if !parts.is_empty() {
                o["partMoves"] = json!(parts.iter().map(ToString::to_string).collect::<Vec<_>>());
            }
            o
        }).collect::<Vec<_>>(),
    })
}

async fn position(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<JsonValue>, ApiError> {
    let v = s.variant(&game, &variant)?;
    let g = v.game;
    let oracle = v.oracle.as_ref().map_err(|command| ApiError {
        status: StatusCode::NOT_FOUND,
        body: json!({
            "error": format!("{game} {variant} is not solved yet"),
            "expected": format!("a solved variant; run `{command}` and restart the server"),
            "solveCommand": command,
        }),
    })?;
    let text = q.get("p").ok_or_else(|| {
        ApiError::bad_request(
            "missing query parameter p".into(),
            format!("?p=<position>, e.g. ?p={}", g.position_to_string(g.start())),
        )
    })?;
    let p: Position = if text == "start" {
        g.start()
    } else {
        g.parse_position(text).map_err(|e| {
            ApiError::bad_request(
                format!("{e}"),
                format!("a position like {}", g.position_to_string(g.start())),
            )
        })?
    };
    match oracle.report_stored(p) {
        Ok(Some(report)) => Ok(Json(position_json(g, &report))),
        Ok(None) => Err(ApiError::not_found(
            format!("{text} is not reachable from the start of {game} {variant}"),
            "a position reachable from the start".into(),
        )),
        Err(e) => Err(ApiError::internal(&e)),
    }
}

/// Serves until interrupted.
pub fn serve(data_dir: &Path, port: u16) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
            .await
            .with_context(|| format!("listening on 127.0.0.1:{port}"))?;
        let address = listener.local_addr()?;
        let state = Arc::new(AppState::load(data_dir, true)?);
        for g in &state.games {
            for (id, v) in &g.variants {
                if let Err(command) = &v.oracle {
                    eprintln!("not solved: {} {id} (`{command}` solves it)", g.id);
                }
            }
        }
        println!("perfectplay serving on http://{address}/");
        use std::io::Write;
        std::io::stdout().flush()?;
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
