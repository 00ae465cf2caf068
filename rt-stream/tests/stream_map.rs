//! Behaviour of `StreamMap`: the map API, seeded fair polling, removal of
//! ended streams mid-round, `next_many`, and `StreamNotifyClose`.

use std::task::{Context, Poll};

use rt_stream::{self as stream, Stream, StreamExt, StreamMap, StreamNotifyClose};
use rt_test::{counting_waker, poll_next_once, run, seed_thread_rng, Always, Probe, Scripted};

#[test]
fn insert_replaces_and_returns_the_previous_stream() {
    let mut map = StreamMap::new();
    assert!(map.is_empty());
    assert!(map.insert("a", stream::iter(vec![1])).is_none());
    assert!(map.insert("b", stream::iter(vec![2])).is_none());
    let old = map.insert("a", stream::iter(vec![3])).expect("replaced");
    assert_eq!(old.size_hint(), (1, Some(1)));
    assert_eq!(map.len(), 2);
    let mut keys: Vec<_> = map.keys().copied().collect();
    keys.sort();
    assert_eq!(keys, ["a", "b"]);
}

#[test]
fn remove_contains_key_and_clear() {
    let mut map: StreamMap<String, _> = StreamMap::with_capacity(4);
    assert!(map.capacity() >= 4);
    map.insert("x".to_string(), stream::iter(vec![1]));
    map.insert("y".to_string(), stream::iter(vec![2]));
    assert!(map.contains_key("x"));
    assert!(map.remove("x").is_some());
    assert!(!map.contains_key("x"));
    assert!(map.remove("x").is_none());
    assert_eq!(map.values().count(), 1);
    assert_eq!(
        map.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
        ["y"]
    );
    for stream in map.values_mut() {
        assert_eq!(stream.size_hint(), (1, Some(1)));
    }
    for (key, _) in map.iter_mut() {
        key.push('!');
    }
    assert!(map.contains_key("y!"));
    map.clear();
    assert!(map.is_empty());
}

#[test]
fn from_iter_and_extend_keep_keys_unique() {
    let mut map: StreamMap<u8, _> = [(1, stream::iter(vec![1])), (1, stream::iter(vec![2]))]
        .into_iter()
        .collect();
    assert_eq!(map.len(), 1);
    map.extend([(1, stream::iter(vec![3])), (2, stream::iter(vec![4]))]);
    assert_eq!(map.len(), 2);
    let mut got: Vec<(u8, i32)> = run(map.collect());
    got.sort();
    assert_eq!(got, [(1, 3), (2, 4)]);
}

#[test]
fn yields_pairs_and_ends_when_every_stream_has_ended() {
    let mut map = StreamMap::new();
    map.insert(1, stream::iter(vec!['a', 'b']));
    map.insert(2, stream::iter(vec!['c']));
    assert_eq!(map.size_hint(), (3, Some(3)));
    let mut got: Vec<(i32, char)> = run((&mut map).collect());
    got.sort();
    assert_eq!(got, [(1, 'a'), (1, 'b'), (2, 'c')]);
    assert!(map.is_empty());
    assert_eq!(poll_next_once(&mut map), Poll::Ready(None));
    assert_eq!(map.size_hint(), (0, Some(0)));
}

#[test]
fn empty_map_is_ready_with_none() {
    let mut map: StreamMap<u8, stream::Iter<std::vec::IntoIter<u8>>> = StreamMap::default();
    assert_eq!(poll_next_once(&mut map), Poll::Ready(None));
}

#[test]
fn hint_is_unbounded_if_any_stream_is() {
    let mut map = StreamMap::new();
    map.insert(
        0,
        Box::pin(stream::iter(0..2)) as std::pin::Pin<Box<dyn Stream<Item = i32>>>,
    );
    map.insert(1, Box::pin(Always(1)));
    assert_eq!(map.size_hint(), (2, None));
}

