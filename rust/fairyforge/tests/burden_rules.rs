//! Burden of the Royalty (RULES.md §5) and Evolution Chess (§6) as exact
//! behaviour: evolution, royalty after evolution, the end-of-game positions,
//! en passant against the evolved piece, the `royal`, `cycle` and
//! `royal_may_move_into_check` options, the setup options and presets.

use fairyforge::{AnyPosition, Color, Kind, Size, Special, Variant};

mod common;
use common::{black, play, sorted, white};

fn opts(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn burden(pairs: &[(&str, &str)]) -> Variant {
    Variant::new("burden", &opts(pairs)).unwrap()
}

fn pos(v: &Variant, fen: &str) -> AnyPosition {
    AnyPosition::new(v, Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(v: &Variant, name: &str) -> usize {
    v.size.parse_square(name).unwrap()
}

/// Destination squares of the legal moves from `from`, sorted.
fn dests(v: &Variant, p: &AnyPosition, from: &str) -> Vec<String> {
    let f = sq(v, from);
    let mut d: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from() == f).map(|m| v.size.square_name(m.to())).collect();
    d.sort();
    d
}

/// Squares a rider reaches from `from` on an empty board of `size`.
fn ray(size: Size, from: &str, df: i32, dr: i32) -> Vec<String> {
    let mut out = Vec::new();
    let mut s = size.parse_square(from).unwrap();
    while let Some(t) = size.offset(s, df, dr) {
        out.push(size.square_name(t));
        s = t;
    }
    out
}

// ------------------------------------------------------------ §5.2 evolution

#[test]
fn every_move_evolves_the_mover() {
    let v = burden(&[]);
    let p = pos(&v, "8/P7/8/8/8/4p3/3P4/1N3B1Q w - - 0 1");
    let at = |uci: &str, to: &str| play(&p, uci).piece_at(sq(&v, to));
    assert_eq!(at("d2d3", "d3"), white(Kind::Knight));
    assert_eq!(at("d2d4", "d4"), white(Kind::Knight), "double steps evolve too");
    assert_eq!(at("d2e3", "e3"), white(Kind::Knight), "captures evolve too");
    assert_eq!(at("a7a8", "a8"), white(Kind::Knight), "a pawn on the last rank simply becomes a knight");
    assert_eq!(at("b1c3", "c3"), white(Kind::Bishop));
    assert_eq!(at("f1g2", "g2"), white(Kind::Queen));
    assert_eq!(at("h1h2", "h2"), white(Kind::King));
    // No promotion choice is offered or accepted.
    assert!(p.parse_uci("a7a8q").is_err());
    // The king stays a king (cycle=none).
    let p = pos(&v, "8/8/8/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(play(&p, "d4d5").piece_at(sq(&v, "d5")), white(Kind::King));
}

// ------------------------------------------------------------ §5.3 royalty

#[test]
fn queen_cannot_move_onto_an_attacked_square() {
    // The pawn on f6 attacks e5 and g5. The queen passes e5 to capture on
    // f6, but may not stop on e5: she would be a king there.
    let v = burden(&[]);
    let p = pos(&v, "8/8/5p2/8/3Q4/8/8/8 w - - 0 1");
    let mut want: Vec<String> = Vec::new();
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1), (-1, -1)] {
        want.extend(ray(v.size, "d4", df, dr));
    }
    want.push("f6".to_string());
    want.sort();
    assert_eq!(dests(&v, &p, "d4"), want);
    // A bishop may go to e5: it becomes a queen, which is not royal.
    let p = pos(&v, "8/8/5p2/8/3B4/8/8/8 w - - 0 1");
    assert!(dests(&v, &p, "d4").contains(&"e5".to_string()));
    assert_eq!(play(&p, "d4e5").piece_at(sq(&v, "e5")), white(Kind::Queen));
    // The same holds when queens evolve into Maharajahs.
    let v = burden(&[("royal", "maharajah")]);
    let p = pos(&v, "8/8/5p2/8/3Q4/8/8/8 w - - 0 1");
    assert!(!dests(&v, &p, "d4").contains(&"e5".to_string()));
    assert_eq!(play(&p, "d4d5").piece_at(sq(&v, "d5")), white(Kind::Maharajah));
}

#[test]
fn a_two_king_fork_is_mate() {
    // The knight on b3 attacks both kings; no single move saves both.
    let v = burden(&[]);
    let p = pos(&v, "8/8/8/8/8/1n6/8/K1K5 w - - 0 1");
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    assert!(!p.has_legal_move());
    // With one king the same knight is a plain check the king walks out of.
    let p = pos(&v, "8/8/8/8/8/1n6/8/K7 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(dests(&v, &p, "a1"), sorted(&["a2", "b1", "b2"]));
}

#[test]
fn every_king_must_be_safe() {
    // The knight on b2 shields the king on a1 from the bishop on h8: it is
    // pinned although White is not in check.
    let v = burden(&[]);
    let p = pos(&v, "7b/8/8/8/8/8/1N6/K7 w - - 0 1");
    assert!(!p.is_check());
    assert!(dests(&v, &p, "b2").is_empty());
}

#[test]
fn stalemate_and_extinction_leave_no_move() {
    let v = burden(&[]);
    // Stalemate: a blocked pawn, not in check (a loss in Burden).
    let p = pos(&v, "8/8/8/p7/P7/8/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert!(!p.has_legal_move());
    // Extinction: no pieces at all.
    let p = pos(&v, "8/8/8/p7/8/8/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert!(!p.has_legal_move());
    assert_eq!(p.piece_count(Color::White), 0);
    // Capturing the last piece leaves the bare side to move with no move.
    let p = pos(&v, "8/8/8/8/p7/1P6/8/8 w - - 0 1");
    let after = play(&p, "b3a4");
    assert_eq!(after.piece_count(Color::Black), 0);
    assert!(after.legal_moves().is_empty());
    assert!(!after.has_legal_move());
}

#[test]
fn en_passant_against_the_evolved_pawn() {
    let v = burden(&[]);
    let p = pos(&v, "8/8/8/8/3p4/8/4P3/8 w - - 0 1");
    let p = play(&p, "e2e4");
    // The double-stepped pawn is already a knight.
    assert_eq!(p.piece_at(sq(&v, "e4")), white(Kind::Knight));
    assert_eq!(p.fen(), "8/8/8/8/3pN3/8/8/8 b - e3 0 1");
    let ep: Vec<_> = p.legal_moves().into_iter().filter(|m| m.special() == Special::EnPassant).collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(p.uci(ep[0]), "d4e3");
    let after = play(&p, "d4e3");
    assert_eq!(after.piece_at(sq(&v, "e4")), None, "the knight is captured as if it had moved one square");
    assert_eq!(after.piece_at(sq(&v, "e3")), black(Kind::Knight));
    assert_eq!(after.fen(), "8/8/8/8/8/4n3/8/8 w - - 0 2");
    // The same position read from FEN: same key, same capture.
    let q = pos(&v, "8/8/8/8/3pN3/8/8/8 b - e3 0 1");
    assert_eq!(q.key(), p.key());
    assert!(q.legal_moves().iter().any(|m| m.special() == Special::EnPassant));
    // Decision: in Burden the piece behind the en-passant square must be the
    // knight the pawn became; a pawn there cannot have just double-stepped.
    let e = AnyPosition::new(&v, Some("8/8/8/8/3pP3/8/8/8 b - e3 0 1")).err().unwrap();
    assert_eq!(e.field, "en passant");
}

// -------------------------------------------------------- §5.5 royal option

#[test]
fn royal_king_moves() {
    let v = burden(&[]);
    let p = pos(&v, "8/8/8/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]));
    // Own pawn on c3, the pawn on e6 attacks d5 and f5.
    let p = pos(&v, "8/8/4p3/8/3K4/2P5/8/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c4", "c5", "d3", "e3", "e4", "e5"]));
}

#[test]
fn royal_maharajah_moves_like_an_amazon() {
    let v = burden(&[("royal", "maharajah")]);
    let p = pos(&v, "8/8/8/8/3H4/8/8/8 w - - 0 1");
    let mut want: Vec<String> = Vec::new();
    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)] {
        want.extend(ray(v.size, "d4", df, dr));
    }
    want.extend(["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"].map(String::from));
    want.sort();
    assert_eq!(want.len(), 35);
    assert_eq!(dests(&v, &p, "d4"), want);
    // Cluttered: own pawn d6 and knight b2 block; the pawns on f6 and g4
    // and the knight on a7 can be captured; f6 attacks e5, g4 attacks f3,
    // the knight attacks b5 and c6, and the royal may not stop there.
    let p = pos(&v, "8/n7/3P1p2/8/3H2p1/8/1N6/8 w - - 0 1");
    assert_eq!(
        dests(&v, &p, "d4"),
        sorted(&[
            "d5", "d3", "d2", "d1", "e4", "f4", "g4", "c4", "b4", "a4", "f6", "c5", "b6", "a7", "e3", "f2", "g1", "c3",
            "b3", "c2", "e2", "e6", "f5",
        ])
    );
    // The Maharajah is royal: attacked means check.
    let p = pos(&v, "8/8/8/8/3H4/8/8/1n6 w - - 0 1");
    assert!(!p.is_check());
    let p = pos(&v, "8/8/8/8/3H4/8/2n5/8 w - - 0 1");
    assert!(p.is_check());
}

#[test]
fn royal_gryphon_bent_moves() {
    let v = burden(&[("royal", "gryphon")]);
    let p = pos(&v, "8/8/8/8/3G4/8/8/8 w - - 0 1");
    assert_eq!(
        dests(&v, &p, "d4"),
        sorted(&[
            "c3", "e3", "c5", "e5", // the diagonal steps
            "f5", "g5", "h5", "e6", "e7", "e8", // on from e5: east and north
            "b5", "a5", "c6", "c7", "c8", // on from c5: west and north
            "f3", "g3", "h3", "e2", "e1", // on from e3: east and south
            "b3", "a3", "c2", "c1", // on from c3: west and south
        ])
    );
    // Cluttered: own pawn e5 blocks that diagonal square (no slide beyond
    // it); the pawn on e3 is captured there and also stops the slides; the
    // knight on c7 stops the northward slide from c5; the bishop on a3 is
    // captured at the end of the westward slide from c3 and attacks c5 and
    // c1, where the royal Gryphon may not stop (it still slides through c5).
    let p = pos(&v, "8/2N5/8/4P3/3G4/b3p3/8/8 w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c3", "e3", "b3", "a3", "c2", "b5", "a5", "c6"]));
    // A Gryphon attacks along its bent path: e2 steps to d3 and slides
    // north onto d4; with d3 occupied that path is closed.
    let attacked = |fen: &str, square: &str| match pos(&v, fen) {
        AnyPosition::Small(q) => q.is_attacked(sq(&v, square), Color::Black),
        AnyPosition::Large(q) => q.is_attacked(sq(&v, square), Color::Black),
    };
    assert!(attacked("8/8/8/8/8/8/4g3/8 w - - 0 1", "d4"));
    assert!(attacked("8/8/8/8/8/8/4g3/8 w - - 0 1", "d3"));
    assert!(!attacked("8/8/8/8/8/8/4g3/8 w - - 0 1", "e4"));
    assert!(!attacked("8/8/8/8/8/3P4/4g3/8 w - - 0 1", "d4"));
    assert!(attacked("8/8/8/8/8/3P4/4g3/8 w - - 0 1", "d3"));
    assert!(!attacked("8/8/8/8/8/8/8/6g1 w - - 0 1", "d4"));
    // Gryphons attack each other symmetrically, so a Gryphon facing one
    // along a bent path is in check (and the FEN with White to move is
    // rejected when the Black one is attacked).
    let p = pos(&v, "8/8/8/8/3G4/8/8/5g2 w - - 0 1");
    assert!(!p.is_check());
    assert!(AnyPosition::new(&v, Some("8/8/8/8/3G4/8/4g3/8 w - - 0 1")).is_err());
}

