//! Value rules of the Profile: RFC 822 dates (§3.2), e-mail addresses (§3.3), full URLs
//! (§3.4), language codes (§4.1.1.10), MIME types, form component names, integers; and the
//! raw-content reader for plain-text elements (§3.1).

mod date;
mod fields;
mod html;
mod raw;
#[cfg(test)]
mod tests;
mod url;

pub use date::*;
pub use fields::*;
pub use html::*;
pub use raw::*;
pub use url::*;
