//! Engine play through the protocol: `genmove` always returns a legal move and
//! plays it, `reg_genmove` changes nothing, one thread is deterministic, `stop`
//! interrupts a search, and the settings commands refuse bad input.

use std::sync::atomic::Ordering;
use tessera::protocol::Engine;

mod common;
use common::{ok, run};

/// Plays a whole game with genmove on both sides, checking each move against
/// list_moves taken just before. Returns the number of moves played.
fn self_play(setup: &[&str], colours: [&str; 2], max_plies: usize) -> usize {
    let mut e = Engine::new();
    for line in setup {
        ok(&mut e, line);
    }
    let mut plies = 0;
    while plies < max_plies && ok(&mut e, "game_status") == "ongoing" {
        let legal: Vec<String> = ok(&mut e, "list_moves")
            .split(' ')
            .map(String::from)
            .collect();
        let colour = colours[plies % 2];
        let mv = ok(&mut e, &format!("genmove {colour}"));
        if mv == "resign" {
            assert!(ok(&mut e, "game_status").starts_with("over"));
            break;
        }
        assert!(
            legal.contains(&mv),
            "genmove {colour} gave '{mv}', not in list_moves"
        );
        plies += 1;
    }
    plies
}

#[test]
fn genmove_plays_legal_moves_through_whole_rekushu_games() {
    for size in ["6", "9"] {
        let setup = ["boardsize ".to_string() + size, "limit nodes 3000".into()];
        let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
        let n = self_play(&setup, ["b", "w"], 400);
        assert!(n > 10, "only {n} plies on {size}x{size}");
    }
}

#[test]
fn genmove_plays_legal_moves_in_rebus_games() {
    for seed in ["1", "2"] {
        let setup = [
            "game rebus".to_string(),
            format!("setup random {seed}"),
            "limit nodes 3000".into(),
        ];
        let setup: Vec<&str> = setup.iter().map(String::as_str).collect();
        let n = self_play(&setup, ["r", "b"], 60);
        assert!(n > 10, "only {n} plies from deal {seed}");
    }
}

#[test]
fn reg_genmove_leaves_the_state_untouched() {
    for game in ["rekushu", "rebus"] {
        let mut e = Engine::new();
        ok(&mut e, &format!("game {game}"));
        ok(&mut e, "limit depth 2");
        let colour = if game == "rekushu" { "b" } else { "r" };
        let before = e.fingerprint();
        let mv = ok(&mut e, &format!("reg_genmove {colour}"));
        assert_eq!(e.fingerprint(), before);
        // genmove from the same state chooses the same move, and plays it.
        assert_eq!(ok(&mut e, &format!("genmove {colour}")), mv);
        assert_ne!(e.fingerprint(), before);
    }
}

#[test]
fn one_thread_is_deterministic() {
    let line = |seed: &str| {
        let mut e = Engine::new();
        for l in [
            "boardsize 8",
            "setoption threads 1",
            "limit depth 3",
            &format!("setoption seed {seed}"),
        ] {
            ok(&mut e, l);
        }
        (0..8)
            .map(|i| ok(&mut e, if i % 2 == 0 { "genmove b" } else { "genmove w" }))
            .collect::<Vec<_>>()
    };
    assert_eq!(line("5"), line("5"));
}

#[test]
fn stop_interrupts_a_search_with_a_legal_move() {
    let mut e = Engine::new();
    // mike thinks 3 s per move by default; the stop comes much earlier.
    ok(&mut e, "level mike");
    let legal = ok(&mut e, "list_moves");
    let stop = e.play.stop.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let mv = ok(&mut e, "genmove b");
    stopper.join().unwrap();
    assert!(legal.split(' ').any(|m| m == mv), "'{mv}' is not legal");
    // The stop was used up: the flag is clear for the next search.
    assert!(!e.play.stop.load(Ordering::SeqCst));
}

