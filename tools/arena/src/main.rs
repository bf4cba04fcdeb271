//! `arena`: engine-vs-engine matches for Tessera's games, refereed by the
//! arena's own copy of the rules. See `arena --help`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use arena::openings::{GameKind, OpeningSource, read_openings};
use arena::referee::Timing;
use arena::spec::{LimitArgs, build_engines};
use arena::stats::Sprt;
use arena::tournament::{self, Config, Format};
use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Rekushu,
    Rebus,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// The first engine against each of the others (two engines: head to head)
    Gauntlet,
    /// Every engine against every other
    RoundRobin,
}

#[derive(Parser)]
#[command(
    name = "arena",
    version,
    about = "Engine-vs-engine matches for Rekushu and REBUS Core, refereed by the arena",
    long_about = "Plays engines speaking Tessera's protocol against each other. The arena is \
the referee: it keeps its own copy of the rules, sends each engine `play` for the \
opponent's moves and `genmove` for its own, and checks every reply. An illegal or \
unparsable move, a crash, a stall, a clock overrun or a garbled reply loses the game \
(the reason is recorded) and the engine is restarted for its next game. Each opening is \
played twice with colours swapped.",
    after_help = "Examples:\n  \
  arena --game rebus --engine easy=./target/release/tessera --init 'easy=level easy' \\\n        \
--engine random=./target/release/tessera --init 'random=level random' \\\n        \
--games 20 --movetime 0.05 --concurrency 2\n  \
  arena --game rekushu --size 8 --opening-plies 4 --seed 7 \\\n        \
--engine new=./tessera-new --engine old=./tessera-old --tc 10+0.1 \\\n        \
--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --records games/ --json summary.json\n  \
  arena --engine a=./tessera --engine b=./tessera --engine c=./tessera \\\n        \
--init 'a=level easy' --init 'b=level uct' --init 'c=level random' --format round-robin \\\n        \
--depth a=3 --nodes b=2000 --games 10\n\n\
Limits (--tc, --movetime, --depth, --nodes) apply to every engine, or to one with NAME=VALUE;\n\
a per-engine value wins. --tc sends `fischer_time` and then `time_left` before each genmove;\n\
--movetime sends `move_time`; --depth/--nodes send `limit`. A reply later than the limit plus\n\
--margin-ms loses on time; no reply by then plus --stall-ms is a stall (the engine is killed).\n\
Without a clock, --move-timeout bounds every wait."
)]
struct Cli {
    /// The game
    #[arg(long, value_enum, default_value = "rekushu")]
    game: GameArg,
    /// Rekushu board size (4-26)
    #[arg(long, default_value_t = 20)]
    size: usize,
    /// An engine: NAME=COMMAND (the command is split on spaces; quotes group). Repeat it
    #[arg(long = "engine", value_name = "NAME=COMMAND", required = true)]
    engines: Vec<String>,
    /// A protocol command sent to an engine before each game: NAME=COMMAND. Repeatable
    #[arg(long = "init", value_name = "NAME=COMMAND")]
    inits: Vec<String>,
    /// Fischer clock BASE+INC seconds, for all or NAME=BASE+INC for one engine
    #[arg(long, value_name = "[NAME=]BASE+INC")]
    tc: Vec<String>,
    /// Seconds per move, for all or NAME=SECONDS
    #[arg(long, value_name = "[NAME=]SECONDS")]
    movetime: Vec<String>,
    /// Search depth limit, for all or NAME=N
    #[arg(long, value_name = "[NAME=]N")]
    depth: Vec<String>,
    /// Node limit, for all or NAME=N
    #[arg(long, value_name = "[NAME=]N")]
    nodes: Vec<String>,
    /// Who plays whom when more than two engines are given
    #[arg(long, value_enum, default_value = "gauntlet")]
    format: FormatArg,
    /// Games per pairing (with --sprt: the most it may play)
    #[arg(long)]
    games: Option<u64>,
    /// Stop by SPRT on game pairs: elo0=E elo1=E [alpha=A] [beta=B] (head to head only)
    #[arg(long, num_args = 1..=4, value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// The SPRT stops the match only after this many complete game pairs
    #[arg(long, default_value_t = 10)]
    sprt_min_pairs: u64,
    /// Games played at once (each with its own engine processes)
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Rekushu: plies of each seeded random opening
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed of the openings (Rekushu lines, REBUS deals `setup random SEED+k`)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings file: one per line (Rekushu: moves; REBUS: a position string or `random SEED`)
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// Tolerance on clock and move-time overruns, in milliseconds
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
    /// Extra wait past the limit and margin before an engine counts as stalled, in ms
    #[arg(long, default_value_t = 1000)]
    stall_ms: u64,
    /// Longest wait for a reply when there is no clock (depth, nodes, setup), seconds
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Adjudicate a draw after this many plies (after the opening)
    #[arg(long)]
    max_plies: Option<usize>,
    /// Folder for one text record per game (the format of protocol.md section 10)
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Write the summary as JSON to this file
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// No progress on stderr
    #[arg(long)]
    quiet: bool,
}

