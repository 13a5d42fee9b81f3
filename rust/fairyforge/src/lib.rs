//! # fairyforge
//!
//! A chess-variant engine: bitboard move generation for boards of 4 to 12
//! files and ranks (at most 128 squares, with a 64-bit fast path for 8x8),
//! variants described as data, perft and search.
//!
//! ```
//! use fairyforge::{Board, Variant};
//! let board = Board::new(Variant::new("chess", &[]).unwrap(), None).unwrap();
//! assert_eq!(board.pos.perft(3), 8902);
//! let shocking = Board::new(Variant::new("shocking", &[]).unwrap(), None).unwrap();
//! assert_eq!(shocking.pos.legal_moves().len(), 20);
//! ```

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod error;
pub mod eval;
pub mod fen;
pub mod geometry;
pub mod magic;
pub mod movegen;
pub mod moves;
mod ordering;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod psq;
pub mod san;
pub mod search;
pub mod tt;
pub mod uci;
pub mod variant;
pub mod zobrist;

pub use bitboard::BitSet;
pub use board::{format_divide, AnyPosition, Board};
pub use error::{Error, ErrorKind};
pub use eval::EvalKind;
pub use geometry::Size;
pub use moves::{Move, MoveList, Special};
pub use outcome::{Outcome, Termination};
pub use piece::{ByColor, Color, Kind, Piece};
pub use position::Position;
pub use protocol::{run_uci, run_xboard};
pub use search::{search, Engine, Info, Limits, Score, SearchResult};
pub use variant::Variant;
