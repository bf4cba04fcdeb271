//! The subcommands of the `tessera` binary (`perft`, `solve`, `bench`,
//! `bench --times`, `--mike`, `--smp`) as library functions that write their
//! report to a writer; `main.rs` parses the flags, calls them with stdout, and
//! turns a [`CliError`] into a message on stderr and an exit status.

use std::io::Write;
use std::time::Instant;

use crate::bench::{
    DepthTimes, EQUAL_TIME, depth_in_time, depth_times, depth_times_on, rebus_timing_sample,
    rekushu_timing_sample,
};
use crate::core::{Game, GameId, GameText, Notation, Side};
use crate::engine::Engine;
use crate::games::rekushu::Board;
use crate::search::levels::hardware_threads;
use crate::search::{Evaluate, Level};
use crate::solve::{MAX_SOLVE_SIZE, Solver};

/// Why a subcommand failed: the message for stderr and the exit status.
#[derive(Debug)]
pub struct CliError {
    pub status: u8,
    pub message: String,
}

impl CliError {
    pub fn new(status: u8, message: String) -> Self {
        CliError { status, message }
    }
}

impl From<std::io::Error> for CliError {
    /// The report could not be written (stdout closed).
    fn from(e: std::io::Error) -> Self {
        CliError::new(1, format!("tessera: cannot write the report: {e}"))
    }
}

/// A line of the report.
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*)?
    };
}

/// `tessera perft`: the count of move sequences of `depth` plies from a start
/// (and with `divide` a line per first move), with the time it took.
pub fn perft(
    out: &mut dyn Write,
    game: GameId,
    size: usize,
    depth: u32,
    moves: &str,
    position: Option<&str>,
    divide: bool,
) -> Result<(), CliError> {
    let fail = |msg: String| CliError::new(1, format!("tessera perft: {msg}"));
    let mut engine = Engine::new();
    let mut setup: Vec<(String, Vec<String>)> = Vec::new();
    match game {
        GameId::Rekushu => {
            if position.is_some() {
                return Err(fail("--position is for --game rebus".into()));
            }
            setup.push(("boardsize".into(), vec![size.to_string()]));
        }
        GameId::Rebus => {
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
            return Err(fail(format!("{name} {}: {e}", args.join(" "))));
        }
    }
    for mv in moves.split_whitespace() {
        let colour = engine.side_to_move_name().to_ascii_lowercase();
        if let Err(e) = engine.execute("play", &[colour, mv.to_string()]) {
            return Err(fail(format!("move '{mv}': {e}")));
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
                say!(out, "{line}");
            }
            say!(
                out,
                "perft({depth}) = {total}  time {secs:.3} s  {:.1} M leaves/s",
                total as f64 / secs.max(1e-9) / 1e6
            );
            Ok(())
        }
        Err(e) => Err(fail(e.to_string())),
    }
}

/// `tessera solve`: the exact value of a small Rekushu position, its best
/// moves, a principal variation, the nodes and the time.
/// The solver's table by default, in MB: what the board's proofs use (the
/// empty 5x5 board needs a few thousand entries; positions of poor play far
/// more; 6x6 all it can get), so that a small board does not wait seconds for
/// a table it never fills.
pub fn default_solve_hash_mb(size: usize) -> usize {
    match size {
        ..=4 => 16,
        5 => 256,
        _ => 4096,
    }
}

