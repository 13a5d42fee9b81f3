//! Arguments from Python, converted so that no input raises anything but
//! the documented errors: text with lone surrogates is read with them
//! replaced (the parsers then name the bad character), and integers of any
//! size or sign are checked against the field's range (an
//! `InvalidOptionError` naming the field and the range) instead of raising
//! `OverflowError`.

use super::InvalidOptionError;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

/// A `str` argument; lone surrogates become U+FFFD.
pub(crate) struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Text> {
        let s = obj.cast::<PyString>().map_err(|_| {
            let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
            PyTypeError::new_err(format!("expected a string, got {name}"))
        })?;
        Ok(Text(s.to_string_lossy().into_owned()))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(s.to_string())
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// An `int` argument of any size: checked against a range with [`Int::get`].
pub(crate) struct Int {
    /// The value, when it fits an `i64`.
    value: Option<i64>,
    /// The value as Python prints it, for messages.
    text: String,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if obj.cast::<PyInt>().is_err() || obj.cast::<PyBool>().is_ok() {
            let name = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
            return Err(PyTypeError::new_err(format!("expected an integer, got {name}")));
        }
        Ok(Int { value: obj.extract::<i64>().ok(), text: obj.str()?.to_string_lossy().into_owned() })
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int { value: Some(v), text: v.to_string() }
    }
}

impl Int {
    /// The value when it lies in `min..=max`, else an error naming `field`
    /// and the range.
    pub(crate) fn get(&self, field: &str, min: i64, max: i64) -> PyResult<i64> {
        match self.value {
            Some(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(InvalidOptionError::new_err(format!(
                "invalid option {field}: {} is outside {min}..{max}",
                self.text
            ))),
        }
    }

    /// [`Int::get`] for an unsigned field.
    pub(crate) fn unsigned(&self, field: &str, min: u64, max: u64) -> PyResult<u64> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        Ok(self.get(field, min as i64, max)? as u64)
    }
}

/// An optional [`Int`] in a range.
pub(crate) fn opt(v: &Option<Int>, field: &str, min: u64, max: u64) -> PyResult<Option<u64>> {
    v.as_ref().map(|i| i.unsigned(field, min, max)).transpose()
}

/// Most search threads and MultiPV lines a caller may ask for.
pub(crate) const MAX_THREADS: u64 = 512;
/// Most MultiPV lines.
pub(crate) const MAX_MULTIPV: u64 = 512;
