//! The `tessera` command: clap and wiring. Without a subcommand it runs the
//! protocol driver on stdin/stdout; the subcommands' reports are written by
//! `tessera::cli` (and `tessera::analysis`) to stdout. All logic lives in the
//! library; this file owns the process's I/O and exit status.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use tessera::cli::{self, CliError};
use tessera::core::GameId;
use tessera::engine::driver::{self, Ended};
use tessera::protocol::report::report_line;
use tessera::protocol::{Engine, Gtp};
use tessera::search::params::{MAX_DEPTH, MAX_THREADS};

#[derive(Parser)]
#[command(
    name = "tessera",
    version,
    about = "A game engine for Rekushu and REBUS Core, speaking a GTP-like protocol on stdin/stdout",
    long_about = "A game engine for Rekushu and REBUS Core.\n\n\
        Without a subcommand it reads protocol commands from stdin and answers on stdout\n\
        (see protocol.md). It starts with Rekushu on a 20x20 board.",
    after_help = "Examples:\n  \
        printf 'play b K10\\nshowboard\\n' | tessera\n  \
        tessera --init 'game rebus' --init 'level easy'\n  \
        tessera --gogui --init 'boardsize 12'      (GoGui's program line)\n  \
        tessera perft --size 20 --depth 3\n  \
        tessera perft --game rebus --depth 2 --divide\n  \
        tessera analyze game.txt --depth 6 --json"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// A protocol command to run before reading stdin (repeatable; replies are
    /// not printed, a failure ends the program), e.g. --init 'game rebus'
    #[arg(long = "init", value_name = "COMMAND")]
    init: Vec<String>,
    /// GoGui mode: moves in and out are GoGui points (columns without I), REBUS
    /// colours b/w are Red/Blue, and genmove plays only what a point can carry
    /// (no claims, no REBUS moves). Put it on GoGui's program line.
    #[arg(long)]
    gogui: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Rekushu,
    Rebus,
}