pub fn solve(
    out: &mut dyn Write,
    size: usize,
    moves: &str,
    all: bool,
    hash: Option<usize>,
) -> Result<(), CliError> {
    let fail = |msg: String| CliError::new(2, format!("tessera solve: {msg}"));
    let hash = hash.unwrap_or(default_solve_hash_mb(size));
    if !(Board::MIN_SIZE..=MAX_SOLVE_SIZE).contains(&size) {
        return Err(fail(format!(
            "size {size}: the solver takes boards of {} to {MAX_SOLVE_SIZE}",
            Board::MIN_SIZE
        )));
    }
    let Some(mut board) = Board::new(size) else {
        return Err(fail(format!("size {size}: not a board size")));
    };
    for text in moves.split_whitespace() {
        match board.parse_move(text) {
            Ok(mv) => board.make_move(mv),
            Err(e) => return Err(fail(format!("move '{text}': {e}"))),
        }
    }
    let name = Board::side_name;
    let mover = board.side_to_move();
    let [b, w] = board.tile_counts();
    say!(
        out,
        "position  {size}x{size}, {} moves played, {} to move, tiles Black {b} White {w}",
        board.ply(),
        name(mover)
    );
    let prepared = Instant::now();
    let Some(mut solver) = Solver::try_new(hash) else {
        return Err(fail(format!(
            "--hash {hash}: could not allocate a table of {hash} MB"
        )));
    };
    say!(
        out,
        "table     {hash} MB, ready in {:.3} s",
        prepared.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let value = solver.value(&mut board.clone());
    let value_secs = start.elapsed().as_secs_f64();
    let value_nodes = solver.nodes();
    let (mine, theirs) = if mover == Side::First { (b, w) } else { (w, b) };
    let final_margin = mine as i32 - theirs as i32 + value;
    let result = match final_margin.signum() {
        1 => format!("{} wins by {final_margin}", name(mover)),
        -1 => format!("{} wins by {}", name(mover.opp()), -final_margin),
        _ => "draw".to_string(),
    };
    say!(
        out,
        "value     {value:+} tiles for {} from here on",
        name(mover)
    );
    say!(out, "result    {result} (perfect play)");
    say!(
        out,
        "proof     {value_nodes} nodes  time {value_secs:.3} s  (the value alone)"
    );
    out.flush()?;
    let (best_moves, pv_moves) = solver.best_and_line(&board, value, all);
    let secs = start.elapsed().as_secs_f64();
    let texts = |b: &Board, list: &[crate::games::rekushu::Move]| -> Vec<String> {
        list.iter().map(|&mv| b.format_move(mv)).collect()
    };
    let label = if all { "optimal" } else { "best" };
    if best_moves.is_empty() {
        say!(out, "{label:<9} none (the game is over)");
    } else {
        say!(out, "{label:<9} {}", texts(&board, &best_moves).join(" "));
    }
    let mut line = board.clone();
    let mut pv = Vec::new();
    for &mv in &pv_moves {
        pv.push(line.format_move(mv));
        line.make_move(mv);
    }
    say!(out, "pv        {}", pv.join(" "));
    say!(
        out,
        "nodes     {}  time {secs:.3} s  {:.0} nodes/s  (value, moves and line)",
        solver.nodes(),
        solver.nodes() as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `tessera bench`: each part's nodes, time and speed, each level's total, and
/// the `Bench:` signature.
pub fn bench(out: &mut dyn Write) -> Result<(), CliError> {
    let parts = crate::bench::run();
    for p in &parts {
        say!(
            out,
            "{:<8} {:<5} depth {}  nodes {:>12}  time {:>8.3} s  nps {:>10}",
            p.game,
            p.level.to_string(),
            p.depth,
            p.report.nodes,
            p.report.time.as_secs_f64(),
            p.report.nps
        );
    }
    for (level, _, _) in crate::bench::BENCH_LEVELS {
        let nodes = crate::bench::level_nodes(&parts, level);
        say!(out, "Bench {level}: {nodes}");
    }
    let nodes: u64 = parts.iter().map(|p| p.report.nodes).sum();
    let time: std::time::Duration = parts.iter().map(|p| p.report.time).sum();
    say!(out, "Nodes searched: {nodes}");
    say!(
        out,
        "Nodes/second: {}",
        (nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64
    );
    say!(out, "Bench: {nodes}");
    Ok(())
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
fn depth_row<G: Evaluate>(
    out: &mut dyn Write,
    label: &str,
    pos: &G,
    depth: u32,
) -> Result<Option<f64>, CliError> {
    let t = depth_times(pos, Level::Hard, depth);
    let cells: Vec<String> = t
        .times
        .iter()
        .map(|&(d, _)| format!("{:.1}", millis(d)))
        .collect();
    let nodes = t.times.last().map_or(0, |&(_, n)| n);
    say!(
        out,
        "  hard  {label:<12} depth 1..{depth} ms: {}  ({nodes} nodes)",
        cells.join(" / ")
    );
    Ok(t.times.get(depth as usize - 1).map(|&(d, _)| millis(d)))
}

/// The median and maximum line of one measurement.
fn summary(out: &mut dyn Write, label: &str, mut v: Vec<f64>) -> Result<(), CliError> {
    let (median, max) = median_and_max(&mut v);
    say!(
        out,
        "{label:<34} median {median:>9.2} ms  max {max:>9.2} ms  ({} positions)",
        v.len()
    );
    Ok(())
}

/// `tessera bench --times`: per position and level, the milliseconds to
/// complete each depth; then the median and maximum per level, the depth
/// `hard` and `mike` complete at equal time, and the Lazy SMP speed-up. Each
/// line is written as soon as it is measured.
pub fn bench_times(out: &mut dyn Write) -> Result<(), CliError> {
    let rebus = rebus_timing_sample();
    say!(
        out,
        "REBUS: time to complete depth 1 of a search to depth 2 (one thread, fresh table, the level's switches)"
    );
    for level in Level::ALL {
        let mut firsts = Vec::new();
        for (label, pos) in &rebus {
            // Inside a deeper search, as in play: a noisy level's margin
            // applies to depth 1 only when depth 1 is the deepest asked.
            let t = depth_times(pos, level, 2);
            let Some(&(time, nodes)) = t.times.first() else {
                say!(out, "  {level:<5} {label:<12} no iteration completed");
                continue;
            };
            say!(
                out,
                "  {level:<5} {label:<12} depth 1 {:>9.2} ms {nodes:>9} nodes",
                millis(time)
            );
            firsts.push(millis(time));
        }
        summary(out, &format!("REBUS {level} depth 1"), firsts)?;
    }
    say!(
        out,
        "REBUS: time to complete depth 4 at hard from the standard setup and the deals"
    );
    let mut fours = Vec::new();
    for (label, pos) in rebus.iter().filter(|(l, _)| !l.starts_with("midgame")) {
        fours.extend(depth_row(out, label, pos, 4)?);
    }
    summary(out, "REBUS hard depth 4", fours)?;
    say!(out, "Rekushu 20x20: time to complete depths 1..5 at hard");
    let mut fives = Vec::new();
    for (label, pos) in &rekushu_timing_sample() {
        fives.extend(depth_row(out, label, pos, 5)?);
    }
    summary(out, "Rekushu 20x20 hard depth 5", fives)?;
    bench_mike(out)?;
    bench_smp(out)
}

/// `tessera bench --mike` (and a section of `--times`): the depth `hard` and
/// `mike` complete in the same time per move ([`EQUAL_TIME`]) on each position
/// of the REBUS timing sample, each as it plays (its threads, switches and
/// table size), the medians and means, and per position the time each took
/// to the deeper depth both completed (mike's over hard's, and its median).
pub fn bench_mike(out: &mut dyn Write) -> Result<(), CliError> {
    let threads = |level: Level| level.config().threads.min(hardware_threads());
    say!(
        out,
        "REBUS: depth completed in {:.1} s per move, hard on {} thread(s), mike on {} (Lazy SMP), each level's table",
        EQUAL_TIME.as_secs_f64(),
        threads(Level::Hard),
        threads(Level::Mike)
    );
    let (mut hard, mut mike) = (Vec::new(), Vec::new());
    let mut compared = [0usize; 3];
    // Per position, mike's time over hard's to the deeper depth both completed.
    let (mut ratios, mut faster) = (Vec::new(), 0usize);
    for (label, pos) in &rebus_timing_sample() {
        let h = depth_in_time(pos, Level::Hard, EQUAL_TIME);
        let m = depth_in_time(pos, Level::Mike, EQUAL_TIME);
        let common = h.depth.min(m.depth);
        let to_common = match (h.time_to(common), m.time_to(common)) {
            (Some(th), Some(tm)) if common > 0 => {
                let ratio = millis(tm) / millis(th).max(1e-3);
                ratios.push(ratio);
                faster += usize::from(tm < th);
                format!(
                    "   to depth {common}: hard {:>7.1} ms mike {:>7.1} ms x{ratio:.2}",
                    millis(th),
                    millis(tm)
                )
            }
            _ => String::new(),
        };
        say!(
            out,
            "  {label:<12} hard depth {:>2} {:>10} nodes   mike depth {:>2} {:>10} nodes{to_common}",
            h.depth,
            h.nodes,
            m.depth,
            m.nodes
        );
        compared[match m.depth.cmp(&h.depth) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }] += 1;
        hard.push(f64::from(h.depth));
        mike.push(f64::from(m.depth));
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let (hard_mean, mike_mean) = (mean(&hard), mean(&mike));
    let (hard_median, _) = median_and_max(&mut hard);
    let (mike_median, _) = median_and_max(&mut mike);
    say!(
        out,
        "REBUS depth in {:.1} s, median of {}: hard {hard_median}, mike {mike_median} (means {hard_mean:.2}, {mike_mean:.2}); mike deeper on {}, as deep on {}, shallower on {}",
        EQUAL_TIME.as_secs_f64(),
        hard.len(),
        compared[0],
        compared[1],
        compared[2]
    );
    let (ratio_median, _) = median_and_max(&mut ratios);
    say!(
        out,
        "REBUS time to the deeper depth both completed, mike / hard, median of {}: x{ratio_median:.2}; mike there first on {faster}",
        ratios.len()
    );
    Ok(())
}

/// `tessera bench --smp` (and the last section of `--times`): the time to a
/// fixed depth at hard with 1 and 2 threads, REBUS deals 1–10 to depth 5 and
/// the Rekushu 20x20 positions to depth 4, and the median speed-up.
pub fn bench_smp(out: &mut dyn Write) -> Result<(), CliError> {
    let rebus = rebus_timing_sample();
    say!(
        out,
        "Lazy SMP: time to a fixed depth at hard, 1 and 2 threads (speed-up = 1 / 2)"
    );
    let last = |t: DepthTimes| t.times.last().map_or(0.0, |&(d, _)| millis(d));
    let mut rows = Vec::new();
    for (label, pos) in rebus.iter().filter(|(l, _)| l.starts_with("deal")).take(10) {
        let one = last(depth_times_on(pos, Level::Hard, 5, 1));
        let two = last(depth_times_on(pos, Level::Hard, 5, 2));
        rows.push((format!("REBUS {label} depth 5"), one, two));
        smp_row(out, rows.last())?;
    }
    for (label, pos) in rekushu_timing_sample() {
        let one = last(depth_times_on(&pos, Level::Hard, 4, 1));
        let two = last(depth_times_on(&pos, Level::Hard, 4, 2));
        rows.push((format!("Rekushu {label} depth 4"), one, two));
        smp_row(out, rows.last())?;
    }
    let mut ratios: Vec<f64> = rows.iter().map(|(_, t1, t2)| t1 / t2).collect();
    let (median, _) = median_and_max(&mut ratios);
    say!(
        out,
        "Lazy SMP speed-up, median of {}: x{median:.2}",
        ratios.len()
    );
    Ok(())
}

/// One Lazy SMP row: the times with 1 and 2 threads and their ratio.
fn smp_row(out: &mut dyn Write, row: Option<&(String, f64, f64)>) -> Result<(), CliError> {
    if let Some((label, t1, t2)) = row {
        say!(
            out,
            "  {label:<24} 1 thread {t1:>9.1} ms  2 threads {t2:>9.1} ms  x{:.2}",
            t1 / t2
        );
    }
    Ok(())
}
