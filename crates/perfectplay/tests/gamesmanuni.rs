//! GamesmanUni (GamesCrafters' Vue client of GamesCraftersUWAPI) replayed against our API: its
//! requests, sent as it sends them, and every field it reads checked the way it reads them, for
//! every game and variant it lists. What it requests and reads is written here from its source
//! (GamesCrafters/GamesmanUni, v5.0.35):
//! - `src/scripts/apis/gamesCrafters/index.ts`: `loadData` fails on a non-2xx answer or a body with
//!   an `error` key; the requests are `{base}`, `{base}<game>/`, `{base}<game>/<variant>/`,
//!   `{base}<game>/<variant>/positions/?p=<position>` (the position *not* URL-encoded) and
//!   `{base}<game>/<variant>/instructions/?locale=<locale>`.
//! - `src/scripts/apis/gamesCrafters/types.ts`: the fields of each answer.
//! - `src/components/templates/AppGames.vue`: a game is listed only with `type` `twoPlayer` (or
//!   `onePlayer`) and `gui` one of `v0`-`v3`; `name` is lower-cased for the search.
//! - `src/scripts/gamesmanUni/index.ts`: moves are keyed by `autoguiMove` (so unique), sorted best
//!   first; a match ends when `remoteness` is 0 or there are no moves; the computer picks among
//!   moves whose `moveValue` equals the `positionValue`; the turn comes from `autoguiPosition`'s
//!   `1_`/`2_`.
//! - `src/components/units/GameBody/ImageAutoGUI.vue`: `autoguiPosition` must match
//!   `^(1|2)_([a-zA-Z0-9-\.~]+)`; `charImages` and `background` name images bundled with the
//!   client (an unknown one throws, an empty `background` too); a button `A_<c>_<n>` whose `c` has
//!   a `charImages` entry is drawn from that image's `#MoveButtonSVG`; a move whose `autoguiMove`
//!   is not a button (`A_`, `M_`, `L_`, `T_`, `LQ_`, `LC_`, `LA_`) is listed and a click on it sends
//!   its `move`, so the two must be equal; `moveValue[0]` is upper-cased for the tooltip.
//! - `src/scripts/gamesmanUni/remoteness.ts`: a draw's remoteness is `INFINITY`, -200; an
//!   unknown one `FINITE_UNKNOWN`, -100.
//! - `AppGameBodyStatisticsMessage.vue` and `getBestMove`: a position whose value is `unsolved`
//!   says whose turn it is, and its computer picks among all its moves.
//! - `src/components/units/GameBody/CustomGUITicTacToe.vue`: Tic-Tac-Toe's board reads `position`
//!   as `1_---------` and a move's cell as `autoguiMove[4]`.

mod common;

use std::collections::HashSet;

use common::Server;
use serde_json::Value;

/// The bundled images of GamesmanUni we may name (`src/models/images/svg/`).
const BUNDLED: &[&str] = &[
    "general/whitepiece.svg",
    "general/blackpiece.svg",
    "general/redpiece.svg",
    "general/bluepiece.svg",
    "general/brownpiece.svg",
    "general/green_circle.svg",
    "general/yellow_circle.svg",
    "general/orange_circle.svg",
    "general/purple_circle.svg",
    "general/teal_circle.svg",
    "general/pink_circle.svg",
    "general/brown_circle.svg",
    "general/0.svg",
    "general/1.svg",
    "general/2.svg",
    "general/3.svg",
    "general/4.svg",
    "general/5.svg",
    "general/6.svg",
    "general/7.svg",
    "general/8.svg",
    "general/9.svg",
];

/// A request as GamesmanUni's browser sends it: the position pasted into the URL unencoded; the
/// browser's URL parser escapes only spaces, quotes and angle brackets in a query, and a `#` would
/// cut it short.
fn unencoded(p: &str) -> String {
    assert!(!p.contains('#') && !p.contains('&'), "{p:?} does not survive a URL unencoded");
    p.replace(' ', "%20").replace('"', "%22").replace('<', "%3C").replace('>', "%3E")
}

