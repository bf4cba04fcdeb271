//! Engine play through the protocol: `genmove` always returns a legal move and
//! plays it, `reg_genmove` changes nothing, one thread is deterministic, `stop`
//! interrupts a search, `mike` never yields or resigns where `hard` does and
//! moves in time in huge REBUS clusters, and the settings commands refuse bad
//! input.

use std::sync::atomic::Ordering;
use tessera::protocol::Engine;

use crate::common;
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
    // Rekushu's mike thinks 3 s per move by default; the stop comes much earlier.
    ok(&mut e, "level mike");
    let legal = ok(&mut e, "list_moves");
    let stop = e.stop_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        stop.store(true, Ordering::SeqCst);
    });
    let mv = ok(&mut e, "genmove b");
    stopper.join().unwrap();
    assert!(legal.split(' ').any(|m| m == mv), "'{mv}' is not legal");
    // The stop was used up: the flag is clear for the next search.
    assert!(!e.stop_flag().load(Ordering::SeqCst));
}

/// On the empty board every placement scores the same to the depth searched
/// with the linear evaluation, so the order decides: `hard` and `mike` open at
/// the centre, not at A1. The learned one (Rekushu's default) tells the
/// windows by their distance from the edges and opens at the centre or next
/// to it.
#[test]
fn the_empty_board_opens_at_the_centre() {
    const RING_9: [&str; 9] = ["D4", "E4", "F4", "D5", "E5", "F5", "D6", "E6", "F6"];
    for (size, centre, learned) in [
        (
            8,
            &["D4", "E4", "D5", "E5"][..],
            &["D4", "E4", "D5", "E5"][..],
        ),
        (9, &["E5"][..], &RING_9[..]),
        (
            20,
            &["J10", "K10", "J11", "K11"][..],
            &["J10", "K10", "J11", "K11"][..],
        ),
    ] {
        for level in ["hard", "mike"] {
            for (eval, allowed) in [("linear", centre), ("default", learned)] {
                let mut e = Engine::new();
                for cmd in [
                    format!("boardsize {size}"),
                    format!("level {level}"),
                    "setoption threads 1".into(),
                    format!("setoption eval {eval}"),
                    "limit depth 2".into(),
                ] {
                    ok(&mut e, &cmd);
                }
                let mv = ok(&mut e, "genmove b");
                assert!(
                    allowed.contains(&mv.as_str()),
                    "{size}x{size} {level}, eval {eval}: {mv}"
                );
            }
        }
    }
}

/// Blue holds 50 squares and Red only a1: whatever Red captures, Blue makes 51
/// on its next turn, and Red may yield (Blue controls 41 or more, Red fewer).
const HOPELESS_FOR_RED: &str = "bWbPbTbObQbGbJbKbW/bWbPbTbObQbGbJbKbW/bWbPbTbObQbGbJbKbW/\
     bWbPbTbObQbGbJbKbW/bWbPbTbObQbGbJbKbW/bWbPbTbObQgHgFgXgH/gFgXgHgFgXgHgFgXgH/\
     gHgFgXgHgFgXgHgFgX/rTgXgHgFgXgHgFgXgH red - -";

/// Mike never gives up (issue #12, the seed's "no surrender"): in a lost REBUS
/// game where yielding is legal (Red 49 squares behind), `hard` set to give up
/// 40 behind yields, `hard` as it ships (50) and `mike`, searching to the same
/// depth (and seeing the same loss), play a move of `list_moves` (which never
/// lists `yield`) and the game goes on.
#[test]
fn mike_never_yields_where_hard_does() {
    for (level, option) in [
        ("hard", "resign 40"),
        ("hard", "resign default"),
        ("mike", "resign default"),
    ] {
        let mut e = Engine::new();
        ok(&mut e, "game rebus");
        ok(&mut e, &format!("setup {HOPELESS_FOR_RED}"));
        ok(&mut e, &format!("level {level}"));
        ok(&mut e, &format!("setoption {option}"));
        ok(&mut e, "limit depth 3");
        let legal = ok(&mut e, "list_moves");
        let mv = ok(&mut e, "genmove red");
        let status = ok(&mut e, "game_status");
        if option == "resign 40" {
            assert_eq!((mv.as_str(), status.as_str()), ("yield", "over B+49 yield"));
        } else {
            assert!(
                legal.split(' ').any(|m| m == mv),
                "{level} gave '{mv}', not a capture, lock or pass of list_moves"
            );
            assert_eq!(status, "ongoing");
        }
    }
}

