//! The page as a new player meets it, in headless Chromium: the home page of games; a large game
//! not solved (Nine Men's Morris) drawn and played with its values unknown, against a computer
//! that says it cannot judge yet; a solve that cannot fit this machine refused with the reason;
//! a solve from the page cancelled and resumed from its tier files; Quarto's computer moving
//! within its stated time from the start; every game's buttons a finger's size on a phone, none
//! covering another.

mod chromium;
mod common;

use std::time::{Duration, Instant};

use chromium::*;
use common::Server;
use serde_json::{json, Value};

const VALUES: &str =
    "[...new Set([...document.querySelectorAll('#board .move')].map(e => e.dataset.value))]";

#[test]
fn the_home_page_lists_every_game_with_its_picture_and_what_is_solved() {
    let server = Server::start("page-home");
    let (_browser, tab) = open_at(&server, "/");
    let (_, games) = server.get("/api/");
    let games = games.as_array().unwrap();
    let cards = "[...document.querySelectorAll('#games .card')].map(c => c.dataset.game)";
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    wait_for(&tab, &format!("{cards}.length"), &Value::from(ids.len()));
    let mut shown: Vec<String> = serde_json::from_value(eval(&tab, cards)).unwrap();
    shown.sort();
    let mut want: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(shown, want);
    // Each card: its name, a picture with the board drawn, a line, and what is solved.
    let cards = eval(
        &tab,
        "[...document.querySelectorAll('#games .card')].map(c => ({game: c.dataset.game, \
         name: c.querySelector('h2').textContent, drawn: c.querySelector('svg.picture').childElementCount, \
         line: c.querySelector('.line').textContent, solved: c.querySelector('.solved').textContent}))",
    );
    for card in cards.as_array().unwrap() {
        let g = games.iter().find(|g| g["id"] == card["game"]).unwrap();
        assert_eq!(card["name"], g["name"]);
        assert!(card["drawn"].as_u64().unwrap() > 0, "{card}");
        assert!(card["line"].as_str().unwrap().len() > 10, "{card}");
        assert!(card["solved"].as_str().unwrap().contains("olved"), "{card}");
    }
    let morris = cards.as_array().unwrap().iter().find(|c| c["game"] == "ninemensmorris").unwrap();
    assert!(morris["solved"].as_str().unwrap().starts_with("0 of 4 variants solved"), "{morris}");
    // A card opens its game; the name in the header says which.
    tab.find_element("#games .card[data-game=\"tictactoe\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{LIVE} > 0"), &Value::from(true));
    assert_eq!(text(&tab, "game-name"), "Tic-Tac-Toe");
    // No console errors: the icon is served.
    assert_eq!(server.get_raw("/favicon.ico").1, "image/svg+xml");
}

/// Nine Men's Morris, not solved: its board is drawn with every placement offered ("?"), the
/// cost of a solve said, and a few moves played; the history has no point on its tie line; the
/// computer, as black, plays at random and says so.
#[test]
fn an_unsolved_nine_mens_morris_is_drawn_and_played() {
    let server = Server::start("page-morris");
    let (_browser, tab) = open(&server, "game=ninemensmorris");
    wait_for(&tab, LIVE, &Value::from(24));
    assert_eq!(eval(&tab, VALUES), json!(["unsolved"]));
    let prediction = eval(&tab, PREDICTION);
    assert!(prediction.as_str().unwrap().starts_with("White to move. This variant is not solved"));
    let status = text(&tab, "solve-status");
    assert!(status.contains("27,622,244,416 indices") && status.contains("of memory"), "{status}");
    assert!(status.contains("measured here"), "{status}");
    choose(&tab, "p2", "computer");
    for ply in 0..3 {
        // White places (a placement that closes a mill has a second part, the removal); black
        // (the computer) answers.
        let points = format!("{POINTS}.length");
        while eval(&tab, &points) == 2 * ply + 1 {
            tab.find_element("#board .move").unwrap().click().unwrap();
            std::thread::sleep(Duration::from_millis(200));
        }
        wait_for(&tab, &points, &Value::from(2 * ply + 3));
        assert!(text(&tab, "note").contains("at random"), "{}", text(&tab, "note"));
    }
    // Six placed, less any a mill removed.
    let pieces = eval(&tab, PIECES);
    assert!((4..=6).contains(&pieces.as_str().unwrap().len()), "{pieces}");
    assert_eq!(eval(&tab, MOVES_PLAYED).as_array().unwrap().len(), 6);
    // Unknown values are not points on the tie line.
    assert_eq!(eval(&tab, "document.querySelectorAll('#history circle').length"), 0);
    assert_eq!(eval(&tab, POINTS).as_array().unwrap().len(), 7);
}