#[derive(Subcommand)]
enum Command {
    /// Searches fixed positions of both games to a fixed depth on one thread and
    /// prints the node total (the search's signature) and the speed
    Bench {
        /// Instead: the time each level takes to complete depth 1 on the REBUS
        /// sample (standard setup, 20 deals, 20 middle games), the time to
        /// depth 4 at hard, Rekushu 20x20 time to depth 5 (one thread each),
        /// the depth hard and mike complete at equal time (--mike), and the
        /// Lazy SMP speed-up from 1 to 2 threads (about 12 minutes)
        #[arg(long, conflicts_with_all = ["smp", "mike"])]
        times: bool,
        /// Instead: only the depth hard and mike complete in 1 s per move on
        /// each position of the REBUS sample, each on its own threads, the
        /// medians and means, and mike's time over hard's to the deeper depth
        /// both completed (a section of --times; about 2 minutes)
        #[arg(long, conflicts_with = "smp")]
        mike: bool,
        /// Instead: only the Lazy SMP speed-up, the last section of --times
        /// (about 3 minutes)
        #[arg(long)]
        smp: bool,
    },
    /// Analyses a recorded game: every position searched, each move's score
    /// against the engine's best move, and the moves that lost the most marked
    #[command(
        after_help = "Scores are in tiles (Rekushu) or squares (REBUS), +1.50 for the side \
        named; W5 / L4 are a proven win / loss in that many plies. loss is the score the move \
        gave away against the engine's best move; ?? marks a loss of 3 or more (or a proven win \
        thrown away, a proven loss walked into), ? a loss of 1 or more.\n\n\
        Examples:\n  \
        tessera analyze game.txt --depth 6\n  \
        tessera analyze game.txt --time 0.5 --json | jq 'select(.mark == \"??\")'"
    )]
    Analyze {
        /// A game record (protocol.md section 10), as savegame and the arena write them
        record: std::path::PathBuf,
        /// Search each position to this depth (reproducible with one thread)
        #[arg(long, conflicts_with = "time")]
        depth: Option<u32>,
        /// Search each position for this many seconds (default: the level's time per move)
        #[arg(long)]
        time: Option<f64>,
        /// One JSON object per move, one per line, instead of the table
        #[arg(long)]
        json: bool,
        /// The level whose search and evaluation analyse (easy, medium, hard, mike)
        #[arg(long, default_value = "hard")]
        level: String,
        /// Search threads
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Counts the move sequences of a given length from a position (move generation check)
    #[command(after_help = "Examples:\n  \
        tessera perft --size 20 --depth 3\n  \
        tessera perft --size 14 --depth 2 --moves \"J10 E10 C6\"\n  \
        tessera perft --game rebus --depth 2 --divide\n  \
        tessera perft --game rebus --position \"<position string>\" --depth 1")]
    Perft {
        /// The game
        #[arg(long, value_enum, default_value = "rekushu")]
        game: GameArg,
        /// Rekushu board size (4-26)
        #[arg(long, default_value_t = 20)]
        size: usize,
        /// Number of plies
        #[arg(long)]
        depth: u32,
        /// Moves played first, space-separated, in the rules' notation
        #[arg(long, default_value = "")]
        moves: String,
        /// REBUS: a position string (rules.md §2.9) to start from instead of the standard setup
        #[arg(long)]
        position: Option<String>,
        /// Also print the count under each first move
        #[arg(long)]
        divide: bool,
    },
    /// Solves a Rekushu position exactly: the tile margin the side to move gets
    /// under perfect play (both sides maximising their own margin), the result it
    /// implies, the optimal moves and a principal variation
    #[command(
        after_help = "The value counts the tiles claimed from the position on; the result \
        adds the tiles already claimed. The value is printed as soon as it is proved, then \
        the moves and the line. Boards up to 6x6 (exact keys); the empty 4x4 and 5x5 \
        boards take well under a second (both are draws: docs/solved.md), some 5x5 \
        positions of poor play much longer, and the empty 6x6 board is out of reach.\n\n\
        Examples:\n  \
        tessera solve --size 5\n  \
        tessera solve --size 4 --moves \"A1 C4 B2 D3\"\n  \
        tessera solve --size 4 --moves \"A1 C4 B2 D3 A4 D1\" --all"
    )]
    Solve {
        /// Board size (4-6)
        #[arg(long, default_value_t = 4)]
        size: usize,
        /// Moves played first, space-separated, in the rules' notation
        #[arg(long, default_value = "")]
        moves: String,
        /// List every optimal first move, not just one
        #[arg(long)]
        all: bool,
        /// Transposition table size in MB (default: by board size, 16 MB for
        /// 4x4, 256 MB for 5x5, 4096 MB for 6x6)
        #[arg(long)]
        hash: Option<usize>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => run_protocol(&cli.init, cli.gogui),
        Some(Command::Bench { times: true, .. }) => report(cli::bench_times),
        Some(Command::Bench { mike: true, .. }) => report(cli::bench_mike),
        Some(Command::Bench { smp: true, .. }) => report(cli::bench_smp),
        Some(Command::Bench { .. }) => report(cli::bench),
        Some(Command::Analyze {
            record,
            depth,
            time,
            json,
            level,
            threads,
        }) => run_analyze(&record, depth, time, json, &level, threads),
        Some(Command::Perft {
            game,
            size,
            depth,
            moves,
            position,
            divide,
        }) => {
            let game = match game {
                GameArg::Rekushu => GameId::Rekushu,
                GameArg::Rebus => GameId::Rebus,
            };
            report(|out| cli::perft(out, game, size, depth, &moves, position.as_deref(), divide))
        }
        Some(Command::Solve {
            size,
            moves,
            all,
            hash,
        }) => report(|out| cli::solve(out, size, &moves, all, hash)),
    }
}