/// The same in Rekushu: after these moves on 5x5 Black is lost by a tile (a
/// search to depth 10 proves it) but not decided; `hard` set to give up a
/// proven loss one tile behind resigns, `hard` as it ships and `mike` play on.
#[test]
fn mike_never_resigns_where_hard_does() {
    let moves = "B1 D5 E1 C3 B5 E5 A4 E4 D2 A1 B2 B4 A2 C1 C4 B3 A3 D4:D4-E5";
    for (level, option) in [
        ("hard", "resign 1"),
        ("hard", "resign default"),
        ("mike", "resign default"),
    ] {
        let mut e = Engine::new();
        ok(&mut e, "boardsize 5");
        for (i, mv) in moves.split(' ').enumerate() {
            ok(&mut e, &format!("play {} {mv}", ["b", "w"][i % 2]));
        }
        ok(&mut e, &format!("level {level}"));
        ok(&mut e, &format!("setoption {option}"));
        ok(&mut e, "limit depth 10");
        let legal = ok(&mut e, "list_moves");
        let mv = ok(&mut e, "genmove b");
        let status = ok(&mut e, "game_status");
        if option == "resign 1" {
            assert_eq!(
                (mv.as_str(), status.as_str()),
                ("resign", "over W+R resign")
            );
        } else {
            assert!(legal.split(' ').any(|m| m == mv), "{level} gave '{mv}'");
            assert_eq!(status, "ongoing");
        }
    }
}

/// `mike` at 0.2 s per move in two huge same-symbol clusters, where it lists
/// its root exactly: a move comes back and `play` accepts it. (That the
/// clock and `stop` cut the list is checked in `rebus_eval.rs`; no time is
/// asserted here.)
#[test]
fn mike_moves_in_huge_clusters_at_short_times() {
    let rank = |t: &str| t.repeat(9);
    let (w, p, h) = (rank("bW"), rank("rP"), rank("gH"));
    for position in [
        // Four ranks of Blue Omega over four of Red Pi: 640,474,330 legal moves.
        format!("gHgFgXgHgFgXgHgFgX/{w}/{w}/{w}/{w}/{p}/{p}/{p}/{p} red - -"),
        // A 45-square Theta cluster between them.
        format!("{w}/{w}/{w}/{h}/{h}/{h}/{h}/{h}/{p} red - -"),
    ] {
        let mut e = Engine::new();
        ok(&mut e, "game rebus");
        ok(&mut e, &format!("setup {position}"));
        ok(&mut e, "level mike");
        ok(&mut e, "move_time 0.2");
        let mv = ok(&mut e, "reg_genmove red");
        ok(&mut e, &format!("play red {mv}"));
    }
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
    use tessera::protocol::report::{analysis_score, score_text};
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

/// Runs the binary on `input` (all of it written, then stdin closed) and
/// returns its replies.
fn binary_replies(input: &[u8]) -> Vec<String> {
    let out = common::binary_output(input);
    out.split("\n\n")
        .filter(|r| !r.is_empty())
        .map(String::from)
        .collect()
}

/// A line over the cap gets one error that does not echo it, and the lines
/// after it are read as usual.
#[test]
fn an_overlong_line_is_refused_once_and_not_echoed() {
    let mut input = b"name\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend_from_slice(b"\n7 version\nplay b A1 ");
    input.extend(std::iter::repeat_n(b'y', 20_000));
    input.extend_from_slice(b"\n");
    let replies = binary_replies(&input);
    assert_eq!(
        replies.len(),
        4,
        "{:?}",
        replies.iter().map(|r| r.len()).collect::<Vec<_>>()
    );
    assert_eq!(replies[0], "= tessera");
    assert_eq!(
        replies[1],
        "? syntax error: input line of 3145729 bytes refused (lines are at most 65536 bytes)"
    );
    assert!(replies[2].starts_with("=7 "), "{}", replies[2]);
    // Under the cap, but its error quotes 20,000 bytes: cut, with the length.
    assert!(
        replies[3].starts_with("? syntax error"),
        "{}",
        &replies[3][..40]
    );
    assert!(replies[3].len() < 600 && replies[3].ends_with("bytes in all)"));
}

/// `perft` and `list_moves` are exact: they always run to their answer, and
/// neither a blank line nor a `stop` after them changes it. A list too long to
/// give is refused without counting it whole.
#[test]
fn perft_and_list_moves_run_to_their_answer() {
    let replies =
        binary_replies(b"boardsize 6\nperft 3\n\nstop\nname\nlist_moves\nstop\nperft 2 divide\n\n");
    assert_eq!(replies.len(), 7, "{replies:?}");
    assert_eq!(replies[..4], ["=", "= 42840", "=", "= tessera"]);
    assert!(replies[4].starts_with("= A1 B1 C1"), "{}", replies[4]);
    assert_eq!(replies[5], "=");
    assert!(replies[6].starts_with("= 1260\nA1 "), "{}", replies[6]);
    // Four ranks of Blue W over four of Red P: 640,474,330 moves.
    let mut e = Engine::new();
    ok(&mut e, "game rebus");
    ok(
        &mut e,
        "setup gHgFgXgHgFgXgHgFgX/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/bWbWbWbWbWbWbWbWbW/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP/rPrPrPrPrPrPrPrPrP red - -",
    );
    let before = e.fingerprint();
    assert_eq!(
        run(&mut e, "list_moves"),
        "? list_moves: more than 100000 legal moves, the most it lists (perft 1 counts them)\n\n"
    );
    assert_eq!(e.fingerprint(), before);
}

/// The smaller refusals: a huge board size is out of range (not a syntax
/// error), setup squares are case-insensitive and a protected square is listed
/// once, more threads than cores are capped, special files are refused.
#[test]
fn sizes_setup_threads_and_special_files() {
    let mut e = Engine::new();
    assert_eq!(
        run(&mut e, "boardsize 99999999999999999999999"),
        "? unacceptable size: 99999999999999999999999 (Rekushu boards are 4 to 26)\n\n"
    );
    ok(&mut e, "game rebus");
    let board = "bSbWbPbTbObQbGbJbK/bTbObQbGbJbKbSbWbP/bGbJbKbSbWbPbTbObQ/gFgXgHgFgXgHgFgXgH/gHgFgXgHgFgXgHgFgX/gFgXgHgFgXgHgFgXgH/rGrJrKrSrWrPrTrOrQ/rTrOrQrGrJrKrSrWrP/rSrWrPrTrOrQrGrJrK";
    ok(&mut e, &format!("setup {board} red A1L2 E5,D4"));
    assert!(ok(&mut e, "position").ends_with("red a1L2 d4,e5"));
    let before = e.fingerprint();
    assert_eq!(
        run(&mut e, &format!("setup {board} red - e5,E5")),
        "? invalid position: protected square e5 is listed twice\n\n"
    );
    assert_eq!(e.fingerprint(), before);
    ok(&mut e, "setoption threads 256");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let options = ok(&mut e, "options");
    if cores < 256 {
        assert!(
            options.contains(&format!("threads 256 ({cores} used")),
            "{options}"
        );
    }
    for (cmd, why) in [
        ("loadgame /dev/null", "a device, not a game record file"),
        (
            "savegame /dev/null",
            "a device, not a file to write a record to",
        ),
        ("loadgame /", "a directory, not a game record file"),
    ] {
        let reply = run(&mut e, cmd);
        assert!(
            reply.starts_with("? ") && reply.contains(why),
            "{cmd}: {reply}"
        );
    }
    // A FIFO with no writer would block an open for good: refused first.
    let fifo = common::scratch("limits", "fifo").join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        for cmd in ["loadgame", "savegame"] {
            let reply = run(&mut e, &format!("{cmd} {}", fifo.display()));
            assert!(reply.contains("a FIFO (named pipe)"), "{cmd}: {reply}");
        }
        let _ = std::fs::remove_file(&fifo);
    }
    assert_eq!(e.fingerprint(), before);
}

