//! The page in a real browser (headless Chromium, Debian's `chromium`): a Tic-Tac-Toe game played
//! by clicking move buttons, with the board, the buttons' colors and the value history checked
//! against the API at every move; undo, redo and the computer player; a Konane move in two parts.

mod chromium;
mod common;

use std::path::PathBuf;
use std::time::Duration;

use chromium::*;
use common::{encode, Server};
use headless_chrome::Tab;
use serde_json::Value;

fn color(value: &str) -> &'static str {
    match value {
        "win" => "#16a34a",
        "tie" => "#c7b300",
        "draw" => "#7c3aed",
        "lose" => "#be185d",
        v => panic!("value {v}"),
    }
}

/// A button's label: the value's letter and the moves to the end counting this one.
fn label(m: &Value) -> String {
    let letter = match m["moveValue"].as_str().unwrap() {
        "win" => "W",
        "tie" => "T",
        "draw" => "D",
        _ => "L",
    };
    match m["remoteness"].as_i64().unwrap() {
        r if r < 0 || letter == "D" => letter.to_string(),
        r => format!("{letter}{}", r + 1),
    }
}

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
        assert_move_buttons(&tab, api_moves, &position);
        // The moves list says who made each move.
        let played = eval(&tab, MOVES_PLAYED);
        assert_eq!(played.as_array().unwrap().len(), turn, "{played}");
        for (k, line) in played.as_array().unwrap().iter().enumerate() {
            let who = if k % 2 == 0 { "X " } else { "O " };
            assert!(line.as_str().unwrap().starts_with(who), "{played}");
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
        // The move just played is marked on its cell.
        wait_for(&tab, &format!("{POINTS}.length"), &Value::from(values.len() + 1));
        let cell = m["autoguiMove"].as_str().unwrap().split('_').nth(2).unwrap().to_string();
        assert_eq!(
            eval(&tab, "[...document.querySelectorAll('#last-move .last-move')].map(e => e.dataset.center)"),
            serde_json::json!([cell])
        );
    }
    assert_eq!(eval(&tab, PREDICTION), "Game over: X wins.");
    // The final position is marked with its result, and nothing is live.
    assert_eq!(eval(&tab, "document.getElementById('final').dataset.winner"), "X");
    assert_eq!(eval(&tab, LIVE), 0);
    undo_redo_and_the_computer(&server, &tab, values.len());
}

/// One button per move of `api_moves`, each with the move's value, color, remoteness label and
/// paleness by its delta remoteness.
fn assert_move_buttons(tab: &Tab, api_moves: &[Value], position: &str) {
    let mut buttons = eval(tab, BUTTONS).as_array().unwrap().clone();
    assert_eq!(buttons.len(), api_moves.len(), "{position}");
    buttons.sort_by_key(|b| b["move"].as_str().unwrap().to_string());
    let mut expected: Vec<&Value> = api_moves.iter().collect();
    expected.sort_by_key(|m| m["move"].as_str().unwrap().to_string());
    for (b, m) in buttons.iter().zip(&expected) {
        assert_eq!(b["move"], m["move"]);
        assert_eq!(b["value"], m["moveValue"], "{position} {}", m["move"]);
        assert_eq!(b["fill"], color(m["moveValue"].as_str().unwrap()), "{position} {}", m["move"]);
        // The remoteness is on the button, not only in a hover title.
        assert_eq!(b["label"], label(m).as_str(), "{position} {}", m["move"]);
        // Worse moves of a value are paler, by their delta remoteness.
        let delta = m["deltaRemoteness"].as_f64().unwrap();
        let opacity = b["opacity"].as_f64().unwrap();
        assert_eq!(delta == 0.0, opacity == 1.0, "{position} {}: {opacity}", m["move"]);
    }
}

