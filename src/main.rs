//! The `tessera` command: the protocol loop on stdin/stdout by default, and the
//! `perft` tool. All protocol logic lives in the library; this file only owns I/O.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use tessera::engine::driver::{self, Ended};
use tessera::protocol::{Engine, Gtp};
use tessera::search::params::MAX_THREADS;

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
        /// and the Lazy SMP speed-up from 1 to 2 threads (about 3 minutes)
        #[arg(long)]
        times: bool,
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
        /// Moves played first, space-separated, in RULES notation
        #[arg(long, default_value = "")]
        moves: String,
        /// REBUS: a position string (RULES 2.9) to start from instead of the standard setup
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
        adds the tiles already claimed. Boards up to 6x6 (exact keys); from the empty board \
        only 4x4 is within reach (about half an hour; docs/solved.md), larger boards from \
        late positions.\n\n\
        Examples:\n  \
        tessera solve --size 4\n  \
        tessera solve --size 4 --moves \"A1 C4 B2 D3\"\n  \
        tessera solve --size 4 --moves \"A1 C4 B2 D3 A4 D1\" --all"
    )]
    Solve {
        /// Board size (4-6)
        #[arg(long, default_value_t = 4)]
        size: usize,
        /// Moves played first, space-separated, in RULES notation
        #[arg(long, default_value = "")]
        moves: String,
        /// List every optimal first move, not just one
        #[arg(long)]
        all: bool,
        /// Transposition table size in MB
        #[arg(long, default_value_t = 1024)]
        hash: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => run_protocol(&cli.init),
        Some(Command::Bench { times: false }) => run_bench(),
        Some(Command::Bench { times: true }) => run_bench_times(),
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
        }) => run_perft(game, size, depth, &moves, position.as_deref(), divide),
        Some(Command::Solve {
            size,
            moves,
            all,
            hash,
        }) => run_solve(size, &moves, all, hash),
    }
}

