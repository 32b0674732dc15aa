//! `perfectplay serve`: the web page and a GamesCraftersUWAPI-shaped JSON API (docs/api.md).
//!
//! The API lives under `/api`: `/api/` lists games, `/api/<game>/` a game's variants,
//! `/api/<game>/<variant>/` a variant's start and Image AutoGUI data, and
//! `/api/<game>/<variant>/positions/?p=<position>` a position's value with every move's. The page
//! (`web/`, compiled into the binary) is at `/`.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use perfectplay_core::{Game, GameExt, Position};
use perfectplay_db::Fetch;
use serde_json::{json, Value as JsonValue};

mod cost;
mod solves;
mod variant;

use crate::live::{Answer, LiveSearches};
use crate::oracle::{Oracle, Source, Stored};
use crate::store::Store;
use crate::uwapi;
use solves::{cancel_solve, start_solve, SolveJob};
use variant::{open_database, Answers, Variant};

struct GameEntry {
    id: &'static str,
    name: &'static str,
    default_variant: &'static str,
    /// The listed variants.
    variants: Vec<(String, Variant)>,
    /// Variants asked for by name that are not listed, made on first request.
    unlisted: Mutex<Vec<(String, &'static Variant)>>,
}

/// What the handlers share.
pub struct AppState {
    games: Vec<GameEntry>,
    /// The data directory.
    store: Store,
    /// Held by the one background solve running.
    solving: Mutex<()>,
    /// The live searches of games searched rather than solved.
    live: LiveSearches,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState").field("games", &self.games.len()).finish()
    }
}

impl AppState {
    /// Every listed variant: from its database under `data_dir` if there is one, solved in memory
    /// if it is small, else marked unsolved with the command that solves it.
    pub fn load(store: &Store, log: bool) -> Result<AppState> {
        let mut games = Vec::new();
        for entry in perfectplay_games::catalog() {
            let mut variants = Vec::new();
            for &v in entry.listed_variants {
                let game: &'static dyn Game = Box::leak(entry.variant(Some(v))?);
                variants.push((v.to_string(), Variant::load(store, game, log)?));
            }
            games.push(GameEntry {
                id: entry.id,
                name: entry.name,
                default_variant: entry.default_variant,
                variants,
                unlisted: Mutex::new(Vec::new()),
            });
        }
        Ok(AppState {
            games,
            store: store.clone(),
            solving: Mutex::new(()),
            live: LiveSearches::default(),
        })
    }

