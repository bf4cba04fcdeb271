//! The learned evaluations (`src/games/*/nnue.rs`): the embedded nets load and
//! fit their game's inputs; the accumulators kept from the changed windows or
//! squares equal accumulators made from scratch, over random games with their
//! moves taken back, across board sizes and deals; the search with the learned
//! evaluation plays legal moves; `setoption eval` round-trips and refuses a bad
//! value by name.

use std::sync::atomic::AtomicBool;

use tessera::core::eval::{EvalChoice, EvalParams};
use tessera::core::nnue::Net;
use tessera::core::{Game, SplitMix64, Status};
use tessera::engine::Engine;
use tessera::games::rebus::{Position, nnue as rebus_nnue};
use tessera::games::rekushu::{Board, nnue as rekushu_nnue};
use tessera::search::{Level, LevelConfig, Limits, Searcher};

use crate::common::{ok, run};

/// A net of random weights for `inputs` sparse and `dense` dense inputs, so
/// that every input's row matters (the embedded nets are tested as well).
fn random_net(seed: u64, inputs: usize, dense: usize) -> Net {
    let mut rng = SplitMix64::new(seed);
    let mut r = |m: u64| rng.below(2 * m + 1) as i64 - m as i64;
    let hidden = 24;
    Net {
        name: "random".into(),
        game: 0,
        feature_set: 0,
        inputs,
        hidden,
        dense,
        dense_shift: 8,
        skip_shift: 12,
        fmax: vec![100_000; dense],
        w1: (0..inputs * hidden).map(|_| r(200) as i16).collect(),
        b1: (0..hidden).map(|_| r(500) as i32).collect(),
        dw: (0..dense * 2 * hidden).map(|_| r(30) as i32).collect(),
        skip: (0..dense).map(|_| r(400_000) as i32).collect(),
        w2: (0..2 * hidden).map(|_| r(3000) as i32).collect(),
        b2: 0,
    }
}

fn learned() -> EvalParams {
    EvalParams {
        eval: EvalChoice::Learned,
        ..EvalParams::default()
    }
}

#[test]
fn the_embedded_nets_load() {
    let r = rekushu_nnue::NET.as_ref().expect("the Rekushu net loads");
    assert_eq!(r.inputs, rekushu_nnue::INPUTS);
    let b = rebus_nnue::NET.as_ref().expect("the REBUS net loads");
    assert_eq!(b.inputs, rebus_nnue::INPUTS);
}

/// A random game with every move taken back at random moments: after each
/// step the learned value through the kept accumulators equals the value from
/// scratch. Boards of several sizes share the thread's accumulators.
#[test]
fn rekushu_accumulators_equal_a_refresh() {
    let embedded = rekushu_nnue::NET.as_ref().expect("the Rekushu net loads");
    let random = random_net(1, rekushu_nnue::INPUTS, rekushu_nnue::DENSE);
    for net in [embedded, &random] {
        rekushu_accumulators_follow(net);
    }
}

