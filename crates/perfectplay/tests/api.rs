//! The JSON API end to end against the built binary: every route, every error path, values that
//! agree with each other move by move, and fuzzed position strings that never break the server.

mod common;

use common::{encode, Server};
use serde_json::Value;

fn rank(value: &str, remoteness: &Value) -> i64 {
    let r = remoteness.as_i64().unwrap_or(0);
    match value {
        "lose" => r,
        "draw" => 10_000,
        "tie" => 30_000 - r,
        "win" => 50_000 - r,
        v => panic!("value {v}"),
    }
}

fn parent_value(child: &str) -> &'static str {
    match child {
        "win" => "lose",
        "lose" => "win",
        "tie" => "tie",
        _ => "draw",
    }
}

/// Checks a position answer against the answers for each of its children.
fn check_position(server: &Server, game: &str, variant: &str, body: &Value) {
    // Whole moves: UWAPI's list where no move comes in parts, else ours (`fullMoves`).
    let moves = body.get("fullMoves").unwrap_or(&body["moves"]).as_array().unwrap();
    let mut last = i64::MAX;
    for m in moves {
        let r = rank(m["moveValue"].as_str().unwrap(), &m["remoteness"]);
        assert!(r <= last, "moves not sorted best first: {body}");
        last = r;
        assert_eq!(m["moveValue"], parent_value(m["positionValue"].as_str().unwrap()));
        let (status, child) = server.get(&format!(
            "/api/{game}/{variant}/positions/?p={}",
            encode(m["position"].as_str().unwrap())
        ));
        assert_eq!(status, 200, "{child}");
        assert_eq!(child["positionValue"], m["positionValue"]);
        assert_eq!(child["remoteness"], m["remoteness"]);
        assert_eq!(child["autoguiPosition"], m["autoguiPosition"]);
    }
    // The position's value is its best move's value, one move further.
    if let Some(best) = moves.first() {
        assert_eq!(body["positionValue"], best["moveValue"], "{body}");
        let r = best["remoteness"].as_i64().unwrap();
        if best["moveValue"] == "draw" {
            assert_eq!((r, body["remoteness"].as_i64()), (-200, Some(-200)), "{body}");
        } else {
            assert_eq!(body["remoteness"].as_i64(), Some(r + 1), "{body}");
        }
    }
}

