//! The UCI loop driven in-process, for every variant: handshake, options,
//! positions, searches, `stop` timing, perft, bad input.

mod protocol_common;

use fairyforge::{AnyPosition, Board, Variant};
use protocol_common::{random_game, Session};
use std::time::{Duration, Instant};

const VARIANTS: [&str; 4] = ["chess", "shocking", "burden", "evolution"];

fn variant(name: &str) -> Variant {
    Variant::new(name, &[]).unwrap()
}

/// A session set to `name`, after `isready`.
fn session(name: &str) -> Session {
    let mut s = Session::uci();
    s.send("uci");
    s.until_prefix("uciok");
    s.send(&format!("setoption name UCI_Variant value {name}"));
    s.send("ucinewgame");
    s.send("isready");
    let lines = s.until_prefix("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    s
}

/// The move of a `bestmove` line, checked legal in `pos`.
fn legal_bestmove(pos: &AnyPosition, line: &str) -> String {
    let mut t = line.split_whitespace();
    assert_eq!(t.next(), Some("bestmove"), "{line}");
    let m = t.next().unwrap_or_else(|| panic!("no move in {line:?}"));
    assert!(pos.parse_uci(m).is_ok(), "{m} is not legal in {} ({})", pos.fen(), line);
    m.to_string()
}

/// Check an `info` line is in the UCI spec's order and its pv is legal.
fn check_info(pos: &AnyPosition, line: &str) {
    let t: Vec<&str> = line.split_whitespace().collect();
    let keys = ["info", "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"];
    let mut i = 0;
    for k in keys {
        assert_eq!(t.get(i), Some(&k), "{line}");
        i += match k {
            "info" => 1,
            "score" => {
                assert!(matches!(t[i + 1], "cp" | "mate"), "{line}");
                assert!(t[i + 2].parse::<i32>().is_ok(), "{line}");
                3
            }
            "pv" => 1,
            _ => {
                assert!(t[i + 1].parse::<u64>().is_ok(), "{line}");
                2
            }
        };
    }
    let mut p = *pos;
    for m in &t[i..] {
        let mv = p.parse_uci(m).unwrap_or_else(|e| panic!("pv move {m} in {line}: {e}"));
        p = p.after(mv);
    }
    assert!(t.len() > i, "empty pv: {line}");
}

#[test]
fn handshake_lists_the_variants_and_options() {
    let mut s = Session::uci();
    s.send("uci");
    let lines = s.until_prefix("uciok");
    assert_eq!(lines[0], format!("id name fairyforge {}", env!("CARGO_PKG_VERSION")));
    assert!(lines[1].starts_with("id author "));
    let has = |l: &str| lines.iter().any(|x| x == l);
    let vars: String = Variant::names().iter().map(|v| format!(" var {v}")).collect();
    assert!(has(&format!("option name UCI_Variant type combo default chess{vars}")));
    assert!(vars.starts_with(" var chess var shocking var burden var evolution var capablanca"));
    assert!(has("option name VariantPath type string default <empty>"));
    assert!(has("option name Hash type spin default 16 min 1 max 4096"));
    assert!(has("option name Clear Hash type button"));
    assert!(has("option name Move Overhead type spin default 30 min 0 max 5000"));
    assert!(has("option name royal type combo default king var king var maharajah var gryphon"));
    assert!(has("option name royal_may_move_into_check type check default false"));
    assert!(has("option name files type spin default 8 min 4 max 12"));
    assert!(!lines.iter().any(|l| l.contains("Ponder")));
    s.send("isready");
    assert_eq!(s.until_prefix("readyok"), ["readyok"]);
    s.close(Duration::from_secs(2));
}

#[test]
fn every_variant_plays_legal_moves_and_reports_well_formed_info() {
    for name in VARIANTS {
        let mut s = session(name);
        let mut board = Board::new(variant(name), None).unwrap();
        for (i, go) in ["go depth 3", "go movetime 60", "go nodes 3000", "go depth 2"].iter().enumerate() {
            let moves: Vec<String> = board.history.iter().map(|(p, m)| p.uci(*m)).collect();
            s.send(&format!("position startpos moves {}", moves.join(" ")));
            s.send(go);
            let lines = s.until_prefix("bestmove");
            let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
            assert!(!infos.is_empty(), "{name} {go}: {lines:?}");
            for l in infos {
                check_info(&board.pos, l);
            }
            let m = legal_bestmove(&board.pos, lines.last().unwrap());
            if go.contains("depth 3") {
                assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{lines:?}");
            }
            let mv = board.pos.parse_uci(&m).unwrap();
            board.push_unchecked(mv);
            assert!(i < 4);
        }
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn stop_during_go_infinite_answers_within_50_ms() {
    for name in VARIANTS {
        let mut s = session(name);
        s.send("position startpos");
        s.send("go infinite");
        let early = s.drain(Duration::from_millis(300));
        assert!(early.iter().any(|l| l.starts_with("info depth")), "{name}: {early:?}");
        assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{name}: bestmove before stop");
        s.send("isready");
        let (_, ready_at) = s.until_timed(Duration::from_secs(1), |l| l == "readyok");
        let sent = s.send("stop");
        let (lines, at) = s.until_timed(Duration::from_secs(1), |l| l.starts_with("bestmove"));
        let took = at.saturating_duration_since(sent);
        assert!(took < Duration::from_millis(50), "{name}: bestmove {took:?} after stop");
        assert!(ready_at <= at);
        legal_bestmove(&AnyPosition::new(&variant(name), None).unwrap(), lines.last().unwrap());
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_search_is_done() {
    let mut s = session("chess");
    // Mate in one: the search ends at once, the answer must wait.
    s.send("position fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    s.send("go infinite");
    let early = s.drain(Duration::from_millis(300));
    assert!(early.iter().any(|l| l.contains("score mate 1")), "{early:?}");
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    let sent = s.send("stop");
    let (lines, at) = s.until_timed(Duration::from_secs(1), |l| l.starts_with("bestmove"));
    assert!(at.saturating_duration_since(sent) < Duration::from_millis(50));
    assert!(lines.last().unwrap().starts_with("bestmove h5f7"), "{lines:?}");
    // quit during an infinite search ends the loop promptly.
    s.send("go infinite");
    s.until_prefix("info depth");
    s.send("quit");
    s.until_prefix("bestmove");
    s.close(Duration::from_millis(500));
}

#[test]
fn garbage_lines_get_errors_and_leave_the_engine_usable() {
    let mut s = session("shocking");
    let garbage = [
        "hello",
        "position",
        "position nowhere",
        "position fen",
        "position fen 8/8/8 w - - 0 1",
        "position fen dca2acd/mva2avm/ttt2ttt/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1 nonsense e2e4",
        "position startpos e2e4",
        "setoption",
        "setoption name",
        "setoption name Nope value 3",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Threads value 100000",
        "setoption name UCI_Variant value xiangqi",
        "setoption name royal value emperor",
        "go depth",
        "go depth x movetime",
        "go wibble",
    ];
    for g in garbage {
        s.send(g);
        s.send("isready");
        let lines = s.until_prefix("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "no error for {g:?}: {lines:?} (log {:?})",
            s.log
        );
        if g.starts_with("go") {
            s.send("stop");
            s.until_prefix("bestmove");
        }
    }
    s.send_bytes(b"\xff\xfe garbage \x00\x01\n\n   \n\t\n");
    s.send_bytes(&vec![b'x'; 100_000]);
    s.send_bytes(b"\n");
    s.send("isready");
    s.until_prefix("readyok");
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    let lines = s.until_prefix("bestmove");
    let pos = AnyPosition::new(&variant("shocking"), None).unwrap();
    legal_bestmove(&pos.after(pos.parse_uci("e2e4").unwrap()), lines.last().unwrap());
    s.close(Duration::from_secs(2));
}

#[test]
fn an_illegal_move_in_the_list_keeps_the_position_before_it() {
    for name in VARIANTS {
        let mut s = session(name);
        let game = random_game(&variant(name), 6, 7);
        let list = format!("{} {} a1a1 {}", game[0], game[1], game[2]);
        s.send(&format!("position startpos moves {list}"));
        s.send("d");
        let lines = s.until_prefix("Fen: ");
        let error = lines.iter().find(|l| l.starts_with("info string error: ")).expect("an error line");
        assert!(error.contains("move 3") && error.contains("a1a1"), "{error}");
        let mut b = Board::new(variant(name), None).unwrap();
        for m in &game[..2] {
            let mv = b.pos.parse_uci(m).unwrap();
            b.push_unchecked(mv);
        }
        assert_eq!(lines.last().unwrap(), &format!("Fen: {}", b.pos.fen()));
        // A bad FEN leaves that position unchanged.
        s.send("position fen not a fen at all");
        s.send("d");
        let lines = s.until_prefix("Fen: ");
        assert!(lines.iter().any(|l| l.starts_with("info string error: position: invalid FEN")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("Fen: {}", b.pos.fen()));
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn a_position_with_300_moves() {
    for name in VARIANTS {
        let v = variant(name);
        let game = (1..200).map(|seed| random_game(&v, 300, seed)).find(|g| g.len() == 300).expect("a long game");
        let mut b = Board::new(v.clone(), None).unwrap();
        for m in &game {
            let mv = b.pos.parse_uci(m).unwrap();
            b.push_unchecked(mv);
        }
        let mut s = session(name);
        let start = Instant::now();
        s.send(&format!("position startpos moves {}", game.join(" ")));
        s.send("d");
        let lines = s.until_prefix("Fen: ");
        assert!(start.elapsed() < Duration::from_secs(1));
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("Fen: {}", b.pos.fen()));
        s.send("go depth 3");
        let lines = s.until_prefix("bestmove");
        if b.pos.is_shocked() || b.pos.legal_moves().is_empty() {
            assert_eq!(lines.last().unwrap(), "bestmove (none)");
        } else {
            legal_bestmove(&b.pos, lines.last().unwrap());
        }
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn ucinewgame_between_variants() {
    let mut s = session("chess");
    for name in ["shocking", "burden", "evolution", "chess", "burden"] {
        s.send(&format!("setoption name UCI_Variant value {name}"));
        s.send("ucinewgame");
        s.send("position startpos");
        s.send("d");
        let lines = s.until_prefix("Fen: ");
        assert!(lines.contains(&format!("Variant: {name}")), "{lines:?}");
        assert_eq!(lines.last().unwrap(), &format!("Fen: {}", variant(name).start_fen));
        s.send("go depth 3");
        let lines = s.until_prefix("bestmove");
        legal_bestmove(&AnyPosition::new(&variant(name), None).unwrap(), lines.last().unwrap());
    }
    // Burden options apply to Burden only, and bad combinations are refused.
    s.send("setoption name royal value maharajah");
    s.send("setoption name preset value wittman");
    s.send("d");
    let lines = s.until_prefix("Fen: ");
    let wittman =
        Variant::burden(&[("preset".into(), "wittman".into()), ("royal".into(), "maharajah".into())]).unwrap();
    assert_eq!(lines.last().unwrap(), &format!("Fen: {}", wittman.start_fen));
    s.send("setoption name files value 10");
    s.send("isready");
    let lines = s.until_prefix("readyok");
    assert!(lines.iter().any(|l| l.contains("error") && l.contains("files")), "{lines:?}");
    s.send("setoption name preset value none");
    s.send("position startpos moves a4b5");
    s.send("d");
    let lines = s.until_prefix("Fen: ");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with(" | p | p | p | p | p | p | p | p | p | p |")), "{lines:?}");
    s.send("setoption name UCI_Variant value chess");
    s.send("position startpos");
    s.send("d");
    assert_eq!(s.line("Fen: "), format!("Fen: {}", Variant::chess().start_fen));
    s.close(Duration::from_secs(2));
}

/// The final node count of `go depth` on the current position.
fn nodes_at_depth(s: &mut Session, d: u32) -> u64 {
    s.send(&format!("go depth {d}"));
    let lines = s.until_prefix("bestmove");
    let info = lines.iter().rev().find(|l| l.contains(" nodes ")).expect("an info line");
    info.split(" nodes ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
}

/// `ucinewgame` forgets what the searches of the last game learnt (table
/// and history): the next search is a fresh session's, node for node.
#[test]
fn ucinewgame_searches_as_a_fresh_engine() {
    for name in ["chess", "burden"] {
        let moves = random_game(&variant(name), 8, 7).join(" ");
        let position = format!("position startpos moves {moves}");
        let mut fresh = session(name);
        fresh.send(&position);
        let expected = nodes_at_depth(&mut fresh, 5);
        fresh.close(Duration::from_secs(2));
        let mut s = session(name);
        let words: Vec<&str> = moves.split(' ').collect();
        for i in 0..words.len() {
            s.send(&if i == 0 {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", words[..i].join(" "))
            });
            nodes_at_depth(&mut s, 5);
        }
        s.send("ucinewgame");
        s.send(&position);
        assert_eq!(nodes_at_depth(&mut s, 5), expected, "{name}");
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn go_perft_gives_the_known_counts_in_stockfish_format() {
    for (name, depth, total, probe) in [
        ("chess", 3, 8902, "e2e4: 600"),
        ("shocking", 3, 8010, ""),
        ("burden", 3, 3088, ""),
        ("evolution", 3, 22386, ""),
    ] {
        let mut s = session(name);
        s.send("position startpos");
        s.send(&format!("go perft {depth}"));
        let lines = s.until_prefix("Nodes searched");
        assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {total}"));
        let rows: Vec<&String> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
        let pos = AnyPosition::new(&variant(name), None).unwrap();
        assert_eq!(rows.len(), pos.legal_moves().len());
        let sum: u64 = rows.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
        assert_eq!(sum, total);
        assert_eq!(lines[lines.len() - 2], "");
        if !probe.is_empty() {
            assert!(lines.iter().any(|l| l == probe));
        }
        s.close(Duration::from_secs(2));
    }
}

#[test]
fn options_searchmoves_multipv_and_game_ends() {
    let mut s = session("chess");
    s.send("setoption name hash value 8");
    s.send("setoption name THREADS value 2");
    s.send("setoption name MultiPV value 3");
    s.send("setoption name Clear Hash");
    s.send("setoption name Move Overhead value 10");
    s.send("isready");
    let lines = s.until_prefix("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    s.send("position startpos");
    s.send("go depth 4");
    let lines = s.until_prefix("bestmove");
    for k in 1..=3 {
        assert!(lines.iter().any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))));
    }
    s.send("setoption name MultiPV value 1");
    s.send("go depth 4 searchmoves a2a3 h2h3 zz9");
    let lines = s.until_prefix("bestmove");
    assert!(lines.iter().any(|l| l.contains("error") && l.contains("zz9")), "{lines:?}");
    let best = lines.last().unwrap();
    assert!(best.starts_with("bestmove a2a3") || best.starts_with("bestmove h2h3"), "{best}");
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        assert!(l.contains(" pv a2a3") || l.contains(" pv h2h3"), "{l}");
    }
    // Checkmated, stalemated, shocked: no move.
    s.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    s.send("go depth 3");
    let lines = s.until_prefix("bestmove");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    s.send("setoption name UCI_Variant value shocking");
    s.send("position fen 3ct3/8/8/8/8/8/8/4K3 w - - 0 1");
    s.send("go movetime 50");
    assert_eq!(s.line("bestmove"), "bestmove (none)");
    s.send("position startpos");
    s.send("go mate 1");
    legal_bestmove(&AnyPosition::new(&variant("shocking"), None).unwrap(), &s.line("bestmove"));
    s.close(Duration::from_secs(2));
}

#[test]
fn clocks_are_respected() {
    let mut s = session("chess");
    s.send("position startpos moves e2e4 e7e5");
    let sent = s.send("go wtime 1000 btime 1000");
    let (_, at) = s.until_timed(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    assert!(at.duration_since(sent) < Duration::from_millis(450), "{:?}", at.duration_since(sent));
    let sent = s.send("go wtime 60 btime 60");
    let (_, at) = s.until_timed(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    assert!(at.duration_since(sent) < Duration::from_millis(40), "{:?}", at.duration_since(sent));
    let sent = s.send("go wtime 100000 btime 100000 winc 1000 binc 1000 movestogo 1 movetime 150");
    let (_, at) = s.until_timed(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    assert!(at.duration_since(sent) < Duration::from_millis(300), "{:?}", at.duration_since(sent));
    s.close(Duration::from_secs(2));
}
