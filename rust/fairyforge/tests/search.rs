//! Search tests: forced wins in every variant (each hand-made position is
//! validated by `AnyPosition::new` and its win proven by brute force over
//! the engine's legal moves), game ends inside the tree, legality of the
//! returned moves on random positions, determinism, limits and options.

use fairyforge::StalemateRule;
use fairyforge::{search, Info, Limits, Score, SearchResult, MATE};
use fairyforge::{AnyPosition, Color, EvalKind, Move, Variant};
use std::sync::atomic::AtomicBool;

mod common;
use common::XorShift;

fn variant(name: &str) -> Variant {
    let options: Vec<(String, String)> =
        if name == "burden" { vec![("royal".into(), "king".into())] } else { Vec::new() };
    Variant::new(name, &options).unwrap()
}

/// A validated position (the FEN parser rejects illegal setups).
fn position(name: &str, fen: &str) -> (Variant, AnyPosition) {
    let v = variant(name);
    let p = AnyPosition::new(&v, Some(fen)).unwrap_or_else(|e| panic!("{name} {fen}: {e}"));
    (v, p)
}

fn run(p: &AnyPosition, limits: &Limits) -> Vec<SearchResult> {
    let stop = AtomicBool::new(false);
    search(p, &[], limits, &stop, &mut |_| {}).unwrap()
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// The side to move has lost: shocked while it is the shock side, or no
/// legal move and in check (or stalemate where stalemate loses, which
/// includes extinction).
fn lost(p: &AnyPosition, v: &Variant) -> bool {
    if p.is_shocked() {
        return v.shock.is_some_and(|s| s.side == p.turn());
    }
    p.legal_moves().is_empty() && (p.is_check() || v.stalemate == StalemateRule::Loss)
}

/// The side to move has already won (a shock by the opponent).
fn won(p: &AnyPosition, v: &Variant) -> bool {
    p.is_shocked() && v.shock.is_some_and(|s| s.side != p.turn())
}

/// Brute force: `m` wins by force within `n` moves of the mover.
fn wins_with(p: &AnyPosition, v: &Variant, m: Move, n: u32) -> bool {
    let c = p.after(m);
    if lost(&c, v) {
        return true;
    }
    if n <= 1 || c.is_shocked() {
        return false;
    }
    let replies = c.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let d = c.after(r);
            won(&d, v) || mate_in(&d, v, n - 1)
        })
}

/// Brute force: the side to move wins by force within `n` moves.
fn mate_in(p: &AnyPosition, v: &Variant, n: u32) -> bool {
    p.legal_moves().iter().any(|&m| wins_with(p, v, m, n))
}

/// The engine finds a forced win in exactly `n` moves, the move it plays
/// wins in `n` by brute force, and there is no shorter win. It searches
/// to depth `2n + 4`, five plies beyond the mate's own `2n - 1`: late-move
/// reductions may shorten a quiet mating move's line, and singular
/// extensions lengthen another (the rook and king mates in 3 below, whose
/// first move is a quiet king move, score a mate in 4 at depth 8 and 9 and
/// the mate in 3 from depth 10).
fn assert_mate(name: &str, fen: &str, n: u32) -> (AnyPosition, Move) {
    let (v, p) = position(name, fen);
    assert!(mate_in(&p, &v, n), "{name} {fen}: no forced win in {n}");
    if n > 1 {
        assert!(!mate_in(&p, &v, n - 1), "{name} {fen}: a shorter win exists");
    }
    let r = &run(&p, &depth(2 * n + 4))[0];
    let m = r.best_move.expect("a move");
    assert_eq!(r.score, Score::Mate(n as i32), "{name} {fen}: {:?} {}", r.score, p.uci(m));
    assert!(wins_with(&p, &v, m, n), "{name} {fen}: {} does not win in {n}", p.uci(m));
    assert_eq!(r.pv.first(), Some(&m));
    (p, m)
}