#[test]
fn every_route_answers_in_uwapi_shape() {
    let server = Server::start("routes");
    let (status, games) = server.get("/api/");
    assert_eq!(status, 200);
    let ids: Vec<&str> =
        games.as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    // Every game, those with no variant solved included (Nine Men's Morris has none in memory):
    // a variant not solved plays with its values unknown. `?all` is still accepted.
    let (_, every) = server.get("/api/?all=1");
    assert_eq!(every, games);
    let catalog: Vec<&str> = perfectplay_games::catalog().iter().map(|e| e.id).collect();
    assert_eq!(ids, catalog);
    assert_eq!(ids[..4], ["tictactoe", "tictactwo", "konane", "fivefieldkono"]);
    assert!(ids.len() >= 20, "{ids:?}");
    assert!(games[0]["name"] == "Tic-Tac-Toe");
    assert_eq!(server.get("/api").1, games);

    let (status, ttt) = server.get("/api/tictactoe/");
    assert_eq!(status, 200);
    assert_eq!(ttt["variants"][0]["id"], "regular");
    assert_eq!(ttt["variants"][0]["status"], "solved");
    let (_, konane) = server.get("/api/konane");
    let big =
        konane["variants"].as_array().unwrap().iter().find(|v| v["id"] == "6x6-corner").unwrap();
    assert_eq!(big["status"], "unsolved");
    assert_eq!(big["solveCommand"], "perfectplay solve konane --variant 6x6-corner");

    let (status, v) = server.get("/api/tictactoe/regular/");
    assert_eq!(status, 200);
    // GamesmanUni's Tic-Tac-Toe board reads positions in AutoGUI form.
    assert_eq!(v["startPosition"], "1_---------");
    assert_eq!(v["autoguiStartPosition"], "1_---------");
    let theme =
        &v["imageAutoGUIData"]["themes"][v["imageAutoGUIData"]["defaultTheme"].as_str().unwrap()];
    assert_eq!(theme["centers"].as_array().unwrap().len(), 9);
    assert!(theme["entities"]["x"]["svg"].as_str().unwrap().contains("<path"));
    assert_eq!(v["multipart"], false);

    let (status, start) = server.get("/api/tictactoe/regular/positions/?p=start");
    assert_eq!(status, 200);
    assert_eq!(start["positionValue"], "tie");
    assert_eq!(start["remoteness"], 9);
    assert_eq!(start["moves"].as_array().unwrap().len(), 9);
    assert_eq!(start["moves"][0]["autoguiMove"].as_str().unwrap().split('_').next(), Some("A"));
    check_position(&server, "tictactoe", "regular", &start);
    let (_, same) = server.get("/api/tictactoe/regular/positions?p=---------");
    assert_eq!(same, start);
    let (_, same) = server.get("/api/tictactoe/regular/positions?p=1_---------");
    assert_eq!(same, start);

    // Konane: arrows, and moves in two parts (select the stone, then where it lands).
    let (_, v) = server.get("/api/konane/5x5-corner/");
    assert_eq!(v["multipart"], true);
    // Tic-Tac-Two's start has only placements; its grid and mark moves come in parts later.
    let (_, v) = server.get("/api/tictactwo/2-marks/");
    assert_eq!(v["multipart"], true);
    let (_, p) = server.get(&format!(
        "/api/konane/5x5-corner/positions/?p={}",
        encode("..xox/oxoxo/xoxox/oxoxo/xoxox x")
    ));
    assert_eq!(p["fullMoves"][0]["autoguiMove"], "M_10_0_x");
    assert_eq!(p["fullMoves"][0]["partMoves"], serde_json::json!(["A_s_10_x", "A_t_0_x"]));
    check_position(&server, "konane", "5x5-corner", &p);

    // Five Field Kono's small board: arrows along the diagonals.
    let (_, p) = server.get("/api/fivefieldkono/4x4-regular/positions/?p=start");
    assert!(p["moves"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["autoguiMove"].as_str().unwrap().starts_with("M_")));
    check_position(&server, "fivefieldkono", "4x4-regular", &p);

    // The page and its files.
    let (status, kind, body) = server.get_raw("/");
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html") && body.contains("/app.js"));
    for script in ["/app.js", "/board.js", "/choose.js"] {
        assert_eq!(server.get_raw(script).1, "text/javascript; charset=utf-8", "{script}");
        assert!(body.contains(&format!("<script src=\"{script}\">")), "{script}");
    }
    assert!(server.get_raw("/style.css").1.starts_with("text/css"));
}

#[test]
fn every_error_is_json_saying_what_was_expected() {
    let server = Server::start("errors");
    for (path, status, says) in [
        ("/api/chess/", 404, "unknown game"),
        ("/api/chess/regular/positions/?p=start", 404, "unknown game"),
        ("/api/tictactoe/misere/", 404, "unknown variant"),
        ("/api/konane/9x9-corner/positions/?p=start", 404, "unknown variant"),
        ("/api/tictactoe/regular/positions/", 400, "missing query parameter p"),
        ("/api/tictactoe/regular/positions/?p=xx", 400, "malformed position"),
        ("/api/tictactoe/regular/positions/?p=xxx------", 400, "X moves first"),
        ("/api/konane/4x4-corner/positions/?p=xoxo%2Foxox%2Fxoxo%2Foxox%20x", 404, "not reachable"),
        ("/nothing/here", 404, "no such page"),
    ] {
        let (got, body) = server.get(path);
        assert_eq!(got, status, "{path}: {body}");
        let error = body["error"].as_str().unwrap_or_else(|| panic!("{path}: {body}"));
        assert!(error.contains(says), "{path}: {error}");
        assert!(body["expected"].as_str().is_some_and(|e| !e.is_empty()), "{path}: {body}");
    }
}