// -------------------------------------------------------- §5.5 cycle option

#[test]
fn cycle_turns_a_moved_royal_into_a_pawn_or_knight() {
    for (cycle, kind) in [("none", Kind::King), ("pawn", Kind::Pawn), ("knight", Kind::Knight)] {
        let v = burden(&[("cycle", cycle)]);
        let p = pos(&v, "8/8/8/8/3K4/8/8/7p w - - 0 1");
        assert_eq!(play(&p, "d4d5").piece_at(sq(&v, "d5")), white(kind), "cycle={cycle}");
        // A queen still evolves into the royal piece.
        let p = pos(&v, "8/8/8/8/3Q4/8/8/7p w - - 0 1");
        assert_eq!(play(&p, "d4d5").piece_at(sq(&v, "d5")), white(Kind::King), "cycle={cycle}");
    }
    let v = burden(&[("cycle", "knight"), ("royal", "maharajah")]);
    let p = pos(&v, "8/8/8/8/3H4/8/8/7p w - - 0 1");
    assert_eq!(play(&p, "d4d7").piece_at(sq(&v, "d7")), white(Kind::Knight));
    let v = burden(&[("cycle", "pawn"), ("royal", "gryphon")]);
    let p = pos(&v, "8/8/8/8/3G4/8/8/7p w - - 0 1");
    assert_eq!(play(&p, "d4c6").piece_at(sq(&v, "c6")), white(Kind::Pawn));
}

