//! Evaluation weights and their fit: the trace is the evaluation, weights
//! reach the search through every door alike, files round-trip, bad files
//! are refused by key, and the fit lowers the loss toward known weights.

use fairyforge::{evaluate, fit, search, traces, AnyPosition, FitOptions, Limits, Sample, Variant, Weights};
use std::sync::atomic::AtomicBool;

/// Positions from a seeded random walk of `plies` plies per game.
fn random_fens(v: &Variant, games: u64, plies: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for g in 0..games {
        seed ^= g.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let mut pos = AnyPosition::new(v, None).unwrap();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos = pos.after(moves[(seed >> 33) as usize % moves.len()]);
            out.push(pos.fen());
        }
    }
    out
}

/// White's evaluation under weights `w` as the trace's linear model.
fn model(t: &fairyforge::Trace, w: &Weights) -> f64 {
    t.coefs.iter().map(|&(i, c)| c * (t.mg_share * w.get(i as usize)[0] + t.eg_share * w.get(i as usize)[1])).sum()
}

/// Samples whose results are drawn (seeded) from the expectation of
/// weights `truth`, scored by the evaluation under `scorer` if given.
fn drawn(ts: Vec<fairyforge::Trace>, truth: &Weights, scorer: Option<&Weights>, mut seed: u64) -> Vec<Sample> {
    ts.into_iter()
        .map(|trace| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let p = 1.0 / (1.0 + 10f64.powf(-model(&trace, truth) / 400.0));
            let u = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let label = scorer.map(|w| model(&trace, w));
            Sample { trace, result: if u < p { 1.0 } else { 0.0 }, label }
        })
        .collect()
}

fn named(v: &Variant, name: &str) -> usize {
    Weights::active(v).into_iter().find(|(_, n)| n == name).unwrap_or_else(|| panic!("{name}")).0
}

#[test]
fn the_trace_is_the_evaluation() {
    let mut variants: Vec<Variant> = Vec::new();
    for name in ["chess", "shocking", "burden", "evolution", "capablanca", "grasshopper"] {
        let v = Variant::new(name, &[]).unwrap();
        // The same variant with every term that starts at zero weighed, so
        // that the optional terms are checked too.
        let mut weighed = v.clone();
        let mut w = v.eval_weights();
        for (i, _) in Weights::active(&v) {
            if w.get(i) == [0.0, 0.0] {
                w.set(i, [3.0, -5.0]);
            }
        }
        weighed.weights = Some(w);
        variants.push(v);
        variants.push(weighed);
    }
    for v in variants {
        let name = v.name.clone();
        let w = v.eval_weights();
        let fens = random_fens(&v, 6, 60);
        for (fen, t) in fens.iter().zip(traces(&v, &fens).unwrap()) {
            let pos = AnyPosition::new(&v, Some(fen)).unwrap();
            let white = if fen.split(' ').nth(1) == Some("w") { 1 } else { -1 };
            let e = (white * evaluate(&pos)) as f64;
            let pieces = fen.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).count() as f64;
            // Square terms round per piece, the blend once more.
            assert!((model(&t, &w) - e).abs() <= pieces / 2.0 + 2.0, "{name} {fen}: {} vs {e}", model(&t, &w));
        }
    }
}

