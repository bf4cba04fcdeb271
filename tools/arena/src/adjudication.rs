//! Adjudication: ending a game early on the engines' own scores, as
//! cutechess-cli and fastchess do.
//!
//! - **Resign**: a side whose score (its own view, in the game's units: tiles
//!   or squares) has been at or below `-score` for `movecount` of its moves in a
//!   row loses. With `twosided=true` the opponent must also have scored at or
//!   above `+score` over its last `movecount` moves.
//! - **Draw**: from move `movenumber` on (plies after the opening), when both
//!   sides' scores have been within `±score` for `movecount` moves each in a
//!   row, the game is drawn.
//!
//! The scores come from the engines' `genmove` summaries (`depth 4 score +1.20
//! nodes 5120 time 48 ms`, see [`SearchInfo`]); a move without a score resets
//! that side's streaks, so an engine that reports nothing is never adjudicated.
//! A proven result (`win in 3`, `W3`) counts as an infinite score.

use serde::Serialize;

use crate::ending::{Adjudged, Decision, Ending};

/// What an engine said about its move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    /// The mover's score in units; ±infinity for a proven win or loss.
    pub score: Option<f64>,
    pub nodes: Option<u64>,
    /// The engine's own time for the move, in milliseconds.
    pub time_ms: Option<u64>,
}

/// Reads `depth 4 score +1.20 nodes 5120 time 48 ms` (Tessera's summary), the
/// `info` keys of protocol.md §7, and `score win in 3` / `loss in 3` / `W3` /
/// `L3`. Unknown words are skipped; nothing here fails.
pub fn parse_summary(text: &str) -> SearchInfo {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut info = SearchInfo::default();
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "time" => info.time_ms = next.parse().ok(),
            "score" => {
                info.score = match next {
                    "win" => Some(f64::INFINITY),
                    "loss" => Some(f64::NEG_INFINITY),
                    w if w.starts_with('W') && w[1..].parse::<u32>().is_ok() => Some(f64::INFINITY),
                    w if w.starts_with('L') && w[1..].parse::<u32>().is_ok() => {
                        Some(f64::NEG_INFINITY)
                    }
                    w => w.parse::<f64>().ok().filter(|v| !v.is_nan()),
                };
            }
            "pv" => break,
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

/// `--resign movecount=N score=S [twosided=true]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: f64,
    pub twosided: bool,
}

/// `--draw movenumber=N movecount=N score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: f64,
}

/// The adjudication rules of a match (either may be off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
}

