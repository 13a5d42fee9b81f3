//! FEN reading in every variant: any text either is refused with an error
//! or gives a position whose FEN reads back to itself (same FEN, same
//! Zobrist key) and whose move list agrees with perft(1); so does the
//! position after each legal move (the incremental key included).
#![no_main]

use fairyforge::{AnyPosition, Variant};
use fairyforge_fuzz::VARIANTS;
use libfuzzer_sys::fuzz_target;

/// Check that `pos` writes a FEN that reads back to the same position.
fn reads_back(variant: &Variant, pos: &AnyPosition) {
    let fen = pos.fen();
    let again = AnyPosition::new(variant, Some(&fen))
        .unwrap_or_else(|e| panic!("{}: {fen:?} does not read back: {e:?}", variant.name));
    assert_eq!(again.fen(), fen, "{}: FEN changes on reading back", variant.name);
    assert_eq!(again.key(), pos.key(), "{}: key changes on reading back {fen:?}", variant.name);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for variant in VARIANTS.iter() {
        let Ok(pos) = AnyPosition::new(variant, Some(&text)) else { continue };
        reads_back(variant, &pos);
        let legal = pos.legal_moves();
        let fen = pos.fen();
        assert_eq!(legal.len() as u64, pos.perft(1), "{}: legal moves and perft(1) differ in {fen:?}", variant.name);
        assert_eq!(pos.has_legal_move(), !legal.is_empty(), "{}: has_legal_move is wrong in {fen:?}", variant.name);
        for &m in &legal {
            reads_back(variant, &pos.after(m));
        }
    }
});
