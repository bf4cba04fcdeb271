//! What the page draws and what it sends back, decoded: the board's contents,
//! the legal moves and the last move, all by point index, computed from the
//! library's position, and the game-over banner; and a move made of the
//! points the player clicked ([`Parts`]), written in the rules' notation by the
//! library. The page parses no notation: every name and every legal target
//! comes from here.
//!
//! A point is an index: Rekushu `y * size + x` (0-based column and row, A1 is
//! 0), REBUS the square `rank * 9 + file` (a1 is 0, i9 is 80).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tessera::core::{Game as _, GameText, Notation, Side, Status};
use tessera::engine::AnyGame;
use tessera::games::rebus::notation::{capture_token, lock_token};
use tessera::games::rebus::square::{Squares, bit, orth, reach, square_name};
use tessera::games::rebus::tile::{Owner, STAR, SYMBOL_UNICODE, Tile};
use tessera::games::rebus::{Move as RebusMove, MoveKind, Position, SQUARES};
use tessera::games::rekushu::{Board, Move as RekushuMove, Rect, rect_text, vertex_text};

use crate::game::Game;
use tessera::with_session;

/// A move by its points, as the page shows one (the last move, an analysis
/// line) and makes one (what the player clicked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Parts {
    /// Rekushu: a placement and the rectangle it claims, if any, by its
    /// lower-left and upper-right corners `[x1, y1, x2, y2]`.
    Place {
        at: usize,
        #[serde(default)]
        claim: Option<[usize; 4]>,
    },
    /// REBUS: the attacker, the captured squares in the order taken, the
    /// nominated square.
    Capture {
        attacker: usize,
        steps: Vec<usize>,
        #[serde(default)]
        nominee: Option<usize>,
    },
    /// REBUS: the block whose lower-left square is `origin`.
    Lock {
        origin: usize,
        size: u8,
    },
    Pass,
    Yield,
}

fn rect_corners(r: Rect) -> [usize; 4] {
    [r.x1, r.y1, r.x2, r.y2].map(usize::from)
}

/// A REBUS square from the page, checked.
fn square(i: usize) -> Result<u8, String> {
    u8::try_from(i)
        .ok()
        .filter(|&q| (q as usize) < SQUARES)
        .ok_or_else(|| format!("no square {i} on the 9x9 board"))
}

impl Parts {
    /// The move in the rules' notation, written by the library (as the player
    /// built it: a capture's squares in the order clicked). Whether it is
    /// legal is for [`Game::play`] to say.
    pub fn text(&self, game: &Game) -> Result<String, String> {
        match (game.live(), self) {
            (AnyGame::Rekushu(s), Parts::Place { at, claim }) => {
                let n = s.pos.size();
                if *at >= n * n {
                    return Err(format!("no point {at} on the {n}x{n} board"));
                }
                let (x, y) = (at % n, at / n);
                let mv = match claim {
                    None => RekushuMove::place(x, y),
                    Some([x1, y1, x2, y2]) => {
                        if [x1, y1, x2, y2].iter().any(|&&c| c >= n) {
                            return Err(format!("the claim {claim:?} is off the board"));
                        }
                        let r = Rect::from_corners(*x1, *y1, *x2, *y2)
                            .ok_or_else(|| format!("the claim {claim:?} is not a rectangle"))?;
                        RekushuMove::with_claim(x, y, r)
                    }
                };
                Ok(s.pos.format_move(mv))
            }
            (
                AnyGame::Rebus(_),
                Parts::Capture {
                    attacker,
                    steps,
                    nominee,
                },
            ) => {
                let steps: Vec<u8> = steps.iter().map(|&q| square(q)).collect::<Result<_, _>>()?;
                let nominee = nominee.map(square).transpose()?;
                Ok(capture_token(square(*attacker)?, &steps, nominee))
            }
            (AnyGame::Rebus(_), Parts::Lock { origin, size }) => {
                Ok(lock_token(square(*origin)?, *size))
            }
            (AnyGame::Rebus(s), Parts::Pass) => Ok(s.pos.format_move(RebusMove::PASS)),
            (AnyGame::Rebus(s), Parts::Yield) => Ok(s.pos.format_move(RebusMove::YIELD)),
            (live, parts) => Err(format!(
                "a {} move is no {} move",
                match parts {
                    Parts::Place { .. } => "Rekushu",
                    _ => "REBUS",
                },
                match live {
                    AnyGame::Rekushu(_) => "Rekushu",
                    AnyGame::Rebus(_) => "REBUS",
                }
            )),
        }
    }
}