/// After a played game of `played` positions: undo and redo walk the history; restarted
/// against the computer as O, it answers with one of its best moves, and undo takes back both.
fn undo_redo_and_the_computer(server: &Server, tab: &Tab, played: usize) {
    // Undo and redo walk the history.
    tab.find_element("#undo").unwrap().click().unwrap();
    wait_for(tab, &format!("{POINTS}.length"), &Value::from(played - 1));
    assert!(eval(tab, PREDICTION).as_str().unwrap().starts_with("X should win in 1"));
    tab.find_element("#redo").unwrap().click().unwrap();
    wait_for(tab, &format!("{POINTS}.length"), &Value::from(played));

    // Restart, and the computer answers as O with one of its best moves.
    tab.find_element("#restart").unwrap().click().unwrap();
    wait_for(tab, &format!("{POINTS}.length"), &Value::from(1));
    tab.evaluate("(() => { const s = document.getElementById('p2'); s.value = 'computer'; s.dispatchEvent(new Event('change')); return 1; })()", false).unwrap();
    tab.find_element("#board .move[data-move=\"a1\"]").unwrap().click().unwrap();
    // While the computer is to move nothing is live, and the page says it is thinking.
    wait_for(
        tab,
        &format!("[{LIVE}, {PREDICTION}.startsWith('O (computer) is thinking')]"),
        &serde_json::json!([0, true]),
    );
    wait_for(tab, &format!("{POINTS}.length"), &Value::from(3));
    assert!(eval(tab, LIVE).as_u64().unwrap() > 0);
    let (_, after) = server.get("/api/tictactoe/regular/positions/?p=x--------");
    let best = &after["moves"][0];
    let reply = eval(tab, PIECES);
    assert_eq!(reply.as_str().unwrap().len(), 2);
    assert_eq!(
        eval(tab, PREDICTION).as_str().unwrap(),
        format!(
            "X should {} in {}.",
            parent(best["moveValue"].as_str().unwrap()),
            best["remoteness"]
        )
    );
    // Undo against the computer takes back its reply and your move together; redo replays both.
    tab.find_element("#undo").unwrap().click().unwrap();
    wait_for(tab, &format!("[{POINTS}.length, {PIECES}]"), &serde_json::json!([1, ""]));
    assert_eq!(eval(tab, LIVE), 9);
    tab.find_element("#redo").unwrap().click().unwrap();
    wait_for(tab, &format!("{POINTS}.length"), &Value::from(3));
    assert_eq!(eval(tab, PIECES).as_str().unwrap(), reply.as_str().unwrap());
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
    // The help line says how; a part chosen can be cancelled (button or Esc).
    assert_eq!(eval(&tab, "document.getElementById('help').hidden"), false);
    let shown = "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move)";
    let cancel = "document.getElementById('cancel').hidden";
    assert_eq!(eval(&tab, cancel), true);
    for how in ["button", "Escape"] {
        tab.find_element("#board .move[data-move=\"A_s_10_x\"]").unwrap().click().unwrap();
        wait_for(&tab, &format!("[{shown}, {cancel}]"), &serde_json::json!([["a3a1"], false]));
        if how == "button" {
            tab.find_element("#cancel").unwrap().click().unwrap();
        } else {
            tab.press_key("Escape").unwrap();
        }
        wait_for(&tab, &format!("[{shown}, {cancel}]"), &serde_json::json!([["A_s_10_x"], true]));
    }
    tab.find_element("#board .move[data-move=\"A_s_10_x\"]").unwrap().click().unwrap();
    wait_for(&tab, shown, &serde_json::json!(["a3a1"]));
    tab.find_element("#board .move[data-move=\"a3a1\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(2));
    assert!(eval(&tab, PREDICTION).as_str().unwrap().starts_with("White should lose in 14"));
    // Its players are named as drawn, its variant described, its rules at hand.
    let (_, info) = server.get("/api/konane/5x5-corner/");
    assert_eq!(info["players"], serde_json::json!(["black", "white"]));
    let text = |id: &str| eval(&tab, &format!("document.getElementById('{id}').textContent"));
    assert_eq!(text("p1name"), "black");
    assert_eq!(text("p2name"), "white");
    assert_eq!(text("description"), info["description"]);
    assert!(info["description"].as_str().unwrap().contains("corner"), "{info}");
    assert_eq!(text("rules-text"), info["rules"]);
    assert_eq!(text("rules-title"), "Rules of Konane");
    assert_eq!(eval(&tab, MOVES_PLAYED), serde_json::json!(["black a3a1"]));
}

/// Quarto's regular game from the start, whose values a live search cannot give at once: the
/// moves are offered with values unknown ("?"), and played in parts (the slot, then the piece to
/// give) all the same.
#[test]
fn quarto_is_played_in_parts_while_its_values_are_searched() {
    let server = Server::start("browser-quarto");
    let (_browser, tab) = open(&server, "game=quarto&variant=regular");
    let shown = "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move)";
    let values =
        "[...new Set([...document.querySelectorAll('#board .move')].map(e => e.dataset.value))]";
    // The first move gives a piece: one click on the panel (center 16 + piece).
    wait_for(&tab, &format!("{shown}.length"), &Value::from(16));
    assert_eq!(eval(&tab, values), serde_json::json!(["unsolved"]));
    assert!(eval(&tab, PREDICTION).as_str().unwrap().contains("Solving this position live"));
    tab.find_element("#board .move[data-move=\"A\"]").unwrap().click().unwrap();
    // Then piece A is placed (a slot, part 1) and a piece given (part 2).
    wait_for(&tab, &format!("{shown}.includes('A_t_5_x')"), &Value::from(true));
    assert_eq!(eval(&tab, &format!("{shown}.length")), Value::from(16));
    tab.find_element("#board .move[data-move=\"A_t_5_x\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{shown}.length"), &Value::from(15));
    tab.find_element("#board .move[data-move=\"b23\"]").unwrap().click().unwrap();
    wait_for(&tab, MOVES_PLAYED, &serde_json::json!(["first A", "second b23"]));
    assert_eq!(eval(&tab, PIECES).as_str().unwrap().chars().filter(|&c| c == 'a').count(), 1);
    // Undo goes back to a position still searched: it is drawn again, its moves offered.
    tab.find_element("#undo").unwrap().click().unwrap();
    wait_for(&tab, MOVES_PLAYED, &serde_json::json!(["first A"]));
    wait_for(&tab, &format!("{shown}.includes('A_t_5_x')"), &Value::from(true));
    assert_eq!(eval(&tab, PIECES).as_str().unwrap().chars().filter(|&c| c == 'a').count(), 1);
}