#[test]
fn square_cells_fold_the_files_and_turn_the_ranks() {
    // The built-in weights (no cell weighed), not chess's shipped fit.
    let mut v = Variant::new("chess", &[]).unwrap();
    v.weights = None;
    let cells: Vec<String> =
        Weights::active(&v).into_iter().map(|(_, n)| n).filter(|n| n.starts_with("knight.") && n.len() == 9).collect();
    assert_eq!(cells.len(), 32, "{cells:?}");
    assert!(cells.contains(&"knight.d8".to_string()) && !cells.contains(&"knight.e4".to_string()));
    let wide = Variant::new("capablanca", &[]).unwrap();
    assert!(Weights::active(&wide).iter().any(|(_, n)| n == "archbishop.e8"));
    assert!(!Weights::active(&wide).iter().any(|(_, n)| n == "archbishop.f1"));
    let count = |fen: &str, name: &str| {
        let t = traces(&v, &[fen.to_string()]).unwrap().remove(0);
        t.coefs.iter().filter(|c| c.0 as usize == named(&v, name)).map(|c| c.1).sum::<f64>()
    };
    // White's knight on e4 and Black's on d5 both stand on their d4 cell.
    let mirrored = "4k3/8/8/3n4/4N3/8/8/4K3 w - - 0 1";
    assert_eq!((count(mirrored, "knight.d4"), count(mirrored, "knight.d5")), (0.0, 0.0));
    // Black's knight on e4 stands on its d5 cell; the kings on their e1.
    // (Pawns on both sides: no endgame scaling.)
    let same = "4k3/p7/8/8/4Nn2/8/P7/4K3 w - - 0 1";
    assert_eq!((count(same, "knight.d4"), count(same, "knight.d5"), count(same, "knight.c5")), (1.0, 0.0, -1.0));
    assert_eq!(count(same, "king.d1"), 0.0);
    let mut w = v.eval_weights();
    w.set(named(&v, "knight.d4"), [30.0, 30.0]);
    let mut weighed = v.clone();
    weighed.weights = Some(w);
    let e = |v: &Variant| evaluate(&AnyPosition::new(v, Some(same)).unwrap());
    assert_eq!(e(&weighed) - e(&v), 30);
}

#[test]
fn mobility_weights_enter_the_evaluation() {
    // Chess with the built-in defaults (no mobility), not its shipped fit.
    let mut v = Variant::new("chess", &[]).unwrap();
    v.weights = None;
    let mut w = v.eval_weights();
    w.set(named(&v, "knight.mobility"), [4.0, 4.0]);
    let text = v.write_weights(&w);
    let tuned = fairyforge::Variant::from_toml(
        &format!(
            "name = \"chess-mobile\"\nbase = \"chess\"\n{}",
            text.split_once("[eval").map(|(_, r)| format!("[eval{r}")).unwrap()
        ),
        "chess-mobile.toml",
        &fairyforge::Registry,
    )
    .unwrap();
    // After 1. Nf3 a White knight on f3 reaches 5 empty squares more than
    // on g1 (g1 h4 g5 e5 d4 against f3 h3): 8 - 3 = 5 squares, times 4.
    let fen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1";
    let plain = traces(&v, &[fen.to_string()]).unwrap().remove(0);
    let mobile = traces(&tuned, &[fen.to_string()]).unwrap().remove(0);
    let diff = model(&mobile, &w) - model(&plain, &v.eval_weights());
    let count = |t: &fairyforge::Trace| {
        t.coefs.iter().find(|c| c.0 as usize == named(&v, "knight.mobility")).map_or(0.0, |c| c.1)
    };
    assert_eq!(count(&plain), 3.0, "knights: g1... f3 has 5 targets, b1 has 2; white minus black");
    assert!((diff - 4.0 * count(&mobile)).abs() < 1e-9);
    let e = evaluate(&AnyPosition::new(&tuned, Some(fen)).unwrap());
    let e0 = evaluate(&AnyPosition::new(&v, Some(fen)).unwrap());
    assert!((e0 - e - 12).abs() <= 1, "Black to move: White's 3 more squares cost Black 4 each: {}", e0 - e);
}

