//! Achi against the Image AutoGUI example of 003 section 5.2 (the values GamesmanUni shows at the
//! start and at a sliding position) and against a plain solver written here on its own board:
//! its own lines, its own neighbor table, its own rules, every reachable position compared.

mod plain;

use perfectplay_core::{Game, GameExt, Value};
use perfectplay_games::Achi;
use perfectplay_solve::{solve, NoProgress, SolveOptions};
use plain::Plain;

/// Points 0-8 in reading order; 0 empty, 1 the first player (o), 2 the second (x).
type State = ([u8; 9], u8);

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// The drawn lines of the board: orthogonal steps, and the center to every corner.
const NEIGHBORS: [&[usize]; 9] = [
    &[1, 3, 4],
    &[0, 2, 4],
    &[1, 5, 4],
    &[0, 6, 4],
    &[0, 1, 2, 3, 5, 6, 7, 8],
    &[2, 8, 4],
    &[3, 7, 4],
    &[6, 8, 4],
    &[5, 7, 4],
];

fn children(&(b, me): &State) -> Vec<State> {
    let mut out = Vec::new();
    let placed = b.iter().filter(|&&c| c != 0).count();
    for from in 0..9 {
        if placed < 6 {
            if b[from] == 0 {
                let mut c = b;
                c[from] = me;
                out.push((c, 3 - me));
            }
        } else if b[from] == me {
            for &to in NEIGHBORS[from] {
                if b[to] == 0 {
                    let mut c = b;
                    c[from] = 0;
                    c[to] = me;
                    out.push((c, 3 - me));
                }
            }
        }
    }
    out
}

fn primitive(s: &State) -> Option<Value> {
    let (b, me) = *s;
    let line = LINES.iter().any(|l| l.iter().all(|&i| b[i] == 3 - me));
    (line || children(s).is_empty()).then_some(Value::Lose)
}

fn text(&(b, me): &State) -> String {
    let cells: String = b.iter().map(|&c| ['-', 'o', 'x'][c as usize]).collect();
    format!("{cells} {}", ['-', 'o', 'x'][me as usize])
}

#[test]
fn achi_agrees_with_a_plain_solver_everywhere() {
    let game = Achi::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let plain = Plain::solve(([0u8; 9], 1), primitive, children);
    let analysis = plain.check(&game, &solution, text, "regular");
    assert_eq!(analysis.total(), plain.states.len() as u64);
    // The first player wins.
    assert_eq!(plain.values[0], (Value::Win, 9));
}

/// 003 section 5.2 shows GamesmanUni's Achi: at the start, placing in the center (A_-_4) wins,
/// in a corner (A_-_8) draws and on an edge (A_-_7) loses; at `oxo-x-xo-` with the first player
/// (o) to move there are three moves, M_0_3 drawing, M_7_8 and M_2_5 losing.
#[test]
fn values_of_the_seed_example() {
    let game = Achi::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let move_values = |text: &str| -> Vec<(String, Value)> {
        let p = game.parse_position(text).unwrap();
        let mut out: Vec<(String, Value)> = game
            .legal_moves(p)
            .into_iter()
            .map(|m| {
                let child = solution.get(&game, game.do_move(p, m)).unwrap();
                (game.autogui_move(p, m).unwrap().to_string(), child.value().flip())
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    };
    let start = move_values("--------- o");
    for (button, value) in
        [("A_o_4_x", Value::Win), ("A_o_8_x", Value::Draw), ("A_o_7_x", Value::Lose)]
    {
        assert!(start.contains(&(button.to_string(), value)), "{button}: {start:?}");
    }
    let sliding = move_values("oxo-x-xo- o");
    let want = [("M_0_3_x", Value::Draw), ("M_2_5_x", Value::Lose), ("M_7_8_x", Value::Lose)];
    assert_eq!(sliding, want.map(|(b, v)| (b.to_string(), v)).to_vec());
}