fn rekushu_accumulators_follow(net: &Net) {
    let mut rng = SplitMix64::new(11);
    let mut moves = Vec::new();
    let mut checked = 0;
    for size in [4, 7, 12, 20, 12, 26] {
        let mut b = Board::new(size).expect("a legal size");
        let mut played = Vec::new();
        while b.status() == Status::Ongoing && played.len() < 3 * size * size {
            if !played.is_empty() && rng.below(4) == 0 {
                let mv = played.pop().expect("a move to take back");
                b.unmake_move(mv);
            } else {
                moves.clear();
                b.generate_moves(&mut moves);
                // Claims half the time when there are any, so tiles change too.
                let claims: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.claim().is_some())
                    .collect();
                let pool = if !claims.is_empty() && rng.below(2) == 0 {
                    &claims
                } else {
                    &moves
                };
                let mv = pool[rng.below(pool.len() as u64) as usize];
                b.make_move(mv);
                played.push(mv);
            }
            assert_eq!(
                b.eval_with_net(net),
                b.eval_with_net_fresh(net),
                "{size}x{size}"
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
}

/// The same for REBUS, over several random deals (so the squares' buried tiles
/// differ from one game to the next) with locks, protection and the turn limit
/// near.
#[test]
fn rebus_accumulators_equal_a_refresh() {
    let embedded = rebus_nnue::NET.as_ref().expect("the REBUS net loads");
    let random = random_net(2, rebus_nnue::INPUTS, rebus_nnue::DENSE);
    for net in [embedded, &random] {
        rebus_accumulators_follow(net);
    }
}

fn rebus_accumulators_follow(net: &Net) {
    let params = EvalParams {
        lock_bonus: 50,
        ..learned()
    };
    let mut rng = SplitMix64::new(12);
    let mut moves = Vec::new();
    let mut checked = 0;
    for seed in [1, 2, 3] {
        let mut p = Position::random(seed);
        p.set_turn_limit(120);
        let mut played = Vec::new();
        while p.status() == Status::Ongoing && played.len() < 150 {
            if !played.is_empty() && rng.below(4) == 0 {
                let mv = played.pop().expect("a move to take back");
                p.unmake_move(mv);
            } else {
                moves.clear();
                p.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                p.make_move(mv);
                played.push(mv);
            }
            assert_eq!(
                p.eval_with_net(net, &params),
                p.eval_with_net_fresh(net, &params),
                "deal {seed}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
}

fn config(learned: bool) -> LevelConfig {
    let mut c = LevelConfig {
        threads: 1,
        tt_mb: 8,
        noise_margin: 0,
        ..Level::Hard.config()
    };
    c.eval.eval = if learned {
        EvalChoice::Learned
    } else {
        EvalChoice::Linear
    };
    c
}

/// The searcher with the learned evaluation plays a legal move in positions
/// of random games of both games.
#[test]
fn the_search_with_the_learned_evaluation_plays_legal_moves() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(13);
    let mut moves = Vec::new();
    let mut searcher = Searcher::<Board>::new(8);
    let mut b = Board::new(9).expect("a legal size");
    for _ in 0..12 {
        let r = searcher.search(&b, &Limits::depth(3), &config(true), &stop, &mut |_| {});
        let best = r.best_move.expect("a move");
        moves.clear();
        b.generate_moves(&mut moves);
        assert!(moves.contains(&best));
        b.make_move(moves[rng.below(moves.len() as u64) as usize]);
    }
    let mut searcher = Searcher::<Position>::new(8);
    let mut p = Position::random(5);
    let mut rebus_moves = Vec::new();
    for _ in 0..8 {
        let r = searcher.search(&p, &Limits::depth(2), &config(true), &stop, &mut |_| {});
        let best = r.best_move.expect("a move");
        rebus_moves.clear();
        p.generate_moves(&mut rebus_moves);
        assert!(rebus_moves.contains(&best));
        p.make_move(rebus_moves[rng.below(rebus_moves.len() as u64) as usize]);
    }
}

#[test]
fn setoption_eval_round_trips() {
    let mut e = Engine::new();
    let shown = |e: &mut Engine| {
        ok(e, "options")
            .lines()
            .find_map(|l| {
                l.strip_prefix("eval ")
                    .map(|v| v.split(' ').next().unwrap_or("").to_string())
            })
            .expect("an eval line")
    };
    assert_eq!(shown(&mut e), "default");
    ok(&mut e, "setoption eval learned");
    assert_eq!(shown(&mut e), "learned");
    ok(&mut e, "setoption eval LINEAR");
    assert_eq!(shown(&mut e), "linear");
    ok(&mut e, "setoption eval learned");
    ok(&mut e, "setoption eval default");
    assert_eq!(shown(&mut e), "default");
    assert_eq!(
        run(&mut e, "setoption eval x"),
        "? syntax error: setoption eval: 'x' is not learned, linear or default\n\n"
    );
    assert_eq!(shown(&mut e), "default");
    // Both games play with it.
    ok(&mut e, "setoption eval learned");
    ok(&mut e, "boardsize 8");
    ok(&mut e, "limit depth 2");
    ok(&mut e, "genmove b");
    ok(&mut e, "game rebus");
    ok(&mut e, "genmove red");
}