/// A variant the game accepts that is not listed is served as the command line would serve it:
/// a small one solved in memory on its first request (Chomp 5x2), a large one unsolved with the
/// command that solves it (Konane 7x8), its moves offered with values unknown; it stays out of
/// the listings.
#[test]
fn a_variant_not_listed_is_served_as_the_command_line_accepts_it() {
    let server = Server::start("unlisted");
    let (status, body) = server.get("/api/chomp/5x2/");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], "5x2");
    let (status, body) = server.get("/api/chomp/5x2/positions/?p=start");
    assert_eq!(status, 200, "{body}");
    check_position(&server, "chomp", "5x2", &body);
    // Asked again, the same variant answers (made once).
    let (again, _) = server.get("/api/chomp/5x2/positions/?p=start");
    assert_eq!(again, 200);
    let (status, body) = server.get("/api/konane/7x8-corner/positions/?p=start");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["positionValue"].as_str(), body["status"].as_str()),
        (Some("unsolved"), Some("unsolved"))
    );
    assert!(body["solveCommand"].as_str().unwrap().contains("solve konane --variant 7x8-corner"));
    // Black's first move removes a stone: each of them offered, as a part of the move.
    let moves = body["moves"].as_array().unwrap();
    assert!(!moves.is_empty() && moves.iter().all(|m| m["moveValue"] == "unsolved"), "{body}");
    let (_, game) = server.get("/api/chomp/?all");
    let listed: Vec<&str> =
        game["variants"].as_array().unwrap().iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert!(!listed.contains(&"5x2"), "{listed:?}");
}

/// Random and mutated position strings: every answer is 200 with a consistent body, or a 4xx
/// JSON error; the server never fails or goes away.
#[test]
fn fuzzed_positions_never_break_the_server() {
    let server = Server::start("fuzz");
    let mut stream = perfectplay_core::xorshift(0x853c_49e6_748f_ea9b);
    let mut next = move |n: usize| (stream() % n as u64) as usize;
    let alphabet: Vec<char> = "xo.-/ XO_é1%\u{0}\n".chars().collect();
    for (game, variant) in
        [("tictactoe", "regular"), ("konane", "4x4-corner"), ("fivefieldkono", "4x4-regular")]
    {
        let (_, start) = server.get(&format!("/api/{game}/{variant}/positions/?p=start"));
        let seed: Vec<char> = start["position"].as_str().unwrap().chars().collect();
        let (mut ok, mut refused) = (0, 0);
        for i in 0..150 {
            let text: String = if i % 3 == 0 {
                (0..next(40)).map(|_| alphabet[next(alphabet.len())]).collect()
            } else {
                let mut t = seed.clone();
                for _ in 0..=next(3) {
                    let at = next(t.len());
                    t[at] = alphabet[next(6)];
                }
                t.into_iter().collect()
            };
            let (status, body) =
                server.get(&format!("/api/{game}/{variant}/positions/?p={}", encode(&text)));
            match status {
                200 => {
                    assert!(["win", "lose", "tie", "draw"]
                        .contains(&body["positionValue"].as_str().unwrap()));
                    ok += 1;
                }
                400 | 404 => {
                    assert!(body["error"].is_string(), "{text:?}: {body}");
                    refused += 1;
                }
                s => panic!("{game} {text:?}: status {s}: {body}"),
            }
        }
        assert!(ok > 0 && refused > 0, "{game}: {ok} answered, {refused} refused");
    }
}

