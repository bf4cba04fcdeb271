//! A tournament: pairings (two engines head to head, a gauntlet of the first
//! against the rest, or a round robin), game pairs on one opening with colours
//! swapped, worker threads that each own their engine processes, the results
//! as they come, the SPRT stop, records and the summary.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

use serde::Serialize;

use crate::openings::{GameKind, OpeningSource};
use crate::record::{record_text, result_text, utc_now};
use crate::referee::{GameOutcome, Seat, Timing, play_game};
use crate::spec::EngineSpec;
use crate::stats::{
    EloEstimate, Pentanomial, Sprt, SprtResult, elo_pentanomial, elo_trinomial, los, penta_index,
};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The first engine against each of the others (two engines: head to head).
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// Everything a tournament needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub kind: GameKind,
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// Games per pairing; with an SPRT, the most it may take.
    pub games: u64,
    pub sprt: Option<Sprt>,
    /// The SPRT decides only after this many complete pairs: with few pairs the
    /// variance estimate (regularized as fastchess and OpenBench do) is so small
    /// that one lucky pair would cross a bound.
    pub sprt_min_pairs: u64,
    pub concurrency: usize,
    pub openings: OpeningSource,
    pub timing: Timing,
    pub max_plies: Option<usize>,
    pub records: Option<PathBuf>,
    /// Progress on stderr (a bar on a terminal, lines otherwise).
    pub progress: bool,
}

/// The pairings of a format, as engine indices.
pub fn pairings(format: Format, engines: usize) -> Vec<(usize, usize)> {
    match format {
        Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
        Format::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
    }
}

/// Game `k` of the tournament: its pairing, round (opening) and whether the
/// pairing's second engine moves first. Rounds go through all pairings, so
/// every pairing plays the same openings.
pub fn schedule(k: u64, pairings: usize) -> (usize, u64, bool) {
    let np = pairings.max(1) as u64;
    ((k / 2 % np) as usize, k / (2 * np), k % 2 == 1)
}

/// One finished game, for the summary.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    pub index: u64,
    pub round: u64,
    pub first: String,
    pub second: String,
    /// `1-0`, `0-1`, `1/2-1/2` (first player's view).
    pub result: String,
    pub reason: String,
    /// The engine whose misbehaviour lost the game.
    pub fault: Option<String>,
    pub score: String,
    pub plies: usize,
    pub record: Option<String>,
}

/// One pairing's results, from its first engine's view.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PairingStats {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// `[LL, LD, DD+WL, WD, WW]`, complete pairs only.
    pub pentanomial: Pentanomial,
    /// Loss reasons that were misbehaviour, counted per engine.
    pub faults: BTreeMap<String, u64>,
    /// How games ended, by reason kind.
    pub reasons: BTreeMap<String, u64>,
    #[serde(skip)]
    half_pairs: BTreeMap<u64, u8>,
}

/// Derived numbers of a pairing.
#[derive(Clone, Debug, Serialize)]
pub struct PairingNumbers {
    pub score: f64,
    pub elo: Option<EloEstimate>,
    pub los: f64,
    pub draw_ratio: f64,
}

impl PairingStats {
    fn add(&mut self, round: u64, a_half_points: u8) {
        self.games += 1;
        match a_half_points {
            2 => self.wins += 1,
            0 => self.losses += 1,
            _ => self.draws += 1,
        }
        if let Some(first) = self.half_pairs.remove(&round) {
            self.pentanomial[penta_index(first, a_half_points)] += 1;
        } else {
            self.half_pairs.insert(round, a_half_points);
        }
    }

    pub fn numbers(&self) -> PairingNumbers {
        let n = self.games.max(1) as f64;
        let pairs: u64 = self.pentanomial.iter().sum();
        let elo = if pairs >= 2 {
            elo_pentanomial(&self.pentanomial)
        } else {
            elo_trinomial(self.wins, self.draws, self.losses)
        };
        PairingNumbers {
            score: (self.wins as f64 + self.draws as f64 / 2.0) / n,
            elo,
            los: los(self.wins, self.losses),
            draw_ratio: self.draws as f64 / n,
        }
    }
}

/// The SPRT state of a head-to-head match.
#[derive(Clone, Debug, Serialize)]
pub struct SprtReport {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub result: SprtResult,
}

/// The SPRT on pairs `p`; no decision before `min_pairs` complete pairs.
fn sprt_report(sprt: &Sprt, p: &Pentanomial, min_pairs: u64) -> SprtReport {
    let (lower, upper) = sprt.bounds();
    let llr = sprt.llr(p);
    let enough = p.iter().sum::<u64>() >= min_pairs;
    SprtReport {
        elo0: sprt.elo0,
        elo1: sprt.elo1,
        alpha: sprt.alpha,
        beta: sprt.beta,
        llr,
        lower,
        upper,
        result: if enough {
            sprt.decide(llr)
        } else {
            SprtResult::Continue
        },
    }
}