    /// A variant's status fields ([`Variant::status_json`]) and, while it is not solved, what its
    /// solve would cost here (`cost`).
    fn status_json(&self, v: &Variant, o: &mut JsonValue) {
        v.status_json(o);
        if o["status"] == "unsolved" {
            o["cost"] = self.cost(v).to_json();
        }
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

    /// A variant by its name: a listed one, else any other the game accepts (made, and solved
    /// in memory if it is small, on its first request), as the command line accepts it.
    fn variant(&self, game: &str, variant: &str) -> Result<&Variant, ApiError> {
        let g = self.game(game)?;
        if let Some((_, v)) = g.variants.iter().find(|(id, _)| id == variant) {
            return Ok(v);
        }
        let mut unlisted = g.unlisted.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, v)) = unlisted.iter().find(|(id, _)| id == variant) {
            return Ok(v);
        }
        let made = perfectplay_games::lookup(game, Some(variant)).map_err(|e| {
            ApiError::not_found(format!("unknown variant {variant:?} of {game}"), e.to_string())
        })?;
        let made: &'static dyn Game = Box::leak(made);
        let v = Variant::load(&self.store, made, false).map_err(|e| ApiError::internal(&e))?;
        // Made once: a variant is kept for the server's life, as the listed ones are.
        let v: &'static Variant = Box::leak(Box::new(v));
        unlisted.push((variant.to_string(), v));
        Ok(v)
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

/// The page's files: path, contents, content type.
const PAGE: &[(&str, &str, &str)] = &[
    ("/", include_str!("../../../web/index.html"), "text/html; charset=utf-8"),
    ("/app.js", include_str!("../../../web/app.js"), "text/javascript; charset=utf-8"),
    ("/board.js", include_str!("../../../web/board.js"), "text/javascript; charset=utf-8"),
    ("/choose.js", include_str!("../../../web/choose.js"), "text/javascript; charset=utf-8"),
    ("/style.css", include_str!("../../../web/style.css"), "text/css; charset=utf-8"),
    // The icon browsers ask for, at both names.
    ("/favicon.svg", include_str!("../../../web/favicon.svg"), "image/svg+xml"),
    ("/favicon.ico", include_str!("../../../web/favicon.svg"), "image/svg+xml"),
];

/// The routes, API and page.
pub fn router(state: Arc<AppState>) -> Router {
    let mut router = Router::new();
    for &(path, body, kind) in PAGE {
        router =
            router.route(path, get(move || async move { ([(header::CONTENT_TYPE, kind)], body) }));
    }
    router
        .route("/health", get(health))
        .route("/api", get(list_games))
        .route("/api/", get(list_games))
        .route("/api/{game}", get(game_info))
        .route("/api/{game}/", get(game_info))
        .route("/api/{game}/{variant}", get(variant_info))
        .route("/api/{game}/{variant}/", get(variant_info))
        .route("/api/{game}/{variant}/positions", get(position))
        .route("/api/{game}/{variant}/positions/", get(position))
        .route("/api/{game}/{variant}/instructions", get(instructions))
        .route("/api/{game}/{variant}/instructions/", get(instructions))
        .route("/api/{game}/{variant}/solve", axum::routing::post(start_solve))
        .route("/api/{game}/{variant}/solve/", axum::routing::post(start_solve))
        .route("/api/{game}/{variant}/solve/cancel", axum::routing::post(cancel_solve))
        .fallback(|| async {
            ApiError::not_found(
                "no such page".into(),
                "/, /api/, /api/<game>/, /api/<game>/<variant>/, \
                 /api/<game>/<variant>/positions/?p=<position>"
                    .into(),
            )
        })
        .layer(axum::middleware::from_fn(bounded))
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

/// Refuses a query string longer than [`MOST_QUERY`] (`414`) and a body announced longer than
/// [`MOST_BODY`] (`413`), with a JSON error, before any handler.
async fn bounded(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let query = request.uri().query().map_or(0, str::len);
    let body = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
        .unwrap_or(0);
    let refused = |status, error: String, expected: String| {
        ApiError { status, body: json!({"error": error, "expected": expected}) }.into_response()
    };
    if query > MOST_QUERY {
        return refused(
            StatusCode::URI_TOO_LONG,
            format!("a query string of {query} bytes"),
            format!("at most {MOST_QUERY} bytes"),
        );
    }
    if body > MOST_BODY {
        return refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a body of {body} bytes"),
            format!("at most {MOST_BODY} bytes (no request needs one)"),
        );
    }
    next.run(request).await
}

/// `GET /health`: the server answers, how loaded its live searches are (running of the most
/// that run at once, waiting of the most that wait), and the bytes its databases' block caches
/// hold of the most they may.
async fn health(State(s): Shared) -> Json<JsonValue> {
    let (running, waiting) = s.live.load();
    let (mut cached, mut budget) = (0usize, 0usize);
    for g in &s.games {
        let unlisted = g.unlisted.lock().unwrap_or_else(|e| e.into_inner());
        for v in g.variants.iter().map(|(_, v)| v).chain(unlisted.iter().map(|&(_, v)| v)) {
            let answers = v.answers.read().unwrap_or_else(|e| e.into_inner());
            if let Answers::Ready { oracle, .. } = &*answers {
                if let Source::Disk(db) = oracle.source() {
                    let (bytes, most) = db.cache_bytes();
                    (cached, budget) = (cached + bytes, budget + most);
                }
            }
        }
    }
    Json(json!({
        "ok": true,
        "blockCaches": {"bytes": cached, "budget": budget},
        "liveSearches": {
            "running": running,
            "runningMost": crate::live::RUNNING,
            "waiting": waiting,
            "waitingMost": crate::live::QUEUED,
            "perClientMost": crate::live::PER_CLIENT,
        },
    }))
}

/// A listing's query: `?all` was once needed for unsolved variants, and is still accepted.
type Listing = Query<HashMap<String, String>>;

impl GameEntry {
    /// The listing's `gui`: the best of its variants'.
    fn gui(&self) -> &'static str {
        uwapi::gui_level(self.variants.iter().any(|(_, v)| v.theme.is_some()))
    }
}