fn parse_sprt(args: &[String]) -> Result<Option<Sprt>, String> {
    if args.is_empty() {
        return Ok(None);
    }
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for a in args.iter().flat_map(|a| a.split_whitespace()) {
        let (key, value) = a
            .split_once('=')
            .ok_or_else(|| format!("--sprt '{a}': expected KEY=VALUE"))?;
        let v: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("--sprt '{a}': '{value}' is not a number"))?;
        match key {
            "elo0" => sprt.elo0 = v,
            "elo1" => sprt.elo1 = v,
            "alpha" => sprt.alpha = v,
            "beta" => sprt.beta = v,
            _ => {
                return Err(format!(
                    "--sprt '{a}': unknown key '{key}' (elo0, elo1, alpha, beta)"
                ));
            }
        }
    }
    if !(sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo0 < sprt.elo1) {
        return Err("--sprt needs elo0 < elo1".into());
    }
    if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
        return Err("--sprt alpha and beta must be between 0 and 0.5".into());
    }
    Ok(Some(sprt))
}

fn config(cli: Cli) -> Result<(Config, Option<PathBuf>), String> {
    let limits = LimitArgs {
        tc: cli.tc,
        movetime: cli.movetime,
        depth: cli.depth,
        nodes: cli.nodes,
    };
    let engines = build_engines(&cli.engines, &cli.inits, &limits).map_err(|e| e.to_string())?;
    if engines.len() < 2 {
        return Err("give at least two engines (--engine NAME=COMMAND)".into());
    }
    let sprt = parse_sprt(&cli.sprt)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt is for two engines head to head".into());
    }
    let kind = match cli.game {
        GameArg::Rekushu => GameKind::Rekushu { size: cli.size },
        GameArg::Rebus => GameKind::Rebus,
    };
    let openings = match &cli.openings {
        Some(path) => OpeningSource::List(read_openings(path, kind).map_err(|e| e.to_string())?),
        None => OpeningSource::Random {
            plies: cli.opening_plies,
            seed: cli.seed,
        },
    };
    if !(cli.move_timeout.is_finite() && cli.move_timeout > 0.0 && cli.move_timeout < 1e7) {
        return Err(format!(
            "--move-timeout {}: not a number of seconds",
            cli.move_timeout
        ));
    }
    let games = cli
        .games
        .unwrap_or(if sprt.is_some() { 100_000 } else { 10 });
    Ok((
        Config {
            kind,
            engines,
            format: match cli.format {
                FormatArg::Gauntlet => Format::Gauntlet,
                FormatArg::RoundRobin => Format::RoundRobin,
            },
            games,
            sprt,
            sprt_min_pairs: cli.sprt_min_pairs,
            concurrency: cli.concurrency.max(1),
            openings,
            timing: Timing {
                margin: Duration::from_millis(cli.margin_ms),
                stall_grace: Duration::from_millis(cli.stall_ms),
                move_timeout: Duration::from_secs_f64(cli.move_timeout),
            },
            max_plies: cli.max_plies,
            records: cli.records,
            progress: !cli.quiet,
        },
        cli.json,
    ))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (config, json) = match config(cli) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::from(2);
        }
    };
    let summary = match tournament::run(&config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    print!("{}", tournament::table(&summary));
    if let Some(path) = json {
        let text = match serde_json::to_string_pretty(&summary) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("arena: cannot write the summary: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Err(e) = std::fs::write(&path, text + "\n") {
            eprintln!("arena: cannot write {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
