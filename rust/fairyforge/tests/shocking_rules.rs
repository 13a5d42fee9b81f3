//! Shocking Chess rules (RULES.md §3 and §4) as exact behaviour: the worked
//! examples of §3 as destination sets, hop checks, the shock rule, castling
//! through hop attacks, Turret en passant, promotion and FEN validation.
//!
//! Black (the Network) moves down the board, so a Black Turret on c5 steps
//! to c4 and captures on b4/d4.

use fairyforge::{AnyPosition, Color, ErrorKind, Kind, Special, Variant};

mod common;
use common::{black, play, sorted};

fn shocking() -> Variant {
    Variant::new("shocking", &[]).unwrap()
}

fn pos(fen: &str) -> AnyPosition {
    AnyPosition::new(&shocking(), Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> usize {
    shocking().size.parse_square(name).unwrap()
}

/// Destinations (with promotion letter) of the legal moves from `from`.
fn dests(p: &AnyPosition, from: &str) -> Vec<String> {
    let f = sq(from);
    let mut v: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from() == f).map(|&m| p.uci(m)[from.len()..].to_string()).collect();
    v.sort();
    v
}

/// All legal moves as sorted coordinate text.
fn ucis(p: &AnyPosition) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.uci(m)).collect();
    v.sort();
    v
}

fn attacked(p: &AnyPosition, square: &str, by: Color) -> bool {
    match p {
        AnyPosition::Small(q) => q.is_attacked(sq(square), by),
        AnyPosition::Large(q) => q.is_attacked(sq(square), by),
    }
}

// ---------------------------------------------------------------- §3 examples

#[test]
fn missile_d5_worked_example() {
    // Missile d5, White pawn d3, Black Turret f5, rank 5 and the d-file
    // otherwise empty (Cores on a8/h8, White King on h1 are out of the way).
    let p = pos("c6c/8/8/3m1t2/8/3P4/8/7K b - - 0 1");
    assert_eq!(dests(&p, "d5"), sorted(&["d6", "d7", "d8", "d4", "d3", "d2", "e5", "g5", "c5", "b5", "a5"]));
}

#[test]
fn a_pinned_missile_hops_neither_over_its_core_nor_over_the_pinner() {
    // The rook on a8 pins the Missile on a7 to the only Core (a6): hopping
    // over the Core to a5 would open the file.
    let p = pos("R7/m7/c1K5/8/8/8/8/8 b - - 0 1");
    assert_eq!(dests(&p, "a7"), sorted(&["a8"]));
    // Pinned on a3 by the rook on a5: it may slide toward the Core or take
    // the rook, but hopping over the rook to a6 leaves the Core attacked.
    let p = pos("7K/8/8/R7/8/m7/8/c7 b - - 0 1");
    assert_eq!(dests(&p, "a3"), sorted(&["a2", "a4", "a5"]));
}