/// After the move the opponent is checkmated: in check, no legal move.
fn assert_checkmates(p: &AnyPosition, m: Move) {
    let c = p.after(m);
    assert!(c.is_check() && c.legal_moves().is_empty() && !c.is_shocked(), "{} is not checkmate", p.uci(m));
}

fn uci(p: &AnyPosition, text: &str) -> Move {
    p.parse_uci(text).unwrap()
}

// ---------------------------------------------------------------- chess

#[test]
fn chess_mate_in_1() {
    let (p, m) = assert_mate("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    assert_eq!(p.uci(m), "a1a8");
    assert_checkmates(&p, m);
}

#[test]
fn chess_mate_in_2() {
    // Loyd: 1.Ra6! bxa6 2.b7#.
    let (p, m) = assert_mate("chess", "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2);
    assert_eq!(p.uci(m), "a1a6");
}

#[test]
fn chess_mate_in_3() {
    assert_mate("chess", "k7/8/8/3K4/8/8/8/7R w - - 0 1", 3);
}

#[test]
fn chess_being_mated_scores_negative() {
    let (_, p) = position("chess", "k7/8/1K6/8/8/8/8/6R1 b - - 0 1");
    let r = &run(&p, &depth(4))[0];
    assert_eq!(r.score, Score::Mate(-1));
    assert_eq!(p.uci(r.best_move.unwrap()), "a8b8");
}

// ------------------------------------------------------------- shocking

#[test]
fn shocking_kingdom_mates_the_network() {
    let (p, m) = assert_mate("shocking", "c7/8/1K6/8/8/8/8/7R w - - 0 1", 1);
    assert_checkmates(&p, m);
    assert_mate("shocking", "c7/8/8/1K6/8/8/8/7R w - - 0 1", 2);
    assert_mate("shocking", "c7/8/8/3K4/8/8/8/7R w - - 0 1", 3);
}

#[test]
fn shocking_core_hop_escapes_a_back_rank_check() {
    // With the King on b6 the Core's hop over its Missile lands on a
    // covered square: Rh8 mates. With the King on c6 the Core hops to a6.
    let (p, m) = assert_mate("shocking", "c7/m7/1K6/8/8/8/8/7R w - - 0 1", 1);
    assert_eq!(p.uci(m), "h1h8");
    let (v, p) = position("shocking", "c7/m7/2K5/8/8/8/8/7R w - - 0 1");
    let c = p.after(uci(&p, "h1h8"));
    assert!(c.is_check());
    assert!(c.legal_moves().iter().any(|&r| c.uci(r) == "a8a6"));
    assert!(!mate_in(&p, &v, 1));
    assert!(!matches!(run(&p, &depth(5))[0].score, Score::Mate(_)));
}

#[test]
fn shocking_network_mates_by_a_hop() {
    // The Drone's diagonal to e1 is screened by the d2 pawn: the hop over it
    // checks, nothing can block on b4/c3, and moving the screen only opens
    // the line.
    let (p, m) = assert_mate("shocking", "c2d4/8/8/8/8/8/3PPPPP/3QKBNR b - - 0 1", 1);
    assert_eq!(p.uci(m), "d8a5");
    assert_checkmates(&p, m);
    // A Missile ladder.
    assert_mate("shocking", "c7/8/8/8/1m6/m7/8/6K1 b - - 0 1", 2);
}

#[test]
fn shocking_network_avoids_a_shocking_mate() {
    // Md7-d1 would mate, but d1 and the Drone on e2 are one rank apart: the
    // shock loses at once. Ma7-a1 mates safely.
    let fen = "1c6/m2m4/8/8/8/8/4d1PP/7K b - - 0 1";
    let (p, m) = assert_mate("shocking", fen, 1);
    assert_eq!(p.uci(m), "a7a1");
    let shock = p.after(uci(&p, "d7d1"));
    assert!(shock.is_shocked() && shock.legal_moves().is_empty());
    // Without the safe mate the shocking move is still refused.
    let (_, p) = position("shocking", "1c6/3m4/8/8/8/8/4d1PP/7K b - - 0 1");
    let r = &run(&p, &depth(5))[0];
    let m = r.best_move.unwrap();
    assert_ne!(p.uci(m), "d7d1");
    assert!(!p.after(m).is_shocked());
    assert!(!matches!(r.score, Score::Mate(n) if n <= 0), "{:?}", r.score);
}

// --------------------------------------------------------------- burden

#[test]
fn burden_two_king_fork() {
    // d3-d4 evolves the pawn into a knight that attacks both kings; one move
    // cannot save both, so it is checkmate.
    let (p, m) = assert_mate("burden", "8/8/2k1k3/8/8/3P4/8/8 w - - 0 1", 1);
    assert_eq!(p.uci(m), "d3d4");
    assert_checkmates(&p, m);
    let c = p.after(m);
    assert_eq!(c.royal_count(Color::Black), 2);
    for sq in c.royal_squares(Color::Black) {
        assert!(with_attacked(&c, sq, Color::White));
    }
}

fn with_attacked(p: &AnyPosition, sq: usize, by: Color) -> bool {
    p.is_attacked(sq, by)
}

#[test]
fn burden_stalemate_wins() {
    // Be3-b6 crowns a queen that takes a7, b7 and b8 without giving check:
    // Black has no move and loses (§5.4).
    let (p, m) = assert_mate("burden", "k7/8/8/8/8/4B3/8/8 w - - 0 1", 1);
    assert_eq!(p.uci(m), "e3b6");
    let c = p.after(m);
    assert!(!c.is_check() && c.legal_moves().is_empty());
}

#[test]
fn burden_extinction_wins() {
    // Capturing the last black piece leaves Black with nothing: it loses.
    let (_, p) = position("burden", "8/8/8/8/3p4/4P3/8/8 w - - 0 1");
    let r = &run(&p, &depth(3))[0];
    assert_eq!(r.score, Score::Mate(1));
    let c = p.after(r.best_move.unwrap());
    assert_eq!(c.piece_count(Color::Black), 0);
}

#[test]
fn burden_mate_in_2_against_two_kings() {
    assert_mate("burden", "8/8/3B4/8/5P2/N6k/5k2/8 w - - 0 1", 2);
}

#[test]
fn burden_mate_in_3() {
    assert_mate("burden", "8/5kP1/4NB2/8/2k5/2P5/8/8 w - - 0 1", 3);
    assert_mate("burden", "5Q2/8/8/8/8/5p2/6k1/3B4 w - - 0 1", 3);
}

// ------------------------------------------------------------ evolution

#[test]
fn evolution_mate_in_1() {
    // The bishop lands on a6 as a rook and mates along the sixth rank.
    let (p, m) = assert_mate("evolution", "6k/7/6K/7/7/5B1 w - - 0 1", 1);
    assert_eq!(p.uci(m), "f1a6");
    assert_checkmates(&p, m);
}

#[test]
fn evolution_mate_in_2() {
    assert_mate("evolution", "6k/7/4K2/7/7/R6 w - - 0 1", 2);
}

#[test]
fn evolution_mate_in_3() {
    assert_mate("evolution", "6k/7/7/5K1/7/B6 w - - 0 1", 3);
    assert_mate("evolution", "6k/7/7/4K2/7/N6 w - - 0 1", 3);
}

// ------------------------------------------------- game ends and draws

#[test]
fn finished_games_return_no_move() {
    let (_, p) = position("chess", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    let r = run(&p, &depth(3));
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].best_move, r[0].score), (None, Score::Mate(0)));
    let (_, p) = position("chess", "k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert_eq!(run(&p, &depth(3))[0].score, Score::Cp(0));
    // Burden stalemate is a loss.
    let (_, p) = position("burden", "k7/8/1Q6/8/8/8/8/8 b - - 0 1");
    assert_eq!(run(&p, &depth(3))[0].score, Score::Mate(0));
    // A shocked position: the Network has lost whoever is to move.
    let (_, p) = position("shocking", "c2dd3/8/8/8/8/8/8/7K w - - 0 1");
    assert!(p.is_shocked());
    let r = &run(&p, &depth(3))[0];
    assert_eq!((r.best_move, r.score), (None, Score::Cp(MATE)));
}

#[test]
fn repetition_is_a_draw() {
    // Black is lost, but one king move repeats a position of the game.
    let fen = "8/8/8/3k4/8/8/8/KQ6 b - - 10 40";
    let (_, p) = position("chess", fen);
    let plain = &run(&p, &depth(6))[0];
    assert!(matches!(plain.score, Score::Mate(n) if n < 0) || matches!(plain.score, Score::Cp(s) if s < -500));
    let escape = p.legal_moves()[0];
    let history = [p.after(escape).key()];
    let stop = AtomicBool::new(false);
    let r = &search(&p, &history, &depth(6), &stop, &mut |_| {}).unwrap()[0];
    assert_eq!(r.score, Score::Cp(0));
    assert_eq!(r.best_move, Some(escape));
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let (_, p) = position("chess", "7k/8/5K2/8/8/8/8/1Q6 b - - 99 90");
    assert_eq!(run(&p, &depth(5))[0].score, Score::Cp(0));
    // A mate still counts on the hundredth ply.
    let (_, p) = position("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 90");
    assert_eq!(run(&p, &depth(3))[0].score, Score::Mate(1));
}

#[test]
fn insufficient_material_is_a_draw_in_chess() {
    let (_, p) = position("chess", "8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
    assert_eq!(run(&p, &depth(6))[0].score, Score::Cp(0));
}

// ------------------------------------------------- random-play legality

fn variants() -> Vec<Variant> {
    let o = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    };
    vec![
        variant("chess"),
        variant("shocking"),
        variant("evolution"),
        variant("burden"),
        Variant::new("burden", &o(&[("royal", "maharajah"), ("cycle", "knight")])).unwrap(),
        Variant::new("burden", &o(&[("royal", "gryphon"), ("cycle", "pawn"), ("royal_may_move_into_check", "true")]))
            .unwrap(),
        Variant::new("burden", &o(&[("preset", "wittman")])).unwrap(),
        Variant::new("burden", &o(&[("files", "10"), ("middle_gap", "2")])).unwrap(),
    ]
}

#[test]
fn random_positions_get_legal_moves() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let stop = AtomicBool::new(false);
    for v in variants() {
        for game in 0..6 {
            let mut p = AnyPosition::new(&v, None).unwrap();
            let mut history = Vec::new();
            for ply in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    let r = search(&p, &history, &depth(2), &stop, &mut |_| {}).unwrap();
                    assert_eq!(r[0].best_move, None);
                    break;
                }
                if ply % 7 == game % 7 {
                    let limits = Limits {
                        depth: Some(1 + (ply % 4) as u32),
                        nodes: Some(3000),
                        multipv: 1 + ply % 3,
                        threads: 1 + (ply % 5 == 0) as usize,
                        hash_mb: 1,
                        eval: if ply % 2 == 0 { EvalKind::Full } else { EvalKind::MaterialOnly },
                        plain: ply % 11 == 0,
                        ..Limits::default()
                    };
                    let r = search(&p, &history, &limits, &stop, &mut |_| {}).unwrap();
                    assert_eq!(r.len(), limits.multipv.min(moves.len()), "{} {}", v.name, p.fen());
                    let mut seen = Vec::new();
                    for line in &r {
                        let m = line.best_move.unwrap();
                        assert!(moves.contains(&m), "{} {}: illegal {}", v.name, p.fen(), p.uci(m));
                        assert!(!seen.contains(&m), "MultiPV repeats a move");
                        seen.push(m);
                        // The whole PV is playable.
                        let mut q = p;
                        for &pm in &line.pv {
                            assert!(q.legal_moves().contains(&pm), "{} {}: PV {:?}", v.name, p.fen(), line.pv);
                            q = q.after(pm);
                        }
                    }
                }
                history.push(p.key());
                p = p.after(moves[rng.below(moves.len())]);
            }
        }
    }
}