/// `loadData`: a 2xx answer without an `error` key (a live search's `202` with its moves
/// included). A `503` (the server has no room for another live search now) is asked again after
/// its `retryAfter`, as a player would.
fn load(server: &Server, path: &str) -> Value {
    let (mut status, mut body) = server.get(path);
    for _ in 0..10 {
        let Some(wait) = body["busy"]["retryAfter"].as_u64().filter(|_| status == 503) else {
            break;
        };
        std::thread::sleep(std::time::Duration::from_secs(wait));
        (status, body) = server.get(path);
    }
    assert!((200..300).contains(&status), "{path}: {status} {body}");
    assert!(body.get("error").is_none(), "{path}: {body}");
    body
}

/// Whether ImageAutoGUI.vue draws an `autoguiMove` as a board button.
fn is_button(m: &str) -> bool {
    ["A_", "M_", "L_", "T_", "LQ_", "LC_", "LA_"].iter().any(|p| m.starts_with(p))
}

/// Checks one position answer as GamesmanUni reads it.
fn check(game: &str, theme: Option<&Value>, path: &str, pos: &Value) {
    let value = pos["positionValue"].as_str().unwrap_or_else(|| panic!("{path}: {pos}"));
    assert!(["win", "lose", "tie", "draw", "unsolved"].contains(&value), "{path}: {value}");
    let remoteness = pos["remoteness"].as_i64().unwrap_or_else(|| panic!("{path}: {pos}"));
    assert!(pos["position"].is_string(), "{path}");
    let autogui = pos["autoguiPosition"].as_str().unwrap();
    if let Some(theme) = theme {
        let (turn, board) = autogui.split_at(2);
        assert!(turn == "1_" || turn == "2_", "{path}: {autogui}");
        assert!(!board.is_empty(), "{path}: {autogui}");
        let images = theme["charImages"].as_object().unwrap();
        let entities = theme["entities"].as_object().unwrap();
        for c in board.chars() {
            // Its pattern stops at the first other character; what our page draws needs an image.
            assert!(c.is_ascii_alphanumeric() || "-.~".contains(c), "{path}: {c:?} in {autogui}");
            let drawn = entities.contains_key(&c.to_string());
            assert!(!drawn || images.contains_key(&c.to_string()), "{path}: {c:?} has no image");
        }
        assert_eq!(board.chars().count(), theme["centers"].as_array().unwrap().len(), "{path}");
    }
    let moves = pos["moves"].as_array().unwrap();
    // The match ends at remoteness 0 or no moves: both together, and draws never at 0.
    assert_eq!(remoteness == 0, moves.is_empty(), "{path}: {pos}");
    match value {
        "draw" => assert_eq!(remoteness, -200, "{path}"),
        // Not known yet (not solved, or searched live): its `FINITE_UNKNOWN`, never 0.
        "unsolved" => assert_eq!(remoteness, -100, "{path}"),
        _ => assert!(remoteness >= 0, "{path}"),
    }
    let mut keys = HashSet::new();
    for m in moves {
        let key = m["autoguiMove"].as_str().unwrap_or_else(|| panic!("{path}: {m}"));
        assert!(keys.insert(key), "{path}: two moves share autoguiMove {key}");
        let name = m["move"].as_str().unwrap();
        if !is_button(key) || theme.is_none() {
            assert_eq!(key, name, "{path}: a listed move must click as itself");
        }
        if let (Some(theme), true) = (theme, key.starts_with("A_")) {
            let c = key.split('_').nth(1).unwrap();
            let drawn_from_image = theme["charImages"].get(c).is_some();
            assert!(!drawn_from_image || game == "tictactoe", "{path}: button {key} is invisible");
        }
        let mv = m["moveValue"].as_str().unwrap();
        assert!(!mv.is_empty());
        let r = m["remoteness"].as_i64().unwrap();
        let child_value = m["positionValue"].as_str().unwrap();
        assert_eq!(r == -200, child_value == "draw", "{path}: {m}");
        assert_eq!(r == -100, child_value == "unsolved", "{path}: {m}");
        assert!(m["position"].is_string() && m["autoguiPosition"].as_str().unwrap().contains('_'));
        assert!(m["deltaRemoteness"].as_i64().is_some(), "{path}: {m}");
    }
    if !moves.is_empty() {
        let order = |v: &str| {
            ["win", "tie", "draw", "unsolved", "lose"].iter().position(|x| *x == v).unwrap()
        };
        let values: Vec<usize> =
            moves.iter().map(|m| order(m["moveValue"].as_str().unwrap())).collect();
        assert!(values.windows(2).all(|w| w[0] <= w[1]), "{path}: not best first");
        // The computer's choice exists (where the value is unknown, it chooses among them all).
        assert!(
            value == "unsolved" || moves.iter().any(|m| m["moveValue"] == value),
            "{path}: no move worth {value}"
        );
    }
    if game == "tictactoe" {
        let p = pos["position"].as_str().unwrap();
        assert!(p.len() == 11 && (p.starts_with("1_") || p.starts_with("2_")), "{p}");
        for m in moves {
            let key = m["autoguiMove"].as_str().unwrap();
            assert!(key.as_bytes()[4].is_ascii_digit() && "xo".contains(&key[2..3]), "{key}");
        }
    }
}