/// Fuchs und Henne with 20 hens cannot be solved on this machine: the page says why and offers
/// no solve, and the server refuses one asked for all the same.
#[test]
fn a_solve_that_cannot_fit_is_refused_with_the_reason() {
    let server = Server::start("page-refused");
    let (_browser, tab) = open(&server, "game=fuchsundhenne&variant=20-hens");
    let status = text(&tab, "solve-status");
    assert!(status.contains("refused on this machine") && status.contains("memory"), "{status}");
    assert_eq!(eval(&tab, "document.getElementById('solve').hidden"), true);
    let (code, body) = server.post("/api/fuchsundhenne/20-hens/solve");
    assert_eq!(code, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("refused"), "{body}");
    let (_, info) = server.get("/api/fuchsundhenne/20-hens/");
    assert_eq!(info["status"], "unsolved");
}

/// Fox and Geese with 6 geese solved from the page, cancelled part way, then solved again: the
/// second solve reads back the tiers the first wrote, and the database it writes is the one a
/// solve in one go writes.
#[test]
fn a_page_solve_is_cancelled_and_resumed_from_its_tier_files() {
    let server = Server::start("page-cancel");
    let (_browser, tab) = open(&server, "game=foxandgeese&variant=6-geese");
    tab.wait_for_element("#solve:not([hidden])").unwrap().click().unwrap();
    // Some tiers written, then cancelled.
    let started = Instant::now();
    loop {
        let (_, info) = server.get("/api/foxandgeese/6-geese/");
        if info["solving"]["note"].as_str().is_some_and(|n| n.contains("% of")) {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{info}");
        std::thread::sleep(Duration::from_millis(50));
    }
    tab.wait_for_element("#cancel-solve:not([hidden])").unwrap().click().unwrap();
    let stopped = "document.getElementById('solve-status').textContent.includes('cancelled after')";
    wait_for_within(&tab, stopped, &Value::from(true), Duration::from_secs(60));
    let (_, info) = server.get("/api/foxandgeese/6-geese/");
    assert_eq!(info["status"], "unsolved", "{info}");
    let kept = info["solveStopped"].as_str().unwrap().to_string();
    assert!(kept.contains("of 100 tier files"), "{kept}");
    // Solved again: it resumes, and ends in play with the values shown.
    tab.wait_for_element("#solve:not([hidden])").unwrap().click().unwrap();
    let known = format!("{VALUES}.length > 0 && !{VALUES}.includes('unsolved')");
    wait_for_within(&tab, &known, &Value::from(true), Duration::from_secs(180));
    let (_, info) = server.get("/api/foxandgeese/6-geese/");
    assert_eq!(info["status"], "solved", "{info}");
    let summary = info["solvedHere"].as_array().unwrap();
    assert!(summary.iter().any(|l| l.as_str().unwrap().starts_with("resumed:")), "{info}");
    assert!(text(&tab, "note").contains("read back"), "{}", text(&tab, "note"));
    // The same database as a solve in one go.
    let once = common::fresh_data("page-cancel-once");
    std::fs::create_dir_all(&once).unwrap();
    common::perfectplay(&once, &["solve", "foxandgeese", "--variant", "6-geese"]);
    let file = |dir: &std::path::Path| std::fs::read(dir.join("foxandgeese/6-geese.ppdb")).unwrap();
    assert!(file(&once) == file(server.data()), "the resumed solve's database differs");
}

/// Quarto's regular game from its start with the computer first: its live search cannot finish
/// there, and the computer plays within its stated time all the same, saying how it chose.
#[test]
fn quartos_computer_moves_within_its_stated_time_from_the_start() {
    let server = Server::start("page-quarto");
    let (_browser, tab) = open(&server, "game=quarto&variant=regular");
    choose(&tab, "p1", "computer");
    let asked = Instant::now();
    wait_for(&tab, &format!("{PREDICTION}.includes('moves within 10 s')"), &Value::from(true));
    // Nothing is live for the human while the computer thinks.
    assert_eq!(eval(&tab, LIVE), 0);
    wait_for_within(
        &tab,
        &format!("{MOVES_PLAYED}.length"),
        &Value::from(1),
        Duration::from_secs(14),
    );
    assert!(asked.elapsed() < Duration::from_secs(13), "{:?}", asked.elapsed());
    let note = text(&tab, "note");
    assert!(note.contains("(computer) played") && note.contains(" s: "), "{note}");
}

/// Every game's first buttons, on a phone (390 x 844) and on a desktop (1280 x 900): each at least
/// 32 CSS pixels across as drawn, and no two overlapping.
#[test]
fn every_games_buttons_are_a_fingers_size_and_apart() {
    let server = Server::start("page-taps");
    let (_, games) = server.get("/api/");
    const MEASURE: &str = "(() => { \
        const rs = [...document.querySelectorAll('#board .move .target')].map(c => c.getBoundingClientRect()); \
        let overlaps = []; \
        for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) { \
          const [a, b] = [rs[i], rs[j]]; \
          const d = Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2); \
          if (d < (a.width + b.width) / 2 - 0.5) overlaps.push([i, j, Math.round(d)]); } \
        return {buttons: rs.length, smallest: Math.min(...rs.map(r => Math.min(r.width, r.height))), overlaps}; })()";
    for (width, height) in [(390, 844), (1280, 900)] {
        let browser = browser_sized(1280, 900);
        let tab = tab_sized(&browser, width, height);
        for g in games.as_array().unwrap() {
            let id = g["id"].as_str().unwrap();
            eprintln!("{id} at {width}x{height}");
            tab.navigate_to(&format!("{}/?game={id}", server.base)).unwrap();
            tab.wait_for_element("#board .move").unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(eval(&tab, "window.innerWidth"), width);
            let m = eval(&tab, MEASURE);
            let at = format!("{id} at {width}x{height}: {m}");
            assert!(m["buttons"].as_u64().unwrap() > 0, "{at}");
            assert!(m["smallest"].as_f64().unwrap() >= 31.9, "{at}");
            assert_eq!(m["overlaps"], json!([]), "{at}");
        }
    }
}

/// A button pointed at or focused previews on the board what every move it leads to places: the
/// L-game's first click, the red L (not the neutral piece moved after it).
#[test]
fn the_l_games_first_click_previews_its_l() {
    let server = Server::start("page-lgame");
    let (_browser, tab) = open(&server, "game=lgame");
    let previewed =
        "[...document.querySelectorAll('#preview [data-entity]')].map(e => e.dataset.entity)";
    assert_eq!(eval(&tab, previewed), json!([]));
    tab.evaluate("document.querySelector('#board .move').focus()", false).unwrap();
    let shown = eval(&tab, previewed);
    let shown = shown.as_array().unwrap();
    assert!(!shown.is_empty() && shown.iter().all(|e| e == "r"), "{shown:?}");
    tab.evaluate("document.querySelector('#board .move').blur()", false).unwrap();
    assert_eq!(eval(&tab, previewed), json!([]));
}