/// When `genmove` gives up (`setoption resign`): a game decided whatever
/// anyone plays (White 6 tiles behind with 3 unclaimed) is resigned by `hard`
/// and `decided`, played on by `mike` and `off`; a loss the search proves
/// while only a little behind is played on by `hard` (margin 50) and resigned
/// with a margin of 1.
#[test]
fn resignation_fits_the_setting() {
    let mut e = Engine::new();
    for cmd in [
        "boardsize 4",
        "play b A1",
        "play w A4",
        "play b D1",
        "play w B4",
        "play b A3",
        "play w C4",
        "play b D3:A1-D3",
    ] {
        ok(&mut e, cmd);
    }
    for (setting, want_resign) in [
        ("level hard", true),
        ("setoption resign decided", true),
        ("setoption resign off", false),
        ("setoption resign default", true),
        ("level mike", false),
    ] {
        ok(&mut e, setting);
        let reply = ok(&mut e, "reg_genmove w");
        assert_eq!(reply == "resign", want_resign, "{setting}: {reply}");
    }
    // A proven loss, one to three tiles behind, not decided: find one among
    // positions of random 4x4 games, with the solver.
    use tessera::core::{Game, GameText, SplitMix64, Status};
    use tessera::engine::{AnyGame, Session};
    use tessera::games::rekushu::Board;
    use tessera::solve::Solver;
    let mut solver = Solver::new(16);
    let mut rng = SplitMix64::new(5);
    let mut found = 0;
    for _ in 0..400 {
        let b = tessera::bench::random_line(
            Board::new(4).expect("4x4"),
            8 + rng.below(6) as usize,
            rng.next(),
        );
        if b.status() != Status::Ongoing
            || b.lost_whatever_played()
            || !(-3..=-1).contains(&b.lead())
        {
            continue;
        }
        if b.lead() + solver.value(&mut b.clone()) >= 0 {
            continue;
        }
        let mut e = Engine::new();
        e.start(AnyGame::Rekushu(Session::new(b.clone())));
        ok(&mut e, "limit depth 30");
        let colour = Board::side_name(b.side_to_move());
        assert_ne!(ok(&mut e, &format!("reg_genmove {colour}")), "resign");
        ok(&mut e, "setoption resign 1");
        assert_eq!(ok(&mut e, &format!("reg_genmove {colour}")), "resign");
        found += 1;
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3, "too few proven losses in the sample");
}