fn rekushu_parts(board: &Board, mv: RekushuMove) -> Parts {
    let (x, y) = mv.vertex();
    Parts::Place {
        at: y * board.size() + x,
        claim: mv.claim().map(rect_corners),
    }
}

/// A REBUS move by its squares, in `pos` (the position before it): a
/// capture's attacker and walk are those of its canonical token.
fn rebus_parts(pos: &Position, mv: RebusMove) -> Option<Parts> {
    Some(match mv.kind() {
        MoveKind::Capture { nominee, .. } => {
            let (attacker, walk) = pos.capture_walk(mv)?;
            Parts::Capture {
                attacker: attacker.into(),
                steps: walk.into_iter().map(usize::from).collect(),
                nominee: nominee.map(usize::from),
            }
        }
        MoveKind::Lock { origin, size } => Parts::Lock {
            origin: origin.into(),
            size,
        },
        MoveKind::Pass => Parts::Pass,
        MoveKind::Yield => Parts::Yield,
    })
}

/// `text` as a move of the side to move now, by its points; `None` when it is
/// not a legal one (an analysis line of a position since left).
pub fn decode(game: &Game, text: &str) -> Option<Parts> {
    match game.live() {
        AnyGame::Rekushu(s) => s
            .pos
            .parse_move(text)
            .ok()
            .map(|m| rekushu_parts(&s.pos, m)),
        AnyGame::Rebus(s) => {
            let mv = s.pos.parse_move(text).ok()?;
            rebus_parts(&s.pos, mv)
        }
    }
}

/// The last move, by its points.
fn last_move(game: &Game) -> Option<Parts> {
    match game.live() {
        AnyGame::Rekushu(s) => s.history.last().map(|p| rekushu_parts(&s.pos, p.mv)),
        AnyGame::Rebus(s) => {
            let last = s.history.last()?;
            let mut before = s.pos.clone();
            before.unmake_move(last.mv);
            rebus_parts(&before, last.mv)
        }
    }
}

fn owner_name(o: Owner) -> &'static str {
    match o {
        Owner::Red => "red",
        Owner::Blue => "blue",
        Owner::Green => "green",
    }
}

fn tile_json(t: Tile) -> Value {
    json!({"owner": owner_name(t.owner), "glyph": SYMBOL_UNICODE[t.symbol as usize % 12].to_string()})
}

/// The game-over banner: the winner, the margin and the reason, in words.
pub fn banner(game: &Game) -> Option<String> {
    let status = game.status();
    if status == Status::Ongoing {
        return None;
    }
    let rebus = game.is_rebus();
    let why = if game.resigned() {
        "the other side resigned"
    } else {
        match with_session!(game.live(), s => s.pos.end_reason()) {
            "no-placement" => "no legal placement left",
            "51" => "51 squares controlled",
            "no-captures" => "no captures left",
            "turn-limit" => "turn limit reached",
            "yield" => "the other side yielded",
            other => other,
        }
    };
    let Status::Won(winner) = status else {
        return Some(format!("Draw — {why}"));
    };
    let mut who = game.colour(winner);
    who[..1].make_ascii_uppercase();
    if game.resigned() {
        return Some(format!("{who} wins — {why}"));
    }
    let margin = with_session!(game.live(), s => s.pos.lead()).unsigned_abs();
    let unit = match (rebus, margin) {
        (true, 1) => "square",
        (true, _) => "squares",
        (false, 1) => "tile",
        (false, _) => "tiles",
    };
    Some(format!("{who} wins by {margin} {unit} — {why}"))
}

/// The board for the page: its size, the names of its points and of its
/// columns and rows, and the game's own part (`rekushu` or `rebus`).
pub fn board(game: &Game) -> Value {
    let ongoing = game.status() == Status::Ongoing;
    let mut v = match game.live() {
        AnyGame::Rekushu(s) => rekushu(&s.pos, ongoing),
        AnyGame::Rebus(s) => rebus(&s.pos, ongoing),
    };
    v["last"] = json!(last_move(game));
    v
}

/// Letters or numbers alone, from the names of a line of points.
fn labels(names: impl Iterator<Item = String>, keep: fn(char) -> bool) -> Vec<String> {
    names
        .map(|n| n.chars().filter(|&c| keep(c)).collect())
        .collect()
}

