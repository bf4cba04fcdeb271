//! The game-record format (`tessera::record`): what the writer writes reads
//! back the same, every start form of both games, the strict parser's errors
//! (each quoting the line and its number, or the move and its number), and no
//! panic on any text.

use proptest::prelude::*;
use tessera::core::{Game, Side, Status};
use tessera::games::rebus::Position;
use tessera::record::{GameResult, Record, RecordError, RecordMove, Replay, Start};

/// A short 6x6 Rekushu game whose last move claims the tile A1-B2.
const REKUSHU_MOVES: &[&str] = &["A1", "F6", "B1", "F5", "A2", "E6", "B2:A1-B2"];

fn rekushu_record() -> Record {
    let mut r = Record::new(Start::Rekushu { size: 6 });
    r.tags.first = "alice".into();
    r.tags.second = "bob \"the\" builder\\".into();
    r.tags.date = "2026-01-02T03:04:05Z".into();
    r.moves = REKUSHU_MOVES
        .iter()
        .enumerate()
        .map(|(i, m)| RecordMove::new(*m, (i == 1).then(|| "depth 3 score +0.50".into())))
        .collect();
    r.tags.other = vec![("Event".into(), "test".into())];
    r
}

fn parse_err(text: &str) -> String {
    match Record::parse(text) {
        Ok(r) => panic!("accepted:\n{text}\n{r:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn rekushu_records_read_back_the_same() {
    let r = rekushu_record();
    let text = r.to_text();
    assert!(text.starts_with("[Game \"rekushu\"]\n[Size \"6\"]\n[Start \"6x6\"]\n"));
    assert!(text.contains("[Second \"bob \\\"the\\\" builder\\\\\"]\n"));
    assert!(text.contains("[Plies \"7\"]\n"));
    assert!(
        text.contains("\n\nA1\nF6 # depth 3 score +0.50\n"),
        "{text}"
    );
    let (back, replay) = Record::read(&text).expect("parses");
    assert_eq!(back, r);
    assert_eq!(back.to_text(), text);
    let Replay::Rekushu(line) = replay else {
        panic!("a rekushu replay");
    };
    let end = line.position_after(usize::MAX);
    assert_eq!(end.tile_counts(), [1, 0], "the claim was replayed");
    assert_eq!(end.side_to_move(), Side::Second);
}

#[test]
fn rebus_start_forms_and_turn_limit() {
    let standard = Position::standard();
    let deal = Position::random(7);
    // Each start with its first legal move (in generation order) played.
    let text = |start: &str, extra: &str| {
        let pos = Record::read(&format!(
            "[Game \"rebus\"]\n[Start \"{start}\"]\n[First \"a\"]\n[Second \"b\"]\n\
             [Result \"*\"]\n[Date \"today\"]\n"
        ))
        .map(|(_, r)| match r {
            Replay::Rebus(line) => line.start,
            Replay::Rekushu(_) => panic!("rebus"),
        })
        .unwrap_or_else(|e| panic!("{start}: {e}"));
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let first = tessera::core::Notation::format_move(&pos, moves[0]);
        format!(
            "[Game \"rebus\"]\n[Start \"{start}\"]\n{extra}[First \"a\"]\n[Second \"b\"]\n\
             [Result \"*\"]\n[Date \"today\"]\n\n{first}\n"
        )
    };
    for (start, pos) in [
        ("standard", standard.clone()),
        ("random 7", deal.clone()),
        (&standard.position_string() as &str, standard.clone()),
    ] {
        let r = Record::parse(&text(start, "")).unwrap_or_else(|e| panic!("{start}: {e}"));
        match &r.tags.start {
            Start::Rebus {
                position,
                turn_limit,
            } => {
                assert_eq!(**position, pos, "{start}");
                assert_eq!(*turn_limit, 400);
            }
            s => panic!("{s:?}"),
        }
    }
    // The writer always writes the position string, and the turn limit.
    let (r, replay) = Record::read(&text("random 7", "[TurnLimit \"12\"]\n")).expect("parses");
    let written = r.to_text();
    assert!(written.contains(&format!("[Start \"{}\"]", deal.position_string())));
    assert!(written.contains("[TurnLimit \"12\"]"));
    assert_eq!(Record::parse(&written).expect("reads back"), r);
    let Replay::Rebus(line) = replay else {
        panic!("a rebus replay");
    };
    assert_eq!(line.start.turn_limit(), 12);
    assert_eq!(line.moves.len(), 1);
}

#[test]
fn the_arena_format_reads() {
    let text = "[Game \"rekushu\"]\n[Size \"8\"]\n[Start \"8x8\"]\n[Round \"3\"]\n\
        [First \"easy\"]\n[Second \"random\"]\n[Result \"1-0\"]\n[Reason \"no-placement\"]\n\
        [Score \"B+7\"]\n[Plies \"3\"]\n[Date \"2026-11-30T06:40:12Z\"]\n\n\
        C3 # opening\nF6 # opening\nD4 # depth 4 score +1.20 nodes 5120 time 48 ms\n";
    let r = Record::parse(text).expect("parses");
    assert_eq!(r.tags.result, GameResult::FirstWins);
    assert_eq!(r.tags.reason.as_deref(), Some("no-placement"));
    assert_eq!(r.tags.score.as_deref(), Some("B+7"));
    assert_eq!(r.tags.other, vec![("Round".to_string(), "3".to_string())]);
    assert_eq!(r.moves[0].comment.as_deref(), Some("opening"));
    assert_eq!(
        r.moves[2].comment.as_deref(),
        Some("depth 4 score +1.20 nodes 5120 time 48 ms")
    );
    // CRLF line ends, a byte-order mark, trailing blank lines: the same record.
    let crlf = format!("\u{feff}{}\n\n", text.replace('\n', "\r\n"));
    assert_eq!(Record::parse(&crlf).expect("CRLF parses"), r);
    // Only a size, or only a start, is enough for Rekushu.
    let no_start = text.replace("[Start \"8x8\"]\n", "");
    assert_eq!(
        Record::parse(&no_start).expect("no Start").tags.start,
        r.tags.start
    );
    let no_size = text.replace("[Size \"8\"]\n", "");
    assert_eq!(
        Record::parse(&no_size).expect("no Size").tags.start,
        r.tags.start
    );
}

/// `Record::read` is `Record::parse` with the replay it made: the same
/// record or the same error, and the replay `Record::replay` gives.
#[test]
fn read_returns_the_parse_and_its_replay() {
    let text = rekushu_record().to_text();
    let (r, replay) = Record::read(&text).expect("reads");
    assert_eq!(Record::parse(&text).as_ref(), Ok(&r));
    let again = r.replay().expect("replays");
    assert_eq!(format!("{replay:?}"), format!("{again:?}"));
    let bad = text.replace("\nB1\n", "\nA1\n");
    let err = Record::read(&bad).expect_err("A1 twice");
    assert_eq!(Record::parse(&bad).expect_err("A1 twice"), err);
    assert!(err.to_string().starts_with("move 3 'A1' (line "), "{err}");
}

#[test]
fn errors_quote_the_line_and_its_number() {
    let good = rekushu_record().to_text();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "missing tag [Game"),
        (
            good.replace("[Game \"rekushu\"]\n", ""),
            "missing tag [Game",
        ),
        (
            good.replace("\"rekushu\"", "\"chess\""),
            "line 1: unknown game (rekushu or rebus): '[Game \"chess\"]'",
        ),
        (
            good.replace("[Size \"6\"]", "[Size \"30\"]"),
            "line 2: not a Rekushu board size (4 to 26): '[Size \"30\"]'",
        ),
        (
            good.replace("[Start \"6x6\"]", "[Start \"7x7\"]"),
            "line 3: the start of a Rekushu game is the empty board: 6x6: '[Start \"7x7\"]'",
        ),
        (
            good.replace("[Size \"6\"]\n[Start \"6x6\"]\n", ""),
            "missing tag [Size",
        ),
        (good.replace("[Date", "[Dat"), "missing tag [Date"),
        (
            good.replace("[First \"alice\"]\n", ""),
            "missing tag [First",
        ),
        (
            good.replace("[Result \"*\"]", "[Result \"2-0\"]"),
            "line 6: not a result (1-0, 0-1, 1/2-1/2 or *): '[Result \"2-0\"]'",
        ),
        (
            good.replace("[Plies \"7\"]", "[Plies \"8\"]"),
            "the record has 7 moves after the header: '[Plies \"8\"]'",
        ),
        (
            good.replace("[First \"alice\"]", "[First \"alice\"]\n[First \"carol\"]"),
            "line 5: tag First given twice: '[First \"carol\"]'",
        ),
        (
            good.replace("[First \"alice\"]", "[First alice]"),
            "line 4: the value must be in double quotes: '[First alice]'",
        ),
        (
            good.replace("[First \"alice\"]", "First: alice"),
            "line 4: expected a tag [Name \"value\"] or a blank line: 'First: alice'",
        ),
        (
            good.replace("\nA1\n", "\nA1\n[Event \"late\"]\n"),
            "line 12: a tag after the blank line that ends the header: '[Event \"late\"]'",
        ),
        (
            good.replace("\nA1\n", "\nA1 F6\n"),
            "line 11: more than one word before the comment (one move per line): 'A1 F6'",
        ),
        (
            good.replace("\nA1\n", "\n# just a note\nA1\n"),
            "line 11: a comment with no move before it: '# just a note'",
        ),
        (
            good.replace("\nB1\n", "\nF6\n"),
            "move 3 'F6' (line 13): illegal move: F6 is occupied",
        ),
        (
            good.replace("\nB1\n", "\nZ9\n"),
            "move 3 'Z9' (line 13): could not parse move 'Z9'",
        ),
        (
            good.replace("B2:A1-B2", "B2:A1-C3"),
            "move 7 'B2:A1-C3' (line 17)",
        ),
        (
            good.replace("alice", "al\u{7}ice"),
            "line 4: a control character U+0007: '[First \"al\\u{7}ice\"]'",
        ),
        (
            good.replace("[Size \"6\"]", "[Size \"6\"]\n[TurnLimit \"3\"]"),
            "a REBUS tag in a Rekushu record",
        ),
    ];
    for (text, want) in cases {
        let got = parse_err(&text);
        assert!(got.contains(want), "want '{want}', got '{got}' for\n{text}");
    }
    let rebus = "[Game \"rebus\"]\n[Start \"standard\"]\n[First \"a\"]\n[Second \"b\"]\n\
        [Result \"*\"]\n[Date \"d\"]\n[TurnLimit \"1\"]\n\nd3xd5\nd7xd5\n";
    assert!(
        parse_err(rebus).contains("move 2 'd7xd5' (line 10): the game is already over"),
        "{}",
        parse_err(rebus)
    );
    let bad_start = rebus.replace("standard", "rS red - -");
    assert!(parse_err(&bad_start).contains("line 2: invalid position: "));
    let bad_seed = rebus.replace("standard", "random -1");
    assert!(parse_err(&bad_seed).contains("'-1' is not a deal seed"));
    let bad_size = rebus.replace("[Start", "[Size \"8\"]\n[Start");
    assert!(parse_err(&bad_size).contains("line 2: the REBUS board is 9x9: '[Size \"8\"]'"));
    assert!(parse_err(&rebus.replace("[Start \"standard\"]\n", "")).contains("missing tag [Start"));
}

