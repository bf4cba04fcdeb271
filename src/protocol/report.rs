//! The engine's reports in the protocol's words: scores (`+1.50`, `W5`,
//! `win in 5`), the `info depth …` line of an iteration, a move's summary
//! line (`genmove K10: depth 6 score +0.25 …`, which the arena reads), and a
//! streamed analysis block (`info move … pv …`, protocol.md §7).

use super::names;
use crate::core::eval::proven_result;
use crate::engine::report::{Block, Chosen, Iteration, Report, Summary};

/// A score for people: tiles/squares with two decimals, or a forced result.
pub fn score_text(score: i32) -> String {
    match proven_result(score) {
        Some((true, n)) => format!("win in {n}"),
        Some((false, n)) => format!("loss in {n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// A score token of analysis: `+1.50` / `-0.25` (tiles or squares for the
/// side to move), `W7` / `L6` (a proven win / loss, that many plies from now).
pub fn analysis_score(score: i32) -> String {
    match proven_result(score) {
        Some((true, n)) => format!("W{n}"),
        Some((false, n)) => format!("L{n}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}

/// `info depth 7 seldepth 9 score +1.50 nodes … nps … time … pv K10 J11`.
pub fn iteration_line(i: &Iteration) -> String {
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.time.as_millis(),
        i.pv.join(" ")
    )
}

/// How a move was chosen: `depth 6 score +0.25 nodes 51200 time 980 ms`,
/// `random`, `uct playouts … nodes … value 0.512 time … ms`.
pub fn summary_text(s: &Summary) -> String {
    match s {
        Summary::Search {
            depth,
            score,
            nodes,
            time,
        } => format!(
            "depth {depth} score {} nodes {nodes} time {} ms",
            score_text(*score),
            time.as_millis()
        ),
        Summary::Random => "random".into(),
        Summary::Uct {
            playouts,
            nodes,
            value,
            time,
        } => format!(
            "uct playouts {playouts} nodes {nodes} value {value:.3} time {} ms",
            time.as_millis()
        ),
    }
}

/// What was chosen, as `genmove` answers it: the move, or `resign`.
pub fn chosen_text(c: &Chosen) -> &str {
    match c {
        Chosen::Move(text) => text,
        Chosen::Resign => "resign",
    }
}

/// A report as one line for stderr: an iteration's `info` line, or
/// `<command> <move>: <summary>`.
pub fn report_line(r: &Report) -> String {
    match r {
        Report::Iteration(i) => iteration_line(i),
        Report::Chose { command, choice } => format!(
            "{command} {}: {}",
            chosen_text(&choice.chosen),
            summary_text(&choice.summary)
        ),
    }
}

/// A streamed analysis block: one `info move …` line per candidate, the first
/// with the search's figures. In GoGui mode (Rekushu) moves in GoGui's names.
///
/// ```text
/// info move B2 order 0 score +0.04 depth 5 seldepth 8 nodes 108065 nps 715430 time 151 pv B2 A1 B1
/// info move C2 order 1 score +0.04 pv C2 A1 B1 A2 B2
/// info move A1 order 2 score +0.00 bound upper pv A1
/// ```
pub fn block_text(b: &Block, gogui_names: bool) -> String {
    let names = |m: &str| match gogui_names {
        true => names::move_to_gogui(m),
        false => m.to_string(),
    };
    let mut out = Vec::with_capacity(b.candidates.len());
    for c in &b.candidates {
        let first = c.line.first().map(String::as_str).unwrap_or("");
        let mut text = format!(
            "info move {} order {} score {}",
            names(first),
            c.order,
            analysis_score(c.score)
        );
        if !c.exact {
            text.push_str(" bound upper");
        }
        if c.order == 0 {
            text.push_str(&format!(
                " depth {} seldepth {} nodes {} nps {} time {}",
                b.depth,
                b.seldepth,
                b.nodes,
                b.nps,
                b.time.as_millis()
            ));
        }
        text.push_str(" pv ");
        let line: Vec<String> = c.line.iter().map(|m| names(m)).collect();
        text.push_str(&line.join(" "));
        out.push(text);
    }
    out.join("\n")
}
