//! Game records, in the library's format ([`tessera::record`]): header tags,
//! then the moves in the rules' notation, one per line, with `# opening` on the
//! moves of the opening and the engine's own summary as the comment of the
//! moves it chose (when it wrote one).
//!
//! ```text
//! [Game "rekushu"]
//! [Size "8"]
//! [Start "8x8"]
//! [First "easy"]
//! [Second "random"]
//! [Result "1-0"]
//! [Reason "no-placement"]
//! [Score "B+7"]
//! [Plies "3"]
//! [Date "2026-11-30T06:40:12Z"]
//! [Round "1"]
//!
//! C3 # opening
//! F6 # opening
//! D4 # depth 4 score +1.20 nodes 5120 time 48 ms
//! ```

use tessera::games::rebus::Position;
pub use tessera::record::utc_now;
use tessera::record::{Record, RecordMove, Start};

use crate::openings::GameKind;
use crate::referee::GameOutcome;

/// The record of one game, or why none can be written (a game that never
/// started for the arena's own reasons has no start position).
pub fn record_text(
    kind: GameKind,
    names: [&str; 2],
    outcome: &GameOutcome,
    round: u64,
    date: &str,
) -> Result<String, String> {
    let start = match kind {
        GameKind::Rekushu { size } => Start::Rekushu { size },
        GameKind::Rebus => Start::Rebus {
            position: Box::new(
                Position::from_position_string(&outcome.start)
                    .map_err(|e| format!("no start position ({e})"))?,
            ),
            turn_limit: tessera::games::rebus::DEFAULT_TURN_LIMIT,
        },
    };
    let mut record = Record::new(start);
    record.tags.first = names[0].to_string();
    record.tags.second = names[1].to_string();
    record.tags.result = outcome.result.game_result();
    record.tags.date = date.to_string();
    record.tags.reason = Some(outcome.ending.to_string());
    record.tags.score = Some(outcome.score.clone());
    record.tags.other = vec![("Round".into(), (round + 1).to_string())];
    record.moves = outcome
        .moves
        .iter()
        .map(|m| {
            let comment = if m.opening {
                Some("opening".to_string())
            } else {
                m.comment.clone()
            };
            RecordMove::new(m.text.clone(), comment)
        })
        .collect();
    Ok(record.to_text())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ending::{Decision, Ending, FaultKind};
    use crate::referee::MoveRecord;
    use tessera::record::GameResult;

    #[test]
    fn records_read_back() {
        let outcome = GameOutcome {
            result: Decision::Win(1),
            ending: Ending::fault(FaultKind::IllegalMove, "'A1': A1 is occupied"),
            fault: Some(0),
            score: "0".into(),
            moves: vec![
                MoveRecord {
                    text: "C3".into(),
                    opening: true,
                    comment: None,
                },
                MoveRecord {
                    text: "D4".into(),
                    opening: false,
                    comment: Some("depth 2 score +0.50\nnodes 9".into()),
                },
            ],
            start: "8x8".into(),
            interrupted: false,
            times: Default::default(),
            ids: [None, None],
        };
        let text = record_text(GameKind::Rekushu { size: 8 }, ["a", "b"], &outcome, 0, "d")
            .expect("a record");
        let r = Record::parse(&text).expect("parses");
        assert_eq!(r.tags.result, GameResult::SecondWins);
        assert_eq!(r.moves[0].comment.as_deref(), Some("opening"));
        assert_eq!(
            r.moves[1].comment.as_deref(),
            Some("depth 2 score +0.50 nodes 9")
        );
        assert_eq!(r.tags.other, vec![("Round".to_string(), "1".to_string())]);
        let mut none = outcome.clone();
        none.start = String::new();
        assert!(record_text(GameKind::Rebus, ["a", "b"], &none, 0, "d").is_err());
    }
}
