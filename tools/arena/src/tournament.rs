//! A tournament: pairings (two engines head to head, a gauntlet of the first
//! against the rest, or a round robin), game pairs on one opening with colours
//! swapped, worker threads that each own their engine processes, the results
//! as they come, the SPRT stop, shards, the state file, records and the
//! summary.
//!
//! The summary is always computed from the list of finished games
//! ([`summarize`]), so a resumed match, a shard and a merge of shards
//! ([`crate::merge`]) give exactly the numbers one uninterrupted run would.

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

use serde::{Deserialize, Serialize};

use crate::ending::{Decision, Ending};
use crate::openings::{GameKind, OpeningSource};
use crate::record::{record_text, utc_now};
use crate::referee::{GameOutcome, Limits, MoveTimes, Seat, no_game, play_game};
use crate::shard::Shard;
use crate::spec::EngineSpec;
use crate::state::StateFile;
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
    pub limits: Limits,
    pub records: Option<PathBuf>,
    /// Progress on stderr (a bar on a terminal, lines otherwise).
    pub progress: bool,
    /// The part of the match this run plays.
    pub shard: Shard,
    /// Finished games are appended here; a run with the same file resumes.
    pub state: Option<PathBuf>,
    /// The run's JSON summary file (`--json`), written when the run ends; a
    /// new state file starts with its games if it is the summary of an
    /// interrupted run of this match.
    pub summary: Option<PathBuf>,
}

/// What makes two runs the same match: everything that decides which games
/// are played and how they are judged. Shards and resumed runs must agree on
/// all of it (see [`MatchInfo::differences`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchInfo {
    pub game: String,
    pub size: Option<usize>,
    pub engines: Vec<EngineInfo>,
    pub format: String,
    pub games: u64,
    pub openings: String,
    pub max_plies: Option<usize>,
    pub adjudication: String,
    pub timing: String,
    pub sprt: Option<Sprt>,
    pub sprt_min_pairs: u64,
}

/// One engine's part of the fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineInfo {
    pub name: String,
    /// The command as given (shown; its program path may differ between
    /// machines and is not compared).
    pub command: String,
    /// The command's arguments after the program.
    pub args: Vec<String>,
    pub init: Vec<String>,
    pub tc: String,
    /// FNV-1a of the program file, if it could be read.
    pub binary: Option<String>,
}

impl MatchInfo {
    pub fn new(config: &Config) -> MatchInfo {
        let t = config.limits.timing;
        MatchInfo {
            game: config.kind.id().to_string(),
            size: match config.kind {
                GameKind::Rekushu { size } => Some(size),
                GameKind::Rebus => None,
            },
            engines: config
                .engines
                .iter()
                .map(|e| {
                    let words = tessera_client::split_command(&e.command).unwrap_or_default();
                    EngineInfo {
                        name: e.name.clone(),
                        command: e.command.clone(),
                        args: words.iter().skip(1).cloned().collect(),
                        init: e.init.clone(),
                        tc: e.tc.describe(),
                        binary: words.first().and_then(|p| binary_fingerprint(p)),
                    }
                })
                .collect(),
            format: match config.format {
                Format::Gauntlet => "gauntlet".into(),
                Format::RoundRobin => "round-robin".into(),
            },
            games: config.games,
            openings: config.openings.describe(config.kind),
            max_plies: config.limits.max_plies,
            adjudication: serde_json::to_string(&config.limits.adjudication).unwrap_or_default(),
            timing: format!(
                "margin {} ms, stall {} ms, timeout {} ms, handshake {} ms",
                t.margin.as_millis(),
                t.stall_grace.as_millis(),
                t.move_timeout.as_millis(),
                t.handshake.as_millis()
            ),
            sprt: config.sprt,
            sprt_min_pairs: config.sprt_min_pairs,
        }
    }

