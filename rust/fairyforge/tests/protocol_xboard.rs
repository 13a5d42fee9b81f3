//! The XBoard loop driven in-process, for every variant: features, setup,
//! play, `?` and `ping` while thinking, game ends, evolution letters, bad
//! input.

mod protocol_common;

use fairyforge::{Board, Variant};
use protocol_common::Session;
use std::time::Duration;

/// The variants as XBoard names them, and ours.
const VARIANTS: [(&str, &str); 4] =
    [("normal", "chess"), ("shocking", "shocking"), ("burden", "burden"), ("evolution", "evolution")];

fn session() -> Session {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    s.until(|l| l == "feature done=1");
    s
}

/// The current FEN, from `d`.
fn fen(s: &mut Session) -> String {
    s.send("d");
    let lines = s.until_prefix("Key: ");
    lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("a Fen line").to_string()
}

/// Play an engine move text (with an optional evolution letter) on `board`.
fn play_engine_move(board: &mut Board, text: &str) {
    let m = board
        .pos
        .parse_uci(text)
        .or_else(|e| text.get(..text.len() - 1).ok_or(e.clone()).and_then(|t| board.pos.parse_uci(t)))
        .unwrap_or_else(|e| panic!("engine move {text} in {}: {e}", board.pos.fen()));
    board.push_unchecked(m);
}

#[test]
fn features_announce_the_protocol_and_the_variants() {
    let mut s = Session::xboard();
    s.send("xboard");
    s.send("protover 2");
    let lines = s.until(|l| l == "feature done=1");
    let first = &lines[0];
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "san=0",
        "memory=1",
        "smp=1",
        "colors=0",
        &format!("myname=\"fairyforge {}\"", env!("CARGO_PKG_VERSION")),
        "variants=\"normal,shocking,burden,evolution,capablanca,",
    ] {
        assert!(first.contains(f), "{f} missing in {first}");
    }
    assert!(lines.contains(&"feature option=\"royal -combo *king /// maharajah /// gryphon\"".to_string()));
    assert!(lines.contains(&"feature option=\"files -spin 8 4 12\"".to_string()));
    s.send("ping 42");
    assert_eq!(s.line("pong"), "pong 42");
    s.close(Duration::from_secs(2));
}