// ------------------------------------------------- determinism, limits

#[test]
fn fixed_depth_search_is_deterministic() {
    let cases = [
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6),
        ("shocking", "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 6),
        ("burden", "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1", 5),
        ("evolution", "NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1", 5),
    ];
    for (name, fen, d) in cases {
        let (_, p) = position(name, fen);
        let a = &run(&p, &depth(d))[0];
        let b = &run(&p, &depth(d))[0];
        assert_eq!(
            (a.best_move, a.score, &a.pv, a.nodes, a.depth, a.seldepth),
            (b.best_move, b.score, &b.pv, b.nodes, b.depth, b.seldepth),
            "{name}"
        );
        assert_eq!(a.depth, d);
    }
}

/// An engine is deterministic from fresh, learns across the searches of a
/// game (table and move histories), and after `new_game` searches
/// exactly as a fresh engine again (the evaluations it keeps cached from
/// the searches before change no result).
#[test]
fn engine_history_persists_within_a_game_and_new_game_forgets_it() {
    let cases = [
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6),
        ("burden", "8/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/8 w - - 0 1", 4),
    ];
    let stop = AtomicBool::new(false);
    let key = |r: &SearchResult| (r.best_move, r.score, r.pv.clone(), r.nodes, r.depth, r.seldepth);
    for (name, fen, d) in cases {
        let (_, p) = position(name, fen);
        let limits = depth(d);
        // (a) Two fresh engines and `search` give the same search.
        let fresh = key(&run(&p, &limits)[0]);
        let mut engine = fairyforge::Engine::new(16).unwrap();
        assert_eq!(key(&engine.search(&p, &[], &limits, &stop, &mut |_| {})[0]), fresh, "{name}");
        let mut other = fairyforge::Engine::new(16).unwrap();
        assert_eq!(key(&other.search(&p, &[], &limits, &stop, &mut |_| {})[0]), fresh, "{name}");
        // A few moves of a game along the principal variation: the engine
        // searches with what it learnt, so not as a fresh engine does.
        let mut game = p;
        let mut keys = Vec::new();
        let mut differs = false;
        for _ in 0..4 {
            let r = engine.search(&game, &keys, &limits, &stop, &mut |_| {});
            let Some(m) = r[0].best_move else { break };
            keys.push(game.key());
            game = game.after(m);
            let learnt = key(&engine.search(&game, &keys, &limits, &stop, &mut |_| {})[0]);
            differs |= learnt.3 != run(&game, &limits)[0].nodes;
        }
        assert!(differs, "{name}: the engine never searched differently from a fresh one");
        // (b) After new_game: exactly a fresh engine's search, of the start
        // position and of the last one of the game.
        engine.new_game();
        assert_eq!(key(&engine.search(&p, &[], &limits, &stop, &mut |_| {})[0]), fresh, "{name}");
        engine.new_game();
        let last = key(&engine.search(&game, &keys, &limits, &stop, &mut |_| {})[0]);
        let stop2 = AtomicBool::new(false);
        let fresh_last = search(&game, &keys, &limits, &stop2, &mut |_| {}).unwrap();
        assert_eq!(last, key(&fresh_last[0]), "{name}");
        // Resizing the table forgets the history as well.
        engine.search(&game, &keys, &limits, &stop, &mut |_| {});
        engine.resize(8).unwrap();
        assert_eq!(key(&engine.search(&p, &[], &limits, &stop, &mut |_| {})[0]), fresh, "{name}");
    }
}