fn rekushu(b: &Board, ongoing: bool) -> Value {
    let n = b.size();
    let points: Vec<String> = (0..n * n).map(|i| vertex_text(i % n, i / n)).collect();
    let side = |s: Option<Side>| match s {
        Some(Side::First) => 'b',
        Some(Side::Second) => 'w',
        None => '.',
    };
    let stones: String = (0..n * n).map(|i| side(b.stone_at(i % n, i / n))).collect();
    let tiles: String = (0..(n - 1) * (n - 1))
        .map(|i| side(b.tile_owner(i % (n - 1), i / (n - 1))))
        .collect();
    // The legal placements by point, each with the rectangles it may claim.
    let mut legal = serde_json::Map::new();
    if ongoing {
        let mut moves = Vec::new();
        b.generate_moves(&mut moves);
        for mv in moves {
            let (x, y) = mv.vertex();
            let entry = legal
                .entry(points[y * n + x].clone())
                .or_insert_with(|| json!({"at": y * n + x, "claims": []}));
            if let (Some(r), Some(claims)) = (mv.claim(), entry["claims"].as_array_mut()) {
                claims.push(json!({"text": rect_text(r), "rect": rect_corners(r)}));
            }
        }
    }
    // A point the mirror rule forbids: empty, touching an unclaimed tile, yet
    // not a legal placement.
    let free_tile =
        |tx: usize, ty: usize| tx + 1 < n && ty + 1 < n && b.tile_owner(tx, ty).is_none();
    let forbidden: Vec<usize> = (0..n * n)
        .filter(|&i| {
            let (x, y) = (i % n, i / n);
            let touches_free = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .any(|&(dx, dy)| x >= dx && y >= dy && free_tile(x - dx, y - dy));
            ongoing
                && stones.as_bytes()[i] == b'.'
                && touches_free
                && !legal.contains_key(&points[i])
        })
        .collect();
    json!({
        "size": n,
        "columns": labels((0..n).map(|x| vertex_text(x, 0)), |c| c.is_ascii_alphabetic()),
        "rows": labels((0..n).map(|y| vertex_text(0, y)), |c| c.is_ascii_digit()),
        "points": points,
        "rekushu": {
            "stones": stones,
            "tiles": tiles,
            "legal": legal,
            "forbidden": forbidden,
        },
    })
}

fn rebus(p: &Position, ongoing: bool) -> Value {
    let me = p.side_to_move();
    let mine = Owner::of(me);
    let legal = |text: &str| ongoing && p.parse_move(text).is_ok();
    let squares: Vec<Value> = (0..SQUARES as u8)
        .map(|q| {
            let t = p.tile(q);
            // Where a capture from this square may start.
            let targets: Vec<usize> = if ongoing && t.owner == mine && p.locked() & bit(q) == 0 {
                Squares(reach(bit(q), t.symbol == STAR))
                    .filter(|&to| to != q && legal(&capture_token(q, &[to], None)))
                    .map(usize::from)
                    .collect()
            } else {
                Vec::new()
            };
            json!({
                "owner": owner_name(t.owner),
                "glyph": SYMBOL_UNICODE[t.symbol as usize % 12].to_string(),
                "buried": p.buried(q).map(tile_json),
                "locked": p.locked() & bit(q) != 0,
                "protected": p.protected() & bit(q) != 0,
                "targets": targets,
            })
        })
        .collect();
    let locks: Vec<Value> = p
        .locks()
        .iter()
        .map(|l| {
            json!({
                "origin": l.origin,
                "size": l.size,
                "owner": owner_name(Owner::of(l.side())),
                "uniform": l.uniform,
            })
        })
        .collect();
    let mut legal_locks = Vec::new();
    for size in [2u8, 3] {
        for origin in 0..SQUARES as u8 {
            if legal(&lock_token(origin, size)) {
                legal_locks.push(json!({"origin": origin, "size": size}));
            }
        }
    }
    json!({
        "size": 9,
        "columns": labels((0..9).map(square_name), |c| c.is_ascii_alphabetic()),
        "rows": labels((0..9).map(|r| square_name(r * 9)), |c| c.is_ascii_digit()),
        "points": (0..SQUARES as u8).map(square_name).collect::<Vec<_>>(),
        "rebus": {
            "squares": squares,
            "locks": locks,
            "legal_locks": legal_locks,
            "can_pass": legal(&p.format_move(RebusMove::PASS)),
            "can_yield": legal(&p.format_move(RebusMove::YIELD)),
        },
    })
}

/// A capture being built, checked: where the chain may go on from its last
/// square. `steps` is not empty; the capture must be legal as it is.
pub fn chain_next(p: &Position, attacker: u8, steps: &[u8]) -> Vec<usize> {
    let Some(&last) = steps.last() else {
        return Vec::new();
    };
    Squares(orth(bit(last)))
        .filter(|&q| {
            let mut longer = steps.to_vec();
            longer.push(q);
            p.parse_move(&capture_token(attacker, &longer, None))
                .is_ok()
        })
        .map(usize::from)
        .collect()
}

