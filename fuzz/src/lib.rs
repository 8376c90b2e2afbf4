//! Support crate of the fuzz targets: the shared invariant checks (also compiled by
//! `tests/it/fuzz_regressions.rs`) and `Arbitrary` impls for the structured inputs.
//!
//! The structured inputs implement `Arbitrary` by hand, on top of the byte decoders in
//! [`checks`], so that a crash artifact's raw bytes decode to the same value in the target
//! and in the stable replay test (which cannot depend on `arbitrary`). `cargo fuzz fmt
//! <target> <artifact>` prints the decoded value.

#[path = "checks/mod.rs"]
pub mod checks;

use arbitrary::{Arbitrary, Result, Unstructured};
use checks::{DecodeCase, LimitsCase, ResponseCase};

macro_rules! arbitrary_via_decode {
    ($t:ty) => {
        impl<'a> Arbitrary<'a> for $t {
            fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
                let n = u.len();
                Ok(<$t>::decode(u.bytes(n)?))
            }
            fn arbitrary_take_rest(u: Unstructured<'a>) -> Result<Self> {
                Ok(<$t>::decode(u.take_rest()))
            }
        }
    };
}

arbitrary_via_decode!(ResponseCase);
arbitrary_via_decode!(LimitsCase);
arbitrary_via_decode!(DecodeCase);