    /// What differs between two fingerprints, one line per field (empty: the
    /// same match). With `allow_binaries`, engine binaries may differ.
    pub fn differences(&self, other: &MatchInfo, allow_binaries: bool) -> Vec<String> {
        let mut out = Vec::new();
        let a = serde_json::to_value(self).unwrap_or_default();
        let b = serde_json::to_value(other).unwrap_or_default();
        if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
            for (k, va) in a {
                let vb = b.get(k).cloned().unwrap_or_default();
                if k != "engines" && *va != vb {
                    out.push(format!("{k}: {va} vs {vb}"));
                }
            }
        }
        if self.engines.len() != other.engines.len() {
            out.push(format!(
                "engines: {} vs {}",
                self.engines.len(),
                other.engines.len()
            ));
            return out;
        }
        for (x, y) in self.engines.iter().zip(&other.engines) {
            let mut diff = |what: &str, p: String, q: String| {
                if p != q {
                    out.push(format!("engine '{}' {what}: {p} vs {q}", x.name));
                }
            };
            diff("name", x.name.clone(), y.name.clone());
            diff("arguments", x.args.join(" "), y.args.join(" "));
            diff("init", x.init.join("; "), y.init.join("; "));
            diff("limit", x.tc.clone(), y.tc.clone());
            if !allow_binaries {
                let show = |b: &Option<String>| b.clone().unwrap_or_else(|| "unknown".into());
                diff("binary", show(&x.binary), show(&y.binary));
            }
        }
        out
    }
}

/// The program's file: a path as given, or found on `PATH`.
fn binary_fingerprint(program: &str) -> Option<String> {
    let path = if program.contains('/') {
        PathBuf::from(program)
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(program))
            .find(|p| p.is_file())?
    };
    let bytes = std::fs::read(path).ok()?;
    Some(format!("{:016x}", crate::openings::fnv1a(&bytes)))
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

/// The games of a shard, in order: every pairing plays `games` games, rounds
/// of two (the last may hold one when `games` is odd).
pub fn shard_games(games: u64, pairings: usize, shard: Shard) -> Vec<u64> {
    let np = pairings.max(1) as u64;
    let rounds = games.div_ceil(2);
    let mut out = Vec::new();
    for r in shard.rounds(rounds) {
        for p in 0..np {
            for swap in 0..2 {
                if 2 * r + swap < games {
                    out.push((r * np + p) * 2 + swap);
                }
            }
        }
    }
    out
}

/// One finished game, for the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReport {
    /// Game number in the whole match, from 1 (shards keep the numbers).
    pub index: u64,
    pub round: u64,
    /// The pairing, by position in the pairing list.
    #[serde(default)]
    pub pairing: usize,
    pub first: String,
    pub second: String,
    /// `1-0`, `0-1`, `1/2-1/2` (first player's view: seat 0 is the first
    /// player).
    pub result: Decision,
    /// Why the game ended (its text in the JSON: `reason`).
    #[serde(rename = "reason")]
    pub ending: Ending,
    /// The engine whose misbehaviour lost the game.
    pub fault: Option<String>,
    pub score: String,
    pub plies: usize,
    pub record: Option<String>,
    /// Move times of the first and the second player.
    #[serde(default)]
    pub times: [MoveTimes; 2],
    /// The players' ids from their handshakes (`tessera 0.2.0`).
    #[serde(default)]
    pub ids: [Option<String>; 2],
    /// When the game ended among the shard's games: 1 for the first to
    /// end, counting those of the state file a run resumed. A summary lists
    /// games by number; a new state file taken from an interrupted run's
    /// summary puts them back in this order (see [`Live::new`]). Absent in
    /// the files of older arenas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<u64>,
}

impl GameReport {
    /// Half points of the pairing's first engine (`a`).
    fn a_half_points(&self, a: &str) -> u8 {
        let a_first = self.first == a;
        match self.result {
            Decision::Draw => 1,
            Decision::Win(seat) if (seat == 0) == a_first => 2,
            Decision::Win(_) => 0,
        }
    }
}

/// One pairing's results, from its first engine's view.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
    /// The decision on every game counted, or, for a run the SPRT stopped,
    /// the decision that stopped it (see `decided`).
    pub result: SprtResult,
    /// For a run the SPRT stopped: the games counted and the LLR when it
    /// decided. The games in flight then are still played to the end and
    /// counted in `llr` and the tables, which may take `llr` back inside the
    /// bounds; the decision stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<SprtDecision>,
}

