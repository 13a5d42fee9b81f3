//! SAN writing and parsing (RULES.md §2.3) and game outcomes (§4.4, §5.4,
//! §6, §7) for every variant.

use fairyforge::{Board, Color, ErrorKind, Move, Termination, Variant};
use std::collections::HashSet;

fn variant(name: &str, options: &[(&str, &str)]) -> Variant {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Variant::new(name, &options).unwrap()
}

fn board(name: &str, options: &[(&str, &str)], fen: &str) -> Board {
    Board::new(variant(name, options), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start(name: &str) -> Board {
    Board::new(variant(name, &[]), None).unwrap()
}

/// SAN of the coordinate move `uci`, checking the round trip.
fn san(b: &Board, uci: &str) -> String {
    let m = b.pos.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", b.pos.fen()));
    let s = b.pos.san(m);
    assert_eq!(b.pos.parse_san(&s), Ok(m), "{s} in {}", b.pos.fen());
    s
}

fn assert_sans(b: &Board, cases: &[(&str, &str)]) {
    for &(uci, want) in cases {
        assert_eq!(san(b, uci), want, "{uci} in {}", b.pos.fen());
    }
}

fn parse(b: &Board, text: &str) -> Move {
    b.pos.parse_san(text).unwrap_or_else(|e| panic!("{text} in {}: {e}", b.pos.fen()))
}

fn push_all(b: &mut Board, sans: &[&str]) {
    for s in sans {
        b.push_san(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
}

// ---------------------------------------------------------------- SAN: FIDE

#[test]
fn chess_pieces_and_pawns() {
    let b = start("chess");
    assert_sans(&b, &[("e2e4", "e4"), ("e2e3", "e3"), ("g1f3", "Nf3"), ("b1c3", "Nc3")]);
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_sans(&b, &[("c1f4", "Bf4"), ("c1h6", "Bh6"), ("e1d2", "Kd2")]);
    let b = board("chess", &[], "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_sans(
        &b,
        &[
            ("e1g1", "O-O"),
            ("e1c1", "O-O-O"),
            ("a1a8", "Rxa8+"),
            ("h1h8", "Rxh8+"),
            ("a1b1", "Rb1"),
            ("h1f1", "Rf1"),
            ("e1f1", "Kf1"),
            ("e1e2", "Ke2"),
        ],
    );
    let b = board("chess", &[], "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_sans(&b, &[("e8g8", "O-O"), ("e8c8", "O-O-O"), ("a8a1", "Rxa1+")]);
    // The queen's SAN.
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert_sans(&b, &[("d1d7", "Qd7+"), ("d1a4", "Qa4+"), ("d1h5", "Qh5+"), ("d1d2", "Qd2")]);
}

#[test]
fn chess_disambiguation() {
    // By file.
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert_sans(&b, &[("b1d2", "Nbd2"), ("f1d2", "Nfd2"), ("b1c3", "Nc3"), ("f1g3", "Ng3")]);
    // By rank.
    let b = board("chess", &[], "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_sans(&b, &[("a1a3", "R1a3"), ("a5a3", "R5a3"), ("a1b1", "Rb1"), ("a5b5", "Rb5")]);
    // By file and rank: queens on a1, a3 and c1 all reach b2.
    let b = board("chess", &[], "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_sans(&b, &[("a1b2", "Qa1b2"), ("a3b2", "Q3b2"), ("c1b2", "Qcb2")]);
    // Only legal moves are compared: the f1 knight is pinned by the h1 rook.
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/1N1K1N1r w - - 0 1");
    assert_sans(&b, &[("b1d2", "Nd2")]);
}

#[test]
fn chess_promotion_en_passant_check_mate() {
    let b = board("chess", &[], "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_sans(
        &b,
        &[("e7e8q", "e8=Q"), ("e7e8n", "e8=N"), ("e7e8r", "e8=R"), ("e7d8q", "exd8=Q"), ("e7d8b", "exd8=B")],
    );
    let b = board("chess", &[], "7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_sans(&b, &[("e7e8q", "e8=Q+"), ("e7e8r", "e8=R+"), ("e7e8b", "e8=B")]);
    let b = board("chess", &[], "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_sans(&b, &[("e5d6", "exd6"), ("e5e6", "e6")]);
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_sans(&b, &[("a1a8", "Ra8+")]);
    let b = board("chess", &[], "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_sans(&b, &[("a1a8", "Ra8#"), ("a1a7", "Ra7")]);
    // Fool's mate.
    let mut b = start("chess");
    push_all(&mut b, &["f3", "e5", "g4"]);
    assert_eq!(san(&b, "d8h4"), "Qh4#");
    // exd5 after 1. e4 d5.
    let mut b = start("chess");
    push_all(&mut b, &["e4", "d5"]);
    assert_eq!(san(&b, "e4d5"), "exd5");
}

// ------------------------------------------------------------ SAN: Shocking

/// Black to move: Missile a8, Core h8, Drone b7, Rover f6, Turrets b5, d5
/// and a2, Automata g4 and h2; White King e1, Knight c4, Pawn g3.
const SHOCK_A: &str = "m6c/1d6/5v2/1t1t4/2N3a1/6P1/t6a/4K3 b - - 0 1";
/// Black to move: Missile a8, Core h8, Turret b4, Automaton f4; White
/// Knights g7 and a3, Bishop f6, Pawns a4, c4 (just double-stepped), f3, f2.
const SHOCK_B: &str = "m6c/6N1/5B2/8/PtP2a2/N4P2/5P2/4K3 b - c3 0 1";

#[test]
fn shocking_network_pieces() {
    let b = board("shocking", &[], SHOCK_A);
    assert_sans(
        &b,
        &[
            ("b5c4", "Tbxc4"),
            ("d5c4", "Tdxc4"),
            ("b5b4", "Tb4"),
            ("d5d4", "Td4"),
            ("a2a1v", "Ta1=V"),
            ("a2a1d", "Ta1=D"),
            ("a2a1m", "Ta1=M+"),
            ("h2g1v", "Ag1=V"),
            ("h2g1d", "Ag1=D"),
            ("h2g1m", "Ag1=M+"),
            ("a8a1", "Ma1+"),
            ("a8a3", "Ma3"),
            ("g4g3", "Axg3"),
            ("g4f3", "Af3"),
            ("g4h3", "Ah3"),
            ("b7c6", "Dc6"),
            ("f6g5", "Vg5"),
            ("h8g7", "Cg7"),
            ("h8g8", "Cg8"),
        ],
    );
    // Shocking moves (a Black piece lands next to the d5 Turret on the
    // e-file): legal, the game ends, never marked as mate.
    assert_sans(&b, &[("b7e4", "De4"), ("f6e5", "Ve5")]);
}

#[test]
fn shocking_hops_and_en_passant() {
    let b = board("shocking", &[], SHOCK_B);
    assert_sans(
        &b,
        &[
            ("b4c3", "Txc3"), // en passant on the pawn that crossed c3
            ("b4a3", "Txa3"),
            ("b4b3", "Tb3"),
            ("a8a4", "Mxa4"),
            ("a8a3", "Mxa3"), // hop capture over a4
            ("f4f3", "Axf3"),
            ("f4f2", "Axf2"), // hop capture over f3
            ("f4e3", "Ae3"),
            ("f4g3", "Ag3"),
            ("h8f6", "Cxf6"), // hop capture over g7
        ],
    );
    // The Core may not take the g7 Knight: the f6 Bishop guards it.
    assert_eq!(b.pos.parse_san("Cxg7").unwrap_err().kind, ErrorKind::IllegalMove);
    let m = parse(&b, "Txc3");
    assert_eq!(m.special(), fairyforge::Special::EnPassant);
    let after = b.pos.after(m);
    assert!(after.piece_at(26).is_none(), "the c4 pawn is captured");
}

#[test]
fn shocking_kingdom_pieces() {
    let b = start("shocking");
    assert_sans(&b, &[("e2e4", "e4"), ("g1f3", "Nf3"), ("b1c3", "Nc3")]);
    let b = board("shocking", &[], "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/R3K2R w KQ - 0 1");
    assert_sans(&b, &[("e1g1", "O-O"), ("e1c1", "O-O-O"), ("e1f1", "Kf1"), ("a1b1", "Rb1")]);
    let b = board("shocking", &[], "1c6/8/8/8/8/8/8/1B1QK3 w - - 0 1");
    assert_sans(&b, &[("d1d5", "Qd5"), ("b1e4", "Be4"), ("d1b3", "Qb3+"), ("d1a4", "Qa4"), ("b1h7", "Bh7")]);
}

#[test]
fn shocking_mate_and_shock() {
    // Me1 mates White on the back rank.
    let b = board("shocking", &[], "c3m3/8/8/8/8/8/6PP/7K b - - 0 1");
    assert_eq!(san(&b, "e8e1"), "Me1#");
    // The same move next to the d2 Turret is a shocking move: check, no mate.
    let mut b = board("shocking", &[], "c3m3/8/8/8/8/8/3t2PP/7K b - - 0 1");
    assert_eq!(san(&b, "e8e1"), "Me1+");
    b.push_san("Me1+").unwrap();
    assert!(b.pos.is_shocked());
    assert!(b.pos.is_check());
    assert!(!b.is_checkmate());
    assert!(!b.is_stalemate());
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Shock, Some(Color::White), None));
    assert_eq!(o.result(), "1-0");
}

// ------------------------------------------------------ SAN: Burden, Evolution

#[test]
fn burden_pieces() {
    let b = board("burden", &[], "4k3/8/8/8/3P4/8/1N4B1/3QK3 w - - 0 1");
    assert_sans(
        &b,
        &[("d4d5", "d5"), ("b2d3", "Nd3"), ("g2f3", "Bf3"), ("d1d2", "Qd2"), ("e1f1", "Kf1"), ("e1e2", "Ke2")],
    );
    // Evolution is never written: the pawn reaching the last rank becomes
    // a knight by itself.
    let b = board("burden", &[], "8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
    assert_sans(&b, &[("e7e8", "e8")]);
    // En passant against the knight the double-stepping pawn became; the
    // capturing pawn becomes a knight on d6 and checks.
    let b = board("burden", &[], "4k3/8/8/3nP3/8/8/8/4K3 w - d6 0 1");
    assert_sans(&b, &[("e5d6", "exd6+"), ("e5e6", "e6")]);
    let b = board("burden", &[("royal", "maharajah")], "h7/8/8/8/8/8/8/3QH3 w - - 0 1");
    assert_sans(&b, &[("e1e2", "He2"), ("e1d2", "Hd2"), ("d1d2", "Qd2"), ("e1c2", "Hc2")]);
    let b = board("burden", &[("royal", "gryphon")], "g7/8/8/8/8/8/8/4G3 w - - 0 1");
    assert_sans(&b, &[("e1d2", "Gd2"), ("e1d5", "Gd5"), ("e1f8", "Gf8"), ("e1a2", "Ga2")]);
}

#[test]
fn evolution_pieces_and_rank_disambiguation() {
    let b = start("evolution");
    // Four knights reach d3: c1 and c5 share a file, b2 and b4 share one.
    assert_sans(&b, &[("c1d3", "N1d3"), ("c5d3", "N5d3"), ("b2d3", "N2d3"), ("b4d3", "N4d3")]);
    assert_sans(&b, &[("c4d6", "Ncd6"), ("b5d6", "Nbd6")]);
    let b = board("evolution", &[], "4k2/7/7/7/7/KQRB3 w - - 0 1");
    assert_sans(&b, &[("d1e2", "Be2+"), ("c1c5", "Rc5"), ("b1b5", "Qb5"), ("b1b6", "Qb6+"), ("a1a2", "Ka2")]);
}

// ------------------------------------------------------------- SAN: parsing

#[test]
fn tolerant_parsing() {
    let b = start("chess");
    let nf3 = b.pos.parse_uci("g1f3").unwrap();
    for text in ["Nf3", "Nf3+", "Nf3#", "Ng1f3", "Ng1-f3", "Ngf3", "N1f3", "g1f3", "Nf3!?", " Nf3 ", "Nxf3"] {
        assert_eq!(parse(&b, text), nf3, "{text}");
    }
    let e4 = b.pos.parse_uci("e2e4").unwrap();
    for text in ["e4", "e2e4", "e2-e4", "Pe4", "e4!"] {
        assert_eq!(parse(&b, text), e4, "{text}");
    }
    let b = board("chess", &[], "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let q = b.pos.parse_uci("e7e8q").unwrap();
    for text in ["e8=Q", "e8Q", "e8q", "e8=q", "e7e8q", "e8=Q+"] {
        assert_eq!(parse(&b, text), q, "{text}");
    }
    let xq = b.pos.parse_uci("e7d8q").unwrap();
    for text in ["exd8=Q", "exd8Q", "ed8=Q", "xd8=Q", "e7xd8=Q", "e7d8q"] {
        assert_eq!(parse(&b, text), xq, "{text}");
    }
    let b = board("chess", &[], "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let oo = b.pos.parse_uci("e1g1").unwrap();
    let ooo = b.pos.parse_uci("e1c1").unwrap();
    for text in ["O-O", "0-0", "O-O+", "Kg1", "e1g1"] {
        assert_eq!(parse(&b, text), oo, "{text}");
    }
    for text in ["O-O-O", "0-0-0", "Kc1", "e1c1"] {
        assert_eq!(parse(&b, text), ooo, "{text}");
    }
    let b = board("chess", &[], "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let ep = b.pos.parse_uci("e5d6").unwrap();
    for text in ["exd6", "exd6 e.p.", "exd6e.p.", "ed6", "e5d6"] {
        assert_eq!(parse(&b, text), ep, "{text}");
    }
    // Network moves in coordinates and with lower-case promotion letters.
    let b = board("shocking", &[], SHOCK_A);
    let v = b.pos.parse_uci("a2a1v").unwrap();
    for text in ["Ta1=V", "Ta1V", "Ta1v", "Ta1=v", "a2a1v", "Ta2a1=V"] {
        assert_eq!(parse(&b, text), v, "{text}");
    }
}

#[test]
fn large_board_squares() {
    // 10x10 Burden: two-digit ranks in destinations and disambiguation.
    let v = variant("burden", &[("files", "10"), ("middle_gap", "2")]);
    let fen = "10/10/10/10/10/10/10/N9/10/N9 w - - 0 1";
    let b = Board::new(v, Some(fen)).unwrap();
    assert_sans(&b, &[("a1b3", "Nb3"), ("a3b5", "Nb5"), ("a1c2", "N1c2"), ("a3c2", "N3c2")]);
    let fen = "N9/10/N9/10/10/10/10/10/10/10 w - - 0 1";
    let b = Board::new(variant("burden", &[("files", "10"), ("middle_gap", "2")]), Some(fen)).unwrap();
    assert_sans(&b, &[("a10c9", "N10c9"), ("a8c9", "N8c9"), ("a10b8", "Nb8")]);
    assert_eq!(b.pos.parse_san("Nc9").unwrap_err().kind, ErrorKind::AmbiguousMove);
}

#[test]
fn parse_errors() {
    let b = start("chess");
    let fen = b.pos.fen();
    for text in ["", "Zf3", "e9", "hello", "N", "Nf", "e4=", "+", "Q0d1"] {
        let e = b.pos.parse_san(text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidMove, "{text:?}: {e}");
        assert_eq!(e.field, text);
        assert!(e.message.contains(&fen), "{e}");
    }
    for text in ["e5", "Nf6", "O-O", "O-O-O", "Ke2", "Qd4", "exd5", "e2e5", "Bb5"] {
        let e = b.pos.parse_san(text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::IllegalMove, "{text:?}: {e}");
        assert!(e.message.contains(&fen) && e.message.contains(text), "{e}");
    }
    let b = board("chess", &[], "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let e = b.pos.parse_san("Nd2").unwrap_err();
    assert_eq!(e.kind, ErrorKind::AmbiguousMove);
    assert!(e.message.contains("Nbd2") && e.message.contains("Nfd2") && e.message.contains(&b.pos.fen()), "{e}");
    assert!(e.to_string().contains("Nd2"));
    // A promotion needs its piece; a piece outside the choices is illegal.
    let b = board("chess", &[], "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let e = b.pos.parse_san("e8").unwrap_err();
    assert_eq!(e.kind, ErrorKind::IllegalMove);
    assert!(e.message.contains("promotion"), "{e}");
    assert_eq!(b.pos.parse_san("e8=K").unwrap_err().kind, ErrorKind::IllegalMove);
    // Letters are the variant's: a Rover is no chess piece.
    assert_eq!(b.pos.parse_san("e8=V").unwrap_err().kind, ErrorKind::InvalidMove);
    assert_eq!(b.pos.parse_san("e8=X").unwrap_err().kind, ErrorKind::InvalidMove);
    // Turrets need their letter; the Network has no pawns.
    let b = board("shocking", &[], SHOCK_A);
    assert_eq!(b.pos.parse_san("b4").unwrap_err().kind, ErrorKind::IllegalMove);
    assert_eq!(b.pos.parse_san("Tc4").unwrap_err().kind, ErrorKind::AmbiguousMove);
    assert_eq!(b.pos.parse_san("Ta1").unwrap_err().kind, ErrorKind::IllegalMove);
    // After a shocking move nothing is legal.
    let mut b = board("shocking", &[], SHOCK_A);
    b.push_san("De4").unwrap();
    assert_eq!(b.pos.parse_san("Kd1").unwrap_err().kind, ErrorKind::IllegalMove);
    // push_san leaves the board untouched on error.
    let mut b = start("chess");
    assert!(b.push_san("e5").is_err());
    assert!(b.history.is_empty());
}

#[test]
fn san_of_null_and_illegal_moves() {
    let b = start("chess");
    assert_eq!(b.pos.san(Move::NONE), "--");
    let illegal = fairyforge::Move::new(12, 36, None, fairyforge::Special::EnPassant);
    assert_eq!(b.pos.san(illegal), "e2e5");
    let after_shock = {
        let mut b = board("shocking", &[], SHOCK_A);
        b.push_san("De4").unwrap();
        b
    };
    assert_eq!(after_shock.pos.san(fairyforge::Move::new(4, 12, None, fairyforge::Special::Normal)), "e1e2");
}

// ------------------------------------------------------ random-game round trip

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Play seeded random games; in every position, every legal move's SAN is
/// unique, parses back to the move, and its markers agree with the position
/// after it; the coordinate text parses too.
fn round_trip(name: &str, options: &[(&str, &str)], games: usize, plies: usize, seed: u64) -> usize {
    let v = variant(name, options);
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut b = Board::new(v.clone(), None).unwrap();
        for _ in 0..plies {
            let moves = b.pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let sans: Vec<String> = moves.iter().map(|&m| with_pos_san_in(&b, m, &moves)).collect();
            let distinct: HashSet<&String> = sans.iter().collect();
            assert_eq!(distinct.len(), sans.len(), "duplicate SAN in {}: {sans:?}", b.pos.fen());
            for (&m, s) in moves.iter().zip(&sans) {
                let ctx = || format!("{s} ({}) in {} [{name} {options:?}]", b.pos.uci(m), b.pos.fen());
                assert_eq!(b.pos.parse_san(s), Ok(m), "{}", ctx());
                assert_eq!(b.pos.parse_san(&b.pos.uci(m)), Ok(m), "{}", ctx());
                let mover = b.pos.piece_at(m.from()).unwrap();
                let after = b.pos.after(m);
                let them = b.pos.turn().flip();
                let capture = after.piece_count(them) < b.pos.piece_count(them);
                assert_eq!(s.contains('x'), capture, "{}", ctx());
                if m.special() == fairyforge::Special::Castle {
                    assert!(s.starts_with("O-O"), "{}", ctx());
                } else if mover.kind == fairyforge::Kind::Pawn {
                    assert!(s.starts_with(|c: char| c.is_ascii_lowercase()), "{}", ctx());
                } else {
                    assert!(s.starts_with(b.variant.spec(mover.kind).symbol.as_str()), "{}", ctx());
                }
                let mate = after.is_check() && !after.is_shocked() && after.legal_moves().is_empty();
                assert_eq!(s.ends_with('#'), mate, "{}", ctx());
                assert_eq!(s.ends_with('+'), after.is_check() && !mate, "{}", ctx());
                assert_eq!(s.contains('='), m.promotion().is_some(), "{}", ctx());
                checked += 1;
            }
            // Prefer moves that do not end the game (Shocking games would
            // otherwise end by shock within a few moves).
            let mut pick = rng.below(moves.len());
            for _ in 0..4 {
                let after = b.pos.after(moves[pick]);
                if !after.is_shocked() && !after.legal_moves().is_empty() {
                    break;
                }
                pick = rng.below(moves.len());
            }
            assert_eq!(b.pos.san(moves[pick]), sans[pick]);
            b.push_unchecked(moves[pick]);
            if let Some(o) = b.outcome(false) {
                let last = &sans[pick];
                assert_eq!(o.termination == Termination::Checkmate, last.ends_with('#'), "{last}");
                break;
            }
        }
    }
    checked
}

fn with_pos_san_in(b: &Board, m: Move, moves: &[Move]) -> String {
    match &b.pos {
        fairyforge::AnyPosition::Small(p) => p.san_in(m, moves),
        fairyforge::AnyPosition::Large(p) => p.san_in(m, moves),
    }
}

#[test]
fn round_trip_chess() {
    assert!(round_trip("chess", &[], 12, 120, 0x9e37_79b9_7f4a_7c15) > 10_000);
}

#[test]
fn round_trip_shocking() {
    assert!(round_trip("shocking", &[], 16, 100, 0x1234_5678_9abc_def1) > 5_000);
}

#[test]
fn round_trip_burden() {
    let mut n = round_trip("burden", &[], 8, 100, 0xdead_beef_cafe_f00d);
    n += round_trip("burden", &[("royal", "maharajah")], 4, 80, 0x0bad_c0de_1234_5678);
    n += round_trip("burden", &[("royal", "gryphon"), ("cycle", "pawn")], 4, 80, 0x5555_aaaa_3333_cccc);
    n += round_trip("burden", &[("cycle", "knight"), ("royal_may_move_into_check", "true")], 4, 80, 77);
    n += round_trip("burden", &[("files", "10"), ("middle_gap", "2")], 3, 60, 0xfeed_face_0000_0001);
    n += round_trip("burden", &[("preset", "wittman")], 4, 80, 0x0123_4567_89ab_cdef);
    assert!(n > 10_000);
}

#[test]
fn round_trip_evolution() {
    assert!(round_trip("evolution", &[], 12, 100, 0x2545_f491_4f6c_dd1d) > 10_000);
}

// ------------------------------------------------------------------ outcomes

#[test]
fn checkmate() {
    let mut b = start("chess");
    push_all(&mut b, &["f3", "e5", "g4", "Qh4#"]);
    assert!(b.is_checkmate() && !b.is_stalemate() && b.is_game_over(false));
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Checkmate, Some(Color::Black), None));
    assert_eq!(o.result(), "0-1");
    assert_eq!(b.result(false), "0-1");
    assert_eq!(b.outcome(true), Some(o));
    // Ongoing games.
    let b = start("chess");
    assert_eq!(b.outcome(true), None);
    assert_eq!(b.result(true), "*");
    for name in ["shocking", "burden", "evolution"] {
        assert_eq!(start(name).outcome(true), None, "{name}");
    }
}

#[test]
fn stalemate() {
    let b = board("chess", &[], "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(b.is_stalemate() && !b.is_checkmate());
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Stalemate, None, None));
    assert_eq!(o.result(), "1/2-1/2");
    // Evolution Chess: stalemate draws too.
    let b = board("evolution", &[], "6k/4Q2/5K1/7/7/7 b - - 0 1");
    assert_eq!(b.outcome(false).map(|o| (o.termination, o.winner)), Some((Termination::Stalemate, None)));
    // Burden: the stalemated side (a Black pawn blocked on b2) loses;
    // White scores 1 + its one King.
    let b = board("burden", &[], "8/8/8/8/8/8/1p6/1K6 b - - 0 1");
    assert!(b.is_stalemate());
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Stalemate, Some(Color::White), Some((2, 0))));
    assert_eq!(o.result(), "1-0");
    // Without royals the winner scores 1.
    let b = board("burden", &[], "8/8/8/8/8/8/1p6/1N6 b - - 0 1");
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.points), (Termination::Stalemate, Some((1, 0))));
}

#[test]
fn burden_checkmate_points() {
    // f7 (the pawn becomes a knight) smothers the h8 King.
    let mut b = board("burden", &[], "6nk/6pp/5P2/8/8/8/8/K7 w - - 0 1");
    assert_eq!(san(&b, "f6f7"), "f7#");
    b.push_san("f7#").unwrap();
    assert!(b.is_checkmate());
    let o = b.outcome(false).unwrap();
    // 1 for the win + 1 royal (the a1 King) + 1 for the checkmate.
    assert_eq!((o.termination, o.winner, o.points), (Termination::Checkmate, Some(Color::White), Some((3, 0))));
    // Black smothers the a1 King with two Kings of its own: 1 + 2 + 1.
    let mut b = board("burden", &[], "kk6/8/8/8/8/2p5/PP6/KN6 b - - 0 1");
    assert_eq!(san(&b, "c3c2"), "c2#");
    b.push_san("c2").unwrap();
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Checkmate, Some(Color::Black), Some((0, 4))));
    assert_eq!(o.result(), "0-1");
}

#[test]
fn shock() {
    // A shocking checkmate is a loss for Black (see shocking_mate_and_shock);
    // a FEN that already has a shocked pair is over whoever is to move.
    for fen in ["3c4/3m4/4a3/8/8/8/8/4K3 w - - 0 1", "3c4/3m4/4a3/8/8/8/8/4K3 b - - 0 1"] {
        let b = board("shocking", &[], fen);
        assert!(b.is_shock());
        assert!(b.pos.legal_moves().is_empty());
        let o = b.outcome(false).unwrap();
        assert_eq!((o.termination, o.winner), (Termination::Shock, Some(Color::White)));
        assert!(!b.is_checkmate() && !b.is_stalemate());
    }
    let mut b = board("shocking", &[], SHOCK_A);
    assert_eq!(b.outcome(false), None);
    b.push_san("Ve5").unwrap();
    assert_eq!(b.outcome(false).map(|o| o.termination), Some(Termination::Shock));
}

#[test]
fn extinction() {
    let b = board("burden", &[], "8/8/8/8/8/8/8/K7 b - - 0 1");
    assert!(b.is_extinction() && !b.is_stalemate() && !b.is_checkmate());
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Extinction, Some(Color::White), Some((2, 0))));
    // Judged for the side to move only: White to move plays on.
    let b = board("burden", &[], "8/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(b.outcome(true), None);
    // Capturing the last piece: the bare side is to move and loses.
    let mut b = board("burden", &[], "8/8/8/8/8/1p6/P7/8 w - - 0 1");
    b.push_san("axb3").unwrap();
    let o = b.outcome(false).unwrap();
    assert_eq!((o.termination, o.winner, o.points), (Termination::Extinction, Some(Color::White), Some((1, 0))));
}

#[test]
fn repetition() {
    let mut b = start("chess");
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    push_all(&mut b, &cycle);
    assert!(b.is_repetition(2) && !b.is_repetition(3));
    push_all(&mut b, &cycle[..3]);
    // Ng8 would repeat the start position a third time: claimable now.
    assert!(!b.is_repetition(3));
    assert!(b.can_claim_threefold_repetition());
    assert_eq!(b.outcome(false), None);
    assert_eq!(b.outcome(true).map(|o| o.termination), Some(Termination::ThreefoldRepetition));
    push_all(&mut b, &cycle[3..]);
    assert!(b.is_repetition(3));
    assert_eq!(b.outcome(false), None);
    let o = b.outcome(true).unwrap();
    assert_eq!((o.termination, o.winner, o.result()), (Termination::ThreefoldRepetition, None, "1/2-1/2"));
    push_all(&mut b, &cycle);
    assert!(b.is_repetition(4) && !b.is_repetition(5));
    push_all(&mut b, &cycle);
    assert!(b.is_repetition(5) && b.is_fivefold_repetition());
    assert_eq!(b.outcome(false).map(|o| o.termination), Some(Termination::FivefoldRepetition));
    // Repetition in the other variants.
    for (mut b, cycle) in [
        (start("shocking"), ["Nf3", "Ma5", "Ng1", "Ma7"]),
        (board("evolution", &[], "6k/7/7/7/7/K6 w - - 0 1"), ["Kb1", "Kf6", "Ka1", "Kg6"]),
    ] {
        let name = b.variant.name.clone();
        for _ in 0..2 {
            push_all(&mut b, &cycle);
        }
        assert!(b.is_repetition(3), "{name}");
        assert_eq!(b.outcome(true).map(|o| o.termination), Some(Termination::ThreefoldRepetition), "{name}");
    }
    // Burden with royals that stay royal: Kings shuffle.
    let mut b = board("burden", &[], "k7/8/8/8/8/8/8/K7 w - - 0 1");
    for _ in 0..4 {
        push_all(&mut b, &["Kb1", "Kb8", "Ka1", "Ka8"]);
    }
    assert!(b.is_repetition(5));
    assert_eq!(b.outcome(false).map(|o| o.termination), Some(Termination::FivefoldRepetition));
}

#[test]
fn fifty_and_seventy_five_moves() {
    let fen = |clock: u32| format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 80");
    let b = board("chess", &[], &fen(99));
    assert!(!b.is_fifty_moves());
    // A rook move takes the clock to 100: claimable now.
    assert!(b.can_claim_fifty_moves());
    assert_eq!(b.outcome(false), None);
    assert_eq!(b.outcome(true).map(|o| o.termination), Some(Termination::FiftyMoves));
    let b = board("chess", &[], &fen(100));
    assert!(b.is_fifty_moves() && b.can_claim_draw());
    assert_eq!(b.outcome(false), None);
    let o = b.outcome(true).unwrap();
    assert_eq!((o.termination, o.winner, o.result()), (Termination::FiftyMoves, None, "1/2-1/2"));
    let b = board("chess", &[], &fen(98));
    assert!(!b.can_claim_fifty_moves());
    assert_eq!(b.outcome(true), None);
    let b = board("chess", &[], &fen(149));
    assert!(!b.is_seventyfive_moves());
    assert_eq!(b.outcome(false), None);
    let b = board("chess", &[], &fen(150));
    assert!(b.is_seventyfive_moves());
    assert_eq!(b.outcome(false).map(|o| o.termination), Some(Termination::SeventyFiveMoves));
    // Checkmate on the move that reaches the limit still wins.
    let mut b = board("chess", &[], "6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 80");
    b.push_san("Ra8#").unwrap();
    assert_eq!(b.outcome(true).map(|o| o.termination), Some(Termination::Checkmate));
    // Evolution Chess: only captures reset the clock.
    let mut b = board("evolution", &[], "4k2/7/7/7/7/KN5 w - - 7 1");
    b.push_san("Nc3").unwrap();
    assert_eq!(b.pos.halfmove_clock(), 8);
    let b = board("evolution", &[], "4k2/7/7/7/7/KN5 w - - 100 60");
    assert_eq!(b.outcome(true).map(|o| o.termination), Some(Termination::FiftyMoves));
    // Shocking Chess: Turret moves reset it.
    let mut b = board("shocking", &[], "c7/t7/8/8/8/8/8/4K3 b - - 30 40");
    b.push_san("Ta6").unwrap();
    assert_eq!(b.pos.halfmove_clock(), 0);
}

#[test]
fn insufficient_material() {
    let cases = [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),      // K v K
        ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),    // K+B v K
        ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true),    // K+N v K
        ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false), // bishops on both colours
        ("3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", true),   // bishops on one colour
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false),  // K+N+N v K
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false),   // a pawn
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false),    // a rook
        ("1n2k3/8/8/8/8/8/8/1N2K3 w - - 0 1", false), // K+N v K+N (selfmate possible)
        ("3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", false),  // the queen side has material
    ];
    for (fen, want) in cases {
        let b = board("chess", &[], fen);
        assert_eq!(b.is_insufficient_material(), want, "{fen}");
        let o = b.outcome(false);
        assert_eq!(o.map(|o| o.termination) == Some(Termination::InsufficientMaterial), want, "{fen}");
        if want {
            assert_eq!(o.unwrap().result(), "1/2-1/2");
        }
    }
    // No insufficient-material rule outside FIDE chess.
    let b = board("evolution", &[], "4k2/7/7/7/7/K6 w - - 0 1");
    assert!(!b.is_insufficient_material());
    assert_eq!(b.outcome(false), None);
    let b = board("burden", &[], "k7/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(b.outcome(false), None);
}

#[test]
fn termination_names() {
    assert_eq!(Termination::Checkmate.name(), "checkmate");
    assert_eq!(Termination::SeventyFiveMoves.to_string(), "seventyfive_moves");
}