/// The protocol loop on stdin and stdout ([`driver::run`]), after the
/// `--init` commands; search progress goes to stderr.
fn run_protocol(init: &[String]) -> ExitCode {
    let mut engine = Engine::new();
    for line in init {
        if let Some(reply) = engine.handle_line(line)
            && reply.starts_with('?')
        {
            eprintln!("tessera: --init '{line}': {}", reply.trim_end());
            return ExitCode::FAILURE;
        }
    }
    // The first move's table is allocated now, not on its clock.
    engine.prepare();
    // Never `eprintln!`: it panics when stderr is closed, and a controller may
    // close it (or not read it) while a search runs.
    engine.set_info_sink(Box::new(|line| {
        let _ = writeln!(io::stderr().lock(), "{line}");
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

fn run_perft(
    game: GameArg,
    size: usize,
    depth: u32,
    moves: &str,
    position: Option<&str>,
    divide: bool,
) -> ExitCode {
    let mut engine = Engine::new();
    let mut setup: Vec<(String, Vec<String>)> = Vec::new();
    match game {
        GameArg::Rekushu => {
            if position.is_some() {
                eprintln!("tessera perft: --position is for --game rebus");
                return ExitCode::FAILURE;
            }
            setup.push(("boardsize".into(), vec![size.to_string()]));
        }
        GameArg::Rebus => {
            setup.push(("game".into(), vec!["rebus".into()]));
            if let Some(p) = position {
                setup.push((
                    "setup".into(),
                    p.split_whitespace().map(String::from).collect(),
                ));
            }
        }
    }
    for (name, args) in &setup {
        if let Err(e) = engine.execute(name, args) {
            eprintln!("tessera perft: {name} {}: {e}", args.join(" "));
            return ExitCode::FAILURE;
        }
    }
    for mv in moves.split_whitespace() {
        let colour = engine.side_to_move_name().to_ascii_lowercase();
        if let Err(e) = engine.execute("play", &[colour, mv.to_string()]) {
            eprintln!("tessera perft: move '{mv}': {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut args = vec![depth.to_string()];
    if divide {
        args.push("divide".into());
    }
    let start = Instant::now();
    match engine.execute("perft", &args) {
        Ok(text) => {
            let secs = start.elapsed().as_secs_f64();
            let mut lines = text.lines();
            let total: u64 = lines.next().and_then(|l| l.parse().ok()).unwrap_or(0);
            for line in lines {
                println!("{line}");
            }
            println!(
                "perft({depth}) = {total}  time {secs:.3} s  {:.1} M leaves/s",
                total as f64 / secs.max(1e-9) / 1e6
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tessera perft: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `tessera solve`: the exact value of a small Rekushu position.
fn run_solve(size: usize, moves: &str, all: bool, hash: usize) -> ExitCode {
    use tessera::core::{Game, Notation, Side};
    use tessera::games::rekushu::Board;
    use tessera::games::rekushu::solve::{MAX_SOLVE_SIZE, Solver};

    let fail = |msg: String| {
        eprintln!("tessera solve: {msg}");
        ExitCode::from(2)
    };
    if !(Board::MIN_SIZE..=MAX_SOLVE_SIZE).contains(&size) {
        return fail(format!(
            "size {size}: the solver takes boards of {} to {MAX_SOLVE_SIZE}",
            Board::MIN_SIZE
        ));
    }
    let Some(mut board) = Board::new(size) else {
        return fail(format!("size {size}: not a board size"));
    };
    for text in moves.split_whitespace() {
        match board.parse_move(text) {
            Ok(mv) => board.make_move(mv),
            Err(e) => return fail(format!("move '{text}': {e}")),
        }
    }
    let name = |s: Side| if s == Side::First { "Black" } else { "White" };
    let mover = board.side_to_move();
    let [b, w] = board.tile_counts();
    println!(
        "position  {size}x{size}, {} moves played, {} to move, tiles Black {b} White {w}",
        board.ply(),
        name(mover)
    );
    let Some(mut solver) = Solver::try_new(hash) else {
        return fail(format!(
            "--hash {hash}: could not allocate a table of {hash} MB"
        ));
    };
    let start = Instant::now();
    let sol = solver.solve(&board, all);
    let secs = start.elapsed().as_secs_f64();
    let (mine, theirs) = if mover == Side::First { (b, w) } else { (w, b) };
    let final_margin = mine as i32 - theirs as i32 + sol.value;
    let result = match final_margin.signum() {
        1 => format!("{} wins by {final_margin}", name(mover)),
        -1 => format!("{} wins by {}", name(mover.opp()), -final_margin),
        _ => "draw".to_string(),
    };
    println!(
        "value     {:+} tiles for {} from here on",
        sol.value,
        name(mover)
    );
    println!("result    {result} (perfect play)");
    let texts = |b: &Board, list: &[tessera::games::rekushu::Move]| -> Vec<String> {
        list.iter().map(|&mv| b.format_move(mv)).collect()
    };
    let label = if all { "optimal" } else { "best" };
    if sol.best_moves.is_empty() {
        println!("{label:<9} none (the game is over)");
    } else {
        println!("{label:<9} {}", texts(&board, &sol.best_moves).join(" "));
    }
    let mut line = board.clone();
    let mut pv = Vec::new();
    for &mv in &sol.pv {
        pv.push(line.format_move(mv));
        line.make_move(mv);
    }
    println!("pv        {}", pv.join(" "));
    println!(
        "nodes     {}  time {secs:.3} s  {:.0} nodes/s",
        sol.nodes,
        sol.nodes as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn run_bench() -> ExitCode {
    let parts = tessera::bench::run();
    for p in &parts {
        println!(
            "{:<8} {:<5} depth {}  nodes {:>12}  time {:>8.3} s  nps {:>10}",
            p.game,
            p.level.to_string(),
            p.depth,
            p.report.nodes,
            p.report.time.as_secs_f64(),
            p.report.nps
        );
    }
    for (level, _, _) in tessera::bench::BENCH_LEVELS {
        let nodes = tessera::bench::level_nodes(&parts, level);
        println!("Bench {level}: {nodes}");
    }
    let nodes: u64 = parts.iter().map(|p| p.report.nodes).sum();
    let time: std::time::Duration = parts.iter().map(|p| p.report.time).sum();
    println!("Nodes searched: {nodes}");
    println!(
        "Nodes/second: {}",
        (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64
    );
    println!("Bench: {nodes}");
    ExitCode::SUCCESS
}

/// Milliseconds, for the timing report.
fn millis(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Sorts `v` and returns its median (the upper one of an even count) and its
/// maximum; zeros when it is empty.
fn median_and_max(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let median = v.get(v.len() / 2).copied().unwrap_or(0.0);
    (median, v.last().copied().unwrap_or(0.0))
}

/// One row of `tessera bench --times`: `pos` searched at hard to `depth`,
/// the time each depth completed; returns the time of `depth` itself.
fn depth_row<G: tessera::search::Evaluate>(label: &str, pos: &G, depth: u32) -> Option<f64> {
    let t = tessera::bench::depth_times(pos, tessera::search::Level::Hard, depth);
    let cells: Vec<String> = t
        .times
        .iter()
        .map(|&(d, _)| format!("{:.1}", millis(d)))
        .collect();
    let nodes = t.times.last().map_or(0, |&(_, n)| n);
    println!(
        "  hard  {label:<12} depth 1..{depth} ms: {}  ({nodes} nodes)",
        cells.join(" / ")
    );
    t.times.get(depth as usize - 1).map(|&(d, _)| millis(d))
}

/// `tessera bench --times`: per position and level, the milliseconds to
/// complete each depth; then the median and maximum per level.
fn run_bench_times() -> ExitCode {
    use tessera::bench::{depth_times, depth_times_on, rebus_timing_sample, rekushu_timing_sample};
    use tessera::search::Level;
    let summary = |label: &str, mut v: Vec<f64>| {
        let (median, max) = median_and_max(&mut v);
        println!(
            "{label:<34} median {median:>9.2} ms  max {max:>9.2} ms  ({} positions)",
            v.len()
        );
    };
    let rebus = rebus_timing_sample();
    println!(
        "REBUS: time to complete depth 1 of a search to depth 2 (one thread, fresh table, the level's switches)"
    );
    for level in Level::ALL {
        let mut firsts = Vec::new();
        for (label, pos) in &rebus {
            // Inside a deeper search, as in play: a noisy level's margin
            // applies to depth 1 only when depth 1 is the deepest asked.
            let t = depth_times(pos, level, 2);
            let Some(&(time, nodes)) = t.times.first() else {
                println!("  {level:<5} {label:<12} no iteration completed");
                continue;
            };
            println!(
                "  {level:<5} {label:<12} depth 1 {:>9.2} ms {nodes:>9} nodes",
                millis(time)
            );
            firsts.push(millis(time));
        }
        summary(&format!("REBUS {level} depth 1"), firsts);
    }
    println!("REBUS: time to complete depth 4 at hard from the standard setup and the deals");
    let fours = rebus
        .iter()
        .filter(|(l, _)| !l.starts_with("midgame"))
        .filter_map(|(label, pos)| depth_row(label, pos, 4))
        .collect();
    summary("REBUS hard depth 4", fours);
    println!("Rekushu 20x20: time to complete depths 1..5 at hard");
    let fives = rekushu_timing_sample()
        .iter()
        .filter_map(|(label, pos)| depth_row(label, pos, 5))
        .collect();
    summary("Rekushu 20x20 hard depth 5", fives);
    println!("Lazy SMP: time to a fixed depth at hard, 1 and 2 threads (speed-up = 1 / 2)");
    let mut ratios = Vec::new();
    let mut smp = |label: &str, t1: f64, t2: f64| {
        println!(
            "  {label:<24} 1 thread {t1:>9.1} ms  2 threads {t2:>9.1} ms  x{:.2}",
            t1 / t2
        );
        ratios.push(t1 / t2);
    };
    let last = |t: tessera::bench::DepthTimes| t.times.last().map_or(0.0, |&(d, _)| millis(d));
    for (label, pos) in rebus.iter().filter(|(l, _)| l.starts_with("deal")).take(10) {
        let one = last(depth_times_on(pos, Level::Hard, 5, 1));
        let two = last(depth_times_on(pos, Level::Hard, 5, 2));
        smp(&format!("REBUS {label} depth 5"), one, two);
    }
    for (label, pos) in rekushu_timing_sample() {
        let one = last(depth_times_on(&pos, Level::Hard, 4, 1));
        let two = last(depth_times_on(&pos, Level::Hard, 4, 2));
        smp(&format!("Rekushu {label} depth 4"), one, two);
    }
    let (median, _) = median_and_max(&mut ratios);
    println!(
        "Lazy SMP speed-up, median of {}: x{median:.2}",
        ratios.len()
    );
    ExitCode::SUCCESS
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
        (Some(d), _) if !(1..=100).contains(&d) => {
            return fail(format!("--depth {d}: a depth from 1 to 100"));
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