/// The JSON summary.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub game: String,
    pub size: Option<usize>,
    pub engines: Vec<EngineSummary>,
    pub games_played: u64,
    /// Games lost by misbehaviour (crash, stall, illegal move, overrun, garbage).
    pub faults: u64,
    /// Games the arena itself could not play (counted as draws, no fault).
    pub arena_errors: u64,
    pub pairings: Vec<PairingSummary>,
    pub sprt: Option<SprtReport>,
    pub games: Vec<GameReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    pub name: String,
    pub command: String,
    pub init: Vec<String>,
    pub tc: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairingSummary {
    #[serde(flatten)]
    pub stats: PairingStats,
    #[serde(flatten)]
    pub numbers: PairingNumbers,
}

/// A loss reason's kind: the text before any quote or colon
/// (`illegal move 'K10': …` → `illegal move`).
pub fn reason_kind(reason: &str) -> String {
    let end = reason.find([':', '\'', '(']).unwrap_or(reason.len());
    reason[..end].trim().to_string()
}

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("cannot create the records folder '{path}': {detail}")]
    Records { path: String, detail: String },
    #[error("{0}")]
    Opening(#[from] crate::openings::OpeningError),
}

/// Runs the tournament; returns the summary (also when the SPRT stopped it).
pub fn run(config: &Config) -> Result<Summary, TournamentError> {
    if let Some(dir) = &config.records {
        std::fs::create_dir_all(dir).map_err(|e| TournamentError::Records {
            path: dir.display().to_string(),
            detail: e.to_string(),
        })?;
    }
    // Check the openings once before starting threads (a bad size fails here).
    config.openings.opening(config.kind, 0)?;
    let pairs = pairings(config.format, config.engines.len());
    let total = config.games.saturating_mul(pairs.len() as u64);
    let next = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(u64, GameOutcome)>();
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.max(1) {
        let (next, stop, tx) = (Arc::clone(&next), Arc::clone(&stop), tx.clone());
        let config = config.clone();
        let pairs = pairs.clone();
        workers.push(thread::spawn(move || {
            let mut seats: Vec<Seat> = config.engines.iter().cloned().map(Seat::new).collect();
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= total {
                    break;
                }
                let (p, round, swapped) = schedule(k, pairs.len());
                let Some(&(a, b)) = pairs.get(p) else { break };
                let (first, second) = if swapped { (b, a) } else { (a, b) };
                let outcome = match config.openings.opening(config.kind, round) {
                    Ok(opening) => {
                        let (x, y) = two_mut(&mut seats, first, second);
                        play_game(
                            config.kind,
                            &opening,
                            [x, y],
                            config.timing,
                            config.max_plies,
                        )
                    }
                    Err(e) => GameOutcome {
                        winner: None,
                        reason: format!("arena error: {e}"),
                        fault: None,
                        score: "0".into(),
                        moves: Vec::new(),
                        start: String::new(),
                    },
                };
                if tx.send((k, outcome)).is_err() {
                    break;
                }
            }
            for s in seats.iter_mut() {
                s.quit();
            }
        }));
    }
    drop(tx);

    let mut stats: Vec<PairingStats> = pairs
        .iter()
        .map(|&(a, b)| PairingStats {
            a: config.engines[a].name.clone(),
            b: config.engines[b].name.clone(),
            ..PairingStats::default()
        })
        .collect();
    let mut reports = Vec::new();
    let progress = Progress::new(config.progress, config.sprt.is_none().then_some(total));
    let mut sprt_done = None;
    for (k, outcome) in rx {
        let (p, round, swapped) = schedule(k, pairs.len());
        let Some(&(a, b)) = pairs.get(p) else {
            continue;
        };
        let (first, second) = if swapped { (b, a) } else { (a, b) };
        let names = [
            config.engines[first].name.as_str(),
            config.engines[second].name.as_str(),
        ];
        // Half points of the pairing's first engine.
        let a_seat = usize::from(swapped);
        let a_half = match outcome.winner {
            None => 1,
            Some(w) if w == a_seat => 2,
            Some(_) => 0,
        };
        let st = &mut stats[p];
        st.add(round, a_half);
        *st.reasons.entry(reason_kind(&outcome.reason)).or_default() += 1;
        let fault = outcome.fault.map(|s| names[s].to_string());
        if let Some(f) = &fault {
            *st.faults.entry(f.clone()).or_default() += 1;
        }
        let record = config.records.as_ref().map(|dir| {
            let path = dir.join(format!("game-{:05}.txt", k + 1));
            match record_text(config.kind, names, &outcome, round, &utc_now()) {
                Ok(text) => {
                    if let Err(e) = std::fs::write(&path, text) {
                        progress.line(&format!("arena: cannot write {}: {e}", path.display()));
                    }
                }
                Err(e) => progress.line(&format!("arena: no record of game {}: {e}", k + 1)),
            }
            path.display().to_string()
        });
        let report = GameReport {
            index: k + 1,
            round: round + 1,
            first: names[0].to_string(),
            second: names[1].to_string(),
            result: result_text(outcome.winner).to_string(),
            reason: outcome.reason.clone(),
            fault,
            score: outcome.score.clone(),
            plies: outcome.moves.len(),
            record,
        };
        let mut status = format!(
            "game {} {} vs {}: {} ({}) | {}",
            report.index,
            report.first,
            report.second,
            report.result,
            report.reason,
            short_status(&stats[p])
        );
        if let Some(sprt) = &config.sprt
            && sprt_done.is_none()
        {
            let r = sprt_report(sprt, &stats[p].pentanomial, config.sprt_min_pairs);
            status.push_str(&format!(
                " | LLR {:.2} ({:.2}, {:.2})",
                r.llr, r.lower, r.upper
            ));
            if r.result != SprtResult::Continue {
                sprt_done = Some(r.result);
                stop.store(true, Ordering::SeqCst);
            }
        }
        progress.game(&status);
        reports.push(report);
    }
    for w in workers {
        let _ = w.join();
    }
    progress.finish();
    reports.sort_by_key(|r| r.index);
    let faults = reports.iter().filter(|r| r.fault.is_some()).count() as u64;
    let arena_errors = reports
        .iter()
        .filter(|r| r.reason.starts_with("arena error"))
        .count() as u64;
    let sprt = config.sprt.as_ref().and_then(|s| {
        stats
            .first()
            .map(|st| sprt_report(s, &st.pentanomial, config.sprt_min_pairs))
    });
    Ok(Summary {
        game: config.kind.id().to_string(),
        size: match config.kind {
            GameKind::Rekushu { size } => Some(size),
            GameKind::Rebus => None,
        },
        engines: config
            .engines
            .iter()
            .map(|e| EngineSummary {
                name: e.name.clone(),
                command: e.command.clone(),
                init: e.init.clone(),
                tc: e.tc.describe(),
            })
            .collect(),
        games_played: reports.len() as u64,
        faults,
        arena_errors,
        pairings: stats
            .into_iter()
            .map(|s| PairingSummary {
                numbers: s.numbers(),
                stats: s,
            })
            .collect(),
        sprt,
        games: reports,
    })
}