/// Every game, each with every variant: a variant not solved yet plays all the same, its values
/// unknown ("unsolved"), until it is solved.
async fn list_games(State(s): Shared, Query(_): Listing) -> Json<JsonValue> {
    Json(JsonValue::Array(
        s.games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "name": g.name,
                    "type": "twoPlayer",
                    "gui": g.gui(),
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
    Query(_): Listing,
) -> Result<Json<JsonValue>, ApiError> {
    let g = s.game(&game)?;
    Ok(Json(json!({
        "id": g.id,
        "name": g.name,
        "gui": g.gui(),
        "defaultVariant": g.default_variant,
        "allowCustomVariantCreation": false,
        "supportsWinBy": false,
        "variants": g.variants.iter().map(|(id, v)| {
            let mut o = json!({
                "id": id,
                "name": id,
                "gui": uwapi::gui_level(v.theme.is_some()),
                "description": v.game.variant_description(),
            });
            s.status_json(v, &mut o);
            o
        }).collect::<Vec<_>>(),
    })))
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
        "gui": uwapi::gui_level(v.theme.is_some()),
        "game": g.id(),
        "gameName": g.name(),
        "players": g.player_names(),
        "startPosition": v.map.position_text(g, start),
        "autoguiStartPosition": g.autogui_position(start),
        "imageAutoGUIData": v.theme,
        "multipart": v.multipart,
        "moveSyntax": g.move_syntax(),
        "rules": perfectplay_games::rules(g.id()),
        "description": g.variant_description(),
    });
    if let Some(oracle) = v.oracle() {
        o["highestRemoteness"] = json!(oracle.highest_remoteness());
    }
    s.status_json(v, &mut o);
    Ok(Json(o))
}

/// `GET /api/<game>/<variant>/instructions/?locale=`: the rules in words (Markdown). English
/// only: every locale gets it.
async fn instructions(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
) -> Result<Json<JsonValue>, ApiError> {
    let v = s.variant(&game, &variant)?;
    let rules = perfectplay_games::rules(v.game.id()).unwrap_or_default();
    Ok(Json(json!({ "instructions": format!("# {}\n\n{rules}", v.game.name()) })))
}

/// A position's answer: on the async worker when the database blocks it needs are in the cache
/// (most requests), else on the blocking pool, where a read may wait on the disk and decompress
/// a block without holding up the async workers. (Handing every request to the blocking pool
/// cost a third of the throughput in thread switches.) A variant not solved yet answers with its
/// moves, values unknown.
async fn position(
    State(s): Shared,
    UrlPath((game, variant)): UrlPath<(String, String)>,
    axum::extract::ConnectInfo(client): axum::extract::ConnectInfo<SocketAddr>,
    axum::extract::RawQuery(q): axum::extract::RawQuery,
) -> Result<Response, ApiError> {
    let p = q.as_deref().and_then(|q| uwapi::query_value(q, "p"));
    let asked = asked(&s, &game, &variant, p.as_deref())?;
    let Some(oracle) = &asked.oracle else {
        let shown = uwapi::Shown::unsolved(asked.variant.game, asked.position, &|_| None);
        let mut body = shown_json(&asked, &shown)?;
        asked.variant.status_json(&mut body);
        return Ok(Json(body).into_response());
    };
    if let Source::Live = oracle.source() {
        return live_position(&s, client.ip(), &asked, oracle).await;
    }
    if let Some(answer) = position_now(&asked, oracle, Fetch::CachedOnly)? {
        return Ok(Json(answer).into_response());
    }
    tokio::task::spawn_blocking(move || {
        let asked = self::asked(&s, &game, &variant, p.as_deref())?;
        let oracle = asked.oracle.clone().ok_or_else(|| {
            ApiError::internal(&anyhow::anyhow!("{game} {variant} is no longer solved"))
        })?;
        position_now(&asked, &oracle, Fetch::Read)
    })
    .await
    .map_err(|e| ApiError::internal(&anyhow::anyhow!(e)))?
    .and_then(|answer| {
        answer.ok_or_else(|| ApiError::internal(&anyhow::anyhow!("a read answered nothing")))
    })
    .map(|answer| Json(answer).into_response())
}