#[test]
fn weights_reach_the_search_alike_through_limits_and_definitions() {
    let v = Variant::new("chess", &[]).unwrap();
    let pos = AnyPosition::new(&v, Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")).unwrap();
    let stop = AtomicBool::new(false);
    let run = |pos: &AnyPosition, weights: Option<Weights>| {
        let limits = Limits { depth: Some(7), weights, ..Limits::default() };
        let r = search(pos, &[], &limits, &stop, &mut |_| {}).unwrap().remove(0);
        (r.nodes, r.score, r.best_move)
    };
    let plain = run(&pos, None);
    assert_eq!(run(&pos, Some(v.eval_weights())), plain, "the defaults change nothing");
    let mut w = v.eval_weights();
    w.set(named(&v, "pawn.value"), [60.0, 200.0]);
    w.set(named(&v, "knight.centre"), [60.0, 30.0]);
    let limited = run(&pos, Some(w.clone()));
    assert_ne!(limited, plain);
    let text = v.write_weights(&w);
    let file = std::env::temp_dir().join(format!("fairyforge-weights-{}.toml", std::process::id()));
    std::fs::write(&file, &text).unwrap();
    let read = v.weights_file(file.to_str().unwrap()).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(read, w, "a weights file reads back exactly");
    let mut with = v.clone();
    with.weights = Some(w);
    let defined = AnyPosition::new(&with, Some(&pos.fen())).unwrap();
    assert_eq!(run(&defined, None), limited, "a variant carrying the weights searches the same");
}

#[test]
fn eval_tables_round_trip_through_definitions() {
    let text = "name = \"chess-eval\"\nbase = \"chess\"\n[eval]\ntempo = 15\n[eval.knight]\nvalue = [300, 310.5]\nmobility = [3, 2]\n";
    let v = Variant::from_toml(text, "chess-eval.toml", &fairyforge::Registry).unwrap();
    let w = v.weights.clone().unwrap();
    assert_eq!(w.get(named(&v, "tempo")), [15.0, 15.0]);
    assert_eq!(w.get(named(&v, "knight.value")), [300.0, 310.5]);
    assert_eq!(w.get(named(&v, "bishop.value")), [330.0, 330.0], "unset terms keep their defaults");
    let written = v.to_toml();
    let again = Variant::from_toml(&written, "again.toml", &fairyforge::Registry).unwrap();
    assert_eq!(again, v);
    assert_eq!(again.to_toml(), written);
}

#[test]
fn bad_weights_are_refused_by_key() {
    let v = Variant::new("chess", &[]).unwrap();
    let cases = [
        ("variant = \"chess\"\n[eval]\nshock_file = 3\n", "eval.shock_file", "not a term of chess"),
        ("variant = \"chess\"\n[eval.knight]\nspeed = 3\n", "eval.knight.speed", "not a term"),
        ("variant = \"chess\"\n[eval]\ntempo = \"fast\"\n", "eval.tempo", "must be a number"),
        ("variant = \"chess\"\n[eval]\ntempo = nan\n", "eval.tempo", "outside"),
        ("variant = \"chess\"\n[eval]\ntempo = [1, 2, 3]\n", "eval.tempo", "[middlegame, endgame]"),
        ("variant = \"chess\"\n[eval]\ntempo = 1e9\n", "eval.tempo", "outside"),
        ("variant = \"shocking\"\n[eval]\ntempo = 1\n", "variant", "for shocking, not chess"),
        ("[eval]\ntempo = 1\n", "variant", "is required"),
        ("variant = \"chess\"\nspeed = 1\n", "speed", "unknown key"),
        ("variant = \"chess\"\neval = 3\n", "eval", "must be a table"),
        ("variant = \"chess\"\n[eval\n", "weights.toml:2", "not valid TOML"),
    ];
    for (text, key, what) in cases {
        let e = v.weights_text(text, "weights.toml").unwrap_err().to_string();
        assert!(e.contains(key) && e.contains(what), "{text:?}: {e}");
    }
    assert!(v.weights_file("/nonexistent/weights.toml").unwrap_err().to_string().contains("cannot read"));
}

#[test]
fn the_fit_moves_toward_the_weights_that_made_the_results() {
    let v = Variant::new("chess", &[]).unwrap();
    let fens = random_fens(&v, 60, 80);
    let ts = traces(&v, &fens).unwrap();
    // Results drawn from a "true" evaluation in which knights are worth 600
    // (the built-in weights otherwise, not the shipped fit).
    let mut truth = Weights::defaults(&v);
    let knight = named(&v, "knight.value");
    truth.set(knight, [600.0, 600.0]);
    let samples = drawn(ts, &truth, None, 7);
    let (held, train) = samples.split_at(samples.len() / 5);
    let start = Weights::defaults(&v);
    let o = FitOptions { epochs: 300, rate: 5.0, l2: 0.0, report_every: 10, anchor: None, lambda: 1.0 };
    let f = fit(&start, &[knight], train, held, o);
    assert!(f.after.0 < f.before.0, "training loss {:?} -> {:?}", f.before, f.after);
    // A strong ridge keeps the weight near its start.
    let held_back = fit(&start, &[knight], train, held, FitOptions { l2: 1e-3, ..o }).weights.get(knight)[0];
    assert!(held_back < 340.0, "{held_back}");
    assert!(f.after.0 < f.before.0, "training loss {:?} -> {:?}", f.before, f.after);
    assert!(f.after.1 <= f.before.1, "held-out loss {:?} -> {:?}", f.before, f.after);
    let fitted = f.weights.get(knight)[0];
    assert!(fitted > 420.0, "knight value moved from 320 to {fitted}");
    assert_eq!(
        f.weights.get(named(&v, "bishop.value")),
        start.get(named(&v, "bishop.value")),
        "only the named parameter moves"
    );
    assert_eq!(f.curve.first().map(|c| c.0), Some(0));
    // Anchored on the knight, the fit scales every weight back so that the
    // knight is worth its start again, and k takes the scale: the same loss.
    let anchored =
        fit(&start, &[knight, named(&v, "pawn.value")], train, held, FitOptions { anchor: Some(knight), ..o });
    assert!((anchored.weights.get(knight)[0] - start.get(knight)[0]).abs() < 0.01);
    let free = fit(&start, &[knight, named(&v, "pawn.value")], train, held, o);
    assert!((anchored.after.0 - free.after.0).abs() < 1e-4, "{:?} {:?}", anchored.after, free.after);
    assert!(anchored.k > free.k);
}

#[test]
fn scores_pull_the_fit_toward_the_engine_that_gave_them() {
    let v = Variant::new("chess", &[]).unwrap();
    let fens = random_fens(&v, 60, 80);
    let ts = traces(&v, &fens).unwrap();
    let start = Weights::defaults(&v);
    let knight = named(&v, "knight.value");
    // Results drawn from the start weights themselves; scores from an
    // engine to which knights are worth 600.
    let mut engine = start.clone();
    engine.set(knight, [600.0, 600.0]);
    let samples = drawn(ts, &start, Some(&engine), 11);
    let (held, train) = samples.split_at(samples.len() / 5);
    let o = FitOptions { epochs: 300, rate: 5.0, l2: 0.0, report_every: 10, anchor: None, lambda: 1.0 };
    let results_only = fit(&start, &[knight], train, held, o).weights.get(knight)[0];
    let scores_only = fit(&start, &[knight], train, held, FitOptions { lambda: 0.0, ..o });
    let half = fit(&start, &[knight], train, held, FitOptions { lambda: 0.5, ..o }).weights.get(knight)[0];
    let fitted = scores_only.weights.get(knight)[0];
    assert!((results_only - 320.0).abs() < 60.0, "results alone: {results_only}");
    assert!((fitted - 600.0).abs() < 30.0, "scores alone: {fitted}");
    assert!(results_only < half && half < fitted, "{results_only} {half} {fitted}");
    // Its losses are against the scores it aimed at: near zero at the end.
    assert!(scores_only.after.0 < scores_only.before.0 / 10.0, "{:?}", scores_only);
    // Unscored positions keep their results as targets, whatever lambda.
    let unscored: Vec<Sample> = samples.iter().map(|s| Sample { label: None, ..s.clone() }).collect();
    let (held, train) = unscored.split_at(unscored.len() / 5);
    let a = fit(&start, &[knight], train, held, FitOptions { lambda: 0.0, ..o }).weights.get(knight)[0];
    assert_eq!(a, fit(&start, &[knight], train, held, o).weights.get(knight)[0]);
}

#[test]
fn the_optional_terms_count_what_they_name() {
    let v = Variant::new("chess", &[]).unwrap();
    // White: pawns a2 c2 c3 f2 g2 h2 (c doubled; a2, c2, c3 isolated), two
    // bishops, one rook on the pawnless d-file, king g1 behind f2 g2 h2.
    // Black: pawns a7 b7 f7 g7, rooks a8 f8 (both behind own pawns), king
    // g8 behind f7 g7.
    let fen = "r4rk1/pp3pp1/8/8/8/2P5/P1P2PPP/2BR1BK1 w - - 0 1";
    let t = traces(&v, &[fen.to_string()]).unwrap().remove(0);
    let count = |name: &str| t.coefs.iter().find(|c| c.0 as usize == named(&v, name)).map_or(0.0, |c| c.1);
    assert_eq!(count("doubled"), 1.0);
    assert_eq!(count("isolated"), 3.0);
    assert_eq!(count("bishop.pair"), 1.0);
    assert_eq!(count("rook.pair"), -1.0);
    assert_eq!(count("rook.open_file"), 1.0);
    assert_eq!(count("royal_shelter"), 1.0);
    assert_eq!(count("knight.pair"), 0.0);
    assert_eq!(count("tempo"), 1.0);
    // Own pawns on the piece's square colour: the c1 bishop's c3 f2 h2 and
    // the f1 bishop's a2 c2 g2 (6); the d1 rook's a2 c2 g2 against the a8
    // rook's b7 f7 and the f8 rook's a7 g7 (3 - 4).
    assert_eq!(count("bishop.same_colour"), 6.0);
    assert_eq!(count("rook.same_colour"), -1.0);
    // Connected: f2 g2 h2 against a7 b7 f7 g7, all on their second rank.
    assert_eq!(count("connected"), -1.0);
    assert!((count("connected_advance") + 1.0 / 49.0).abs() < 1e-12);
    assert_eq!(count("backward"), 0.0);
    // d3 cannot be supported and c5 attacks d4: backward. c5, supported by
    // b6, is connected; b6 is neither (nothing attacks b5).
    let t = traces(&v, &["4k3/8/1p6/2p5/8/3P4/8/4K3 w - - 0 1".to_string()]).unwrap().remove(0);
    let count = |name: &str| t.coefs.iter().find(|c| c.0 as usize == named(&v, name)).map_or(0.0, |c| c.1);
    assert_eq!((count("backward"), count("connected"), count("isolated")), (1.0, -1.0, 1.0));
    // Ne5, supported by d4 with no black pawn on the d- or f-file ahead,
    // is an outpost; Nc4 (supported by b5) is not, b2 can chase it. g3 and
    // h4 storm the king on g1 (2 and 1).
    let t = traces(&v, &["4k3/8/8/1p2N3/2nP3p/6p1/1P6/6K1 w - - 0 1".to_string()]).unwrap().remove(0);
    let count = |name: &str| t.coefs.iter().find(|c| c.0 as usize == named(&v, name)).map_or(0.0, |c| c.1);
    assert_eq!((count("knight.outpost"), count("royal_storm")), (1.0, -3.0));
    // Space after 1.e4: White's c2-f4 block less c2 d2 f2 e4, with e2 and
    // e3 behind the pawn counted twice (10); Black's c6-f5 block less d5
    // and f5, which e4 attacks (6).
    let t = traces(&v, &["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string()]).unwrap().remove(0);
    assert_eq!(t.coefs.iter().find(|c| c.0 as usize == named(&v, "space")).map(|c| c.1), Some(4.0));
}

#[test]
fn the_attack_terms_count_what_they_name() {
    let v = Variant::new("chess", &[]).unwrap();
    // White: Ne4 (attacked by the pawn d5, defended by Qf3), Bb3 (attacks
    // d5), Qf3 and Rh1 (each attacks two squares next to the king g8:
    // f7 f8 and h7 h8), a2 passed but blocked by the knight a3. Black: the
    // pawn d5, passed and undefended, whose square ahead d4 White's king
    // reaches in 3 and Black's in 4.
    let fen = "6k1/8/8/3p4/4N3/nB3Q2/P7/4K2R w - - 0 1";
    let t = traces(&v, &[fen.to_string()]).unwrap().remove(0);
    let count = |name: &str| t.coefs.iter().find(|c| c.0 as usize == named(&v, name)).map_or(0.0, |c| c.1);
    assert_eq!(count("knight.threatened"), -1.0);
    assert_eq!(count("knight.hanging"), 0.0);
    assert_eq!(count("pawn.hanging"), 1.0);
    assert_eq!(count("pawn.threatened"), 0.0);
    assert_eq!(count("rook.royal_zone"), 2.0);
    assert_eq!(count("queen.royal_zone"), 2.0);
    assert_eq!(count("bishop.royal_zone"), 0.0);
    // Two pieces attacking four squares: 2 * 4 / 4.
    assert_eq!(count("royal_danger"), 2.0);
    assert_eq!(count("passed_blocked"), 1.0);
    // Black's passer one rank beyond the third, its king one step behind.
    assert_eq!(count("passed_royal"), 1.0);
    // Safe checks on g8: Nf6, Bxd5, Rg1, Qg2, Qg3 and Qg4 (Rh8, Qf7, Qf8
    // are next to the king); Black's Nc2 is covered by the bishop.
    assert_eq!(count("knight.safe_check"), 1.0);
    assert_eq!(count("bishop.safe_check"), 1.0);
    assert_eq!(count("rook.safe_check"), 1.0);
    assert_eq!(count("queen.safe_check"), 3.0);
    // Mobility by count: Ne4 reaches 8 squares, Na3 4, Qf3 17.
    assert_eq!((count("knight.mob8"), count("knight.mob4"), count("queen.mob17")), (1.0, -1.0, 1.0));
    let names: Vec<String> = Weights::active(&v).into_iter().map(|(_, n)| n).collect();
    let cells = |kind: &str| {
        names
            .iter()
            .filter(|n| n.strip_prefix(&format!("{kind}.mob")).is_some_and(|c| c.parse::<u32>().is_ok()))
            .count()
    };
    assert_eq!((cells("knight"), cells("bishop"), cells("rook"), cells("queen"), cells("king")), (9, 14, 15, 28, 0));
}

#[test]
fn eval_tables_are_not_inherited() {
    let chess = Variant::new("chess", &[]).unwrap();
    let text = "name = \"chess-plain-eval\"\nbase = \"chess\"\n";
    let v = Variant::from_toml(text, "plain.toml", &fairyforge::Registry).unwrap();
    assert_eq!(v.weights, None);
    let mut same_rules = chess.clone();
    same_rules.weights = None;
    same_rules.name = v.name.clone();
    same_rules.description = v.description.clone();
    assert_eq!(v, same_rules, "everything but the weights is inherited");
}

#[test]
fn burden_weights_follow_the_royal_and_the_army() {
    let opts = |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let canonical = Variant::new("burden", &[]).unwrap();
    assert!(canonical.weights.is_some(), "the shipped fit is the king's with pawns");
    // A setup of other size keeps the pieces, and the weights.
    assert_eq!(Variant::new("burden", &opts(&[("files", "6")])).unwrap().weights, canonical.weights);
    // Knights only: another game, the defaults.
    assert_eq!(Variant::new("burden", &opts(&[("army", "knights")])).unwrap().weights, None);
    // The Maharajah has a fit of its own ([royal_eval.maharajah]), also on
    // other setup sizes; the Gryphon has none and plays with the defaults.
    let maharajah = Variant::new("burden", &opts(&[("royal", "maharajah")])).unwrap();
    let w = maharajah.weights.clone().expect("the Maharajah's fit");
    assert_ne!(Some(&w), canonical.weights.as_ref());
    assert!(w.get(named(&maharajah, "maharajah.value"))[0] > 100.0);
    let wide = Variant::new("burden", &opts(&[("royal", "maharajah"), ("files", "10")])).unwrap();
    assert_eq!(wide.weights, Some(w));
    assert_eq!(Variant::new("burden", &opts(&[("royal", "gryphon")])).unwrap().weights, None);
}

#[test]
fn royal_eval_tables_need_the_burden_options() {
    let text = "name = \"chess-royal-eval\"\nbase = \"chess\"\n[royal_eval.maharajah]\ntempo = 3\n";
    let e = Variant::from_toml(text, "r.toml", &fairyforge::Registry).unwrap_err().to_string();
    assert!(e.contains("royal_eval") && e.contains("options = \"burden\""), "{e}");
}

#[test]
fn a_fit_is_the_same_bit_for_bit_on_any_number_of_threads() {
    let v = Variant::new("chess", &[]).unwrap();
    // Enough positions for several parallel chunks.
    let ts = traces(&v, &random_fens(&v, 120, 100)).unwrap();
    let samples = drawn(ts, &Weights::defaults(&v), None, 11);
    let (held, train) = samples.split_at(samples.len() / 5);
    let start = Weights::defaults(&v);
    let params: Vec<usize> = Weights::active(&v).into_iter().map(|(i, _)| i).collect();
    let o = FitOptions { epochs: 20, rate: 1.0, l2: 1e-7, report_every: 5, anchor: None, lambda: 1.0 };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| fit(&start, &params, train, held, o))
    };
    let (one, two) = (on(1), on(2));
    assert_eq!((one.before, one.after), (two.before, two.after));
    assert_eq!(one.weights, two.weights);
}
