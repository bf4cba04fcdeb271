//! Self-play games and the samples read from them.
//!
//! A data file holds one game per line, every move with the score the search
//! gave the position before it (centi-units, side to move's view; `-` for the
//! random opening moves, which were not searched):
//!
//! ```text
//! rekushu <size> <result> <move> <score> <move> <score> ...
//! rebus <deal seed> <turn limit> <result> <move> <score> ...
//! ```
//!
//! `<result>` is `1-0` (the first player won), `0-1` or `1/2`. REBUS games
//! start from the seeded random deal `setup random <deal seed>`.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use tessera::core::eval::{EvalChoice, EvalParams, Evaluate, LinearEval, is_decisive};
use tessera::core::{Notation, Side, SplitMix64, Status};
use tessera::games::rebus::{Position, nnue as rebus_nnue};
use tessera::games::rekushu::{Board, nnue as rekushu_nnue};
use tessera::search::levels::choose_root_move;
use tessera::search::{Level, LevelConfig, Limits, Searcher};

use crate::GameArg;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub game: GameArg,
    pub nodes: u64,
    /// Uniformly random moves at the start of each game (not searched).
    pub opening: usize,
    /// Moves within this many centi-units of the best may be played instead
    /// (weighted towards the best), for variety.
    pub noise: i32,
    /// Rekushu board sizes, one per game in turn.
    pub sizes: Vec<usize>,
    pub learned: bool,
}

fn result_text(s: Status) -> &'static str {
    match s {
        Status::Won(Side::First) => "1-0",
        Status::Won(Side::Second) => "0-1",
        _ => "1/2",
    }
}

/// How self-play searches: `hard` on one thread, a small table, no noise of
/// its own, the chosen evaluation, and no REBUS lock bonus, so that the scores
/// are the evaluation's own: the engine adds the level's bonus on top of
/// either evaluation, and a net that learned it from the labels would count
/// every lock twice.
fn selfplay_config(learned: bool) -> LevelConfig {
    let mut config = LevelConfig {
        threads: 1,
        noise_margin: 0,
        tt_mb: 16,
        ..Level::Hard.config()
    };
    config.eval.lock_bonus = 0;
    config.eval.eval = EvalChoice::learned_if(learned);
    config
}

/// Plays one game from `pos` and appends its moves, scores and result to
/// `line` (after the header the caller wrote).
fn play<G: Evaluate + Notation>(mut pos: G, sp: &SelfPlay, seed: u64, head: String) -> String {
    let mut rng = SplitMix64::new(seed ^ 0x5E1F_91A7);
    let config = selfplay_config(sp.learned);
    let mut searcher = Searcher::<G>::new(config.tt_mb);
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(sp.nodes);
    let mut moves = Vec::new();
    let mut body = String::new();
    let mut ply = 0;
    while pos.status() == Status::Ongoing {
        let (mv, score) = if ply < sp.opening {
            moves.clear();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            (moves[rng.below(moves.len() as u64) as usize], None)
        } else {
            let r = searcher.search(&pos, &limits, &config, &stop, &mut |_| {});
            let Some(best) = r.best_move else { break };
            let i = choose_root_move(&r.root_moves, sp.noise, rng.next());
            let mv = r.root_moves.get(i).map_or(best, |m| m.mv);
            (mv, Some(r.score))
        };
        let _ = write!(body, " {}", pos.format_move(mv));
        match score {
            Some(s) => {
                let _ = write!(body, " {s}");
            }
            None => body.push_str(" -"),
        }
        pos.make_move(mv);
        ply += 1;
    }
    format!("{head} {}{body}", result_text(pos.status()))
}

/// Game `index` of a self-play run seeded `seed`: its line.
pub fn selfplay_game(sp: &SelfPlay, seed: u64, index: u64) -> String {
    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(index);
    match sp.game {
        GameArg::Rekushu => {
            let size = sp.sizes[index as usize % sp.sizes.len()];
            let b = Board::new(size).expect("a checked size");
            play(b, sp, game_seed, format!("rekushu {size}"))
        }
        GameArg::Rebus => {
            let p = Position::random(game_seed);
            let limit = p.turn_limit();
            play(p, sp, game_seed, format!("rebus {game_seed} {limit}"))
        }
    }
}

/// Games `range` of a run, in order, played `threads` at a time.
pub fn selfplay(sp: &SelfPlay, seed: u64, range: std::ops::Range<u64>) -> Vec<String> {
    range
        .into_par_iter()
        .map(|i| selfplay_game(sp, seed, i))
        .collect()
}