#[test]
fn royal_may_move_into_check_both_settings() {
    // The king on d4 shields the king on a1 from the bishop on h8. With a
    // cycle the moving king stops being royal; c3 and e5 stay on the
    // diagonal (so a1 stays safe) but are attacked by the bishop.
    let fen = "7b/8/8/8/3K4/8/8/K7 w - - 0 1";
    let v = burden(&[("cycle", "knight")]);
    assert!(dests(&v, &pos(&v, fen), "d4").is_empty(), "default: the destination must be safe");
    let v = burden(&[("cycle", "knight"), ("royal_may_move_into_check", "false")]);
    assert!(dests(&v, &pos(&v, fen), "d4").is_empty());
    let v = burden(&[("cycle", "knight"), ("royal_may_move_into_check", "true")]);
    let p = pos(&v, fen);
    // Only the royals that remain must be safe: the a1 king.
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c3", "e5"]));
    assert_eq!(play(&p, "d4e5").piece_at(sq(&v, "e5")), white(Kind::Knight));
    // Without a cycle the option has no effect: a king never moves into check.
    let v = burden(&[("royal_may_move_into_check", "true")]);
    assert!(dests(&v, &pos(&v, fen), "d4").is_empty());
    // A single royal under cycle=pawn may step onto an attacked square.
    let v = burden(&[("cycle", "pawn"), ("royal_may_move_into_check", "true")]);
    let p = pos(&v, "8/8/4p3/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]));
    let v = burden(&[("cycle", "pawn")]);
    let p = pos(&v, "8/8/4p3/8/3K4/8/8/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d4"), sorted(&["c3", "c4", "c5", "d3", "e3", "e4", "e5"]));
}

