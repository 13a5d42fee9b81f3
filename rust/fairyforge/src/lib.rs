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

mod bitboard;
mod board;
mod error;
mod geometry;
mod magic;
mod moves;
mod piece;
mod protocol;
mod rules;
mod search;
mod types;
mod zobrist;

pub use bitboard::BitSet;
pub use board::game::{format_divide, AnyPosition, Board};
pub use board::outcome::{Outcome, Termination};
pub use board::perft::{Cancelled, MAX_PERFT_DEPTH};
pub use board::position::Position;
pub use board::query::Problem;
pub use board::uci::{parse_coordinates, Coordinates};
pub use error::{Error, ErrorKind};
pub use geometry::Size;
pub use moves::{Move, MoveList, Special};
pub use piece::{ByColor, Color, Kind, Piece};
pub use protocol::{run_uci, run_xboard};
pub use rules::castling::{CastleMove, Castling};
pub use rules::definition::{Bases, Registry};
pub use rules::movement::{KindSpec, Line, Mode};
pub use rules::terms::{Weights, KIND_TERM_NAMES, TERM_NAMES};
pub use rules::variant::{Cycle, StalemateRule, Variant, BURDEN_OPTIONS, VARIANTS};
pub use search::clock::{budget, Budget, Clock, HARD_SHARE, HORIZON, LAST_MOVE_SHARE};
pub use search::eval::{evaluate, EvalKind, Trace};
pub use search::tt::MAX_HASH_MB;
pub use search::tune::{fit, traces, Fit, FitOptions, Sample};
pub use search::{search, Engine, Info, Limits, Score, SearchResult, DEFAULT_DEPTH};
pub use types::{MATE, MATE_BOUND, MAX_PLY};
