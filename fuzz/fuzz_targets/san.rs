//! SAN: the input's first byte picks one of the shared boards, the rest is
//! whitespace-separated words played with `Board::push_san` as a game from
//! it. A word read must be a legal move, played as read, and the move's
//! `san` text must read back to it; in the last position reached, every
//! legal move's SAN must read back to the move.
#![no_main]

use fairyforge::{AnyPosition, Move};
use fairyforge_fuzz::board_and_text;
use libfuzzer_sys::fuzz_target;

/// Words read per input.
const MAX_WORDS: usize = 32;

/// Check that the SAN of `m` in `pos` reads back to `m`.
fn san_reads_back(pos: &AnyPosition, m: Move) {
    let san = pos.san(m);
    assert_eq!(pos.parse_san(&san).ok(), Some(m), "SAN {san:?} does not read back in {}", pos.fen());
}

fuzz_target!(|data: &[u8]| {
    let Some((start, text)) = board_and_text(data) else { return };
    let mut board = start.clone();
    for word in text.split_whitespace().take(MAX_WORDS) {
        let before = board.pos;
        let Ok(m) = board.push_san(word) else { continue };
        assert!(before.legal_moves().contains(&m), "{word:?} read as an illegal move in {}", before.fen());
        assert_eq!(board.pos.fen(), before.after(m).fen(), "push_san did not play the move it read");
        san_reads_back(&before, m);
    }
    if !board.history.is_empty() {
        for m in board.pos.legal_moves() {
            san_reads_back(&board.pos, m);
        }
    }
});