#[test]
fn genmove_refusals_change_nothing() {
    let mut e = Engine::new();
    ok(&mut e, "boardsize 4");
    for bad in ["genmove", "genmove x", "genmove w", "reg_genmove b b"] {
        let before = e.fingerprint();
        assert!(run(&mut e, bad).starts_with('?'), "{bad}");
        assert_eq!(e.fingerprint(), before, "{bad}");
    }
    // A finished game (the 4x4 game of tests/data/transcripts/rekushu_end.txt)
    // has no move to generate.
    let moves = [
        "A4", "B4", "C2", "A1", "B2", "D3", "C3", "B3", "D2", "A3", "D1", "D4", "C1:C1-D2", "D2",
        "C1", "C2", "B1", "A2", "C4",
    ];
    for (i, mv) in moves.iter().enumerate() {
        ok(
            &mut e,
            &format!("play {} {mv}", if i % 2 == 0 { "b" } else { "w" }),
        );
    }
    assert_eq!(ok(&mut e, "game_status"), "over B+1 no-placement");
    let before = e.fingerprint();
    let r = run(&mut e, "genmove w");
    assert!(r.contains("the game is over"), "{r}");
    assert_eq!(e.fingerprint(), before);
}

#[test]
fn settings_commands_validate_their_arguments() {
    let mut e = Engine::new();
    for bad in [
        "level",
        "level grandmaster",
        "time_settings 10 0",
        "time_settings -5 0 0",
        "time_settings x 0 0",
        "time_left green 10 0",
        "time_left b ten 0",
        "fischer_time 10",
        "fischer_time 10 -1",
        "move_time soon",
        "limit depth 0",
        "limit nodes -3",
        "limit width 3",
        "setoption threads 0",
        "setoption hash 100000",
        "setoption seed -1",
        "setoption colour blue",
        "stop now",
    ] {
        let before = e.fingerprint();
        let r = run(&mut e, bad);
        if bad == "level" {
            assert_eq!(r, "= hard\n\n");
            continue;
        }
        assert!(r.starts_with("? syntax error"), "`{bad}` gave {r}");
        assert_eq!(e.fingerprint(), before, "{bad}");
    }
    for good in [
        "level medium",
        "time_settings 60 0 0",
        "time_left b 30 0",
        "fischer_time 10 0.5",
        "move_time 0.05",
        "limit depth 4",
        "limit nodes 1000",
        "limit none",
        "setoption threads 2",
        "setoption hash 8",
        "setoption seed 42",
        "setoption threads default",
        "stop",
    ] {
        ok(&mut e, good);
    }
    assert!(ok(&mut e, "options").contains("seed 42"));
    assert_eq!(ok(&mut e, "limit"), "depth none nodes none");
}

/// Proven results read as plies from now, never negative.
#[test]
fn proven_scores_read_as_plies() {
    use tessera::core::eval::WIN;
    use tessera::protocol::analyze::analysis_score;
    use tessera::protocol::play::score_text;
    assert_eq!(score_text(WIN - 5), "win in 5");
    assert_eq!(score_text(-WIN + 4), "loss in 4");
    assert_eq!(score_text(-150), "-1.50");
    assert_eq!(analysis_score(WIN - 7), "W7");
    assert_eq!(analysis_score(-WIN + 6), "L6");
    assert_eq!(analysis_score(25), "+0.25");
}

/// A controller that closes the engine's stderr (where search progress goes)
/// still gets its moves: the engine neither dies nor leaves a search thread
/// running, with one search thread or several.
#[test]
fn closed_stderr_does_not_kill_or_hang_a_search() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    for level in ["hard", "mike"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn tessera");
        drop(child.stderr.take()); // nobody will ever read stderr
        let mut stdin = child.stdin.take().expect("stdin");
        write!(
            stdin,
            "level {level}\nsetoption threads 2\nmove_time 0.2\ngenmove b\ngenmove w\nquit\n"
        )
        .expect("write commands");
        drop(stdin);
        let mut out = String::new();
        child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut out)
            .expect("read replies");
        let status = child.wait().expect("wait");
        assert!(status.success(), "{level}: {status:?}\n{out}");
        let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert_eq!(replies.len(), 6, "{level}: {out}");
        for r in &replies[3..5] {
            assert!(
                r.starts_with("= ") && r.len() > 2,
                "{level}: a move, got {r:?}"
            );
        }
    }
}