#[test]
fn a_pawn_made_from_a_king_on_its_last_rank_is_immobile() {
    let v = burden(&[("cycle", "pawn")]);
    let p = pos(&v, "8/3K4/8/7p/8/8/8/8 w - - 0 1");
    let p = play(&p, "d7d8");
    assert_eq!(p.fen(), "3P4/8/8/7p/8/8/8/8 b - - 1 1");
    let p = play(&p, "h5h4");
    assert!(p.legal_moves().is_empty(), "White's only piece is a pawn on its last rank");
    assert!(!p.has_legal_move());
    // Read from FEN (accepted in Burden), the same.
    let p = pos(&v, "3P4/8/8/8/8/8/8/7n w - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert!(!p.has_legal_move());
}

#[test]
fn a_pawn_on_its_first_rank_steps_one_square() {
    let v = burden(&[]);
    // Decision: such a pawn also captures diagonally forward as usual.
    let p = pos(&v, "8/8/8/8/8/8/2p5/3P4 w - - 0 1");
    assert_eq!(dests(&v, &p, "d1"), sorted(&["c2", "d2"]));
    let p = pos(&v, "3p4/8/8/8/8/8/8/7N b - - 0 1");
    assert_eq!(dests(&v, &p, "d8"), sorted(&["d7"]));
    // From the 2nd rank the double step exists, whatever the gaps.
    let p = pos(&v, "8/8/8/8/8/8/3P4/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d2"), sorted(&["d3", "d4"]));
    let v = burden(&[("back_gap", "0"), ("pawn_ranks", "2"), ("middle_gap", "2")]);
    assert_eq!(v.size, Size { files: 8, ranks: 6 });
    let p = pos(&v, "8/8/8/8/3P4/8 w - - 0 1");
    assert_eq!(dests(&v, &p, "d2"), sorted(&["d3", "d4"]));
    let p = pos(&v, "8/3p4/8/8/8/7N b - - 0 1");
    assert_eq!(dests(&v, &p, "d5"), sorted(&["d4", "d3"]));
}