fn two_mut<T>(v: &mut [T], i: usize, j: usize) -> (&mut T, &mut T) {
    if i < j {
        let (l, r) = v.split_at_mut(j);
        (&mut l[i], &mut r[0])
    } else {
        let (l, r) = v.split_at_mut(i);
        (&mut r[0], &mut l[j])
    }
}

/// `+12.3 ± 45.6`, `+511.5 [+243.0, +inf]` when the interval reaches 100%,
/// `+inf`, `-inf` (a clean sweep has no finite estimate).
fn elo_text(e: EloEstimate) -> String {
    if !e.elo.is_finite() {
        return if e.elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        };
    }
    // Avoid printing -0.0.
    let elo = if e.elo.abs() < 0.05 { 0.0 } else { e.elo };
    if e.error.is_finite() {
        format!("{elo:+.1} ± {:.1}", e.error)
    } else if e.lo.is_finite() {
        // The interval reaches 100%: its lower end still says something.
        format!("{elo:+.1} [{:+.1}, +inf]", e.lo)
    } else if e.hi.is_finite() {
        format!("{elo:+.1} [-inf, {:+.1}]", e.hi)
    } else {
        format!("{elo:+.1} ± inf")
    }
}

fn short_status(s: &PairingStats) -> String {
    let n = s.numbers();
    let elo = n.elo.map_or("-".into(), elo_text);
    format!(
        "{} {}-{}-{} {} (W-L-D) score {:.1}% elo {elo}",
        s.a,
        s.wins,
        s.losses,
        s.draws,
        s.b,
        n.score * 100.0
    )
}

/// Live progress: an indicatif bar on a terminal, plain lines otherwise.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
}

impl Progress {
    fn new(enabled: bool, total: Option<u64>) -> Progress {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = match total {
                Some(t) => indicatif::ProgressBar::new(t),
                None => indicatif::ProgressBar::new_spinner(),
            };
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} {wide_msg}",
            ) && total.is_some()
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Progress { bar, enabled }
    }

    fn game(&self, status: &str) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(status.to_string());
            }
            None if self.enabled => eprintln!("{status}"),
            None => {}
        }
    }

    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The final table, as text.
