//! Burden options: each input line is a `key=value` pair (a line without
//! `=` is a key with an empty value). A variant that builds must have a
//! valid start position, which reads back from its FEN and whose perft(2)
//! is the sum of perft(1) over its moves.
#![no_main]

use fairyforge::{AnyPosition, Board, Variant};
use libfuzzer_sys::fuzz_target;

/// Option lines read per input (Burden has nine options).
const MAX_PAIRS: usize = 16;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let pairs: Vec<(String, String)> = text
        .lines()
        .take(MAX_PAIRS)
        .map(|line| {
            let (k, v) = line.split_once('=').unwrap_or((line, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    let Ok(variant) = Variant::new("burden", &pairs) else { return };
    let board = Board::new(variant.clone(), None)
        .unwrap_or_else(|e| panic!("options {pairs:?} build a variant whose start position is refused: {e:?}"));
    let fen = board.pos.fen();
    let again = AnyPosition::new(&variant, Some(&fen)).expect("the start FEN reads back");
    assert_eq!(again.fen(), fen);
    let by_move: u64 = board.pos.legal_moves().iter().map(|&m| board.pos.after(m).perft(1)).sum();
    assert_eq!(board.pos.perft(2), by_move, "perft(2) of {fen:?} with {pairs:?}");
});
