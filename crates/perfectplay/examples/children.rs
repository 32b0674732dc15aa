//! The tier kernel's cost on one Nine Men's Morris tier (or another game's), timed: every
//! canonical position's children located with their sides (what the reachability search does per
//! position reached) and, in a tier with moves inside, its parents in the tier (what the
//! retrograde rounds do per position decided). No search, solve or database: the kernel alone, at every index. Each pass
//! prints a checksum of the locations found, the same for two builds that find the same ones.
//! A first pass only makes each index's position and asks whether it is canonical: what a solve
//! spends on an index that it does not otherwise solve. In a tier the kernel walks
//! ([`perfectplay_core::TierKernel::walk`]), a last pass times the walk alone: what a solve
//! spends on each position it walks to, reached or not.
//!
//! `cargo run --release -p perfectplay --example children -- '(0,8,7)' '(2,8,8)'`; another
//! game's tiers after its id: `-- baghchal '(4,2,tigers)'`.

use std::time::Instant;

mod common;

use perfectplay_core::{GameExt, KernelCache, Position, RunLocations, SidedLocations};
use rayon::prelude::*;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Indices a task walks.
const RUN: u64 = 1 << 14;

/// What a pass found: positions, locations, and their checksum.
#[derive(Clone, Copy, Default)]
struct Found {
    positions: u64,
    locations: u64,
    sum: u64,
    /// Positions whose children the kernel leaves to the game.
    unlocated: u64,
}

impl Found {
    fn add(self, other: Found) -> Found {
        Found {
            positions: self.positions + other.positions,
            locations: self.locations + other.locations,
            sum: self.sum.wrapping_add(other.sum),
            unlocated: self.unlocated + other.unlocated,
        }
    }
}

/// What a pass does at each canonical index.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    /// Nothing more: the positions made and the canonical ones counted.
    Canonical,
    /// Its children located, with their sides.
    Children,
    /// The same, a run's canonical positions at once ([`perfectplay_core::TierKernel::
    /// run_children_sided`]): the same checksum as `Children`.
    RunChildren,
    /// Its parents in the tier located.
    Parents,
}

/// A location's share of the checksum: its bits mixed, so that different locations seldom
/// cancel in the sum.
fn mix(tier: u32, index: u64, side: bool) -> u64 {
    let x =
        (index ^ u64::from(tier) << 40 ^ u64::from(side) << 63).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ x >> 29
}

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    // Another game's tiers after its id (Bagh-Chal's: `-- baghchal '(4,2,tigers)'`).
    let (game, id) = common::game_with_kernel(&mut names);
    let game = game.as_ref();
    let kernel = game.kernel().expect("a game with a tier kernel");
    let tiers = game.tiers();
    if names.is_empty() {
        names = vec!["(0,8,7)".into(), "(2,8,8)".into()];
    }
    for name in &names {
        let Some(&t) = tiers.iter().find(|&&t| game.tier_name(t) == *name) else {
            eprintln!("{name} is not a tier of {id}: a name as `db info` prints it");
            std::process::exit(2);
        };
        let size = game.tier_size(t);
        let pass = |pass: Pass| {
            (0..size.div_ceil(RUN))
                .into_par_iter()
                .map_init(
                    || {
                        let cache = KernelCache::default();
                        (cache, SidedLocations::default(), Vec::new(), Vec::new(), Vec::new())
                    },
                    |(cache, sided, found, run_positions, run_out), run| {
                        let first = run * RUN;
                        let mut positions = vec![None; RUN.min(size - first) as usize];
                        kernel.tier_positions(t, first, &mut positions);
                        let mut total = Found::default();
                        let run_positions: &mut Vec<Position> = run_positions;
                        let run_out: &mut RunLocations = run_out;
                        run_positions.clear();
                        for (j, p) in positions.iter().enumerate() {
                            let Some(p) = *p else { continue };
                            let index = first + j as u64;
                            if !kernel.is_canonical_at(t, index, p, cache) {
                                continue;
                            }
                            total.positions += 1;
                            if pass == Pass::Canonical {
                                continue;
                            }
                            if pass == Pass::Parents {
                                kernel.parent_indices(t, p, found, cache);
                                for &i in found.iter() {
                                    total.sum = total.sum.wrapping_add(mix(t.0, i, false));
                                }
                                total.locations += found.len() as u64;
                                continue;
                            }
                            if game.primitive(p).is_some() {
                                continue;
                            }
                            if pass == Pass::RunChildren {
                                run_positions.push(p);
                                continue;
                            }
                            if !kernel.child_locations_sided(p, sided, cache) {
                                total.unlocated += 1;
                                continue;
                            }
                            for &(ct, ci, side) in sided.iter() {
                                total.sum = total.sum.wrapping_add(mix(ct.0, ci, side));
                            }
                            total.locations += sided.len() as u64;
                        }
                        if pass == Pass::RunChildren {
                            kernel.run_children_sided(run_positions, run_out, cache);
                            for &(_, ct, ci, side) in run_out.iter() {
                                total.sum = total.sum.wrapping_add(mix(ct.0, ci, side));
                            }
                            total.locations += run_out.len() as u64;
                        }
                        total
                    },
                )
                .reduce(Found::default, Found::add)
        };
        let walk = || {
            (0..kernel.walk_parts(t))
                .into_par_iter()
                .map(|k| {
                    let (mut cache, mut found) = (KernelCache::default(), Found::default());
                    kernel.walk(t, k, &mut cache, &mut |index, _| {
                        found.positions += 1;
                        found.sum = found.sum.wrapping_add(mix(t.0, index, false));
                    });
                    found
                })
                .reduce(Found::default, Found::add)
        };
        let mut passes = vec![Pass::Canonical, Pass::Children];
        if kernel.runs_children(t) {
            passes.push(Pass::RunChildren);
        }
        if game.moves_within(t) {
            passes.push(Pass::Parents);
        }
        for kind in passes {
            let started = Instant::now();
            let found = pass(kind);
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{name} {}: {} positions of {size} indices, {} locations in {secs:.2} s ({:.1} ns \
                 a position), checksum {:016x}; {} not located by the kernel",
                match kind {
                    Pass::Canonical => "canonical",
                    Pass::Children => "children",
                    Pass::RunChildren => "run children",
                    Pass::Parents => "parents",
                },
                found.positions,
                found.locations,
                secs * 1e9 / found.positions.max(1) as f64,
                found.sum,
                found.unlocated
            );
        }
        if kernel.walk_parts(t) > 0 {
            let started = Instant::now();
            let found = walk();
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{name} walk: {} positions visited in {secs:.2} s ({:.1} ns a position), \
                 checksum {:016x}",
                found.positions,
                secs * 1e9 / found.positions.max(1) as f64,
                found.sum
            );
        }
    }
}
