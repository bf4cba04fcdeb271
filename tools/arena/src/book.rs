//! `arena book`: a balanced opening book, made reproducibly. Candidates are
//! the arena's own seeded random openings (Rekushu: `--plies` random moves
//! from the empty board; REBUS: the deal `setup random SEED` and `--plies`
//! random moves from it); an engine searches each to a fixed depth
//! (`limit depth D`, then `analyze`, whose reply ends at that depth), and the
//! candidates whose score lies within `±max-score` (tiles or squares, side to
//! move) are kept, in candidate order, until `--count` are kept. With one
//! search thread a fixed depth is deterministic, so the same command gives
//! the same book on every machine.

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use tessera::core::{Game, SplitMix64, Status};
use tessera::games::rebus::Position;

use crate::adjudication::parse_summary;
use crate::openings::random_rekushu_opening;
use tessera_client::{EngineProcess, Reply};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BookGame {
    Rekushu,
    Rebus,
}

#[derive(Parser)]
#[command(
    name = "arena book",
    about = "Generates a balanced opening book: seeded random candidate openings, each searched \
by an engine to a fixed depth, kept when the score is near 0",
    after_help = "Examples:\n  \
arena book --game rekushu --size 8 --plies 4 --depth 6 --max-score 0.25 --count 100 \\\n      \
--engine ./target/release/tessera --out tools/arena/openings/rekushu-8.txt\n  \
arena book --game rebus --plies 2 --depth 1 --max-score 1 --count 50 \\\n      \
--engine ./target/release/tessera --out tools/arena/openings/rebus.txt\n\n\
Each kept line ends with `# score S depth D`; the file starts with the command that made it.\n\
The procedure is in docs/openings.md."
)]
struct BookCli {
    #[arg(long, value_enum, default_value = "rekushu")]
    game: BookGame,
    /// Rekushu board size
    #[arg(long, default_value_t = 8)]
    size: usize,
    /// Random moves per candidate (REBUS: after the random deal)
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// The engine's command line (its level's search; one thread for a reproducible book)
    #[arg(long)]
    engine: String,
    /// Protocol commands sent to the engine first (repeatable), e.g. 'level hard'
    #[arg(long)]
    init: Vec<String>,
    /// Search depth of each candidate
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Keep candidates scored within ±this many tiles or squares
    #[arg(long, default_value_t = 0.5)]
    max_score: f64,
    /// Openings to keep
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Candidates to try at most
    #[arg(long, default_value_t = 2000)]
    candidates: u64,
    /// Seed of the candidates (candidate k uses seed + k)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Longest search of one candidate, in seconds
    #[arg(long, default_value_t = 120.0)]
    timeout: f64,
    /// The book file to write
    #[arg(long)]
    out: std::path::PathBuf,
}

/// A candidate: the commands that set it up in the engine, and its book line.
struct Candidate {
    setup: Vec<String>,
    line: String,
}

fn rekushu_candidate(size: usize, plies: usize, seed: u64) -> Result<Candidate, String> {
    let moves = random_rekushu_opening(size, plies, SplitMix64::new(seed).next())
        .map_err(|e| e.to_string())?;
    let mut setup = vec![
        "game rekushu".to_string(),
        format!("boardsize {size}"),
        "clear_board".into(),
    ];
    let mut black = true;
    for m in &moves {
        setup.push(format!("play {} {m}", if black { "b" } else { "w" }));
        black = !black;
    }
    Ok(Candidate {
        setup,
        line: moves.join(" "),
    })
}

fn rebus_candidate(plies: usize, seed: u64) -> Option<Candidate> {
    let mut pos = Position::random(seed);
    let mut rng = SplitMix64::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        pos.generate_moves(&mut moves);
        if moves.is_empty() || pos.status() != Status::Ongoing {
            return None;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        pos.make_move(mv);
    }
    if pos.status() != Status::Ongoing {
        return None;
    }
    let text = pos.position_string();
    Some(Candidate {
        setup: vec!["game rebus".into(), format!("setup {text}")],
        line: text,
    })
}

/// The score of the deepest `order 0` line of an `analyze` reply.
fn analyze_score(reply: &str) -> Option<(f64, u32)> {
    reply
        .lines()
        .rev()
        .filter(|l| l.contains(" order 0 "))
        .find_map(|l| {
            let i = parse_summary(l);
            Some((i.score?, i.depth?))
        })
}

fn fail(e: String) -> ExitCode {
    eprintln!("arena book: {e}");
    ExitCode::from(2)
}

