//! One game in progress as the protocol sees it: the position, the moves played
//! (for `undo`), and the game-independent commands over any [`Game`] with
//! [`Notation`](crate::core::game::Notation). Every method either succeeds or
//! leaves the session exactly as it was.

use super::{CommandError, ErrorKind};
use crate::core::perft::{perft, perft_divide};
use crate::core::{Game, GameText, MoveError, Side, Status};

/// The most moves `list_moves` answers with (a REBUS same-symbol cluster can
/// have millions; `perft 1` counts them).
pub const MAX_LISTED_MOVES: u64 = 100_000;

/// A played move and its canonical text.
#[derive(Clone, Debug)]
pub struct Played<M> {
    pub mv: M,
    pub text: String,
    pub side: Side,
}

#[derive(Clone, Debug)]
pub struct Session<G: Game> {
    pub pos: G,
    pub history: Vec<Played<G::Move>>,
    /// Set when a side resigned (a protocol-level end, not a rules one).
    pub resigned: Option<Side>,
}

impl<G: GameText> Session<G> {
    pub fn new(pos: G) -> Self {
        Session {
            pos,
            history: Vec::new(),
            resigned: None,
        }
    }

    /// The game's status, counting a resignation.
    pub fn status(&self) -> Status {
        match self.resigned {
            Some(side) => Status::Won(side.opp()),
            None => self.pos.status(),
        }
    }

    /// The name of `side` in this game (`Black`, `Red`).
    pub fn side_name(&self, side: Side) -> &'static str {
        G::side_name(side)
    }

    /// The side a colour word names in this game, or a syntax error quoting it.
    pub fn colour(&self, word: &str) -> Result<Side, CommandError> {
        Self::side_arg(word)
    }

    /// The side a colour word names, or a syntax error quoting it.
    pub fn side_arg(word: &str) -> Result<Side, CommandError> {
        G::parse_side(word).ok_or_else(|| {
            CommandError::syntax(format!("'{word}' is not a colour ({})", G::COLOUR_WORDS))
        })
    }

    /// `ongoing`, or `over <score> <reason>`.
    pub fn status_text(&self) -> String {
        match (self.status(), self.resigned) {
            (Status::Ongoing, _) => "ongoing".into(),
            (Status::Won(w), Some(_)) => format!("over {}+R resign", &G::side_name(w)[..1]),
            _ => format!("over {} {}", self.pos.score_text(), self.pos.end_reason()),
        }
    }

    /// Checks that `side` may move now; `what` is quoted in the error.
    pub fn check_turn(&self, side: Side, what: &str) -> Result<(), CommandError> {
        if self.status() != Status::Ongoing {
            return Err(CommandError::illegal(format!("{what}: the game is over")));
        }
        let to_move = self.pos.side_to_move();
        if side != to_move {
            return Err(CommandError::illegal(format!(
                "{what}: it is {}'s turn, not {}'s",
                G::side_name(to_move),
                G::side_name(side)
            )));
        }
        Ok(())
    }

    /// Plays `text` for the side `colour` names; returns the canonical move text.
    pub fn play_colour(&mut self, colour: &str, text: &str) -> Result<String, CommandError> {
        let side = Self::side_arg(colour)?;
        self.play(side, text)
    }

    /// Parses and plays `text` for `side`; returns the canonical move text.
    /// Malformed text is a syntax error whoever is to move; a well-formed move
    /// for the side not to move is illegal for that reason first.
    pub fn play(&mut self, side: Side, text: &str) -> Result<String, CommandError> {
        let parsed = self.pos.parse_move(text);
        if let Err(e @ MoveError::Syntax(_)) = parsed {
            return Err(e.into());
        }
        self.check_turn(side, text.trim())?;
        Ok(self.push(parsed?))
    }

    /// Plays a move already known to be legal.
    pub fn push(&mut self, mv: G::Move) -> String {
        let text = self.pos.format_move(mv);
        let side = self.pos.side_to_move();
        self.pos.make_move(mv);
        self.history.push(Played {
            mv,
            text: text.clone(),
            side,
        });
        text
    }

    /// Takes back the last move (or a resignation, which is not a move on the
    /// board).
    pub fn undo(&mut self) -> Result<(), CommandError> {
        if self.resigned.take().is_some() {
            return Ok(());
        }
        self.pop()
            .map(|_| ())
            .ok_or_else(|| CommandError::new(ErrorKind::CannotUndo, "no move to take back"))
    }

    /// Takes back the last move and returns it.
    pub fn pop(&mut self) -> Option<Played<G::Move>> {
        let last = self.history.pop()?;
        self.pos.unmake_move(last.mv);
        Some(last)
    }

    /// Every legal move of the side to move, canonical, space-separated, or
    /// an error naming `name` when there are more than [`MAX_LISTED_MOVES`]
    /// (`perft 1` counts those). Exact: it always runs to its answer.
    pub fn list_moves(&self, name: &str) -> Result<String, CommandError> {
        if self.status() != Status::Ongoing {
            return Ok(String::new());
        }
        let count = self.pos.count_moves_capped(MAX_LISTED_MOVES);
        if count > MAX_LISTED_MOVES {
            return Err(CommandError::refused(format!(
                "{name}: more than {MAX_LISTED_MOVES} legal moves, the most it lists (perft 1 counts them)"
            )));
        }
        let mut moves = Vec::with_capacity(count as usize);
        self.pos.generate_moves(&mut moves);
        let texts: Vec<String> = moves.iter().map(|&m| self.pos.format_move(m)).collect();
        Ok(texts.join(" "))
    }

    /// `perft <depth> [divide]`: the count first, then `move count` lines.
    /// Exact: it always runs to its answer.
    pub fn perft(&mut self, depth: u32, divide: bool) -> String {
        if self.resigned.is_some() {
            return "0".into();
        }
        if !divide {
            return perft(&mut self.pos, depth).to_string();
        }
        let rows = perft_divide(&mut self.pos, depth);
        let total: u64 = if depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        };
        let mut out = total.to_string();
        for (mv, n) in rows {
            out.push('\n');
            out.push_str(&self.pos.format_move(mv));
            out.push(' ');
            out.push_str(&n.to_string());
        }
        out
    }
}
