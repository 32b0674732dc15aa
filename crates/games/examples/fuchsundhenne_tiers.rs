//! The size of Fuchs und Henne's variants before solving: every tier's indices summed, and the
//! largest tier, which decides the memory a solve needs: about 5 bytes an index while it is
//! solved (its cells, the best result from outside it, its queues, its values).
//!
//! `cargo run --release -p perfectplay-games --example fuchsundhenne_tiers -- 9 10 11 12`

use perfectplay_core::{TierIndex, Tiers};
use perfectplay_games::FuchsUndHenne;

fn main() {
    let counts: Vec<String> = std::env::args().skip(1).collect();
    if counts.is_empty() {
        eprintln!("expected hen counts, like `9 10 11`");
        std::process::exit(2);
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
    }
}