#[test]
fn a_database_in_the_data_directory_is_served() {
    let server = Server::with_solved("db", "konane", "6x5-corner");
    let (_, konane) = server.get("/api/konane/");
    let v =
        konane["variants"].as_array().unwrap().iter().find(|v| v["id"] == "6x5-corner").unwrap();
    assert_eq!((v["status"].as_str(), v["source"].as_str()), (Some("solved"), Some("database")));
    let (status, start) = server.get("/api/konane/6x5-corner/positions/?p=start");
    assert_eq!(status, 200, "{start}");
    assert_eq!(
        (start["positionValue"].as_str(), start["remoteness"].as_i64()),
        (Some("lose"), Some(22))
    );
    check_position(&server, "konane", "6x5-corner", &start);
}

/// A pruned database with derived tiers (`analyze --prune --derive`): positions the start reaches
/// answer as before, every move's value agreeing with its child's answer (the start's moves lead
/// into a derived tier); one it does not reach is a 404 that says so, or where its value and its
/// children's can be read or derived, its true value.
#[test]
fn a_pruned_database_with_derived_tiers_is_served() {
    let data =
        std::env::temp_dir().join(format!("perfectplay-serve-pruned-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let cli = |args: &[&str]| {
        common::perfectplay(&data, args);
    };
    cli(&["solve", "sixmensmorris", "--no-analysis"]);
    // The whole database served from a copy (a server removes its directory when dropped).
    let copy = data.with_extension("whole");
    std::fs::create_dir_all(copy.join("sixmensmorris")).unwrap();
    let file = "sixmensmorris/regular.ppdb";
    std::fs::copy(data.join(file), copy.join(file)).unwrap();
    let whole = Server::start_in(copy);
    let mut walk = vec![whole.get("/api/sixmensmorris/regular/positions/?p=start").1];
    for _ in 0..14 {
        let last = walk.last().unwrap();
        let Some(m) = last["moves"].as_array().unwrap().last() else { break };
        let p = encode(m["position"].as_str().unwrap());
        walk.push(whole.get(&format!("/api/sixmensmorris/regular/positions/?p={p}")).1);
    }
    // Two positions the start does not reach: one stored as absent once pruned; one that keeps its
    // value (it repeats the code before it), whose children are black's turns, derived from
    // theirs.
    let unreached = ["www---bbb------- w 3 3", "wwww-ww---bbb--- w 0 0"];
    let truth: Vec<_> = unreached
        .iter()
        .map(|u| whole.get(&format!("/api/sixmensmorris/regular/positions/?p={}", encode(u))).1)
        .collect();
    drop(whole);
    cli(&["analyze", "sixmensmorris", "--prune", "--derive"]);
    let server = Server::start_in(data);
    for before in &walk {
        let p = encode(before["position"].as_str().unwrap());
        let (status, after) = server.get(&format!("/api/sixmensmorris/regular/positions/?p={p}"));
        assert_eq!(status, 200, "{after}");
        assert_eq!(after["moves"], before["moves"]);
        check_position(&server, "sixmensmorris", "regular", &after);
    }
    // The one stored as absent is a 404 that says so; the other is answered with its true value
    // and its moves' where all of them can be read or derived, else a 404 too: never a value that
    // was not solved.
    for (k, (unreached, truth)) in unreached.iter().zip(&truth).enumerate() {
        let path = format!("/api/sixmensmorris/regular/positions/?p={}", encode(unreached));
        let (status, e) = server.get(&path);
        match status {
            404 => {
                let error = e["error"].as_str().unwrap();
                assert!(error.contains("not reachable from the start"), "{e}");
            }
            200 if k == 1 => {
                for field in ["positionValue", "remoteness", "moves"] {
                    assert_eq!(e[field], truth[field], "{unreached}: {field}");
                }
            }
            _ => panic!("{unreached}: {status} {e}"),
        }
    }
}

/// Quarto's regular game is answered by live search: a late position at once, with every move's
/// value agreeing with its child's answer; an early one with `202 Accepted`, the search's
/// progress and the moves without values, while the server goes on answering other requests.
#[test]
fn quarto_is_searched_live_without_blocking_the_server() {
    let server = Server::start("quarto-live");
    let (_, info) = server.get("/api/quarto/regular/");
    assert_eq!((info["status"].as_str(), info["source"].as_str()), (Some("solved"), Some("live")));
    assert_eq!(info["highestRemoteness"], 17);
    // Nine pieces placed (a tie in 7: the board fills). On an idle machine the search ends
    // while the request waits (BENCHMARKS has its times); on a loaded one it may answer `202`
    // first, and asked again the answer comes.
    let late = "-D2F--0-56E--4-73";
    let asked = std::time::Instant::now();
    let (mut status, mut body) = server.get(&format!("/api/quarto/regular/positions/?p={late}"));
    while status == 202 && asked.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(200));
        (status, body) = server.get(&format!("/api/quarto/regular/positions/?p={late}"));
    }
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["positionValue"].as_str(), body["remoteness"].as_i64()),
        (Some("tie"), Some(7))
    );
    check_position(&server, "quarto", "regular", &body);
    // The start: far too long to search while a request waits.
    let (status, start) = server.get("/api/quarto/regular/positions/?p=start");
    assert_eq!(status, 202, "{start}");
    assert_eq!(start["positionValue"], "unsolved");
    assert_eq!(start["searching"]["total"], 16, "{start}");
    let moves = start["fullMoves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    assert!(moves.iter().all(|m| m["moveValue"] == "unsolved"), "{start}");
    // GamesmanUni's list of them too (the first move is one part: the piece given).
    assert_eq!(start["moves"].as_array().map(Vec::len), Some(16), "{start}");
    // Meanwhile other answers come as fast as ever.
    let asked = std::time::Instant::now();
    let (status, ttt) = server.get("/api/tictactoe/regular/positions/?p=start");
    assert_eq!((status, ttt["positionValue"].as_str()), (200, Some("tie")));
    assert!(asked.elapsed().as_secs_f64() < 1.0, "{:?}", asked.elapsed());
    // One client asking about more early positions than it may have searched at once (four,
    // the start's among them): past that, `503` with `Retry-After`, the moves without values and
    // why (never an error); once it has moved on from them (2 s), new searches start again.
    let early: Vec<String> = (0..6).map(|u| format!("{}{u:X}", "-".repeat(16))).collect();
    let (mut searched, mut busy) = (0, 0);
    for p in &early {
        let path = format!("/api/quarto/regular/positions/?p={p}");
        let (status, retry, body) = server.get_with_header(&path, "retry-after");
        assert_eq!(body["fullMoves"].as_array().unwrap().len(), 16 * 15, "{body}");
        match status {
            202 => searched += 1,
            503 => {
                busy += 1;
                let after = body["busy"]["retryAfter"].as_u64().expect("retryAfter");
                assert_eq!(retry, Some(after.to_string()), "{body}");
                assert!((1..=60).contains(&after), "{body}");
                assert!(body["error"].as_str().unwrap().starts_with("busy: "), "{body}");
            }
            _ => panic!("{status}: {body}"),
        }
    }
    assert!((1..=3).contains(&searched) && busy >= 3, "{searched} searched, {busy} busy");
    let (_, health) = server.get("/health");
    let running = health["liveSearches"]["running"].as_u64().unwrap();
    assert!(running <= health["liveSearches"]["runningMost"].as_u64().unwrap(), "{health}");
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let (status, body) = server.get(&format!("/api/quarto/regular/positions/?p={}", early[5]));
    assert_eq!(status, 202, "{body}");
    // The 3x3 game is solved whole, in memory.
    let (_, small) = server.get("/api/quarto/3x3/");
    assert_eq!(small["source"], "memory");
    // Bad positions are refused.
    let (status, bad) = server.get("/api/quarto/regular/positions/?p=FFFF");
    assert_eq!(status, 400, "{bad}");
}
