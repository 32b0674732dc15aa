//! `perfectplay`: solve games, analyze them, query positions and play in the terminal.
//!
//! Exit codes: 0 success, 2 bad input or an error (a message says what was expected).

mod commands;
mod db_info;
#[cfg(feature = "mpi")]
mod distributed;
mod live;
mod oracle;
mod play;
mod priority;
mod progress;
mod server;
mod solving;
mod store;
mod uwapi;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use perfectplay_core::{Game, Value};

use crate::commands::analyze::AnalyzeArgs;
use crate::commands::prove::ProveArgs;
use crate::commands::solve::SolveArgs;
use crate::store::Store;

/// mimalloc: the server's answers allocate many small strings and maps on several threads,
/// where the system allocator spent a third of the time (malloc, free and consolidation).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "perfectplay",
    version,
    about = "Strongly solve two-player games and play them with every move's value shown"
)]
struct Cli {
    /// Where databases live: `<data-dir>/<game>/<variant>.ppdb`.
    #[arg(long, global = true, env = "PERFECTPLAY_DATA", default_value = "./perfectplay-data")]
    data_dir: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their names and variants.
    Games,
    /// Solve a game strongly, write its database and print a summary.
    Solve {
        #[command(flatten)]
        game: GameArgs,
        /// Solve again even if the database exists, every tier anew: none read back from an
        /// earlier solve's tier files, none copied from another variant's database. (Without it,
        /// a tier that a solved variant beside it shares, such as a Fox and Geese tier found in
        /// the database of a variant with more or fewer geese, is copied from that database.)
        #[arg(long)]
        force: bool,
        /// Do not count reachable positions into the database's header (saves the analysis time;
        /// `analyze` then recounts from the database).
        #[arg(long)]
        no_analysis: bool,
        /// Most memory the solve may hold, like `12GiB` or `500MiB` (tiered games: tiers no
        /// longer needed are dropped, and a tier that cannot fit whole is solved in parts, those
        /// not in memory kept in the tier files' directory; sparse games: discovered tiers past
        /// 256 MiB, or a quarter of the limit where less, wait there). Freed memory is then given
        /// back at once; without a limit it is kept for reuse, which is faster and holds more.
        #[arg(long, value_parser = parse_bytes)]
        memory_limit: Option<u64>,
        /// Solve only this tier (repeatable; names as `db info` prints them) into the tier files,
        /// reading its child tiers from them, and stop without writing the database.
        #[arg(long = "tier", value_name = "NAME")]
        only_tiers: Vec<String>,
        /// Share the tiers out over the ranks of an MPI run (`mpirun -np N perfectplay solve GAME
        /// --mpi`; a build with `--features mpi`): rank 0 hands them out, the others solve them
        /// into the tier files of the data directory, which every rank must see. A tier that
        /// outgrows `--memory-limit` on its own goes to every worker at once, each solving its
        /// share of the tier's parts. With `--tier`, only those tiers.
        #[arg(long)]
        mpi: bool,
        /// With `--mpi`: a tier of at least this many indices also goes to every worker at once,
        /// solved in parts (a large tier then takes every machine instead of one).
        #[arg(long, value_name = "INDICES", requires = "mpi")]
        share_above: Option<u64>,
    },
    /// Count reachable positions per value and remoteness, all and canonical.
    Analyze {
        #[command(flatten)]
        game: GameArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Recount from the database's values instead of printing the counts stored with it.
        #[arg(long)]
        recount: bool,
        /// Per tier instead (tiered games): reachable positions, canonical ones, and the highest
        /// win and lose remoteness, counted from the database's values (or as stored with them,
        /// unless `--recount`). A database without them gets the whole analysis and the tier
        /// lines stored on the way.
        #[arg(long)]
        tiers: bool,
        /// Tiered games: rewrite the database with only the values of positions the start
        /// reaches, the analysis stored with them (a smaller file; a position the start does not
        /// reach is then answered "not reachable", or where that cost nothing, with its value).
        #[arg(long)]
        prune: bool,
        /// With `--prune`: also store no values for the positions whose values follow in one
        /// step from their children's (tiers without moves inside, such as Nine Men's Morris's
        /// placements with an odd number of pieces in hand, and black's turns in its moving
        /// tiers where white has more pieces); a query there reads the children.
        #[arg(long, requires = "prune")]
        derive: bool,
    },
    /// Print a position's value and every move's value as JSON.
    Query {
        #[command(flatten)]
        game: GameArgs,
        /// A position in the game's text form, or `start` (it may begin with `-`: Quarto's
        /// empty slots).
        #[arg(allow_hyphen_values = true)]
        position: String,
    },
    /// Play in the terminal with every move's value shown.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Which side the computer plays (it plays perfectly).
        #[arg(long, value_enum, default_value_t = ComputerSide::Second)]
        computer: ComputerSide,
        /// Seconds a game searched live (Quarto) may search each position before its moves are
        /// played without their values.
        #[arg(long, default_value_t = 10)]
        think: u64,
    },
    /// Prove the start's value alone (win, tie or lose) by subproofs, the positions `--depth`
    /// moves below it up to symmetry, each answer appended to a ledger as it is found: a run
    /// stopped (a limit, a kill) goes on from the ledger where it stopped.
    Prove {
        #[command(flatten)]
        game: GameArgs,
        /// The ledger file (default `<data-dir>/<game>/<variant>.proof.tsv`).
        #[arg(long)]
        ledger: Option<PathBuf>,
        /// Moves below the start where the subproofs are.
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// The search's table: 2^BITS entries (16 bytes each for Quarto's prover).
        #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(8..=36))]
        table_bits: u32,
        /// Only check whether the ledger's answers prove the start (exit 0 if they do, 1 if not).
        #[arg(long)]
        check: bool,
        /// Stop after answering this many subproofs.
        #[arg(long)]
        most: Option<usize>,
        /// Ask no new subproof after this many seconds.
        #[arg(long)]
        seconds: Option<f64>,
        /// Share the subproofs out over the ranks of an MPI run (`mpirun -np N perfectplay prove
        /// GAME --mpi`, a build with `--features mpi`): rank 0 keeps the ledger, the others
        /// answer the subproofs it hands them.
        #[arg(long)]
        mpi: bool,
    },
    /// Serve the web page and the JSON API on 127.0.0.1.
    Serve {
        /// The port (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
    },
    /// Inspect database files.
    #[command(subcommand)]
    Db(DbCommand),
}

