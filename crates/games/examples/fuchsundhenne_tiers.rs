//! The size of Fuchs und Henne's variants before solving: every tier's indices summed, and the
//! largest tier, which decides the memory a solve needs: about 5 bytes an index while it is
//! solved (its cells, the best result from outside it, its queues, its values).
//!
//! Also the tiers that do not fit 20 GiB whole at that rate (5.125 bytes an index, the solve
//! driver's estimate before child tiers), which a solve under `--memory-limit 20GiB` does in
//! parts.
//!
//! `cargo run --release -p perfectplay-games --example fuchsundhenne_tiers -- 9 10 11 12`
//!
//! With `--tsv HENS`, every tier of that variant in the order a solve takes them, one a line:
//! name, indices and the child tiers it reads (for `bench/distributed_model.py`).

use perfectplay_core::{TierIndex, Tiers};
use perfectplay_games::FuchsUndHenne;

fn main() {
    let counts: Vec<String> = std::env::args().skip(1).collect();
    if counts.is_empty() {
        eprintln!("expected hen counts, like `9 10 11`, or `--tsv 20`");
        std::process::exit(2);
    }
    if counts[0] == "--tsv" {
        let game = counts.get(1).map(|h| FuchsUndHenne::from_variant(&format!("{h}-hens")));
        let Some(Ok(game)) = game else {
            eprintln!("expected `--tsv HENS`, like `--tsv 20`");
            std::process::exit(2);
        };
        println!("tier\tindices\tchild tiers");
        for t in game.tiers() {
            let children: Vec<String> =
                game.child_tiers(t).into_iter().map(|c| game.tier_name(c)).collect();
            println!("{}\t{}\t{}", game.tier_name(t), game.tier_size(t), children.join(" "));
        }
        return;
    }
    for hens in counts {
        let game = match FuchsUndHenne::from_variant(&format!("{hens}-hens")) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let tiers = game.tiers();
        let total: u64 = tiers.iter().map(|&t| game.tier_size(t)).sum();
        let largest = tiers.iter().max_by_key(|&&t| game.tier_size(t));
        if let Some(&t) = largest {
            println!(
                "{hens}-hens: {} tiers, {total} indices; largest tier {} with {} indices",
                tiers.len(),
                game.tier_name(t),
                game.tier_size(t)
            );
        }
        // A byte of cell, two of best result, a quarter of the indices queued at four bytes, a
        // byte of values and a bit of the canonical bitmap.
        let over: Vec<u64> = tiers
            .iter()
            .map(|&t| game.tier_size(t))
            .filter(|&n| n.saturating_mul(41) / 8 > 20 << 30)
            .collect();
        println!("  {} tiers over 20 GiB whole, {} indices", over.len(), over.iter().sum::<u64>());
    }
}
