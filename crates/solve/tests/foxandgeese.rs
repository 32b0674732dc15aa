//! Fox and Geese (002, Teufl) against a plain model written here on its own terms: the cells of
//! a 7x7 grid by coordinates, the cross board as the cells with a coordinate in 2..=4, steps in
//! the eight directions (the geese's with `dy >= 0`, down the board), a capture as two steps the
//! same way over a goose, chains of captures searched over (landing cell, geese left) and ended at
//! three geese. Every position the start reaches is compared, value and remoteness, with the
//! engine's solve (4 geese in the default suite, 5 and 6 with `--ignored`), and the
//! mirror classes per winning side are set beside 002's Table 8.2
//! (`reference/foxandgeese-teufl.tsv`); `foxandgeese.md` beside this file says what agrees and what
//! does not yet.

mod cross;
mod rounds;

use std::borrow::Cow;
use std::collections::HashSet;

use perfectplay_core::{Game, Value};
use perfectplay_games::FoxAndGeese;
use perfectplay_solve::{
    analyze, count_classes_by_mover, count_positions_by_mover, reach_tiered, reach_tiered_classes,
    solve, NoProgress, Solution, SolveError, SolveOptions,
};
use rounds::Explored;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    /// Bit `y * 7 + x` per goose, `y` the row from the top.
    geese: u64,
    fox: u8,
    fox_to_move: bool,
}

fn children(s: State) -> Vec<State> {
    let taken = |geese: u64, c: u8| geese >> c & 1 == 1;
    let mut out = Vec::new();
    if !s.fox_to_move {
        for g in (0..49u8).filter(|&g| taken(s.geese, g)) {
            for d in cross::DIRECTIONS.iter().filter(|d| d.1 >= 0) {
                if let Some(to) =
                    cross::step(g, *d).filter(|&to| !taken(s.geese, to) && to != s.fox)
                {
                    let geese = s.geese & !(1 << g) | 1 << to;
                    out.push(State { geese, fox: s.fox, fox_to_move: true });
                }
            }
        }
        return out;
    }
    for d in cross::DIRECTIONS {
        if let Some(to) = cross::step(s.fox, d).filter(|&to| !taken(s.geese, to)) {
            out.push(State { geese: s.geese, fox: to, fox_to_move: false });
        }
    }
    // Captures: every (landing, geese left) a chain reaches, each once.
    let mut seen: HashSet<(u8, u64)> = HashSet::new();
    let mut stack = vec![(s.fox, s.geese)];
    while let Some((at, geese)) = stack.pop() {
        for d in cross::DIRECTIONS {
            let Some(over) = cross::step(at, d).filter(|&o| taken(geese, o)) else { continue };
            let Some(to) = cross::step(over, d).filter(|&t| !taken(geese, t)) else { continue };
            let left = geese & !(1 << over);
            if seen.insert((to, left)) {
                out.push(State { geese: left, fox: to, fox_to_move: false });
                if left.count_ones() >= 4 {
                    stack.push((to, left));
                }
            }
        }
    }
    out
}

fn primitive(s: State) -> Option<Value> {
    (s.geese.count_ones() < 4 || children(s).is_empty()).then_some(Value::Lose)
}

/// The text form the game reads: the board's rows of 3, 3, 7, 7, 7, 3 and 3 points.
fn text(s: State) -> String {
    let rows = cross::rows(|c| {
        if c == s.fox {
            'F'
        } else if s.geese >> c & 1 == 1 {
            'G'
        } else {
            '-'
        }
    });
    format!("{rows} {}", if s.fox_to_move { 'F' } else { 'G' })
}

fn mirror(s: State) -> State {
    let flip = |c: u8| (c / 7) * 7 + 6 - c % 7;
    let geese = (0..49u8).filter(|&c| s.geese >> c & 1 == 1).fold(0, |m, c| m | 1 << flip(c));
    State { geese, fox: flip(s.fox), ..s }
}

/// Mirror classes: all, those the geese win, those the fox wins.
#[derive(Debug, PartialEq, Eq)]
struct Classes {
    states: u64,
    geese_win: u64,
    fox_wins: u64,
}

