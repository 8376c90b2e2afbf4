//! The processing options every function takes as keyword arguments: the CLI's flags, with
//! `_` for `-` (`spec_exact`, `base_url`, `sanitize`, `allow_video_embeds`, `extract`,
//! `as_of`, and every limit of [`Limits::ALL`] by its name), read into [`Settings`].
//! A name that is no option, or a value of the wrong type, raises `TypeError`; a value out of
//! range (a negative limit, an unknown `sanitize` mode, a base URL that is not absolute, a
//! naive `as_of` datetime, `as_of` without `extract`) raises `ValueError`. Nothing is ignored silently.

use feedmill::bulk::Config;
use feedmill::extract::ExtractOptions;
use feedmill::sanitize::SanitizeOptions;
use feedmill::Limits;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

/// The options that are not limits, in the order the docs list them.
const FLAGS: [&str; 6] =
    ["spec_exact", "base_url", "sanitize", "allow_video_embeds", "extract", "as_of"];

/// What records are processed with: the CLI's flags. Two calls with equal settings share a
/// worker (see `with_worker`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    /// `--spec-exact`: no web recovery rule.
    pub(crate) spec_exact: bool,
    /// `--max-*`.
    pub(crate) limits: Limits,
    /// `--base-url`: the base URL of documents without a URL of their own.
    pub(crate) base_url: Option<String>,
    /// `--sanitize strict`.
    pub(crate) strict: bool,
    /// `--allow-video-embeds` (with `strict` only).
    pub(crate) allow_video_embeds: bool,
    /// `--extract`.
    pub(crate) extract: bool,
    /// `--as-of` (with `extract` only): the instant `future` dates are compared with when a
    /// record has no capture date; `None`: the time of the call.
    pub(crate) as_of: Option<feedmill::Timestamp>,
}

impl Settings {
    /// The settings named by `kwargs` (the keyword arguments of the function `func` not
    /// taken by name), the defaults for the others.
    pub(crate) fn from_kwargs(func: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut s = Settings::default();
        let Some(kwargs) = kwargs else { return Ok(s) };
        for (k, v) in kwargs.iter() {
            let name: String = k.extract()?;
            s.set(func, &name, &v)?;
        }
        if s.allow_video_embeds && !s.strict {
            return Err(PyValueError::new_err(format!(
                "{func}(): allow_video_embeds=True requires sanitize=\"strict\""
            )));
        }
        if s.as_of.is_some() && !s.extract {
            return Err(PyValueError::new_err(format!(
                "{func}(): as_of is the reference instant of extract=True; it requires it"
            )));
        }
        Ok(s)
    }

