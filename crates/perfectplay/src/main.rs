//! `perfectplay`: solve games, analyze them, query positions and play in the terminal.
//!
//! Exit codes: 0 success, 2 bad input or an error (a message says what was expected).

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
mod uwapi;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use perfectplay_core::{Game, GameExt, Player, Tier, Value};

use perfectplay_db::{Database, TableKind};

use crate::oracle::{Oracle, Source};

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
        /// longer needed are dropped, and a tier that cannot fit is refused before it starts).
        #[arg(long, value_parser = parse_bytes)]
        memory_limit: Option<u64>,
        /// Solve only this tier (repeatable; names as `db info` prints them) into the tier files,
        /// reading its child tiers from them, and stop without writing the database.
        #[arg(long = "tier", value_name = "NAME")]
        only_tiers: Vec<String>,
        /// Share the tiers out over the ranks of an MPI run (`mpirun -np N perfectplay solve GAME
        /// --mpi`; a build with `--features mpi`): rank 0 hands them out, the others solve them
        /// into the tier files of the data directory, which every rank must see.
        #[arg(long)]
        mpi: bool,
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
        /// With `--prune`: also store no values for the tiers whose values follow in one step
        /// from their child tiers' (tiers without moves inside, such as Nine Men's Morris's
        /// placements with an odd number of pieces in hand); a query there reads the children.
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
    },
    /// Rewrite a tiered game's database with only the values of positions the start reaches in
    /// the tiers a search through the tiers without moves inside reaches completely (Nine Men's
    /// Morris's placements; loopy tiers are kept whole): a fast `analyze --prune`, without a
    /// count. The stored analysis, if any, is kept.
    Prune {
        /// The database file.
        file: PathBuf,
        /// Also store no values for the tiers that follow in one step from their child tiers'.
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

/// Runs `f` on the game's whole solution: its database read back whole if there is one, else a
/// solve in memory (which says so).
fn with_solution<T>(
    game: &dyn Game,
    data_dir: &std::path::Path,
    args: &GameArgs,
    f: impl FnOnce(&perfectplay_solve::Solution) -> Result<T>,
) -> Result<T> {
    let path = perfectplay_db::path_for(data_dir, game.id(), &game.variant());
    if path.exists() {
        let db = Database::open(&path)?;
        db.check_game(game)?;
        return f(&db.load()?);
    }
    let oracle = Oracle::open(game, data_dir, args.options())?;
    let Source::Memory(solution) = oracle.source() else {
        anyhow::bail!("the database appeared while solving: run analyze again");
    };
    f(solution)
}

/// A tiered game's analysis: from its database one tier at a time where there is one (a
/// database may be larger than memory), else from a solve in memory. With `prune`, the database
/// is rewritten with only the reachable positions' values (and, with `Some(true)`, no values for
/// the tiers that can be derived from their children).
fn tiered_analysis(
    game: &dyn Game,
    data_dir: &std::path::Path,
    args: &GameArgs,
    prune: Option<bool>,
) -> Result<(perfectplay_solve::Analysis, Vec<perfectplay_solve::TierReport>)> {
    let path = perfectplay_db::path_for(data_dir, game.id(), &game.variant());
    if prune.is_some() && !path.exists() {
        anyhow::bail!("--prune: no database at {} (solve the game first)", path.display());
    }
    // A rewrite of the database holds the variant's lock, as a solve does.
    let _lock = match prune {
        Some(_) => Some(solving::lock(game, &path, &solving::command_line())?),
        None => None,
    };
    if path.exists() {
        let db = Database::open(&path)?;
        db.check_game(game)?;
        let read = |t: perfectplay_core::Tier| match db.load_tier_of(game, t) {
            Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
            Ok(None) => Err(perfectplay_solve::SolveError::Inconsistent {
                what: format!("tier {} is not in {}", game.tier_name(t), path.display()),
            }),
            Err(e) => Err(perfectplay_solve::SolveError::Sink(e.to_string())),
        };
        let bar = progress::Bar::new();
        let reached = perfectplay_solve::reach_tiered(game, &bar)?;
        let counted = perfectplay_solve::count_reached(game, &reached, &read, &bar)?;
        if let Some(derive) = prune {
            store_analysis(game, &db, &counted, Some((&reached, derive)))?;
        } else if db.analysis().is_none() || db.header().tier_lines.is_empty() {
            // The marks first: the rewrite holds every block of the file in memory.
            drop(reached);
            // Storing saves the next count; the counts are printed either way.
            if let Err(e) = store_analysis(game, &db, &counted, None) {
                eprintln!("warning: the counts were not stored in {}: {e:#}", path.display());
            }
        }
        return Ok(counted);
    }
    with_solution(game, data_dir, args, |solution| {
        Ok(perfectplay_solve::analyze_tiered(game, solution, &progress::Bar::new())?)
    })
}

/// Rewrites a database (solved with `--no-analysis`) with the analysis just counted from it (the
/// whole game's rows and the tier lines), so that a later `analyze` prints it at once: counting a large game takes as long as solving it.
/// With `prune`, only the values of the indices reached are kept (`analyze --prune`), and none of
/// the derivable tiers' if it says so (`--derive`).
fn store_analysis(
    game: &dyn Game,
    db: &Database,
    (analysis, lines): &(perfectplay_solve::Analysis, Vec<perfectplay_solve::TierReport>),
    prune: Option<(&perfectplay_solve::Reached, bool)>,
) -> Result<()> {
    let started = Instant::now();
    let before = db.header().file_len;
    let mut writer = perfectplay_db::Writer::new(db.path(), game, db.header().canonical);
    match prune {
        Some((reached, derive)) => {
            let derived = if derive { perfectplay_db::derivable_tiers(game) } else { Vec::new() };
            writer = writer.with_level(perfectplay_db::PRUNED_ZSTD_LEVEL);
            let keep = |t, first, out: &mut [bool]| reached.reached_run(t, first, out);
            writer.add_tables_pruned(db, &keep, &derived)?;
            if derive {
                eprintln!("{} tiers derived from their children", derived.len());
            }
        }
        None => writer.add_tables_from(db)?,
    }
    writer.set_analysis(analysis);
    writer.set_tier_lines(lines);
    let written = writer.finish()?;
    eprintln!(
        "stored the analysis{} in {} ({} bytes, {} before; {:.1} s)",
        if prune.is_some() { " and only the reachable positions' values" } else { "" },
        db.path().display(),
        written.bytes,
        before,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn load_game(args: &GameArgs) -> Result<Box<dyn Game>> {
    Ok(perfectplay_games::lookup(&args.game, args.variant.as_deref())?)
}

/// The tiers named by `solve --tier` (None when none is named).
fn chosen_tiers(game: &dyn Game, names: &[String]) -> Result<Option<Vec<Tier>>> {
    if names.is_empty() {
        return Ok(None);
    }
    if !game.space().is_tiered() {
        anyhow::bail!("--tier: {} is not solved by tiers", game.id());
    }
    let tiers = game.tiers();
    let chosen = names
        .iter()
        .map(|name| {
            tiers.iter().copied().find(|&t| game.tier_name(t) == *name).ok_or_else(|| {
                anyhow::anyhow!(
                    "--tier: expected a tier of {} named as `db info` prints it, like {}; got {name:?}",
                    game.id(),
                    tiers.last().map(|&t| game.tier_name(t)).unwrap_or_default()
                )
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(chosen))
}

/// A game answered by live search is too large to solve or analyze whole here: says so, and
/// what works instead.
fn refuse_live(game: &dyn Game, what: &str) -> Result<()> {
    if Oracle::searched_live(game) {
        anyhow::bail!(
            "{} {} is too large to be {what} on one machine; its positions are searched live \
             instead: `perfectplay query {id} --variant {v} <position>`, `perfectplay play {id} \
             --variant {v}` or the server (a smaller variant solves whole: {})",
            game.id(),
            game.variant(),
            perfectplay_games::catalog()
                .iter()
                .find(|e| e.id == game.id())
                .map_or(String::new(), |e| e.variant_syntax.to_string()),
            id = game.id(),
            v = game.variant(),
        );
    }
    Ok(())
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
        Command::Solve { game: args, force, no_analysis, memory_limit, only_tiers, mpi } => {
            let game = load_game(&args)?;
            refuse_live(game.as_ref(), "solved whole")?;
            let only = chosen_tiers(game.as_ref(), &only_tiers)?;
            if force && only.is_some() {
                anyhow::bail!("--force clears every tier file; it cannot be given with --tier");
            }
            let path = perfectplay_db::path_for(&cli.data_dir, game.id(), &game.variant());
            // One solve per variant: under MPI the manager (rank 0) takes the lock for the run.
            let _lock = if mpi {
                None
            } else {
                Some(solving::lock(game.as_ref(), &path, &solving::command_line())?)
            };
            if path.exists() && !force && only.is_none() {
                let db = Database::open(&path)?;
                db.check_game(game.as_ref())?;
                writeln!(out, "already solved: {} (--force solves again)", path.display())?;
                let start = db.get(game.as_ref(), game.start())?;
                if let Some(start) = start {
                    writeln!(out, "{}", solving::start_line(game.as_ref(), start))?;
                }
                return Ok(ExitCode::SUCCESS);
            }
            let mut options = args.options();
            options.memory_limit = memory_limit;
            options.only = only;
            let analysis = !no_analysis;
            let mut print = |line: String| writeln!(out, "{line}");
            let bar = progress::Bar::new();
            // With --mpi, the tiers shared out over the ranks of an MPI run.
            #[cfg(feature = "mpi")]
            let solve_into = if mpi { distributed::solve_into } else { solving::solve_into };
            #[cfg(not(feature = "mpi"))]
            let solve_into = if mpi {
                anyhow::bail!(
                    "--mpi: this perfectplay was built without MPI; build it with `cargo build \
                     --release --features mpi` (needs OpenMPI: `apt-get install openmpi-bin \
                     libopenmpi-dev libclang-dev`) and run it under `mpirun`"
                )
            } else {
                solving::solve_into
            };
            solve_into(game.as_ref(), &path, options, force, analysis, &bar, &mut print)?;
        }
        Command::Analyze { game: args, format, recount, tiers: true, prune, derive } => {
            let game = load_game(&args)?;
            refuse_live(game.as_ref(), "analyzed")?;
            if !game.space().is_tiered() {
                anyhow::bail!("--tiers: {} is not solved by tiers with a dense index", game.id());
            }
            let path = perfectplay_db::path_for(&cli.data_dir, game.id(), &game.variant());
            let stored = if path.exists() && !recount && !prune {
                let db = Database::open(&path)?;
                db.check_game(game.as_ref())?;
                Some(db.tier_lines(game.as_ref())).filter(|l| !l.is_empty())
            } else {
                None
            };
            let lines = match stored {
                Some(lines) => lines,
                None => {
                    tiered_analysis(game.as_ref(), &cli.data_dir, &args, prune.then_some(derive))?.1
                }
            };
            let rem = |r: Option<u16>| r.map_or("-".to_string(), |r| r.to_string());
            let rows = lines.iter().map(|l| {
                [
                    l.name.clone(),
                    l.reachable.to_string(),
                    l.canonical.to_string(),
                    rem(l.max_win),
                    rem(l.max_lose),
                ]
            });
            match format {
                Format::Tsv => {
                    writeln!(out, "tier\treachable\tcanonical_count\tmax_win\tmax_lose")?;
                    for row in rows {
                        writeln!(out, "{}", row.join("\t"))?;
                    }
                }
                Format::Table => {
                    let line = |f: [String; 5]| {
                        format!("{:<8} {:>14} {:>14} {:>8} {:>8}", f[0], f[1], f[2], f[3], f[4])
                    };
                    let header = ["tier", "reachable", "canonical", "max win", "max lose"];
                    writeln!(out, "{}", line(header.map(String::from)))?;
                    for row in rows {
                        writeln!(out, "{}", line(row))?;
                    }
                    let reachable: u64 = lines.iter().map(|l| l.reachable).sum();
                    let canonical: u64 = lines.iter().map(|l| l.canonical).sum();
                    let total = ["total", &reachable.to_string(), &canonical.to_string(), "", ""];
                    writeln!(out, "{}", line(total.map(String::from)))?;
                }
            }
        }
        Command::Analyze { game: args, format, recount, tiers: false, prune, derive } => {
            let game = load_game(&args)?;
            refuse_live(game.as_ref(), "analyzed")?;
            let path = perfectplay_db::path_for(&cli.data_dir, game.id(), &game.variant());
            if prune && !game.space().is_tiered() {
                anyhow::bail!("--prune: {} is not solved by tiers with a dense index", game.id());
            }
            let stored = if path.exists() && !recount && !prune {
                let db = Database::open(&path)?;
                db.check_game(game.as_ref())?;
                db.analysis()
            } else {
                None
            };
            let analysis = match stored {
                Some(a) => a,
                None if game.space().is_tiered() => {
                    tiered_analysis(game.as_ref(), &cli.data_dir, &args, prune.then_some(derive))?.0
                }
                None => with_solution(game.as_ref(), &cli.data_dir, &args, |solution| {
                    Ok(perfectplay_solve::analyze(game.as_ref(), solution, &progress::Bar::new())?)
                })?,
            };
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
            let oracle = Oracle::open(game.as_ref(), &cli.data_dir, args.options())?;
            let report = oracle.report(p)?;
            writeln!(out, "{}", serde_json::to_string_pretty(&report.to_json(game.as_ref()))?)?;
        }
        Command::Play { game: args, computer, think } => {
            let game = load_game(&args)?;
            let oracle = Oracle::open(game.as_ref(), &cli.data_dir, args.options())?;
            let think = std::time::Duration::from_secs(think);
            play::play(game.as_ref(), &oracle, computer, think).context("terminal play")?;
        }
        Command::Serve { port } => {
            drop(out);
            server::serve(&cli.data_dir, port)?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Db(DbCommand::Info { file }) => {
            let db = Database::open(&file)?;
            write!(out, "{}", db_info::db_info(&db))?;
        }
        Command::Db(DbCommand::Count { file }) => {
            let db = Database::open(&file)?;
            let started = Instant::now();
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let game = game.as_ref();
            if !game.space().is_tiered() {
                anyhow::bail!("{}: {} has no tier index to count by", file.display(), game.id());
            }
            db.check_game(game)?;
            let derived = db.header().tables.iter().any(|t| t.kind == TableKind::Derived);
            if db.is_pruned() || derived {
                anyhow::bail!(
                    "{}: pruned (it holds only the values of positions the start reaches); count \
                     the database as solved, before `analyze --prune` or `db prune`",
                    file.display()
                );
            }
            let tier = |t| match db.load_tier(t) {
                Ok(Some(solved)) => Ok(std::borrow::Cow::Owned(solved)),
                Ok(None) => Err(perfectplay_solve::SolveError::Sink(format!(
                    "{}: no table for tier {}",
                    file.display(),
                    game.tier_name(t)
                ))),
                Err(e) => Err(perfectplay_solve::SolveError::Sink(e.to_string())),
            };
            let counts =
                perfectplay_solve::count_positions_by_mover(game, &tier, &progress::Bar::new())?;
            write!(out, "{}", position_counts(game, &counts, started.elapsed().as_secs_f64()))?;
        }
        Command::Db(DbCommand::Verify { file }) => {
            let db = Database::open(&file)?;
            let started = Instant::now();
            db.verify()?;
            writeln!(
                out,
                "{}: every block reads back and checks ({:.2} s)",
                file.display(),
                started.elapsed().as_secs_f64()
            )?;
        }
        Command::Db(DbCommand::Prune { file, derive }) => {
            let db = Database::open(&file)?;
            // A rewrite of the database holds the variant's lock, as a solve does.
            let _lock = perfectplay_db::SolveLock::acquire(&file, &solving::command_line())?;
            let started = Instant::now();
            let before = db.header().file_len;
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let game = game.as_ref();
            if !game.space().is_tiered() {
                anyhow::bail!("{}: {} is not solved by tiers", file.display(), game.id());
            }
            let reached = perfectplay_solve::reach_tiered_one_pass(game, &progress::Bar::new())?;
            let searched = started.elapsed().as_secs_f64();
            let derived = if derive { perfectplay_db::derivable_tiers(game) } else { Vec::new() };
            let mut writer = perfectplay_db::Writer::new(&file, game, db.header().canonical)
                .with_level(perfectplay_db::PRUNED_ZSTD_LEVEL);
            let keep = |t, first, out: &mut [bool]| reached.reached_run(t, first, out);
            writer.add_tables_pruned(&db, &keep, &derived)?;
            if let Some(a) = db.analysis() {
                writer.set_analysis(&a);
            }
            writer.set_tier_lines(&db.tier_lines(game));
            let written = writer.finish()?;
            let searched_tiers =
                game.tiers().into_iter().filter(|&t| reached.is_complete(t)).count();
            writeln!(
                out,
                "{}: {before} bytes -> {} bytes; {searched_tiers} tiers searched through and \
                 pruned where the start misses indices, {} derived ({searched:.1} s to search, \
                 {:.1} s in all)",
                file.display(),
                written.bytes,
                derived.len(),
                started.elapsed().as_secs_f64()
            )?;
        }
        Command::Db(DbCommand::Upgrade { file }) => {
            let db = Database::open(&file)?;
            // A rewrite of the database holds the variant's lock, as a solve does.
            let _lock = perfectplay_db::SolveLock::acquire(&file, &solving::command_line())?;
            let started = Instant::now();
            let (before, version) = (db.header().file_len, db.version());
            let game = perfectplay_games::lookup(&db.header().game, Some(&db.header().variant))
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let mut writer =
                perfectplay_db::Writer::new(&file, game.as_ref(), db.header().canonical);
            writer.add_tables_from(&db)?;
            if let Some(a) = db.analysis() {
                writer.set_analysis(&a);
            }
            writer.set_tier_lines(&db.tier_lines(game.as_ref()));
            let written = writer.finish()?;
            writeln!(
                out,
                "{}: version {version}, {before} bytes -> version {}, {} bytes ({:.1} s)",
                file.display(),
                perfectplay_db::VERSION,
                written.bytes,
                started.elapsed().as_secs_f64()
            )?;
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

/// `db count`'s report: [`perfectplay_solve::count_positions_by_mover`]'s counts by the side to
/// move, then by the side that wins.
fn position_counts(game: &dyn Game, counts: &[[u64; 4]; 2], seconds: f64) -> String {
    use std::fmt::Write as _;
    let players = [Player::First, Player::Second];
    let width = players.iter().map(|&p| game.player_name(p).len()).max().unwrap_or(0);
    let mut s = format!(
        "{} ({}): every canonical position, reachable from the start or not\n",
        game.id(),
        game.variant()
    );
    for (p, row) in players.iter().zip(counts) {
        let cells: Vec<String> =
            Value::ALL.iter().map(|&v| format!("{} {}", v.name(), row[v as usize])).collect();
        let _ = writeln!(s, "  {:width$} to move: {}", game.player_name(*p), cells.join(", "));
    }
    let (win, lose) = (Value::Win as usize, Value::Lose as usize);
    let wins = |p: usize| counts[p][win] + counts[1 - p][lose];
    let (draw, tie) = (Value::Draw as usize, Value::Tie as usize);
    let _ = writeln!(
        s,
        "  won by {} {}, won by {} {}, draws {}, ties {}; {} in all ({seconds:.1} s)",
        game.player_name(Player::First),
        wins(0),
        game.player_name(Player::Second),
        wins(1),
        counts[0][draw] + counts[1][draw],
        counts[0][tie] + counts[1][tie],
        counts.iter().flatten().sum::<u64>()
    );
    s
}