/// When a run's SPRT decided: the games counted then and their LLR.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtDecision {
    pub games: u64,
    pub llr: f64,
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
        decided: None,
    }
}

/// The JSON summary of a run, a shard or a merge.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The match's fingerprint (shards and resumed runs must agree on it).
    #[serde(rename = "match")]
    pub info: MatchInfo,
    /// The shard this run played (`3/10`), absent for a whole match.
    pub shard: Option<String>,
    /// Shards merged into this summary (`arena merge`).
    pub shards: Vec<String>,
    /// `finished`, `sprt-stopped` or `interrupted`.
    pub status: String,
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

/// The part of a JSON summary read back: by `arena merge`, and by a new
/// state file that starts from an interrupted run's games.
#[derive(Deserialize)]
pub struct SummaryFile {
    #[serde(rename = "match")]
    pub info: MatchInfo,
    pub shard: Option<String>,
    #[serde(default)]
    pub shards: Vec<String>,
    pub status: String,
    pub games: Vec<GameReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    pub name: String,
    pub command: String,
    pub init: Vec<String>,
    pub tc: String,
    /// The engine's `name` and `version`, from its handshakes.
    pub id: Option<String>,
    pub latency: Latency,
}

/// How quickly an engine answered, as the arena measured it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Latency {
    /// Handshakes (process starts) and their mean round trip of
    /// `protocol_version`, in ms.
    pub handshakes: u64,
    pub mean_handshake_ms: Option<f64>,
    #[serde(flatten)]
    pub moves: MoveTimes,
    /// Mean wall time per move, and mean overhead (wall minus the engine's
    /// own reported time), in ms.
    pub mean_wall_ms: Option<f64>,
    pub mean_overhead_ms: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PairingSummary {
    #[serde(flatten)]
    pub stats: PairingStats,
    #[serde(flatten)]
    pub numbers: PairingNumbers,
}

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("cannot create the records folder '{path}': {detail}")]
    Records { path: String, detail: String },
    #[error("{0}")]
    Opening(#[from] crate::openings::OpeningError),
    #[error("{0}")]
    State(String),
}

/// The counts of each of `info`'s pairings before any game.
fn no_games(info: &MatchInfo) -> Vec<PairingStats> {
    let format = if info.format == "round-robin" {
        Format::RoundRobin
    } else {
        Format::Gauntlet
    };
    let engines = &info.engines;
    pairings(format, engines.len())
        .into_iter()
        .map(|(a, b)| PairingStats {
            a: engines[a].name.clone(),
            b: engines[b].name.clone(),
            ..PairingStats::default()
        })
        .collect()
}

