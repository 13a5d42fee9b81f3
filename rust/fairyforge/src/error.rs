//! Errors returned by the engine. Every error names the field (FEN field,
//! option name, move text) and says what is wrong with it.

use std::fmt;

/// What kind of input was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A FEN that cannot be parsed or describes an invalid position.
    Fen,
    /// A move that cannot be parsed.
    InvalidMove,
    /// A well-formed move that is not legal in the position.
    IllegalMove,
    /// A SAN that matches more than one legal move.
    AmbiguousMove,
    /// An unknown variant, unknown option or bad option value.
    Option,
    /// A variant definition that cannot be read or cannot work.
    Definition,
}

/// An engine error: its kind, the field it concerns and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Category of the error.
    pub kind: ErrorKind,
    /// The field concerned (FEN field name, option name, move text).
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl Error {
    /// A FEN error in `field`.
    pub fn fen(field: &str, message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Fen, field: field.to_string(), message: message.into() }
    }
    /// An option or variant error for `field`.
    pub fn option(field: &str, message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Option, field: field.to_string(), message: message.into() }
    }
    /// A variant-definition error at `place` (file, line and key).
    pub fn definition(place: &str, message: impl Into<String>) -> Error {
        Error { kind: ErrorKind::Definition, field: place.to_string(), message: message.into() }
    }
    /// A move error of the given kind about move text `text`.
    pub fn mv(kind: ErrorKind, text: &str, message: impl Into<String>) -> Error {
        Error { kind, field: text.to_string(), message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Fen => write!(f, "invalid FEN ({}): {}", self.field, self.message),
            ErrorKind::Option => write!(f, "invalid option {}: {}", self.field, self.message),
            ErrorKind::Definition => write!(f, "invalid variant definition {}: {}", self.field, self.message),
            ErrorKind::InvalidMove => write!(f, "invalid move {:?}: {}", self.field, self.message),
            ErrorKind::IllegalMove => write!(f, "illegal move {:?}: {}", self.field, self.message),
            ErrorKind::AmbiguousMove => write!(f, "ambiguous move {:?}: {}", self.field, self.message),
        }
    }
}

impl std::error::Error for Error {}