pub fn table(summary: &Summary) -> String {
    let mut out = String::new();
    let size = summary.size.map_or(String::new(), |s| format!(" {s}x{s}"));
    out.push_str(&format!(
        "{}{size}: {} games, {} lost by faults\n",
        summary.game, summary.games_played, summary.faults
    ));
    for e in &summary.engines {
        out.push_str(&format!(
            "  {}: {} [{}]{}\n",
            e.name,
            e.command,
            e.tc,
            if e.init.is_empty() {
                String::new()
            } else {
                format!(" init: {}", e.init.join("; "))
            }
        ));
    }
    out.push_str(&format!(
        "\n{:<24} {:>5} {:>4} {:>4} {:>4} {:>7} {:>22} {:>7} {:>6}  {}\n",
        "pairing",
        "games",
        "W",
        "L",
        "D",
        "score",
        "elo (95%)",
        "LOS",
        "draws",
        "pairs LL LD DD/WL WD WW"
    ));
    for p in &summary.pairings {
        let s = &p.stats;
        let n = &p.numbers;
        let elo = n.elo.map_or("-".into(), elo_text);
        let pe = s.pentanomial;
        out.push_str(&format!(
            "{:<24} {:>5} {:>4} {:>4} {:>4} {:>6.1}% {:>22} {:>6.1}% {:>5.1}%  {} {} {} {} {}\n",
            format!("{} vs {}", s.a, s.b),
            s.games,
            s.wins,
            s.losses,
            s.draws,
            n.score * 100.0,
            elo,
            n.los * 100.0,
            n.draw_ratio * 100.0,
            pe[0],
            pe[1],
            pe[2],
            pe[3],
            pe[4]
        ));
        let reasons: Vec<String> = s.reasons.iter().map(|(r, c)| format!("{r} {c}")).collect();
        out.push_str(&format!("  endings: {}\n", reasons.join(", ")));
        if !s.faults.is_empty() {
            let faults: Vec<String> = s.faults.iter().map(|(e, c)| format!("{e} {c}")).collect();
            out.push_str(&format!("  faults: {}\n", faults.join(", ")));
        }
    }
    if let Some(r) = &summary.sprt {
        out.push_str(&format!(
            "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] {}\n",
            r.elo0,
            r.elo1,
            r.alpha,
            r.beta,
            r.llr,
            r.lower,
            r.upper,
            match r.result {
                SprtResult::H1 => "H1 accepted",
                SprtResult::H0 => "H0 accepted",
                SprtResult::Continue => "no decision yet",
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_pair_openings_and_swap_colours() {
        assert_eq!(schedule(0, 1), (0, 0, false));
        assert_eq!(schedule(1, 1), (0, 0, true));
        assert_eq!(schedule(2, 1), (0, 1, false));
        assert_eq!(schedule(2, 2), (1, 0, false));
        assert_eq!(schedule(4, 2), (0, 1, false));
        assert_eq!(pairings(Format::Gauntlet, 3), vec![(0, 1), (0, 2)]);
        assert_eq!(
            pairings(Format::RoundRobin, 3),
            vec![(0, 1), (0, 2), (1, 2)]
        );
    }

    #[test]
    fn pairs_fill_the_pentanomial() {
        let mut s = PairingStats::default();
        s.add(0, 2);
        s.add(1, 1);
        s.add(0, 0); // round 0: W then L → DD/WL
        s.add(1, 2); // round 1: D then W → WD
        assert_eq!(s.pentanomial, [0, 0, 1, 1, 0]);
        assert_eq!((s.wins, s.losses, s.draws), (2, 1, 1));
        assert_eq!(reason_kind("illegal move 'K10': occupied"), "illegal move");
        assert_eq!(reason_kind("no-placement"), "no-placement");
    }

    #[test]
    fn elo_texts() {
        let e = |elo, error, lo, hi| EloEstimate { elo, error, lo, hi };
        let inf = f64::INFINITY;
        assert_eq!(elo_text(e(70.44, 73.47, 2.77, 143.91)), "+70.4 ± 73.5");
        assert_eq!(
            elo_text(e(511.5, inf, 307.52, inf)),
            "+511.5 [+307.5, +inf]"
        );
        assert_eq!(
            elo_text(e(-511.5, inf, -inf, -307.52)),
            "-511.5 [-inf, -307.5]"
        );
        assert_eq!(elo_text(e(inf, inf, inf, inf)), "+inf");
        assert_eq!(elo_text(e(-0.01, 3.0, -3.0, 3.0)), "+0.0 ± 3.0");
    }
}
