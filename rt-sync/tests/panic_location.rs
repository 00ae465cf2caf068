//! A misuse panic names the caller's line, not a line inside rt-sync.

use rt_sync::{broadcast, mpsc, RwLock, Semaphore};
use std::panic;
use std::sync::{Arc, Mutex};

/// The file a panic inside `f` reports as its location.
fn panic_file(f: impl FnOnce() + panic::UnwindSafe) -> Option<String> {
    let seen = Arc::new(Mutex::new(None));
    let previous = panic::take_hook();
    {
        let seen = seen.clone();
        panic::set_hook(Box::new(move |info| {
            *seen.lock().unwrap() = info.location().map(|l| l.file().to_string());
        }));
    }
    let result = panic::catch_unwind(f);
    panic::set_hook(previous);
    assert!(result.is_err(), "expected a panic");
    let file = seen.lock().unwrap().take();
    file
}

// One test, so that no other test's panic meets the hook.
#[test]
fn misuse_panics_point_at_the_caller() {
    let here = Some(file!().to_string());
    assert_eq!(panic_file(|| drop(broadcast::channel::<u8>(0))), here);
    assert_eq!(panic_file(|| drop(mpsc::channel::<u8>(0))), here);
    assert_eq!(
        panic_file(|| {
            let _ = RwLock::with_max_readers((), 0);
        }),
        here
    );
    assert_eq!(
        panic_file(|| {
            let (a, b) = (Semaphore::new(1), Semaphore::new(1));
            let mut permit = a.try_acquire().unwrap();
            permit.merge(b.try_acquire().unwrap());
        }),
        here
    );
}
