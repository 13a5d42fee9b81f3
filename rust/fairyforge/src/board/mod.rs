//! What a position is and does: the position and its moves (generation
//! with legality and check tests), game ends, FEN, coordinate and SAN
//! notation, perft, the game with its history, and loading definitions.

pub(crate) mod captures;
pub(crate) mod fen;
pub(crate) mod game;
pub(crate) mod load;
pub(crate) mod movegen;
pub(crate) mod outcome;
pub(crate) mod perft;
pub(crate) mod position;
pub(crate) mod query;
pub(crate) mod san;
pub(crate) mod uci;