/// The evaluations an engine keeps from its last search are not used by a
/// search under other weights or with another evaluation: each searches
/// as a fresh engine does.
#[test]
fn kept_evaluations_serve_only_the_same_evaluation() {
    let (v, p) = position("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let stop = AtomicBool::new(false);
    let key = |r: &SearchResult| (r.best_move, r.score, r.pv.clone(), r.nodes);
    // Every weight a quarter heavier: other scores, the same positions.
    let mut w = v.eval_weights();
    for (i, _) in fairyforge::Weights::active(&v) {
        let [mg, eg] = w.get(i);
        w.set(i, [mg * 1.25, eg * 1.25]);
    }
    let others =
        [Limits { weights: Some(w), ..depth(6) }, Limits { eval: EvalKind::MaterialOnly, ..depth(6) }, depth(6)];
    for limits in &others {
        let mut engine = fairyforge::Engine::new(16).unwrap();
        for before in &others {
            engine.search(&p, &[], before, &stop, &mut |_| {});
            engine.new_game();
            let r = engine.search(&p, &[], limits, &stop, &mut |_| {});
            assert_eq!(key(&r[0]), key(&run(&p, limits)[0]), "{limits:?} after {before:?}");
            engine.new_game();
        }
    }
}

#[test]
fn stopped_search_still_returns_a_legal_move() {
    let (_, p) = position("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let stop = AtomicBool::new(true);
    let r = search(&p, &[], &Limits::default(), &stop, &mut |_| {}).unwrap();
    assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
    let r = run(&p, &Limits { nodes: Some(1), ..Limits::default() });
    assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
    let t = std::time::Instant::now();
    let r = run(&p, &Limits { movetime_ms: Some(100), ..Limits::default() });
    // All of the time is used (no mate to stop at), and not much more.
    assert!((100..2000).contains(&t.elapsed().as_millis()), "{:?}", t.elapsed());
    assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
    assert!(r[0].depth >= 1);
}

#[test]
fn a_search_stopped_in_its_first_iteration_still_reports_a_line() {
    // Burden's first iteration here costs about 2500 nodes (its captures
    // evolve pieces, so quiescence runs long); the node limit stops it at
    // the first check, after 1024.
    let v = variant("burden");
    let mut p = AnyPosition::new(&v, None).unwrap();
    for m in ["c4d5", "c6d5"] {
        p = p.after(uci(&p, m));
    }
    let mut infos: Vec<Info> = Vec::new();
    let stop = AtomicBool::new(false);
    let r = search(&p, &[], &Limits { nodes: Some(1), ..Limits::default() }, &stop, &mut |i| infos.push(i.clone()))
        .unwrap();
    // Reported once, as protocols print it before `bestmove`.
    assert_eq!(infos.len(), 1, "{infos:?}");
    assert_eq!((infos[0].depth, infos[0].pv[0]), (0, r[0].best_move.unwrap()));
    assert_eq!(r[0].depth, 0);
    assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
}

#[test]
fn stop_flag_from_another_thread() {
    let (_, p) = position("shocking", "dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    let stop = AtomicBool::new(false);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        search(&p, &[], &Limits::default(), &stop, &mut |_| {}).unwrap()
    });
    assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let (_, p) = position("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut infos: Vec<Info> = Vec::new();
    let stop = AtomicBool::new(false);
    let limits = Limits { depth: Some(5), multipv: 3, ..Limits::default() };
    let r = search(&p, &[], &limits, &stop, &mut |i| infos.push(i.clone())).unwrap();
    assert_eq!(r.len(), 3);
    let cp = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(n) => MATE * n.signum(),
    };
    assert!(
        cp(r[0].score) >= cp(r[1].score) && cp(r[1].score) >= cp(r[2].score),
        "{:?}",
        r.iter().map(|x| (x.score, x.best_move)).collect::<Vec<_>>()
    );
    assert!(r[0].best_move != r[1].best_move && r[1].best_move != r[2].best_move);
    // Info: one report per line and depth, depths increasing.
    assert_eq!(infos.len(), 15);
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.depth as usize, i / 3 + 1);
        assert_eq!(info.multipv, i % 3 + 1);
        assert!(!info.pv.is_empty() && info.hashfull <= 1000 && info.seldepth >= info.depth);
    }
}