pub fn main(args: Vec<String>) -> ExitCode {
    let cli = BookCli::parse_from(args);
    if !(cli.max_score.is_finite() && cli.max_score >= 0.0) {
        return fail(format!("--max-score {}: 0 or more", cli.max_score));
    }
    if !(cli.timeout.is_finite() && cli.timeout > 0.0 && cli.timeout < 1e7) {
        return fail(format!(
            "--timeout {}: not a number of seconds",
            cli.timeout
        ));
    }
    let timeout = Duration::from_secs_f64(cli.timeout);
    // Ctrl-C or SIGTERM ends the wait for the engine; dropping it kills it.
    crate::signals::install();
    let mut engine = match EngineProcess::spawn(&cli.engine) {
        Ok(e) => e.interruptible(crate::signals::interrupted),
        Err(e) => return fail(e.to_string()),
    };
    let mut ask = |line: &str| -> Result<String, String> {
        match engine.ask(line, timeout) {
            Ok(Reply::Ok(t)) => Ok(t),
            Ok(Reply::Err(e)) => Err(format!("the engine refused '{line}': {e}")),
            Err(e) => Err(format!("'{line}': {e}")),
        }
    };
    let mut out = vec![
        format!(
            "# {} openings, made by: arena book --game {} {}--plies {} --depth {} --max-score {} --count {} --candidates {} --seed {} --engine <tessera>{}",
            match cli.game {
                BookGame::Rekushu => format!("Rekushu {0}x{0}", cli.size),
                BookGame::Rebus => "REBUS".into(),
            },
            match cli.game {
                BookGame::Rekushu => "rekushu",
                BookGame::Rebus => "rebus",
            },
            match cli.game {
                BookGame::Rekushu => format!("--size {} ", cli.size),
                BookGame::Rebus => String::new(),
            },
            cli.plies,
            cli.depth,
            cli.max_score,
            cli.count,
            cli.candidates,
            cli.seed,
            cli.init
                .iter()
                .map(|i| format!(" --init '{i}'"))
                .collect::<String>()
        ),
        "# Each line: the opening, then the engine's score for the side to move at that depth."
            .into(),
    ];
    let mut seen = std::collections::BTreeSet::new();
    let mut kept = 0;
    let mut tried = 0;
    for k in 0..cli.candidates {
        if kept >= cli.count {
            break;
        }
        let seed = cli.seed.wrapping_add(k);
        let candidate = match cli.game {
            BookGame::Rekushu => match rekushu_candidate(cli.size, cli.plies, seed) {
                Ok(c) => c,
                Err(e) => return fail(e),
            },
            BookGame::Rebus => match rebus_candidate(cli.plies, seed) {
                Some(c) => c,
                None => continue,
            },
        };
        if !seen.insert(candidate.line.clone()) {
            continue;
        }
        tried += 1;
        let mut lines: Vec<String> = cli.init.clone();
        lines.extend(candidate.setup);
        lines.push(format!("limit depth {}", cli.depth));
        lines.push("analyze".into());
        let mut reply = String::new();
        for l in &lines {
            match ask(l) {
                Ok(r) => reply = r,
                Err(e) => return fail(e),
            }
        }
        let Some((score, depth)) = analyze_score(&reply) else {
            return fail(format!(
                "no score in the engine's analysis of '{}': '{}'",
                candidate.line,
                reply.lines().last().unwrap_or("")
            ));
        };
        if score.abs() <= cli.max_score {
            kept += 1;
            out.push(format!(
                "{} # score {score:+.2} depth {depth}",
                candidate.line
            ));
        }
        eprintln!(
            "arena book: candidate {tried}: {score:+.2} {} ({kept} kept)",
            if score.abs() <= cli.max_score {
                "kept"
            } else {
                "dropped"
            }
        );
    }
    engine.quit(Duration::from_millis(500));
    out.insert(2, format!("# {kept} kept of {tried} candidates searched."));
    if let Err(e) = std::fs::write(&cli.out, out.join("\n") + "\n") {
        return fail(format!("cannot write '{}': {e}", cli.out.display()));
    }
    if kept < cli.count {
        eprintln!(
            "arena book: only {kept} of {} openings found in {} candidates",
            cli.count, cli.candidates
        );
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_analysis_replies() {
        let reply = "info move A1 order 0 score +0.00 depth 1 seldepth 1 nodes 64 nps 1 time 0 pv A1\n\
                     info move B1 order 1 score -3.00 pv B1\n\
                     info move B2 order 0 score -0.04 depth 5 seldepth 8 nodes 1 nps 1 time 151 pv B2 A1";
        assert_eq!(analyze_score(reply), Some((-0.04, 5)));
        assert_eq!(analyze_score(""), None);
    }

    #[test]
    fn candidates_are_seeded() {
        let a = rekushu_candidate(8, 4, 3).expect("8x8");
        assert_eq!(a.line, rekushu_candidate(8, 4, 3).expect("8x8").line);
        assert_eq!(a.setup.len(), 3 + 4);
        let b = rebus_candidate(1, 3).expect("a move");
        assert!(Position::from_position_string(&b.line).is_ok());
    }
}