/// A whole Tic-Tac-Toe game from the keyboard: Tab reaches the move buttons, Enter plays the
/// focused one, and after each move focus is on the next position's buttons (the best first).
#[test]
fn tictactoe_played_from_the_keyboard() {
    let server = Server::start("browser-keyboard");
    let (_browser, tab) = open(&server, "game=tictactoe");
    let focused = "document.activeElement.dataset.move ?? null";
    for _ in 0..12 {
        if eval(&tab, focused).is_string() {
            break;
        }
        tab.press_key("Tab").unwrap();
    }
    let mut position = "---------".to_string();
    for turn in 0.. {
        let (_, api) =
            server.get(&format!("/api/tictactoe/regular/positions/?p={}", encode(&position)));
        let moves = api["moves"].as_array().unwrap();
        if moves.is_empty() {
            break;
        }
        // The focus starts on the best move; on X's second turn Tab goes one further.
        let first = eval(&tab, focused);
        let shown =
            eval(&tab, "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move)");
        assert_eq!(first, shown[0], "turn {turn}");
        if turn == 2 {
            tab.press_key("Tab").unwrap();
        }
        let chosen = eval(&tab, focused);
        let m = moves.iter().find(|m| m["move"] == chosen).unwrap();
        tab.press_key("Enter").unwrap();
        wait_for(&tab, &format!("{POINTS}.length"), &Value::from(turn + 2));
        position = m["position"].as_str().unwrap().to_string();
    }
    assert!(eval(&tab, PREDICTION).as_str().unwrap().starts_with("Game over"));
    assert_eq!(
        eval(&tab, MOVES_PLAYED).as_array().unwrap().len(),
        9 - position.matches('-').count()
    );
}

