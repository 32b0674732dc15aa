//! `perfectplay db info`: what a database file holds, in words.

use perfectplay_core::{GameExt, Value};
use perfectplay_db::Database;

/// `db info`: the header's facts, sizes, bits per position and compression ratio.
pub fn db_info(db: &Database) -> String {
    use std::fmt::Write as _;
    let h = db.header();
    let i = db.info();
    let mut s = String::new();
    let _ = writeln!(s, "file:         {}", db.path().display());
    let _ = writeln!(s, "format:       version {}", db.version());
    let _ = writeln!(s, "game:         {} ({})", h.game, h.variant);
    let _ = writeln!(
        s,
        "positions:    {}{}",
        match i.stored < i.positions {
            true => format!(
                "{} indexed, {} of them stored (the others derived from their children)",
                i.positions, i.stored
            ),
            false => format!("{} stored", i.positions),
        },
        if h.canonical { ", canonical forms (others are don't-care)" } else { "" }
    );
    let _ = match db.analysis() {
        Some(a) if h.tier_lines.is_empty() => {
            writeln!(s, "analysis:     stored ({} reachable positions)", a.total())
        }
        Some(a) => writeln!(
            s,
            "analysis:     stored ({} reachable positions; {} tier lines)",
            a.total(),
            h.tier_lines.len()
        ),
        None => writeln!(s, "analysis:     none (`analyze --tiers` or `solve` stores one)"),
    };
    // Tier names where this build knows the game.
    let game = perfectplay_games::lookup(&h.game, Some(&h.variant)).ok();
    for t in &h.tables {
        let name = game
            .as_ref()
            .map_or(String::new(), |g| format!(" {}", g.tier_name(perfectplay_core::Tier(t.tier))));
        let value_bytes: u64 = t.value_blocks.iter().map(|b| u64::from(b.len)).sum();
        // The highest remoteness of each decisive value among the tier's stored positions.
        let highest = |v: Value| {
            t.dictionary
                .iter()
                .filter(|vr| vr.value() == v)
                .map(|vr| vr.remoteness_or_zero().to_string())
                .max_by_key(|r| r.parse::<u16>().unwrap_or(0))
                .unwrap_or_else(|| "-".into())
        };
        let _ = writeln!(
            s,
            "  tier {:>4}{name}:  {:?}, {} positions{}, {} values{} in {} bits ({:?}), {} value \
             blocks ({value_bytes} bytes), {} key blocks; highest win {}, lose {}",
            t.tier,
            t.kind,
            t.positions,
            match t.kind {
                perfectplay_db::TableKind::Dense if t.stored < t.positions => {
                    format!(" (the first {} stored, the rest derived)", t.stored)
                }
                _ => String::new(),
            },
            t.dictionary.len(),
            if t.absent { " and absent" } else { "" },
            t.bits,
            t.layout,
            t.value_blocks.len(),
            t.key_blocks.len(),
            highest(Value::Win),
            highest(Value::Lose)
        );
    }
    if let (Some(r), Some(c)) = (i.reachable, i.canonical_reachable) {
        let _ = writeln!(s, "reachable:    {r} positions, {c} canonical");
    }
    let _ = writeln!(
        s,
        "size:         {} bytes ({} header, {} values, {} keys)",
        i.file_bytes, i.header_bytes, i.value_bytes, i.key_bytes
    );
    let _ = writeln!(
        s,
        "bit-packed:   {} bytes before compression; ratio {:.1}",
        i.packed_bytes,
        i.packed_bytes as f64 / i.value_bytes.max(1) as f64
    );
    let per = |n: u64| i.file_bytes as f64 * 8.0 / n.max(1) as f64;
    let _ = writeln!(s, "bits/position: {:.4} per indexed", per(i.positions));
    if let (Some(r), Some(c)) = (i.reachable, i.canonical_reachable) {
        let _ = writeln!(
            s,
            "              {:.4} per reachable, {:.4} per canonical reachable",
            per(r),
            per(c)
        );
    }
    s
}