#[test]
fn variants_are_set_up_for_xboard() {
    let mut s = session();
    s.send("new");
    s.send("variant shocking");
    let lines = s.until(|l| l.starts_with("piece v&"));
    assert_eq!(
        lines[0],
        "setup (PNBRQ..............Ktvdm..............ac) 8x8+0_fairy \
         dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"
    );
    for p in
        ["piece c& KpQ2", "piece m& RgR", "piece d& BgB", "piece t& fmWfceFfmpR2fcpB2", "piece a& fmFfcWfmpB2fcpR2"]
    {
        assert!(lines.contains(&p.to_string()), "{p}: {lines:?}");
    }
    s.send("variant evolution");
    assert_eq!(
        s.line("setup"),
        "setup (.NBRQK.nbrqk) 7x6+0_fairy NNN1nnk/NNN1nnn/NNN1nnn/NNN1nnn/NNN1nnn/KNN1nnn w - - 0 1"
    );
    s.send("option royal=maharajah");
    s.send("variant burden");
    let lines = s.until(|l| l.starts_with("piece"));
    assert!(lines.iter().any(|l| l.starts_with("setup (PNB.QHpnb.qh) 8x8+0_fairy 8/pppppppp/")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "piece H& QN");
    s.send("variant normal");
    s.send("variant xiangqi");
    assert_eq!(s.line("Error"), "Error (unknown variant): variant xiangqi");
    assert_eq!(fen(&mut s), Variant::chess().start_fen);
    s.close(Duration::from_secs(2));
}

#[test]
fn the_engine_plays_legal_moves_in_every_variant() {
    for (xb, ours) in VARIANTS {
        let mut s = session();
        s.send("new");
        s.send(&format!("variant {xb}"));
        s.send("sd 2");
        s.send("force");
        let mut board = Board::new(Variant::new(ours, &[]).unwrap(), None).unwrap();
        for i in 0..4 {
            // The engine moves for the side to move, then the test replies.
            s.send("go");
            let lines = s.until_prefix("move ");
            let text = lines.last().unwrap().trim_start_matches("move ");
            play_engine_move(&mut board, text);
            if ours == "burden" || ours == "evolution" {
                assert!(text.len() == 5, "{ours}: {text} carries no evolution letter");
            }
            let legal = board.pos.legal_moves();
            let m = legal[(i * 7) % legal.len()];
            s.send("force");
            s.send(&format!("usermove {}", board.pos.uci(m)));
            board.push_unchecked(m);
            assert_eq!(fen(&mut s), board.pos.fen(), "{ours} after {i} moves");
        }
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn ping_and_move_now_while_thinking() {
    for (xb, ours) in VARIANTS {
        let mut s = session();
        s.send("new");
        s.send(&format!("variant {xb}"));
        s.send("st 30");
        s.send("post");
        s.send("go");
        s.until(|l| l.split_whitespace().count() >= 5 && l.starts_with('3'));
        let sent = s.send("ping 5");
        let (_, at) = s.until_timed(Duration::from_secs(1), |l| l == "pong 5");
        assert!(at.duration_since(sent) < Duration::from_millis(50), "{ours}: pong after {:?}", at - sent);
        let sent = s.send("?");
        let (lines, at) = s.until_timed(Duration::from_secs(1), |l| l.starts_with("move "));
        assert!(at.duration_since(sent) < Duration::from_millis(50), "{ours}: move {:?} after ?", at - sent);
        let mut board = Board::new(Variant::new(ours, &[]).unwrap(), None).unwrap();
        play_engine_move(&mut board, lines.last().unwrap().trim_start_matches("move "));
        assert_eq!(fen(&mut s), board.pos.fen());
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn bad_input_gets_errors_and_illegal_moves_are_refused() {
    let mut s = session();
    s.send("new");
    s.send("variant shocking");
    s.until_prefix("piece v&");
    s.send("force");
    for (cmd, answer) in [
        ("usermove e2e5", "Illegal move (not legal in this position): e2e5"),
        ("usermove z9z9", "Illegal move (bad origin square): z9z9"),
        ("usermove hello", "Illegal move (bad origin square): hello"),
        ("usermove e2", "Illegal move (not a move): e2"),
        ("e7e5", "Error (unknown command): e7e5"),
        ("frobnicate 3", "Error (unknown command): frobnicate 3"),
        ("level 40", "Error (expected level MPS BASE INC): level 40"),
        ("sd deep", "Error (bad number): sd deep"),
        ("memory lots", "Error (bad number): memory lots"),
        ("option nonsense", "Error (expected NAME=VALUE): option nonsense"),
        ("option colour=blue", "Error (unknown option): option colour=blue"),
        ("undo", "Error (no move to take back): undo"),
    ] {
        s.send(cmd);
        s.send("ping 1");
        let lines = s.until(|l| l == "pong 1");
        assert_eq!(lines, [answer, "pong 1"], "{cmd}");
    }
    s.send("setboard not a fen");
    assert!(s.line("tellusererror").starts_with("tellusererror Illegal position: invalid FEN"));
    s.send_bytes(b"\xff\xfe\x00 garbage\n\n");
    s.send("ping 2");
    let lines = s.until(|l| l == "pong 2");
    assert!(lines[0].starts_with("Error (unknown command): "), "{lines:?}");
    assert_eq!(fen(&mut s), Variant::shocking().start_fen);
    // A bare move is a usermove.
    s.send("e2e4");
    s.send("undo");
    s.send("e2e4");
    s.send("e7e5");
    let lines = s.until(|l| l.starts_with("Error"));
    assert_eq!(lines, ["Error (unknown command): e7e5"]);
    s.close(Duration::from_secs(2));
}

#[test]
fn game_ends_are_announced() {
    let mut s = session();
    s.send("new");
    s.send("force");
    s.send("setboard r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    s.send("sd 3");
    s.send("go");
    assert_eq!(s.until_prefix("1-0"), ["move h5f7", "1-0 {White mates}"]);
    s.send("usermove a7a6");
    assert_eq!(s.line("Illegal"), "Illegal move (the game is over: 1-0 {White mates}): a7a6");
    s.send("go");
    assert_eq!(s.line("1-0"), "1-0 {White mates}");
    s.send("new");
    s.send("variant shocking");
    s.send("force");
    s.send("setboard 4c3/8/3t4/8/8/8/8/4K3 b - - 0 1");
    s.send("usermove e8e7");
    assert_eq!(s.line("1-0"), "1-0 {Black is shocked}");
    s.send("undo");
    s.send("remove");
    assert_eq!(s.line("Error"), "Error (no move to take back): remove");
    assert_eq!(fen(&mut s), "4c3/8/3t4/8/8/8/8/4K3 b - - 0 1");
    // Repetition is claimed.
    s.send("new");
    s.send("force");
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        s.send(&format!("usermove {m}"));
    }
    s.send("usermove f6g8");
    assert_eq!(s.line("1/2-1/2"), "1/2-1/2 {Draw by repetition}");
    s.close(Duration::from_secs(2));
}

#[test]
fn burden_moves_carry_evolution_letters_and_drags_are_answered() {
    let mut s = session();
    s.send("new");
    s.send("variant burden");
    s.send("force");
    s.send("usermove a4b5n");
    s.send("usermove c6b5");
    let mut board = Board::new(Variant::burden(&[]).unwrap(), None).unwrap();
    for m in ["a4b5", "c6b5"] {
        let mv = board.pos.parse_uci(m).unwrap();
        board.push_unchecked(mv);
    }
    assert_eq!(fen(&mut s), board.pos.fen());
    s.send("usermove c4b5q");
    assert_eq!(s.line("Illegal"), "Illegal move (that promotion is not allowed): c4b5q");
    s.send("lift c4");
    assert_eq!(s.line("highlight"), "highlight 8/8/8/1B1B4/8/8/8/8");
    s.send("put b5");
    assert_eq!(s.line("choice"), "choice n");
    s.send("lift a1");
    assert_eq!(s.line("highlight"), "highlight 8/8/8/8/8/8/8/8");
    // Ten ranks: XBoard counts them from 0.
    s.send("option pawn_ranks=4");
    let lines = s.until_prefix("setup");
    assert!(lines.last().unwrap().contains(" 8x10+0_fairy 8/pppppppp/pppppppp/pppppppp/pppppppp/"), "{lines:?}");
    s.send("usermove a4b5");
    let mut ten = Board::new(Variant::burden(&[("pawn_ranks".into(), "4".into())]).unwrap(), None).unwrap();
    let mv = ten.pos.parse_uci("a5b6").unwrap();
    ten.push_unchecked(mv);
    assert_eq!(fen(&mut s), ten.pos.fen());
    s.send("sd 1");
    s.send("go");
    let text = s.line("move ").trim_start_matches("move ").to_string();
    let b = text.as_bytes();
    let ours = format!("{}{}{}{}", b[0] as char, b[1] - b'0' + 1, b[2] as char, b[3] - b'0' + 1);
    assert!(ten.pos.parse_uci(&ours).is_ok(), "{text} -> {ours} in {}", ten.pos.fen());
    s.close(Duration::from_secs(2));
}

#[test]
fn analysis_and_clocks() {
    let mut s = session();
    s.send("new");
    s.send("variant evolution");
    s.send("analyze");
    let lines = s.until(|l| l.starts_with("4 "));
    assert!(lines.iter().all(|l| l.split_whitespace().count() >= 5), "{lines:?}");
    s.send("usermove b1d2");
    s.drain(Duration::from_millis(100));
    s.send("exit");
    s.send("ping 9");
    let lines = s.until(|l| l == "pong 9");
    assert!(!lines.iter().any(|l| l.starts_with("move")), "{lines:?}");
    // A five-second clock: the engine answers well inside it.
    s.send("new");
    s.send("level 0 0:05 0");
    s.send("time 500");
    s.send("otim 500");
    s.send("usermove e2e4");
    let sent = std::time::Instant::now();
    let (_, at) = s.until_timed(Duration::from_secs(3), |l| l.starts_with("move "));
    assert!(at.duration_since(sent) < Duration::from_millis(1200), "{:?}", at - sent);
    s.send("go");
    s.send("quit");
    s.close(Duration::from_millis(500));
}
