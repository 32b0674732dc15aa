//! Nine, Six and Three Men's Morris by the tier solver.
//!
//! Default suite:
//! - Nine Men's Morris's moving phase with at most four pieces a side (`regular/moving-4`):
//!   every canonical position checked against its children, and 003 Table B.5's rows 3-3, 4-3
//!   and 3-4 (reachable, canonical, highest win and lose remoteness) reproduced. In those tiers
//!   every position is reachable (B.5's reachable equals its upper bound), so the rows are
//!   counted over every position of the tier. Row 4-4 has 118 unreachable positions; its highest
//!   remoteness is compared.
//! - Three Men's Morris (`regular`) is Achi (003 Appendix A) under another name: the same board,
//!   lines and rules; every position Achi reaches has the same value and remoteness in both.
//!
//! Six and Three Men's Morris are solved whole, every stored position checked against its
//! children, by the conformance suite (small listed variants).

mod common;

use std::collections::{BTreeMap, HashSet};

use common::check_best_over_children;
use perfectplay_core::{Game, GameExt, Tier, Value};
use perfectplay_games::{Achi, Morris};
use perfectplay_solve::{analyze, solve, NoProgress, Solution, SolveOptions};
use rayon::prelude::*;

/// One line of B.5: positions with `white` and `black` on the board, both sides to move.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Row {
    positions: u64,
    canonical: u64,
    max_win: Option<u16>,
    max_lose: Option<u16>,
}

/// The rows of a solved moving-phase tier (W, B) with W >= B: every position, by white's and
/// black's counts; canonical classes under the 16 board symmetries (each side of an index under
/// the exchange of colors is its own class).
fn rows_of(game: &Morris, solution: &Solution, t: Tier) -> BTreeMap<(u32, u32), Row> {
    let size = game.tier_size(t);
    (0..size)
        .into_par_iter()
        .fold(BTreeMap::new, |mut rows: BTreeMap<(u32, u32), Row>, index| {
            let Some(p) = game.tier_position(t, index) else { return rows };
            if game.canonical(p) != p {
                return rows;
            }
            let vr = solution.get(game, p).expect("solved");
            let mut images = Vec::new();
            game.symmetry_images(p, &mut images);
            images.sort_unstable();
            images.dedup();
            let mut sides_seen = HashSet::new();
            for q in images {
                let text = game.position_to_string(q);
                let count = |piece| text.chars().take(24).filter(|&c| c == piece).count() as u32;
                let (white, black) = (count('w'), count('b'));
                let row = rows.entry((white, black)).or_default();
                row.positions += 1;
                let side = game.canonical_exchanged(q).1;
                if sides_seen.insert(side) {
                    row.canonical += 1;
                }
                match vr.value() {
                    Value::Win => row.max_win = row.max_win.max(vr.remoteness().map(|r| r.0)),
                    Value::Lose => row.max_lose = row.max_lose.max(vr.remoteness().map(|r| r.0)),
                    _ => {}
                }
            }
            rows
        })
        .reduce(BTreeMap::new, |mut a, b| {
            for (k, r) in b {
                let e = a.entry(k).or_default();
                e.positions += r.positions;
                e.canonical += r.canonical;
                e.max_win = e.max_win.max(r.max_win);
                e.max_lose = e.max_lose.max(r.max_lose);
            }
            a
        })
}

/// A B.5 row: upper bound, reachable, canonical, highest win, highest lose.
type B5Row = (u64, u64, u64, u16, u16);

/// B.5's rows from the reference table, by (white, black).
fn table_b5() -> BTreeMap<(u32, u32), B5Row> {
    let path =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../reference/ninemensmorris-phase2-tiers.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("white"))
        .map(|l| {
            let f: Vec<u64> = l.split('\t').map(|x| x.parse().unwrap()).collect();
            ((f[0] as u32, f[1] as u32), (f[2], f[3], f[4], f[5] as u16, f[6] as u16))
        })
        .collect()
}

#[test]
fn moving_phase_to_four_pieces_reproduces_table_b5() {
    let game = Morris::nine("regular/moving-4").unwrap();
    let solution = solve(&game, SolveOptions::default(), &NoProgress, None).unwrap();
    // Every canonical position of every tier against its children.
    for t in game.tiers() {
        (0..game.tier_size(t)).into_par_iter().for_each(|i| {
            if let Some(p) = game.tier_position(t, i).filter(|&p| game.canonical(p) == p) {
                check_best_over_children(&game, &solution, p)
                    .unwrap_or_else(|e| panic!("{}: {e}", game.position_to_string(p)));
            }
        });
    }
    let b5 = table_b5();
    let mut rows = BTreeMap::new();
    for t in game.tiers() {
        rows.extend(rows_of(&game, &solution, t));
    }
    for key in [(3, 3), (4, 3), (3, 4)] {
        let (bound, reachable, canonical, win, lose) = b5[&key];
        assert_eq!(bound, reachable, "{key:?}: every position reachable");
        let row = &rows[&key];
        assert_eq!(
            (row.positions, row.canonical, row.max_win, row.max_lose),
            (reachable, canonical, Some(win), Some(lose)),
            "B.5 row {key:?}"
        );
    }
    let (bound, _, _, win, lose) = b5[&(4, 4)];
    let row = &rows[&(4, 4)];
    assert_eq!(row.positions, bound, "4-4: every position of the tier");
    assert_eq!((row.max_win, row.max_lose), (Some(win), Some(lose)), "B.5 row (4, 4)");
}

/// Achi's text form (`o---x---- o`) as Three Men's Morris's (`w---b---- w 3 2`).
fn achi_to_morris(text: &str) -> String {
    let (cells, turn) = text.split_once(' ').unwrap();
    let cells: String = cells
        .chars()
        .map(|c| match c {
            'o' => 'w',
            'x' => 'b',
            _ => '-',
        })
        .collect();
    let white = 3 - cells.chars().filter(|&c| c == 'w').count();
    let black = 3 - cells.chars().filter(|&c| c == 'b').count();
    let turn = if turn == "o" { 'w' } else { 'b' };
    format!("{cells} {turn} {white} {black}")
}

#[test]
fn three_mens_morris_is_achi() {
    let achi = Achi::default();
    let three = Morris::three("regular").unwrap();
    let a = solve(&achi, SolveOptions::default(), &NoProgress, None).unwrap();
    let m = solve(&three, SolveOptions::default(), &NoProgress, None).unwrap();
    let mut seen = HashSet::new();
    let mut stack = vec![achi.start()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p) {
            continue;
        }
        let q = three.parse_position(&achi_to_morris(&achi.position_to_string(p))).unwrap();
        assert_eq!(a.get(&achi, p), m.get(&three, q), "{}", achi.position_to_string(p));
        assert_eq!(achi.legal_moves(p).len(), three.legal_moves(q).len());
        let mut children = Vec::new();
        achi.children(p, &mut children);
        if achi.primitive(p).is_none() {
            stack.extend(children);
        }
    }
    assert!(seen.len() > 1000, "{} positions", seen.len());
    // The same counts: Three Men's Morris's by its classes' sizes on each side of the exchange,
    // without making their positions; Achi's by its own (checked against a plain solver).
    let rows = |analysis: perfectplay_solve::Analysis| -> Vec<_> {
        analysis.rows().map(|row| (row.value, row.count)).collect()
    };
    let three_counts = rows(analyze(&three, &m, &NoProgress).unwrap());
    assert_eq!(three_counts, rows(analyze(&achi, &a, &NoProgress).unwrap()));
    assert_eq!(three_counts.iter().map(|r| r.1).sum::<u64>(), seen.len() as u64);
}
