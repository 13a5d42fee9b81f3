//! Coordinate move notation (RULES.md §2.3): `e2e4`, `e7e8q`, `c2c1v`,
//! `a10a12`; castling as the king's two-square move.

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
            s.push(p.letter().to_ascii_lowercase());
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
        if !text.is_ascii() || text.len() < 4 || text.len() > 7 {
            return Err(bad("expected from-square, to-square and an optional promotion letter"));
        }
        let b = text.as_bytes();
        // Split at the second file letter.
        let second =
            (1..b.len()).find(|&i| b[i].is_ascii_lowercase()).ok_or_else(|| bad("missing destination square"))?;
        let from = size.parse_square(&text[..second]).ok_or_else(|| bad("bad origin square"))?;
        let rest = &text[second..];
        let digits_end = 1 + rest[1..].bytes().take_while(|c| c.is_ascii_digit()).count();
        let to = size.parse_square(&rest[..digits_end]).ok_or_else(|| bad("bad destination square"))?;
        let promo = match &rest[digits_end..] {
            "" => None,
            p if p.len() == 1 && p.as_bytes()[0].is_ascii_lowercase() => Some(
                Kind::from_letter(p.chars().next().unwrap_or('?')).ok_or_else(|| bad("unknown promotion letter"))?,
            ),
            _ => return Err(bad("trailing characters after the destination square")),
        };
        Ok((from, to, promo))
    }
}