/// The squares of a REBUS capture given by parts, checked as squares.
pub fn capture_squares(attacker: usize, steps: &[usize]) -> Result<(u8, Vec<u8>), String> {
    Ok((
        square(attacker)?,
        steps.iter().map(|&q| square(q)).collect::<Result<_, _>>()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera::record::{Start, parse_rebus_start};

    fn rebus_game(start: &str) -> Game {
        Game::new(Start::Rebus {
            position: Box::new(parse_rebus_start(start).unwrap()),
            turn_limit: 400,
        })
        .unwrap()
    }

    #[test]
    fn rekushu_boards_are_decoded() {
        let mut g = Game::new(Start::Rekushu { size: 6 }).unwrap();
        for m in ["A1", "F6", "B1", "F5", "A2", "E6", "B2:A1-B2"] {
            g.play(m).unwrap();
        }
        let v = board(&g);
        assert_eq!(v["points"][7], "B2");
        assert_eq!(v["columns"][5], "F");
        assert_eq!(v["rows"][5], "6");
        let stones = v["rekushu"]["stones"].as_str().unwrap();
        assert_eq!(&stones[..2], "..");
        assert_eq!(stones.as_bytes()[35], b'w');
        assert_eq!(
            v["rekushu"]["tiles"].as_str().unwrap().chars().next(),
            Some('b')
        );
        assert_eq!(
            v["last"],
            json!({"kind": "place", "at": 7, "claim": [0, 0, 1, 1]})
        );
        assert_eq!(v["rekushu"]["legal"]["C3"]["at"], 14);
        let parts = Parts::Place {
            at: 14,
            claim: None,
        };
        assert_eq!(parts.text(&g).unwrap(), "C3");
        let claim = Parts::Place {
            at: 7,
            claim: Some([1, 1, 0, 0]),
        };
        assert_eq!(claim.text(&g).unwrap(), "B2:A1-B2");
        assert!(
            Parts::Place {
                at: 36,
                claim: None
            }
            .text(&g)
            .is_err()
        );
        assert!(Parts::Pass.text(&g).is_err());
        assert_eq!(
            decode(&g, "c3"),
            Some(Parts::Place {
                at: 14,
                claim: None
            })
        );
    }

    #[test]
    fn banners_say_who_won_by_how_much_and_why() {
        let mut g = Game::new(Start::Rekushu { size: 4 }).unwrap();
        assert_eq!(banner(&g), None);
        g.resign();
        assert_eq!(
            banner(&g).as_deref(),
            Some("White wins — the other side resigned")
        );
        // Blue's squares are all locked and Red takes the last Green square:
        // nobody can capture any more.
        let mut g = rebus_game(
            "bKbKbKrTrTrTbKbKbK/bKbKbKrTgFrTbKbKbK/bKbKbKrTrTrTbKbKbK/rTrTrTrTrTrTrTrTrT/rTrTrTrTrTrTrTrTrT/rTrTrTrTrTrTrTrTrT/bKbKbKrTrTrTbKbKbK/bKbKbKrTrTrTbKbKbK/bKbKbKrTrTrTbKbKbK red a1L3,g1L3,a7L3,g7L3 -",
        );
        assert_eq!(banner(&g), None, "{}", g.status_text());
        g.play("e7xe8").unwrap();
        assert_eq!(g.status_text(), "over R+9 no-captures");
        assert_eq!(
            banner(&g).as_deref(),
            Some("Red wins by 9 squares — no captures left")
        );
    }

    #[test]
    fn rebus_boards_are_decoded() {
        let mut g = rebus_game("standard");
        let v = board(&g);
        // d3 (Red's Star) reaches two squares; d5 is Green.
        let d3 = &v["rebus"]["squares"][21];
        assert_eq!(d3["owner"], "red");
        assert_eq!(d3["glyph"], "★");
        assert!(d3["targets"].as_array().unwrap().contains(&json!(39)));
        assert_eq!(v["points"][39], "d5");
        assert_eq!(v["columns"][8], "i");
        let parts = Parts::Capture {
            attacker: 21,
            steps: vec![39],
            nominee: Some(4),
        };
        let text = parts.text(&g).unwrap();
        assert_eq!(text, "d3xd5+e1");
        g.play(&text).unwrap();
        let v = board(&g);
        assert_eq!(
            v["last"],
            json!({"kind": "capture", "attacker": 21, "steps": [39], "nominee": 4})
        );
        assert_eq!(v["rebus"]["squares"][39]["buried"]["owner"], "green");
        assert_eq!(v["rebus"]["squares"][39]["protected"], true);
        assert_eq!(Parts::Lock { origin: 0, size: 2 }.text(&g).unwrap(), "a1L2");
    }
}