/// The start the module's header describes: the top arm, then row 3 from the middle out, then
/// a4 and g4; the fox on d4.
fn start(geese: usize) -> State {
    let fill = [
        (3, 0),
        (2, 0),
        (4, 0),
        (3, 1),
        (2, 1),
        (4, 1),
        (3, 2),
        (2, 2),
        (4, 2),
        (1, 2),
        (5, 2),
        (0, 2),
        (6, 2),
        (0, 3),
        (6, 3),
    ];
    let geese = fill[..geese].iter().fold(0u64, |m, &(x, y)| m | 1 << cross::cell(x, y).unwrap());
    State { geese, fox: cross::cell(3, 3).unwrap(), fox_to_move: false }
}

impl Classes {
    /// Counts one class of value `v`, with the fox to move or not.
    fn tally(&mut self, v: Value, fox_to_move: bool) {
        self.states += 1;
        match v {
            Value::Win if fox_to_move => self.fox_wins += 1,
            Value::Lose if !fox_to_move => self.fox_wins += 1,
            Value::Win | Value::Lose => self.geese_win += 1,
            _ => {}
        }
    }
}

/// Solves `geese` both ways and compares every reachable position; returns the plain model's
/// mirror classes.
fn check(geese: usize) -> Classes {
    let game = FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let start = start(geese);
    assert_eq!(game.position_to_string(game.start()), text(start));
    let explored = Explored::new(start, primitive, children);
    let values = explored.solve();
    explored.check_solution(&values, &game, &solution, text);
    let mut classes = Classes { states: 0, geese_win: 0, fox_wins: 0 };
    let mut seen = HashSet::new();
    for (&s, &(v, _)) in explored.states.iter().zip(&values) {
        let key = [s, mirror(s)].into_iter().map(|s| (s.geese, s.fox, s.fox_to_move)).min();
        if seen.insert(key) {
            classes.tally(v, s.fox_to_move);
        }
    }
    let draws = classes.states - classes.geese_win - classes.fox_wins;
    assert_eq!((classes.states, draws), engine_classes(&game, &solution));
    assert_eq!(classes_by_side(&game, &solution), classes);
    classes
}

/// The engine's analysis of the start's reach: its classes in all, and its draws.
fn engine_classes(game: &FoxAndGeese, solution: &Solution) -> (u64, u64) {
    let analysis = analyze(game, solution, &NoProgress).unwrap();
    let draws =
        analysis.rows().filter(|r| r.value.value() == Value::Draw).map(|r| r.canonical_count);
    (analysis.canonical_total(), draws.sum())
}

/// Table 8.2's row for `geese`: exact states, states the geese win, states the fox wins.
fn teufl(geese: usize) -> Classes {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../reference/foxandgeese-teufl.tsv");
    let table = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let row = table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == geese.to_string())
        .expect("a row");
    let n = |i: usize| row[i].parse::<u64>().expect("a count");
    Classes { states: n(2), geese_win: n(3), fox_wins: n(4) }
}

/// Our classes for `geese` beside Table 8.2's row.
fn beside_table(geese: usize, ours: Classes) {
    let theirs = teufl(geese);
    eprintln!("{geese} geese: ours {ours:?}, Table 8.2 {theirs:?}");
    assert_eq!(ours.geese_win, theirs.geese_win);
    let draws = |c: &Classes| c.states - c.geese_win - c.fox_wins;
    // Not yet explained: Table 8.2 holds 28 more states than the start reaches here, 27 of
    // them won by the fox and one a draw, for 4 to 8 geese alike (`foxandgeese.md`).
    assert_eq!((theirs.states - ours.states, draws(&theirs) - draws(&ours)), (28, 1));
}

