//! Text the protocols print: the board diagram of `d` (both), the `eval`
//! line (UCI) and the result line of a finished game.

use crate::board::game::Board;
use crate::board::outcome::{Outcome, Termination};
use crate::piece::Color;

/// The board as Stockfish's `d` draws it, then the variant, FEN and key.
pub(crate) fn diagram(board: &Board) -> String {
    let size = board.variant.size;
    let rule = format!(" +{}\n", "---+".repeat(size.files as usize));
    let mut s = rule.clone();
    for r in (0..size.ranks).rev() {
        s.push_str(" |");
        for f in 0..size.files {
            let c = board.pos.piece_at(size.square(f, r)).map_or(" ".to_string(), |p| board.variant.symbol(p));
            s.push_str(&format!(" {c:<2}|"));
        }
        s.push_str(&format!(" {}\n", r + 1));
        s.push_str(&rule);
    }
    s.push(' ');
    for f in 0..size.files {
        s.push_str(&format!("  {} ", (b'a' + f) as char));
    }
    s.push_str("\n\n");
    s.push_str(&format!("Variant: {}\n", board.variant.name));
    s.push_str(&format!("Fen: {}\n", board.pos.fen()));
    s.push_str(&format!("Key: {:016X}\n", board.pos.key()));
    s
}

/// Stockfish's `eval` summary line for a score in centipawns (White's
/// view), in pawns.
pub(crate) fn final_evaluation(white_cp: i32) -> String {
    let sign = if white_cp < 0 { '-' } else { '+' };
    let a = white_cp.unsigned_abs();
    format!("Final evaluation       {sign}{}.{:02} (white side)", a / 100, a % 100)
}

/// How a game has ended for a protocol: the automatic endings of
/// [`Board::outcome`], and the threefold-repetition and fifty-move draws
/// as soon as they hold (XBoard expects the engine to claim them).
pub(crate) fn game_end(board: &Board) -> Option<Outcome> {
    board.outcome(false).or_else(|| {
        let draw = |termination| Outcome { termination, winner: None, points: None };
        if board.is_repetition(3) {
            Some(draw(Termination::ThreefoldRepetition))
        } else if board.is_fifty_moves() {
            Some(draw(Termination::FiftyMoves))
        } else {
            None
        }
    })
}

/// The PGN-style result line of a finished game, as XBoard reads it:
/// `1-0 {White mates}`, with Burden's points (§5.4) where the game scores.
pub(crate) fn result_line(o: &Outcome) -> String {
    let side = |c: Color| if c == Color::White { "White" } else { "Black" };
    let reason = match (o.termination, o.winner) {
        (Termination::Checkmate, Some(w)) => format!("{} mates", side(w)),
        (Termination::Stalemate, Some(w)) => format!("{} wins by stalemate", side(w)),
        (Termination::Stalemate, None) => "Stalemate".into(),
        (Termination::Shock, Some(w)) => format!("{} is shocked", side(w.flip())),
        (Termination::Extinction, Some(w)) => format!("{} wins by extinction", side(w)),
        (Termination::ThreefoldRepetition, _) => "Draw by repetition".into(),
        (Termination::FivefoldRepetition, _) => "Draw by fivefold repetition".into(),
        (Termination::FiftyMoves, _) => "Draw by fifty-move rule".into(),
        (Termination::SeventyFiveMoves, _) => "Draw by seventy-five-move rule".into(),
        (Termination::InsufficientMaterial, _) => "Insufficient material".into(),
        (t, _) => t.name().replace('_', " "),
    };
    match o.points {
        Some((w, b)) => format!("{} {{{reason}, points {w}-{b}}}", o.result()),
        None => format!("{} {{{reason}}}", o.result()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::Variant;

    #[test]
    fn results_name_the_winner_and_the_reason() {
        let mut b = Board::new(Variant::chess(), None).unwrap();
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let mv = b.pos.parse_uci(m).unwrap();
            b.push(mv).unwrap();
        }
        assert_eq!(result_line(&game_end(&b).unwrap()), "0-1 {Black mates}");
        let shocked = Board::new(Variant::shocking(), Some("3ct3/8/8/8/8/8/8/4K3 w - - 0 1")).unwrap();
        assert_eq!(result_line(&game_end(&shocked).unwrap()), "1-0 {Black is shocked}");
        let d = diagram(&b);
        assert!(d.contains(" | r | n | b |   | k | b | n | r | 8\n"), "{d}");
        assert!(d.contains("Fen: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n"), "{d}");
    }
}
