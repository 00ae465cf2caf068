//! `RT_SEED` seeds a runtime built without `Builder::rng_seed`. One test in
//! its own binary: it changes the process environment.

use rt_core::runtime::{Builder, RngSeed};
use std::io;

#[test]
fn rt_seed_environment_variable() {
    std::env::set_var("RT_SEED", "1234");
    let rt = Builder::new_current_thread().build().unwrap();
    assert_eq!(rt.handle().rng_seed(), RngSeed::from_u64(1234));

    // An explicit seed wins over the environment.
    let rt = Builder::new_current_thread()
        .rng_seed(RngSeed::from_u64(5))
        .build()
        .unwrap();
    assert_eq!(rt.handle().rng_seed(), RngSeed::from_u64(5));

    // A malformed value is a clear error, not a silently random seed.
    std::env::set_var("RT_SEED", "not-a-number");
    let err = Builder::new_current_thread().build().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("RT_SEED"), "{err}");

    std::env::remove_var("RT_SEED");
    assert!(Builder::new_current_thread().build().is_ok());
}
