//! tokio-util's task helpers (its `rt` and `join-map` features): a
//! `JoinMap` that aborts one task by key and collects the others, and a
//! `LocalPoolHandle` that runs `!Send` futures on its pinned threads.

use std::collections::BTreeMap;
use std::rc::Rc;

use tokio_util::task::{JoinMap, LocalPoolHandle};

use super::{ensure, Outcome};

/// Eight keyed tasks, one aborted by its key before it can finish: the
/// seven others come back under their keys, the aborted one as cancelled.
pub async fn join_map() -> Outcome {
    let (release, released) = tokio::sync::watch::channel(false);
    let mut map = JoinMap::new();
    for key in 0..8u32 {
        let mut released = released.clone();
        map.spawn(key, async move {
            // Wait for the go-ahead, so that the abort below finds the
            // task still running.
            released
                .wait_for(|go| *go)
                .await
                .map_err(|e| format!("release channel: {e}"))?;
            Ok::<u32, String>(key * key)
        });
    }
    ensure!(map.len() == 8, "{} tasks in the map, 8 spawned", map.len());
    ensure!(map.abort(&3), "no task under key 3 to abort");
    release.send_replace(true);
    let mut squares = BTreeMap::new();
    let mut cancelled = Vec::new();
    while let Some((key, joined)) = map.join_next().await {
        match joined {
            Ok(square) => {
                squares.insert(key, square?);
            }
            Err(e) if e.is_cancelled() => cancelled.push(key),
            Err(e) => return Err(format!("task {key}: {e}")),
        }
    }
    ensure!(cancelled == [3], "cancelled: {cancelled:?}, expected [3]");
    let expected: BTreeMap<u32, u32> = (0..8).filter(|k| *k != 3).map(|k| (k, k * k)).collect();
    ensure!(squares == expected, "results {squares:?}");
    Ok("7 joined by key, 1 aborted".to_string())
}

/// Futures that hold an `Rc` (not `Send`) run on the pool's threads, each
/// pinned to one of them, and hand back their results.
pub async fn local_pool() -> Outcome {
    let pool = LocalPoolHandle::new(2);
    let mut handles = Vec::new();
    for i in 0..6u64 {
        handles.push(pool.spawn_pinned(move || async move {
            let shared = Rc::new(i);
            tokio::task::yield_now().await;
            *shared * 10
        }));
    }
    let mut total = 0;
    for handle in handles {
        total += handle.await.map_err(|e| format!("pinned task: {e}"))?;
    }
    ensure!(total == 150, "pinned tasks summed to {total}, expected 150");
    let on_every_thread = pool.spawn_pinned_by_idx(|| async { 1u8 }, 1).await;
    ensure!(
        matches!(on_every_thread, Ok(1)),
        "spawn_pinned_by_idx gave {on_every_thread:?}"
    );
    Ok("6 !Send futures on 2 pinned threads".to_string())
}
