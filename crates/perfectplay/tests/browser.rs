//! The page in a real browser (headless Chromium, Debian's `chromium`): a Tic-Tac-Toe game played
//! by clicking move buttons, with the board, the buttons' colors and the value history checked
//! against the API at every move; undo, redo and the computer player; a Konane move in two parts.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{encode, Server};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;

const CHROMIUM: &str = "/usr/bin/chromium";

fn color(value: &str) -> &'static str {
    match value {
        "win" => "#16a34a",
        "tie" => "#eab308",
        "draw" => "#d97706",
        "lose" => "#b91c1c",
        v => panic!("value {v}"),
    }
}

fn browser() -> Browser {
    assert!(
        std::path::Path::new(CHROMIUM).exists(),
        "the browser test needs {CHROMIUM}: `apt-get install -y chromium` (.ci/run does)"
    );
    Browser::new(
        LaunchOptions::default_builder()
            .path(Some(PathBuf::from(CHROMIUM)))
            .sandbox(false)
            .headless(true)
            .window_size(Some((1100, 900)))
            .idle_browser_timeout(Duration::from_secs(120))
            .build()
            .unwrap(),
    )
    .expect("chromium starts")
}

/// A browser on the page with `query`, its move buttons drawn.
fn open(server: &Server, query: &str) -> (Browser, std::sync::Arc<Tab>) {
    let browser = browser();
    let tab = browser.new_tab().unwrap();
    tab.navigate_to(&format!("{}/?{query}", server.base)).unwrap();
    tab.wait_for_element("#board .move").unwrap();
    (browser, tab)
}

/// Evaluates an expression that returns a JSON string, parsed.
fn eval(tab: &Tab, expr: &str) -> Value {
    let r = tab.evaluate(&format!("JSON.stringify({expr})"), false).unwrap();
    serde_json::from_str(r.value.unwrap().as_str().unwrap()).unwrap()
}

