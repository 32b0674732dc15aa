//! Abrobad against an independent solver written here: its own board (axial hex coordinates,
//! checked against the adjacency table of GamesmanClassic's `mabrobad.c`, whose first rows 004
//! prints), its own rules from 004, its own search of the reachable positions and its own
//! retrograde analysis (the game is loopy: positions neither side can force are draws), compared
//! with the engine on every reachable position, value and remoteness.

use std::collections::HashMap;
use std::sync::OnceLock;

use perfectplay_core::{Game, Value};
use perfectplay_games::Abrobad;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

/// Cells 1 to 12 in axial coordinates (column, row): rows of 2, 3, 4 and 3.
const AXIAL: [(i32, i32); 12] = [
    (1, 0),
    (2, 0),
    (0, 1),
    (1, 1),
    (2, 1),
    (-1, 2),
    (0, 2),
    (1, 2),
    (2, 2),
    (-1, 3),
    (0, 3),
    (1, 3),
];
const DIRS: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// `adj` of GamesmanClassic's mabrobad.c (0-based cells).
const GC_ADJ: [&[usize]; 12] = [
    &[1, 2, 3],
    &[0, 3, 4],
    &[0, 3, 5, 6],
    &[0, 1, 2, 4, 6, 7],
    &[1, 3, 7, 8],
    &[2, 6, 9],
    &[2, 3, 5, 7, 9, 10],
    &[3, 4, 6, 8, 10, 11],
    &[4, 7, 11],
    &[5, 6, 10],
    &[6, 7, 9, 11],
    &[7, 8, 10],
];

fn at(q: i32, r: i32) -> Option<usize> {
    AXIAL.iter().position(|&c| c == (q, r))
}

fn neighbors(c: usize) -> &'static [usize] {
    static TABLE: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    &TABLE.get_or_init(|| {
        (0..12)
            .map(|c| {
                let (q, r) = AXIAL[c];
                let mut n: Vec<usize> =
                    DIRS.iter().filter_map(|&(dq, dr)| at(q + dq, r + dr)).collect();
                n.sort_unstable();
                n
            })
            .collect()
    })[c]
}

/// A state: cells (0 empty, 1 X, 2 O) and the player to move (1 X, 2 O).
type State = ([u8; 12], u8);

fn groups(b: &[u8; 12], me: u8) -> usize {
    let mut label = [usize::MAX; 12];
    let mut count = 0;
    for s in 0..12 {
        if b[s] != me || label[s] != usize::MAX {
            continue;
        }
        let mut todo = vec![s];
        label[s] = count;
        while let Some(c) = todo.pop() {
            for &d in neighbors(c) {
                if b[d] == me && label[d] == usize::MAX {
                    label[d] = count;
                    todo.push(d);
                }
            }
        }
        count += 1;
    }
    count
}

/// The value of a full board for the player to move: the last mover wins with no more groups.
fn primitive(s: &State) -> Option<Value> {
    let (b, me) = s;
    if b.contains(&0) {
        return None;
    }
    Some(if groups(b, *me) >= groups(b, 3 - me) { Value::Lose } else { Value::Win })
}

fn children(s: &State) -> Vec<State> {
    let (b, me) = *s;
    let placements: Vec<State> = (0..12)
        .filter(|&c| b[c] == 0 && neighbors(c).iter().all(|&d| b[d] != me))
        .map(|c| {
            let mut n = b;
            n[c] = me;
            (n, 3 - me)
        })
        .collect();
    if !placements.is_empty() {
        return placements;
    }
    let mut out = Vec::new();
    for c in (0..12).filter(|&c| b[c] == me) {
        let (q, r) = AXIAL[c];
        for (dq, dr) in DIRS {
            let ray = (1..).map_while(|k| at(q + k * dq, r + k * dr));
            if let Some(to) = ray.into_iter().find(|&t| b[t] == 0) {
                let mut n = b;
                n.swap(c, to);
                out.push((n, 3 - me));
            }
        }
    }
    let mut end = b;
    end.iter_mut().filter(|x| **x == 0).for_each(|x| *x = 3 - me);
    out.push((end, 3 - me));
    out
}

fn text(s: &State) -> String {
    let cells: String = s.0.iter().map(|&c| ['-', 'x', 'o'][c as usize]).collect();
    format!("{cells} {}", if s.1 == 1 { 'x' } else { 'o' })
}

/// Every reachable state's value and remoteness (draws without), by retrograde analysis level by
/// level: a position wins one more than its quickest losing child, and loses one more than its
/// slowest child once all its children win.
fn retrograde() -> HashMap<State, Option<(Value, u16)>> {
    // The reachable states, numbered in the order a breadth-first search meets them.
    let mut index: HashMap<State, usize> = HashMap::from([(([0; 12], 1), 0)]);
    let mut states: Vec<State> = vec![([0; 12], 1)];
    let mut kids: Vec<Vec<usize>> = Vec::new();
    while kids.len() < states.len() {
        let s = states[kids.len()];
        let c = if primitive(&s).is_some() { Vec::new() } else { children(&s) };
        let numbers = c.into_iter().map(|k| {
            *index.entry(k).or_insert_with(|| {
                states.push(k);
                states.len() - 1
            })
        });
        kids.push(numbers.collect());
    }
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); states.len()];
    for (s, c) in kids.iter().enumerate() {
        c.iter().for_each(|&k| parents[k].push(s));
    }
    let mut result: Vec<Option<(Value, u16)>> =
        states.iter().map(|s| primitive(s).map(|v| (v, 0))).collect();
    let mut unresolved: Vec<usize> = kids.iter().map(Vec::len).collect();
    let mut level: Vec<usize> = (0..states.len()).filter(|&s| result[s].is_some()).collect();
    let mut r = 0;
    while !level.is_empty() {
        let mut next = Vec::new();
        for &s in &level {
            let lost = result[s].unwrap().0 == Value::Lose;
            for &p in &parents[s] {
                if result[p].is_some() {
                    continue;
                }
                unresolved[p] -= 1;
                if lost || unresolved[p] == 0 {
                    result[p] = Some((if lost { Value::Win } else { Value::Lose }, r + 1));
                    next.push(p);
                }
            }
        }
        level = next;
        r += 1;
    }
    states.into_iter().zip(result).collect()
}

#[test]
fn the_board_is_mabrobads() {
    for (c, adj) in GC_ADJ.iter().enumerate() {
        assert_eq!(neighbors(c), adj.to_vec(), "cell {}", c + 1);
    }
}

#[test]
fn agrees_with_an_independent_retrograde_analysis() {
    let game = Abrobad::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let expected = retrograde();
    for (s, vr) in &expected {
        let p = game.parse_position(&text(s)).unwrap();
        let got = solution.get(&game, p).expect("reachable position solved");
        let got = match got.value() {
            Value::Draw => None,
            v => Some((v, got.remoteness_or_zero())),
        };
        assert_eq!(&got, vr, "{}", text(s));
    }
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();
    assert_eq!(analysis.total(), expected.len() as u64);
}