/// Builds the summary from the finished games (any order, each once).
pub fn summarize(
    info: &MatchInfo,
    shard: Option<Shard>,
    shards: Vec<String>,
    status: &str,
    mut reports: Vec<GameReport>,
) -> Summary {
    reports.sort_by_key(|r| r.index);
    let names: Vec<String> = info.engines.iter().map(|e| e.name.clone()).collect();
    let mut stats = no_games(info);
    let mut latency: Vec<Latency> = vec![Latency::default(); names.len()];
    let mut handshake_total = vec![0.0; names.len()];
    let mut ids: Vec<Option<String>> = vec![None; names.len()];
    for r in &reports {
        if let Some(st) = stats.get_mut(r.pairing) {
            let a = st.a.clone();
            st.add(r.round.saturating_sub(1), r.a_half_points(&a));
            *st.reasons.entry(r.ending.kind()).or_default() += 1;
            if let Some(f) = &r.fault {
                *st.faults.entry(f.clone()).or_default() += 1;
            }
        }
        for (seat, who) in [&r.first, &r.second].into_iter().enumerate() {
            if let Some(e) = names.iter().position(|n| n == who) {
                let t = &r.times[seat];
                latency[e].moves.merge(t);
                if let Some(h) = t.handshake_ms {
                    latency[e].handshakes += 1;
                    handshake_total[e] += h;
                }
                if let Some(id) = &r.ids[seat] {
                    ids[e] = Some(id.clone());
                }
            }
        }
    }
    for (l, h) in latency.iter_mut().zip(&handshake_total) {
        let m = &l.moves;
        l.mean_handshake_ms = (l.handshakes > 0).then(|| h / l.handshakes as f64);
        l.mean_wall_ms = (m.moves > 0).then(|| m.wall_ms / m.moves as f64);
        l.mean_overhead_ms = (m.reported > 0).then(|| m.overhead_ms / m.reported as f64);
    }
    let faults = reports.iter().filter(|r| r.fault.is_some()).count() as u64;
    let arena_errors = reports.iter().filter(|r| r.ending.is_arena_error()).count() as u64;
    let sprt = info.sprt.as_ref().and_then(|s| {
        stats
            .first()
            .map(|st| sprt_report(s, &st.pentanomial, info.sprt_min_pairs))
    });
    Summary {
        info: info.clone(),
        shard: shard.filter(|s| !s.is_all()).map(|s| s.to_string()),
        shards,
        status: status.to_string(),
        game: info.game.clone(),
        size: info.size,
        engines: info
            .engines
            .iter()
            .zip(latency)
            .zip(ids)
            .map(|((e, latency), id)| EngineSummary {
                name: e.name.clone(),
                command: e.command.clone(),
                init: e.init.clone(),
                tc: e.tc.clone(),
                id,
                latency,
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
    }
}

/// Runs the tournament (or its shard); returns the summary (also when the
/// SPRT stopped it, or a signal did: then `status` says so).
///
/// In order: [`prepare`] the records folder and the openings, [`Resume`]
/// from the state file, count the games already played ([`Live`]), start
/// the workers ([`spawn_workers`]), [`collect`] their games as they end,
/// then summarize every game of the shard.
pub fn run(config: &Config) -> Result<Summary, TournamentError> {
    prepare(config)?;
    let info = MatchInfo::new(config);
    let pairs = pairings(config.format, config.engines.len());
    let mine = shard_games(config.games, pairs.len(), config.shard);
    let mut resume = Resume::open(config, &info, mine)?;
    let mut live = Live::new(&info, config.shard.is_all(), &resume.reports);
    let todo = if live.sprt_done() {
        Vec::new()
    } else {
        std::mem::take(&mut resume.todo)
    };
    let total = todo.len() as u64;
    let stop = Arc::new(AtomicBool::new(false));
    let (results, workers) = spawn_workers(config, &pairs, todo, &stop);

    let progress = Progress::new(config.progress, live.sprt.is_none().then_some(total));
    if let Some(note) = resume.state.as_ref().and_then(|s| s.note.as_ref()) {
        progress.line(note);
    }
    if resume.done > 0 {
        progress.line(&format!(
            "arena: resuming: {} games already played, {} to play",
            resume.done, total
        ));
    }
    let state_error = collect(
        config,
        &pairs,
        results,
        &mut resume,
        &mut live,
        &stop,
        &progress,
    );
    for w in workers {
        let _ = w.join();
    }
    progress.finish();
    if let Some(e) = state_error {
        return Err(TournamentError::State(e));
    }
    let mut summary = summarize(
        &info,
        Some(config.shard),
        Vec::new(),
        final_status(live.sprt_done()),
        resume.reports,
    );
    if let (Some(r), Some(d)) = (summary.sprt.as_mut(), live.decision) {
        r.result = d.result;
        r.decided = Some(d);
    }
    Ok(summary)
}

/// Before any game: the records folder is created, and the openings are
/// checked once before threads start (a bad size fails here).
fn prepare(config: &Config) -> Result<(), TournamentError> {
    if let Some(dir) = &config.records {
        std::fs::create_dir_all(dir).map_err(|e| TournamentError::Records {
            path: dir.display().to_string(),
            detail: e.to_string(),
        })?;
    }
    config.openings.opening(config.kind, 0)?;
    Ok(())
}

/// Where a run starts: the state file (if any), the games of this shard it
/// already holds, and the shard's games still to play, in order.
struct Resume {
    state: Option<StateFile>,
    /// The shard's finished games: those of the state file, then each game
    /// as it ends.
    reports: Vec<GameReport>,
    /// How many games the state file already held.
    done: usize,
    todo: Vec<u64>,
}

impl Resume {
    /// Opens the state file (a new one, or one of this match and shard) and
    /// splits `mine`, the shard's games, into those played and those to play.
    fn open(config: &Config, info: &MatchInfo, mine: Vec<u64>) -> Result<Resume, TournamentError> {
        let state = match &config.state {
            Some(path) => Some(
                StateFile::open(path, info, config.shard, config.summary.as_deref())
                    .map_err(TournamentError::State)?,
            ),
            None => None,
        };
        let mut reports: Vec<GameReport> = state.as_ref().map_or(Vec::new(), |s| s.games.clone());
        let mine_set: BTreeSet<u64> = mine.iter().copied().collect();
        reports.retain(|r| mine_set.contains(&(r.index - 1)));
        let done: BTreeSet<u64> = reports.iter().map(|r| r.index - 1).collect();
        let todo = mine.into_iter().filter(|k| !done.contains(k)).collect();
        Ok(Resume {
            state,
            reports,
            done: done.len(),
            todo,
        })
    }
}

/// The counts of the run so far, per pairing, and the SPRT watching the
/// first pairing (a whole match only).
struct Live {
    stats: Vec<PairingStats>,
    /// The SPRT stops a whole match only: a shard plays all its games, and
    /// the merge of shards decides (see docs/arena-clusters.md).
    sprt: Option<Sprt>,
    sprt_min_pairs: u64,
    /// When the SPRT decided, in this run or (resumed) in an earlier one;
    /// from then on no more games are started.
    decision: Option<SprtDecision>,
}

impl Live {
    /// The counts of the games already played (`reports`, in the order
    /// they finished: a state file's order), and whether and when the SPRT
    /// decided on them, replayed as the run that played them saw it: a
    /// decision stands though games then in flight took the LLR back.
    /// The SPRT is `info`'s, for a whole match (`whole`) only.
    fn new(info: &MatchInfo, whole: bool, reports: &[GameReport]) -> Live {
        let mut live = Live {
            stats: no_games(info),
            sprt: info.sprt.filter(|_| whole),
            sprt_min_pairs: info.sprt_min_pairs,
            decision: None,
        };
        for r in reports {
            live.count(r);
        }
        live
    }

    /// The SPRT has decided: no more games are started.
    fn sprt_done(&self) -> bool {
        self.decision.is_some()
    }

    /// The games counted so far, over every pairing.
    fn games(&self) -> u64 {
        self.stats.iter().map(|st| st.games).sum()
    }

    /// Counts a finished game; returns the SPRT's report on the games
    /// counted while it has not decided (the one that decides included).
    fn count(&mut self, report: &GameReport) -> Option<SprtReport> {
        if let Some(st) = self.stats.get_mut(report.pairing) {
            let a = st.a.clone();
            st.add(round_of(report), report.a_half_points(&a));
        }
        if self.sprt_done() {
            return None;
        }
        let r = sprt_report(
            self.sprt.as_ref()?,
            &self.stats.first()?.pentanomial,
            self.sprt_min_pairs,
        );
        if r.result != SprtResult::Continue {
            self.decision = Some(SprtDecision {
                games: self.games(),
                llr: r.llr,
                result: r.result,
            });
        }
        Some(r)
    }

    /// Counts a finished game; returns its progress line (the game, its
    /// pairing's score, the SPRT's LLR until it decides).
    fn add(&mut self, report: &GameReport) -> String {
        let sprt = self.count(report);
        let mut status = format!(
            "game {} {} vs {}: {} ({})",
            report.index, report.first, report.second, report.result, report.ending,
        );
        if let Some(st) = self.stats.get(report.pairing) {
            status.push_str(&format!(" | {}", short_status(st)));
        }
        if let Some(r) = sprt {
            status.push_str(&format!(
                " | LLR {:.2} ({:.2}, {:.2})",
                r.llr, r.lower, r.upper
            ));
        }
        status
    }
}

/// Starts `config.concurrency` workers (at least one) that share the games
/// `todo`; each game's outcome comes on the channel with its number.
fn spawn_workers(
    config: &Config,
    pairs: &[(usize, usize)],
    todo: Vec<u64>,
    stop: &Arc<AtomicBool>,
) -> (
    mpsc::Receiver<(u64, GameOutcome)>,
    Vec<thread::JoinHandle<()>>,
) {
    let todo = Arc::new(todo);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(u64, GameOutcome)>();
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.max(1) {
        let (next, stop, tx, todo) = (
            Arc::clone(&next),
            Arc::clone(stop),
            tx.clone(),
            Arc::clone(&todo),
        );
        let config = config.clone();
        let pairs = pairs.to_vec();
        workers.push(thread::spawn(move || {
            work(&config, &pairs, &todo, &next, &stop, &tx);
        }));
    }
    (rx, workers)
}

/// One worker: its own engine processes (a seat per engine), the next game
/// of `todo` until none is left, `stop` is set or a signal came, each
/// outcome sent on `tx`; then its engines are told to quit.
fn work(
    config: &Config,
    pairs: &[(usize, usize)],
    todo: &[u64],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &mpsc::Sender<(u64, GameOutcome)>,
) {
    let mut seats: Vec<Seat> = config.engines.iter().cloned().map(Seat::new).collect();
    loop {
        if stop.load(Ordering::SeqCst) || crate::signals::interrupted() {
            break;
        }
        let Some(&k) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let (p, round, swapped) = schedule(k, pairs.len());
        let Some(&(a, b)) = pairs.get(p) else { break };
        let (first, second) = if swapped { (b, a) } else { (a, b) };
        let outcome = match config.openings.opening(config.kind, round) {
            Ok(opening) => {
                let (x, y) = two_mut(&mut seats, first, second);
                play_game(config.kind, &opening, [x, y], config.limits)
            }
            Err(e) => no_game(e.to_string()),
        };
        if tx.send((k, outcome)).is_err() {
            break;
        }
    }
    for s in seats.iter_mut() {
        s.quit();
    }
}

/// Takes each game from the workers as it ends, until they are all done:
/// its report (and record), a line of the state file, the counts, the
/// progress line; sets `stop` when the SPRT decides. An interrupted game is
/// dropped. Returns the state file's error, if writing it failed (the match
/// was then stopped, since it could not be resumed).
fn collect(
    config: &Config,
    pairs: &[(usize, usize)],
    results: mpsc::Receiver<(u64, GameOutcome)>,
    resume: &mut Resume,
    live: &mut Live,
    stop: &AtomicBool,
    progress: &Progress,
) -> Option<String> {
    let mut state_error = None;
    for (k, outcome) in results {
        if outcome.interrupted {
            continue;
        }
        let report = game_report(config, pairs, k, &outcome, live.games() + 1, progress);
        if let Some(s) = resume.state.as_mut()
            && let Err(e) = s.append(&report)
        {
            // Without a state file the match would not resume: stop cleanly.
            progress.line(&format!("arena: {e}; stopping"));
            state_error = Some(e);
            crate::signals::request_stop();
        }
        let status = live.add(&report);
        if live.sprt_done() {
            stop.store(true, Ordering::SeqCst);
        }
        progress.game(&status);
        resume.reports.push(report);
    }
    state_error
}

/// The summary's status at the end of a run.
fn final_status(sprt_done: bool) -> &'static str {
    if crate::signals::interrupted() {
        "interrupted"
    } else if sprt_done {
        "sprt-stopped"
    } else {
        "finished"
    }
}

fn round_of(r: &GameReport) -> u64 {
    r.round.saturating_sub(1)
}

/// The report of game `k` (0-based), the `finished`-th of the shard to
/// end, its record written.
fn game_report(
    config: &Config,
    pairs: &[(usize, usize)],
    k: u64,
    outcome: &GameOutcome,
    finished: u64,
    progress: &Progress,
) -> GameReport {
    let (p, round, swapped) = schedule(k, pairs.len());
    let (a, b) = pairs.get(p).copied().unwrap_or((0, 1));
    let (first, second) = if swapped { (b, a) } else { (a, b) };
    let name = |i: usize| config.engines.get(i).map_or("?", |e| e.name.as_str());
    let names = [name(first), name(second)];
    GameReport {
        index: k + 1,
        round: round + 1,
        pairing: p,
        first: names[0].to_string(),
        second: names[1].to_string(),
        result: outcome.result,
        ending: outcome.ending.clone(),
        fault: outcome.fault.map(|s| names[s.min(1)].to_string()),
        score: outcome.score.clone(),
        plies: outcome.moves.len(),
        record: write_record(config, k, round, names, outcome, progress),
        times: outcome.times,
        ids: outcome.ids.clone(),
        finished: Some(finished),
    }
}

/// Writes the record of game `k` (0-based, of `round`) to the records
/// folder, if there is one: its path, also when it could not be written
/// (a progress line says why).
fn write_record(
    config: &Config,
    k: u64,
    round: u64,
    names: [&str; 2],
    outcome: &GameOutcome,
    progress: &Progress,
) -> Option<String> {
    let dir = config.records.as_ref()?;
    let path = dir.join(format!("game-{:05}.txt", k + 1));
    match record_text(config.kind, names, outcome, round, &utc_now()) {
        Ok(text) => {
            if let Err(e) = std::fs::write(&path, text) {
                progress.line(&format!("arena: cannot write {}: {e}", path.display()));
            }
        }
        Err(e) => progress.line(&format!("arena: no record of game {}: {e}", k + 1)),
    }
    Some(path.display().to_string())
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
            None if self.enabled => say(status),
            None => {}
        }
    }

    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => say(text),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// One engine's id and latencies, for the table.
