//! The reference opponents: `level random` and `level uct` through the
//! protocol, and plain UCT beating uniform random play (deterministic: fixed
//! seeds and playout budgets, no clock).

use std::sync::atomic::AtomicBool;

use tessera::core::{Game, Side, Status};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;
use tessera::protocol::Engine;
use tessera::search::random::random_move;
use tessera::search::uct::{UctBudget, uct_search};

fn run(e: &mut Engine, line: &str) -> String {
    let reply = e.handle_line(line).expect("a reply");
    assert!(reply.starts_with('='), "'{line}' → {reply}");
    reply[1..].trim().to_string()
}

#[test]
fn levels_random_and_uct_in_the_protocol() {
    let mut e = Engine::new();
    run(&mut e, "boardsize 8");
    run(&mut e, "level uct");
    assert_eq!(run(&mut e, "level"), "uct");
    run(&mut e, "limit nodes 200");
    let mv = run(&mut e, "genmove b");
    assert!(!mv.is_empty() && mv != "resign", "{mv}");
    run(&mut e, "level random");
    assert_eq!(run(&mut e, "level"), "random");
    run(&mut e, "setoption seed 11");
    let a = run(&mut e, "reg_genmove w");
    assert_eq!(run(&mut e, "reg_genmove w"), a, "seeded");
    let others: Vec<String> = (0..20)
        .map(|s| {
            run(&mut e, &format!("setoption seed {s}"));
            run(&mut e, "reg_genmove w")
        })
        .collect();
    assert!(others.iter().any(|m| *m != a), "the seed changes the draw");
    run(&mut e, "level easy");
    assert_eq!(run(&mut e, "level"), "easy");
    let bad = e.handle_line("level strongest").expect("a reply");
    assert!(
        bad.starts_with("? syntax error") && bad.contains("'strongest'"),
        "{bad}"
    );
    assert_eq!(
        run(&mut e, "level"),
        "easy",
        "a refused level changes nothing"
    );
    // REBUS: a UCT move within a small playout budget is legal and played.
    run(&mut e, "game rebus");
    run(&mut e, "level uct");
    run(&mut e, "limit nodes 20");
    let mv = run(&mut e, "genmove red");
    assert!(run(&mut e, "showboard").len() > 100);
    assert!(!mv.is_empty(), "{mv}");
}

/// Plays UCT (with `playouts` per move) against random from `start`; returns
/// the status at the end.
fn uct_vs_random<G: Game>(start: G, uct_side: Side, playouts: u64, seed: u64) -> Status {
    let stop = AtomicBool::new(false);
    let mut pos = start;
    let mut ply = 0u64;
    while pos.status() == Status::Ongoing {
        let mv = if pos.side_to_move() == uct_side {
            let budget = UctBudget {
                playouts: Some(playouts),
                time: None,
            };
            uct_search(&pos, budget, seed ^ ply, &stop).best_move
        } else {
            random_move(&pos, seed.wrapping_add(ply))
        };
        let Some(mv) = mv else { break };
        pos.make_move(mv);
        ply += 1;
    }
    pos.status()
}

#[test]
fn uct_beats_random_at_rekushu() {
    let mut wins = 0;
    let mut results = Vec::new();
    for game in 0..10u64 {
        let side = if game % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let board = Board::new(6).expect("6x6");
        let status = uct_vs_random(board, side, 300, game);
        if status == Status::Won(side) {
            wins += 1;
        }
        results.push(status);
    }
    assert!(wins >= 8, "UCT won {wins} of 10: {results:?}");
}

#[test]
fn uct_playouts_end_at_rebus() {
    // A REBUS playout is long (random play reaches the turn limit); a few
    // searches from a random deal must still finish and give legal moves.
    let pos = Position::random(3);
    let stop = AtomicBool::new(false);
    let budget = UctBudget {
        playouts: Some(30),
        time: None,
    };
    let r = uct_search(&pos, budget, 1, &stop);
    assert_eq!(r.playouts, 30);
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    assert!(legal.contains(&r.best_move.expect("moves exist")));
}
