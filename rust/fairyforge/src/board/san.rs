//! Standard algebraic notation (RULES.md §2.3) for every variant.
//!
//! Writing ([`Position::san`]):
//!
//! * the piece letter of the moving piece as it stands before the move
//!   (none for the FIDE pawn `P` only; Turret and Automaton always write
//!   `T`/`A`; every other kind its letter `K Q R B N C M D V H G`);
//!   evolution (Burden, Evolution Chess) is automatic and never written;
//! * disambiguation as in chess, among the legal moves of pieces of the same
//!   kind to the same square with the same promotion choice: the origin
//!   file when it tells them apart, else the origin rank, else both
//!   (`Nbd2`, `R1a3`, `Qh4e1`, `Tbxc4`, `T5c3`);
//! * a FIDE pawn capture always writes its origin file (`exd5`);
//! * `x` for a capture: a move after which the opponent has fewer pieces,
//!   which covers en passant (Shocking Turrets and Burden's evolved
//!   double-stepper included) and Robotic hop captures;
//! * the destination, then `=X` for a promotion choice (`e8=Q`, `Ta1=V`);
//! * `+` when the move gives check, `#` instead when it ends the game by
//!   checkmate (the opponent is in check and has no legal move).
//!   **Decision:** a shocking move (§4.3) ends the game but is never written
//!   with `#`, even when White has no legal move afterwards; it gets `+` when
//!   it attacks White's King, and no other marker;
//! * castling is `O-O` (king to the g-file) or `O-O-O` (king to the c-file);
//! * the null move [`Move::NONE`] is written `--`, any other move that is
//!   not legal in the position in coordinate notation.
//!
//! Reading ([`Position::parse_san`]) is tolerant, as in python-chess: `+`,
//! `#`, `!`, `?` and a trailing `e.p.` are ignored (not checked), `x` (or `-`
//! / `:` between origin and destination) is optional and not checked, `=`
//! before the promotion letter is optional and the promotion letter may be
//! lower case (`e8=Q`, `e8Q`, `e8q`), `0-0`/`0-0-0` stand for castling and so
//! does the king's two-square move (`Kg1`), redundant disambiguation is
//! allowed (`Ng1f3`, long algebraic `Ng1-f3`, `e2e4`), an explicit `P` for
//! the pawn is allowed. The leading piece letter is upper case (a lower-case
//! letter is a file). When the text is not a matching SAN, a coordinate move
//! (`g1f3`, `e7e8q`) is accepted as a fallback. A promotion move must name
//! its piece. Errors: malformed text is [`ErrorKind::InvalidMove`], a
//! well-formed move that matches no legal move [`ErrorKind::IllegalMove`],
//! one that matches several [`ErrorKind::AmbiguousMove`]; each names the text
//! and the FEN of the position.

use crate::bitboard::BitSet;
use crate::board::game::with_pos;
use crate::board::game::{AnyPosition, Board};
use crate::board::position::Position;
use crate::error::{Error, ErrorKind};
use crate::moves::{Move, MoveList, Special};
use crate::piece::Kind;

/// A SAN split into its parts (before matching against legal moves).
struct SanParts {
    /// Kind of the moving piece (Pawn when no letter is given).
    kind: Kind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: usize,
    promotion: Option<Kind>,
}

impl<B: BitSet> Position<B> {
    /// SAN of a legal move in this position (RULES.md §2.3; see the module
    /// documentation for the details). A move that is not legal here is
    /// written in coordinate notation instead.
    pub fn san(&self, m: Move) -> String {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        self.san_in(m, &list)
    }