/// The engine's own mirror classes per winning side, from its search of what the start
/// reaches ([`count_classes_by_mover`]: the geese move first).
fn classes_by_side(game: &FoxAndGeese, solution: &Solution) -> Classes {
    let reached = perfectplay_solve::reach_tiered_classes(game, &NoProgress).unwrap();
    let tier = |t| solution.tier(t).map(Cow::Borrowed).ok_or(SolveError::Sink("a tier".into()));
    let [geese, fox] = count_classes_by_mover(game, &reached, &tier, &NoProgress).unwrap();
    let (lose, win) = (Value::Lose as usize, Value::Win as usize);
    Classes {
        states: geese.iter().chain(&fox).sum(),
        geese_win: geese[win] + fox[lose],
        fox_wins: fox[win] + geese[lose],
    }
}

/// [`classes_by_side`] for the variants too large for the plain model.
fn engine_sides(geese: usize) -> Classes {
    let game = FoxAndGeese::from_variant(&format!("{geese}-geese")).unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    classes_by_side(&game, &solution)
}

#[test]
#[ignore]
fn seven_geese_beside_table_8_2() {
    beside_table(7, engine_sides(7));
}

#[test]
#[ignore]
fn eight_geese_beside_table_8_2() {
    beside_table(8, engine_sides(8));
}

#[test]
#[ignore]
fn nine_geese_beside_table_8_2() {
    beside_table(9, engine_sides(9));
}

#[test]
fn four_geese_match_a_plain_solver_everywhere() {
    beside_table(4, check(4));
}

#[test]
#[ignore]
fn five_geese_match_a_plain_solver_everywhere() {
    beside_table(5, check(5));
}

#[test]
#[ignore]
fn six_geese_match_a_plain_solver_everywhere() {
    beside_table(6, check(6));
}

/// Every index of every tier of 5 geese that names a canonical position, reachable or not, holds
/// the best value over its children (003 section 2.1), or its own end: the whole solve checked
/// against the game's moves (the plain model above covers 5 geese with `--ignored` only).
#[test]
fn five_geese_every_position_is_the_best_over_its_children() {
    use perfectplay_core::{GameExt, Remoteness, ValueRemoteness};
    use rayon::prelude::*;
    let game = FoxAndGeese::from_variant("5-geese").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let checked: u64 = game
        .tiers()
        .into_par_iter()
        .map(|t| {
            let mut children = Vec::new();
            let mut checked = 0;
            for i in 0..game.tier_size(t) {
                let Some(p) = game.tier_position(t, i).filter(|&p| game.canonical(p) == p) else {
                    continue;
                };
                let v = solution.get(&game, p).expect("solved");
                let expected = match game.primitive(p) {
                    Some(end) => ValueRemoteness::new(end, Remoteness(0)),
                    None => {
                        children.clear();
                        game.children(p, &mut children);
                        let value = |c| solution.get(&game, c).expect("a child solved").to_parent();
                        children.iter().map(|&c| value(c)).max().expect("a move")
                    }
                };
                assert_eq!(v, expected, "{}", game.position_to_string(p));
                checked += 1;
            }
            checked
        })
        .sum();
    // At least every position the start reaches (7,919,604, `foxandgeese.md`) was checked.
    assert!(checked >= 7_919_604, "{checked}");
}