/// A position asked about: its variant, the oracle (none while the variant is not solved), the
/// position, its text and the parts of a multipart move chosen so far.
struct Asked<'s> {
    variant: &'s Variant,
    oracle: Option<Arc<Oracle<'static>>>,
    position: Position,
    real: String,
    parts: Vec<String>,
}

/// Reads a position request: `p` is `<position>` or `<position>;<part>;...` (a state inside a
/// multipart move, UWAPI's form).
fn asked<'s>(
    s: &'s AppState,
    game: &str,
    variant: &str,
    p: Option<&str>,
) -> Result<Asked<'s>, ApiError> {
    let v = s.variant(game, variant)?;
    let g = v.game;
    let oracle = v.oracle();
    let text = p.ok_or_else(|| {
        ApiError::bad_request(
            "missing query parameter p".into(),
            format!("?p=<position>, e.g. ?p={}", v.map.position_text(g, g.start())),
        )
    })?;
    let mut pieces = text.split(';');
    let real = pieces.next().unwrap_or_default().to_string();
    let parts: Vec<String> = pieces.map(str::to_string).collect();
    let position: Position = if real == "start" {
        g.start()
    } else {
        match g.parse_position(&real) {
            Ok(p) => p,
            Err(e) => uwapi::parse_autogui(g, &real).ok_or_else(|| {
                ApiError::bad_request(
                    format!("{e}"),
                    format!("a position like {}", v.map.position_text(g, g.start())),
                )
            })?,
        }
    };
    Ok(Asked { variant: v, oracle, position, real, parts })
}

/// A position as shown, in the API's form (with the multipart move's state).
fn shown_json(asked: &Asked<'_>, shown: &uwapi::Shown) -> Result<JsonValue, ApiError> {
    let (v, g) = (asked.variant, asked.variant.game);
    let text = v.map.position_text(g, asked.position);
    uwapi::position_json(g, &v.map, shown, &text, &asked.parts).ok_or_else(|| {
        ApiError::bad_request(
            format!(
                "{};{}: no move of {} begins with the parts {}",
                asked.real,
                asked.parts.join(";"),
                asked.real,
                asked.parts.join(";")
            ),
            "<position>;<part>;... where each part is the autoguiMove of a move offered".into(),
        )
    })
}

/// A position of a game searched live: the answer if its search ends soon, else `202 Accepted`
/// with the search's progress (`{"searching": {"done", "total", "seconds", "queued"}}`) and the
/// moves, each move's value "unsolved" until its search ends, so that play goes on; the page
/// asks again until the answer comes. When no search can start or wait its turn for `client`
/// (the bounds in [`crate::live`]), `503 Service Unavailable` with `Retry-After`, the same
/// moves, and `{"busy": {"retryAfter", "why"}}`.
async fn live_position(
    s: &AppState,
    client: IpAddr,
    asked: &Asked<'_>,
    oracle: &Arc<Oracle<'static>>,
) -> Result<Response, ApiError> {
    let g = asked.variant.game;
    let key = format!("{}/{}", g.id(), g.variant());
    match s.live.answer(&key, client, oracle, asked.position).await {
        Ok(Answer::Busy { retry_after, why }) => {
            let mut body =
                shown_json(asked, &uwapi::Shown::unsolved(g, asked.position, &|_| None))?;
            body["error"] = json!(format!("busy: {why}; ask again in {retry_after} s"));
            body["busy"] = json!({"retryAfter": retry_after, "why": why});
            let retry = [(header::RETRY_AFTER, retry_after.to_string())];
            Ok((StatusCode::SERVICE_UNAVAILABLE, retry, Json(body)).into_response())
        }
        Ok(Answer::Ready(report)) => {
            Ok(Json(shown_json(asked, &uwapi::Shown::solved(&report))?).into_response())
        }
        Ok(Answer::Searching(progress, known)) => {
            let shown = uwapi::Shown::unsolved(g, asked.position, &|c| known.get(&c).copied());
            let mut body = shown_json(asked, &shown)?;
            body["searching"] = progress;
            Ok((StatusCode::ACCEPTED, Json(body)).into_response())
        }
        Err(e) => Err(ApiError::internal(&anyhow::anyhow!(e))),
    }
}