fn key_values<'a>(
    option: &str,
    args: &'a [String],
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    let mut out = Vec::new();
    for a in args.iter().flat_map(|a| a.split_whitespace()) {
        let (k, v) = a
            .split_once('=')
            .ok_or_else(|| format!("{option} '{a}': expected KEY=VALUE"))?;
        if !keys.contains(&k) {
            return Err(format!(
                "{option} '{a}': unknown key '{k}' ({})",
                keys.join(", ")
            ));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn number<T: std::str::FromStr>(option: &str, key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{option} {key}='{v}': not a number"))
}

fn score_value(option: &str, v: &str) -> Result<f64, String> {
    let s: f64 = number(option, "score", v)?;
    if !(s.is_finite() && s >= 0.0) {
        return Err(format!(
            "{option} score='{v}': a score of 0 or more, in tiles or squares"
        ));
    }
    Ok(s)
}

/// Parses `--resign` (empty: off).
pub fn parse_resign(args: &[String]) -> Result<Option<ResignRule>, String> {
    if args.is_empty() {
        return Ok(None);
    }
    let mut rule = ResignRule {
        movecount: 3,
        score: f64::NAN,
        twosided: false,
    };
    for (k, v) in key_values("--resign", args, &["movecount", "score", "twosided"])? {
        match k {
            "movecount" => rule.movecount = number("--resign", k, v)?,
            "score" => rule.score = score_value("--resign", v)?,
            _ => {
                rule.twosided = match v {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => return Err(format!("--resign twosided='{v}': true or false")),
                }
            }
        }
    }
    if rule.score.is_nan() {
        return Err("--resign needs score=S (in tiles or squares)".into());
    }
    if rule.movecount == 0 {
        return Err("--resign movecount must be 1 or more".into());
    }
    Ok(Some(rule))
}

/// Parses `--draw` (empty: off).
pub fn parse_draw(args: &[String]) -> Result<Option<DrawRule>, String> {
    if args.is_empty() {
        return Ok(None);
    }
    let mut rule = DrawRule {
        movenumber: 0,
        movecount: 8,
        score: f64::NAN,
    };
    for (k, v) in key_values("--draw", args, &["movenumber", "movecount", "score"])? {
        match k {
            "movenumber" => rule.movenumber = number("--draw", k, v)?,
            "movecount" => rule.movecount = number("--draw", k, v)?,
            _ => rule.score = score_value("--draw", v)?,
        }
    }
    if rule.score.is_nan() {
        return Err("--draw needs score=S (in tiles or squares)".into());
    }
    if rule.movecount == 0 {
        return Err("--draw movecount must be 1 or more".into());
    }
    Ok(Some(rule))
}

/// A verdict: who won, and the ending (an [`Ending::Adjudication`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub result: Decision,
    pub ending: Ending,
}

/// The streaks of one game, fed each engine move in order.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    rules: Adjudication,
    /// Per seat: consecutive moves at or below −resign score, at or above
    /// +resign score, within ±draw score.
    losing: [u32; 2],
    winning: [u32; 2],
    quiet: [u32; 2],
}

fn units(s: f64) -> String {
    format!("{s:.2}")
}

impl Tracker {
    pub fn new(rules: Adjudication) -> Tracker {
        Tracker {
            rules,
            ..Tracker::default()
        }
    }

