//! `perfectplay`: solve games, analyze them, query positions and play in the terminal.
//!
//! Exit codes: 0 success, 2 bad input or an error (a message says what was expected).

mod oracle;
mod play;
mod progress;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use perfectplay_core::{Game, Value};

use crate::oracle::Oracle;

#[derive(Parser, Debug)]
#[command(
    name = "perfectplay",
    version,
    about = "Strongly solve two-player games and play them with every move's value shown"
)]
struct Cli {
    /// Where solved results go (kept in memory until the database lands).
    #[arg(long, global = true, env = "PERFECTPLAY_DATA", default_value = "./perfectplay-data")]
    data_dir: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their names and variants.
    Games,
    /// Solve a game strongly and print a summary.
    Solve(GameArgs),
    /// Count reachable positions per value and remoteness, all and canonical.
    Analyze {
        #[command(flatten)]
        game: GameArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Print a position's value and every move's value as JSON.
    Query {
        #[command(flatten)]
        game: GameArgs,
        /// A position in the game's text form, or `start`.
        position: String,
    },
    /// Play in the terminal with every move's value shown.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Which side the computer plays (it plays perfectly).
        #[arg(long, value_enum, default_value_t = ComputerSide::Second)]
        computer: ComputerSide,
    },
}

#[derive(clap::Args, Debug)]
struct GameArgs {
    /// Game id (see `perfectplay games`).
    game: String,
    /// Variant (the game's default if omitted).
    #[arg(long)]
    variant: Option<String>,
    /// Solve without reducing positions by the game's symmetries: more positions, no canonical
    /// form per move; faster when few reachable positions are symmetric to one another.
    #[arg(long)]
    no_symmetry: bool,
}

impl GameArgs {
    fn options(&self) -> perfectplay_solve::SolveOptions {
        perfectplay_solve::SolveOptions { canonicalize: !self.no_symmetry }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Format {
    Table,
    Tsv,
}

/// Which side the computer plays in `play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ComputerSide {
    /// Human against human.
    None,
    /// The computer moves first.
    First,
    /// The computer moves second.
    Second,
    /// The computer plays both sides.
    Both,
}

fn load_game(args: &GameArgs) -> Result<Box<dyn Game>> {
    Ok(perfectplay_games::lookup(&args.game, args.variant.as_deref())?)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`perfectplay analyze ... | head`) is not an error worth reporting.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Games => {
            for entry in perfectplay_games::catalog() {
                writeln!(out, "{}\t{}", entry.id, entry.name)?;
                writeln!(out, "  variants: {}", entry.variant_syntax)?;
                writeln!(out, "  default:  {}", entry.default_variant)?;
                writeln!(out, "  listed:   {}", entry.listed_variants.join(", "))?;
            }
        }
        Command::Solve(args) => {
            let game = load_game(&args)?;
            let started = Instant::now();
            let oracle = Oracle::solve(game.as_ref(), args.options())?;
            let secs = started.elapsed().as_secs_f64();
            let start = oracle.value(game.start())?;
            let stored = oracle.solution().len();
            writeln!(out, "game:       {} ({})", game.name(), game.variant())?;
            writeln!(
                out,
                "start:      {} should {}",
                game.player_name(game.to_move(game.start())),
                words(start)
            )?;
            writeln!(
                out,
                "positions:  {stored} solved{}",
                if oracle.solution().is_canonical() { " (canonical)" } else { "" }
            )?;
            writeln!(
                out,
                "time:       {secs:.2} s ({:.0} positions/s)",
                stored as f64 / secs.max(1e-9)
            )?;
            writeln!(out, "memory:     {} MiB of results", oracle.solution().heap_bytes() >> 20)?;
            writeln!(
                out,
                "results:    in memory only; the database issue will write them under {}",
                cli.data_dir.display()
            )?;
        }
        Command::Analyze { game: args, format } => {
            let game = load_game(&args)?;
            let oracle = Oracle::solve(game.as_ref(), args.options())?;
            let analysis = perfectplay_solve::analyze(
                game.as_ref(),
                oracle.solution(),
                &progress::Bar::new(),
            )?;
            match format {
                Format::Tsv => write!(out, "{}", analysis.to_tsv())?,
                Format::Table => write!(out, "{}", analysis.to_table())?,
            }
        }
        Command::Query { game: args, position } => {
            let game = load_game(&args)?;
            let p = if position.trim() == "start" {
                game.start()
            } else {
                game.parse_position(&position)?
            };
            let oracle = Oracle::solve(game.as_ref(), args.options())?;
            let report = oracle.report(p)?;
            writeln!(out, "{}", serde_json::to_string_pretty(&report.to_json(game.as_ref()))?)?;
        }
        Command::Play { game: args, computer } => {
            let game = load_game(&args)?;
            let oracle = Oracle::solve(game.as_ref(), args.options())?;
            play::play(game.as_ref(), &oracle, computer).context("terminal play")?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// "win in 3", "lose in 4", "tie in 9", "draw".
pub fn words(vr: perfectplay_core::ValueRemoteness) -> String {
    match vr.remoteness() {
        Some(r) if vr.value() != Value::Draw => format!("{} in {}", vr.value(), r),
        _ => "draw".into(),
    }
}