// -------------------------------------------------------------- §5.5 setup

fn start(v: &Variant) -> AnyPosition {
    AnyPosition::new(v, None).unwrap()
}

#[test]
fn canonical_setup() {
    let v = burden(&[]);
    assert_eq!(v.start_fen, "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1");
    let p = start(&v);
    assert_eq!(p.fen(), v.start_fen);
    assert_eq!(p.royal_count(Color::White), 0);
    // Only the front pawns move, capturing diagonally: 2 x 8 - 2.
    assert_eq!(p.legal_moves().len(), 14);
}

#[test]
fn setup_6x6_with_two_pawn_ranks() {
    let v = burden(&[("files", "6"), ("pawn_ranks", "2")]);
    assert_eq!(v.size, Size { files: 6, ranks: 6 });
    assert_eq!(v.start_fen, "6/pppppp/pppppp/PPPPPP/PPPPPP/6 w - - 0 1");
    let p = start(&v);
    assert!(matches!(p, AnyPosition::Small(_)));
    assert_eq!(p.piece_at(sq(&v, "a2")), white(Kind::Pawn));
    assert_eq!(p.piece_at(sq(&v, "f5")), black(Kind::Pawn));
    assert_eq!(p.piece_at(sq(&v, "a1")), None);
    assert_eq!(p.legal_moves().len(), 10);
}

#[test]
fn setup_10x10() {
    let v = burden(&[("files", "10"), ("middle_gap", "2")]);
    assert_eq!(v.size, Size { files: 10, ranks: 10 });
    assert_eq!(v.start_fen, "10/pppppppppp/pppppppppp/pppppppppp/10/10/PPPPPPPPPP/PPPPPPPPPP/PPPPPPPPPP/10 w - - 0 1");
    let p = start(&v);
    assert!(matches!(p, AnyPosition::Large(_)));
    assert_eq!(p.fen(), v.start_fen);
    assert_eq!(p.piece_at(sq(&v, "j9")), black(Kind::Pawn));
    // The front pawns (rank 4) step to the empty rank 5.
    assert_eq!(p.legal_moves().len(), 10);
    let p = play(&p, "j4j5");
    assert_eq!(p.piece_at(sq(&v, "j5")), white(Kind::Knight));
}

#[test]
fn setup_12x10_knights() {
    let v = burden(&[("files", "12"), ("back_gap", "0"), ("pawn_ranks", "5"), ("army", "knights")]);
    assert_eq!(v.size, Size { files: 12, ranks: 10 });
    let black_rows = ["nnnnnnnnnnnn"; 5].join("/");
    let white_rows = ["NNNNNNNNNNNN"; 5].join("/");
    assert_eq!(v.start_fen, format!("{black_rows}/{white_rows} w - - 0 1"));
    let p = start(&v);
    assert_eq!(p.piece_at(sq(&v, "l1")), white(Kind::Knight));
    assert_eq!(p.piece_at(sq(&v, "a10")), black(Kind::Knight));
    // Rank-4 knights capture on rank 6 (22), rank-5 knights on rank 7 (22)
    // and on rank 6 (20).
    assert_eq!(p.legal_moves().len(), 64);
    let p = play(&p, "a5b7");
    assert_eq!(p.piece_at(sq(&v, "b7")), white(Kind::Bishop));
}

