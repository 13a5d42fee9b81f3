//! Loading a variant definition (a file or TOML text): compiled by
//! [`crate::rules::definition`], its start position checked as a position
//! of the variant, then registered under its name. Also evaluation weights
//! files for a variant.

use crate::board::game::AnyPosition;
use crate::error::Error;
use crate::rules::definition::{self, Bases, Source};
use crate::rules::terms::Weights;
use crate::rules::variant::Variant;

/// Read and compile a definition whose start position must be a legal
/// position of the variant.
fn load(src: &Source, bases: &dyn Bases) -> Result<Variant, Error> {
    let raw = definition::parse_toml(src)?;
    let resolved = definition::resolve(&raw, src, bases)?;
    let v = definition::compile(&resolved, src)?;
    AnyPosition::new(&v, None).map_err(|e| definition::err(src, "start", e.to_string()))?;
    Ok(v)
}

impl Variant {
    /// Read a definition from TOML text (`origin` names it in errors, such
    /// as a file name); `base` names resolve against `bases`.
    pub fn from_toml(text: &str, origin: &str, bases: &dyn definition::Bases) -> Result<Variant, Error> {
        load(&Source { origin, text }, bases)
    }

    /// Read a definition file and add it to the process's registry, so that
    /// its name works wherever a variant name does; `base` names resolve
    /// against the registry and the shipped definitions.
    pub fn load_file(path: &str) -> Result<Variant, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::definition(path, format!("cannot read: {e}")))?;
        let v = load(&Source { origin: path, text: &text }, &definition::Registry)?;
        definition::register(&v)?;
        Ok(v)
    }

    /// Read a definition from TOML text and add it to the registry.
    pub fn load_text(text: &str, origin: &str) -> Result<Variant, Error> {
        let v = load(&Source { origin, text }, &definition::Registry)?;
        definition::register(&v)?;
        Ok(v)
    }

    /// Read a weights file written for this variant (`fairyforge tune`):
    /// its terms replace this variant's weights, the others stay.
    pub fn weights_file(&self, path: &str) -> Result<Weights, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::definition(path, format!("cannot read: {e}")))?;
        definition::weights_file(&Source { origin: path, text: &text }, self)
    }

    /// [`Variant::weights_file`] from TOML text.
    pub fn weights_text(&self, text: &str, origin: &str) -> Result<Weights, Error> {
        definition::weights_file(&Source { origin, text }, self)
    }

    /// The weights the evaluation uses: the definition's, or the defaults.
    pub fn eval_weights(&self) -> Weights {
        self.weights.clone().unwrap_or_else(|| Weights::defaults(self))
    }

    /// The text of a weights file holding `w` for this variant.
    pub fn write_weights(&self, w: &Weights) -> String {
        definition::write_weights(self, w)
    }
}
