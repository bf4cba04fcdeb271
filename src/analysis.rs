//! `tessera analyze`: every position of a recorded game searched by the
//! generic searcher, and each move compared with the engine's best.
//!
//! For move k (played by the mover in position P):
//! - **before**: the score of P for the mover, searched within the budget (the
//!   score of the engine's **best** move there);
//! - **after**: the score of the played move for the mover: the position after
//!   it, searched one ply shallower (so that both scores look equally far
//!   ahead) and negated; the best move itself keeps the score of *before*;
//! - **loss**: before − after, never below 0, in the game's units (Rekushu
//!   tiles, REBUS squares). A proven win counts as the largest lead the game
//!   allows (Rekushu (N−1)², REBUS 81) and a proven loss as its opposite;
//! - **mark**: `??` when the loss is at least [`BLUNDER`] units or the move
//!   throws away a proven win or walks into a proven loss, `?` when it is at
//!   least [`MISTAKE`] units, else nothing.
//!
//! Scores are written `+1.50` (units, the mover's or the first player's view),
//! `W5` (a proven win in 5 plies) or `L4` (a proven loss in 4 plies).

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use std::fmt::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use crate::core::eval::{WIN, WIN_BOUND};
use crate::core::{GameId, GameText};
use crate::core::{Side, Status};
use crate::protocol::report::analysis_score as score_text;
use crate::record::{Line, Replay};
use crate::search::{Evaluate, Level, LevelConfig, Limits, Resign, Searcher};

/// A loss of this many units or more is marked `??`.
pub const BLUNDER: f64 = 3.0;
/// A loss of this many units or more is marked `?`.
pub const MISTAKE: f64 = 1.0;

/// How long each position is searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// To this depth (reproducible with one thread).
    Depth(u32),
    /// For this long.
    Time(Duration),
    /// The level's own time per move (hard: 1 s).
    LevelDefault,
}

/// What `tessera analyze` was asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    pub budget: Budget,
    pub level: Level,
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Budget::LevelDefault,
            level: Level::Hard,
            threads: 1,
        }
    }
}

/// One analysed move. Serialised as one JSON object per move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    /// 1 for the first move of the record.
    #[serde(rename = "move")]
    pub number: usize,
    /// `black`, `white`, `red`, `blue`.
    pub side: String,
    /// The move played, canonical.
    pub played: String,
    /// The engine's best move in the position before it (`null` if the search
    /// found none).
    pub best: Option<String>,
    /// The mover's score before the move (that of the best move).
    pub before: String,
    /// The mover's score of the move played.
    pub after: String,
    /// `before` and `after` from the first player's view (Black, Red).
    pub before_first: String,
    pub after_first: String,
    /// The drop caused by the move against the best, in units (0 or more).
    pub loss: f64,
    /// `??`, `?` or empty.
    pub mark: String,
    /// The search scores behind the texts (centi-units, or ±(1000000 − plies)
    /// for proven results), mover's view.
    pub before_raw: i32,
    pub after_raw: i32,
}

/// A whole analysis: the game, the first player's name and every move.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub game: &'static str,
    /// `Black` or `Red`: whose view the `*_first` scores take.
    pub first_name: &'static str,
    pub second_name: &'static str,
    pub moves: Vec<MoveReport>,
}