/// One position to learn from.
pub struct Sample {
    /// Active inputs for the side to move, then for the other side.
    pub mine: Vec<u16>,
    pub theirs: Vec<u16>,
    /// The linear evaluation's features (side to move).
    pub dense: Vec<i32>,
    /// The search's score (centi-units) and the game's result (1, ½, 0),
    /// both for the side to move.
    pub score: i32,
    pub result: f32,
    /// The linear evaluation, for comparison.
    pub linear: i32,
}

/// What the samples of a game are made from.
pub trait Learnable: Evaluate + Notation + LinearEval {
    fn inputs(&self, view: Side, out: &mut Vec<u16>);
}

impl Learnable for Board {
    fn inputs(&self, view: Side, out: &mut Vec<u16>) {
        rekushu_nnue::features(self, view, out);
    }
}

impl Learnable for Position {
    fn inputs(&self, view: Side, out: &mut Vec<u16>) {
        rebus_nnue::features(self, view, out);
    }
}

fn samples_of<G: Learnable>(
    mut pos: G,
    words: &[&str],
    result: Status,
    skip: usize,
) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    let params = EvalParams {
        eval: EvalChoice::Linear,
        ..EvalParams::default()
    };
    for (ply, pair) in words.chunks(2).enumerate() {
        let [mv, score] = pair else {
            return Err("a move without a score".into());
        };
        let mv = pos.parse_move(mv).map_err(|e| format!("ply {ply}: {e}"))?;
        if ply >= skip
            && *score != "-"
            && let Ok(s) = score.parse::<i32>()
            && !is_decisive(s)
            && pos.status() == Status::Ongoing
        {
            let me = pos.side_to_move();
            let (mut mine, mut theirs) = (Vec::new(), Vec::new());
            pos.inputs(me, &mut mine);
            pos.inputs(me.opp(), &mut theirs);
            out.push(Sample {
                mine,
                theirs,
                dense: pos.features(),
                score: s,
                result: match result {
                    Status::Won(w) if w == me => 1.0,
                    Status::Won(_) => 0.0,
                    _ => 0.5,
                },
                linear: pos.evaluate(&params),
            });
        }
        pos.make_move(mv);
    }
    Ok(out)
}

fn parse_result(word: &str) -> Result<Status, String> {
    match word {
        "1-0" => Ok(Status::Won(Side::First)),
        "0-1" => Ok(Status::Won(Side::Second)),
        "1/2" => Ok(Status::Draw),
        _ => Err(format!("'{word}' is not a result")),
    }
}

/// The samples of one line, skipping its first `skip` plies.
pub fn line_samples(line: &str, game: GameArg, skip: usize) -> Result<Vec<Sample>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match (words.first().copied(), game) {
        (Some("rekushu"), GameArg::Rekushu) => {
            let size: usize = words.get(1).and_then(|w| w.parse().ok()).ok_or("no size")?;
            let b = Board::new(size).ok_or("a bad size")?;
            let result = parse_result(words.get(2).ok_or("no result")?)?;
            samples_of(b, &words[3..], result, skip)
        }
        (Some("rebus"), GameArg::Rebus) => {
            let seed: u64 = words.get(1).and_then(|w| w.parse().ok()).ok_or("no deal")?;
            let limit: u32 = words
                .get(2)
                .and_then(|w| w.parse().ok())
                .ok_or("no limit")?;
            let mut p = Position::random(seed);
            p.set_turn_limit(limit);
            let result = parse_result(words.get(3).ok_or("no result")?)?;
            samples_of(p, &words[4..], result, skip)
        }
        (Some(other), _) => Err(format!("a '{other}' game, not {game:?}")),
        (None, _) => Err("an empty line".into()),
    }
}

/// The lines of the data files, in order.
pub fn read_lines(files: &[impl AsRef<Path>]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for f in files {
        let f = f.as_ref();
        let file = std::fs::File::open(f).map_err(|e| format!("{}: {e}", f.display()))?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(|e| format!("{}: {e}", f.display()))?;
            if !line.trim().is_empty() {
                out.push(line);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selfplay_scores_leave_out_the_lock_bonus() {
        assert!(
            Level::Hard.config().eval.lock_bonus > 0,
            "nothing to leave out"
        );
        assert_eq!(selfplay_config(false).eval.lock_bonus, 0);
        assert_eq!(selfplay_config(true).eval.lock_bonus, 0);
        assert_eq!(selfplay_config(true).eval.eval, EvalChoice::Learned);
    }
}
