//! The game as the board keeps it, refereed by the library as the arena's
//! games are: where it started ([`Start`], as a record writes it) and the
//! library's own session of it ([`Session`]: the position, every move with its
//! canonical text, a resignation). Moves are parsed, checked and written by the
//! games' [`Notation`], the status and score are the texts the protocol's
//! `game_status` and `final_score` give, records are written and read with
//! [`tessera::record`]. Engines only play and analyse; nothing here asks them.

use tessera::core::{Game as _, GameText, Notation, Side, Status};
use tessera::engine::{AnyGame, CommandError, Session};
use tessera::games::rebus::Position;
use tessera::games::rekushu::Board;
use tessera::record::{GameResult, Record, RecordMove, Replay, Start, StartPosition};
use tessera::with_session;

/// The largest record the board reads (`POST /api/load`).
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// A game: its start and the session played from it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Start,
    live: AnyGame,
}

impl Game {
    /// A new game from `start` (a Rekushu size the library accepts, 4 to 26).
    pub fn new(start: Start) -> Result<Game, String> {
        let live = match start.position()? {
            StartPosition::Rekushu(board) => AnyGame::Rekushu(Session::new(board)),
            StartPosition::Rebus(pos) => AnyGame::Rebus(Session::new(pos)),
        };
        Ok(Game { start, live })
    }

    pub fn start(&self) -> &Start {
        &self.start
    }

    /// The library's session: the position and the moves.
    pub fn live(&self) -> &AnyGame {
        &self.live
    }

    pub fn is_rebus(&self) -> bool {
        matches!(self.live, AnyGame::Rebus(_))
    }

    /// The moves played, in canonical notation.
    pub fn moves(&self) -> Vec<String> {
        with_session!(&self.live, s => s.history.iter().map(|p| p.text.clone()).collect())
    }

    /// The side to move (the side whose turn it would be, once the game is over).
    pub fn to_move(&self) -> Side {
        with_session!(&self.live, s => s.pos.side_to_move())
    }

    /// The colour words of the first and second player, as the protocol takes
    /// them: `black`/`white`, `red`/`blue`.
    pub fn colours(&self) -> [String; 2] {
        fn words<G: GameText>() -> [String; 2] {
            Side::BOTH.map(|s| G::side_name(s).to_ascii_lowercase())
        }
        match &self.live {
            AnyGame::Rekushu(_) => words::<Board>(),
            AnyGame::Rebus(_) => words::<Position>(),
        }
    }

    pub fn colour(&self, side: Side) -> String {
        self.colours()[side.index()].clone()
    }

    /// `ongoing`, or `over <score> <reason>` (the protocol's `game_status`).
    pub fn status_text(&self) -> String {
        with_session!(&self.live, s => s.status_text())
    }

    /// The status, a resignation counted.
    pub fn status(&self) -> Status {
        with_session!(&self.live, s => s.status())
    }

    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    pub fn resigned(&self) -> bool {
        with_session!(&self.live, s => s.resigned.is_some())
    }

    /// The score now (the protocol's `final_score`): `B+3`, `R+5`, `0`.
    pub fn score_text(&self) -> String {
        with_session!(&self.live, s => s.pos.score_text())
    }

    /// Plays `text` for the side to move; returns its canonical text. A
    /// refusal is the engine's own (`syntax error: …`, `illegal move: …`).
    pub fn play(&mut self, text: &str) -> Result<String, CommandError> {
        let side = self.to_move();
        with_session!(&mut self.live, s => s.play(side, text))
    }

    /// The canonical text of `text` as a move of the side to move, if it is
    /// legal now; nothing changes.
    pub fn check(&self, text: &str) -> Result<String, CommandError> {
        let side = self.to_move();
        with_session!(&self.live, s => {
            let mv = s.pos.parse_move(text);
            if let Err(e @ tessera::core::MoveError::Syntax(_)) = mv {
                return Err(e.into());
            }
            s.check_turn(side, text.trim())?;
            Ok(s.pos.format_move(mv?))
        })
    }

    /// The side to move resigns.
    pub fn resign(&mut self) {
        let side = self.to_move();
        with_session!(&mut self.live, s => s.resigned = Some(side));
    }

    /// Takes back a resignation, or else the last move; false if there was
    /// neither.
    pub fn undo(&mut self) -> bool {
        with_session!(&mut self.live, s => s.undo().is_ok())
    }

    /// The protocol commands that bring an engine to this game's start.
    pub fn start_commands(&self) -> Vec<String> {
        match &self.start {
            Start::Rekushu { size } => vec!["game rekushu".into(), format!("boardsize {size}")],
            Start::Rebus {
                position,
                turn_limit,
            } => vec![
                "game rebus".into(),
                format!("turn_limit {turn_limit}"),
                format!("setup {}", position.position_string()),
            ],
        }
    }

