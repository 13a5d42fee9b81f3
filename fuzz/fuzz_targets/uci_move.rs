//! Coordinate moves: the input's first byte picks one of the shared
//! boards, the rest is whitespace-separated words, read by
//! `parse_coordinates` and, as a game from the board, by `parse_uci`. A word
//! read must name squares on a 12x12 board and write back to itself; a move
//! read must be legal and its `uci` text must read back to the same move. A
//! legal word is played, so later words reach deeper positions.
#![no_main]

use fairyforge::parse_coordinates;
use fairyforge_fuzz::board_and_text;
use libfuzzer_sys::fuzz_target;

/// Words read per input (a game longer than this adds little).
const MAX_WORDS: usize = 32;

fuzz_target!(|data: &[u8]| {
    let Some((board, text)) = board_and_text(data) else { return };
    let mut pos = board.pos;
    for word in text.split_whitespace().take(MAX_WORDS) {
        if let Ok(c) = parse_coordinates(word) {
            let square = |(f, r): (u8, u8)| {
                assert!(f < 12 && r < 12, "{word:?}: square ({f}, {r}) is off a 12x12 board");
                format!("{}{}", (b'a' + f) as char, r + 1)
            };
            let written = square(c.from) + &square(c.to) + &c.promotion.map(String::from).unwrap_or_default();
            assert_eq!(written, word, "coordinates do not write back to the text read");
        }
        let Ok(m) = pos.parse_uci(word) else { continue };
        let fen = pos.fen();
        assert!(pos.legal_moves().contains(&m), "{word:?} read as an illegal move in {fen}");
        let uci = pos.uci(m);
        assert_eq!(pos.parse_uci(&uci).ok(), Some(m), "{uci:?} (from {word:?}) does not read back in {fen}");
        assert!(parse_coordinates(&uci).is_ok(), "{uci:?} is not coordinate text");
        pos = pos.after(m);
    }
});
