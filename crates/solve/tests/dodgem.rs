//! Dodgem against a plain solver written here on its own board (the cars as coordinates), every
//! reachable position compared, and against the published answers: the first player wins 3x3
//! Dodgem (Winning Ways, chapter 22, which tabulates every position), and 4x4 Dodgem never ends
//! with perfect play (David des Jardins, 1996, as cited by Wikipedia's "Dodgem").

mod plain;

use perfectplay_core::{Game, Value};
use perfectplay_games::Dodgem;
use perfectplay_solve::{solve, NoProgress, SolveOptions};
use plain::Plain;

/// Blue's cars and red's (x right, y down from the top left), sorted, and whether blue moves.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    blue: Vec<(i32, i32)>,
    red: Vec<(i32, i32)>,
    blue_moves: bool,
}

struct Rules {
    n: i32,
    stuck: Value,
}

impl Rules {
    fn start(&self) -> State {
        let n = self.n;
        State {
            blue: (0..n - 1).map(|y| (0, y)).collect(),
            red: (1..n).map(|x| (x, n - 1)).collect(),
            blue_moves: true,
        }
    }

    fn children(&self, s: &State) -> Vec<State> {
        let n = self.n;
        let (mine, forward, sideways) = if s.blue_moves {
            (&s.blue, (1, 0), [(0, -1), (0, 1)])
        } else {
            (&s.red, (0, -1), [(-1, 0), (1, 0)])
        };
        let occupied = |x: i32, y: i32| s.blue.contains(&(x, y)) || s.red.contains(&(x, y));
        let mut out = Vec::new();
        for (i, &(x, y)) in mine.iter().enumerate() {
            for (k, (dx, dy)) in [forward, sideways[0], sideways[1]].into_iter().enumerate() {
                let (tx, ty) = (x + dx, y + dy);
                let inside = (0..n).contains(&tx) && (0..n).contains(&ty);
                if inside && occupied(tx, ty) || !inside && k != 0 {
                    continue;
                }
                let mut cars = mine.clone();
                cars.remove(i);
                if inside {
                    cars.push((tx, ty));
                    cars.sort();
                }
                out.push(if s.blue_moves {
                    State { blue: cars, red: s.red.clone(), blue_moves: false }
                } else {
                    State { blue: s.blue.clone(), red: cars, blue_moves: true }
                });
            }
        }
        out
    }

    fn primitive(&self, s: &State) -> Option<Value> {
        let theirs = if s.blue_moves { &s.red } else { &s.blue };
        if theirs.is_empty() {
            Some(Value::Lose)
        } else {
            self.children(s).is_empty().then_some(self.stuck)
        }
    }

    fn text(&self, s: &State) -> String {
        let cells: String = (0..self.n * self.n)
            .map(|c| {
                let at = (c % self.n, c / self.n);
                if s.blue.contains(&at) {
                    'b'
                } else if s.red.contains(&at) {
                    'r'
                } else {
                    '-'
                }
            })
            .collect();
        format!("{cells} {}", if s.blue_moves { 'b' } else { 'r' })
    }
}

fn check(variant: &str, n: i32, stuck: Value) -> (Value, u16) {
    let game = Dodgem::from_variant(variant).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let rules = Rules { n, stuck };
    let plain = Plain::solve(rules.start(), |s| rules.primitive(s), |s| rules.children(s));
    assert_eq!(rules.text(&rules.start()), game.position_to_string(game.start()));
    plain.check(&game, &solution, |s| rules.text(s), variant);
    plain.values[0]
}

#[test]
fn the_first_player_wins_3x3_dodgem() {
    assert_eq!(check("regular", 3, Value::Win).0, Value::Win);
    assert_eq!(check("lose-if-stuck", 3, Value::Lose).0, Value::Win);
}

#[test]
fn dodgem_4x4_is_a_draw() {
    assert_eq!(check("4x4-regular", 4, Value::Win), (Value::Draw, 0));
}