    /// Each move as the protocol's `play` takes it: the mover's colour word
    /// and the canonical text.
    pub fn plays(&self) -> Vec<(String, String)> {
        let colours = self.colours();
        with_session!(&self.live, s => s
            .history
            .iter()
            .map(|p| (colours[p.side.index()].clone(), p.text.clone()))
            .collect())
    }

    /// The game as a record (protocol.md §10), with the players' names.
    pub fn record_text(&self, names: [&str; 2]) -> String {
        let mut record = Record::new(self.start.clone());
        record.tags.first = names[0].to_string();
        record.tags.second = names[1].to_string();
        record.tags.result = GameResult::from_status(self.status());
        if self.is_over() {
            if self.resigned() {
                record.tags.reason = Some("resign".into());
            } else {
                record.tags.reason =
                    Some(with_session!(&self.live, s => s.pos.end_reason()).into());
                record.tags.score = Some(self.score_text());
            }
        }
        record.tags.other = vec![("Event".into(), "tessera-board".into())];
        record.moves = self
            .moves()
            .into_iter()
            .map(|m| RecordMove::new(m, None))
            .collect();
        record.to_text()
    }

    /// A game from a record, read as strictly as `loadgame` reads one
    /// ([`Record::read`]: every tag checked, every move replayed). Its moves
    /// are kept in canonical notation; a result the rules do not give (a
    /// resignation) is not.
    pub fn from_record(text: &str) -> Result<Game, String> {
        let (record, replay) = Record::read(text).map_err(|e| e.to_string())?;
        let mut game = Game::new(record.tags.start)?;
        match (&mut game.live, replay) {
            (AnyGame::Rekushu(s), Replay::Rekushu(line)) => {
                for mv in line.moves {
                    s.push(mv);
                }
            }
            (AnyGame::Rebus(s), Replay::Rebus(line)) => {
                for mv in line.moves {
                    s.push(mv);
                }
            }
            _ => return Err("the record's moves are of another game".into()),
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera::record::parse_rebus_start;

    fn rebus(start: &str, turn_limit: u32) -> Game {
        Game::new(Start::Rebus {
            position: Box::new(parse_rebus_start(start).unwrap()),
            turn_limit,
        })
        .unwrap()
    }

    #[test]
    fn moves_are_checked_and_kept_canonical() {
        let mut g = Game::new(Start::Rekushu { size: 6 }).unwrap();
        for m in ["a1", "F6", "B1", "F5", "A2", "E6"] {
            g.play(m).unwrap();
        }
        assert_eq!(g.play("b2:b2-a1").unwrap(), "B2:A1-B2");
        assert_eq!(g.moves()[0], "A1");
        let e = g.play("F6").unwrap_err();
        assert_eq!(e.to_string(), "illegal move: F6 is occupied");
        assert!(
            g.play("Z9")
                .unwrap_err()
                .to_string()
                .starts_with("syntax error")
        );
        assert_eq!(g.check("c3").unwrap(), "C3");
        assert_eq!(g.moves().len(), 7);
        assert_eq!(g.plays()[6], ("black".to_string(), "B2:A1-B2".to_string()));
        assert_eq!(g.status_text(), "ongoing");
        assert_eq!(g.score_text(), "B+1");
        g.resign();
        assert_eq!(g.status_text(), "over B+R resign");
        assert!(g.undo() && !g.resigned());
        assert!(g.undo());
        assert_eq!(g.moves().len(), 6);
    }

    #[test]
    fn records_round_trip_with_the_position_string() {
        let mut g = rebus("random 7", 100);
        let first = g.live().clone();
        let AnyGame::Rebus(s) = &first else {
            unreachable!()
        };
        let mut moves = Vec::new();
        s.pos.generate_moves(&mut moves);
        let text = s.pos.format_move(moves[0]);
        g.play(&text).unwrap();
        let record = g.record_text(["me", "tessera"]);
        // protocol.md §10: the start is a position string, never `random 7`.
        let start = Position::random(7).position_string();
        assert!(record.contains(&format!("[Start \"{start}\"]")), "{record}");
        assert!(record.contains("[TurnLimit \"100\"]") && record.contains("[Result \"*\"]"));
        let back = Game::from_record(&record).unwrap();
        assert_eq!(back.start(), g.start());
        assert_eq!(back.moves(), vec![text]);
        assert_eq!(
            back.start_commands(),
            vec![
                "game rebus".to_string(),
                "turn_limit 100".into(),
                format!("setup {start}")
            ]
        );

        let mut r = Game::new(Start::Rekushu { size: 4 }).unwrap();
        r.resign();
        let text = r.record_text(["a", "b"]);
        assert!(text.starts_with("[Game \"rekushu\"]\n[Size \"4\"]\n[Start \"4x4\"]"));
        assert!(text.contains("[Result \"0-1\"]") && text.contains("[Reason \"resign\"]"));
        assert!(!text.contains("[Score"));
        assert!(Game::from_record(&text).unwrap().moves().is_empty());
        let broken = text.replace("[Result \"0-1\"]\n", "");
        assert!(Game::from_record(&broken).unwrap_err().contains("Result"));
    }
}