#[test]
fn turret_c5_step_capture_and_hop_capture() {
    // c4 empty: the step. b4 White: capture, and b4 occupied lets the
    // diagonal hop capture the White pawn on a3. d4 empty: no quiet diagonal
    // move and no hop, so the pawn on e3 is safe.
    let p = pos("c6c/8/8/2t5/1N6/P3P3/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["c4", "b4", "a3"]));
}

#[test]
fn turret_c5_straight_hop_is_quiet_only() {
    // c4 occupied (White pawn): no straight capture, the hop to empty c3.
    // b4 holds a Black piece: no capture; a3 empty: a diagonal hop is a
    // capture only, so nothing there.
    let p = pos("c6c/8/8/2t5/1aP5/8/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["c3"]));
}

#[test]
fn turret_c5_no_straight_capture_even_by_hop() {
    // c4 Black, c3 White: the straight line never captures, so nothing
    // straight ahead. d4 White: capture; d4 occupied: hop-capture on e3.
    let p = pos("c6c/8/8/2t5/2tN4/2P1P3/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["d4", "e3"]));
}

#[test]
fn turret_c5_diagonal_hop_needs_an_enemy() {
    // d4 Black screen, e3 empty: no quiet diagonal hop. b4 empty: no screen,
    // so the pawn on a3 cannot be reached.
    let p = pos("c6c/8/8/2t5/3a4/P7/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["c4"]));
}

#[test]
fn automaton_c5_quiet_diagonals_and_straight_captures() {
    // b4/d4 empty: quiet moves (no hop, so the pawns on a3/e3 are safe).
    // c4 White: capture; c4 occupied: hop-capture on c3.
    let p = pos("c6c/8/8/2a5/2P5/P1P1P3/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["b4", "d4", "c4", "c3"]));
}

#[test]
fn automaton_c5_diagonal_hop_is_quiet_only() {
    // b4 White: no diagonal capture, but the quiet hop to empty a3.
    // d4 Black, e3 White: a diagonal hop never captures.
    // c4 empty: no straight move at all (capture-only line, no screen).
    let p = pos("c6c/8/8/2a5/1N1t4/2P1P3/8/7K b - - 0 1");
    assert_eq!(dests(&p, "c5"), sorted(&["a3"]));
}

#[test]
fn core_steps_and_hops() {
    // Core c4: ring b3 b4 b5(t) c3 c5(P) d3(t) d4 d5. Steps to the empty
    // ones, captures c5; hops over b5 to a6, over c5 to c6, over d3 onto
    // the White bishop on e2 (a shock move, still legal).
    let p = pos("7c/8/8/1tP5/2c5/3t4/4B3/7K b - - 0 1");
    assert_eq!(dests(&p, "c4"), sorted(&["b3", "b4", "c3", "d4", "d5", "c5", "a6", "c6", "e2"]));
    // The hop never chains and never lands on a friendly piece.
    let p = pos("7c/8/2t5/2t5/2c5/2t5/2t5/7K b - - 0 1");
    assert_eq!(dests(&p, "c4"), sorted(&["b3", "b4", "b5", "d3", "d4", "d5"]));
}

#[test]
fn missile_hop_gives_check() {
    // The e-file is empty down to the pawn on e2: the Missile hops onto e1.
    let p = pos("c3m3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(p.is_check());
    assert!(attacked(&p, "e1", Color::Black));
    assert!(attacked(&p, "e2", Color::Black));
    assert!(!attacked(&p, "d1", Color::Black));
    // Pushing the pawn moves the screen: the hop then lands on e2 or e3.
    assert_eq!(ucis(&p), sorted(&["e1d1", "e1d2", "e1f1", "e1f2", "e2e3", "e2e4"]));
}

#[test]
fn core_hop_gives_check() {
    // Core e3, pawn e2 between it and the King on e1.
    let p = pos("c7/8/8/8/8/4c3/4P3/4K3 w - - 0 1");
    assert!(p.is_check());
    // d2/f2 are next to the Core; d1/f1 are not reachable (d2/f2 empty).
    assert_eq!(ucis(&p), sorted(&["e1d1", "e1f1"]));
    // The screen may be of either colour, and diagonal.
    let p = pos("c7/8/8/8/8/4c3/4t3/4K3 w - - 0 1");
    assert!(p.is_check());
    let p = pos("c7/8/8/8/8/2c5/3N4/4K3 w - - 0 1");
    assert!(p.is_check());
    // Without a screen the Core two squares away does not attack.
    let p = pos("c7/8/8/8/8/2c5/8/4K3 w - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn a_move_creating_a_hop_screen_is_illegal() {
    // Core e3 with e2 empty does not attack e1; a White piece put on e2
    // becomes the screen, so Bf1-e2 and Ng1-e2 would expose the King.
    let p = pos("c7/8/8/8/8/4c3/8/4KBN1 w - - 0 1");
    assert!(!p.is_check());
    let moves = ucis(&p);
    assert!(!moves.contains(&"f1e2".to_string()));
    assert!(!moves.contains(&"g1e2".to_string()));
    assert!(moves.contains(&"f1d3".to_string()));
}

// ----------------------------------------------------------------- §4.3 shock

#[test]
fn shock_overrides_checkmate() {
    // Md8-d1 mates the King on h1 behind its pawns, but leaves the Missile
    // on d1 next to the Turret on e2: Black is shocked and loses.
    let p = pos("c2m3c/8/8/8/8/8/4t1PP/7K b - - 0 1");
    assert!(!p.is_shocked());
    let after = play(&p, "d8d1");
    assert!(after.is_shocked());
    assert!(after.is_check());
    assert!(after.legal_moves().is_empty());
    assert!(!after.has_legal_move());
    assert_eq!(after.perft(1), 0);
    assert_eq!(p.after(p.parse_uci("d8d1").unwrap()).perft(2), 0);
    // The same mate with the Turret on f2 instead (no d/e pair) is plain
    // checkmate.
    let p = pos("c2m3c/8/8/8/8/8/5tPP/7K b - - 0 1");
    let after = play(&p, "d8d1");
    assert!(!after.is_shocked());
    assert!(after.is_check());
    assert!(after.legal_moves().is_empty());
    assert!(!after.has_legal_move());
}

#[test]
fn shock_move_made_while_in_check() {
    // The Rook on a5 checks the Core on h5. Td6-d5 blocks the check and
    // makes a d5/e4 pair: legal, and the game is over. Dc8-e6 makes a d6/e6
    // pair but leaves the Core attacked: illegal (§4.4).
    let p = pos("1cd5/8/3t4/R6c/4a3/8/8/7K b - - 0 1");
    assert!(p.is_check());
    let moves = ucis(&p);
    assert!(moves.contains(&"d6d5".to_string()));
    assert!(!moves.contains(&"c8e6".to_string()));
    let after = play(&p, "d6d5");
    assert!(after.is_shocked());
    assert!(after.legal_moves().is_empty());
    assert!(!after.has_legal_move());
}

#[test]
fn shocked_fen_is_over_whoever_is_to_move() {
    for fen in ["c6c/8/8/3m4/4t3/8/8/K7 w - - 0 1", "c6c/8/8/3m4/4t3/8/8/K7 b - - 0 1"] {
        let p = pos(fen);
        assert!(p.is_shocked(), "{fen}");
        assert!(p.legal_moves().is_empty(), "{fen}");
        assert!(!p.has_legal_move());
        assert_eq!(p.perft(1), 0);
        assert_eq!(p.perft(3), 0);
    }
    // Same rank and a vertical neighbour count too; two ranks apart does not.
    assert!(pos("c6c/8/8/8/3mt3/8/8/K7 w - - 0 1").is_shocked());
    assert!(!pos("c6c/8/3m4/8/4t3/8/8/K7 w - - 0 1").is_shocked());
    // White pieces never shock.
    assert!(!pos("c6c/8/8/3P4/4P3/8/8/K7 w - - 0 1").is_shocked());
}

#[test]
fn shock_is_only_between_d_and_e() {
    // A c/d or e/f pair is harmless.
    assert!(!pos("c6c/8/8/2mt4/8/8/8/K7 w - - 0 1").is_shocked());
    assert!(!pos("c6c/8/8/4mt2/8/8/8/K7 w - - 0 1").is_shocked());
}

// ------------------------------------------------------------ §4.2 castling

#[test]
fn castling_blocked_by_a_hop_attack_on_the_crossed_square() {
    // Core f3 hops over the pawn on f2 onto f1: f1 is attacked only through
    // the hop. e1 and g1 are not attacked.
    let p = pos("c7/8/8/8/8/5c2/5P2/4K2R w K - 0 1");
    assert!(!p.is_check());
    let moves = ucis(&p);
    assert!(!moves.contains(&"e1g1".to_string()));
    assert!(!moves.contains(&"e1f1".to_string()));
    // Without the screen f1 is safe and castling is legal.
    let p = pos("c7/8/8/8/8/5c2/8/4K2R w K - 0 1");
    let moves = ucis(&p);
    assert!(moves.contains(&"e1g1".to_string()));
    assert!(moves.contains(&"e1f1".to_string()));
    // A Drone hopping over g2 onto f1 forbids it as well.
    let p = pos("c7/8/8/8/8/7d/6P1/4K2R w K - 0 1");
    assert!(!ucis(&p).contains(&"e1g1".to_string()));
    let p = pos("c7/8/8/8/8/7d/8/4K2R w K - 0 1");
    assert!(!ucis(&p).contains(&"e1g1".to_string()), "the Drone sees f1 directly");
}

#[test]
fn castling_out_of_a_hop_check_is_illegal() {
    // Missile e8 hops over e2 onto e1: White is in check and may not castle.
    let p = pos("c3m3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    assert!(p.is_check());
    assert!(!ucis(&p).contains(&"e1g1".to_string()));
}

// ------------------------------------------------------------- en passant

#[test]
fn turret_captures_en_passant() {
    let p = pos("c6c/8/8/2t5/3t4/8/4P3/K7 w - - 0 1");
    let p = play(&p, "e2e4");
    assert_eq!(p.fen(), "c6c/8/8/2t5/3tP3/8/8/K7 b - e3 0 1");
    let ep: Vec<_> = p.legal_moves().into_iter().filter(|m| m.special() == Special::EnPassant).collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(p.uci(ep[0]), "d4e3");
    // Only the ordinary one-step diagonal capture: the Turret on c5 may not
    // hop over d4 onto the crossed square.
    assert!(!dests(&p, "c5").contains(&"e3".to_string()));
    let after = play(&p, "d4e3");
    assert_eq!(after.piece_at(sq("e4")), None);
    assert_eq!(after.piece_at(sq("e3")), black(Kind::Turret));
    // The same position read from its FEN allows the same capture.
    let q = pos("c6c/8/8/2t5/3tP3/8/8/K7 b - e3 0 1");
    assert_eq!(q.key(), p.key());
    assert!(ucis(&q).contains(&"d4e3".to_string()));
}

#[test]
fn no_en_passant_against_a_turret_hop() {
    // Td7 hops over the knight on d6 to d5, next to the White pawn on e5:
    // a Turret's two-square hop is not a double step.
    let p = pos("c6c/3t4/3N4/4P3/8/8/8/K7 b - - 0 1");
    let p = play(&p, "d7d5");
    assert!(p.fen().contains(" w - - "), "{}", p.fen());
    assert!(p.legal_moves().iter().all(|m| m.special() != Special::EnPassant));
    assert_eq!(dests(&p, "e5"), sorted(&["e6"]));
    // A FEN claiming one is rejected: en passant needs Black to move.
    let e = AnyPosition::new(&shocking(), Some("c6c/8/3N4/3tP3/8/8/8/K7 w - d6 0 1")).err().unwrap();
    assert_eq!(e.field, "en passant");
}

// -------------------------------------------------------------- promotion

#[test]
fn turret_promotes_by_step_and_capture() {
    let p = pos("c6c/8/8/8/8/7K/2t5/1N6 b - - 0 1");
    assert_eq!(dests(&p, "c2"), sorted(&["b1d", "b1m", "b1v", "c1d", "c1m", "c1v"]));
}

#[test]
fn turret_promotes_by_hop_and_hop_capture() {
    // Straight hop over f2 to f1; diagonal hop over e2 capturing on d1.
    let p = pos("c6c/8/8/7K/8/5t2/4dP2/3R4 b - - 0 1");
    assert_eq!(dests(&p, "f3"), sorted(&["d1d", "d1m", "d1v", "f1d", "f1m", "f1v"]));
}

#[test]
fn only_last_rank_targets_promote() {
    // From b3 the Turret hops over b2 to b1 (a promotion) and captures on
    // a2 and c2 (ordinary moves, no promotion).
    let p = pos("c6c/8/8/8/K7/1t6/PPP5/8 b - - 0 1");
    assert_eq!(dests(&p, "b3"), sorted(&["a2", "c2", "b1d", "b1m", "b1v"]));
}

#[test]
fn automaton_promotes_by_step_and_capture() {
    let p = pos("c6c/8/8/8/K7/8/6a1/6B1 b - - 0 1");
    assert_eq!(dests(&p, "g2"), sorted(&["f1d", "f1m", "f1v", "g1d", "g1m", "g1v", "h1d", "h1m", "h1v"]));
}

#[test]
fn automaton_promotes_by_hop_and_hop_capture() {
    // Quiet diagonal hop over b2 to a1, straight hop over c2 capturing c1,
    // and the quiet step to d2 (no promotion on rank 2).
    let p = pos("c6c/8/8/8/7K/2a5/1Pt5/2N5 b - - 0 1");
    assert_eq!(dests(&p, "c3"), sorted(&["a1d", "a1m", "a1v", "c1d", "c1m", "c1v", "d2"]));
    assert_eq!(play(&p, "c3c1m").piece_at(sq("c1")), black(Kind::Missile));
    assert_eq!(play(&p, "c3a1d").piece_at(sq("a1")), black(Kind::Drone));
    assert_eq!(play(&p, "c3a1v").piece_at(sq("a1")), black(Kind::Rover));
    assert_eq!(play(&p, "c3d2").piece_at(sq("d2")), black(Kind::Automaton));
    // A promotion letter is required, and only v, d, m are offered.
    assert!(p.parse_uci("c3c1").is_err());
    assert!(p.parse_uci("c3c1q").is_err());
    assert!(p.parse_uci("c3c1c").is_err());
}

// --------------------------------------------------------- §4.2 two Cores

#[test]
fn exposing_the_second_core_is_illegal() {
    // The Missile on h2 shields the Core on h4 from the Rook on h1. Black is
    // not in check, yet leaving the h-file (or hopping over the Core to h5)
    // exposes it.
    let p = pos("c7/8/8/8/7c/8/7m/1K5R b - - 0 1");
    assert!(!p.is_check());
    assert_eq!(dests(&p, "h2"), sorted(&["h1", "h3"]));
}

#[test]
fn either_core_attacked_is_check() {
    let p = pos("c6c/8/8/8/8/8/8/K6R b - - 0 1");
    assert!(p.is_check());
    // The Core on a8 is not attacked, but Black must still deal with h8.
    assert!(ucis(&p).iter().all(|m| m.starts_with("h8")));
}

// ------------------------------------------------------------ FEN rejections

fn fen_error(fen: &str) -> fairyforge::Error {
    match AnyPosition::new(&shocking(), Some(fen)) {
        Ok(_) => panic!("{fen} was accepted"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::Fen);
            e
        }
    }
}

#[test]
fn fen_rejects_turret_or_automaton_on_rank_1() {
    let e = fen_error("c6c/8/8/8/8/8/8/K2t4 b - - 0 1");
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("turret") && e.message.contains("d1"), "{}", e.message);
    let e = fen_error("c6c/8/8/8/8/8/8/K2a4 b - - 0 1");
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("automaton") && e.message.contains("d1"), "{}", e.message);
    // On rank 8 (their own first rank) they are fine.
    pos("c1t2a1c/8/8/8/8/8/8/K7 w - - 0 1");
}

#[test]
fn fen_rejects_core_counts() {
    let e = fen_error("8/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("Black has 0 royal core"), "{}", e.message);
    let e = fen_error("ccc5/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("Black has 3 royal core"), "{}", e.message);
    pos("c7/8/8/8/8/8/8/K7 w - - 0 1");
    // White needs its King; a Black king is not in the Network's set.
    let e = fen_error("c7/8/8/8/8/8/8/8 w - - 0 1");
    assert!(e.message.contains("White has 0 royal king"), "{}", e.message);
    let e = fen_error("c6k/8/8/8/8/8/8/K7 w - - 0 1");
    assert!(e.message.contains("not in the shocking piece set"), "{}", e.message);
}

#[test]
fn fen_rejects_en_passant_with_white_to_move() {
    let e = fen_error("c6c/8/8/8/3t4/8/8/K7 w - d5 0 1");
    assert_eq!(e.field, "en passant");
    assert!(e.message.contains("double-stepped"), "{}", e.message);
    // With Black to move, behind a White pawn on its fourth rank: accepted.
    pos("c6c/8/8/8/3tP3/8/8/K7 b - e3 0 1");
}

#[test]
fn fen_rejects_white_pawn_on_back_ranks_and_black_castling() {
    let e = fen_error("c5P1/8/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("pawn on g8"), "{}", e.message);
    let e = fen_error("c7/8/8/8/8/8/8/K6P w - - 0 1");
    assert!(e.message.contains("pawn on h1"), "{}", e.message);
    let e = fen_error("c7/8/8/8/8/8/8/4K2R w Kk - 0 1");
    assert_eq!(e.field, "castling");
}

#[test]
fn start_position() {
    let p = AnyPosition::new(&shocking(), None).unwrap();
    assert_eq!(p.fen(), "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    assert_eq!(p.legal_moves().len(), 20);
    let p = play(&p, "e2e4");
    // Black's first moves: Turrets step or hop, Automata and Rovers move.
    assert_eq!(dests(&p, "c6"), sorted(&["c5"]));
    // The Rover on b7 is boxed in: its ferz squares hold Black pieces and
    // every horse leg (b6, c7) is occupied.
    assert!(dests(&p, "b7").is_empty());
}
