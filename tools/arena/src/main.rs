//! `arena`: engine-vs-engine matches for Tessera's games, refereed by the
//! arena's own copy of the rules. See `arena --help`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use arena::adjudication::{Adjudication, parse_draw, parse_resign};
use arena::openings::{GameKind, OpeningSource, load_book, parse_book_args};
use arena::referee::{Limits, Timing};
use arena::shard::Shard;
use arena::spec::{LimitArgs, build_engines};
use arena::stats::Sprt;
use arena::tournament::{self, Config, Format, Summary};
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
(the reason is recorded) and the engine is restarted for its next game (a time forfeit \
keeps the process). Each opening is played twice with colours swapped.\n\n\
Subcommands (see `arena merge --help`, `arena book --help`):\n  \
arena merge [--json OUT] SHARD.json...   sum shards' summaries into one table\n  \
arena book --game G --engine CMD ...     generate a balanced opening book",
    after_help = "Examples:\n  \
  arena --game rebus --engine easy=./target/release/tessera --init 'easy=level easy' \\\n        \
--engine random=./target/release/tessera --init 'random=level random' \\\n        \
--games 20 --movetime 0.05 --concurrency 2\n  \
  arena --game rekushu --size 8 --opening-plies 4 --seed 7 \\\n        \
--engine new=./tessera-new --engine old=./tessera-old --tc 10+0.1 \\\n        \
--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 --records games/ --json summary.json\n  \
  arena --engine a=./tessera --engine b=./tessera --engine c=./tessera \\\n        \
--init 'a=level easy' --init 'b=level uct' --init 'c=level random' --format round-robin \\\n        \
--depth a=3 --nodes b=2000 --games 10 --handshake-timeout 30\n  \
  # one shard of four, resumable; then the merge of all four\n  \
  arena --size 8 --engine new=./tessera-new --engine old=./tessera-old --movetime 0.1 \\\n        \
--games 2000 --sprt elo0=0 elo1=10 --shard 3/4 --state s3.state --json s3.json\n  \
  arena merge s1.json s2.json s3.json s4.json --json all.json\n  \
  # a book, random order from its 5th line; adjudication; a length limit\n  \
  arena --size 8 --openings file=tools/arena/openings/rekushu-8.txt order=random start=5 \\\n        \
--resign movecount=3 score=20 --draw movenumber=30 movecount=6 score=0.5 --max-plies 120 \\\n        \
--engine a=./tessera --engine b=./tessera --movetime 0.05\n\n\
Limits (--tc, --movetime, --depth, --nodes) apply to every engine, or to one with NAME=VALUE;\n\
a per-engine value wins. --tc sends `fischer_time` and then `time_left` before each genmove;\n\
--movetime sends `move_time`; --depth/--nodes send `limit`. A reply later than the limit plus\n\
--margin-ms loses on time; no reply by then plus --stall-ms is a stall (the engine is killed).\n\
Without a clock, --move-timeout bounds every wait. A new engine process must answer its handshake\n\
(protocol_version, name, version) within --handshake-timeout; its round trip and each move's\n\
latency (wall time minus the engine's own reported time) are shown per engine.\n\n\
Shards: --shard I/N plays the I-th of N disjoint ranges of openings (a game pair is never split;\n\
game k is the same game as in the unsharded match); the SPRT does not stop a shard: merge the\n\
shards' --json files with `arena merge` for the verdict (docs/arena-clusters.md).\n\
Resuming: with --state FILE every finished game is appended to FILE; run the same command again\n\
after Ctrl-C, SIGTERM or a crash and only the missing games are played. Ctrl-C sends quit to the\n\
engines and writes the summary of the games so far (exit status 130); a second Ctrl-C exits at once.\n\
A run interrupted without --state resumes too: the same command with a new --state FILE starts\n\
FILE with the games of its --json summary.\n\
Adjudication uses the scores in the engines' genmove summaries (tiles or squares, mover's view).\n\
Records carry each engine move's summary (depth, score, nodes, time) and the arena's wall time."
)]
struct Cli {
    /// The game
    #[arg(long, value_enum, default_value = "rekushu")]
    game: GameArg,
    /// Rekushu board size (4-26)
    #[arg(long, default_value_t = 20)]
    size: usize,
    /// An engine: NAME=COMMAND (the command is split on spaces; quotes group, \ escapes). Repeat it
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
    /// Openings file, one per line (Rekushu: moves; REBUS: a position string or `random SEED`;
    /// `#` starts a comment): FILE, or file=FILE [order=random|sequential] [start=N]
    /// (random: shuffled with --seed; start: the 1-based line to begin with)
    #[arg(long, num_args = 1..=3, value_name = "FILE|KEY=VALUE")]
    openings: Vec<String>,
    /// Tolerance on clock and move-time overruns, in milliseconds
    #[arg(long, default_value_t = 100)]
    margin_ms: u64,
    /// Longest wait for a new engine process's handshake, in seconds
    #[arg(long, default_value_t = 10.0)]
    handshake_timeout: f64,
    /// Extra wait past the limit and margin before an engine counts as stalled, in ms
    #[arg(long, default_value_t = 1000)]
    stall_ms: u64,
    /// Longest wait for a reply when there is no clock (depth, nodes, setup), seconds
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// Maximum game length: a draw after this many plies (after the opening)
    #[arg(long)]
    max_plies: Option<usize>,
    /// Resign adjudication: movecount=N score=S [twosided=true]: a side whose own score is
    /// -S or less (tiles or squares) for N of its moves in a row loses (twosided: and the
    /// opponent's is +S or more). E.g. --resign movecount=3 score=20
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// Draw adjudication: movenumber=P movecount=N score=S: from engine ply P on, both sides'
    /// scores within ±S for N moves each in a row is a draw. E.g. --draw movenumber=40
    /// movecount=8 score=0.5
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    draw: Vec<String>,
    /// Play only shard I of N (1 ≤ I ≤ N): a disjoint range of openings, whole game pairs
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// State file: finished games are appended to it; an existing one of the same match
    /// is resumed (its games are not played again); a new one starts with the games of
    /// --json FILE if that is the summary of an interrupted run of the same match
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
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

fn config(cli: Cli) -> Result<Config, String> {
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
    let openings = if cli.openings.is_empty() {
        OpeningSource::Random {
            plies: cli.opening_plies,
            seed: cli.seed,
        }
    } else {
        let args = parse_book_args(&cli.openings)?;
        let (list, description) = load_book(&args, kind, cli.seed).map_err(|e| e.to_string())?;
        OpeningSource::List(list, description)
    };
    let secs = |name: &str, v: f64| {
        if v.is_finite() && v > 0.0 && v < 1e7 {
            Ok(Duration::from_secs_f64(v))
        } else {
            Err(format!("{name} {v}: not a number of seconds"))
        }
    };
    let move_timeout = secs("--move-timeout", cli.move_timeout)?;
    let handshake = secs("--handshake-timeout", cli.handshake_timeout)?;
    let shard = match &cli.shard {
        Some(s) => Shard::parse(s)?,
        None => Shard::ALL,
    };
    let adjudication = Adjudication {
        resign: parse_resign(&cli.resign)?,
        draw: parse_draw(&cli.draw)?,
    };
    if !shard.is_all() && cli.games.is_none() {
        return Err(format!(
            "--shard {shard} needs --games: the number of games of the whole match, which the shards divide"
        ));
    }
    let games = cli
        .games
        .unwrap_or(if sprt.is_some() { 100_000 } else { 10 });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cli.concurrency > cores && !cli.quiet {
        eprintln!(
            "arena: warning: --concurrency {} on {cores} cores: engines share cores and may lose on time",
            cli.concurrency
        );
    }
    Ok(Config {
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
        limits: Limits {
            timing: Timing {
                margin: Duration::from_millis(cli.margin_ms),
                stall_grace: Duration::from_millis(cli.stall_ms),
                move_timeout,
                handshake,
            },
            max_plies: cli.max_plies,
            adjudication,
        },
        records: cli.records,
        progress: !cli.quiet,
        shard,
        state: cli.state,
        summary: cli.json,
    })
}

/// Writes the summary as JSON to `path`, whole or not at all: to `path.tmp`
/// first, then renamed, so that a watcher merging shards as they finish
/// (`sprt-watch.sh`, on a shared file system) never reads half a file.
fn write_json(summary: &Summary, path: &std::path::Path) -> Result<(), String> {
    let text = serde_json::to_string_pretty(summary)
        .map_err(|e| format!("cannot write the summary: {e}"))?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text + "\n")
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `arena merge`: shards' JSON summaries summed into one.
#[derive(Parser)]
#[command(
    name = "arena merge",
    about = "Sums the JSON summaries of shards of one match (arena --shard I/N --json FILE) and \
prints the table, Elo, LOS and SPRT verdict one run would",
    after_help = "Examples:\n  \
arena merge shards/*.json\n  \
arena merge s1.json s2.json --json merged.json\n\n\
Shards of different matches (game, size, engines' arguments, init commands, limits, binaries,\n\
openings, seed, adjudication, SPRT bounds) are refused, naming what differs; so are inputs\n\
that share a game. Missing shards are reported; the SPRT verdict is that of the games merged."
)]
struct MergeCli {
    /// The summaries (files written by --json)
    #[arg(required = true, value_name = "JSON")]
    files: Vec<PathBuf>,
    /// Write the merged summary as JSON to this file
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Merge shards whose engine binaries differ (builds of one commit on two machines)
    #[arg(long)]
    allow_binary_mismatch: bool,
}