#[test]
fn lazy_smp_and_plain_modes_find_mates() {
    let (v, p) = position("chess", "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1");
    let r = &run(&p, &Limits { depth: Some(6), threads: 2, ..Limits::default() })[0];
    assert_eq!(r.score, Score::Mate(2));
    assert!(wins_with(&p, &v, r.best_move.unwrap(), 2));
    let r = &run(&p, &Limits { depth: Some(4), plain: true, eval: EvalKind::MaterialOnly, ..Limits::default() })[0];
    assert_eq!(r.score, Score::Mate(2));
    assert!(wins_with(&p, &v, r.best_move.unwrap(), 2));
}

#[test]
fn large_boards_search() {
    let v = Variant::new("burden", &[("files".into(), "12".into()), ("pawn_ranks".into(), "2".into())]).unwrap();
    let p = AnyPosition::new(&v, None).unwrap();
    assert!(matches!(p, AnyPosition::Large(_)));
    let r = &run(&p, &depth(4))[0];
    assert!(p.legal_moves().contains(&r.best_move.unwrap()));
}

#[test]
fn threads_respect_movetime() {
    for name in ["chess", "burden"] {
        let v = variant(name);
        let p = AnyPosition::new(&v, None).unwrap();
        let t = std::time::Instant::now();
        let mut reports = 0;
        let stop = AtomicBool::new(false);
        let limits = Limits { movetime_ms: Some(300), threads: 2, hash_mb: 8, ..Limits::default() };
        let r = search(&p, &[], &limits, &stop, &mut |_| reports += 1).unwrap();
        assert!(t.elapsed().as_millis() < 3000, "{name}: {:?}", t.elapsed());
        assert!(p.legal_moves().contains(&r[0].best_move.unwrap()));
        assert!(reports >= 1 && r[0].depth >= 1 && r[0].nodes > 0);
    }
}