#[test]
fn setup_knights_army() {
    let v = burden(&[("army", "knights")]);
    assert_eq!(v.start_fen, "8/nnnnnnnn/nnnnnnnn/nnnnnnnn/NNNNNNNN/NNNNNNNN/NNNNNNNN/8 w - - 0 1");
    // Forward captures from ranks 3 and 4 (14 + 12 + 14) and retreats to
    // the empty first rank from ranks 2 and 3 (12 + 14).
    assert_eq!(start(&v).legal_moves().len(), 66);
}

#[test]
fn setup_preset_wittman() {
    let v = burden(&[("preset", "wittman")]);
    assert_eq!(v.size, Size { files: 7, ranks: 6 });
    assert_eq!(v.start_fen, "NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn w - - 0 1");
    let p = start(&v);
    assert_eq!(p.royal_count(Color::White), 0);
    assert_eq!(p.piece_count(Color::White), 18);
    // c-file knights: 8 quiet moves to the d-file, 10 captures on the
    // e-file; b-file knights: 10 quiet moves to the d-file.
    assert_eq!(p.legal_moves().len(), 28);
    // The preset combines with the royalty options but not with the setup.
    let v = burden(&[("preset", "wittman"), ("royal", "gryphon"), ("cycle", "knight")]);
    assert_eq!(v.size, Size { files: 7, ranks: 6 });
    assert!(Variant::new("burden", &opts(&[("preset", "wittman"), ("army", "knights")])).is_err());
}

// -------------------------------------------------------- §6 Evolution Chess

#[test]
fn evolution_chess_n_b_r_q() {
    let v = Variant::new("evolution", &[]).unwrap();
    assert_eq!(v.start_fen, "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1");
    let p = pos(&v, "6k/7/7/7/7/K5N w - - 0 1");
    let p = play(&p, "g1e2");
    assert_eq!(p.piece_at(sq(&v, "e2")), white(Kind::Bishop));
    let p = play(&p, "g6g5");
    assert_eq!(p.piece_at(sq(&v, "g5")), black(Kind::King), "the king does not evolve");
    let p = play(&p, "e2d3");
    assert_eq!(p.piece_at(sq(&v, "d3")), white(Kind::Rook));
    let p = play(&p, "g5g6");
    let p = play(&p, "d3d4");
    assert_eq!(p.piece_at(sq(&v, "d4")), white(Kind::Queen));
    let p = play(&p, "g6g5");
    let p = play(&p, "d4d3");
    assert_eq!(p.piece_at(sq(&v, "d3")), white(Kind::Queen), "the queen stays a queen");
    let p = play(&p, "g5g4");
    let p = play(&p, "a1a2");
    assert_eq!(p.piece_at(sq(&v, "a2")), white(Kind::King));
}

#[test]
fn evolution_chess_needs_one_king_a_side() {
    let v = Variant::new("evolution", &[]).unwrap();
    let e = AnyPosition::new(&v, Some("7/7/7/7/7/K6 w - - 0 1")).err().unwrap();
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("Black has 0 royal king (needs exactly 1)"), "{}", e.message);
    let e = AnyPosition::new(&v, Some("6k/7/7/7/7/K5K w - - 0 1")).err().unwrap();
    assert!(e.message.contains("White has 2 royal king"), "{}", e.message);
    let e = AnyPosition::new(&v, Some("6k/7/7/7/7/K5P w - - 0 1")).err().unwrap();
    assert!(e.message.contains("not in the evolution piece set"), "{}", e.message);
    // Burden, by contrast, accepts any number of kings, including none.
    let b = burden(&[]);
    pos(&b, "8/8/8/8/8/8/8/KKK5 w - - 0 1");
    pos(&b, "8/8/8/8/8/8/8/8 w - - 0 1");
}