/// The value history: remoteness columns labelled at the top and the bottom of both sides, move
/// numbers on both sides of each row, and a scale fixed by the variant (its highest remoteness),
/// so that a position keeps its place as the game goes on.
#[test]
fn value_history_is_labelled_on_a_fixed_scale() {
    let server = Server::start("browser-history");
    let (_browser, tab) = open(&server, "game=connect4&variant=4x4");
    let (_, info) = server.get("/api/connect4/4x4/");
    let scale = info["highestRemoteness"].as_u64().unwrap();
    assert!(scale >= 10, "{info}");
    let labels = |class: &str| {
        eval(
            &tab,
            &format!("[...document.querySelectorAll('#history .{class}')].map(e => e.textContent)"),
        )
    };
    let count = |v: &Value, s: &str| v.as_array().unwrap().iter().filter(|t| *t == s).count();
    let x_of = "[...document.querySelectorAll('#history .vh-point')].map(e => Number(e.getAttribute('cx')))";
    let first_x = eval(&tab, x_of)[0].clone();
    for ply in 0..3 {
        let columns = labels("col-label");
        // 0 and the scale, at the top and the bottom, left and right.
        assert_eq!(count(&columns, "0"), 4, "{columns}");
        assert_eq!(count(&columns, &scale.to_string()), 4, "{columns}");
        let rows = labels("row-label");
        for k in 0..=ply {
            assert_eq!(count(&rows, &k.to_string()), 2, "{rows}");
        }
        assert_eq!(eval(&tab, "Number(document.getElementById('history').dataset.scale)"), scale);
        // The start's point stays where it was.
        assert_eq!(eval(&tab, x_of)[0], first_x);
        tab.find_element("#board .move").unwrap().click().unwrap();
        wait_for(&tab, &format!("{POINTS}.length"), &Value::from(ply + 2));
    }
    // The start of 4x4 Connect 4 is a tie: its point is on the middle line.
    let (_, start) = server.get("/api/connect4/4x4/positions/?p=start");
    assert_eq!(start["positionValue"], "tie");
    let mid = eval(&tab, "document.getElementById('history').viewBox.baseVal.width / 2");
    assert_eq!(first_x, mid);
}