fn merge_main(args: Vec<String>) -> ExitCode {
    let cli = MergeCli::parse_from(args);
    let mut files = Vec::new();
    for f in &cli.files {
        match std::fs::read_to_string(f) {
            Ok(text) => files.push((f.display().to_string(), text)),
            Err(e) => {
                eprintln!("arena merge: cannot read '{}': {e}", f.display());
                return ExitCode::from(2);
            }
        }
    }
    let mut notes = Vec::new();
    let summary = match arena::merge::merge(&files, cli.allow_binary_mismatch, &mut notes) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arena merge: {e}");
            return ExitCode::from(2);
        }
    };
    for n in notes {
        eprintln!("arena merge: {n}");
    }
    print!("{}", tournament::table(&summary));
    if let Some(path) = cli.json
        && let Err(e) = write_json(&summary, &path)
    {
        eprintln!("arena merge: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // `arena merge …` and `arena book …`: their own parsers, named as typed.
    let sub = |name: &str| -> Vec<String> {
        std::iter::once(format!("arena {name}"))
            .chain(args.iter().skip(2).cloned())
            .collect()
    };
    match args.get(1).map(String::as_str) {
        Some("merge") => return merge_main(sub("merge")),
        Some("book") => return arena::book::main(sub("book")),
        _ => {}
    }
    let cli = Cli::parse_from(args);
    let config = match config(cli) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::from(2);
        }
    };
    arena::signals::install();
    let summary = match tournament::run(&config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The summary file first: an arena stopped because its ssh connection or
    // terminal went away (GNU parallel's --termseq over ssh) cannot print, and
    // must still leave its summary.
    if let Some(path) = &config.summary
        && let Err(e) = write_json(&summary, path)
    {
        say(&format!("arena: {e}"));
        return ExitCode::FAILURE;
    }
    print_out(&tournament::table(&summary));
    if summary.status == "interrupted" {
        say(&match &config.state {
            Some(p) => format!(
                "arena: interrupted after {} games; the same command resumes from '{}'",
                summary.games_played,
                p.display()
            ),
            None => match &config.summary {
                Some(j) if summary.games_played > 0 => format!(
                    "arena: interrupted after {} games; the same command with --state FILE resumes, \
                     taking them from '{}'",
                    summary.games_played,
                    j.display()
                ),
                _ => format!(
                    "arena: interrupted after {} games (give --state FILE to make a match resumable)",
                    summary.games_played
                ),
            },
        });
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}

/// Prints to stdout; a closed stdout (a lost connection) is not an error.
fn print_out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    let _ = std::io::stdout().flush();
}

/// A line on stderr; a closed stderr is not an error.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}
