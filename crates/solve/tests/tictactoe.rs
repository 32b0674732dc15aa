//! Tic-Tac-Toe against an independent brute force written here: its own board, its own rules, a
//! plain memoized minimax with remoteness, its own reachability search and symmetry reduction.

use std::collections::{BTreeMap, HashMap, HashSet};

use perfectplay_core::{Game, Position, Value};
use perfectplay_games::TicTacToe;
use perfectplay_solve::{analyze, solve, NoProgress, SolveOptions};

type Board = [u8; 9];

fn winner(b: &Board) -> u8 {
    const L: [[usize; 3]; 8] =
        [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    for l in L {
        if b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] {
            return b[l[0]];
        }
    }
    0
}

fn turn(b: &Board) -> u8 {
    if b.iter().filter(|&&c| c == 1).count() == b.iter().filter(|&&c| c == 2).count() {
        1
    } else {
        2
    }
}

/// (value, remoteness) by plain recursion: win fastest, else tie fastest, else lose slowest.
fn brute(b: Board, memo: &mut HashMap<Board, (Value, u16)>) -> (Value, u16) {
    if let Some(&v) = memo.get(&b) {
        return v;
    }
    let result = if winner(&b) != 0 {
        (Value::Lose, 0)
    } else if b.iter().all(|&c| c != 0) {
        (Value::Tie, 0)
    } else {
        let me = turn(&b);
        let kids: Vec<(Value, u16)> = (0..9)
            .filter(|&i| b[i] == 0)
            .map(|i| {
                let mut c = b;
                c[i] = me;
                brute(c, memo)
            })
            .collect();
        let min_lose = kids.iter().filter(|k| k.0 == Value::Lose).map(|k| k.1).min();
        let min_tie = kids.iter().filter(|k| k.0 == Value::Tie).map(|k| k.1).min();
        let max_win = kids.iter().map(|k| k.1).max().unwrap();
        if let Some(r) = min_lose {
            (Value::Win, r + 1)
        } else if let Some(r) = min_tie {
            (Value::Tie, r + 1)
        } else {
            (Value::Lose, max_win + 1)
        }
    };
    memo.insert(b, result);
    result
}

fn symmetric_images(b: &Board) -> Vec<Board> {
    let rot = |b: &Board| -> Board { [b[6], b[3], b[0], b[7], b[4], b[1], b[8], b[5], b[2]] };
    let flip = |b: &Board| -> Board { [b[2], b[1], b[0], b[5], b[4], b[3], b[8], b[7], b[6]] };
    let mut out = Vec::new();
    let mut x = *b;
    for _ in 0..4 {
        out.push(x);
        out.push(flip(&x));
        x = rot(&x);
    }
    out
}

fn code(b: &Board) -> Position {
    Position(b.iter().rev().fold(0u64, |acc, &c| acc * 3 + u64::from(c)))
}

#[test]
fn tictactoe_agrees_with_brute_force() {
    let game = TicTacToe::default();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    let analysis = analyze(&game, &solution, &NoProgress).unwrap();

    // Reachable boards by depth-first search.
    let mut reachable: HashSet<Board> = HashSet::new();
    let mut stack = vec![[0u8; 9]];
    while let Some(b) = stack.pop() {
        if !reachable.insert(b) || winner(&b) != 0 {
            continue;
        }
        let me = turn(&b);
        for i in (0..9).filter(|&i| b[i] == 0) {
            let mut c = b;
            c[i] = me;
            stack.push(c);
        }
    }
    let mut memo = HashMap::new();
    let mut expected: BTreeMap<(String, u16), (u64, u64)> = BTreeMap::new();
    let mut classes: HashSet<Board> = HashSet::new();
    for b in &reachable {
        let (v, r) = brute(*b, &mut memo);
        let class = symmetric_images(b).into_iter().min().unwrap();
        let e = expected.entry((v.name().to_string(), r)).or_default();
        e.0 += 1;
        if classes.insert(class) {
            e.1 += 1;
        }
        // Every reachable position's stored value is the brute force's.
        let vr = solution.get(&game, code(b)).expect("reachable position solved");
        assert_eq!((vr.value(), vr.remoteness_or_zero()), (v, r), "board {b:?}");
    }
    assert_eq!(reachable.len(), 5478);
    assert_eq!(classes.len(), 765);

    let mut got: BTreeMap<(String, u16), (u64, u64)> = BTreeMap::new();
    for row in analysis.rows() {
        got.insert(
            (row.value.value().name().to_string(), row.value.remoteness_or_zero()),
            (row.count, row.canonical_count),
        );
    }
    assert_eq!(got, expected);
    assert_eq!(analysis.total(), 5478);
    assert_eq!(analysis.canonical_total(), 765);

    let start = solution.get(&game, game.start()).unwrap();
    assert_eq!((start.value(), start.remoteness_or_zero()), (Value::Tie, 9));
    assert!(analysis.to_tsv().starts_with("value\tremoteness\tcount\tcanonical_count\n"));
}

/// Counting every reachable position by the images of the canonical ones (the start is its own
/// only image, so the reachable positions are closed under the symmetries) gives what a second
/// search without symmetry reduction counts.
#[test]
fn counting_by_images_equals_counting_by_search() {
    let game = perfectplay_games::TicTacToe::default();
    let solution =
        perfectplay_solve::solve(&game, Default::default(), &perfectplay_solve::NoProgress, None)
            .unwrap();
    let count = |by_images| {
        perfectplay_solve::analyze_counting(
            &game,
            &solution,
            &perfectplay_solve::NoProgress,
            by_images,
        )
        .unwrap()
    };
    let (by_images, by_search) = (count(true), count(false));
    assert_eq!(by_images.total(), 5478);
    assert_eq!(by_images, by_search);
}
