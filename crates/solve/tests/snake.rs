//! Snake against a plain solver written here on its own board (the body as a set of cells, the two
//! ends as coordinates), every reachable position compared, on several rectangles; the 4x4 start
//! is GamesmanClassic's (`msnake.c`: head on b2, body on c2, tail on c3, the head first).

mod plain;

use perfectplay_core::{Game, Value};
use perfectplay_games::Snake;
use perfectplay_solve::{solve, NoProgress, SolveOptions};
use plain::Plain;

/// The body's cells, the head, the tail (x right, y down from the top left).
type State = (Vec<(i32, i32)>, (i32, i32), (i32, i32));

struct Rules {
    cols: i32,
    rows: i32,
}

impl Rules {
    fn children(&self, (body, head, tail): &State) -> Vec<State> {
        // The head moves when the body is odd.
        let head_moves = body.len() % 2 == 1;
        let end = if head_moves { *head } else { *tail };
        let mut out = Vec::new();
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let to = (end.0 + dx, end.1 + dy);
            let inside = (0..self.cols).contains(&to.0) && (0..self.rows).contains(&to.1);
            if inside && !body.contains(&to) && to != *head && to != *tail {
                let mut b = body.clone();
                b.push(end);
                b.sort();
                out.push(if head_moves { (b, to, *tail) } else { (b, *head, to) });
            }
        }
        out
    }

    fn text(&self, (body, head, tail): &State) -> String {
        let rows: Vec<String> = (0..self.rows)
            .map(|y| {
                (0..self.cols)
                    .map(|x| match (x, y) {
                        at if at == *head => 'h',
                        at if at == *tail => 't',
                        at if body.contains(&at) => 'b',
                        _ => '-',
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }
}

fn check(cols: i32, rows: i32) -> (Value, u16) {
    let variant = format!("{cols}x{rows}");
    let game = Snake::from_variant(&variant).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let rules = Rules { cols, rows };
    let (x, y) = (cols / 2, rows / 2);
    let start: State = (vec![(x, y - 1)], (x - 1, y - 1), (x, y));
    let plain = Plain::solve(
        start.clone(),
        |s| rules.children(s).is_empty().then_some(Value::Lose),
        |s| rules.children(s),
    );
    assert_eq!(rules.text(&start), game.position_to_string(game.start()));
    plain.check(&game, &solution, |s| rules.text(s), &variant);
    plain.values[0]
}

#[test]
fn snake_agrees_with_a_plain_solver_on_several_boards() {
    assert_eq!(
        Snake::from_variant("4x4")
            .unwrap()
            .position_to_string(Snake::from_variant("4x4").unwrap().start()),
        "----/-hb-/--t-/----"
    );
    for (cols, rows) in [(3, 3), (4, 4), (5, 5), (3, 5), (5, 4)] {
        check(cols, rows);
    }
}

#[test]
fn text_that_is_not_a_snake_is_refused() {
    let game = Snake::from_variant("4x4").unwrap();
    for text in
        ["----/-hb-/----/--t-", "----/-h--/--t-/----", "----/-hbb/--t-/----", "h-b-/----/--t-/----"]
    {
        assert!(game.parse_position(text).is_err(), "{text}");
    }
    // Not a path either: the body cells b3 and c2 are not neighbors.
    assert!(game.parse_position("----/-hb-/-bt-/----").is_err());
    assert!(game.parse_position("----/-hb-/-tb-/----").is_ok());
    for bad in ["4x7", "2x4", "44", "4x4x4", "+4x4", ""] {
        assert!(Snake::from_variant(bad).is_err(), "{bad}");
    }
}