/// A solved position's answer; `Ok(None)` where `fetch` is [`Fetch::CachedOnly`] and a block it
/// needs is not cached.
fn position_now(
    asked: &Asked<'_>,
    oracle: &Oracle<'static>,
    fetch: Fetch,
) -> Result<Option<JsonValue>, ApiError> {
    let report = match oracle.report_stored(asked.position, fetch) {
        Ok(Stored::Report(report)) => report,
        Ok(Stored::NotCached) => return Ok(None),
        Ok(Stored::Unreached) => {
            let g = asked.variant.game;
            return Err(ApiError::not_found(
                format!(
                    "{} is not reachable from the start of {} {}",
                    asked.real,
                    g.id(),
                    g.variant()
                ),
                "a position reachable from the start".into(),
            ));
        }
        Err(e) => return Err(ApiError::internal(&e)),
    };
    shown_json(asked, &uwapi::Shown::solved(&report)).map(Some)
}

/// How long a client has to send a request's head, once the connection is open or the last
/// answer went: a silent or slow client (a byte a second) is cut off after it.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The most connections held at once, whatever the open-files limit allows beyond it.
const MOST_CONNECTIONS: u64 = 50_000;

/// Open files kept back from connections (databases, tier files, the solver's).
const FILES_KEPT: u64 = 512;

/// Connections the kernel queues before they are accepted (capped by `net.core.somaxconn`).
const LISTEN_QUEUE: u32 = 4096;

/// The longest query string answered; a longer one is `414`.
const MOST_QUERY: usize = 8 << 10;

/// The longest request body announced; a longer one is `413` (no route reads a body).
const MOST_BODY: u64 = 64 << 10;

/// Serves until interrupted. Each connection is served by hyper's HTTP/1 with a deadline for
/// every request's head ([`HEAD_TIMEOUT`]); the open-files limit is raised to the hard one and
/// connections past what it allows (or [`MOST_CONNECTIONS`]) are closed as they come, so that
/// idle and slow clients cannot stop the server accepting others.
pub fn serve(store: &Store, port: u16) -> Result<()> {
    let files = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    let most = files.saturating_sub(FILES_KEPT).clamp(64, MOST_CONNECTIONS) as usize;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        // A long queue of connections not yet accepted (the default 128 overflows under a
        // burst of connections, and each connection dropped there waits a second to try again).
        let listen = || -> std::io::Result<tokio::net::TcpListener> {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.set_reuseaddr(true)?;
            socket.bind(SocketAddr::from(([127, 0, 0, 1], port)))?;
            socket.listen(LISTEN_QUEUE)
        };
        let listener = listen().with_context(|| format!("listening on 127.0.0.1:{port}"))?;
        let address = listener.local_addr()?;
        let state = Arc::new(AppState::load(store, true)?);
        for g in &state.games {
            for (id, v) in &g.variants {
                if let Answers::Unsolved { command, .. } =
                    &*v.answers.read().unwrap_or_else(|e| e.into_inner())
                {
                    eprintln!("not solved: {} {id} (`{command}` solves it, or the page)", g.id);
                }
            }
        }
        println!("perfectplay serving on http://{address}/");
        use std::io::Write;
        std::io::stdout().flush()?;
        let router = router(state);
        let connections = Arc::new(tokio::sync::Semaphore::new(most));
        let interrupted = tokio::signal::ctrl_c();
        tokio::pin!(interrupted);
        loop {
            let (stream, client) = tokio::select! {
                _ = &mut interrupted => break,
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    // Out of open files, or a connection gone before it was taken: a moment,
                    // then the next.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                },
            };
            let Ok(held) = connections.clone().try_acquire_owned() else {
                continue; // past the most held: closed at once
            };
            let _ = stream.set_nodelay(true);
            let router = router.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |mut request: hyper::Request<hyper::body::Incoming>| {
                        request.extensions_mut().insert(axum::extract::ConnectInfo(client));
                        tower::ServiceExt::oneshot(router.clone(), request)
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(HEAD_TIMEOUT)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
                drop(held);
            });
        }
        Ok(())
    })
}
