//! What the engine says about its searches, as data: each completed iteration
//! of a move's search, the move it chose with a summary, and the candidate
//! lines of a streamed analysis. Moves are in the game's notation (the rules'
//! names); every other word of the protocol's text (`info depth …`, `resign`,
//! `W5`) is the protocol's to write.

use std::time::Duration;

use crate::core::Notation;
use crate::search::{SearchInfo, SearchResult};

/// A completed iteration of a move's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    pub seldepth: u32,
    /// For the side to move: centi-units, or a proven result.
    pub score: i32,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    /// The principal variation, in notation.
    pub pv: Vec<String>,
}

impl Iteration {
    pub fn of<G: Notation>(pos: &G, info: &SearchInfo<G::Move>) -> Iteration {
        Iteration {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            nps: info.nps,
            time: info.time,
            pv: line_text(pos, &info.pv),
        }
    }
}

/// How a move was chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum Summary {
    /// The alpha-beta search: its last completed depth, score, nodes and time.
    Search {
        depth: u32,
        score: i32,
        nodes: u64,
        time: Duration,
    },
    /// `level random`: a uniformly random legal move.
    Random,
    /// `level uct`: its playouts, tree nodes, the chosen move's mean result
    /// for the mover (0 to 1) and time.
    Uct {
        playouts: u64,
        nodes: u64,
        value: f64,
        time: Duration,
    },
}

impl Summary {
    pub fn of<M>(result: &SearchResult<M>) -> Summary {
        Summary::Search {
            depth: result.depth,
            score: result.score,
            nodes: result.nodes,
            time: result.time,
        }
    }
}

/// What a `genmove` chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chosen {
    /// A move, played or not, in notation (`K10:C3-K10`, `d3xd5`, `yield`).
    Move(String),
    /// The side to move resigned (Rekushu has no conceding move).
    Resign,
}

/// A `genmove`'s choice and how it was made.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub chosen: Chosen,
    pub summary: Summary,
}

/// What the engine reports as it goes (to the sink the binary sets: stderr).
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A move's search completed an iteration.
    Iteration(Iteration),
    /// A command that chooses a move (`genmove`, `reg_genmove`,
    /// `genmove_analyze`) chose one.
    Chose { command: String, choice: Choice },
}

/// One candidate of a streamed analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its rank, 0 for the best.
    pub order: usize,
    pub score: i32,
    /// Whether `score` is exact (else an upper bound: the move was refuted).
    pub exact: bool,
    /// Its line, starting with the move itself (the move alone for a bound).
    pub line: Vec<String>,
}

/// A block of a streamed analysis: the newest completed iteration's figures
/// and its best candidates, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub candidates: Vec<Candidate>,
}

impl Block {
    /// The block of `info`, with at most `moves` candidates: the best one
    /// with the search's own score and line, the others with theirs (a
    /// bound's line is its move alone).
    pub fn of<G: Notation>(pos: &G, info: &SearchInfo<G::Move>, moves: usize) -> Block {
        let candidates = info
            .root_moves
            .iter()
            .take(moves)
            .enumerate()
            .map(|(order, rm)| {
                let (score, exact, line) = if order == 0 && !info.pv.is_empty() {
                    (info.score, true, info.pv.clone())
                } else {
                    let line = match info.lines.get(order) {
                        Some(l) if rm.exact && !l.is_empty() => l.clone(),
                        _ => vec![rm.mv],
                    };
                    (rm.score, rm.exact, line)
                };
                Candidate {
                    order,
                    score,
                    exact,
                    line: line_text(pos, &line),
                }
            })
            .collect();
        Block {
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            nps: info.nps,
            time: info.time,
            candidates,
        }
    }
}

/// A line of moves in notation, each written in its own position.
pub fn line_text<G: Notation>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        out.push(p.format_move(mv));
        p.make_move(mv);
    }
    out
}