fn turns(seed: u64, polls: usize) -> Vec<u8> {
    seed_thread_rng(seed);
    let mut map = StreamMap::new();
    for key in 0..3u8 {
        map.insert(key, Always(key));
    }
    (0..polls)
        .map(|_| match poll_next_once(&mut map) {
            Poll::Ready(Some((key, _))) => key,
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

#[test]
fn always_ready_streams_share_the_turns_fairly() {
    let seq = turns(7, 3000);
    let mut counts = [0usize; 3];
    for key in &seq {
        counts[*key as usize] += 1;
    }
    for count in counts {
        assert!((800..=1200).contains(&count), "unfair split {counts:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_order() {
    assert_eq!(turns(42, 64), turns(42, 64));
    assert_ne!(turns(1, 64), turns(2, 64));
}

/// Six streams; even keys end at their first poll, odd keys are pending.
fn half_ending_map() -> (StreamMap<usize, Scripted<u8>>, Vec<Probe>) {
    let mut map = StreamMap::new();
    let mut probes = Vec::new();
    for key in 0..6 {
        let steps = if key % 2 == 0 {
            vec![Poll::Ready(None)]
        } else {
            vec![Poll::Pending]
        };
        let (stream, probe) = Scripted::new(steps);
        map.insert(key, stream);
        probes.push(probe);
    }
    (map, probes)
}

#[test]
fn a_pending_round_polls_every_stream_exactly_once_whatever_the_start() {
    for seed in 0..64 {
        seed_thread_rng(seed);
        let (mut map, probes) = half_ending_map();
        let (wakes, waker) = counting_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(std::pin::Pin::new(&mut map).poll_next(&mut cx).is_pending());
        let polls: Vec<usize> = probes.iter().map(Probe::polls).collect();
        assert_eq!(polls, [1; 6], "seed {seed}");
        let mut keys: Vec<usize> = map.keys().copied().collect();
        keys.sort();
        assert_eq!(keys, [1, 3, 5], "seed {seed}");
        // Every pending stream holds the map's waker.
        for key in [1, 3, 5] {
            assert!(probes[key].wake());
        }
        assert_eq!(wakes.count(), 3);
    }
}

#[test]
fn a_round_where_every_stream_ends_ends_the_map() {
    for seed in 0..16 {
        seed_thread_rng(seed);
        let mut map = StreamMap::new();
        let mut probes = Vec::new();
        for key in 0..5 {
            let (stream, probe) = Scripted::<u8>::new([]);
            map.insert(key, stream);
            probes.push(probe);
        }
        assert_eq!(poll_next_once(&mut map), Poll::Ready(None));
        assert!(probes.iter().all(|p| p.polls() == 1), "seed {seed}");
    }
}

#[test]
fn next_many_fills_the_buffer_up_to_the_limit() {
    run(async {
        let mut map = StreamMap::new();
        map.insert("a", stream::iter(vec![1, 2, 3]));
        map.insert("b", stream::iter(vec![4, 5, 6]));
        let mut buffer = vec![("seed", 0)];
        assert_eq!(map.next_many(&mut buffer, 4).await, 4);
        assert_eq!(buffer.len(), 5);
        assert_eq!(buffer[0], ("seed", 0));
        assert_eq!(map.next_many(&mut buffer, 0).await, 0);
        assert_eq!(map.next_many(&mut buffer, 10).await, 2);
        let mut items: Vec<i32> = buffer[1..].iter().map(|(_, n)| *n).collect();
        items.sort();
        assert_eq!(items, [1, 2, 3, 4, 5, 6]);
        assert_eq!(map.next_many(&mut buffer, 10).await, 0);
        assert!(map.is_empty());
    });
}

#[test]
fn poll_next_many_is_pending_only_when_nothing_arrived() {
    let (a, probe_a) = Scripted::new([Poll::Pending, Poll::Ready(Some(1)), Poll::Pending]);
    let mut map = StreamMap::new();
    map.insert('a', a);
    let mut buffer = Vec::new();
    let (wakes, waker) = counting_waker();
    let mut cx = Context::from_waker(&waker);
    assert_eq!(map.poll_next_many(&mut cx, &mut buffer, 3), Poll::Pending);
    assert!(buffer.is_empty());
    assert!(probe_a.wake());
    assert_eq!(wakes.count(), 1);
    assert_eq!(map.poll_next_many(&mut cx, &mut buffer, 3), Poll::Ready(1));
    assert_eq!(buffer, [('a', 1)]);
}

#[test]
fn notify_close_reports_which_stream_ended() {
    let mut map = StreamMap::new();
    map.insert("short", StreamNotifyClose::new(stream::iter(vec![1])));
    map.insert("idle", StreamNotifyClose::new(stream::iter(Vec::new())));
    let mut got: Vec<(&str, Option<i32>)> = run(map.collect());
    got.sort();
    assert_eq!(got, [("idle", None), ("short", None), ("short", Some(1))]);
}

#[test]
fn notify_close_hint_counts_the_end_notice() {
    let mut s = StreamNotifyClose::new(stream::iter([1, 2]));
    assert_eq!(s.size_hint(), (3, Some(3)));
    assert!(s.get_ref().is_some());
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Some(1))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(Some(2))));
    assert_eq!(poll_next_once(&mut s), Poll::Ready(Some(None)));
    assert_eq!(s.size_hint(), (0, Some(0)));
    assert!(s.get_mut().is_none());
    assert_eq!(poll_next_once(&mut s), Poll::Ready(None));
    assert!(s.into_inner().is_none());
}

#[test]
fn a_seeded_runtime_reproduces_the_order() {
    fn run(seed: u64) -> Vec<u8> {
        rt_core::runtime::Builder::new_current_thread()
            .rng_seed(rt_core::runtime::RngSeed::from_u64(seed))
            .build()
            .expect("runtime builds")
            .block_on(async {
                let mut map = StreamMap::new();
                for key in 0..4u8 {
                    map.insert(key, Always(key));
                }
                map.map(|(key, _)| key).take(40).collect::<Vec<u8>>().await
            })
    }
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
}
