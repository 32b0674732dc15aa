//! A proof ledger: the answers of a split proof's subproofs ([`perfectplay_solve::SplitProof`]),
//! a text file of tab-separated lines, one appended and synced as each answer is found, so a
//! proof stops and resumes across machines and sessions without losing a finished subproof:
//!
//! ```text
//! # perfectplay proof ledger. Computed by `perfectplay prove`: the answers of a split proof's subproofs, appended as found
//! # game    quarto    variant    regular    depth    3
//! position    at_least    at_most    nodes    seconds
//! ---7--F-9-1-----2    tie    tie    1827638    0.52
//! ```
//!
//! (its fields separated by tabs). `at_least` and `at_most` bound the subproof's value for its player to move (`lose`, `tie`,
//! `win`); a position answered twice (two questions asked of it) holds what both lines show. A
//! last line cut short by a stop is dropped when the ledger is opened again.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use perfectplay_core::{Game, GameExt, Position, Value};
use perfectplay_solve::Bounds;

use crate::DbError;

const TITLE: &str =
    "# perfectplay proof ledger. Computed by `perfectplay prove`: the answers of a split \
                     proof's subproofs, appended as found";
const COLUMNS: &str = "position\tat_least\tat_most\tnodes\tseconds";

/// One answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LedgerLine {
    pub position: Position,
    pub bounds: Bounds,
    /// The search's positions expanded, and its seconds.
    pub nodes: u64,
    pub seconds: f64,
}

/// An open ledger: what it holds, and the file to append to.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    file: std::fs::File,
    /// Every line read or appended, in order.
    pub lines: Vec<LedgerLine>,
}

impl Ledger {
    /// Opens the ledger of `game`'s proof split at `depth`, creating it if it does not exist.
    /// Fails on a ledger of another game, variant or depth, and on a line that does not read.
    pub fn open(path: &Path, game: &dyn Game, depth: u32) -> Result<Ledger, DbError> {
        let io = |error| DbError::Io { path: path.to_path_buf(), error };
        let header = format!("# game\t{}\tvariant\t{}\tdepth\t{depth}", game.id(), game.variant());
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        // Whole lines only: a line cut short by a stop has no newline.
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut lines = Vec::new();
        let corrupt = |n: usize, what: String| DbError::Corrupt {
            path: path.to_path_buf(),
            what: format!("line {n}: {what}"),
        };
        for (i, line) in whole.lines().enumerate() {
            let n = i + 1;
            match n {
                1 if line != TITLE => {
                    return Err(corrupt(n, "not a perfectplay proof ledger".into()))
                }
                2 if line != header => {
                    return Err(DbError::WrongGame {
                        path: path.to_path_buf(),
                        found: line.trim_start_matches("# ").replace('\t', " "),
                        expected: header.trim_start_matches("# ").replace('\t', " "),
                    })
                }
                3 if line != COLUMNS => return Err(corrupt(n, format!("expected {COLUMNS:?}"))),
                1..=3 => {}
                _ => lines.push(Self::parse(game, line).map_err(|what| corrupt(n, what))?),
            }
        }
        let fresh = whole.is_empty();
        if whole.len() != text.len() || fresh {
            // Rewritten whole (to a temporary name, synced, renamed) before anything is appended.
            let content =
                if fresh { format!("{TITLE}\n{header}\n{COLUMNS}\n") } else { whole.into() };
            let tmp = path.with_extension("tsv.partial");
            let mut f = std::fs::File::create(&tmp).map_err(io)?;
            f.write_all(content.as_bytes()).and_then(|_| f.sync_all()).map_err(io)?;
            std::fs::rename(&tmp, path).map_err(io)?;
        }
        let file = std::fs::OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Ledger { path: path.to_path_buf(), file, lines })
    }

    fn parse(game: &dyn Game, line: &str) -> Result<LedgerLine, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, lo, hi, nodes, seconds] = fields[..] else {
            return Err(format!("expected 5 fields ({COLUMNS}), got {}", fields.len()));
        };
        let position = game.parse_position(position).map_err(|e| format!("{position:?}: {e}"))?;
        let bound = |w: &str| match Value::from_name(w) {
            Some(v) if v != Value::Draw => Ok(v.score()),
            _ => Err(format!("expected win, tie or lose, got {w:?}")),
        };
        let bounds = Bounds { lo: bound(lo)?, hi: bound(hi)? };
        if bounds.is_empty() {
            return Err(format!("at least {lo} and at most {hi}"));
        }
        let nodes =
            nodes.parse().map_err(|_| format!("expected a count of nodes, got {nodes:?}"))?;
        let seconds = seconds.parse().map_err(|_| format!("expected seconds, got {seconds:?}"))?;
        Ok(LedgerLine { position: game.canonical(position), bounds, nodes, seconds })
    }

    /// What the lines show, per position (a position answered twice holds what both show).
    /// Fails where two lines contradict each other.
    pub fn known(&self) -> Result<HashMap<Position, Bounds>, DbError> {
        let mut out: HashMap<Position, Bounds> = HashMap::new();
        for l in &self.lines {
            let b = out.get(&l.position).map_or(l.bounds, |&b| b.meet(l.bounds));
            if b.is_empty() {
                return Err(DbError::Corrupt {
                    path: self.path.clone(),
                    what: format!("contradicting answers for position {}", l.position.0),
                });
            }
            out.insert(l.position, b);
        }
        Ok(out)
    }

    /// Appends an answer and syncs it to the disk.
    pub fn append(&mut self, game: &dyn Game, line: LedgerLine) -> Result<(), DbError> {
        let LedgerLine { position, bounds, nodes, seconds } = line;
        let text = format!(
            "{}\t{}\t{}\t{nodes}\t{seconds:.2}\n",
            game.position_to_string(position),
            Value::of_score(bounds.lo),
            Value::of_score(bounds.hi)
        );
        let io = |error| DbError::Io { path: self.path.clone(), error };
        self.file.write_all(text.as_bytes()).and_then(|_| self.file.sync_data()).map_err(io)?;
        self.lines.push(line);
        Ok(())
    }
}
