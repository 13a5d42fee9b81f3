//! FIDE chess FEN validation (RULES.md §2.2), one test per rejection rule,
//! and copy-make consistency: seeded random walks in every variant checking
//! that the incrementally kept Zobrist key and the FEN survive a round trip
//! through the FEN parser.

use fairyforge::{AnyPosition, Error, ErrorKind, Variant};

mod common;
use common::XorShift;

fn chess() -> Variant {
    Variant::new("chess", &[]).unwrap()
}

fn err(fen: &str) -> Error {
    match AnyPosition::new(&chess(), Some(fen)) {
        Ok(p) => panic!("{fen} was accepted as {}", p.fen()),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Fen, "{e}");
            e
        }
    }
}

/// Assert the FEN is rejected in `field` with a message containing `part`.
fn rejects(fen: &str, field: &str, part: &str) {
    let e = err(fen);
    assert_eq!(e.field, field, "{fen}: {e}");
    assert!(e.message.contains(part), "{fen}: {:?} does not contain {part:?}", e.message);
    assert!(e.to_string().contains(field), "the display names the field: {e}");
}

fn ok(fen: &str) -> AnyPosition {
    AnyPosition::new(&chess(), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn start_fen_round_trips() {
    assert_eq!(ok(START).fen(), START);
    assert_eq!(AnyPosition::new(&chess(), None).unwrap().fen(), START);
}

#[test]
fn rejects_wrong_field_count() {
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields", "found 3");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "fields", "found 5");
    rejects("", "fields", "found 0");
}

#[test]
fn rejects_wrong_shape() {
    rejects("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "7 ranks given");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "9 ranks given");
    rejects("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 6 has 9 files");
    rejects("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "more than 8 files");
    rejects("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "rank 7 has 7 files");
    // Decision: a run starting with 0 ("08") is rejected (as python-chess
    // does); two-digit runs (10 to 12) are for the larger boards.
    rejects("rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "empty run of 0");
}

#[test]
fn rejects_unknown_letter() {
    rejects("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "unknown piece letter 'x'");
}

#[test]
fn rejects_piece_outside_the_set() {
    // Letters are the variant's; a catalogue letter is named as what it
    // usually is: a Core is no chess piece...
    rejects("rnbqkbnr/ppppcppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "not in the chess piece set");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNH w Qkq - 0 1", "placement", "not in the chess piece set");
    // ...and in Shocking Chess it is a piece of the Network only.
    let shocking = fairyforge::Variant::shocking();
    let e =
        AnyPosition::new(&shocking, Some("dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNC w - - 0 1")).err().unwrap();
    assert!(e.message.contains("not in the shocking piece set"), "{e}");
}

#[test]
fn rejects_pawn_on_first_or_last_rank() {
    rejects("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w Qkq - 0 1", "placement", "pawn on h8");
    rejects("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/pNBQKBNR w Kkq - 0 1", "placement", "pawn on a1");
    rejects("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "placement", "pawn on a1");
    rejects("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "pawn on a8");
}

#[test]
fn rejects_wrong_king_count() {
    rejects("4k3/8/8/8/8/8/8/8 w - - 0 1", "placement", "White has 0 royal king (needs exactly 1)");
    rejects("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "placement", "White has 2 royal king");
    rejects("8/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "Black has 0 royal king");
    rejects("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "placement", "Black has 2 royal king");
}

#[test]
fn rejects_side_not_to_move_in_check() {
    rejects("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "side to move", "Black is not to move but is in check");
    rejects("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "side to move", "White is not to move but is in check");
    // The side to move may be in check.
    assert!(ok("4k3/8/8/8/8/8/8/4RK2 b - - 0 1").is_check());
}

#[test]
fn rejects_bad_side_to_move() {
    rejects("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move", "expected 'w' or 'b'");
}

#[test]
fn rejects_castling_rights_without_king_or_rook() {
    rejects("4k3/8/8/8/8/8/8/5K1R w K - 0 1", "castling", "needs the White king on e1");
    rejects("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling", "needs a White rook on h1");
    rejects("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling", "needs a White rook on h1");
    rejects("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "castling", "needs a Black rook on h8");
    rejects("r6k/8/8/8/8/8/8/4K3 w q - 0 1", "castling", "needs the Black king on e8");
    rejects(START.replace("KQkq", "KQkqK").as_str(), "castling", "given twice");
    rejects(START.replace("KQkq", "KX").as_str(), "castling", "unexpected character 'X'");
    // Matching rights are accepted in any order.
    assert_eq!(ok(&START.replace("KQkq", "qkQK")).fen(), START);
}

#[test]
fn rejects_en_passant_not_behind_a_double_stepped_pawn() {
    // White to move: the target must be on rank 6 behind a Black pawn on
    // rank 5, with the pawn's origin square empty.
    rejects("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", "en passant", "could have just double-stepped");
    rejects("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "en passant", "not a square");
    // Consistent squares are accepted; the FEN shows them only when a legal
    // en-passant capture exists (as python-chess does).
    assert_eq!(ok("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1").fen(), "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1");
    assert_eq!(ok("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1").fen(), "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    assert_eq!(ok("4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1").fen(), "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
}

#[test]
fn rejects_bad_clocks() {
    rejects("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock", "non-negative integer");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock", "non-negative integer");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number", "positive integer");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number", "positive integer");
    rejects("4k3/8/8/8/8/8/8/4K3 w - - 0 y", "fullmove number", "positive integer");
    assert_eq!(ok("4k3/8/8/8/8/8/8/4K3 w - - 49 120").fen(), "4k3/8/8/8/8/8/8/4K3 w - - 49 120");
}

#[test]
fn accepts_four_field_fen_as_0_1() {
    let p = ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(p.fen(), START);
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(p.fullmove_number(), 1);
    assert_eq!(p.key(), ok(START).key());
}

#[test]
fn pinned_en_passant_is_not_in_fen_or_key() {
    // Decision: a position keeps (and hashes) the en-passant square only
    // when a legal en-passant capture exists, as its FEN shows it; so the
    // incremental key always equals the key of the position read from the
    // FEN. After c7-c5 the b5 pawn could take en passant only by exposing
    // its king on a5 to the rook on h5: no legal capture, no square.
    let p = ok("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1");
    let p = p.after(p.parse_uci("c7c5").unwrap());
    assert_eq!(p.fen(), "8/8/8/KPp4r/8/8/8/4k3 w - - 0 2");
    assert!(p.legal_moves().iter().all(|m| m.special() != fairyforge::Special::EnPassant));
    assert_eq!(ok(&p.fen()).key(), p.key());
    // Unpinned, the capture is legal and the square is shown and hashed.
    let p = ok("8/2p5/8/1P5r/K7/8/8/4k3 b - - 0 1");
    let p = p.after(p.parse_uci("c7c5").unwrap());
    assert_eq!(p.fen(), "8/8/8/1Pp4r/K7/8/8/4k3 w - c6 0 2");
    assert_eq!(ok(&p.fen()).key(), p.key());
    assert_ne!(ok("8/8/8/1Pp4r/K7/8/8/4k3 w - - 0 2").key(), p.key());
}

// ------------------------------------------------------- random walks

/// Walk `walks` random games of up to `plies` plies from each start FEN,
/// checking at every position that its FEN parses back to the same FEN and
/// the same Zobrist key (the key kept incrementally by copy-make equals the
/// key computed from scratch by the parser).
fn walk(variant: &Variant, starts: &[Option<&str>], seed: u64, walks: usize, plies: usize) -> usize {
    let mut rng = XorShift(seed);
    let mut checked = 0;
    for w in 0..walks {
        let mut p = AnyPosition::new(variant, starts[w % starts.len()]).unwrap();
        for _ in 0..plies {
            let fen = p.fen();
            let q = AnyPosition::new(variant, Some(&fen)).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(q.fen(), fen, "{} {:?}", variant.name, variant.options);
            assert_eq!(q.key(), p.key(), "key mismatch at {fen} ({} {:?})", variant.name, variant.options);
            assert_eq!(q.legal_moves().len(), p.legal_moves().len(), "{fen}");
            assert_eq!(q.is_check(), p.is_check(), "{fen}");
            checked += 1;
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            p = p.after(m);
        }
    }
    checked
}

fn o(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn random_walks_chess() {
    let starts = [
        None,
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        Some("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ];
    assert!(walk(&chess(), &starts, 0x9e37_79b9_7f4a_7c15, 60, 200) > 4000);
}

#[test]
fn random_walks_shocking() {
    let v = Variant::new("shocking", &[]).unwrap();
    let starts = [
        None,
        Some("1c1m2c1/8/d7/5a1v/1t6/8/PPPPPPPP/R3K2R w KQ - 0 1"),
        Some("c6c/8/8/2d1v3/7K/8/2t2aP1/1RN2B2 b - - 0 1"),
    ];
    assert!(walk(&v, &starts, 0x1234_5678_9abc_def1, 90, 200) > 2000);
}

#[test]
fn random_walks_burden() {
    let mut checked = 0;
    for (i, options) in [
        o(&[]),
        o(&[("cycle", "pawn")]),
        o(&[("cycle", "knight"), ("royal_may_move_into_check", "true")]),
        o(&[("royal", "maharajah")]),
        o(&[("royal", "gryphon"), ("cycle", "knight")]),
        o(&[("files", "10"), ("middle_gap", "2")]),
        o(&[("files", "12"), ("back_gap", "0"), ("pawn_ranks", "5"), ("army", "knights")]),
        o(&[("files", "6"), ("pawn_ranks", "1"), ("back_gap", "1"), ("middle_gap", "1")]),
        o(&[("preset", "wittman"), ("royal", "gryphon")]),
    ]
    .iter()
    .enumerate()
    {
        let v = Variant::new("burden", options).unwrap();
        checked += walk(&v, &[None], 0xdead_beef_0000_0001 + i as u64, 20, 250);
    }
    assert!(checked > 10_000);
}

#[test]
fn random_walks_evolution() {
    let v = Variant::new("evolution", &[]).unwrap();
    assert!(walk(&v, &[None], 0x0123_4567_89ab_cdef, 40, 200) > 2000);
}

#[test]
fn move_counters_saturate_and_stay_readable() {
    let v = Variant::new("chess", &[]).unwrap();
    let fen = "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295";
    let p = AnyPosition::new(&v, Some(fen)).unwrap();
    let after = p.after(p.parse_uci("e8d8").unwrap());
    assert_eq!(after.fen(), "3k4/8/8/8/8/8/8/4K2R w K - 4294967295 4294967295");
    assert_eq!(AnyPosition::new(&v, Some(&after.fen())).unwrap().fen(), after.fen());
}
