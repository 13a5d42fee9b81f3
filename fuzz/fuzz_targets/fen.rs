//! FEN reading in every variant: any text either is refused with an error
//! or gives a position whose FEN reads back to itself (same FEN, same
//! Zobrist key) and whose move list agrees with perft(1).
#![no_main]

use fairyforge::AnyPosition;
use fairyforge_fuzz::VARIANTS;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in VARIANTS.iter() {
        let Ok(pos) = AnyPosition::new(variant, Some(&text)) else { continue };
        let fen = pos.fen();
        let again = AnyPosition::new(variant, Some(&fen))
            .unwrap_or_else(|e| panic!("{}: {fen:?} (from {text:?}) does not read back: {e:?}", variant.name));
        assert_eq!(again.fen(), fen, "{}: FEN changes on reading back", variant.name);
        assert_eq!(again.key(), pos.key(), "{}: key changes on reading back {fen:?}", variant.name);
        let legal = pos.legal_moves();
        assert_eq!(legal.len() as u64, pos.perft(1), "{}: legal moves and perft(1) differ in {fen:?}", variant.name);
        assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{}: has_legal_move is wrong in {fen:?}", variant.name);
    }
});