#[test]
fn engine_keeps_its_table_between_searches() {
    let (_, p) = position("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let stop = AtomicBool::new(false);
    let limits = depth(7);
    let mut engine = fairyforge::Engine::new(16).unwrap();
    let first = engine.search(&p, &[], &limits, &stop, &mut |_| {});
    // A fresh search and the engine's first search are the same search.
    let fresh = run(&p, &limits);
    assert_eq!((&first[0].pv, first[0].score, first[0].nodes), (&fresh[0].pv, fresh[0].score, fresh[0].nodes));
    assert!(engine.hashfull() > 0);
    // The second search of the same position starts from a filled table.
    let second = engine.search(&p, &[], &limits, &stop, &mut |_| {});
    assert!(second[0].nodes < first[0].nodes, "{} vs {}", second[0].nodes, first[0].nodes);
    // After new_game the engine searches as a fresh one again.
    engine.new_game();
    assert_eq!(engine.hashfull(), 0);
    assert_eq!(engine.search(&p, &[], &limits, &stop, &mut |_| {})[0].nodes, first[0].nodes);
    engine.resize(1).unwrap();
    assert_eq!(engine.hash_mb(), 1);
    // A size out of range is refused and the table kept.
    assert!(engine.resize(0).is_err() && engine.resize(fairyforge::MAX_HASH_MB + 1).is_err());
    assert_eq!(engine.hash_mb(), 1);
    assert!(fairyforge::Engine::new(0).is_err());
}

#[test]
fn soft_time_starts_no_new_iteration() {
    let (_, p) = position("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let t = std::time::Instant::now();
    // Soft limit 0: the first iteration completes, then the search ends
    // long before the hard limit.
    let r = run(&p, &Limits { soft_ms: Some(0), movetime_ms: Some(5000), ..Limits::default() });
    assert!(t.elapsed().as_millis() < 2000, "{:?}", t.elapsed());
    assert_eq!(r[0].depth, 1);
}
