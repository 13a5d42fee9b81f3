//! Coordinate move notation (RULES.md §2.3): `e2e4`, `e7e8q`, `c2c1v`,
//! `a10a12`, `e7e8a'` for a kind with a primed symbol; castling as the
//! king's two-square move.

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::error::{Error, ErrorKind};
use crate::moves::{Move, MoveList};
use crate::piece::Kind;

impl<B: BitSet> Position<B> {
    /// Coordinate text of a move.
    pub fn uci(&self, m: Move) -> String {
        let size = self.tables.geo.size;
        let mut s = size.square_name(m.from()) + &size.square_name(m.to());
        if let Some(p) = m.promotion() {
            s += &self.tables.variant.spec(p).symbol.to_ascii_lowercase();
        }
        s
    }

    /// Parse coordinate text and return the matching legal move.
    /// Malformed text is an `InvalidMove` error, a well-formed move that is
    /// not legal an `IllegalMove` error; both name the text and position.
    pub fn parse_uci(&self, text: &str) -> Result<Move, Error> {
        let (from, to, promo) = self.split_uci(text)?;
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.iter().copied().find(|m| m.from() == from && m.to() == to && m.promotion() == promo).ok_or_else(|| {
            let why = if list.iter().any(|m| m.from() == from && m.to() == to) {
                if promo.is_none() {
                    "a promotion piece is required"
                } else {
                    "that promotion is not allowed"
                }
            } else {
                "no legal move matches"
            };
            Error::mv(ErrorKind::IllegalMove, text, format!("{why} in {}", self.fen()))
        })
    }

    fn split_uci(&self, text: &str) -> Result<(usize, usize, Option<Kind>), Error> {
        let size = self.tables.geo.size;
        let bad = |why: &str| Error::mv(ErrorKind::InvalidMove, text, why.to_string());
        let c = parse_coordinates(text).map_err(&bad)?;
        let on_board = |(f, r): (u8, u8)| (f < size.files && r < size.ranks).then(|| size.square(f, r));
        let from = on_board(c.from).ok_or_else(|| bad("bad origin square"))?;
        let to = on_board(c.to).ok_or_else(|| bad("bad destination square"))?;
        let promo = match c.promotion {
            None => None,
            Some(p) => Some(
                self.tables
                    .variant
                    .kind_of_symbol(&p.to_ascii_uppercase())
                    .ok_or_else(|| bad("unknown promotion letter"))?,
            ),
        };
        Ok((from, to, promo))
    }
}

/// A coordinate move read without a board (files `a`-`l`, ranks 1-12).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coordinates {
    /// Origin as (file, rank), both from 0.
    pub from: (u8, u8),
    /// Destination as (file, rank), both from 0.
    pub to: (u8, u8),
    /// The promotion symbol as written (lower case, `q` or `a'`).
    pub promotion: Option<String>,
}

/// Read coordinate text (`e2e4`, `e7e8q`, `a10a12`) into squares and a
/// promotion letter, without a board: the one reader of the notation, for
/// the position's [`Position::parse_uci`] and for board-free move values.
/// The error says what is wrong.
pub fn parse_coordinates(text: &str) -> Result<Coordinates, &'static str> {
    if !text.is_ascii() || text.len() < 4 || text.len() > 8 {
        return Err("expected from-square, to-square and an optional promotion letter");
    }
    let b = text.as_bytes();
    // Split at the second file letter.
    let second = (1..b.len()).find(|&i| b[i].is_ascii_lowercase()).ok_or("missing destination square")?;
    let from = square(&text[..second]).ok_or("bad origin square")?;
    let rest = &text[second..];
    let digits_end = 1 + rest[1..].bytes().take_while(|c| c.is_ascii_digit()).count();
    let to = square(&rest[..digits_end]).ok_or("bad destination square")?;
    let promotion = match &rest.as_bytes()[digits_end..] {
        [] => None,
        [p] if p.is_ascii_lowercase() => Some((*p as char).to_string()),
        [p, b'\''] if p.is_ascii_lowercase() => Some(format!("{}'", *p as char)),
        _ => return Err("trailing characters after the destination square"),
    };
    Ok(Coordinates { from, to, promotion })
}

/// A square name on a board of up to 12x12: a file letter `a`-`l` and a
/// rank 1-12 in plain digits (no sign, no leading zero).
fn square(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    if b.len() < 2
        || b.len() > 3
        || !(b'a'..=b'l').contains(&b[0])
        || b[1] == b'0'
        || !b[1..].iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let rank: u8 = s[1..].parse().ok()?;
    (1..=12).contains(&rank).then(|| (b[0] - b'a', rank - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_read_strictly() {
        let c = parse_coordinates("a10l12q").unwrap();
        assert_eq!((c.from, c.to, c.promotion.as_deref()), ((0, 9), (11, 11), Some("q")));
        assert_eq!(parse_coordinates("e7e8a'").unwrap().promotion.as_deref(), Some("a'"));
        assert_eq!(parse_coordinates("e2e4").unwrap().promotion, None);
        for bad in ["a+2a4", "e2+e4", "e0e4", "m1m2", "e2e13", "e2e4qq", "E2E4", "e2e4Q", "e2-e4", "e2"] {
            assert!(parse_coordinates(bad).is_err(), "{bad}");
        }
    }
}
