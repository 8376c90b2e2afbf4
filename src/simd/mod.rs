//! The crate's vector code: every `core::arch` intrinsic is called in this module and
//! nowhere else, each with its safety argument stated once.
//!
//! Owns:
//! - [`block`]: 16-byte blocks as bitmasks (bytes equal to one of a few needles, bytes
//!   below a bound) and the short searches built on them (`find_byte`, `find_any`), plus
//!   the AVX2 scan for forbidden control characters the XML reader runs once per input;
//!   with a portable loop on other targets;
//! - [`v128`] (SSE2, the x86_64 baseline) and [`v256`] (AVX2, where the CPU has it): the lane
//!   operations — load, splat, compare, combine, movemask — from which the byte classes of
//!   other modules are written (URL stop bytes in `model::url`, extraction's word and
//!   whitespace classes in `extract::masks`). Those classes stay with their owners, next to
//!   their byte-by-byte definitions and the tests that check the vector form against them.
//!
//! Byte searches with no fixed block size use the `memchr` crate (its own SIMD) directly.

pub(crate) mod block;
#[cfg(target_arch = "x86_64")]
pub(crate) mod v128;
#[cfg(target_arch = "x86_64")]
pub(crate) mod v256;