    /// SAN of a move given the legal moves of this position (saves
    /// generating them again when writing many moves of one position); a
    /// move not in `legal` is written in coordinate notation.
    pub fn san_in(&self, m: Move, legal: &[Move]) -> String {
        if m == Move::NONE {
            return "--".to_string();
        }
        let size = self.tables.geo.size;
        let Some(piece) = self.piece_at(m.from()).filter(|_| legal.contains(&m)) else {
            return self.uci(m);
        };
        let mut s = String::new();
        if m.special() == Special::Castle {
            s += if size.file_of(m.to()) > size.file_of(m.from()) { "O-O" } else { "O-O-O" };
        } else {
            let after = self.after(m);
            let them = self.turn.flip();
            let capture = m.special() == Special::EnPassant || after.side(them).count() < self.side(them).count();
            // Other legal moves of the same kind to the same square with the
            // same promotion choice.
            let others: Vec<usize> = legal
                .iter()
                .filter(|o| {
                    o.from() != m.from()
                        && o.to() == m.to()
                        && o.promotion() == m.promotion()
                        && o.special() != Special::Castle
                        && self.piece_at(o.from()).is_some_and(|p| p.kind == piece.kind)
                })
                .map(|o| o.from())
                .collect();
            let (ff, fr) = (size.file_of(m.from()), size.rank_of(m.from()));
            let file_char = (b'a' + ff) as char;
            let rank_text = (fr + 1).to_string();
            let v = &self.tables.variant;
            if v.spec(piece.kind).symbol == "P" {
                if capture {
                    s.push(file_char);
                    if others.iter().any(|&o| size.file_of(o) == ff) {
                        s += &rank_text;
                    }
                } else if !others.is_empty() {
                    s += &disambiguation(size, m.from(), &others);
                }
            } else {
                s += &v.spec(piece.kind).symbol;
                if !others.is_empty() {
                    s += &disambiguation(size, m.from(), &others);
                }
            }
            if capture {
                s.push('x');
            }
            s += &size.square_name(m.to());
            if let Some(p) = m.promotion() {
                s.push('=');
                s += &v.spec(p).symbol;
            }
            return s + check_marker(&after);
        }
        s + check_marker(&self.after(m))
    }

    /// Parse SAN (tolerant, see the module documentation) into the matching
    /// legal move; falls back to coordinate notation.
    pub fn parse_san(&self, text: &str) -> Result<Move, Error> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        match self.match_san(text, &list) {
            Ok(m) => Ok(m),
            Err(e) if e.kind == ErrorKind::AmbiguousMove => Err(e),
            Err(e) => self.parse_uci(text.trim()).or(Err(e)),
        }
    }

    fn match_san(&self, text: &str, legal: &[Move]) -> Result<Move, Error> {
        let fen = || self.fen();
        let size = self.tables.geo.size;
        let body = strip_annotations(text.trim());
        if body.is_empty() {
            return Err(Error::mv(ErrorKind::InvalidMove, text, format!("empty move text in {}", fen())));
        }
        if let Some(king_side) = castling_side(body) {
            let found = legal.iter().copied().find(|m| {
                m.special() == Special::Castle && (size.file_of(m.to()) > size.file_of(m.from())) == king_side
            });
            return found.ok_or_else(|| {
                Error::mv(ErrorKind::IllegalMove, text, format!("castling {text:?} is not legal in {}", fen()))
            });
        }
        let parts = self.split_san(body).map_err(|why| {
            Error::mv(ErrorKind::InvalidMove, text, format!("cannot read {text:?} as SAN ({why}) in {}", fen()))
        })?;
        let fits = |m: &&Move| {
            m.to() == parts.to
                && parts.from_file.is_none_or(|f| size.file_of(m.from()) == f)
                && parts.from_rank.is_none_or(|r| size.rank_of(m.from()) == r)
                && self.piece_at(m.from()).is_some_and(|p| p.kind == parts.kind)
        };
        let matches: Vec<Move> =
            legal.iter().filter(fits).filter(|m| m.promotion() == parts.promotion).copied().collect();
        match matches.len() {
            1 => Ok(matches[0]),
            0 => {
                let why = if !legal.iter().any(|m| fits(&m)) {
                    "no legal move matches"
                } else if parts.promotion.is_none() {
                    "a promotion piece is required for"
                } else {
                    "that promotion is not allowed for"
                };
                Err(Error::mv(ErrorKind::IllegalMove, text, format!("{why} {text:?} in {}", fen())))
            }
            _ => {
                let names: Vec<String> = matches.iter().map(|&m| self.san_in(m, legal)).collect();
                Err(Error::mv(
                    ErrorKind::AmbiguousMove,
                    text,
                    format!("{text:?} matches {} in {}", names.join(", "), fen()),
                ))
            }
        }
    }

    /// Split SAN (annotations already stripped, not castling) into parts.
    fn split_san(&self, body: &str) -> Result<SanParts, &'static str> {
        let size = self.tables.geo.size;
        if !body.is_ascii() {
            return Err("unexpected characters");
        }
        let mut rest = body;
        // Promotion: `=X`, or a letter right after the destination's digits.
        let mut promotion = None;
        let v = &self.tables.variant;
        // A primed symbol (`A'`) is its letter and a prime.
        let primed = rest.ends_with('\'');
        let core = if primed { &rest[..rest.len() - 1] } else { rest };
        let b = core.as_bytes();
        let n = b.len();
        let promo_letter = if n >= 2 && b[n - 2] == b'=' {
            let c = b[n - 1] as char;
            rest = &core[..n - 2];
            Some(c)
        } else if n >= 2 && b[n - 1].is_ascii_alphabetic() && b[n - 2].is_ascii_digit() {
            let c = b[n - 1] as char;
            rest = &core[..n - 1];
            Some(c)
        } else if primed {
            return Err("a prime without a promotion letter");
        } else {
            None
        };
        if let Some(c) = promo_letter {
            let sym = format!("{}{}", c.to_ascii_uppercase(), if primed { "'" } else { "" });
            let k = v.kind_of_symbol(&sym).filter(|_| c.is_ascii_alphabetic()).ok_or("unknown promotion letter")?;
            promotion = Some(k);
        }
        // Destination: the last lower-case letter and the digits after it.
        let b = rest.as_bytes();
        let at = b.iter().rposition(|c| c.is_ascii_lowercase()).ok_or("no destination square")?;
        let to = size.parse_square(&rest[at..]).ok_or("bad destination square")?;
        let mut prefix = &rest[..at];
        if let Some(p) = prefix.strip_suffix(['x', '-', ':']) {
            prefix = p;
        }
        // Prefix: optional upper-case piece letter, origin file, origin rank.
        let kind;
        if let Some(c) = prefix.chars().next().filter(|c| c.is_ascii_uppercase()) {
            let primed = prefix[1..].starts_with('\'');
            let sym = format!("{c}{}", if primed { "'" } else { "" });
            kind = v.kind_of_symbol(&sym).ok_or("unknown piece letter")?;
            prefix = &prefix[sym.len()..];
        } else {
            kind = v.kind_of_symbol("P").ok_or("no piece letter, and the variant has no pawn")?;
        }
        let mut from_file = None;
        if let Some(c) = prefix.bytes().next().filter(|c| c.is_ascii_lowercase()) {
            if c - b'a' >= size.files {
                return Err("origin file is not on the board");
            }
            from_file = Some(c - b'a');
            prefix = &prefix[1..];
        }
        let mut from_rank = None;
        if !prefix.is_empty() {
            let r: u8 = prefix
                .parse()
                .ok()
                .filter(|r| (1..=size.ranks).contains(r) && !prefix.starts_with('0'))
                .ok_or("bad origin")?;
            from_rank = Some(r - 1);
        }
        Ok(SanParts { kind, from_file, from_rank, to, promotion })
    }
}

