//! L-game against the published facts and a plain solver written here on its own board: the Ls
//! made by turning and flipping one L shape, the positions found by a search of its own.
//!
//! Published: the L-game is a draw under perfect play ("in a game with two perfect players,
//! neither will ever win or lose": Wikipedia's L game article, quoted on J. P. Neto's L-game page);
//! there are 2,296 placements of the pieces up to the board's 8 symmetries, the neutral pieces
//! alike (GamesCrafters' L-game page; its "18,268 if redundant positions are counted" is a slip for
//! 8 x 2,296 = 18,368, no placement being its own mirror image, as counted here); and 15 of those
//! leave the player to move no place for their L (the fifteen end positions everything2's L-game
//! page draws).

mod rounds;

use std::collections::HashSet;

use perfectplay_core::{Game, Remoteness, Value, ValueRemoteness};
use perfectplay_games::LGame;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};
use rounds::Explored;

/// Cells as bits `4 * y + x`, y the row from the top.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    red: u16,
    blue: u16,
    neutral: u16,
    blue_to_move: bool,
}

fn bit(x: i32, y: i32) -> u16 {
    1 << (4 * y + x)
}

type Map = fn(i32, i32) -> (i32, i32);

/// The 8 maps of the square on coordinates 0..4.
fn square_maps() -> [Map; 8] {
    [
        |x, y| (x, y),
        |x, y| (3 - y, x),
        |x, y| (3 - x, 3 - y),
        |x, y| (y, 3 - x),
        |x, y| (3 - x, y),
        |x, y| (x, 3 - y),
        |x, y| (y, x),
        |x, y| (3 - y, 3 - x),
    ]
}

fn map_mask(m: u16, f: Map) -> u16 {
    (0..16).filter(|i| m >> i & 1 == 1).fold(0, |acc, i| {
        let (x, y) = f(i % 4, i / 4);
        acc | bit(x, y)
    })
}

/// Every L on the board: the images of one L under the square's maps, at every shift that fits.
fn all_ls() -> Vec<u16> {
    let base = bit(0, 0) | bit(0, 1) | bit(0, 2) | bit(1, 2);
    let mut shapes = HashSet::new();
    for f in square_maps() {
        shapes.insert(map_mask(base, f));
    }
    let mut out = HashSet::new();
    for s in shapes {
        for dx in -3..4 {
            for dy in -3..4 {
                let cells: Vec<(i32, i32)> =
                    (0..16).filter(|i| s >> i & 1 == 1).map(|i| (i % 4 + dx, i / 4 + dy)).collect();
                if cells.iter().all(|&(x, y)| (0..4).contains(&x) && (0..4).contains(&y)) {
                    out.insert(cells.iter().fold(0, |acc, &(x, y)| acc | bit(x, y)));
                }
            }
        }
    }
    out.into_iter().collect()
}

struct Reference {
    ls: Vec<u16>,
}

impl Reference {
    fn l_moves(&self, s: State) -> Vec<u16> {
        let (mine, other) = if s.blue_to_move { (s.blue, s.red) } else { (s.red, s.blue) };
        self.ls.iter().copied().filter(|&l| l != mine && l & (other | s.neutral) == 0).collect()
    }
    fn children(&self, s: State) -> Vec<State> {
        let mut out = Vec::new();
        for l in self.l_moves(s) {
            let mut next = s;
            if s.blue_to_move {
                next.blue = l;
            } else {
                next.red = l;
            }
            next.blue_to_move = !s.blue_to_move;
            out.push(next);
            let empty = !(next.red | next.blue | s.neutral);
            for from in (0..16).filter(|i| s.neutral >> i & 1 == 1) {
                for to in (0..16).filter(|i| empty >> i & 1 == 1) {
                    out.push(State { neutral: s.neutral ^ 1 << from ^ 1 << to, ..next });
                }
            }
        }
        out
    }
    fn text(s: State) -> String {
        let rows: Vec<String> = (0..4)
            .map(|y| {
                (0..4)
                    .map(|x| {
                        let b = bit(x, y);
                        [(s.red, 'r'), (s.blue, 'b'), (s.neutral, 'n')]
                            .iter()
                            .find(|(m, _)| m & b != 0)
                            .map_or('-', |&(_, c)| c)
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", rows.join("/"), if s.blue_to_move { 'b' } else { 'r' })
    }
}

/// Every placement of the pieces, and their classes under the square's symmetries.
/// The red L, the blue L, the neutral pieces.
type Arrangement = (u16, u16, u16);

fn arrangements(ls: &[u16]) -> (Vec<Arrangement>, HashSet<Arrangement>) {
    let mut all = Vec::new();
    for &red in ls {
        for &blue in ls.iter().filter(|&&b| b & red == 0) {
            let free: Vec<u16> = (0..16).filter(|i| (red | blue) >> i & 1 == 0).collect();
            for (i, a) in free.iter().enumerate() {
                for b in &free[i + 1..] {
                    all.push((red, blue, 1 << a | 1 << b));
                }
            }
        }
    }
    let maps = square_maps();
    let classes = all
        .iter()
        .map(|&(r, b, n)| {
            maps.iter().map(|f| (map_mask(r, *f), map_mask(b, *f), map_mask(n, *f))).min()
        })
        .map(Option::unwrap)
        .collect();
    (all, classes)
}

#[test]
fn placements_number_as_published() {
    let ls = all_ls();
    assert_eq!(ls.len(), 48);
    let (all, classes) = arrangements(&ls);
    assert_eq!(all.len(), 18_368);
    assert_eq!(classes.len(), 2_296);
    // The end positions: the player to move (red, say) has nowhere to put their L.
    let r = Reference { ls: ls.clone() };
    let stuck: HashSet<_> = all
        .iter()
        .filter(|&&(red, blue, neutral)| {
            r.l_moves(State { red, blue, neutral, blue_to_move: false }).is_empty()
        })
        .map(|&(red, blue, neutral)| {
            square_maps()
                .iter()
                .map(|f| (map_mask(red, *f), map_mask(blue, *f), map_mask(neutral, *f)))
                .min()
                .unwrap()
        })
        .collect();
    assert_eq!(stuck.len(), 15);
}

#[test]
fn lgame_matches_a_plain_solver_everywhere() {
    let game = LGame::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let r = Reference { ls: all_ls() };
    let start = State {
        red: bit(1, 1) | bit(1, 2) | bit(1, 3) | bit(2, 3),
        blue: bit(1, 0) | bit(2, 0) | bit(2, 1) | bit(2, 2),
        neutral: bit(0, 0) | bit(3, 3),
        blue_to_move: false,
    };
    assert_eq!(game.position_to_string(game.start()), Reference::text(start));
    let explored =
        Explored::new(start, |s| r.l_moves(s).is_empty().then_some(Value::Lose), |s| r.children(s));
    // Every placement with either player to move is reached.
    assert_eq!(explored.states.len(), 2 * 18_368);
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, Reference::text);
    // Published: a draw.
    assert_eq!(values[0].0, Value::Draw);
    assert_eq!(solution.get(&game, game.start()).unwrap().value(), Value::Draw);
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!((analysis.total(), analysis.canonical_total()), (2 * 18_368, 2 * 2_296));
    // The 15 end positions, with either player to move, are the losses in 0.
    let lost = ValueRemoteness::new(Value::Lose, Remoteness(0));
    let ends = analysis.rows().find(|row| row.value == lost).unwrap();
    assert_eq!(ends.canonical_count, 2 * 15);
}
