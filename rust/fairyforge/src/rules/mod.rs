//! What the game is: the variant as data (piece kinds, royals, evolution,
//! promotion, castling and end rules), the per-variant tables move
//! generation reads, attack tests and the piece-square values.

pub(crate) mod attacks;
pub(crate) mod betza;
pub(crate) mod castling;
pub(crate) mod definition;
pub(crate) mod movement;
pub(crate) mod psq;
pub(crate) mod registry;
pub(crate) mod tables;
pub(crate) mod terms;
pub(crate) mod variant;
pub(crate) mod weights;