/// The shortest origin hint that tells `from` apart from `others`: the file
/// when no other shares it, else the rank when no other shares that, else
/// both (the chess rule).
fn disambiguation(size: crate::geometry::Size, from: usize, others: &[usize]) -> String {
    let (ff, fr) = (size.file_of(from), size.rank_of(from));
    let file_char = ((b'a' + ff) as char).to_string();
    let rank_text = (fr + 1).to_string();
    if !others.iter().any(|&o| size.file_of(o) == ff) {
        file_char
    } else if !others.iter().any(|&o| size.rank_of(o) == fr) {
        rank_text
    } else {
        file_char + &rank_text
    }
}

/// `#` for checkmate, `+` for check, nothing otherwise (never `#` after a
/// shocking move: the game ended by shock, not by checkmate).
fn check_marker<B: BitSet>(after: &Position<B>) -> &'static str {
    if !after.is_check() {
        ""
    } else if !after.is_shocked() && !after.has_legal_move() {
        "#"
    } else {
        "+"
    }
}

/// Remove trailing check/mate markers, move annotations and `e.p.`.
fn strip_annotations(mut s: &str) -> &str {
    loop {
        let t = s.trim_end();
        let t = t.strip_suffix("e.p.").unwrap_or(t).trim_end();
        let t = t.trim_end_matches(['+', '#', '!', '?']);
        if t.len() == s.len() {
            return t;
        }
        s = t;
    }
}

/// `Some(true)` for king-side castling text, `Some(false)` for queen side.
fn castling_side(s: &str) -> Option<bool> {
    match s {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    }
}

impl AnyPosition {
    /// SAN of a legal move (see [`Position::san`]).
    pub fn san(&self, m: Move) -> String {
        with_pos!(self, p => p.san(m))
    }
    /// Parse SAN (or, as a fallback, coordinate notation) into a legal move
    /// (see [`Position::parse_san`]).
    pub fn parse_san(&self, text: &str) -> Result<Move, Error> {
        with_pos!(self, p => p.parse_san(text))
    }
}

impl Board {
    /// Parse SAN (or coordinate notation) in the current position and play
    /// the move; returns it.
    pub fn push_san(&mut self, text: &str) -> Result<Move, Error> {
        let m = self.pos.parse_san(text)?;
        self.push_unchecked(m);
        Ok(m)
    }
}
