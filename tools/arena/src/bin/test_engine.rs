//! `arena-test-engine`: the Tessera engine in-process, with one fault injected
//! on demand, for the arena's tests.
//!
//! `arena-test-engine [FAULT N]`: behaves as `tessera` until its N-th `genmove`
//! (counted over the process's life, from 1), where it
//! - `garbage`: answers a line without the `=`/`?` framing;
//! - `nonsense`: answers `= @@@` (framed, but not a move);
//! - `illegal`: answers a well-formed move the rules forbid;
//! - `exit`: exits with status 3 without answering;
//! - `sleep`: sleeps 60 s, then answers (a stall);
//! - `slow`: sleeps 1.5 s before answering a legal move (an overrun of short limits);
//! - `refuse`: answers `? refused`;
//! - `resign`: answers `= resign`.
//!
//! Two more take N as a parameter instead: `pace MS` sleeps MS milliseconds
//! before every `genmove` (a slow but sane engine); `deaf N` never answers
//! `protocol_version` (a failed handshake). Further arguments are ignored
//! (tests pass a marker to find their processes).
//!
//! Not for play: the faults exist to prove the referee.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use tessera::core::{MoveError, Notation};
use tessera::engine::AnyGame;
use tessera::protocol::Engine;
use tessera::protocol::parse::parse_request;
use tessera::protocol::report::report_line;

/// A well-formed move that is illegal now, if the candidates hold one.
fn illegal_move(engine: &Engine) -> String {
    let mut candidates: Vec<String> = vec!["pass".into(), "yield".into(), "a1xa2".into()];
    for c in b'A'..=b'Z' {
        for r in 1..=26 {
            candidates.push(format!("{}{r}", c as char));
        }
    }
    let illegal = |text: &str| match engine.game() {
        AnyGame::Rekushu(s) => matches!(s.pos.parse_move(text), Err(MoveError::Illegal(_))),
        AnyGame::Rebus(s) => matches!(s.pos.parse_move(text), Err(MoveError::Illegal(_))),
    };
    candidates
        .into_iter()
        .find(|c| illegal(c))
        .unwrap_or_else(|| "A1".into())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fault = args.first().cloned().unwrap_or_default();
    let at: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut engine = Engine::new();
    // Like `tessera`: search summaries on stderr, which the arena records.
    engine.set_info_sink(Box::new(|report| eprintln!("{}", report_line(report))));
    let mut genmoves = 0u64;
    let stdin = io::stdin();
    let mut out = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let is_genmove = parse_request(&line).is_some_and(|r| r.name == "genmove");
        if is_genmove {
            genmoves += 1;
        }
        let reply = if fault == "deaf" && line.trim() == "protocol_version" {
            None
        } else if fault == "pace" && is_genmove {
            std::thread::sleep(Duration::from_millis(at));
            engine.handle_line(&line)
        } else if is_genmove && genmoves == at {
            match fault.as_str() {
                "garbage" => Some("this is not a reply\n\n".to_string()),
                "nonsense" => Some("= @@@\n\n".to_string()),
                "illegal" => Some(format!("= {}\n\n", illegal_move(&engine))),
                "exit" => std::process::exit(3),
                "sleep" => {
                    std::thread::sleep(Duration::from_secs(60));
                    engine.handle_line(&line)
                }
                "slow" => {
                    std::thread::sleep(Duration::from_millis(1500));
                    engine.handle_line(&line)
                }
                "refuse" => Some("? refused\n\n".to_string()),
                "resign" => Some("= resign\n\n".to_string()),
                _ => engine.handle_line(&line),
            }
        } else {
            engine.handle_line(&line)
        };
        if let Some(r) = reply
            && (out.write_all(r.as_bytes()).is_err() || out.flush().is_err())
        {
            break;
        }
        if engine.should_quit() {
            break;
        }
    }
}
