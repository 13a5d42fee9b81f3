//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz`) found to break the
//! engine, kept as tests: each failed before its fix. The test profile has
//! debug assertions and overflow checks on, as the fuzz builds do.

use fairyforge::{AnyPosition, ErrorKind, Variant};

fn variant(name: &str, options: &[(&str, &str)]) -> Variant {
    let pairs: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Variant::new(name, &pairs).unwrap()
}

/// Fuzz target `fen`: an en-passant square on the last rank of the side to
/// move put the double step's origin off the board, and looking it up
/// overflowed a shift (a panic with overflow checks, a wrapped square
/// without).
#[test]
fn an_en_passant_square_whose_origin_is_off_the_board_is_refused() {
    for (v, fen) in [
        (variant("chess", &[]), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPQ/RNBQKBNR w KQ f8 0 3"),
        (
            variant("burden", &[("files", "12"), ("middle_gap", "2")]),
            "12/pppppppppppp/pppppppppppp/pppppppppppp/12/12/PPPPPPPPPPPP/PPPPPPPPPPPP/PPPPPPPPPPPP/12 w - l10 0 1",
        ),
    ] {
        let e = AnyPosition::new(&v, Some(fen)).err().unwrap_or_else(|| panic!("{fen} was accepted"));
        assert_eq!((e.kind, e.field.as_str()), (ErrorKind::Fen, "en passant"), "{fen}: {e}");
    }
}