    /// Records the move of `seat` (its score, if it gave one) played as
    /// engine ply `ply` (1 for the first move after the opening); returns a
    /// verdict if the game is to end now. `names` are the sides' colours.
    pub fn update(
        &mut self,
        seat: usize,
        ply: u32,
        score: Option<f64>,
        names: [&str; 2],
    ) -> Option<Verdict> {
        let s = seat.min(1);
        match (self.rules.resign, score) {
            (Some(r), Some(v)) => {
                self.losing[s] = if v <= -r.score { self.losing[s] + 1 } else { 0 };
                self.winning[s] = if v >= r.score { self.winning[s] + 1 } else { 0 };
            }
            _ => {
                self.losing[s] = 0;
                self.winning[s] = 0;
            }
        }
        match (self.rules.draw, score) {
            (Some(d), Some(v)) => {
                self.quiet[s] = if v.abs() <= d.score {
                    self.quiet[s] + 1
                } else {
                    0
                };
            }
            _ => self.quiet[s] = 0,
        }
        if let Some(r) = self.rules.resign
            && self.losing[s] >= r.movecount
            && (!r.twosided || self.winning[1 - s] >= r.movecount)
        {
            let both = if r.twosided {
                format!(", {} at +{} or more", names[1 - s], units(r.score))
            } else {
                String::new()
            };
            return Some(Verdict {
                result: Decision::Win(1 - s),
                ending: Ending::Adjudication {
                    verdict: Adjudged::Resign,
                    detail: format!(
                        "{} scored -{} or less for {} moves{both}",
                        names[s],
                        units(r.score),
                        r.movecount
                    ),
                },
            });
        }
        if let Some(d) = self.rules.draw
            && ply >= d.movenumber
            && self.quiet[0] >= d.movecount
            && self.quiet[1] >= d.movecount
        {
            return Some(Verdict {
                result: Decision::Draw,
                ending: Ending::Adjudication {
                    verdict: Adjudged::Draw,
                    detail: format!(
                        "both scores within ±{} for {} moves each (from ply {})",
                        units(d.score),
                        d.movecount,
                        d.movenumber
                    ),
                },
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        let i = parse_summary("depth 4 score +1.20 nodes 5120 time 48 ms");
        assert_eq!(i.depth, Some(4));
        assert_eq!(i.score, Some(1.2));
        assert_eq!(i.nodes, Some(5120));
        assert_eq!(i.time_ms, Some(48));
        assert_eq!(
            parse_summary("depth 9 score win in 3 nodes 1 time 0 ms").score,
            Some(f64::INFINITY)
        );
        assert_eq!(
            parse_summary("score L12 depth 2").score,
            Some(f64::NEG_INFINITY)
        );
        assert_eq!(parse_summary("random"), SearchInfo::default());
        assert_eq!(parse_summary("score nan depth x").score, None);
    }

    #[test]
    fn rules_parse_and_quote() {
        let r = parse_resign(&["movecount=2 score=10".into()]).expect("ok");
        assert_eq!(
            r,
            Some(ResignRule {
                movecount: 2,
                score: 10.0,
                twosided: false
            })
        );
        let e = parse_resign(&["movecount=x".into(), "score=1".into()]).expect_err("x");
        assert!(e.contains("'x'"), "{e}");
        let e = parse_draw(&["moves=3".into()]).expect_err("key");
        assert!(e.contains("'moves'"), "{e}");
        assert!(parse_draw(&["movecount=3".into()]).is_err());
        assert!(parse_resign(&["score=-1".into()]).is_err());
    }

    #[test]
    fn resign_needs_consecutive_moves() {
        let rules = Adjudication {
            resign: parse_resign(&["movecount=2 score=5".into()]).expect("ok"),
            draw: None,
        };
        let names = ["black", "white"];
        let mut t = Tracker::new(rules);
        assert_eq!(t.update(0, 1, Some(-6.0), names), None);
        assert_eq!(t.update(1, 2, Some(6.0), names), None);
        // A score-less move breaks black's streak.
        assert_eq!(t.update(0, 3, None, names), None);
        assert_eq!(t.update(1, 4, Some(6.0), names), None);
        assert_eq!(t.update(0, 5, Some(-5.0), names), None);
        assert_eq!(t.update(1, 6, Some(1.0), names), None);
        let v = t
            .update(0, 7, Some(f64::NEG_INFINITY), names)
            .expect("resigns");
        assert_eq!(v.result, Decision::Win(1));
        assert!(
            v.ending
                .to_string()
                .starts_with("adjudication: resign: black"),
            "{v:?}"
        );
        // Two-sided: white's own scores must agree.
        let rules = Adjudication {
            resign: parse_resign(&["movecount=1 score=5 twosided=true".into()]).expect("ok"),
            draw: None,
        };
        let mut t = Tracker::new(rules);
        assert_eq!(t.update(0, 1, Some(-9.0), names), None);
        assert_eq!(t.update(1, 2, Some(2.0), names), None);
        assert_eq!(t.update(0, 3, Some(-9.0), names), None);
        assert_eq!(t.update(1, 4, Some(9.0), names), None);
        assert!(t.update(0, 5, Some(-9.0), names).is_some());
    }

    #[test]
    fn draw_waits_for_its_move_number() {
        let rules = Adjudication {
            resign: None,
            draw: parse_draw(&["movenumber=4 movecount=1 score=0.5".into()]).expect("ok"),
        };
        let names = ["red", "blue"];
        let mut t = Tracker::new(rules);
        assert_eq!(t.update(0, 1, Some(0.0), names), None);
        assert_eq!(t.update(1, 2, Some(0.1), names), None);
        assert_eq!(t.update(0, 3, Some(0.2), names), None);
        let v = t.update(1, 4, Some(-0.5), names).expect("draw");
        assert_eq!(v.result, Decision::Draw);
        assert!(
            v.ending.to_string().starts_with("adjudication: draw"),
            "{v:?}"
        );
    }
}