#[derive(Subcommand, Debug)]
enum DbCommand {
    /// Print a database's header, sizes, bits per position and compression ratio.
    Info {
        /// The database file.
        file: PathBuf,
    },
    /// Count every canonical position of a tiered game's database, reachable from the start or
    /// not, by the side to move and its value, and by the side that wins (every block read and
    /// checked on the way).
    Count {
        /// The database file.
        file: PathBuf,
    },
    /// Read and check every block of a database.
    Verify {
        /// The database file.
        file: PathBuf,
    },
    /// Rewrite a database in this build's format (version 1's bit-packed codes become bytes,
    /// which compress better), through a temporary file renamed over it.
    Upgrade {
        /// The database file.
        file: PathBuf,
        /// Also store no values for the positions whose values follow in one step from their
        /// children's, as a solve with its analysis writes them: the tiers without moves inside
        /// whose child tiers are stored, and the part of a tier its game names (black's turns
        /// in Nine Men's Morris's moving tiers where white has more pieces). Their values are
        /// the same; a query there reads the children.
        #[arg(long)]
        derive: bool,
    },
    /// Rewrite a tiered game's database with only the values of positions the start reaches in
    /// the tiers a search through the tiers without moves inside reaches completely (Nine Men's
    /// Morris's placements; loopy tiers are kept whole): a fast `analyze --prune`, without a
    /// count. The stored analysis, if any, is kept.
    Prune {
        /// The database file.
        file: PathBuf,
        /// Also store no values for the positions that follow in one step from their
        /// children's (as `db upgrade --derive`).
        #[arg(long)]
        derive: bool,
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
        perfectplay_solve::SolveOptions { canonicalize: !self.no_symmetry, ..Default::default() }
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

/// A size like `12GiB`, `500MiB`, `64KiB` or a plain number of bytes (`G`, `M`, `K` also do).
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" | "kb" => 10,
        "m" | "mib" | "mb" => 20,
        "g" | "gib" | "gb" => 30,
        "t" | "tib" | "tb" => 40,
        _ => return Err(format!("expected a size like 12GiB or 500MiB, got {text:?}")),
    };
    match number.parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 && n * 2f64.powi(shift) < 2f64.powi(63) => {
            Ok((n * 2f64.powi(shift)) as u64)
        }
        _ => Err(format!("expected a size like 12GiB or 500MiB, got {text:?}")),
    }
}

fn load_game(args: &GameArgs) -> Result<Box<dyn Game>> {
    Ok(perfectplay_games::lookup(&args.game, args.variant.as_deref())?)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Solve { memory_limit, .. } = &cli.command {
        commands::solve::choose_purge_delay(memory_limit.is_some());
    }
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
    let store = Store::new(&cli.data_dir);
    match cli.command {
        Command::Games => {
            for entry in perfectplay_games::catalog() {
                writeln!(out, "{}\t{}", entry.id, entry.name)?;
                writeln!(out, "  variants: {}", entry.variant_syntax)?;
                writeln!(out, "  default:  {}", entry.default_variant)?;
                writeln!(out, "  listed:   {}", entry.listed_variants.join(", "))?;
            }
        }
        Command::Solve { game, force, no_analysis, memory_limit, only_tiers, mpi, share_above } => {
            let s = SolveArgs { force, no_analysis, memory_limit, only_tiers, mpi, share_above };
            commands::solve::solve(&store, &game, s, &mut out)?;
        }
        Command::Analyze { game, format, recount, tiers, prune, derive } => {
            let a = AnalyzeArgs { format, recount, tiers, prune, derive };
            commands::analyze::analyze(&store, &game, a, &mut out)?;
        }
        Command::Query { game: args, position } => {
            let game = load_game(&args)?;
            let p = if position.trim() == "start" {
                game.start()
            } else {
                game.parse_position(&position)?
            };
            let oracle = store.oracle(game.as_ref(), args.options())?;
            let report = oracle.report(p)?;
            writeln!(out, "{}", serde_json::to_string_pretty(&report.to_json(game.as_ref()))?)?;
        }
        Command::Play { game: args, computer, think } => {
            let game = load_game(&args)?;
            let oracle = store.oracle(game.as_ref(), args.options())?;
            let think = std::time::Duration::from_secs(think);
            play::play(game.as_ref(), &oracle, computer, think).context("terminal play")?;
        }
        Command::Prove { game, ledger, depth, table_bits, check, most, seconds, mpi } => {
            let a = ProveArgs { ledger, depth, table_bits, check, most, seconds, mpi };
            let code = commands::prove::prove(&store, &game, a, &mut out)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Serve { port } => {
            drop(out);
            server::serve(&store, port)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Db(command) => commands::db::db(command, &mut out)?,
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