#[test]
fn gamesmanuni_plays_every_listed_game_and_variant() {
    let server = Server::start("gamesmanuni");
    let base = "/api/";
    let games = load(&server, base);
    let games = games.as_array().unwrap();
    assert!(games.len() >= 20);
    let mut walked = 0;
    // Every kind of variant is walked: solved (in memory or live) and not solved.
    let mut statuses = HashSet::new();
    for g in games {
        let id = g["id"].as_str().unwrap();
        assert_eq!(g["type"], "twoPlayer", "{id}");
        assert!(["v0", "v1", "v2", "v3"].contains(&g["gui"].as_str().unwrap()), "{id}");
        assert!(!g["name"].as_str().unwrap().is_empty());
        let game = load(&server, &format!("{base}{id}/"));
        assert!(
            game["allowCustomVariantCreation"].is_boolean() && game["supportsWinBy"].is_boolean()
        );
        let variants = game["variants"].as_array().unwrap();
        assert!(!variants.is_empty(), "{id}: listed with no playable variant");
        for v in variants {
            let vid = v["id"].as_str().unwrap();
            assert!(v["name"].is_string() && v["gui"].is_string(), "{id} {vid}");
            let status = v["status"].as_str().unwrap();
            assert!(["solved", "unsolved"].contains(&status), "{id} {vid}: {status}");
            statuses.insert((status.to_string(), v["source"].as_str().unwrap().to_string()));
            let variant = load(&server, &format!("{base}{id}/{vid}/"));
            let start = variant["startPosition"].as_str().unwrap().to_string();
            let data = &variant["imageAutoGUIData"];
            let theme = if data.is_null() {
                None
            } else {
                let name = data["defaultTheme"].as_str().unwrap();
                let theme = &data["themes"][name];
                assert!(theme.is_object(), "{id} {vid}: defaultTheme names no theme");
                assert!(theme.get("background").is_none(), "{id} {vid}: not a bundled image");
                for image in theme["charImages"].as_object().unwrap().values() {
                    let path = image["image"].as_str().unwrap();
                    assert!(BUNDLED.contains(&path), "{id} {vid}: {path} is not bundled");
                    assert!(image["scale"].as_f64().unwrap() > 0.0);
                }
                Some(theme)
            };
            let rules = load(&server, &format!("{base}{id}/{vid}/instructions/?locale=en-US"));
            assert!(rules["instructions"].as_str().unwrap().len() > 40, "{id} {vid}");
            // A match: the start, then always the first move offered (the client's clicks follow
            // `position` of the chosen move), to the end or 40 requests.
            let mut p = start;
            // A game searched live: a few positions (each starts a search of its own).
            let most = if v["source"] == "live" { 6 } else { 40 };
            for _ in 0..most {
                let path = format!("{base}{id}/{vid}/positions/?p={}", unencoded(&p));
                let pos = load(&server, &path);
                check(id, theme, &path, &pos);
                walked += 1;
                let moves = pos["moves"].as_array().unwrap();
                // Vary the walk: the last move offered, which is often a worse one.
                let Some(next) = moves.get(walked % moves.len().max(1)) else { break };
                p = next["position"].as_str().unwrap().to_string();
            }
        }
    }
    assert!(walked > 500, "{walked}");
    for kind in [("solved", "memory"), ("solved", "live"), ("unsolved", "unsolved")] {
        let kind = (kind.0.to_string(), kind.1.to_string());
        assert!(statuses.contains(&kind), "no variant listed as {kind:?}: {statuses:?}");
    }
}