    fn set(&mut self, func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<()> {
        match name {
            "spec_exact" => self.spec_exact = flag(func, name, v)?,
            "allow_video_embeds" => self.allow_video_embeds = flag(func, name, v)?,
            "extract" => self.extract = flag(func, name, v)?,
            "sanitize" => {
                self.strict = match string(func, name, v)?.as_str() {
                    "spec" => false,
                    "strict" => true,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "{func}(): sanitize must be \"spec\" or \"strict\", not {other:?}"
                        )))
                    }
                }
            }
            "as_of" => self.as_of = if v.is_none() { None } else { Some(instant(func, name, v)?) },
            "base_url" => {
                self.base_url = match v.is_none() {
                    true => None,
                    false => {
                        let u = string(func, name, v)?;
                        if let Err(e) = url::Url::parse(&u) {
                            return Err(PyValueError::new_err(format!(
                                "{func}(): base_url {u:?} is not an absolute URL: {e}"
                            )));
                        }
                        Some(u)
                    }
                }
            }
            // The limits by the names the library gives them (`Limits::ALL`); a flag spelling
            // (`max-depth`) is no Python keyword, so only the field name is taken.
            _ => match Limits::by_name(name).filter(|l| l.name() == name) {
                Some(l) => l.set(&mut self.limits, limit(func, name, v)?),
                None => {
                    return Err(PyTypeError::new_err(format!(
                        "{func}() got an unexpected keyword argument '{name}' (options: {})",
                        names().join(", ")
                    )))
                }
            },
        }
        Ok(())
    }

    /// The bulk configuration of these settings, for one thread.
    pub(crate) fn config(&self) -> Config {
        let mut cfg = Config { threads: 1, base_url: self.base_url.clone(), ..Config::default() };
        cfg.options.spec_exact = self.spec_exact;
        cfg.options.limits = self.limits.clone();
        // `max_url_growth` bounds every stage that resolves relative URLs: the parser's,
        // strict sanitizing's (per record) and extraction's body images (per feed).
        let max_url_growth = self.limits.max_url_growth;
        cfg.extract = self.extract.then(|| ExtractOptions {
            as_of: self.as_of,
            max_url_growth,
            ..ExtractOptions::default()
        });
        cfg.sanitize = self.strict.then_some(SanitizeOptions {
            base_url: None,
            allow_video_embeds: self.allow_video_embeds,
            max_url_growth,
        });
        cfg
    }

    /// Whether these are the settings of a call without options (the WARC readers take only
    /// `max_input_bytes` unless they parse).
    pub(crate) fn only_reading(&self) -> bool {
        let mut reading = Settings::default();
        reading.limits.max_input_bytes = self.limits.max_input_bytes;
        *self == reading
    }
}

/// Every option's name: the flags, then the limits.
pub(crate) fn names() -> Vec<&'static str> {
    FLAGS.into_iter().chain(Limits::ALL.iter().map(|l| l.name())).collect()
}

fn flag(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    match v.cast::<PyBool>() {
        Ok(b) => Ok(b.is_true()),
        Err(_) => Err(type_error(func, name, "a bool", v)),
    }
}

fn string(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    match v.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(type_error(func, name, "a str", v)),
    }
}

/// An instant: an aware `datetime`, or a str in RFC 3339 or W3C-DTF (`2026-11-28`, midnight
/// UTC) as `--as-of` reads it. A naive `datetime` (no UTC offset) is a `ValueError`: which
/// zone it means is unknown.
fn instant(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<feedmill::Timestamp> {
    let text = if is_aware_datetime(func, name, v)? {
        v.call_method0("isoformat")?.extract::<String>()?
    } else if v.is_instance_of::<PyString>() {
        string(func, name, v)?
    } else {
        return Err(type_error(func, name, "a datetime or a str", v));
    };
    feedmill::model::date::parse_rfc3339(&text)
        .or_else(|| feedmill::model::date::parse_w3cdtf(&text))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{func}(): {name} must be an RFC 3339 or W3C-DTF date, not {text:?}"
            ))
        })
}

/// Whether `v` is a `datetime`; a naive one (no UTC offset) is a `ValueError` naming `name`:
/// which zone it means is unknown.
pub(crate) fn is_aware_datetime(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<bool> {
    let datetime = v.py().import("datetime")?.getattr("datetime")?;
    if !v.is_instance(&datetime)? {
        return Ok(false);
    }
    if v.call_method0("utcoffset")?.is_none() {
        return Err(PyValueError::new_err(format!(
            "{func}(): {name} must be an aware datetime (with a tzinfo), not a naive one"
        )));
    }
    Ok(true)
}

fn limit(func: &str, name: &str, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    // A bool is an int in Python; as a limit it is a mistake.
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(type_error(func, name, "an int", v));
    }
    v.extract::<usize>().map_err(|_| {
        PyValueError::new_err(format!(
            "{func}(): {name} must be a non-negative integer that fits in usize, not {v}"
        ))
    })
}

pub(crate) fn type_error(func: &str, name: &str, want: &str, v: &Bound<'_, PyAny>) -> PyErr {
    let ty = v.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
    PyTypeError::new_err(format!("{func}(): {name} must be {want}, not {ty}"))
}