/// [`count_positions_by_mover`] on 4 geese against the plain model solved over every state the
/// variant's tiers can hold, whether the start reaches it or not: the fox on any point, 4 geese
/// on others with either side to move or 3 with the geese to move, each mirror class once, by
/// side to move and value. They are the 1,270,879 positions of `foxandgeese.md`'s universe.
#[test]
fn four_geese_every_position_counted_as_the_plain_model_counts_it() {
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    enum Node {
        /// A root above every state, so that one search holds them all.
        Root,
        At(State),
    }
    let points: Vec<u8> =
        (0..49).filter(|&c| cross::cell(c % 7, c / 7).is_some()).map(|c| c as u8).collect();
    let mut every = Vec::new();
    for &fox in &points {
        let others: Vec<u8> = points.iter().copied().filter(|&c| c != fox).collect();
        let n = others.len();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    let three = 1u64 << others[a] | 1 << others[b] | 1 << others[c];
                    let sets =
                        std::iter::once(three).chain((c + 1..n).map(|d| three | 1 << others[d]));
                    for geese in sets {
                        // A capture that leaves three geese leaves them to move.
                        for fox_to_move in [false, true] {
                            if fox_to_move && geese.count_ones() == 3 {
                                continue;
                            }
                            every.push(State { geese, fox, fox_to_move });
                        }
                    }
                }
            }
        }
    }
    let explored = Explored::new(
        Node::Root,
        |n| match n {
            Node::Root => None,
            Node::At(s) => primitive(s),
        },
        |n| match n {
            Node::Root => every.iter().map(|&s| Node::At(s)).collect(),
            Node::At(s) => children(s).into_iter().map(Node::At).collect(),
        },
    );
    assert_eq!(explored.states.len(), every.len() + 1, "every child is one of them");
    let values = explored.solve();
    let mut plain = [[0u64; 4]; 2];
    let mut seen = HashSet::new();
    for (&n, &(v, _)) in explored.states.iter().zip(&values) {
        let Node::At(s) = n else { continue };
        let key = [s, mirror(s)].into_iter().map(|s| (s.geese, s.fox, s.fox_to_move)).min();
        if seen.insert(key) {
            plain[usize::from(s.fox_to_move)][v as usize] += 1;
        }
    }

    let game = FoxAndGeese::from_variant("4-geese").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let tier = |t| solution.tier(t).map(Cow::Borrowed).ok_or(SolveError::Sink("a tier".into()));
    let engine = count_positions_by_mover(&game, &tier, &NoProgress).unwrap();
    eprintln!("4 geese, every position by mover [lose, draw, tie, win]: {engine:?}");
    assert_eq!(engine, plain);
    assert_eq!(engine.iter().flatten().sum::<u64>(), 1_270_879);
}

/// 5 geese start on one side of the mirror, so the positions the start reaches are not closed
/// under it: [`analyze`] tells a class's two orientations apart. Its count of reachable
/// positions, per value and remoteness, against a plain search from the start over the game's
/// moves that keeps every position it meets, not up to the mirror.
#[test]
fn five_geese_analysis_counts_every_reachable_position_once() {
    use std::collections::BTreeMap;
    let game = FoxAndGeese::from_variant("5-geese").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    assert_eq!(game.position_to_string(game.start()), text(start(5)));
    assert_ne!(mirror(start(5)), start(5), "the start is not its own mirror image");
    let key = |vr: perfectplay_core::ValueRemoteness| match vr.value() {
        Value::Draw => (Value::Draw as u8, 0),
        v => (v as u8, vr.remoteness_or_zero()),
    };
    let mut seen = HashSet::from([game.start()]);
    let mut frontier = vec![game.start()];
    let mut children = Vec::new();
    let mut plain: BTreeMap<(u8, u16), u64> = BTreeMap::new();
    while let Some(p) = frontier.pop() {
        *plain.entry(key(solution.get(&game, p).expect("solved"))).or_default() += 1;
        if game.primitive(p).is_none() {
            children.clear();
            game.children(p, &mut children);
            frontier.extend(children.iter().copied().filter(|&c| seen.insert(c)));
        }
    }
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    let mut engine: BTreeMap<(u8, u16), u64> = BTreeMap::new();
    for r in analysis.rows() {
        *engine.entry(key(r.value)).or_default() += r.count;
    }
    assert_eq!(engine, plain);
    // The classes are unchanged: 7,919,604 (`foxandgeese.md`), of about twice as many positions.
    assert_eq!(analysis.canonical_total(), 7_919_604);
    assert!(analysis.total() > 15_000_000, "{}", analysis.total());
    // By side to move and value, the search that tells orientations apart and the one that does
    // not find the same classes.
    let tier = |t| solution.tier(t).map(Cow::Borrowed).ok_or(SolveError::Sink("a tier".into()));
    let [members, classes] = [reach_tiered, reach_tiered_classes].map(|reach| {
        let reached = reach(&game, &NoProgress).unwrap();
        count_classes_by_mover(&game, &reached, &tier, &NoProgress).unwrap()
    });
    assert_eq!(members, classes);
    assert_eq!(members.iter().flatten().sum::<u64>(), 7_919_604);
}