/// The value colors stand apart from every piece color of every game's theme (RGB distance at
/// least 40), and the legend shows the value letters.
#[test]
fn value_colors_differ_from_every_piece_color() {
    let server = Server::start("browser-colors");
    let (_browser, tab) = open(&server, "game=tictactoe");
    let colors = eval(&tab, "COLORS");
    let rgb = |hex: &str| -> [f64; 3] {
        let h = hex.trim_start_matches('#');
        let h: String =
            if h.len() == 3 { h.chars().flat_map(|c| [c, c]).collect() } else { h.to_string() };
        let c = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).unwrap() as f64;
        [c(0), c(2), c(4)]
    };
    let (_, games) = server.get("/api/?all=1");
    let mut checked = 0;
    for g in games.as_array().unwrap() {
        let id = g["id"].as_str().unwrap();
        let (_, info) =
            server.get(&format!("/api/{id}/{}/", g["defaultVariant"].as_str().unwrap()));
        let gui = &info["imageAutoGUIData"];
        let Some(theme) = gui["themes"].get(gui["defaultTheme"].as_str().unwrap_or("")) else {
            continue;
        };
        for (token, entity) in theme["entities"].as_object().unwrap() {
            let svg = entity["svg"].as_str().unwrap();
            for piece in svg.split('#').skip(1).filter_map(|rest| {
                let hex: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
                (hex.len() == 3 || hex.len() == 6).then_some(hex)
            }) {
                for (value, c) in colors.as_object().unwrap() {
                    let (a, b) = (rgb(&piece), rgb(c.as_str().unwrap()));
                    let d = (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt();
                    assert!(d >= 40.0, "{id} {token} #{piece} is {d:.0} from {value} {c}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
    let legend = eval(&tab, "[...document.querySelectorAll('.swatch')].map(e => e.textContent)");
    assert_eq!(legend, serde_json::json!(["W", "T", "D", "L"]));
}

/// An unsolved variant plays with its values unknown and offers a solve on the page; the server
/// solves it in the background with its progress shown, and when it is done the same game shows
/// the values and the variant list no longer says "(not solved)".
#[test]
fn a_solve_started_from_the_page_ends_in_play() {
    let server = Server::start("browser-solve");
    // Chomp 10x10 is not solved at start-up (a large size class) but solves in moments.
    let (_browser, tab) = open_at(&server, "/?game=chomp&variant=10x10");
    tab.wait_for_element("#solve:not([hidden])").unwrap();
    let label = "document.getElementById('variant').selectedOptions[0].textContent";
    assert_eq!(eval(&tab, label), "10x10 (not solved)");
    assert!(
        text(&tab, "solve-status").contains("not solved yet"),
        "{}",
        text(&tab, "solve-status")
    );
    // Its size is found only by discovering its positions: the page says so.
    assert!(text(&tab, "solve-status").contains("discovering"), "{}", text(&tab, "solve-status"));
    let values =
        "[...new Set([...document.querySelectorAll('#board .move')].map(e => e.dataset.value))]";
    wait_for(&tab, values, &serde_json::json!(["unsolved"]));
    // A move played before the solve stays played through it.
    tab.find_element("#board .move").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(2));
    tab.find_element("#solve").unwrap().click().unwrap();
    let known = format!("{values}.length > 0 && !{values}.includes('unsolved')");
    wait_for_within(&tab, &known, &Value::from(true), Duration::from_secs(120));
    let (_, info) = server.get("/api/chomp/10x10/");
    assert_eq!(info["status"], "solved");
    assert_eq!(eval(&tab, &format!("{POINTS}.length")), 2);
    assert!(eval(&tab, values).as_array().unwrap().iter().all(|v| v != "unsolved"));
    assert!(eval(&tab, PREDICTION).as_str().unwrap().contains(" should "));
    wait_for(&tab, label, &Value::from("10x10"));
    assert_eq!(eval(&tab, "document.getElementById('solve-panel').hidden"), true);
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

/// Fox and Geese (6 geese, solved for the test): the fox's double jump is played hop by hop, one
/// arrow per hop. Its first hop is also a whole move (the fox may stop), so after it the page
/// offers the second hop and the stop; the second hop lands on the API's child position.
#[test]
fn fox_and_geese_jumps_are_played_hop_by_hop() {
    let server = Server::with_solved("browser-foxandgeese", "foxandgeese", "6-geese");
    // The fox on d7 can jump d6 and then d4.
    let p = "GGG/G--/-------/---G---/-------/-G-/-F- F";
    let (_, api) = server.get(&format!("/api/foxandgeese/6-geese/positions/?p={}", encode(p)));
    let moves = api["fullMoves"].as_array().unwrap_or_else(|| panic!("{api}"));
    let find =
        |name: &str| moves.iter().find(|m| m["move"] == name).unwrap_or_else(|| panic!("{api}"));
    let parts = |name: &str| -> Vec<String> {
        let m = find(name);
        m["partMoves"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().into()).collect()
    };
    let (double, single) = (parts("d7d5d3"), parts("d7d5"));
    assert_eq!((double.len(), single.len()), (2, 2), "{double:?} {single:?}");
    assert_eq!(double[0], single[0], "both begin with the hop d7-d5");
    let (_browser, tab) =
        open(&server, &format!("game=foxandgeese&variant=6-geese&p={}", encode(p)));
    let shown = "[...document.querySelectorAll('#board .move')].map(e => e.dataset.move).sort()";
    // The steps (arrows) and the first hop, offered once.
    let mut first: Vec<String> = moves
        .iter()
        .map(|m| match m["partMoves"].as_array() {
            Some(parts) if !parts.is_empty() => parts[0].as_str().unwrap().to_string(),
            _ => m["move"].as_str().unwrap().to_string(),
        })
        .collect();
    first.sort();
    first.dedup();
    assert_eq!(eval(&tab, shown), serde_json::json!(first));
    tab.find_element(&format!("#board .move[data-move=\"{}\"]", double[0]))
        .unwrap()
        .click()
        .unwrap();
    // The second part: the whole moves beginning so, each button named by its move.
    wait_for(&tab, shown, &serde_json::json!(["d7d5", "d7d5d3"]));
    tab.find_element("#board .move[data-move=\"d7d5d3\"]").unwrap().click().unwrap();
    wait_for(&tab, &format!("{POINTS}.length"), &Value::from(2));
    let played = eval(&tab, MOVES_PLAYED);
    assert!(played[0].as_str().unwrap().ends_with("d7d5d3"), "{played}");
    let (_, child) = server.get(&format!(
        "/api/foxandgeese/6-geese/positions/?p={}",
        encode(find("d7d5d3")["position"].as_str().unwrap())
    ));
    let prediction = eval(&tab, PREDICTION);
    let prediction = prediction.as_str().unwrap();
    assert!(prediction.contains(child["positionValue"].as_str().unwrap()), "{prediction} {child}");
}

/// Writes `docs/screenshot-<game>.png` for every game in the catalog (the variant the page opens
/// on: solved if any is, else the quickest to solve, its values unknown), a few moves into a game,
/// value history and all; `docs/screenshot-home.png`; and on a phone (390 x 844)
/// `docs/screenshot-phone-<name>.png` for the home page and a few games. Run on purpose:
/// `cargo test --release -p perfectplay --test browser screenshots -- --ignored`.
#[test]
#[ignore = "writes the documentation's screenshots"]
fn screenshots() {
    let server = Server::start("screenshots");
    let browser = browser();
    let tab = browser.new_tab().unwrap();
    for entry in perfectplay_games::catalog() {
        played_a_little(&server, &tab, entry.id);
        shoot(&tab, &format!("screenshot-{}", entry.id));
    }
    tab.navigate_to(&format!("{}/", server.base)).unwrap();
    tab.wait_for_element("#games .card svg.picture g").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    shoot(&tab, "screenshot-home");
    let tab = tab_sized(&browser, 390, 844);
    tab.navigate_to(&format!("{}/", server.base)).unwrap();
    tab.wait_for_element("#games .card svg.picture g").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    shoot_screen(&tab, "screenshot-phone-home");
    for game in ["ninemensmorris", "quarto", "foxandgeese", "connect4"] {
        played_a_little(&server, &tab, game);
        shoot_screen(&tab, &format!("screenshot-phone-{game}"));
    }
}

/// The page on `game` (the variant it opens on), five moves played by clicking.
fn played_a_little(server: &Server, tab: &Tab, game: &str) {
    tab.navigate_to(&format!("{}/?game={game}", server.base)).unwrap();
    tab.wait_for_element("#board .move").unwrap();
    let variant = eval(tab, "state.variant");
    let variant = variant.as_str().unwrap();
    let mut position = "start".to_string();
    for ply in 0..5 {
        let (_, api) =
            server.get(&format!("/api/{game}/{variant}/positions/?p={}", encode(&position)));
        // Whole moves, with their parts where a move comes in parts.
        let moves = api.get("fullMoves").unwrap_or(&api["moves"]).as_array().unwrap();
        if moves.is_empty() || api.get("searching").is_some() {
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
        wait_for(tab, &format!("{POINTS}.length"), &Value::from(ply + 2));
        position = m["position"].as_str().unwrap().to_string();
    }
    std::thread::sleep(Duration::from_millis(300));
}

/// `docs/<name>.png`: the page as it is drawn now, whole.
fn shoot(tab: &Tab, name: &str) {
    write_png(tab, name, true);
}

/// `docs/<name>.png`: the screen as a person sees it now (a phone's, without the page below).
fn shoot_screen(tab: &Tab, name: &str) {
    write_png(tab, name, false);
}

fn write_png(tab: &Tab, name: &str, whole: bool) {
    use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
    let png =
        tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, whole).unwrap();
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../../docs/{name}.png"));
    std::fs::write(out, png).unwrap();
}