#[test]
fn typed_errors() {
    let text = rekushu_record().to_text().replace("\nB1\n", "\nF6\n");
    match Record::parse(&text) {
        Err(RecordError::Move {
            number, text, line, ..
        }) => assert_eq!((number, text.as_str(), line), (3, "F6", Some(13))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn results_follow_the_status() {
    assert_eq!(
        GameResult::from_status(Status::Won(Side::Second)),
        GameResult::SecondWins
    );
    for r in ["1-0", "0-1", "1/2-1/2", "*"] {
        assert_eq!(GameResult::parse(r).map(GameResult::text), Some(r));
    }
    assert_eq!(GameResult::parse("0.5-0.5"), None);
}

fn pieces() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "[",
        "]",
        "\"",
        "\\",
        "#",
        " ",
        "\n",
        "\r",
        "\u{feff}",
        "é",
        "Game",
        "rekushu",
        "rebus",
        "Size",
        "6",
        "30",
        "Start",
        "6x6",
        "standard",
        "random ",
        "18446744073709551616",
        "TurnLimit",
        "First",
        "Second",
        "Result",
        "1-0",
        "*",
        "Date",
        "Plies",
        "A1",
        "B2:A1-B2",
        "d3xd5",
        "c3L2",
        "pass",
        "yield",
        "x",
        "L",
        ":",
        "-",
        "\t",
    ])
    .prop_map(String::from)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_parsed_or_refused_without_panic(s in any::<String>()) {
        let _ = Record::parse(&s);
    }

    #[test]
    fn record_like_text_never_panics(parts in prop::collection::vec(pieces(), 0..80)) {
        let text: String = parts.concat();
        if let Ok(r) = Record::parse(&text) {
            // Whatever parses, writes and reads back the same.
            prop_assert_eq!(Record::parse(&r.to_text()), Ok(r));
        }
    }

    #[test]
    fn mutated_records_never_panic(
        at in 0usize..400,
        cut in 0usize..40,
        insert in pieces(),
    ) {
        let text = rekushu_record().to_text();
        let mut chars: Vec<char> = text.chars().collect();
        let at = at.min(chars.len());
        let end = (at + cut).min(chars.len());
        chars.splice(at..end, insert.chars());
        let mutated: String = chars.into_iter().collect();
        if let Ok(r) = Record::parse(&mutated) {
            prop_assert_eq!(Record::parse(&r.to_text()), Ok(r));
        }
    }
}