fn wait_for(tab: &Tab, expr: &str, want: &Value) {
    let started = Instant::now();
    loop {
        let got = eval(tab, expr);
        if &got == want {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{expr}: {got}, waiting for {want}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

const BUTTONS: &str = "[...document.querySelectorAll('#board .move')].map(e => ({move: e.dataset.move, value: e.dataset.value, fill: e.getAttribute('fill') ?? e.getAttribute('stroke')}))";
const POINTS: &str =
    "[...document.querySelectorAll('#history .vh-point')].map(e => e.dataset.value)";
const PIECES: &str =
    "[...document.querySelectorAll('#pieces [data-entity]')].map(e => e.dataset.entity).join('')";
const PREDICTION: &str = "document.getElementById('prediction').textContent";

#[test]
fn tictactoe_played_by_clicking_matches_the_api() {
    let server = Server::start("browser");
    let (_browser, tab) = open(&server, "game=tictactoe");

    let mut position = "---------".to_string();
    let mut values: Vec<Value> = Vec::new();
    for turn in 0.. {
        let (status, api) =
            server.get(&format!("/api/tictactoe/regular/positions/?p={}", encode(&position)));
        assert_eq!(status, 200);
        values.push(api["positionValue"].clone());
        wait_for(&tab, &format!("{POINTS}.length"), &Value::from(values.len()));

        // The board shows the position's marks.
        let pieces = eval(&tab, PIECES);
        // Tic-Tac-Toe positions travel in AutoGUI form (`2_x--------`).
        let cells = position.split_once('_').map_or(position.as_str(), |(_, b)| b);
        let marks: String = cells.chars().filter(|c| *c != '-').collect();
        assert_eq!(pieces.as_str().unwrap(), marks, "board at {position}");

        // One button per move, colored by the move's value.
        let api_moves = api["moves"].as_array().unwrap();
        let mut buttons = eval(&tab, BUTTONS).as_array().unwrap().clone();
        assert_eq!(buttons.len(), api_moves.len(), "{position}");
        buttons.sort_by_key(|b| b["move"].as_str().unwrap().to_string());
        let mut expected: Vec<&Value> = api_moves.iter().collect();
        expected.sort_by_key(|m| m["move"].as_str().unwrap().to_string());
        for (b, m) in buttons.iter().zip(&expected) {
            assert_eq!(b["move"], m["move"]);
            assert_eq!(b["value"], m["moveValue"], "{position} {}", m["move"]);
            assert_eq!(
                b["fill"],
                color(m["moveValue"].as_str().unwrap()),
                "{position} {}",
                m["move"]
            );
        }

        // The history chart: one point per position so far, colored by its value.
        assert_eq!(eval(&tab, POINTS), Value::Array(values.clone()));

        let prediction = eval(&tab, PREDICTION);
        let prediction = prediction.as_str().unwrap();
        if api_moves.is_empty() {
            assert!(prediction.starts_with("Game over"), "{prediction}");
            break;
        }
        assert!(
            prediction.contains(&format!("should {}", api["positionValue"].as_str().unwrap())),
            "{prediction}"
        );

        // X plays the best move, O the worst: X wins.
        let m = if turn % 2 == 0 { &api_moves[0] } else { api_moves.last().unwrap() };
        tab.find_element(&format!("#board .move[data-move=\"{}\"]", m["move"].as_str().unwrap()))
            .unwrap()
            .click()
            .unwrap();
        position = m["position"].as_str().unwrap().to_string();
    }
    assert_eq!(eval(&tab, PREDICTION), "Game over: X wins.");
    let played = values.len();

    // Undo and redo walk the history.
    tab.find_element("#undo").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(played - 1));
    assert!(eval(&tab, PREDICTION).as_str().unwrap().starts_with("X should win in 1"));
    tab.find_element("#redo").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(played));

    // Restart, and the computer answers as O with one of its best moves.
    tab.find_element("#restart").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(1));
    tab.evaluate("(() => { const s = document.getElementById('p2'); s.value = 'computer'; s.dispatchEvent(new Event('change')); return 1; })()", false).unwrap();
    tab.find_element("#board .move[data-move=\"a1\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(3));
    let (_, after) = server.get("/api/tictactoe/regular/positions/?p=x--------");
    let best = &after["moves"][0];
    let reply = eval(&tab, PIECES);
    assert_eq!(reply.as_str().unwrap().len(), 2);
    assert_eq!(
        eval(&tab, PREDICTION).as_str().unwrap(),
        format!(
            "X should {} in {}.",
            parent(best["moveValue"].as_str().unwrap()),
            best["remoteness"]
        )
    );
}

fn parent(v: &str) -> &str {
    match v {
        "win" => "lose",
        "lose" => "win",
        v => v,
    }
}

#[test]
fn konane_moves_are_played_in_two_parts() {
    let server = Server::start("browser-konane");
    let (_browser, tab) = open(&server, "game=konane&variant=5x5-corner");
    // The start has one jump: the stone to select (part 1), then where it lands (part 2).
    let parts = eval(&tab, BUTTONS);
    assert_eq!(parts.as_array().unwrap().len(), 1, "{parts}");
    assert_eq!(parts[0]["move"], "A_s_10_x");
    tab.find_element("#board .move[data-move=\"A_s_10_x\"]").unwrap().click().unwrap();
    wait_for(
        &tab,
        "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move)",
        &serde_json::json!(["a3a1"]),
    );
    tab.find_element("#board .move[data-move=\"a3a1\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(2));
    assert!(eval(&tab, PREDICTION).as_str().unwrap().starts_with("white should lose in 14"));
}

/// Tic-Tac-Two (two marks each, solved at start-up) from a `?p=` link into the moving phase: the
/// first parts offered are "move the grid" and X's marks; after "move the grid", exactly the grid
/// moves; the chosen one lands on the API's child position.
#[test]
fn tictactwo_grid_moves_are_played_in_two_parts() {
    let server = Server::start("browser-tictactwo");
    let p = "...../.xo../..xo./...../..... c3 x";
    let (_, api) = server.get(&format!("/api/tictactwo/2-marks/positions/?p={}", encode(p)));
    let moves = api["fullMoves"].as_array().unwrap();
    let first = |m: &Value| m["partMoves"][0].as_str().unwrap().to_string();
    let mut want: Vec<String> = moves.iter().map(first).collect();
    want.sort();
    want.dedup();
    let (_browser, tab) = open(&server, &format!("game=tictactwo&variant=2-marks&p={}", encode(p)));
    let shown = "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move).sort()";
    assert_eq!(eval(&tab, shown), serde_json::json!(want));
    assert!(want.contains(&"A_m_34_x".to_string()), "{want:?}");
    let grid: Vec<&Value> = moves.iter().filter(|m| first(m) == "A_m_34_x").collect();
    assert_eq!(grid.len(), 8, "the grid at c3 can move to its 8 neighbors");
    tab.find_element("#board .move[data-move=\"A_m_34_x\"]").unwrap().click().unwrap();
    let mut names: Vec<&str> = grid.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort();
    wait_for(&tab, shown, &serde_json::json!(names));
    let m = grid[0];
    tab.find_element(&format!("#board .move[data-move=\"{}\"]", m["move"].as_str().unwrap()))
        .unwrap()
        .click()
        .unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(2));
    let (_, child) = server.get(&format!(
        "/api/tictactwo/2-marks/positions/?p={}",
        encode(m["position"].as_str().unwrap())
    ));
    let prediction = eval(&tab, PREDICTION);
    let prediction = prediction.as_str().unwrap();
    assert!(prediction.starts_with("O should"), "{prediction}");
    assert!(prediction.contains(child["positionValue"].as_str().unwrap()), "{prediction} {child}");
}

/// Writes `docs/screenshot-<game>.png` for every game in the catalog (its default variant, or its
/// first listed variant that is solved at start-up): a few moves into a game, value history and
/// all. Run on purpose: `cargo test --release -p perfectplay --test browser screenshots -- --ignored`.
#[test]
#[ignore = "writes the documentation's screenshots"]
fn screenshots() {
    use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
    use perfectplay_core::SizeClass;
    let server = Server::start("screenshots");
    let browser = browser();
    let tab = browser.new_tab().unwrap();
    for entry in perfectplay_games::catalog() {
        let small = |v: &str| entry.variant(Some(v)).unwrap().size_class() == SizeClass::Small;
        let Some(variant) = std::iter::once(entry.default_variant)
            .chain(entry.listed_variants.iter().copied())
            .find(|v| small(v))
        else {
            continue;
        };
        let game = entry.id;
        tab.navigate_to(&format!("{}/?game={game}&variant={variant}", server.base)).unwrap();
        tab.wait_for_element("#board .move").unwrap();
        let mut position = "start".to_string();
        for ply in 0..5 {
            let (_, api) =
                server.get(&format!("/api/{game}/{variant}/positions/?p={}", encode(&position)));
            let moves = api["moves"].as_array().unwrap();
            if moves.is_empty() {
                break;
            }
            let m = &moves[(ply * 2) % moves.len()];
            let parts = m["partMoves"].as_array().cloned().unwrap_or_default();
            for part in parts.iter().take(parts.len().saturating_sub(1)) {
                let selector = format!("#board .move[data-move=\"{}\"]", part.as_str().unwrap());
                tab.wait_for_element(&selector).unwrap().click().unwrap();
            }
            let selector = format!("#board .move[data-move=\"{}\"]", m["move"].as_str().unwrap());
            tab.wait_for_element(&selector).unwrap().click().unwrap();
            wait_for(&tab, &format!("{POINTS}.length"), &Value::from(ply + 2));
            position = m["position"].as_str().unwrap().to_string();
        }
        std::thread::sleep(Duration::from_millis(300));
        let png =
            tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true).unwrap();
        let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../../docs/screenshot-{game}.png"));
        std::fs::write(out, png).unwrap();
    }
}