fn latency_text(e: &EngineSummary) -> String {
    let l = &e.latency;
    let mut parts = vec![format!("id {}", e.id.as_deref().unwrap_or("unknown"))];
    if let Some(h) = l.mean_handshake_ms {
        parts.push(format!("handshake {h:.1} ms ({} starts)", l.handshakes));
    }
    if let Some(w) = l.mean_wall_ms {
        parts.push(format!(
            "{} moves, wall avg {w:.1} ms max {:.1} ms",
            l.moves.moves, l.moves.max_wall_ms
        ));
    }
    if let Some(o) = l.mean_overhead_ms {
        parts.push(format!(
            "latency (wall - engine time) avg {o:.1} ms max {:.1} ms",
            l.moves.max_overhead_ms
        ));
    }
    parts.join("; ")
}

/// The final table, as text.
pub fn table(summary: &Summary) -> String {
    let mut out = String::new();
    let size = summary.size.map_or(String::new(), |s| format!(" {s}x{s}"));
    let part = match (&summary.shard, summary.shards.len()) {
        (Some(s), _) => format!(" (shard {s})"),
        (None, 0) => String::new(),
        (None, _) => format!(" (merged: shards {})", summary.shards.join(", ")),
    };
    let status = match summary.status.as_str() {
        "interrupted" => " - interrupted",
        "sprt-stopped" => " - stopped by the SPRT",
        _ => "",
    };
    out.push_str(&format!(
        "{}{size}{part}: {} games, {} lost by faults{status}\n",
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
        out.push_str(&format!("    {}\n", latency_text(e)));
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
        out.push_str(&sprt_line(r, summary.games_played));
    }
    out
}

/// The table's SPRT line: the LLR on every game played, and the decision;
/// for a run the SPRT stopped, the decision that stopped it, and when.
fn sprt_line(r: &SprtReport, games_played: u64) -> String {
    let verdict = |result| match result {
        SprtResult::H1 => "H1 accepted",
        SprtResult::H0 => "H0 accepted",
        SprtResult::Continue => "no decision yet",
    };
    let result = match &r.decided {
        Some(d) if d.games < games_played => format!(
            "{} at game {} (LLR {:.3}); the {} games then in flight are counted above",
            verdict(d.result),
            d.games,
            d.llr,
            games_played - d.games
        ),
        _ => verdict(r.result).to_string(),
    };
    format!(
        "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] {result}\n",
        r.elo0, r.elo1, r.alpha, r.beta, r.llr, r.lower, r.upper,
    )
}

/// A line on stderr: a closed stderr (the ssh connection or terminal of an
/// arena gone) does not stop the match, which still saves its state.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
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
        assert_eq!(
            Ending::parse("illegal move 'K10': occupied").kind(),
            "illegal move"
        );
        assert_eq!(Ending::parse("no-placement").kind(), "no-placement");
    }

    #[test]
    fn a_resumed_run_keeps_its_sprt_decision() {
        let engine = |name: &str| EngineInfo {
            name: name.into(),
            command: name.into(),
            args: Vec::new(),
            init: Vec::new(),
            tc: "nodes 1".into(),
            binary: None,
        };
        let info = MatchInfo {
            game: "rekushu".into(),
            size: Some(6),
            engines: vec![engine("a"), engine("b")],
            format: "gauntlet".into(),
            games: 100,
            openings: "none".into(),
            max_plies: None,
            adjudication: String::new(),
            timing: String::new(),
            sprt: Some(Sprt {
                elo0: 0.0,
                elo1: 30.0,
                alpha: 0.05,
                beta: 0.05,
            }),
            sprt_min_pairs: 10,
        };
        // Game k (from 1) of round (k + 1) / 2, colours swapped; `a` wins
        // or loses.
        let game = |k: u64, a_wins: bool| -> GameReport {
            let (first, second) = if k % 2 == 1 { ("a", "b") } else { ("b", "a") };
            let first_wins = a_wins == (first == "a");
            serde_json::from_value(serde_json::json!({
                "index": k, "round": k.div_ceil(2), "pairing": 0,
                "first": first, "second": second,
                "result": if first_wins { "1-0" } else { "0-1" },
                "reason": "no-placement", "fault": null, "score": "",
                "plies": 10, "record": null,
            }))
            .expect("a game report")
        };
        // Ten won pairs: H1 at game 20 (the first moment it may decide). The
        // pair then in flight, lost, takes the LLR back inside the bounds.
        let mut reports: Vec<GameReport> = (1..=20).map(|k| game(k, true)).collect();
        reports.extend([game(21, false), game(22, false)]);
        let stats = |live: &Live| live.stats[0].pentanomial;
        let live = Live::new(&info, true, &reports);
        assert_eq!(stats(&live), [1, 0, 0, 0, 10]);
        let sprt = info.sprt.expect("sprt");
        let now = sprt_report(&sprt, &stats(&live), 10);
        assert_eq!(now.result, SprtResult::Continue, "{now:?}");
        assert!(live.sprt_done(), "the decision at game 20 stands");
        let d = live.decision.expect("a decision");
        assert_eq!((d.games, d.result), (20, SprtResult::H1));
        assert!(d.llr >= now.upper);
        // A shard never stops early.
        assert!(!Live::new(&info, false, &reports).sprt_done());
        // Before the tenth pair, no decision.
        assert!(!Live::new(&info, true, &reports[..18]).sprt_done());
    }

    #[test]
    fn sprt_line_keeps_the_decision_that_stopped_the_run() {
        // The numbers of a REBUS match: H1 at game 340, the last pair, in
        // flight then, took the LLR back under the bound.
        let decided = SprtDecision {
            games: 340,
            llr: 2.951,
            result: SprtResult::H1,
        };
        let mut r = SprtReport {
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.05,
            llr: 2.833,
            lower: -2.944,
            upper: 2.944,
            result: SprtResult::H1,
            decided: Some(decided),
        };
        assert_eq!(
            sprt_line(&r, 342),
            "\nSPRT elo0=0 elo1=30 alpha=0.05 beta=0.05: LLR 2.833 [-2.944, 2.944] \
             H1 accepted at game 340 (LLR 2.951); the 2 games then in flight are counted above\n"
        );
        // Nothing in flight: the plain verdict.
        assert!(sprt_line(&r, 340).ends_with("2.944] H1 accepted\n"));
        r.decided = None;
        r.result = SprtResult::Continue;
        assert!(sprt_line(&r, 342).ends_with("2.944] no decision yet\n"));
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
