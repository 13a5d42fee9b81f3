//! FEN parsing, validation and writing (RULES.md §2.2). Every rejection
//! names the FEN field and the problem.

use crate::bitboard::BitSet;
use crate::board::position::Position;
use crate::error::Error;
use crate::geometry::NO_SQ;
use crate::piece::{Color, Piece};
use crate::rules::castling;
use crate::rules::tables::Tables;

impl<B: BitSet> Position<B> {
    /// Parse and validate a FEN for the tables' variant. Four-field FENs are
    /// read with clocks `0 1`.
    pub fn from_fen(tables: &'static Tables<B>, fen: &str) -> Result<Position<B>, Error> {
        let v = &tables.variant;
        let size = v.size;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(Error::fen("fields", format!("expected 6 (or 4) fields, found {}", fields.len())));
        }
        let mut pos = Position::empty(tables);
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != size.ranks as usize {
            return Err(Error::fen(
                "placement",
                format!("{} ranks given, the {} board has {}", rows.len(), v.name, size.ranks),
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = size.ranks - 1 - i as u8;
            let rank_name = rank + 1;
            let mut file: usize = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(Error::fen("placement", format!("rank {rank_name}: empty run of 0 squares")));
                    }
                    let mut run = d as usize;
                    if let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                        chars.next();
                        run = run * 10 + d2 as usize;
                    }
                    file += run;
                    continue;
                }
                let mut sym = c.to_string();
                if chars.peek() == Some(&'\'') {
                    chars.next();
                    sym.push('\'');
                }
                let Some(p) = v.piece_of_symbol(&sym) else {
                    // A catalogue letter names the piece it usually is.
                    let message = match crate::rules::definition::catalog_name(&sym.to_ascii_uppercase()) {
                        Some(name) => format!(
                            "rank {rank_name}: piece '{sym}' ({} {name}) is not in the {} piece set",
                            if c.is_ascii_uppercase() { "white" } else { "black" },
                            v.name
                        ),
                        None => format!("rank {rank_name}: unknown piece letter '{sym}'"),
                    };
                    return Err(Error::fen("placement", message));
                };
                if !v.pieces[p.color].has(p.kind) {
                    return Err(Error::fen(
                        "placement",
                        format!(
                            "rank {rank_name}: piece '{sym}' ({} {}) is not in the {} piece set",
                            if p.color == Color::White { "white" } else { "black" },
                            v.spec(p.kind).name,
                            v.name
                        ),
                    ));
                }
                if file >= size.files as usize {
                    return Err(Error::fen("placement", format!("rank {rank_name}: more than {} files", size.files)));
                }
                if v.forbidden_ranks.contains(&(p.color, p.kind, rank)) {
                    return Err(Error::fen(
                        "placement",
                        format!(
                            "{} {} on {} (rank {rank_name}) is not allowed",
                            color_name(p.color),
                            v.spec(p.kind).name,
                            { size.square_name(size.square(file as u8, rank)) }
                        ),
                    ));
                }
                pos.put(size.square(file as u8, rank), p);
                file += 1;
            }
            if file != size.files as usize {
                return Err(Error::fen(
                    "placement",
                    format!("rank {rank_name} has {file} files, the {} board has {}", v.name, size.files),
                ));
            }
        }
        pos.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(Error::fen("side to move", format!("expected 'w' or 'b', found {s:?}"))),
        };
        if pos.turn == Color::Black {
            pos.key ^= crate::zobrist::side();
        }
        for c in Color::BOTH {
            let n = pos.royals(c).count();
            let rc = v.royal_count[c];
            if n < rc.min || n > rc.max {
                let names: Vec<&str> = v.royal[c].kinds().map(|k| v.spec(k).name.as_str()).collect();
                let want =
                    if rc.min == rc.max { format!("exactly {}", rc.min) } else { format!("{} to {}", rc.min, rc.max) };
                return Err(Error::fen(
                    "placement",
                    format!("{} has {n} royal {} (needs {want})", color_name(c), names.join("/")),
                ));
            }
        }
        let castling = parse_castling(&pos, fields[2])?;
        let (ep, victim) = parse_ep(&pos, fields[3])?;
        let (halfmove, fullmove) = if fields.len() == 6 {
            let h = fields[4].parse::<u32>().map_err(|_| {
                Error::fen("halfmove clock", format!("expected a non-negative integer, found {:?}", fields[4]))
            })?;
            let f = fields[5].parse::<u32>().ok().filter(|&f| f >= 1).ok_or_else(|| {
                Error::fen("fullmove number", format!("expected a positive integer, found {:?}", fields[5]))
            })?;
            (h, f)
        } else {
            (0, 1)
        };
        pos.halfmove = halfmove;
        pos.fullmove = fullmove;
        let them = pos.turn.flip();
        if pos.royals(them).squares().any(|sq| pos.is_attacked(sq, pos.turn)) {
            return Err(Error::fen("side to move", format!("{} is not to move but is in check", color_name(them))));
        }
        // Keep (and hash) the en-passant target only when a legal capture
        // onto it exists, as `make` does.
        pos.refresh();
        pos.set_state(castling, ep, victim);
        if !pos.ep_capture_legal() {
            pos.set_state(castling, NO_SQ, NO_SQ);
        }
        Ok(pos)
    }

    /// The FEN of the position. The en-passant square is written only when a
    /// legal en-passant capture exists (as python-chess does).
    pub fn fen(&self) -> String {
        let size = self.tables.geo.size;
        let mut s = String::new();
        for rank in (0..size.ranks).rev() {
            let mut run = 0;
            for file in 0..size.files {
                match self.piece_at(size.square(file, rank)) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s += &self.tables.variant.symbol(p);
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.turn == Color::White { 'w' } else { 'b' });
        s.push(' ');
        let mut c = String::new();
        for (color, side) in [(Color::White, 0), (Color::White, 1), (Color::Black, 0), (Color::Black, 1)] {
            let ch = castling::letter(color, side);
            if self.castling & castling::right(color, side) != 0 {
                c.push(ch);
            }
        }
        s += if c.is_empty() { "-" } else { &c };
        s.push(' ');
        match self.legal_ep_square() {
            Some(sq) => s += &size.square_name(sq),
            None => s.push('-'),
        }
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    /// The en-passant square when a legal en-passant capture exists (the
    /// only case in which the position keeps one).
    pub fn legal_ep_square(&self) -> Option<usize> {
        (self.ep != NO_SQ).then_some(self.ep as usize)
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn parse_castling<B: BitSet>(pos: &Position<B>, field: &str) -> Result<u8, Error> {
    if field == "-" {
        return Ok(0);
    }
    let t = pos.tables;
    let size = t.geo.size;
    let mut rights = 0u8;
    for ch in field.chars() {
        let (color, side) = match ch {
            'K' => (Color::White, 0),
            'Q' => (Color::White, 1),
            'k' => (Color::Black, 0),
            'q' => (Color::Black, 1),
            _ => return Err(Error::fen("castling", format!("unexpected character {ch:?} (use KQkq or -)"))),
        };
        let bit = castling::right(color, side);
        if rights & bit != 0 {
            return Err(Error::fen("castling", format!("{ch:?} is given twice")));
        }
        let Some(cs) = t.variant.castling[color] else {
            return Err(Error::fen("castling", format!("{} cannot castle in {}", color_name(color), t.variant.name)));
        };
        let rank = castling::back_rank(color, size.ranks);
        let king = size.square(cs.king_from, rank);
        let rook = size.square(cs.moves[side].rook_from, rank);
        let has = |sq: usize, kind: crate::piece::Kind| pos.piece_at(sq) == Some(Piece { color, kind });
        if !has(king, cs.king) {
            return Err(Error::fen(
                "castling",
                format!("right {ch:?} needs the {} king on {}", color_name(color), size.square_name(king)),
            ));
        }
        if !has(rook, cs.rook) {
            return Err(Error::fen(
                "castling",
                format!("right {ch:?} needs a {} rook on {}", color_name(color), size.square_name(rook)),
            ));
        }
        rights |= bit;
    }
    Ok(rights)
}

/// The en-passant field: the square a piece of the side not to move just
/// crossed with a double step; returns (target, victim square).
fn parse_ep<B: BitSet>(pos: &Position<B>, field: &str) -> Result<(u8, u8), Error> {
    if field == "-" {
        return Ok((NO_SQ, NO_SQ));
    }
    let t = pos.tables;
    let v = &t.variant;
    let size = t.geo.size;
    let sq = size
        .parse_square(field)
        .ok_or_else(|| Error::fen("en passant", format!("{field:?} is not a square of the board")))?;
    let them = pos.turn.flip();
    let kt = &t.kinds[them];
    let fwd: isize = if them == Color::White { 1 } else { -1 };
    let files = size.files as isize;
    let origin = sq as isize - fwd * files;
    let victim = sq as isize + fwd * files;
    let bad = || {
        Error::fen(
            "en passant",
            format!("{field} is not behind a {} piece that could have just double-stepped", color_name(them)),
        )
    };
    let on_board = |s: isize| (0..size.squares() as isize).contains(&s);
    if !on_board(origin) || !on_board(victim) || !t.double_rank[them].has(origin as usize) {
        return Err(bad());
    }
    let (origin, victim) = (origin as usize, victim as usize);
    // The victim stands as it is after the double step: in Burden the pawn
    // has already evolved into a knight (§5.2), so a pawn there cannot have
    // just double-stepped.
    let victim_ok = pos.piece_at(victim).is_some_and(|p| {
        p.color == them && t.kind_list[them].iter().any(|&k| kt[k.idx()].double_step && p.kind == v.evolve[k.idx()])
    });
    if !victim_ok || pos.piece_at(sq).is_some() || pos.piece_at(origin).is_some() {
        return Err(bad());
    }
    Ok((sq as u8, victim as u8))
}
