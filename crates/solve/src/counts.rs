//! An analysis's counts: reachable positions per value-remoteness, all and canonical, and their
//! tables (the whole game's; per tier in [`crate::tiered`]). Both analyses fill it, so it is
//! apart from either.

use std::collections::BTreeMap;
use std::fmt::Write;

use perfectplay_core::{Value, ValueRemoteness};

/// One row of an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRow {
    /// Value and remoteness.
    pub value: ValueRemoteness,
    /// Reachable positions with it.
    pub count: u64,
    /// Canonical reachable positions with it.
    pub canonical_count: u64,
}

/// Value-remoteness counts of the reachable positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    rows: BTreeMap<(u16, u8), CountRow>,
}

fn sort_key(vr: ValueRemoteness) -> (u16, u8) {
    let order = match vr.value() {
        Value::Lose => 0,
        Value::Win => 1,
        Value::Tie => 2,
        Value::Draw => 3,
    };
    let r = if vr.value() == Value::Draw { u16::MAX } else { vr.remoteness_or_zero() };
    (r, order)
}

impl Analysis {
    pub(crate) fn add_counts(&mut self, vr: ValueRemoteness, count: u64, canonical: u64) {
        self.add(vr, count, canonical);
    }

    pub(crate) fn add(&mut self, vr: ValueRemoteness, count: u64, canonical: u64) {
        let row = self.rows.entry(sort_key(vr)).or_insert(CountRow {
            value: vr,
            count: 0,
            canonical_count: 0,
        });
        row.count += count;
        row.canonical_count += canonical;
    }

    /// An analysis from its rows (read back from a database).
    pub fn from_rows(rows: impl IntoIterator<Item = CountRow>) -> Analysis {
        let mut a = Analysis::default();
        for r in rows {
            a.add(r.value, r.count, r.canonical_count);
        }
        a
    }

    /// Rows by remoteness, then lose, win, tie; draws last.
    pub fn rows(&self) -> impl Iterator<Item = &CountRow> {
        self.rows.values()
    }

    /// The number of reachable positions.
    pub fn total(&self) -> u64 {
        self.rows().map(|r| r.count).sum()
    }

    /// The number of canonical reachable positions.
    pub fn canonical_total(&self) -> u64 {
        self.rows().map(|r| r.canonical_count).sum()
    }

    /// The rows as TSV, with the header of the reference tables; draws have remoteness `-`.
    pub fn to_tsv(&self) -> String {
        let mut s = String::from("value\tremoteness\tcount\tcanonical_count\n");
        for r in self.rows() {
            let rem = r.value.remoteness().map_or("-".to_string(), |x| x.to_string());
            let _ = writeln!(s, "{}\t{}\t{}\t{}", r.value.value(), rem, r.count, r.canonical_count);
        }
        s
    }

    /// The rows as an aligned table with totals.
    pub fn to_table(&self) -> String {
        let mut s =
            format!("{:<6} {:>10} {:>16} {:>16}\n", "value", "remoteness", "count", "canonical");
        for r in self.rows() {
            let rem = r.value.remoteness().map_or("-".to_string(), |x| x.to_string());
            let _ = writeln!(
                s,
                "{:<6} {:>10} {:>16} {:>16}",
                r.value.value().name(),
                rem,
                r.count,
                r.canonical_count
            );
        }
        let _ = writeln!(
            s,
            "{:<6} {:>10} {:>16} {:>16}",
            "total",
            "",
            self.total(),
            self.canonical_total()
        );
        s
    }
}
