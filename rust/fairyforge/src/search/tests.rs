//! Tests of the search's move sources: the quiescence generator against
//! legal moves, SEE against its threshold test, the check tests against
//! copy-make.

use crate::bitboard::BitSet;
use crate::board::captures::noisy_moves;
use crate::board::game::with_pos;
use crate::board::game::AnyPosition;
use crate::board::position::Position;
use crate::moves::{Move, MoveList};
use crate::piece::Kind;
use crate::rules::variant::Variant;
use crate::search::eval::{EvalKind, Evaluator};
use crate::search::see::{evolution_gain, see, see_ge};

fn variants() -> Vec<Variant> {
    let o = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    };
    vec![
        Variant::new("chess", &[]).unwrap(),
        Variant::new("shocking", &[]).unwrap(),
        Variant::new("evolution", &[]).unwrap(),
        Variant::new("burden", &[]).unwrap(),
        Variant::new("burden", &o(&[("royal", "gryphon"), ("cycle", "pawn"), ("royal_may_move_into_check", "1")]))
            .unwrap(),
        Variant::new("burden", &o(&[("royal", "maharajah"), ("cycle", "knight")])).unwrap(),
        Variant::new("burden", &o(&[("files", "10"), ("middle_gap", "2"), ("army", "knights")])).unwrap(),
    ]
}

/// The noisy moves quiescence searches, as move generation sees them.
fn expected<B: BitSet>(pos: &Position<B>, promo: Option<Kind>) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut v: Vec<Move> = list
        .iter()
        .copied()
        .filter(|&m| {
            (pos.is_capture(m) && m.promotion().is_none()) || (m.promotion().is_some() && m.promotion() == promo)
        })
        .collect();
    v.sort();
    v
}

fn generated<B: BitSet>(pos: &Position<B>, promo: Option<Kind>) -> Vec<Move> {
    let mut v = Vec::new();
    noisy_moves(pos, promo, &mut |m| v.push(m));
    v.retain(|&m| pos.legal_child(&pos.after(m), m));
    v.sort();
    v
}

/// Over random playouts of every variant: the noisy generator against
/// legal moves, SEE against its threshold test, and both check tests
/// against copy-make.
#[test]
fn random_positions_agree_with_reference() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut checked = 0;
    let (mut checks_found, mut with_squares, mut complex_squares) = (0, 0, 0);
    for v in variants() {
        for _game in 0..40 {
            let mut p = AnyPosition::new(&v, None).unwrap();
            for _ply in 0..150 {
                let moves = p.legal_moves();
                assert_eq!(p.has_legal_move(), !moves.is_empty(), "{}", p.fen());
                if moves.is_empty() {
                    break;
                }
                with_pos!(&p, q => {
                    let e = Evaluator::new(q.tables, EvalKind::Full);
                    let promo = e.best_promotion(q.turn());
                    assert_eq!(generated(q, promo), expected(q, promo), "{} {}", v.name, q.fen());
                    let squares = q.checks();
                    for &m in &moves {
                        let check = q.after(m).is_check();
                        assert_eq!(q.gives_check(m), check, "{m:?} in {}", q.fen());
                        if let Some(c) = &squares {
                            assert_eq!(c.gives_check(q, m), check, "{m:?} in {}", q.fen());
                            with_squares += 1;
                            // Robotic hops and lame leaps among the check squares.
                            complex_squares += usize::from(q.tables.sets[q.turn()].complex.0 != 0);
                        }
                        checks_found += check as usize;
                        if q.is_capture(m) {
                            let s = see(q, m, &e);
                            assert!(s.abs() <= 20_000);
                            for th in [-300, -evolution_gain(q, m, &e), 0, 1, 150] {
                                assert_eq!(see_ge(q, m, &e, th), s >= th, "{m:?} {th} in {}", q.fen());
                            }
                        }
                    }
                });
                checked += 1;
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                p = p.after(moves[(x % moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 10_000);
    assert!(checks_found > 1000 && with_squares > 100_000, "{checks_found} checks, {with_squares} moves");
    assert!(complex_squares > 10_000, "{complex_squares} moves by a side with complex attacks");
}

/// A Turret promoting to the side's first Missile checks by a hop over
/// the knight next to the king (b1), or from next to the king after
/// taking the knight (c1): the check squares must see both.
#[test]
fn check_squares_cover_a_promotion_to_a_robotic_rider() {
    let v = Variant::new("shocking", &[]).unwrap();
    let p = AnyPosition::new(&v, Some("c6c/8/8/8/8/8/1t6/2NK4 b - - 0 1")).unwrap();
    let AnyPosition::Small(q) = &p else { panic!("8x8") };
    let c = q.checks().expect("no bent riders");
    let mut checking = Vec::new();
    for &m in &p.legal_moves() {
        let check = q.after(m).is_check();
        assert_eq!(c.gives_check(q, m), check, "{m:?}");
        if check {
            checking.push(p.uci(m));
        }
    }
    assert_eq!(checking, ["b2b1m", "b2c1m"]);
}

#[test]
fn see_values_exchanges() {
    let v = Variant::new("chess", &[]).unwrap();
    let p = AnyPosition::new(&v, Some("4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1")).unwrap();
    with_pos!(&p, q => {
        let e = Evaluator::new(q.tables, EvalKind::Full);
        // dxe5 dxe5: pawn for pawn.
        assert_eq!(see(q, q.parse_uci("d4e5").unwrap(), &e), 0);
    });
    let p = AnyPosition::new(&v, Some("4k3/8/3p4/4p3/8/8/7Q/4K3 w - - 0 1")).unwrap();
    with_pos!(&p, q => {
        let e = Evaluator::new(q.tables, EvalKind::Full);
        // Qxe5?? dxe5 loses the queen for a pawn.
        assert!(see(q, q.parse_uci("h2e5").unwrap(), &e) < -500);
    });
}