/// Analyses every move of a replayed record (from
/// [`crate::record::Record::read`]).
/// `progress(done, total)` is called after each move.
pub fn analyze(
    replay: &Replay,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Analysis {
    match replay {
        Replay::Rekushu(line) => {
            let n = line.start.size().saturating_sub(1).min(100) as i32;
            analyze_line(line, n * n, options, progress)
        }
        Replay::Rebus(line) => {
            analyze_line(line, crate::games::rebus::SQUARES as i32, options, progress)
        }
    }
}

/// The level's configuration for analysis: no randomness, no resigning.
fn config(options: &Options, game: GameId) -> LevelConfig {
    LevelConfig {
        noise_margin: 0,
        resign: Resign::Off,
        threads: options.threads.max(1),
        ..options.level.config_in(game)
    }
}

/// A score one ply further from the root (a proven result one ply later).
fn one_ply_up(score: i32) -> i32 {
    if score >= WIN_BOUND {
        score - 1
    } else if score <= -WIN_BOUND {
        score + 1
    } else {
        score
    }
}

/// A score on one scale for differences: proven results become the largest
/// lead, evaluations are capped to it (centi-units).
fn comparable(score: i32, max_lead: i32) -> i64 {
    let cap = i64::from(max_lead) * 100;
    if score >= WIN_BOUND {
        cap
    } else if score <= -WIN_BOUND {
        -cap
    } else {
        i64::from(score).clamp(-cap, cap)
    }
}

fn analyze_line<G: GameText + Evaluate>(
    line: &Line<G>,
    max_lead: i32,
    options: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Analysis {
    let config = config(options, G::ID);
    let mut searcher = Searcher::<G>::for_level(&config);
    let stop = AtomicBool::new(false);
    let limits = |shallower: bool| match options.budget {
        Budget::Depth(d) => Limits::depth(if shallower {
            d.saturating_sub(1).max(1)
        } else {
            d
        }),
        Budget::Time(t) => Limits::movetime(t),
        Budget::LevelDefault => Limits::default(),
    };
    let total = line.moves.len();
    let mut pos = line.start.clone();
    let mut moves = Vec::with_capacity(total);
    for (i, &played) in line.moves.iter().enumerate() {
        let mover = pos.side_to_move();
        let result = searcher.search(&pos, &limits(false), &config, &stop, &mut |_| {});
        let before = result.score;
        let best = result.best_move;
        let played_text = pos.format_move(played);
        let best_text = best.map(|b| pos.format_move(b));
        pos.make_move(played);
        let after = if best == Some(played) {
            before
        } else {
            let s = match pos.status() {
                Status::Ongoing => {
                    searcher
                        .search(&pos, &limits(true), &config, &stop, &mut |_| {})
                        .score
                }
                Status::Draw => 0,
                Status::Won(w) if w == pos.side_to_move() => WIN,
                Status::Won(_) => -WIN,
            };
            one_ply_up(-s)
        };
        let drop = (comparable(before, max_lead) - comparable(after, max_lead)).max(0);
        let loss = drop as f64 / 100.0;
        let thrown = (before >= WIN_BOUND && after < WIN_BOUND)
            || (before > -WIN_BOUND && after <= -WIN_BOUND);
        let mark = if thrown || loss >= BLUNDER {
            "??"
        } else if loss >= MISTAKE {
            "?"
        } else {
            ""
        };
        let first = |s: i32| if mover == Side::First { s } else { -s };
        moves.push(MoveReport {
            number: i + 1,
            side: G::side_name(mover).to_ascii_lowercase(),
            played: played_text,
            best: best_text,
            before: score_text(before),
            after: score_text(after),
            before_first: score_text(first(before)),
            after_first: score_text(first(after)),
            loss,
            mark: mark.into(),
            before_raw: before,
            after_raw: after,
        });
        progress(i + 1, total);
    }
    Analysis {
        game: G::ID.name(),
        first_name: G::side_name(Side::First),
        second_name: G::side_name(Side::Second),
        moves,
    }
}

impl Analysis {
    /// One JSON object per move, one per line.
    pub fn json_lines(&self) -> String {
        let mut out = String::new();
        for m in &self.moves {
            // A plain struct of strings and numbers always serialises.
            if let Ok(line) = serde_json::to_string(m) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }

    /// An aligned table: a header, a line per move, then a summary per side.
    pub fn table(&self) -> String {
        let first = self.first_name;
        let header = [
            "move".to_string(),
            "side".into(),
            "played".into(),
            "best".into(),
            "before".into(),
            "after".into(),
            "loss".into(),
            "mark".into(),
            format!("{first} before"),
            format!("{first} after"),
        ];
        let rows: Vec<[String; 10]> = self
            .moves
            .iter()
            .map(|m| {
                [
                    m.number.to_string(),
                    m.side.clone(),
                    m.played.clone(),
                    m.best.clone().unwrap_or_else(|| "-".into()),
                    m.before.clone(),
                    m.after.clone(),
                    format!("{:.2}", m.loss),
                    m.mark.clone(),
                    m.before_first.clone(),
                    m.after_first.clone(),
                ]
            })
            .collect();
        let mut widths = header.clone().map(|h| h.len());
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.len());
            }
        }
        // Numbers and scores right-aligned, words left-aligned.
        let right = [
            true, false, false, false, true, true, true, false, true, true,
        ];
        let mut out = String::new();
        for row in std::iter::once(&header).chain(&rows) {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if right[i] {
                        format!("{c:>w$}", w = widths[i])
                    } else {
                        format!("{c:<w$}", w = widths[i])
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        for name in [self.first_name, self.second_name] {
            let side = name.to_ascii_lowercase();
            let own: Vec<&MoveReport> = self.moves.iter().filter(|m| m.side == side).collect();
            let count = |mark: &str| own.iter().filter(|m| m.mark == mark).count();
            let average = if own.is_empty() {
                0.0
            } else {
                own.iter().map(|m| m.loss).sum::<f64>() / own.len() as f64
            };
            let _ = writeln!(
                out,
                "{name}: {} move{}, {} ??, {} ?, average loss {average:.2}",
                own.len(),
                if own.len() == 1 { "" } else { "s" },
                count("??"),
                count("?"),
            );
        }
        out
    }

    /// The move with the largest loss (the first of equals), if any.
    pub fn worst(&self) -> Option<&MoveReport> {
        self.moves
            .iter()
            .fold(None, |best: Option<&MoveReport>, m| match best {
                Some(b) if b.loss >= m.loss => Some(b),
                _ => Some(m),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(score_text(150), "+1.50");
        assert_eq!(score_text(-25), "-0.25");
        assert_eq!(score_text(WIN - 5), "W5");
        assert_eq!(score_text(-(WIN - 4)), "L4");
        assert_eq!(one_ply_up(WIN), WIN - 1);
        assert_eq!(one_ply_up(-WIN), -WIN + 1);
        assert_eq!(comparable(WIN - 3, 25), 2500);
        assert_eq!(comparable(-9000, 25), -2500);
    }
}