/// The protocol loop on stdin and stdout ([`driver::run`]), after the
/// `--init` commands; search progress goes to stderr.
fn run_protocol(init: &[String], gogui: bool) -> ExitCode {
    let mut engine = Engine::new();
    engine.settings_mut().gogui = gogui;
    for line in init {
        if let Some(reply) = engine.handle_line(line)
            && reply.starts_with('?')
        {
            eprintln!("tessera: --init '{line}': {}", reply.trim_end());
            return ExitCode::FAILURE;
        }
        // `--init quit` ends the program there, as `quit` on stdin would.
        if engine.should_quit() {
            return ExitCode::SUCCESS;
        }
    }
    // The first move's table is allocated now, not on its clock.
    engine.prepare();
    // Never `eprintln!`: it panics when stderr is closed, and a controller may
    // close it (or not read it) while a search runs.
    engine.set_info_sink(Box::new(|report| {
        let _ = writeln!(io::stderr().lock(), "{}", report_line(report));
    }));
    let input = io::BufReader::new(io::stdin());
    match driver::run(&mut engine, &mut Gtp, input, io::stdout()) {
        Ended::Done => ExitCode::SUCCESS,
        Ended::ReadError(e) => {
            let _ = writeln!(io::stderr(), "tessera: cannot read input: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a subcommand's report on stdout; its error on stderr, with its status.
fn report(run: impl FnOnce(&mut dyn Write) -> Result<(), CliError>) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match run(&mut stdout).and_then(|()| stdout.flush().map_err(CliError::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "{}", e.message);
            ExitCode::from(e.status)
        }
    }
}

/// `tessera analyze`: the table or JSON lines on stdout, progress on stderr
/// when it is a terminal, status 2 with a message for any bad input.
fn run_analyze(
    path: &std::path::Path,
    depth: Option<u32>,
    time: Option<f64>,
    json: bool,
    level: &str,
    threads: usize,
) -> ExitCode {
    use std::io::IsTerminal;
    use tessera::analysis::{Budget, Options, analyze};
    use tessera::record::Record;

    let fail = |msg: String| {
        eprintln!("tessera analyze: {msg}");
        ExitCode::from(2)
    };
    let level = match level.parse::<tessera::search::Level>() {
        Ok(l) => l,
        Err(e) => return fail(e.to_string()),
    };
    if !(1..=MAX_THREADS).contains(&threads) {
        return fail(format!("--threads {threads}: 1 to {MAX_THREADS} threads"));
    }
    let budget = match (depth, time) {
        (Some(d), _) if !(1..=MAX_DEPTH as u32).contains(&d) => {
            return fail(format!("--depth {d}: a depth from 1 to {MAX_DEPTH}"));
        }
        (Some(d), _) => Budget::Depth(d),
        (None, Some(t)) if !(t.is_finite() && t > 0.0 && t < 1e6) => {
            return fail(format!("--time {t}: a number of seconds above 0"));
        }
        (None, Some(t)) => Budget::Time(std::time::Duration::from_secs_f64(t)),
        (None, None) => Budget::LevelDefault,
    };
    let text = match tessera::record::read_record_file(path) {
        Ok(text) => text,
        Err(why) => return fail(format!("cannot read '{}': {why}", path.display())),
    };
    let replay = match Record::read(&text) {
        Ok((_, replay)) => replay,
        Err(e) => return fail(format!("'{}': {e}", path.display())),
    };
    let options = Options {
        budget,
        level,
        threads,
    };
    let show_progress = io::stderr().is_terminal();
    let mut progress = |done: usize, total: usize| {
        if show_progress {
            eprint!("\ranalysing move {done}/{total}");
            if done == total {
                eprintln!();
            }
        }
    };
    let analysis = analyze(&replay, &options, &mut progress);
    let out = if json {
        analysis.json_lines()
    } else {
        analysis.table()
    };
    let mut stdout = io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
